#!/usr/bin/env node
// no_leak.mjs — thousands of recomputes through the Embind surface leak nothing: the same
// cycle of models (presets, odd sizes, a padded batch with decoder, and bad inputs whose C++
// exceptions must be freed) is loaded and its step/param views read, over and over; after a
// warm-up the C++ heap in use (dlmalloc's mallinfo) must not trend upwards — it wobbles by a
// few hundred bytes between cycles (allocator bookkeeping; training sessions and the
// generation rounds make it wobble more), so the check is the trend: the least-squares slope
// of the heap in use over the cycles must stay under 2 B per cycle (the smallest leak dlmalloc
// can have is one 16-byte chunk per cycle, a slope of 16), and wasm memory must stop growing.
// Comparing the highest values of the first and last thirds, as this test did before, failed
// on a 56-byte wobble with no trend (min and max inside 370 B over 150 cycles).
//
//   node tests/wasm/no_leak.mjs [--module build/wasm/node/encoder_walkthrough_node.js] [--cycles 150]
// Prints what it measured; exits non-zero on a leak.
import { existsSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { root, arg, loadWasmModule } from '../harness.mjs';

const modPath = path.resolve(root, arg('--module', 'build/wasm/node/encoder_walkthrough_node.js'));
const cycles = Math.max(30, Number(arg('--cycles', '150')));
if (!existsSync(modPath)) {
  console.error(`no_leak: wasm module not found at ${modPath} — build it first`);
  process.exit(2);
}
const M = await loadWasmModule(modPath);

const models = JSON.parse(M.presetsJson()).map((p) => JSON.stringify(p.model));
models.push(JSON.stringify({ config: { d_model: 12, num_heads: 3, d_ff: 20, num_layers: 2, decoder_layers: 1, seed: 5 }, text: 'in the bleak midwinter frosty wind', text2: 'earth stood hard' }));
models.push(JSON.stringify({ config: { d_model: 8, num_heads: 3 }, text: 'bad heads' }));            // error
models.push(JSON.stringify({ config: { d_model: 8 }, text: '' }));                                 // error
models.push('{"config": {"d_model": 8}, "text": "unterminated');                                   // JSON error
models.push(JSON.stringify({ config: { d_model: 8, num_heads: 2, d_ff: 16, seed: 9 }, text: 'naïve café, 東京!' }));

const engine = new M.Engine();
let errors = 0, floats = 0;
// Trained models (issue 10): generation and the backward pass with the shipped model, weights
// a reader loads (good and truncated), and a short training session made and deleted.
const nw = JSON.stringify({ weights: 'builtin:number-words', text: 'six hundred twelve' });
const withOptions = [[nw, { generate: true, backward: true }], [JSON.stringify({ weights: 'builtin:brackets', text: '( ( ) )' }), { backward: true }],
  [JSON.stringify({ text: 'four hundred' }), { user_weights: true, generate: true }]];
const session = new M.TrainSession();
session.start(JSON.stringify({ task: 'number-words', steps: 3, batch: 2, d_model: 8, num_heads: 2, d_ff: 8 }));
session.steps(3);
const userBytes = session.safetensors().slice();
session.delete();
function trainedCycle() {
  if (!JSON.parse(engine.setUserWeights(userBytes)).ok) throw new Error('setUserWeights refused trained weights');
  if (JSON.parse(engine.setUserWeights(userBytes.subarray(0, 100))).ok) throw new Error('a truncated file was accepted');
  errors++;
  for (const [m, o] of withOptions) {
    const meta = JSON.parse(engine.run(m, JSON.stringify({ ...o, prediction: true })));
    if (!meta.ok) throw new Error(meta.error);
    for (let i = 0; i < engine.stepCount(); i++) floats += engine.stepData(i).length;
  }
  const s = new M.TrainSession();
  s.start(JSON.stringify({ task: 'brackets', steps: 2, batch: 2, d_model: 8, num_heads: 2, d_ff: 8 }));
  s.steps(1);
  s.sample('( )');
  floats += s.safetensors().length / 4;
  s.delete();
}
function cycle() {
  trainedCycle();
  for (const m of models) {
    const meta = JSON.parse(engine.run(m, '{}'));
    if (!meta.ok) { errors++; continue; }
    for (let i = 0; i < engine.stepCount(); i++) floats += engine.stepData(i).length;
    for (let i = 0; i < engine.paramCount(); i++) floats += engine.paramData(i).length;
    engine.rerun();
  }
}
cycle(); cycle();  // warm-up: buffers reach their high-water marks
const heap0 = M.heapBytesInUse(), mem0 = M.HEAPU8.length;
const samples = [];
for (let c = 0; c < cycles; c++) {
  cycle();
  samples.push(M.heapBytesInUse());
}
const heap1 = M.heapBytesInUse(), mem1 = M.HEAPU8.length;
engine.delete();
const loads = (cycles + 2) * models.length;
console.log(`${loads} loads (${errors} of them bad input, as intended), ${floats} floats read through views`);
console.log(`C++ heap in use after warm-up ${heap0} B, after ${cycles} more cycles ${heap1} B (min ${Math.min(...samples)}, max ${Math.max(...samples)}); wasm memory ${mem0} → ${mem1} B`);
const third = Math.floor(samples.length / 3);
const early = Math.max(...samples.slice(0, third)), late = Math.max(...samples.slice(-third));
console.log(`highest heap in use, first ${third} cycles: ${early} B; last ${third} cycles: ${late} B`);
const n = samples.length, xm = (n - 1) / 2, ym = samples.reduce((a, b) => a + b, 0) / n;
let sxy = 0, sxx = 0;
samples.forEach((y, x) => { sxy += (x - xm) * (y - ym); sxx += (x - xm) ** 2; });
const slope = sxy / sxx;
console.log(`trend of the heap in use: ${slope.toFixed(3)} B per cycle (a leak fails at 2)`);
const leak = slope >= 2 || mem1 !== mem0;
if (leak) {
  console.log('FAIL: memory in use grows from cycle to cycle');
  process.exit(1);
}
console.log('ok: no growth');
