// generate_profile.mjs — a checkpoint's greedy generation, repeated, for a CPU profile of where its
// time goes (issue 31: "a profile of where a token's time goes"). Function names need a module
// linked with --profiling-funcs: rerun ew_wasm_node's link line (build/wasm/wasm/CMakeFiles/
// ew_wasm_node.dir/link.txt, from build/wasm/wasm) with `--profiling-funcs` added and the output
// sent elsewhere, e.g. -o /tmp/profmod/encoder_walkthrough_node.js. Then
//   node --cpu-prof --cpu-prof-dir=/tmp/cpuprof bench/node/generate_profile.mjs --ckpt /tmp/ck-gpt2-small \
//        --module /tmp/profmod/encoder_walkthrough_node [--text "The quick brown fox jumps over"] [--tokens 20] [--runs 6]
//   node bench/node/cpuprof_summary.mjs /tmp/cpuprof/*.cpuprofile     (self time by function)
// Prints each run's timing (the core's own: prefill, decode per token, the last round's record).
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { createRequire } from 'node:module';
import { openCheckpoint } from './checkpoint_dir.mjs';

v8.setFlagsFromString('--no-liftoff');
const require = createRequire(import.meta.url);
const argv = process.argv.slice(2), arg = (k, d) => { const i = argv.indexOf(k); return i >= 0 ? argv[i + 1] : d; };
const dir = arg('--ckpt', '/tmp/ck-gpt2-small'), mod = path.resolve(arg('--module', 'build/wasm/node/encoder_walkthrough_node'));
const text = arg('--text', 'The quick brown fox jumps over'), tokens = Number(arg('--tokens', 20)), runs = Number(arg('--runs', 6));
const M = await require(mod + '.js')({ wasmBinary: fs.readFileSync(mod + '.wasm'), print() {}, printErr() {} });
const { e } = openCheckpoint(M, dir);
for (let r = 0; r < runs; r++) {
  const t0 = performance.now();
  const g = JSON.parse(e.runCheckpoint(text, '', JSON.stringify({ generate: true, max_len: tokens })));
  if (!g.ok) throw new Error(g.error);
  const t = g.timing;
  console.log(`run ${r + 1}: ${tokens} tokens in ${(performance.now() - t0).toFixed(0)} ms; prefill ${t.prefill_ms.toFixed(1)} ms, ` +
    `decode ${(t.decode_ms / t.decode_rounds).toFixed(2)} ms a token, the last round recorded ${t.record_ms.toFixed(1)} ms`);
}
