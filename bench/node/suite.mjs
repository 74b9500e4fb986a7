// suite.mjs — the WebAssembly benchmark itself, shared by the two runtimes that run it: Node
// (bench.mjs) and headless Chromium (../browser/page.mjs, bundled by ../browser/run.mjs). It
// holds the workloads (the seeded operands of core/model/random.cpp, the gemm and layer shapes,
// the peers' layer formulations), the correctness checks made while setting the cases up, the
// calibration, the interleaved rounds and the ratios. No Node or DOM API is used here: each
// runtime loads the modules (ours: SIMD128, scalar, relaxed; tfjs; onnxruntime-web) its own way
// and passes them to runSuite().

// ---- statistics --------------------------------------------------------------------------
export function median(xs) {
  const s = [...xs].sort((x, y) => x - y), n = s.length;
  if (!n) return NaN;
  return n % 2 ? s[(n - 1) >> 1] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}
export const round = (x, d = 4) => (Number.isFinite(x) ? Number(x.toPrecision(d)) : null);

// ---- the seeded numbers of core/model/random.cpp (SplitMix64), so that the peers' matmul runs on
// exactly the operands of Module.MatmulBench and the checksums can be compared ------------
const M64 = (1n << 64n) - 1n;
function splitmix64(x) {
  x = (x + 0x9e3779b97f4a7c15n) & M64;
  x = ((x ^ (x >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
  x = ((x ^ (x >> 27n)) * 0x94d049bb133111ebn) & M64;
  return x ^ (x >> 31n);
}
function seededStream(seed, name) {
  let h = 0xcbf29ce484222325n;
  for (const c of new TextEncoder().encode(name)) h = ((h ^ BigInt(c)) * 0x100000001b3n) & M64;
  return splitmix64(h ^ splitmix64(BigInt(seed)));
}
export function seededArray(seed, name, n) {
  const s = seededStream(seed, name), out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = (Number(splitmix64((s + BigInt(i) * 0x9E3779B97F4A7C15n) & M64) >> 40n) - (1 << 23)) / (1 << 23);
  return out;
}

// ---- the cases -------------------------------------------------------------------------------
export const GEMM_SHAPES = [[128, 512, 2048], [128, 768, 3072]];
export const LAYER_SHAPES = [
  { T: 128, d: 512, h: 8, ff: 2048, label: 'T128 d512 h8 ff2048' },
  { T: 128, d: 768, h: 12, ff: 3072, label: 'T128 d768 h12 ff3072 (BERT-base)' },
];
const gemmName = ([M, K, N]) => `gemm ${M}x${K}x${N}`;
const layerName = (s) => `layer ${s.label}`;
// A layer's output against ours (max |diff|): agreement seen is 2.6e-6–5.3e-6 (peers, scalar and
// relaxed builds, Node and Chromium); 1e-3 let a weight off by 0.01 through (7.8e-4; planted once).
const LAYER_TOL = 1e-4;
// Matmul FLOPs of one post-norm layer: Q,K,V,W_o; Q·Kᵀ and weights·V; the FFN.
const layerFlops = ({ T, d, ff }) => 8 * T * d * d + 4 * T * T * d + 4 * T * d * ff;

export function layerModelJson(s, input) {
  const rows = [];
  for (let t = 0; t < s.T; t++) rows.push(Array.from(input.subarray(t * s.d, (t + 1) * s.d)));
  return JSON.stringify({
    config: { d_model: s.d, num_heads: s.h, d_ff: s.ff, num_layers: 1, norm: 'post', activation: 'relu',
              layer_norm_eps: 1e-5, positional: 'none', scale: true, seed: 66 },
    input: rows,
  });
}

// Loads a model into a new Engine; returns {engine, meta, step(id), params}.
export function loadEngine(M, modelJson) {
  const engine = new M.Engine();
  const meta = JSON.parse(engine.run(modelJson, '{}'));
  if (!meta.ok) throw new Error('Engine.run: ' + meta.error);
  const stepIndex = new Map(meta.steps.map((s, i) => [s.id, i]));
  return {
    engine, meta,
    step(id) {
      if (!stepIndex.has(id)) throw new Error(`no step ${id}`);
      return engine.stepData(stepIndex.get(id)).slice();
    },
    params() {
      const out = {};
      (meta.params || []).forEach((p, i) => { out[p.id] = engine.paramData(i).slice(); });
      return out;
    },
  };
}

// ---- the peers --------------------------------------------------------------------------------

const ortSession = (P, bytes) =>
  P.ort.InferenceSession.create(bytes, { executionProviders: ['wasm'], graphOptimizationLevel: 'all', intraOpNumThreads: 1, interOpNumThreads: 1 });

// tfjs: one post-norm layer, weights as tensors (uploaded once), in one of two formulations:
// 'fused' — tf.fused.matMul with the bias (and ReLU) in the matmul; 'plain' — tf.matMul, then
// tf.add and tf.relu. LayerNorm from tf.moments (tfjs has no fused LayerNorm).
function tfjsLayer(tf, s, w, formulation = 'fused', eps = 1e-5) {
  const T = {}, dk = s.d / s.h;
  const dims = { W_1: [s.d, s.ff], W_2: [s.ff, s.d] };
  for (const [k, v] of Object.entries(w)) T[k] = tf.tensor(v, k.startsWith('W_') ? dims[k] || [s.d, s.d] : [v.length]);
  const scale = tf.scalar(1 / Math.sqrt(dk));
  const layerNorm = (x, g, b) => {
    const { mean, variance } = tf.moments(x, -1, true);
    return tf.add(tf.mul(tf.mul(tf.sub(x, mean), tf.rsqrt(tf.add(variance, eps))), g), b);
  };
  const heads = (x) => tf.transpose(tf.reshape(x, [s.T, s.h, dk]), [1, 0, 2]);  // h×T×dk
  const linear = formulation === 'fused'
    ? (a, W, b, activation) => tf.fused.matMul({ a, b: W, bias: b, activation })
    : (a, W, b, activation) => { const y = tf.add(tf.matMul(a, W), b); return activation === 'relu' ? tf.relu(y) : y; };
  const run = (x) => tf.tidy(() => {
    const q = heads(linear(x, T.W_q, T.b_q));
    const k = heads(linear(x, T.W_k, T.b_k));
    const v = heads(linear(x, T.W_v, T.b_v));
    const p = tf.softmax(tf.mul(tf.matMul(q, k, false, true), scale), -1);
    const a = tf.reshape(tf.transpose(tf.matMul(p, v), [1, 0, 2]), [s.T, s.d]);
    const o = layerNorm(tf.add(x, linear(a, T.W_o, T.b_o)), T.ln1_gamma, T.ln1_beta);
    const hdn = linear(o, T.W_1, T.b_1, 'relu');
    const f = linear(hdn, T.W_2, T.b_2);
    return layerNorm(tf.add(o, f), T.ln2_gamma, T.ln2_beta);
  });
  return { run, dispose: () => { Object.values(T).forEach((t) => t.dispose()); scale.dispose(); } };
}

// Our parameter ids → the names the peers' layer builders use.
function layerWeights(params) {
  const w = {};
  for (const k of ['W_q', 'b_q', 'W_k', 'b_k', 'W_v', 'b_v', 'W_o', 'b_o', 'W_1', 'b_1', 'W_2', 'b_2']) {
    if (!params['layer0.' + k]) throw new Error(`our model has no parameter layer0.${k}`);
    w[k] = params['layer0.' + k];
  }
  for (const n of ['ln1', 'ln2'])
    for (const g of ['gamma', 'beta']) {
      if (!params[`layer0.${n}.${g}`]) throw new Error(`our model has no parameter layer0.${n}.${g}`);
      w[`${n}_${g}`] = params[`layer0.${n}.${g}`];
    }
  return w;
}

export function compare(a, b) {
  if (a.length !== b.length) return { max_abs_diff: Infinity, finite: false, n: a.length };
  let m = 0, finite = true, ref = 0;
  for (let i = 0; i < a.length; i++) {
    if (!Number.isFinite(a[i]) || !Number.isFinite(b[i])) { finite = false; continue; }
    m = Math.max(m, Math.abs(a[i] - b[i]));
    ref = Math.max(ref, Math.abs(b[i]));
  }
  return { max_abs_diff: m, max_abs_ref: ref, finite, n: a.length };
}
const allFinite = (a) => a.every((x) => Number.isFinite(x));
const sum = (a) => { let s = 0; for (const v of a) s += v; return s; };

// ---- timing ------------------------------------------------------------------------------------------
// An implementation: {impl, run (sync, or async when async: true), iters (set by calibrate)}.
async function timeIters(im, n) {
  const t0 = performance.now();
  if (im.async) for (let i = 0; i < n; i++) await im.run();
  else for (let i = 0; i < n; i++) im.run();
  return (performance.now() - t0) / n;
}

async function calibrate(im, targetMs) {
  await timeIters(im, 2);  // warm-up: first calls compile, allocate, prepack
  const one = await timeIters(im, 1);
  im.iters = Math.max(1, Math.min(10000, Math.ceil(targetMs / Math.max(one, 1e-3))));
}

// ---- the suite --------------------------------------------------------------------------------
// ours, oursScalar, oursRelaxed: instantiated modules (or null); tfjs: {tf, version}; P: {ort, matmulModel,
// encoderLayerModel, encoderLayerModelFused, version}; check(name, ok, detail) records a check;
// notes: an array to push to. checkOnly: set the cases up (which runs every check), time nothing.
// Returns {cases, results, ratios, peerUsed} (results and ratios of the timed cases only).
export async function runSuite({ ours, oursScalar, oursRelaxed, tfjs, P, rounds, targetMs, checkOnly = false, log, check, notes }) {
  const OURS = 'ew wasm SIMD128', SCALAR = 'ew wasm scalar', RELAXED = 'ew wasm relaxed SIMD (FMA)';
  const TFJS = tfjs ? `tfjs-wasm ${tfjs.version} SIMD` : null, ORT = P ? `ort-web ${P.version} wasm SIMD` : null;
  // The peers' layer formulations; each ratio is against the faster of a peer's formulations.
  const TFJS_PLAIN = tfjs ? `${TFJS}, matMul + add + relu` : null;
  const ORT_FUSED = P ? `${ORT}, com.microsoft Attention + SkipLayerNormalization` : null;
  const PEERS = { tfjs: [TFJS, TFJS_PLAIN], ort: [ORT, ORT_FUSED] };
  const oursBuilds = () => [[OURS, ours], [SCALAR, oursScalar], ...(oursRelaxed ? [[RELAXED, oursRelaxed]] : [])];

  // -- the cases: {name, flops, impls: [{impl, run, async}]}
  const cases = [];
  for (const shape of GEMM_SHAPES) {
    const [M, K, N] = shape, name = gemmName(shape);
    log(`setting up ${name}`);
    const A = seededArray(1, 'bench.A', M * K), B = seededArray(1, 'bench.B', K * N);  // = Module.MatmulBench's
    const impls = [];
    const outs = {};
    if (ours) {
      for (const [impl, mod] of oursBuilds()) {
        const mb = new mod.MatmulBench(M, K, N);
        mb.run();
        outs[impl] = mb.checksum();
        impls.push({ impl, run: () => mb.run(), dispose: () => mb.delete() });
      }
    }
    if (tfjs) {
      const { tf } = tfjs;
      const a = tf.tensor2d(A, [M, K]), b = tf.tensor2d(B, [K, N]);
      const run = () => { const c = tf.matMul(a, b); const d = c.dataSync(); c.dispose(); return d; };
      const c = run();
      if (!allFinite(c)) check(`${name} tfjs output finite`, false, 'non-finite values');
      outs[TFJS] = sum(c);
      impls.push({ impl: TFJS, run, dispose: () => { a.dispose(); b.dispose(); } });
    }
    if (P) {
      const sess = await ortSession(P, P.matmulModel(M, K, N, B));
      const feeds = { A: new P.ort.Tensor('float32', A, [M, K]) };
      const c = (await sess.run(feeds)).C.data;
      if (!allFinite(c)) check(`${name} ort output finite`, false, 'non-finite values');
      outs[ORT] = sum(c);
      impls.push({ impl: ORT, async: true, run: () => sess.run(feeds), dispose: () => sess.release() });
    }
    // Checksums: Σ C over the same seeded A and B (ours: Module.MatmulBench.checksum()).
    const refImpl = OURS in outs ? OURS : TFJS, ref = outs[refImpl];
    // Tolerance scale: each C entry is a sum of K products of uniform [-1, 1) numbers, |C| ~ √(K/9).
    // 1e-6 of it (2.0 at 128×512×2048, 3.6 at 128×768×3072) is ~1000× the rounding differences seen
    // (≤ 2.4e-3); 1e-5 let one wrong element of B through (ΣC off by 4.9; planted once, 2026-11-26).
    const scale = M * N * Math.sqrt(K / 9);
    for (const [impl, v] of Object.entries(outs)) {
      if (impl === refImpl) continue;
      const diff = Math.abs(v - ref);
      check(`${name} checksum ${impl} vs ${refImpl}`, Number.isFinite(v) && Number.isFinite(ref) && diff <= 1e-6 * scale,
            `ΣC ${v.toFixed(3)} vs ${ref.toFixed(3)}, |diff| ${diff.toExponential(2)}`);
    }
    if (impls.length) cases.push({ name, kind: 'gemm', key: `${M}x${K}x${N}`, flops: 2 * M * K * N, impls });
  }

  for (const s of LAYER_SHAPES) {
    const name = layerName(s);
    log(`setting up ${name}`);
    const input = seededArray(1, 'bench.input', s.T * s.d);  // = native_bench.cpp's input rows
    const impls = [];
    let w = null, ref = null;
    if (ours) {
      const json = layerModelJson(s, input);
      const e = loadEngine(ours, json), es = loadEngine(oursScalar, json);
      ref = e.step('layer0.output');
      w = layerWeights(e.params());
      const refScalar = es.step('layer0.output');
      const c = compare(refScalar, ref);
      check(`${name} ours scalar vs SIMD`, c.finite && allFinite(ref) && c.max_abs_diff < LAYER_TOL, `max |diff| ${c.max_abs_diff.toExponential(2)} (|y| ≤ ${c.max_abs_ref.toFixed(2)})`);
      impls.push({ impl: OURS, run: () => e.engine.rerun(), dispose: () => e.engine.delete() });
      impls.push({ impl: SCALAR, run: () => es.engine.rerun(), dispose: () => es.engine.delete() });
      if (oursRelaxed) {
        const er = loadEngine(oursRelaxed, json);
        const cr = compare(er.step('layer0.output'), ref);
        check(`${name} ours relaxed vs SIMD`, cr.finite && cr.max_abs_diff < LAYER_TOL, `max |diff| ${cr.max_abs_diff.toExponential(2)} (|y| ≤ ${cr.max_abs_ref.toFixed(2)})`);
        impls.push({ impl: RELAXED, run: () => er.engine.rerun(), dispose: () => er.engine.delete() });
      }
    } else {
      // Peers only (testing): seeded weights like the core's (Glorot uniform, zero bias, γ = 1, β = 0).
      w = {};
      const glorot = (i, o) => Math.sqrt(6 / (i + o));
      const mk = (id, i, o) => seededArray(66, id, i * o).map((x) => x * glorot(i, o));
      for (const m of ['q', 'k', 'v', 'o']) { w['W_' + m] = mk('layer0.W_' + m, s.d, s.d); w['b_' + m] = new Float32Array(s.d); }
      w.W_1 = mk('layer0.W_1', s.d, s.ff); w.b_1 = new Float32Array(s.ff);
      w.W_2 = mk('layer0.W_2', s.ff, s.d); w.b_2 = new Float32Array(s.d);
      for (const n of ['ln1', 'ln2']) { w[n + '_gamma'] = new Float32Array(s.d).fill(1); w[n + '_beta'] = new Float32Array(s.d); }
    }
    if (tfjs) {
      const { tf } = tfjs;
      for (const [impl, formulation] of [[TFJS, 'fused'], [TFJS_PLAIN, 'plain']]) {
        const L = tfjsLayer(tf, s, w, formulation);
        const x = tf.tensor2d(input, [s.T, s.d]);
        const run = () => { const y = L.run(x); const d = y.dataSync(); y.dispose(); return d; };
        const y = run();
        if (ref) {
          const c = compare(y, ref);
          check(`${name} ${impl} vs ${ours ? 'ours' : 'tfjs'}`, c.finite && c.max_abs_diff < LAYER_TOL, `max |diff| ${c.max_abs_diff.toExponential(2)} (|y| ≤ ${c.max_abs_ref.toFixed(2)})`);
        } else check(`${name} tfjs output finite`, allFinite(y), `${y.length} values`);
        ref = ref || y;
        impls.push({ impl, run, dispose: () => { L.dispose(); x.dispose(); } });
      }
    }
    if (P) {
      for (const [impl, build] of [[ORT, P.encoderLayerModel], [ORT_FUSED, P.encoderLayerModelFused]]) {
        let sess;
        try {
          sess = await ortSession(P, build(s.T, s.d, s.h, s.ff, w));
        } catch (e) {
          notes.push(`${impl}: the session could not be created (${String(e.message || e).slice(0, 200)}); not timed`);
          continue;
        }
        const feeds = { X: new P.ort.Tensor('float32', input, [s.T, s.d]) };
        const y = (await sess.run(feeds)).Y.data;
        if (ref) {
          const c = compare(y, ref);
          check(`${name} ${impl} vs ${ours ? 'ours' : 'tfjs'}`, c.finite && c.max_abs_diff < LAYER_TOL, `max |diff| ${c.max_abs_diff.toExponential(2)} (|y| ≤ ${c.max_abs_ref.toFixed(2)})`);
        } else check(`${name} ort output finite`, allFinite(y), `${y.length} values`);
        impls.push({ impl, async: true, run: () => sess.run(feeds), dispose: () => sess.release() });
      }
    }
    if (impls.length) cases.push({ name, kind: 'layer', key: `d${s.d}`, flops: layerFlops(s), impls });
  }

  if (ours) {
    const presets = JSON.parse(ours.presetsJson());
    const def = presets.find((p) => p.name === 'default') || presets[0];
    const json = JSON.stringify(def.model);
    const e = loadEngine(ours, json), es = loadEngine(oursScalar, json);
    const name = `full trace, preset "${def.name}"`;
    const steps = e.meta.steps.length;
    check(`${name} ours scalar vs SIMD (all ${steps} steps)`, (() => {
      for (let i = 0; i < steps; i++) {
        const a = e.engine.stepData(i), b = es.engine.stepData(i);
        for (let j = 0; j < a.length; j++) if (!(a[j] === b[j] || Math.abs(a[j] - b[j]) <= 1e-4 * (1 + Math.abs(b[j])))) return false;
      }
      return true;
    })(), `${steps} steps, |diff| ≤ 1e-4·(1+|y|)`);
    const traceImpls = [{ impl: OURS, run: () => e.engine.rerun(), dispose: () => e.engine.delete() },
                        { impl: SCALAR, run: () => es.engine.rerun(), dispose: () => es.engine.delete() }];
    if (oursRelaxed) {
      const er = loadEngine(oursRelaxed, json);
      traceImpls.push({ impl: RELAXED, run: () => er.engine.rerun(), dispose: () => er.engine.delete() });
    }
    cases.push({ name, kind: 'trace', key: def.name, flops: null, impls: traceImpls });
    notes.push(`Ours, layer and trace rows: Engine.run(model) once, then the time of Engine.rerun(), which runs ew::run and records the whole trace (every intermediate the page shows, incl. per-head scores and weights), as the page does; the peers compute only the layer output.`);
    notes.push(`The default preset is "${def.title}": ${JSON.stringify(def.model.config)}, text "${def.model.text}".`);
  }

  if (checkOnly) return { cases, results: [], ratios: {}, peerUsed: {} };
  // -- calibrate, then interleaved rounds
  if (cases.length) log(`calibrating (target ${targetMs} ms per sample)`);
  for (const c of cases) for (const im of c.impls) {
    await calibrate(im, targetMs);
    im.times = [];
  }
  if (cases.length) log(`timing: ${rounds} interleaved rounds`);
  for (let r = 0; cases.length && r < rounds; r++) {
    const t0 = performance.now();
    for (const c of cases) {
      const n = c.impls.length;
      for (let j = 0; j < n; j++) {
        const im = c.impls[(j + r) % n];  // rotate the order every round
        im.times[r] = await timeIters(im, im.iters);
      }
    }
    log(`  round ${r + 1}/${rounds} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  }

  // -- results and ratios
  const results = [], ratios = {}, peerUsed = {};
  // theirs: one implementation, or a list of a peer's formulations (the faster by median is used).
  const pairRatio = (c, theirs, mine) => {
    const cands = (Array.isArray(theirs) ? theirs : [theirs]).map((n) => c.impls.find((i) => i.impl === n)).filter(Boolean);
    const b = c.impls.find((i) => i.impl === mine);
    if (!cands.length || !b) return null;
    const a = cands.reduce((x, y) => (median(y.times) < median(x.times) ? y : x));
    return round(median(a.times.map((t, i) => t / b.times[i])), 4);
  };
  const fasterOf = (c, names) => {
    const cands = names.map((n) => c.impls.find((i) => i.impl === n)).filter(Boolean);
    return cands.length ? cands.reduce((x, y) => (median(y.times) < median(x.times) ? y : x)).impl : null;
  };
  const setRatio = (k, caseKey, v) => { if (v != null) (ratios[k] ||= {})[caseKey] = v; };
  for (const c of cases) {
    for (const im of c.impls) {
      const m = median(im.times);
      results.push({ name: c.name, impl: im.impl, ms_median: round(m), ms_min: round(Math.min(...im.times)),
                     ms_max: round(Math.max(...im.times)), gflops: c.flops ? round(c.flops / (m * 1e6), 4) : null,
                     runs: im.times.length, iters_per_run: im.iters });
    }
    const label = c.kind === 'trace' ? c.key : c.name.replace(/^(gemm|layer) /, '');
    // Plain SIMD128 build (keys as before), and the relaxed build (keys ending in _relaxed).
    for (const [mine, sfx] of [[OURS, ''], [RELAXED, '_relaxed']]) {
      if (c.kind === 'gemm' || c.kind === 'layer') {
        setRatio(`${c.kind}_vs_tfjs${sfx}`, label, pairRatio(c, PEERS.tfjs, mine));
        setRatio(`${c.kind}_vs_ort${sfx}`, label, pairRatio(c, PEERS.ort, mine));
      }
      setRatio(`simd_vs_scalar${sfx}`, `${c.kind} ${label}`, pairRatio(c, SCALAR, mine));
    }
    setRatio('relaxed_vs_simd', `${c.kind} ${label}`, pairRatio(c, OURS, RELAXED));
    if (c.kind === 'layer') for (const [peer, names] of Object.entries(PEERS)) {
      const best = fasterOf(c, names);
      if (best) peerUsed[`${peer} ${label}`] = best;
    }
  }
  return { cases, results, ratios, peerUsed };
}

// ---- table -------------------------------------------------------------------------------------------
export function renderTable(R) {
  const lines = [];
  lines.push(`Machine: ${R.machine}`);
  if (R.settings) lines.push(`Settings: ${R.settings}`);
  lines.push('');
  const rows = [['benchmark', 'implementation', 'median ms', 'min ms', 'max ms', 'GFLOP/s']];
  let last = null;
  for (const r of R.results) {
    rows.push([r.name === last ? '' : r.name, r.impl, fmt(r.ms_median), fmt(r.ms_min), fmt(r.ms_max), r.gflops == null ? '' : r.gflops.toFixed(2)]);
    last = r.name;
  }
  lines.push(...table(rows, [0, 0, 1, 1, 1, 1]));
  lines.push('');
  lines.push('Ratios: their time / our time (simd_vs_scalar: scalar / SIMD); > 1: ours (SIMD) is faster.');
  lines.push('WebAssembly ratios are medians of per-round pairs from the interleaved rounds; native ones are ratios of medians.');
  const rr = [['ratio', 'case', 'value']];
  for (const [k, v] of Object.entries(R.ratios || {})) for (const [c, x] of Object.entries(v)) rr.push([k, c, x == null ? 'n/a' : x.toFixed(2) + '×']);
  lines.push(...table(rr, [0, 0, 1]));
  if (R.bandwidth_share && Object.keys(R.bandwidth_share).length) {  // decoders.mjs: weight bytes per token / time, over the copy bandwidth
    lines.push('');
    lines.push(`Bandwidth share (weights read per decoded token / decode time, over ${R.copy_bandwidth ? R.copy_bandwidth.gb_s + ' GB/s, the wasm stream read bandwidth.mjs measured' : 'the measured wasm read bandwidth'}):`);
    for (const [k, v] of Object.entries(R.bandwidth_share)) lines.push(`  ${k}: ${v}`);
  }
  if (R.peer_formulation_used && Object.keys(R.peer_formulation_used).length) {
    lines.push('');
    lines.push('Peer formulation the layer ratios use (the faster of those timed):');
    for (const [k, v] of Object.entries(R.peer_formulation_used)) lines.push(`  ${k}: ${v}`);
  }
  if (R.checks && R.checks.length) {
    lines.push('');
    lines.push('Correctness checks');
    const cr = [['check', 'result', 'detail']];
    for (const c of R.checks) cr.push([c.name, c.ok ? 'ok' : 'FAIL', c.detail]);
    lines.push(...table(cr, [0, 0, 0]));
  }
  if (R.notes && R.notes.length) {
    lines.push('');
    for (const n of R.notes) lines.push('* ' + n);
  }
  return lines.join('\n') + '\n';
}
function fmt(x) {
  if (x == null || !Number.isFinite(x)) return 'n/a';
  return x >= 100 ? x.toFixed(1) : x >= 1 ? x.toFixed(3) : x.toPrecision(3);
}
function table(rows, right) {
  const w = rows[0].map((_, j) => Math.max(...rows.map((r) => String(r[j]).length)));
  const line = (r) => r.map((c, j) => (right[j] ? String(c).padStart(w[j]) : String(c).padEnd(w[j]))).join('  ').trimEnd();
  return [line(rows[0]), w.map((x) => '-'.repeat(x)).join('  '), ...rows.slice(1).map(line)];
}
