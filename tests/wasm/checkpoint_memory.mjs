#!/usr/bin/env node
// checkpoint_memory.mjs — a BF16 checkpoint opened the page's way in the wasm module
// (stageCheckpointFile → the file read into the staged buffer → loadCheckpoint): how much wasm
// memory the load needs against the file, and how many bytes its parameters hold per weight
// (issue 30: "a Qwen2.5-0.5B-sized checkpoint opens with peak wasm memory ≤ 1.3× its file"; a
// BF16 file's matrices stay 16-bit: model.h, Param). Optionally, greedy generation's per-token
// milliseconds (the KV-cache decode rounds' own times, median).
//
//   node tests/wasm/checkpoint_memory.mjs [--dir CHECKPOINT_DIR] [--module build/wasm/node/encoder_walkthrough_node.js]
//        [--max-ratio 1.3] [--decode N] [--prompt TEXT] [--planted-limit]
// Without --dir it writes a small random qwen2 BF16 checkpoint (wasm/tools/write_big_checkpoint.py
// --shape small, 43 MB) under the system's temp folder first, as the test command runs it.
// A big one (never committed): python3 wasm/tools/write_big_checkpoint.py /tmp/qwen05 (988 MB).
//
// Memory is the wasm memory's size (it never shrinks, so after the load it is the load's peak),
// all of it: the module's own 32 MB initial memory and runtime included, so a small file is held
// to the limit more strictly than a big one. The check: peak / file ≤ --max-ratio. (peak − the
// size before staging) / file is printed too, but it is not a measure of what the load needs: the
// staged file first fills the initial memory's free heap. Exits non-zero when a check fails.
import { existsSync, mkdtempSync, openSync, readSync, closeSync, readdirSync, statSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { root, arg, loadWasmModule } from '../harness.mjs';

const modPath = path.resolve(root, arg('--module', 'build/wasm/node/encoder_walkthrough_node.js'));
// --planted-limit: the limit 1.0 (file + weights cannot fit in the file alone); exits 0 only
// when the memory check fails, showing that it can.
const planted = process.argv.includes('--planted-limit');
const maxRatio = planted ? 1.0 : Number(arg('--max-ratio', '1.3'));
const decode = Number(arg('--decode', '0'));
const prompt = arg('--prompt', 'the cat sat on the mat');
if (!existsSync(modPath)) {
  console.error(`checkpoint_memory: wasm module not found at ${modPath} — build it first`);
  process.exit(2);
}
let dir = arg('--dir', '');
let tmp = '';
if (!dir) {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'ew-ckpt-mem-'));
  dir = path.join(tmp, 'small');
  execFileSync('/usr/bin/python3', [path.join(root, 'wasm/tools/write_big_checkpoint.py'), dir, '--shape', 'small'], { stdio: 'inherit' });
}

const M = await loadWasmModule(modPath);
const e = new M.Engine();
const before = M.wasmMemoryBytes();
let fileBytes = 0;
const t0 = performance.now();
for (const f of readdirSync(dir)) {
  const p = path.join(dir, f), size = statSync(p).size;
  if (!e.stageCheckpointFile(f, size)) continue;  // not a checkpoint file's name
  if (f.endsWith('.safetensors')) fileBytes += size;
  const fd = openSync(p, 'r');
  for (let off = 0; off < size;) off += readSync(fd, e.stagedView(f), off, Math.min(1 << 24, size - off), off);
  closeSync(fd);
}
const staged = M.wasmMemoryBytes();
const info = JSON.parse(e.loadCheckpoint(path.basename(dir)));
const loadMs = performance.now() - t0;
if (!info.ok) {
  console.error(`checkpoint_memory: loadCheckpoint failed: ${info.error}`);
  process.exit(1);
}
const peak = M.wasmMemoryBytes();
const mb = (b) => (b / 1e6).toFixed(1);
const ratio = peak / fileBytes, net = (peak - before) / fileBytes, perWeight = info.bytes / info.params;
console.log(`checkpoint: ${info.name}, ${info.architecture}, ${(info.params / 1e6).toFixed(1)} M parameters, file ${mb(fileBytes)} MB, loaded in ${(loadMs / 1000).toFixed(1)} s`);
console.log(`parameters hold ${mb(info.bytes)} MB = ${perWeight.toFixed(4)} bytes per weight (matrices 2, norm vectors and biases 4)`);
console.log(`wasm memory: ${mb(before)} MB before staging, ${mb(staged)} MB with the file staged, ${mb(peak)} MB after loading (peak)`);
console.log(`peak / file = ${ratio.toFixed(3)} (limit ${maxRatio}); (peak − before) / file = ${net.toFixed(3)}; C++ heap in use now ${mb(M.heapBytesInUse())} MB`);

let failed = 0;
const check = (ok, what) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failed++;
};
check(ratio <= maxRatio, `load memory peak / file ${ratio.toFixed(3)} ≤ ${maxRatio}`);
check(perWeight < 2.01, `bytes per weight ${perWeight.toFixed(4)} < 2.01 (16-bit matrices, no float32 copy)`);

if (decode > 0) {
  const rounds = [];
  e.onRound((r) => rounds.push(JSON.parse(r)));
  const r = JSON.parse(e.runCheckpoint(prompt, '', JSON.stringify({ generate: true, max_len: decode })));
  e.onRound(null);
  if (!r.ok) {
    console.error(`checkpoint_memory: generation failed: ${r.error}`);
    process.exit(1);
  }
  const ms = rounds.filter((x) => x.phase === 'decode').map((x) => x.ms).sort((a, b) => a - b);
  const median = ms.length ? ms[Math.floor(ms.length / 2)] : NaN;
  console.log(`decode: ${ms.length} rounds through the KV cache, median ${median.toFixed(1)} ms per token (min ${ms[0]?.toFixed(1)}, max ${ms[ms.length - 1]?.toFixed(1)}); wasm memory now ${mb(M.wasmMemoryBytes())} MB`);
}
e.delete();
if (tmp) rmSync(tmp, { recursive: true, force: true });
if (planted) {
  const caught = ratio > maxRatio;
  console.log(caught ? 'planted limit caught: the memory check failed as it must' : 'FAIL planted limit not caught');
  process.exit(caught ? 0 : 1);
}
process.exit(failed ? 1 : 0);
