#!/usr/bin/env node
// split.mjs — splits the page's SIMD128 module in two (issue 29, item 2: the bytes of a first
// visit), guided by what a first paint actually runs:
//   1. Binaryen's wasm-split --instrument (Debian's Binaryen, the one emcc runs) records which
//      functions are called;
//   2. the instrumented module runs, in Node through its own Emscripten glue, what the page's
//      first paint asks of the engine (web/js/engine/worker.js): the presets, the schema and the
//      training tasks, then
//      every preset's forward pass as the page requests it (a trained preset also generates and
//      predicts: web/js/page/run-options.js), every step's and parameter's data;
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
  for (const p of JSON.parse(M.presetsJson())) {
    const trained = typeof p.model.weights === 'string';
    const reply = JSON.parse(engine.run(JSON.stringify(p.model), JSON.stringify(trained ? { generate: true, prediction: true, fills: true } : {})));
    if (!reply.ok) throw new Error(`split.mjs: preset ${p.name} did not run: ${reply.error}`);
    for (let i = 0; i < engine.stepCount(); i++) engine.stepData(i);
    for (let i = 0; i < engine.paramCount(); i++) engine.paramData(i);
  }
  engine.delete();
  const exports = M.asm || M.wasmExports;
  const size = 1 << 20, ptr = M._malloc(size);
  const n = exports.__write_profile(ptr, size);
  if (!(n > 0 && n <= size)) throw new Error(`split.mjs: __write_profile returned ${n}`);
  return Buffer.from(M.HEAPU8.subarray(ptr, ptr + n));
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'ew-split-'));
try {
  copyFileSync(wasm, whole);
  const inst = path.join(tmp, 'instrumented.wasm'), prof = path.join(tmp, 'profile.data');
  wasmSplit(['--instrument', whole, '-o', inst]);
  writeFileSync(prof, await profile(readFileSync(inst)));
  wasmSplit([whole, `--profile=${prof}`, '-o1', wasm, '-o2', deferred]);
  const kib = (f) => `${(readFileSync(f).length / 1024).toFixed(0)} KiB (${(gzipSync(readFileSync(f), { level: 9 }).length / 1024).toFixed(0)} gzip)`;
  console.log(`split.mjs: ${path.basename(whole)} ${kib(whole)} → first paint ${path.basename(wasm)} ${kib(wasm)} + on demand ${path.basename(deferred)} ${kib(deferred)}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
