// presets.mjs — the presets' traces as the page runs them, in two builds of the module at once
// (an A/B: compile flags, a change to the recording). Each preset with its own text and with a
// typed one, through Engine.run as the Worker calls it (a trained preset also generates and
// predicts: web/js/page/run-options.js), every step's data read; the two modules interleaved, run
// after run, so that the machine's drift falls on both. Prints each run's median (ms) per module
// and their ratio B/A, and the totals. A text a preset refuses (a seed's fixed weights, a trained
// vocabulary) is left out.
//   node --experimental-wasm-relaxed-simd bench/node/presets.mjs A B [--rounds 7]
// A and B are module paths without .js/.wasm (docs/speed.md, "Compiled for size": the all-O3
// module against the -Os half's), e.g.
//   cmake --preset wasm -B build/wasm-o3 -DEW_CORE_SIZE_FLAGS=-O3 -DEW_DIST_DIR=$PWD/build/wasm-o3/dist
//   cmake --build build/wasm-o3 --target ew_wasm_node_relaxed
//   node --experimental-wasm-relaxed-simd bench/node/presets.mjs build/wasm-o3/node/encoder_walkthrough_relaxed_node \
//        build/wasm/node/encoder_walkthrough_relaxed_node
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const argv = process.argv.slice(2);
const flag = argv.indexOf('--rounds');
const rounds = flag >= 0 ? Number(argv[flag + 1]) : 7;
const mods = argv.filter((a, i) => !a.startsWith('--') && (flag < 0 || i !== flag + 1)).map((m) => path.resolve(m));
if (mods.length !== 2) throw new Error('usage: presets.mjs MODULE_A MODULE_B [--rounds N]');
const Ms = [];
for (const m of mods) Ms.push(await require(m + '.js')({ wasmBinary: readFileSync(m + '.wasm'), print() {}, printErr() {} }));
const engines = Ms.map((M) => new M.Engine());
const presets = JSON.parse(Ms[0].presetsJson());
const TYPED = 'snow on snow on snow and the frost was hard';

function once(e, p, text) {
  const trained = typeof p.model.weights === 'string';
  if (trained) e.onRound(() => {});
  const t0 = performance.now();
  const r = JSON.parse(e.run(JSON.stringify(text ? { ...p.model, text } : p.model),
    JSON.stringify(trained ? { generate: true, prediction: true, fills: true } : {})));
  if (r.ok) for (let i = 0; i < e.stepCount(); i++) e.stepData(i);
  const ms = performance.now() - t0;
  if (trained) e.onRound(null);
  return r.ok ? ms : null;
}

const times = new Map(); // key → [[ms of A], [ms of B]]
for (let round = 0; round < rounds; round++)
  for (const p of presets)
    for (const text of [null, TYPED]) {
      const key = p.name + (text ? ' (typed)' : '');
      const ms = engines.map((e) => once(e, p, text));
      if (ms.some((v) => v === null)) continue;
      if (!times.has(key)) times.set(key, [[], []]);
      ms.forEach((v, k) => times.get(key)[k].push(v));
    }
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const total = [0, 0];
console.log(`${'run'.padEnd(34)} ${'A ms'.padStart(8)} ${'B ms'.padStart(8)}   B/A`);
for (const [key, [a, b]] of times) {
  const m = [median(a), median(b)];
  total[0] += m[0];
  total[1] += m[1];
  console.log(`${key.padEnd(34)} ${m[0].toFixed(2).padStart(8)} ${m[1].toFixed(2).padStart(8)}  ${(m[1] / m[0]).toFixed(2)}`);
}
console.log(`${`all ${times.size} runs`.padEnd(34)} ${total[0].toFixed(1).padStart(8)} ${total[1].toFixed(1).padStart(8)}  ${(total[1] / total[0]).toFixed(2)}`);
console.log(`A ${mods[0]}\nB ${mods[1]}\n(medians of ${rounds} interleaved rounds)`);
