#!/usr/bin/env node
// trace_vs_native.mjs — the WebAssembly module (Node flavor) against the native CLI: for
// every preset and a set of configurations (second sentence, decoder, pre-norm, GELU,
// learned positions, causal, BPE, odd sizes, a few seeded-random ones), every step and
// every parameter must match the CLI's --json trace to 1e-5 relative (compare.mjs).
//
//   node tests/wasm/trace_vs_native.mjs [--cli build/native-release/encoder-walkthrough]
//                                       [--module build/wasm/node/encoder_walkthrough_node.js]
//                                       [--expect-isa wasmsimd|wasmrelaxed]
// Prints one line per model and `N passed, M failed`; exits non-zero on failure.
//
// The relaxed-SIMD build (f32x4.relaxed_madd, fused where the CPU has FMA) runs the same
// comparison with the same tolerance (scripts/test.sh):
//   node --experimental-wasm-relaxed-simd tests/wasm/trace_vs_native.mjs \
//        --module build/wasm/node/encoder_walkthrough_relaxed_node.js --expect-isa wasmrelaxed
// Why the tolerance holds for it: a fused a·b + c rounds once instead of twice, so each term
// of a K-long sum moves by at most ½ ulp of its product (ε/2 ≈ 6e-8 relative); the errors of
// a sum of K terms grow like √K·ε·|terms| in practice (≤ 4e-6 relative for K = 3072), under
// the 1e-5 budget; the native CLI uses FMA as well (AVX2), so the relaxed build is, if
// anything, closer to it than the plain SIMD128 build.
import { existsSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { runCli, compareTrace } from './compare.mjs';
import { root, arg, loadWasmModule } from '../harness.mjs';

const cli = path.resolve(root, arg('--cli', 'build/native-release/encoder-walkthrough'));
const modPath = path.resolve(root, arg('--module', 'build/wasm/node/encoder_walkthrough_node.js'));
for (const [what, p] of [['native CLI', cli], ['wasm module (node flavor)', modPath]]) {
  if (!existsSync(p)) {
    console.error(`trace_vs_native: ${what} not found at ${p} — build it first`);
    process.exit(2);
  }
}

const M = await loadWasmModule(modPath);
const expectIsa = arg('--expect-isa', null);
console.log(`module ${path.relative(root, modPath)}: kernels ${M.kernelIsa()}`);
if (expectIsa && M.kernelIsa() !== expectIsa) {
  console.error(`trace_vs_native: the module's kernels are "${M.kernelIsa()}", expected "${expectIsa}"`);
  process.exit(1);
}

// ---- the models ------------------------------------------------------------------------
const models = [];
for (const p of JSON.parse(M.presetsJson())) models.push([`preset ${p.name}`, p.model]);
const base = { d_model: 8, num_heads: 2, d_ff: 32, num_layers: 1, seed: 66 };
models.push(['text2 (padded batch)', { config: { ...base }, text: 'in the bleak midwinter frosty wind', text2: 'earth stood hard' }]);
models.push(['decoder, 2+2 layers, text2', { config: { ...base, num_layers: 2, decoder_layers: 2 }, text: 'snow had fallen, snow on snow', text2: 'snow on snow' }]);
models.push(['pre-norm GELU learned causal', {
  config: { d_model: 12, num_heads: 3, d_ff: 20, num_layers: 2, norm: 'pre', activation: 'gelu', positional: 'learned', causal: true, seed: 7, decoder_layers: 1 },
  text: 'Time flies like an arrow; fruit flies like a banana.', text2: 'a banana',
}]);
models.push(['bpe tokenizer', { config: { ...base, tokenizer: 'bpe', bpe_merges: 8 }, text: 'lower newest widest lowest newer' }]);
models.push(['whitespace, no scale, no positions', { config: { d_model: 6, num_heads: 1, d_ff: 9, num_layers: 1, tokenizer: 'whitespace', scale: false, positional: 'none', seed: 3 }, text: 'in  the bleak   midwinter !' }]);
models.push(['classifier head in a batch', { config: { ...base, num_labels: 3, norm: 'pre' }, text: 'a b c d', text2: 'e f' }]);
models.push(['wider: d 64, 4 heads, 2 layers', { config: { d_model: 64, num_heads: 4, d_ff: 256, num_layers: 2, decoder_layers: 1, seed: 11 }, text: 'It was the best of times, it was the worst of times, it was the age of wisdom, it was the age of foolishness.' }]);
// Seeded-random configurations (fixed LCG: the same every run).
let s = 12345;
const rnd = (n) => { s = (s * 1103515245 + 12345) % 2147483648; return Math.floor(s / 65536) % n; };
const words = 'the cold wind blew over frozen hills while distant bells rang softly at dawn'.split(' ');
for (let k = 0; k < 4; k++) {
  const heads = [1, 2, 4][rnd(3)];
  const d = heads * (1 + rnd(6));
  const text = Array.from({ length: 2 + rnd(9) }, () => words[rnd(words.length)]).join(' ');
  const cfg = {
    d_model: d, num_heads: heads, d_ff: 1 + rnd(40), num_layers: rnd(3), decoder_layers: rnd(2),
    norm: ['post', 'pre'][rnd(2)], activation: ['relu', 'gelu'][rnd(2)], positional: ['sinusoidal', 'learned', 'none'][rnd(3)],
    causal: !!rnd(2), scale: !!rnd(2), seed: rnd(1000), layer_norm_eps: [1e-5, 1e-6, 1e-12][rnd(3)],
  };
  const m = { config: cfg, text };
  if (rnd(2)) m.text2 = Array.from({ length: 1 + rnd(5) }, () => words[rnd(words.length)]).join(' ');
  models.push([`random ${k}: ${JSON.stringify(cfg)}`, m]);
}

// ---- run ---------------------------------------------------------------------------------
let passed = 0, failed = 0;
const e = new M.Engine();
for (const [name, model] of models) {
  const json = JSON.stringify(model);
  let problems;
  try {
    const meta = JSON.parse(e.run(json, '{}'));
    if (!meta.ok) throw new Error(`wasm run failed: ${meta.error}`);
    const trace = {
      tokens: meta.tokens,
      steps: meta.steps.map((st, i) => ({ ...st, data: e.stepData(i).slice() })),
      params: meta.params.map((p, i) => ({ ...p, data: e.paramData(i).slice() })),
    };
    const native = runCli(cli, json);
    problems = compareTrace(trace, native);
    if (JSON.stringify(meta.text) !== JSON.stringify(native.text)) problems.push('text facts (tokens, vocab, BPE merges) differ');
    if (!problems.length) {
      // A rerun of the same model gives the same numbers (buffers are reused).
      e.rerun();
      const again = meta.steps.map((st, i) => e.stepData(i));
      again.forEach((v, i) => { if (v.some((x, j) => !Object.is(x, trace.steps[i].data[j]))) problems.push(`${meta.steps[i].id}: rerun differs`); });
    }
  } catch (err) {
    problems = [String(err.message || err)];
  }
  if (problems.length) {
    failed++;
    console.log(`FAIL ${name}`);
    for (const p of problems.slice(0, 8)) console.log(`     ${p}`);
  } else {
    passed++;
    console.log(`ok   ${name}`);
  }
}
// A bad model is an error message, never a crash.
for (const [what, bad, re, want] of [
  // The code and params the page's catalog shows the message from (core/model/error.h).
  ['num_heads not dividing d_model', { config: { d_model: 8, num_heads: 3 }, text: 'x' }, /number of heads \(3\) must divide d_model \(8\)/,
    { code: 'config_heads_divide', params: { heads: '3', d_model: '8' } }],
  ['unknown config key', { config: { d_model: 8, heads: 2 }, text: 'x' }, /heads/, { code: 'config_unknown' }],
  ['empty text', { config: { d_model: 8, num_heads: 2 }, text: '' }, /text/, { code: 'empty_text' }],
  ['a sentence of emoji only', { config: { d_model: 8, num_heads: 2 }, text: '🤖 ❤️' }, /no tokens/, { code: 'no_tokens', params: { what: 'text', tokenizer: 'regex' } }],
]) {
  try {
    const meta = JSON.parse(e.run(JSON.stringify(bad), '{}'));
    const codeOk = !want || (meta.code === want.code && (!want.params || Object.entries(want.params).every(([k, v]) => meta.params && meta.params[k] === v)));
    if (!meta.ok && re.test(meta.error) && codeOk) { passed++; console.log(`ok   bad model (${what}) → "${meta.error}"`); }
    else { failed++; console.log(`FAIL bad model (${what}): ${JSON.stringify(meta).slice(0, 200)}`); }
  } catch (err) {
    failed++;
    console.log(`FAIL bad model (${what}): run() threw ${typeof err === 'number' ? `a C++ exception (pointer ${err}): the wasm build cannot catch exceptions (needs -fexceptions)` : err}`);
  }
}
e.delete();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
