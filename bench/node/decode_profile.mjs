// decode_profile.mjs — where one of our decode tokens goes (issue 31 item 3), by timing the steps:
// our relaxed-SIMD module generates GEN tokens from the checkpoint (Engine.runCheckpoint, the
// decode rounds' ms per token from its own timing), and in the same process, alternately, the
// matmuls one decode token does are timed on their own with Module.MatmulBench (the packed kernel
// param_matmul calls, M = 1): per layer q, k, v, o, gate, up, down at the checkpoint's shapes, each
// layer its own packed weights (so, as in decoding, every weight comes from memory, not cache),
// then the tied head (1 × hidden × vocab). Output: decode ms/token, of it the layers' matmuls, the
// head, and the rest (attention over the cache, RMSNorm, RoPE, SiLU·up, residuals, argmax, the
// per-round bookkeeping), medians over rounds.
//   node bench/node/decode_profile.mjs [--ckpt DIR] [--ours DIR] [--rounds N] [--json]
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { median, round } from './suite.mjs';
import { openCheckpoint } from './checkpoint_dir.mjs';

v8.setFlagsFromString('--no-liftoff');
v8.setFlagsFromString('--experimental-wasm-relaxed-simd');
const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const argv = process.argv.slice(2), arg = (k, d) => { const i = argv.indexOf(k); return i >= 0 ? argv[i + 1] : d; };
const dir = arg('--ckpt', '/tmp/ck-smollm2-135m'), ours = path.resolve(arg('--ours', path.join(ROOT, 'build/wasm/node'))), rounds = Number(arg('--rounds', 5));
const log = (...m) => process.stderr.write(m.join(' ') + '\n');

const M = await require(path.join(ours, 'encoder_walkthrough_relaxed_node.js'))({ wasmBinary: fs.readFileSync(path.join(ours, 'encoder_walkthrough_relaxed_node.wasm')), print: log, printErr: log });
const c = JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8'));
const { e } = openCheckpoint(M, dir);
const d = c.hidden_size, H = c.num_attention_heads, KV = c.num_key_value_heads, hd = c.head_dim || d / H, ff = c.intermediate_size;
const shapes = [[d, H * hd], [d, KV * hd], [d, KV * hd], [H * hd, d], [d, ff], [d, ff], [ff, d]];  // K × N per layer
log(`decode_profile: packing ${c.num_hidden_layers} layers' matmul weights and the head`);
const layers = Array.from({ length: c.num_hidden_layers }, () => shapes.map(([K, N]) => new M.MatmulBench(1, K, N)));
const head = new M.MatmulBench(1, d, c.vocab_size);
const opts = JSON.stringify({ generate: true, max_len: 64 });
const rows = [];
for (let r = 0; r < rounds; r++) {
  const g = JSON.parse(e.runCheckpoint('abcdefghijklmnop', '', opts));
  const decode = g.timing.decode_ms / g.timing.decode_rounds;
  const reps = 5;
  let t0 = performance.now();
  for (let k = 0; k < reps; k++) for (const L of layers) for (const b of L) b.run();
  const mm = (performance.now() - t0) / reps;
  t0 = performance.now();
  for (let k = 0; k < reps; k++) head.run();
  const hm = (performance.now() - t0) / reps;
  rows.push({ decode, layers_matmul: mm, head: hm, rest: decode - mm - hm });
  log(`  round ${r + 1}: decode ${decode.toFixed(1)} ms/token; layer matmuls ${mm.toFixed(1)}, head ${hm.toFixed(1)}, rest ${(decode - mm - hm).toFixed(1)}`);
}
const med = (k) => round(median(rows.map((x) => x[k])));
const out = { checkpoint: dir, kernel: M.kernelIsa(), decode_ms_per_token: med('decode'), layers_matmul_ms: med('layers_matmul'), head_ms: med('head'), rest_ms: med('rest') };
out.shares = { layers_matmul: round(out.layers_matmul_ms / out.decode_ms_per_token, 3), head: round(out.head_ms / out.decode_ms_per_token, 3), rest: round(out.rest_ms / out.decode_ms_per_token, 3) };
console.log(JSON.stringify(out, null, argv.includes('--json') ? 0 : 1));
