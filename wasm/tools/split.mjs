#!/usr/bin/env node
// split.mjs — splits the page's SIMD128 module in two (issue 29, item 2: the bytes of a first
// visit), guided by what a first paint actually runs:
//   1. Binaryen's wasm-split --instrument (Debian's Binaryen, the one emcc runs) records which
//      functions are called;
//   2. the instrumented module runs, in Node through its own Emscripten glue, what the page's
//      first paint asks of the engine (web/js/engine/worker.js): the presets, the schema and the
//      training tasks, then
//      every preset's forward pass as the page requests it (a trained preset also generates and
//      predicts: web/js/page/run-options.js), every step's and parameter's data, then the same
//      with texts a reader types (READER_TEXTS: without them a typed sentence called functions
//      the compiler had left out of line, and loaded the deferred half);
//   3. wasm-split --profile writes the primary module over WASM (those functions) and
//      DEFERRED (every other function: checkpoints, tokenizer files, training, the backward
//      pass, sweeps, exports). A call to a deferred function in the primary goes through a
//      placeholder import that loads DEFERRED and continues (web/js/engine/split-module.js).
// WHOLE receives the module before splitting (the single-file page inlines it whole).
//
//   node wasm/tools/split.mjs --wasm dist/encoder_walkthrough.wasm --glue dist/encoder_walkthrough.js \
//        --deferred dist/encoder_walkthrough.deferred.wasm --whole build/wasm/encoder_walkthrough.whole.wasm \
//        --models models
import { readFileSync, writeFileSync, readdirSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import os from 'node:os';
import { unicodeTables, moveTables } from './move-tables.mjs';
import path from 'node:path';
import process from 'node:process';

const arg = (name) => {
  const i = process.argv.indexOf(name);
  if (i < 0 || !process.argv[i + 1]) throw new Error(`split.mjs: ${name} is required`);
  return path.resolve(process.argv[i + 1]);
};
const [wasm, glue, deferred, whole, models] = ['--wasm', '--glue', '--deferred', '--whole', '--models'].map(arg);
const FEATURES = ['--enable-simd', '--enable-exception-handling', '--enable-sign-ext', '--enable-mutable-globals',
  '--enable-bulk-memory', '--enable-nontrapping-float-to-int'];
const wasmSplit = (args) => execFileSync('wasm-split', [...FEATURES, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });

// The first paint's calls, on the instrumented module; returns the profile's bytes.
async function profile(instrumented) {
  // Imported as a .mjs copy: the glue is an ES module in a folder no package.json types.
  const copy = path.join(tmp, 'glue.mjs');
  copyFileSync(glue, copy);
  const { default: factory } = await import(pathToFileURL(copy).href);
  const M = await factory({ wasmBinary: instrumented, locateFile: (p) => p, print: () => {}, printErr: () => {} });
  JSON.parse(M.presetsJson());
  JSON.parse(M.configSchemaJson());
  M.kernelIsa();
  JSON.parse(M.tasksJson()); // the training panel's task list (web/js/train/train-panel.js)
  M.setThreads(1);
  M.threads();
  for (const f of readdirSync(models).filter((n) => n.endsWith('.safetensors')).sort()) {
    const name = f.replace(/\.safetensors$/, '');
    if (!M.builtinModelLoaded(name)) M.loadBuiltinModel(name, new Uint8Array(readFileSync(path.join(models, f))));
  }
  const engine = new M.Engine();
  const run = (model, trained) => {
    // A generating run streams its rounds as the Worker asks (worker.js: onRound before, null after).
    if (trained) engine.onRound((json) => JSON.parse(json));
    const reply = JSON.parse(engine.run(JSON.stringify(model), JSON.stringify(trained ? { generate: true, prediction: true, fills: true } : {})));
    if (trained) engine.onRound(null);
    return reply;
  };
  for (const p of JSON.parse(M.presetsJson())) {
    const trained = typeof p.model.weights === 'string';
    const reply = run(p.model, trained);
    if (!reply.ok) throw new Error(`split.mjs: preset ${p.name} did not run: ${reply.error}`);
    for (let i = 0; i < engine.stepCount(); i++) engine.stepData(i);
    for (let i = 0; i < engine.paramCount(); i++) engine.paramData(i);
    // What a reader types next (or a link's text= brings): repeated words, capitals, punctuation,
    // digits, accents, one word, none (an error the page shows), a long sentence. Each may run or
    // be refused by the preset (a trained model's vocabulary, a seed's fixed weights); both ways
    // are a first visit's code, not the deferred half's (run.mjs' offline check types one such).
    for (const text of READER_TEXTS) {
      if (run({ ...p.model, text }, trained).ok) for (let i = 0; i < engine.stepCount(); i++) engine.stepData(i);
    }
  }
  engine.delete();
  const exports = M.asm || M.wasmExports;
  const size = 1 << 20, ptr = M._malloc(size);
  const n = exports.__write_profile(ptr, size);
  if (!(n > 0 && n <= size)) throw new Error(`split.mjs: __write_profile returned ${n}`);
  return Buffer.from(M.HEAPU8.subarray(ptr, ptr + n));
}

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const READER_TEXTS = ['snow on snow on snow', 'The Frost, was HARD! 42 times; naïve über-cold.', 'midwinter', '',
  Array(12).fill('in the bleak midwinter frosty wind made moan').join(' ')];

// The split module in Node, as the page's Worker runs it (web/js/engine/split-module.js): the
// deferred module instantiated over the primary's exports must leave every moved table's bytes
// where the code reads them (and they must not be there before).
async function verifyTables(where, tables) {
  const copy = path.join(tmp, 'glue.mjs');
  const { default: factory } = await import(pathToFileURL(copy).href + '?verify');
  const primary = new WebAssembly.Module(readFileSync(wasm));
  let instance = null;
  const M = await factory({
    print: () => {}, printErr: () => {}, locateFile: (p) => p,
    instantiateWasm(imports, receive) {
      const placeholder = new Proxy({}, { get: () => () => { throw new Error('split.mjs: a placeholder ran before the deferred module was loaded'); } });
      instance = new WebAssembly.Instance(primary, { ...imports, placeholder });
      receive(instance, primary);
      return instance.exports;
    },
  });
  const at = (r) => Buffer.from(M.HEAPU8.buffer, r.start, r.end - r.start);
  for (const [name, r] of Object.entries(where))
    if (at(r).equals(tables[name])) throw new Error(`split.mjs: ${name} is still in the primary module's memory`);
  new WebAssembly.Instance(new WebAssembly.Module(readFileSync(deferred)), { primary: instance.exports });
  for (const [name, r] of Object.entries(where))
    if (!at(r).equals(tables[name])) throw new Error(`split.mjs: the deferred module did not write ${name} at ${r.start}`);
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'ew-split-'));
try {
  copyFileSync(wasm, whole);
  const inst = path.join(tmp, 'instrumented.wasm'), prof = path.join(tmp, 'profile.data');
  wasmSplit(['--instrument', whole, '-o', inst]);
  writeFileSync(prof, await profile(readFileSync(inst)));
  wasmSplit([whole, `--profile=${prof}`, '-o1', wasm, '-o2', deferred]);
  // The Unicode tables only the deferred code reads go with it (move-tables.mjs).
  const tables = unicodeTables(path.join(ROOT, 'core/text/unicode_data.cpp'));
  const moved = moveTables(readFileSync(whole), readFileSync(wasm), readFileSync(deferred), tables);
  if (moved.moved) {
    writeFileSync(wasm, moved.primary);
    writeFileSync(deferred, moved.deferred);
    await verifyTables(moved.where, tables);
    console.log(`split.mjs: ${moved.note} (${(moved.moved / 1024).toFixed(0)} KiB) of core/text/unicode_data.cpp moved to the deferred module`);
  } else {
    console.log(`split.mjs: the Unicode tables stay in the first-paint module: ${moved.note}`);
  }
  const kib = (f) => `${(readFileSync(f).length / 1024).toFixed(0)} KiB (${(gzipSync(readFileSync(f), { level: 9 }).length / 1024).toFixed(0)} gzip)`;
  console.log(`split.mjs: ${path.basename(whole)} ${kib(whole)} → first paint ${path.basename(wasm)} ${kib(wasm)} + on demand ${path.basename(deferred)} ${kib(deferred)}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
