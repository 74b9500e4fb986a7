#!/usr/bin/env node
// above_2gb.mjs — the module's memory past 2 GiB (issue 30: a 150 K-token vocabulary's text ran
// out of the page's 2 GiB; the modules now grow to 4 GiB, wasm/CMakeLists.txt). Above 2 GiB an
// address no longer fits a signed 32-bit integer: emcc writes the glue's pointers unsigned, and
// everything that crosses the Embind surface must survive that.
//   1. A preset's trace computed in one instance of the module, its heap low: its reply (a
//      std::string) and every step's data (typed_memory_view) are kept.
//   2. In a second instance, just over 2 GiB is taken from the heap first (malloc), so that what
//      its run allocates lies above the 2 GiB mark; it computes the same trace.
//   3. Its step data must be views above 2 GiB (their byteOffset says so), and its reply and every
//      number must equal the low run's, bit for bit; the heap's count of bytes in use
//      (heapBytesInUse) must read over 2 GiB, not wrap to a negative number.
// --plant-signed: the high run's views are read at their offsets as a signed 32-bit integer (what
// the glue did before emcc unsigned it): the comparison must fail (a must-fail run; exits 0 only
// when caught).
//
//   node tests/wasm/above_2gb.mjs [--module build/wasm/node/encoder_walkthrough_node.js] [--preset NAME] [--plant-signed]
import { existsSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { root, arg, loadWasmModule } from '../harness.mjs';

const modPath = path.resolve(root, arg('--module', 'build/wasm/node/encoder_walkthrough_node.js'));
const presetName = arg('--preset', 'seed004-bert');
const plant = process.argv.includes('--plant-signed');
const GIB = 2 ** 30;
if (!existsSync(modPath)) {
  console.error(`above_2gb: wasm module not found at ${modPath} — build it first`);
  process.exit(2);
}

// Two instances of the module: `lowM` as it starts, `M` with its first 2 GiB taken.
const lowM = await loadWasmModule(modPath);
const M = await loadWasmModule(modPath);
const preset = JSON.parse(lowM.presetsJson()).find((p) => p.name === presetName);
if (!preset) {
  console.error(`above_2gb: no preset named ${presetName}`);
  process.exit(2);
}

// One run on a new Engine: {reply, steps: [{offset, data: Float32Array copy}]}. `signed` reads a
// view at its offset as a signed 32-bit integer (the plant).
function trace(M, signed) {
  const e = new M.Engine();
  try {
    const reply = e.run(JSON.stringify(preset.model), '{}');
    if (!JSON.parse(reply).ok) throw new Error(`the ${presetName} preset did not run: ${reply.slice(0, 300)}`);
    const steps = [];
    for (let i = 0; i < e.stepCount(); i++) {
      const v = e.stepData(i);
      const offset = v.byteOffset;
      const at = signed ? offset | 0 : offset;
      let data;
      try {
        data = new Float32Array(M.HEAPF32.buffer.slice(at, at + v.byteLength));
      } catch (err) {
        data = null;  // a negative offset: nothing there
      }
      steps.push({ offset, data });
    }
    return { reply, steps };
  } finally {
    e.delete();
  }
}

const failures = [];
const low = trace(lowM, false);
const lowMax = Math.max(...low.steps.map((s) => s.offset));
// In blocks of 256 MiB (sbrk's increment is signed: one request of 2 GiB or more fails by itself).
const blocks = [];
while (M.wasmMemoryBytes() < 2 * GIB + 64 * 2 ** 20) {
  const b = M._malloc(256 * 2 ** 20);
  if (!b) {
    console.error(`above_2gb: malloc failed at ${(M.wasmMemoryBytes() / GIB).toFixed(2)} GiB of wasm memory: the module cannot grow past 2 GiB`);
    process.exit(1);
  }
  blocks.push(b);
}
// The C++ heap's count of bytes in use (Module.heapBytesInUse, mallinfo's int read unsigned)
// must say more than 2 GiB now, not a negative number.
const inUse = M.heapBytesInUse();
if (!(inUse >= 2 * GIB)) failures.push(`heapBytesInUse() says ${inUse} bytes with over 2 GiB taken`);
const high = trace(M, plant);
const highMin = Math.min(...high.steps.map((s) => s.offset));
console.log(`  ${presetName}: ${low.steps.length} steps; low run's data below ${(lowMax / GIB).toFixed(3)} GiB, ` +
  `high run's from ${(highMin / GIB).toFixed(3)} GiB (wasm memory ${(M.wasmMemoryBytes() / GIB).toFixed(2)} GiB)`);
if (highMin < 2 * GIB) failures.push(`a step of the high run lies at ${highMin}, below 2 GiB: the test did not reach what it tests`);
// The reply, bar its timings ("ms", "setup_ms": this run's own milliseconds).
const untimed = (r) => r.replace(/"(setup_)?ms":[0-9.e+-]+/g, '"$1ms":_');
if (untimed(high.reply) !== untimed(low.reply)) failures.push('the reply (a std::string read from above 2 GiB) differs from the low run\'s, timings aside');
let differing = 0;
low.steps.forEach((s, i) => {
  const h = high.steps[i];
  const same = h && h.data && h.data.length === s.data.length &&
    Buffer.from(h.data.buffer).equals(Buffer.from(s.data.buffer));
  if (!same) differing++;
});
if (differing) failures.push(`${differing} of ${low.steps.length} steps' data differ between the low and the high run`);
for (const b of blocks) M._free(b);

if (plant) {
  if (failures.length) {
    console.log(`planted (views read at a signed offset): caught — ${failures.join('; ')}`);
    process.exit(0);
  }
  console.error('planted (views read at a signed offset): NOT caught: the comparison cannot tell');
  process.exit(1);
}
if (failures.length) {
  for (const f of failures) console.error(`FAIL ${f}`);
  process.exit(1);
}
console.log(`ok   above 2 GiB: the ${presetName} trace's reply and all ${low.steps.length} steps' data equal the low run's, bit for bit`);
