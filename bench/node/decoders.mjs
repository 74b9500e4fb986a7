// decoders.mjs — modern decoders at real sizes (issue 31 item 3), Node: our Engine (the page's
// path: stageCheckpointFile → loadCheckpoint → runCheckpoint with {generate, max_len}, greedy,
// through the core's key/value cache) against peers on the same weights:
//   smollm2_135m — a SmolLM2-135M-sized random Llama (576, 30 layers, 9/3 heads, FFN 1536, vocab 49152)
//   qwen25_05b   — a Qwen2.5-0.5B-sized random qwen2 (896, 24 layers, 14/2 heads, FFN 4864, vocab 151936, q/k/v bias)
// made by bench/python/write_decoder_checkpoints.py. Each case: a 16-token prompt, 64 tokens greedy.
// Peers: onnxruntime-web running onnx_graph.mjs's llamaKvModel (past/present key/values) at 1 and 2
// intra-op threads; wllama (llama.cpp's wasm) on GGUF files gguf.mjs writes from the same weights,
// in headless Chromium (bench/browser/wllama.mjs; --no-wllama leaves it out).
// Reported apart: prefill ms (the prompt's run) and decode ms per token (the rounds through the
// cache). Ours: the Engine's own timing (runCheckpoint's timing.prefill_ms and decode_ms /
// decode_rounds); its prefill round and its last round are *recorded* runs (the full trace the page
// shows), which the decode figure leaves out. Checks: each peer's first-step logits (the prompt's
// last position) and the last step's against ours, max |diff| / max |logit| < 1e-4 (F16 GGUF:
// 3e-2), and its 64 generated ids equal ours (F16: reported, not required).
//
//   node decoders.mjs [--json] [--quick] [--check] [--ours DIR] [--smollm DIR] [--qwen DIR] [--rounds N]
//                     [--cases smollm2_135m,qwen25_05b] [--no-wllama] [--no-ort] [--plant-defect SIZE]
//                     [--peer-threads 1,2] [--wllama-types F32,F16] [--plant-gguf-no-permute]
// --plant-gguf-no-permute writes Llama's q/k rows to the GGUF unpermuted (a planted defect for wllama).
// Defaults: --smollm $EW_CK_SMOLLM or /tmp/ck-smollm2-135m, --qwen $EW_CK_QWEN or /tmp/ck-qwen25-05b.
// --plant-defect SIZE adds SIZE to one down_proj weight of the last layer in the peers' copy.
// Exit 2: a check failed.
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import os from 'node:os';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { median, round, renderTable } from './suite.mjs';
import { ortKvGenerate } from './ort_kv.mjs';
import { openCheckpoint } from './checkpoint_dir.mjs';

v8.setFlagsFromString('--no-liftoff');
v8.setFlagsFromString('--experimental-wasm-relaxed-simd');
const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const log = (...m) => process.stderr.write(m.join(' ') + '\n');
const TOL = 1e-4, TOL_F16 = 3e-2;
const GEN = 64;
const PROMPT = 'abcdefghijklmnop';  // 16 tokens in the fixtures' byte-level vocabulary (one per letter)
// wllama's extra check: the first generated id after each of these prompts (ours vs its), since
// greedy generation from one prompt repeats one token on these random models.
const PROBES = ['the cat sat on the mat', 'qrstuvwxyz', 'hello world', 'ABCDEFG', '0123456789', 'zyx', 'mno pqr', 'a dog ran in the park'];

function parseArgs(argv) {
  const a = { json: false, quick: false, check: false, plant: 0, rounds: 0, wllama: true, ort: true, ours: path.join(ROOT, 'build/wasm/node'),
              smollm: process.env.EW_CK_SMOLLM || '/tmp/ck-smollm2-135m', qwen: process.env.EW_CK_QWEN || '/tmp/ck-qwen25-05b',
              cases: ['smollm2_135m', 'qwen25_05b'], threads: [1, 2], types: ['F32', 'F16'] };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i], next = () => argv[++i] ?? (() => { throw new Error(`${k} needs a value`); })();
    if (k === '--json') a.json = true; else if (k === '--quick') a.quick = true; else if (k === '--check') a.check = true;
    else if (k === '--plant-defect') a.plant = Number(next()); else if (k === '--rounds') a.rounds = Number(next());
    else if (k === '--ours') a.ours = path.resolve(next()); else if (k === '--smollm') a.smollm = next(); else if (k === '--qwen') a.qwen = next();
    else if (k === '--plant-gguf-no-permute') a.noPermute = true;
    else if (k === '--peer-threads') a.threads = next().split(',').map(Number); else if (k === '--wllama-types') a.types = next().split(',');
    else if (k === '--cases') a.cases = next().split(','); else if (k === '--no-wllama') a.wllama = false; else if (k === '--no-ort') a.ort = false;
    else throw new Error(`unknown argument ${k}`);
  }
  if (!a.rounds) a.rounds = a.quick ? 2 : 3;
  return a;
}

// ---- the safetensors file (F32, F16 or BF16 → float32), keys without "model." ----
function readSafetensors(file) {
  const buf = fs.readFileSync(file);
  const n = Number(buf.readBigUInt64LE(0)), header = JSON.parse(buf.subarray(8, 8 + n).toString('utf8'));
  const w = { shape: {}, dtype: {} };
  for (const [k, v] of Object.entries(header)) {
    if (k === '__metadata__') continue;
    const [b, e] = v.data_offsets, name = k.replace(/^model\./, ''), raw = buf.subarray(8 + n + b, 8 + n + e);
    let out;
    if (v.dtype === 'F32') { out = new Float32Array((e - b) / 4); new Uint8Array(out.buffer).set(raw); }
    else {
      const u = new Uint16Array((e - b) / 2); new Uint8Array(u.buffer).set(raw);
      out = new Float32Array(u.length);
      if (v.dtype === 'BF16') { const o32 = new Uint32Array(out.buffer); for (let i = 0; i < u.length; i++) o32[i] = u[i] << 16; }
      else for (let i = 0; i < u.length; i++) out[i] = f16ToF32(u[i]);
    }
    w[name] = out; w.shape[name] = v.shape; w.dtype[name] = v.dtype;
  }
  return w;
}
function f16ToF32(h) {
  const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 31, f = h & 1023;
  if (e === 0) return s * f * 2 ** -24;
  if (e === 31) return f ? NaN : s * Infinity;
  return s * (1 + f / 1024) * 2 ** (e - 15);
}

// ---- ours -------------------------------------------------------------------------------------------
async function loadModule(dir, base) {
  const js = path.join(dir, base + '.js'), wasm = path.join(dir, base + '.wasm');
  if (!fs.existsSync(js)) throw new Error(`our module is not built: ${js} (cmake --build --preset wasm)`);
  return require(js)({ wasmBinary: fs.readFileSync(wasm), print: log, printErr: log });
}
function stepOf(e, meta, id) {
  const i = meta.steps.findIndex((s) => s.id === id);
  if (i < 0) throw new Error(`no step ${id}`);
  return { data: e.stepData(i).slice(), shape: meta.steps[i].shape };
}

// ---- common ----------------------------------------------------------------------------------------------
export function relDiff(a, ref) {
  let m = 0, r = 0, finite = a.length === ref.length;
  for (let i = 0; finite && i < a.length; i++) {
    if (!Number.isFinite(a[i])) { finite = false; break; }
    m = Math.max(m, Math.abs(a[i] - ref[i])); r = Math.max(r, Math.abs(ref[i]));
  }
  return { rel: finite ? m / r : Infinity, abs: m, ref: r };
}
const fmtDiff = (d) => `max |diff| ${d.abs.toExponential(2)} / max |logit| ${d.ref.toFixed(3)} = ${d.rel.toExponential(2)}`;

// ---- the cases ---------------------------------------------------------------------------------------------
const CASES = {
  smollm2_135m: { dirArg: 'smollm', label: 'SmolLM2-135M-sized llama', flag: '--smollm2-135m' },
  qwen25_05b: { dirArg: 'qwen', label: 'Qwen2.5-0.5B-sized qwen2', flag: '--qwen25-05b' },
};

// Bytes of weights one decoded token reads: every matmul weight (q, k, v, o, gate, up, down of each
// layer) and the head (the tied embedding table), at `bytesPer` bytes per number.
function weightBytesPerToken(c, bytesPer) {
  const d = c.hidden_size, H = c.num_attention_heads, KV = c.num_key_value_heads, hd = c.head_dim || d / H;
  const perLayer = d * H * hd + 2 * d * KV * hd + H * hd * d + 3 * d * c.intermediate_size;
  return (c.num_hidden_layers * perLayer + c.vocab_size * d) * bytesPer;
}

async function runCase(key, A, mods, P, W, check, R) {
  const spec = CASES[key], dir = A[spec.dirArg];
  const c = JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8'));
  const opts = JSON.stringify({ generate: true, max_len: GEN });
  const impls = [];
  let ref = null;
  for (const [impl, M, build] of mods) {
    log(`  ${key}: loading ${impl}`);
    const { e, info, loadMs } = openCheckpoint(M, dir);
    const meta = JSON.parse(e.runCheckpoint(PROMPT, '', opts));
    if (!meta.ok) throw new Error(`runCheckpoint: ${meta.error}`);
    const g = meta.generated_ids, tok = Array.from(stepOf(e, meta, 'token_ids').data);
    if (!ref) {
      const lg = stepOf(e, meta, 'logits'), V = lg.shape.at(-1), T = tok.length;
      const prompt = tok.slice(0, T - (g.length - 1));
      ref = { gen: g, prompt, V, first: lg.data.slice((prompt.length - 1) * V, prompt.length * V), last: lg.data.slice((T - 1) * V, T * V),
              rows: lg.data.slice((prompt.length - 1) * V, T * V) };  // the logits that chose each generated token
      R.notes.push(`${key}: prompt "${PROMPT}" = ${prompt.length} tokens ${JSON.stringify(prompt)}; ours generated ${g.length} ids ${JSON.stringify(g.slice(0, 12))}…; checkpoint ${info.params ?? '?'} params, ${info.bytes ? (info.bytes / 1e6).toFixed(0) + ' MB' : ''}.`);
      if (g.length !== GEN) R.notes.push(`${key}: ours generated ${g.length} tokens, not ${GEN} (end token)`);
    } else check(`${key} ${impl} generates as ${mods[0][0]}`, JSON.stringify(g) === JSON.stringify(ref.gen), `${g.length} tokens`);
    R.notes.push(`${key} ${impl}: loaded (staged + loadCheckpoint) in ${(loadMs / 1000).toFixed(1)} s; load reply ${JSON.stringify(Object.fromEntries(Object.entries(info).filter(([k]) => /dtype|bytes|params|precision/.test(k))))}.`);
    impls.push({ impl, ours: true, build, engine: e, precision: String(info.precision || 'f32').toUpperCase(), run: () => {
      const r = JSON.parse(e.runCheckpoint(PROMPT, '', opts));
      if (!r.ok || r.generated_ids.length !== ref.gen.length) throw new Error('generation changed');
      return { prefillMs: r.timing.prefill_ms, decodeMs: r.timing.decode_ms, decodeTokens: r.timing.decode_rounds, recordMs: r.timing.record_ms };
    }, dispose: () => e.delete() });
  }
  const peerCheck = (impl, res, tol, idsRequired) => {
    const d1 = relDiff(res.first, ref.first), d2 = relDiff(res.last, ref.last), same = JSON.stringify(res.ids) === JSON.stringify(ref.gen);
    check(`${key} ${impl} first-step logits vs ours`, d1.rel < tol, `${fmtDiff(d1)} (tolerance ${tol})`);
    check(`${key} ${impl} last-step logits vs ours`, !same || d2.rel < tol, same ? `${fmtDiff(d2)} at position ${ref.prompt.length + GEN - 2}` : 'not comparable: the ids differ');
    if (idsRequired) check(`${key} ${impl} generates as ours`, same, `${res.ids.length} ids${same ? '' : ': ' + JSON.stringify(res.ids.slice(0, 16))}`);
    else R.notes.push(`${key} ${impl}: ${same ? 'the same' : 'not the same'} ${res.ids.length} ids as ours (F16 weights: not required).`);
  };
  let w = null;
  if (P) {
    w = readSafetensors(path.join(dir, 'model.safetensors'));
    if (A.plant) w[`layers.${c.num_hidden_layers - 1}.mlp.down_proj.weight`][5] += A.plant;
    let bytes;
    // Past protobuf's 2 GB (the Qwen2.5-0.5B size in F32), the weights go as ONNX external data.
    const external = weightBytesPerToken(c, 4) > 1.9e9;
    try { bytes = P.llamaKvModel(c, w, { external }); } catch (err) { R.notes.push(`${key} ort: no graph (${String(err.message || err).slice(0, 200)})`); }
    if (bytes) {
      for (const threads of P.threadCounts) {
        const impl = `${P.name}, KV cache, ${threads} thread${threads > 1 ? 's' : ''}`;
        let sess;
        try { sess = await P.session(bytes, threads); } catch (err) { R.notes.push(`${impl}: no session (${String(err.message || err).slice(0, 300)}); not timed`); continue; }
        if (!P.noted) { P.noted = true; R.notes.push(`ort-web: env.wasm.numThreads ${P.ort.env.wasm.numThreads} after the first session (ort lowers it to 1 when it cannot start threads), crossOriginIsolated ${globalThis.crossOriginIsolated}; sessions with intraOpNumThreads 1 and 2, graph optimisation "all", wasm execution provider (SIMD).`); }
        const geom = { layers: c.num_hidden_layers, kvHeads: c.num_key_value_heads, headDim: c.head_dim || c.hidden_size / c.num_attention_heads };
        const res = await ortKvGenerate(P.ort, sess, geom, ref.prompt, GEN);
        peerCheck(impl, res, TOL, true);
        impls.push({ impl, peer: 'ort', threads, run: () => ortKvGenerate(P.ort, sess, geom, ref.prompt, GEN), dispose: () => sess.release() });
      }
    }
  }
  if (W) {
    if (!w) { w = readSafetensors(path.join(dir, 'model.safetensors')); if (A.plant) w[`layers.${c.num_hidden_layers - 1}.mlp.down_proj.weight`][5] += A.plant; }
    const e0 = impls[0].engine, probes = [];
    for (const text of PROBES) {
      const m = JSON.parse(e0.runCheckpoint(text, '', JSON.stringify({ generate: true, max_len: 1 })));
      probes.push({ text, id: m.generated_ids[0], n: stepOf(e0, m, 'token_ids').data.length });
    }
    for (const r of await W.setup(key, dir, c, w, A.plant, ref.prompt, GEN)) {
      wllamaCheck(key, r, ref, r.f16 ? TOL_F16 : TOL, check, R);
      const got = [];
      for (const p of probes) got.push({ ...p, peer: await r.probe(p.text) });
      const usable = got.filter((g) => g.peer.prompt_n === g.n), bad = usable.filter((g) => g.peer.id !== g.id);
      const detail = `${usable.length - bad.length}/${usable.length} prompts give our first id (ours ${JSON.stringify(usable.map((g) => g.id))}${bad.length ? ', its ' + JSON.stringify(usable.map((g) => g.peer.id)) : ''})${usable.length < got.length ? `; ${got.length - usable.length} skipped: a different prompt length` : ''}`;
      if (!r.f16) check(`${key} ${r.impl} first ids after ${got.length} other prompts`, usable.length > 0 && bad.length === 0, detail);
      else R.notes.push(`${key} ${r.impl} first ids after ${got.length} other prompts: ${detail} (F16: not required).`);
      impls.push({ impl: r.impl, peer: r.f16 ? 'wllama_f16' : 'wllama', threads: r.threads, run: r.run, dispose: r.dispose });
    }
  }
  w = null;
  return { key, name: `${key} ${ref.prompt.length}+${GEN} tokens`, c, impls };
}

// wllama 3.13.0's completion API gives no logits (see wllama_peer.mjs): its check is the 64
// greedy ids against ours (F32 weights: required; F16: reported).
function wllamaCheck(key, r, ref, tol, check, R) {
  const { ids, predicted } = r.first;
  const same = ids.length === ref.gen.length && ids.every((x, i) => x === ref.gen[i]);
  const msg = `${predicted} tokens${same ? '' : '; first differing at ' + ids.findIndex((x, i) => x !== ref.gen[i]) + ': ' + JSON.stringify(ids.slice(0, 12))}`;
  if (!r.f16) check(`${key} ${r.impl} generates as ours`, same, msg);
  else R.notes.push(`${key} ${r.impl}: ${same ? 'the same ids as ours' : 'not the same ids as ours'} (${msg}; F16 weights: not required).`);
}

async function timeRounds(cs, rounds) {
  for (const im of cs.impls) im.samples = [];
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < cs.impls.length; j++) {
      const im = cs.impls[(j + r) % cs.impls.length];
      const s = await im.run();
      im.samples.push({ prefill: s.prefillMs, decode: s.decodeMs / s.decodeTokens, record: s.recordMs });
    }
    log(`  round ${r + 1}/${rounds}: ${cs.impls.map((i) => `${i.impl} ${i.samples[r].prefill.toFixed(0)} / ${i.samples[r].decode.toFixed(1)}`).join('; ')}`);
  }
}

function summarize(cs, R, bw) {
  for (const im of cs.impls) {
    const dec = im.samples.map((s) => s.decode), pre = im.samples.map((s) => s.prefill);
    R.results.push({ name: `${cs.name} decode`, impl: im.impl, ms_median: round(median(dec)), ms_min: round(Math.min(...dec)), ms_max: round(Math.max(...dec)), gflops: null, runs: dec.length, iters_per_run: GEN - 1 });
    R.results.push({ name: `${cs.name} prefill`, impl: im.impl, ms_median: round(median(pre)), ms_min: round(Math.min(...pre)), ms_max: round(Math.max(...pre)), gflops: null, runs: pre.length, iters_per_run: 1 });
  }
  const ours = (b) => cs.impls.find((i) => i.ours && i.build === b);
  const o = ours('relaxed'), s = ours('simd128');
  const D = (R.decoders[cs.key] = { config: { hidden: cs.c.hidden_size, layers: cs.c.num_hidden_layers, heads: cs.c.num_attention_heads, kv_heads: cs.c.num_key_value_heads, ffn: cs.c.intermediate_size, vocab: cs.c.vocab_size }, impls: {} });
  for (const im of cs.impls) {
    D.impls[im.impl] = { prefill_ms: round(median(im.samples.map((x) => x.prefill))), decode_ms_per_token: round(median(im.samples.map((x) => x.decode))),
                         ...(im.ours ? { record_ms: round(median(im.samples.map((x) => x.record))) } : {}), threads: im.threads ?? 1 };
  }
  if (o) R[`${cs.key}_decode_ms`] = round(median(o.samples.map((x) => x.decode)));
  if (s) R[`${cs.key}_decode_ms_simd128`] = round(median(s.samples.map((x) => x.decode)));
  for (const [b, sfx] of [['simd128', ''], ['relaxed', '_relaxed']]) {
    const ob = ours(b);
    if (!ob) continue;
    for (const peer of ['ort', 'wllama', 'wllama_f16']) {
      for (const threads of [1, 2]) {
        const p = cs.impls.find((i) => i.peer === peer && (i.threads ?? 1) === threads);
        if (!p) continue;
        const k = `checkpoint_vs_${peer}${threads > 1 ? '_2t' : ''}${sfx}`;
        (R.ratios[k] ||= {})[cs.key] = round(median(p.samples.map((x, i) => x.decode / ob.samples[i].decode)));
        R.peer_formulation_used[`${peer}${threads > 1 ? ' 2t' : ''} ${cs.key}`] = p.impl;
      }
    }
  }
  // The relaxed build's decode time against the bytes of weights it reads per token, at the
  // precision the load reply says they are kept in (a 16-bit file stays 16-bit, widened in registers).
  if (o && bw) {
    const per = /^(F16|BF16)$/.test(o.precision) ? 2 : 4;
    const bytes = weightBytesPerToken(cs.c, per), ms = median(o.samples.map((x) => x.decode));
    const gbs = bytes / (ms / 1000) / 1e9;
    (R.bandwidth_share ||= {})[cs.key] = round(gbs / bw.gb_s, 3);
    D.bandwidth = { weight_bytes_per_token: bytes, precision: `${o.precision} in memory (the load reply's precision, ${per} bytes a weight)`, achieved_gb_s: round(gbs, 3), copy_gb_s: bw.gb_s };
  }
}

async function main() {
  const A = parseArgs(process.argv.slice(2));
  const cpu = os.cpus();
  const R = { machine: `${cpu[0] ? cpu[0].model.trim() : 'unknown CPU'}, ${cpu.length} logical CPUs, Node ${process.version}`,
              settings: `decoders: ${A.rounds} interleaved rounds, one ${GEN}-token generation each`, results: [], ratios: {}, peer_formulation_used: {}, decoders: {}, checks: [], notes: [], versions: {} };
  const check = (name, ok, detail) => { R.checks.push({ name, ok, detail }); log(`  check ${name}: ${ok ? 'ok' : 'FAIL'} (${detail})`); };
  const todo = [];
  for (const k of A.cases) {
    const dir = A[CASES[k].dirArg];
    if (fs.existsSync(path.join(dir, 'model.safetensors'))) todo.push(k);
    else { R.notes.push(`${k} skipped: no checkpoint in ${dir} (make it with: /usr/bin/python3 bench/python/write_decoder_checkpoints.py ${CASES[k].flag} ${dir})`); log(R.notes.at(-1)); }
  }
  if (todo.length) {
    let P = null, W = null;
    if (A.ort) {
      const ort = await import('onnxruntime-web');
      ort.env.wasm.numThreads = 2; ort.env.wasm.proxy = false; ort.env.logLevel = 'error';
      const G = await import('./onnx_graph.mjs');
      P = { ort, ...G, name: `ort-web ${ort.env.versions.web} wasm SIMD`, threadCounts: A.threads,
            session: (bytes, threads) => ort.InferenceSession.create(bytes.model || bytes, { ...(bytes.externalData ? { externalData: bytes.externalData } : {}), executionProviders: ['wasm'], graphOptimizationLevel: 'all', intraOpNumThreads: threads, interOpNumThreads: 1, executionMode: 'sequential', logSeverityLevel: 3 }) };
      R.versions.ort = ort.env.versions.web;
    }
    if (A.wllama) {
      try { W = await (await import('./wllama_peer.mjs')).wllamaPeer({ log, notes: R.notes, versions: R.versions, threadCounts: A.threads, types: A.types, noPermute: !!A.noPermute }); }
      catch (err) { R.notes.push(`wllama: not run (${String(err.message || err).slice(0, 300)})`); log(R.notes.at(-1)); }
    }
    const mods = [['ew wasm relaxed SIMD (FMA)', await loadModule(A.ours, 'encoder_walkthrough_relaxed_node'), 'relaxed'],
                  ['ew wasm SIMD128', await loadModule(A.ours, 'encoder_walkthrough_node'), 'simd128']];
    R.versions.node = process.version;
    const bw = mods[0][1].copyBandwidthBench ? null : await measureBandwidth();
    R.copy_bandwidth = bw;
    for (const k of todo) {
      log(`decoders: setting up ${k}`);
      let cs;
      try { cs = await runCase(k, A, mods, P, W, check, R); }
      catch (err) {  // e.g. ours cannot hold a 2 GB F32 checkpoint beside its staged file in wasm32's 4 GB
        R.notes.push(`${k}: not run — ${String(err.message || err).slice(0, 300)}`); log(R.notes.at(-1));
        continue;
      }
      if (!A.check) {
        log(`decoders: timing ${cs.name}, ${A.rounds} interleaved rounds`);
        await timeRounds(cs, A.rounds);
        summarize(cs, R, bw);
      }
      for (const im of cs.impls) { try { await im.dispose(); } catch { /* ignore */ } }
    }
    if (W) await W.close();
  }
  if (A.json) process.stdout.write(JSON.stringify(R, null, 1) + '\n');
  else process.stdout.write(renderTable(R) + '\n' + renderDecoders(R));
  if (R.checks.some((c) => !c.ok)) { log('some decoder checks failed'); process.exitCode = 2; }
}

export function renderDecoders(R) {
  const out = [];
  for (const [k, D] of Object.entries(R.decoders || {})) {
    out.push(`${k} (${JSON.stringify(D.config)})`);
    out.push(`  ${'implementation'.padEnd(58)} ${'prefill ms'.padStart(11)} ${'decode ms/token'.padStart(16)}`);
    for (const [impl, v] of Object.entries(D.impls)) out.push(`  ${impl.padEnd(58)} ${String(v.prefill_ms).padStart(11)} ${String(v.decode_ms_per_token).padStart(16)}`);
    if (D.bandwidth) out.push(`  bandwidth: ${(D.bandwidth.weight_bytes_per_token / 1e6).toFixed(0)} MB of weights per token at ${D.bandwidth.achieved_gb_s} GB/s; copy ${D.bandwidth.copy_gb_s} GB/s; share ${R.bandwidth_share?.[k]}`);
  }
  for (const [k, v] of Object.entries(R.ratios)) if (k.startsWith('checkpoint_vs_')) out.push(`${k}: ${JSON.stringify(v)}`);
  for (const c of R.checks) out.push(`check ${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`);
  for (const n of R.notes) out.push(`note: ${n}`);
  return out.join('\n') + '\n';
}

async function measureBandwidth() {
  const { copyBandwidth } = await import('./bandwidth.mjs');
  return copyBandwidth();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  main().catch((e) => { log('decoders.mjs: ' + (e && e.stack ? e.stack : e)); process.exit(1); });
