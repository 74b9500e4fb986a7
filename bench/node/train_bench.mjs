// train_bench.mjs — one training step, ours against TensorFlow.js, in Node, single thread, one
// process: the number-words encoder–decoder (pre-norm, GELU, sinusoidal positions, logits
// tied to the embedding table; 1 encoder + 1 decoder layer) on one fixed padded minibatch,
// forward + backward + AdamW (decoupled weight decay, global-norm clipping at 1.0, constant lr).
//   ours: Module.TrainBench (wasm/train_bench_bindings.cpp → core/train/train_batched.h), SIMD128 build
//   tfjs: tfjs-backend-wasm (SIMD, 1 thread), the same model written with tf ops, its own
//         autodiff (tf.variableGrads) and AdamW written with tf ops (tfjs has no AdamW)
// Before timing, both compute the loss of the same weights on the same batch (must agree to
// 1e-4 relative), and again after two optimizer steps (1e-3: the optimizer is the same too).
// Timing: interleaved rounds (both once per round, alternating which goes first), each the
// mean of a calibrated number of steps; the ratio train_vs_tfjs is the median of per-round
// tfjs/ours ratios. Progress on stderr; stdout: a table, or with --json one JSON object
// {"results": [...], "train_vs_tfjs": {"task_size": r, "d_model_512": r}, "checks": [...], "notes": [...]}.
//
//   node train_bench.mjs [--quick] [--json] [--ours DIR] [--rounds N] [--only task_size|d_model_512]
//   node train_bench.mjs --ours-only [--batch B] [--only …]   # our steps/s alone (no tfjs, no ratio)
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { loadTfjs } from './tfjs.mjs';
import v8 from 'node:v8';

if (!process.argv.includes('--default-tiering')) v8.setFlagsFromString('--no-liftoff');  // TurboFan, as bench.mjs

const require = createRequire(import.meta.url);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');
const log = (...m) => process.stderr.write(m.join(' ') + '\n');

const CASES = [
  { key: 'task_size', label: 'd32 h4 ff64 (number-words task size)', d: 32, h: 4, ff: 64, B: 32 },
  { key: 'd_model_512', label: 'd512 h8 ff2048', d: 512, h: 8, ff: 2048, B: 32 },
];
const LR = 3e-3, WEIGHT_DECAY = 0.01, CLIP = 1.0, EPS_LN = 1e-5, SEED = 1;

function parseArgs(argv) {
  const a = { quick: false, json: false, ours: path.join(ROOT, 'build/wasm/node'), rounds: 0, only: null, oursOnly: false, batch: 0 };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const next = () => { if (i + 1 >= argv.length) throw new Error(`${k} needs a value`); return argv[++i]; };
    if (k === '--quick') a.quick = true;
    else if (k === '--json') a.json = true;
    else if (k === '--ours') a.ours = path.resolve(next());
    else if (k === '--rounds') a.rounds = Number(next());
    else if (k === '--only') a.only = next();
    else if (k === '--ours-only') a.oursOnly = true;
    else if (k === '--batch') a.batch = Number(next());
    else if (k === '--default-tiering') continue;
    else throw new Error(`unknown argument ${k}`);
  }
  if (!a.rounds) a.rounds = a.quick ? 3 : 7;
  return a;
}

function median(xs) {
  const s = [...xs].sort((x, y) => x - y), n = s.length;
  return n % 2 ? s[(n - 1) >> 1] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}
const round = (x, d = 4) => Number(x.toPrecision(d));

async function loadOurs(dir) {
  const js = path.join(dir, 'encoder_walkthrough_node.js'), wasm = path.join(dir, 'encoder_walkthrough_node.wasm');
  if (!fs.existsSync(js)) throw new Error(`our module is not built: ${js} (cmake --build --preset wasm --target ew_wasm_node)`);
  return require(js)({ wasmBinary: fs.readFileSync(wasm), print: log, printErr: log });
}


// core/model/positional.cpp's table: PE[p,2i] = sin(p/10000^(2i/d)), PE[p,2i+1] = cos(same), in double.
function sinusoid(T, d) {
  const pe = new Float32Array(T * d);
  for (let p = 0; p < T; p++)
    for (let c = 0; c < d; c++) {
      const a = p / Math.pow(10000, (c - (c % 2)) / d);
      pe[p * d + c] = c % 2 ? Math.cos(a) : Math.sin(a);
    }
  return pe;
}

// Additive masks [B,1,Tq,Tk]: −1e9 where key j ≥ len[b] (or j > i when causal), else 0.
function maskTensor(tf, B, Tq, Tk, len, causal) {
  const m = new Float32Array(B * Tq * Tk);
  for (let b = 0; b < B; b++)
    for (let i = 0; i < Tq; i++)
      for (let j = 0; j < Tk; j++) m[(b * Tq + i) * Tk + j] = j >= len[b] || (causal && j > i) ? -1e9 : 0;
  return tf.tensor(m, [B, 1, Tq, Tk]);
}

// The model as tf ops over variables holding our weights; returns {vars, lossFn}.
function tfjsModel(tf, meta, data, batch, c) {
  const vars = {};
  meta.forEach((p, i) => { vars[p.id] = tf.variable(tf.tensor(data[i], p.shape), true, p.id); });
  const { B, T, S } = batch, d = c.d, H = c.h, dk = d / H, nV = meta[0].shape[0];
  const srcOH = tf.cast(tf.oneHot(tf.tensor1d(batch.src, 'int32'), nV), 'float32');     // [B·T, V]
  const decOH = tf.cast(tf.oneHot(tf.tensor1d(batch.dec_in, 'int32'), nV), 'float32');  // [B·S, V]
  const peT = tf.tile(tf.tensor(sinusoid(T, d), [T, d]), [B, 1]), peS = tf.tile(tf.tensor(sinusoid(S, d), [S, d]), [B, 1]);
  const encMask = maskTensor(tf, B, 1, T, batch.src_len, false), selfMask = maskTensor(tf, B, S, S, batch.dec_len, true);
  const w = new Float32Array(B * S * nV);  // weight of −log p[label]: 1/(B·n_b) on real positions
  for (let b = 0; b < B; b++)
    for (let s = 0; s < batch.dec_len[b]; s++) w[(b * S + s) * nV + batch.dec_out[b * S + s]] = 1 / (B * batch.dec_len[b]);
  const labels = tf.tensor(w, [B * S, nV]);
  const scale = tf.scalar(1 / Math.sqrt(dk)), half = tf.scalar(0.5), one = tf.scalar(1), rsqrt2 = tf.scalar(Math.SQRT1_2);
  const V = (id) => vars[id];
  const linear = (x, P, m) => tf.add(tf.matMul(x, V(P + 'W_' + m)), V(P + 'b_' + m));
  const ln = (x, P) => {
    const { mean, variance } = tf.moments(x, -1, true);
    return tf.add(tf.mul(tf.mul(tf.sub(x, mean), tf.rsqrt(tf.add(variance, EPS_LN))), V(P + '.gamma')), V(P + '.beta'));
  };
  const heads = (x, Tx) => tf.transpose(tf.reshape(x, [B, Tx, H, dk]), [0, 2, 1, 3]);
  const mha = (xq, xkv, P, mask, Tq, Tk) => {
    const q = heads(linear(xq, P, 'q'), Tq), k = heads(linear(xkv, P, 'k'), Tk), v = heads(linear(xkv, P, 'v'), Tk);
    const a = tf.softmax(tf.add(tf.mul(tf.matMul(q, k, false, true), scale), mask));
    return linear(tf.reshape(tf.transpose(tf.matMul(a, v), [0, 2, 1, 3]), [B * Tq, d]), P, 'o');
  };
  const gelu = (x) => tf.mul(tf.mul(half, x), tf.add(one, tf.erf(tf.mul(x, rsqrt2))));
  const ffn = (x, P) => linear(gelu(linear(x, P, '1')), P, '2');
  const lossFn = () => {
    const E = V('embedding_table');
    let x = tf.add(tf.matMul(srcOH, E), peT);  // [B·T, d]
    x = tf.add(x, mha(ln(x, 'layer0.ln1'), ln(x, 'layer0.ln1'), 'layer0.', encMask, T, T));
    x = tf.add(x, ffn(ln(x, 'layer0.ln2'), 'layer0.'));
    const enc = ln(x, 'final_ln');
    let y = tf.add(tf.matMul(decOH, E), peS);  // [B·S, d]
    const n1 = ln(y, 'decoder0.ln1');
    y = tf.add(y, mha(n1, n1, 'decoder0.self.', selfMask, S, S));
    y = tf.add(y, mha(ln(y, 'decoder0.ln2'), enc, 'decoder0.cross.', encMask, S, T));
    y = tf.add(y, ffn(ln(y, 'decoder0.ln3'), 'decoder0.'));
    const logits = tf.matMul(ln(y, 'decoder_final_ln'), E, false, true);  // [B·S, V]
    return tf.neg(tf.sum(tf.mul(tf.logSoftmax(logits), labels)));
  };
  return { vars, lossFn };
}

// AdamW as optim.h (torch.optim.AdamW): clip the global norm, decay 2-D weights, Adam update.
function tfjsTrainer(tf, model, meta) {
  const st = meta.map((p) => ({ m: tf.variable(tf.zerosLike(model.vars[p.id]), false), v: tf.variable(tf.zerosLike(model.vars[p.id]), false) }));
  let t = 0;
  return () => {
    t += 1;
    const bc1 = 1 - Math.pow(0.9, t), bc2s = Math.sqrt(1 - Math.pow(0.999, t));
    const lossValue = tf.tidy(() => {
      const { value, grads } = tf.variableGrads(model.lossFn);
      const norm = tf.sqrt(tf.addN(meta.map((p) => tf.sum(tf.square(grads[p.id])))));
      const clip = tf.where(tf.greater(norm, CLIP), tf.div(CLIP, tf.add(norm, 1e-6)), tf.scalar(1));
      meta.forEach((p, i) => {
        const g = tf.mul(grads[p.id], clip), P = model.vars[p.id], { m, v } = st[i];
        m.assign(tf.add(tf.mul(m, 0.9), tf.mul(g, 0.1)));
        v.assign(tf.add(tf.mul(v, 0.999), tf.mul(tf.square(g), 0.001)));
        const decayed = p.shape.length === 2 ? tf.mul(P, 1 - LR * WEIGHT_DECAY) : P;
        P.assign(tf.sub(decayed, tf.mul(LR / bc1, tf.div(m, tf.add(tf.div(tf.sqrt(v), bc2s), 1e-8)))));
      });
      return value;
    });
    const l = lossValue.dataSync()[0];  // ends the step, as ours returns its loss
    lossValue.dispose();
    return l;
  };
}

function timeIt(fn, iters) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < iters; i++) fn();
  return Number(process.hrtime.bigint() - t0) / 1e6 / iters;
}

async function runCase(M, tf, c, args, check) {
  const ours = new M.TrainBench('number-words', c.d, c.h, c.ff, 1, 1, c.B, SEED, LR);
  const meta = JSON.parse(ours.paramsJson()), batch = JSON.parse(ours.batchJson());
  const data = meta.map((_, i) => ours.paramData(i).slice());
  const model = tfjsModel(tf, meta, data, batch, c);
  const tfStep = tfjsTrainer(tf, model, meta);
  const l0 = ours.loss(), t0 = tf.tidy(() => model.lossFn().dataSync()[0]);
  check(`train loss ${c.key}: same weights, same batch`, Math.abs(l0 - t0) <= 1e-4 * Math.abs(l0), `ours ${l0}, tfjs ${t0}`);
  ours.step(); tfStep();
  const l2 = ours.step(), t2 = tfStep();  // the loss after one AdamW step of each
  check(`train loss ${c.key}: after one AdamW step each`, Math.abs(l2 - t2) <= 1e-3 * Math.abs(l2), `ours ${l2}, tfjs ${t2}`);
  const target = args.quick ? 100 : 300;  // ms per measurement
  const calib = (fn) => { const ms = timeIt(fn, 1); return Math.max(1, Math.min(200, Math.round(target / ms))); };
  const itOurs = calib(() => ours.step()), itTf = calib(tfStep);
  const ms = { ours: [], tfjs: [] }, ratios = [];
  for (let r = 0; r < args.rounds; r++) {
    const order = r % 2 ? ['tfjs', 'ours'] : ['ours', 'tfjs'];
    const got = {};
    for (const who of order) got[who] = who === 'ours' ? timeIt(() => ours.step(), itOurs) : timeIt(tfStep, itTf);
    ms.ours.push(got.ours); ms.tfjs.push(got.tfjs); ratios.push(got.tfjs / got.ours);
    log(`  ${c.key} round ${r + 1}/${args.rounds}: ours ${got.ours.toFixed(2)} ms, tfjs ${got.tfjs.toFixed(2)} ms per step`);
  }
  ours.delete();
  Object.values(model.vars).forEach((v) => v.dispose());
  const row = (impl) => ({ name: `train step ${c.label}, batch ${c.B} (T ${batch.T}, S ${batch.S})`, impl,
    ms_median: round(median(ms[impl])), gflops: null, ms_min: round(Math.min(...ms[impl])), ms_max: round(Math.max(...ms[impl])) });
  return { rows: [row('ours'), row('tfjs')], ratio: round(median(ratios), 3) };
}

// Our step alone: ms per step (median of rounds) and steps/s.
function oursOnly(M, c, args) {
  const ours = new M.TrainBench('number-words', c.d, c.h, c.ff, 1, 1, c.B, SEED, LR);
  const batch = JSON.parse(ours.batchJson());
  const ms = [];
  for (let r = 0; r < args.rounds; r++) ms.push(timeIt(() => ours.step(), Math.max(1, Math.round((args.quick ? 100 : 300) / timeIt(() => ours.step(), 1)))));
  ours.delete();
  const med = median(ms);
  process.stdout.write(`ours ${c.label}, batch ${c.B} (T ${batch.T}, S ${batch.S}): ${med.toFixed(3)} ms per step (median of ${args.rounds}), ${(1000 / med).toFixed(1)} steps/s\n`);
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const checks = [];
  const check = (name, ok, detail) => { checks.push({ name, ok, detail }); log(`  check ${name}: ${ok ? 'ok' : 'FAIL'} (${detail})`); };
  log('train_bench: loading our module and tfjs-backend-wasm');
  const M = await loadOurs(args.ours);
  if (args.oursOnly) {
    for (const c of CASES)
      if (!args.only || c.key === args.only) oursOnly(M, args.batch ? { ...c, B: args.batch } : c, args);
    return;
  }
  const { tf, desc } = await loadTfjs({ gradients: true });
  const results = [], train_vs_tfjs = {};
  for (const c of CASES) {
    if (args.only && c.key !== args.only) continue;
    log(`train_bench: ${c.label}, batch ${c.B}`);
    const { rows, ratio } = await runCase(M, tf, c, args, check);
    results.push(...rows);
    train_vs_tfjs[c.key] = ratio;
  }
  const notes = [
    `Training step (forward, backward, AdamW with clipping) of the number-words encoder–decoder (1+1 layers, pre-norm, GELU) on one fixed padded batch; ours: Module.TrainBench (the batched path of core/train/train_batched.h, kernel ISA ${M.kernelIsa()}); tfjs: ${desc}, tf.variableGrads and AdamW in tf ops; lr ${LR} constant, weight decay ${WEIGHT_DECAY}, clip ${CLIP}. train_vs_tfjs = median over ${args.rounds} interleaved rounds of tfjs ms / ours ms.`,
  ];
  const out = { results, train_vs_tfjs, checks, notes };
  if (args.json) process.stdout.write(JSON.stringify(out, null, 1) + '\n');
  else {
    for (const r of results) process.stdout.write(`${r.name.padEnd(70)} ${r.impl.padEnd(5)} ${String(r.ms_median).padStart(9)} ms\n`);
    for (const [k, v] of Object.entries(train_vs_tfjs)) process.stdout.write(`train_vs_tfjs ${k}: ${v}x\n`);
  }
  if (checks.some((c) => !c.ok)) process.exitCode = 1;
}

main().catch((e) => { log('train_bench: ' + (e.stack || e)); process.exit(1); });
