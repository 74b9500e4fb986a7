// page.mjs — the browser side of the browser benchmark (bench/browser/run.mjs bundles it with
// esbuild into build/bench-browser/page.js and opens index.html in headless Chromium). It loads
// TensorFlow.js (wasm backend) and onnxruntime-web from bench/node/node_modules and our three
// web modules from dist/ (relaxed SIMD, SIMD128, scalar), all single-threaded, then runs the
// same suite as Node (../node/suite.mjs) and resolves window.runBench(opts) with its results.
// Everything is served by run.mjs's local static server: nothing is downloaded.
import * as tf from '@tensorflow/tfjs-core';
import * as tfw from '@tensorflow/tfjs-backend-wasm';
import * as ort from 'onnxruntime-web';
import { matmulModel, encoderLayerModel, encoderLayerModelFused } from '../node/onnx_graph.mjs';
import { runSuite } from '../node/suite.mjs';

const NM = '/bench/node/node_modules/';
const log = (...m) => console.log(m.join(' '));  // run.mjs forwards the page's console to stderr

// threads > 1 (run.mjs --threads, an isolated page): the threaded-SIMD build at that count.
async function loadTfjs(threads) {
  if (threads <= 1) tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);  // never the threaded build
  tfw.setWasmPaths(NM + '@tensorflow/tfjs-backend-wasm/dist/');
  tfw.setThreadsCount(threads);
  if (!(await tf.setBackend('wasm'))) throw new Error('tfjs: the wasm backend did not initialise');
  await tf.ready();
  if (!(await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT'))) throw new Error('tfjs: no SIMD support detected; the comparison would be unfair');
  const mt = await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT');
  if (threads > 1 && !mt) log(`tfjs: no multithread support detected (crossOriginIsolated ${self.crossOriginIsolated}): its single-thread build runs`);
  return { tf, version: tfw.version_wasm, threads: tfw.getThreadsCount() };
}

function loadOrt(threads) {
  ort.env.wasm.numThreads = threads;
  ort.env.wasm.proxy = false;
  ort.env.wasm.wasmPaths = NM + 'onnxruntime-web/dist/';  // ort-wasm-simd-threaded.{mjs,wasm}; no Worker with 1 thread
  return { ort, matmulModel, encoderLayerModel, encoderLayerModelFused, version: ort.env.versions.web };
}

// Our web flavour (dist/<base>.js, an ES module factory; it fetches <base>.wasm next to itself).
// The SIMD128 module: the same code whole (build/wasm/encoder_walkthrough.whole.wasm), as dist/
// serves it split in two (wasm/tools/split.mjs) for a page's Worker, which this page is not.
const WHOLE = { 'encoder_walkthrough.wasm': '/build/wasm/encoder_walkthrough.whole.wasm' };
async function loadOurs(base) {
  const url = new URL(`/dist/${base}.js`, location.href).href;
  const { default: create } = await import(/* @vite-ignore */ url);
  return create({ print: log, printErr: log, locateFile: (p) => WHOLE[p] || '/dist/' + p });
}

// threads > 1: the "relaxed" rows are the threaded module (relaxed SIMD + pthreads) with its pool
// at that count, so the *_relaxed ratios compare every implementation at the same thread count.
async function loadOursRelaxed(threads) {
  if (threads <= 1) return loadOurs('encoder_walkthrough_relaxed');
  const M = await loadOurs('encoder_walkthrough_relaxed_mt');
  M.setThreads(threads);
  return M;
}

window.runBench = async ({ rounds, targetMs, checkOnly = false, relaxed = true, threads = 1 }) => {
  if (threads > 1 && !self.crossOriginIsolated) throw new Error(`${threads} threads asked for, but the page is not cross-origin isolated`);
  const notes = [], checks = [];
  const check = (name, ok, detail) => {
    checks.push({ name, ok, detail });
    log(`  check ${name}: ${ok ? 'ok' : 'FAIL'} (${detail})`);
  };
  log('loading tfjs-backend-wasm and onnxruntime-web');
  const tfjs = await loadTfjs(threads), P = loadOrt(threads);
  log(`  tfjs-backend-wasm ${tfjs.version} (SIMD, ${tfjs.threads} thread(s)); onnxruntime-web ${P.version} (wasm EP, ${threads} thread(s))`);
  log('loading our modules from dist/');
  const ours = await loadOurs('encoder_walkthrough'), oursScalar = await loadOurs('encoder_walkthrough_scalar');
  const canRelaxed = relaxed && WebAssembly.validate(new Uint8Array(await (await fetch('/dist/encoder_walkthrough_relaxed.wasm')).arrayBuffer()));
  const oursRelaxed = canRelaxed ? await loadOursRelaxed(threads) : null;
  if (threads > 1 && !oursRelaxed) throw new Error('the threaded run needs the relaxed-SIMD threaded module');
  if (relaxed && !canRelaxed) notes.push('this browser does not validate the relaxed-SIMD module: no relaxed rows');
  const kernelIsa = { simd128: ours.kernelIsa(), scalar: oursScalar.kernelIsa(), relaxed: oursRelaxed ? oursRelaxed.kernelIsa() : null };
  log(`  kernel ISA: ${JSON.stringify(kernelIsa)}`);
  for (const [k, want] of [['simd128', 'wasmsimd'], ['scalar', 'scalar'], ['relaxed', 'wasmrelaxed']])
    if (kernelIsa[k] && kernelIsa[k] !== want) notes.push(`our ${k} build reports kernel ISA "${kernelIsa[k]}", expected "${want}"`);
  const S = await runSuite({ ours, oursScalar, oursRelaxed, tfjs, P, rounds, targetMs, checkOnly, log, check, notes });
  for (const c of S.cases) for (const im of c.impls) { try { await im.dispose?.(); } catch { /* ignore */ } }
  return {
    results: S.results, ratios: S.ratios, peer_formulation_used: S.peerUsed, checks, notes, kernelIsa,
    userAgent: navigator.userAgent, hardwareConcurrency: navigator.hardwareConcurrency, crossOriginIsolated: self.crossOriginIsolated,
    versions: { tfjs: tfjs.version, ort: P.version },
    // The thread counts each implementation ran at (ours_relaxed: the threaded module's pool when > 1).
    threads: { ours_simd128: 1, ours_scalar: 1, ours_relaxed: threads > 1 && oursRelaxed ? oursRelaxed.threads() : 1, tfjs: tfjs.threads, ort: P.ort.env.wasm.numThreads },
  };
};
window.benchReady = true;
