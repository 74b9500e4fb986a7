// worker.js — runs the WebAssembly engine off the main thread (one thread; no
// SharedArrayBuffer, so no cross-origin isolation is needed) and keeps its trace: the page
// asks for the step data it shows. sql.js-style protocol:
//   in:  {id, action: 'init' | 'run' | 'steps' | 'thumbs' | 'params' | 'sweep' | 'openCheckpoint', ...}
//        ('run' with checkpoint: {text, text2} runs the checkpoint worker-checkpoint.js opened)
//   out: {id, result} | {id, error} | {id, progress} | {id, stream}
//        ('run' with options.generate: one {id, stream: round} per generation round as it ends,
//        before the result — the core's GenProgress (wasm/bindings.cpp onRound) plus `at`, the
//        worker's clock (performance.timeOrigin + now) when it was posted)
// 'run' sends the trace's metadata and only the data of the steps in `want` (ids) and their
// step inputs, packed into ONE transferred ArrayBuffer; 'steps' sends more steps by index,
// 'thumbs' reduced copies (block maxima) of step regions for thumbnails; parameters travel
// the same way, eagerly when small, else on request ('params'). A request for data carries
// the trace's generation and is refused once a newer trace has replaced it.
// The module is the first build this browser validates and can load (build-pick.js): the split
// SIMD128 build → relaxed SIMD (FMA) → scalar, led by relaxed SIMD with threads where the page
// is cross-origin isolated.
import { usableBuilds, threadCount, BUILD_FILES } from './build-pick.js';
import { loadBuild } from './load-build.js';
import { TRAINED_ACTIONS } from './worker-trained.js';
import { CHECKPOINT_ACTIONS } from './worker-checkpoint.js';

const EAGER_PARAM_FLOATS = 64 * 1024; // above this (256 KB) parameters are sent on request

let modulePromise = null;
let engine = null;
let generation = 0; // bumps with every successful load; data requests must match it
let stepCount = 0; // steps of the trace the engine holds

let build = '';
let threads = 1; // the kernels' thread count (core/kernels/pool.h)

// The fastest build that validates and loads (a missing or failing file: the next one).
async function createModule(opts) {
  const errors = [];
  for (const b of usableBuilds(WebAssembly, globalThis)) {
    try {
      // A split build's deferred half is named to the page once loaded (its service worker keeps it).
      const { default: factory } = await loadBuild(b, (url) => postMessage({ loaded: url }));
      const M = await factory({ ...opts }); // a fresh object: a failed attempt may have changed its own
      threads = b === 'relaxed_mt' ? M.setThreads(threadCount(globalThis)) : 1;
      build = b;
      return M;
    } catch (e) {
      errors.push(`${BUILD_FILES[b]}: ${(e && e.message) || e}`);
    }
  }
  throw Object.assign(new Error(`no build of the engine could be loaded (${errors.join('; ')})`),
    { code: 'engine_no_build', params: { detail: errors.join('; ') } });
}

function getModule() {
  if (!modulePromise) {
    modulePromise = createModule({
      locateFile: (p) => new URL('../../' + p, import.meta.url).href,
      print: () => {},
      printErr: (s) => console.warn('[wasm]', s),
    });
  }
  return modulePromise;
}

function size(shape) {
  return shape.reduce((a, b) => a * b, 1);
}

// Copies views (taken after the computation, so memory growth cannot invalidate them) into
// one buffer; returns {buffer, offsets} with offsets[i] = start (in floats) of item i.
function pack(count, viewAt, sizes) {
  let total = 0;
  const offsets = new Array(count + 1);
  for (let i = 0; i < count; i++) {
    offsets[i] = total;
    total += sizes[i];
  }
  offsets[count] = total;
  const out = new Float32Array(total);
  for (let i = 0; i < count; i++) {
    const v = viewAt(i);
    if (v && v.length) out.set(v.length === sizes[i] ? v : v.subarray(0, sizes[i]), offsets[i]);
  }
  return { buffer: out.buffer, offsets };
}

function checkGeneration(msg) {
  if (!engine || msg.generation !== generation) throw new Error('stale data request: a newer trace has replaced this one');
}

// Indices of the steps named in `want` and of their step inputs (parameters go apart).
function wantedSteps(metaSteps, want) {
  if (want === 'all') return metaSteps.map((s, i) => i);  // e.g. <encoder-walkthrough>: a shared Worker's trace is replaced by the next element's
  const index = new Map(metaSteps.map((s, i) => [s.id, i]));
  const out = new Set();
  for (const id of want) {
    const i = index.get(id);
    if (i === undefined) continue;
    out.add(i);
    for (const inp of metaSteps[i].inputs || []) if (index.has(inp)) out.add(index.get(inp));
  }
  return [...out];
}

// The data of steps `indices` in one buffer: {indices, buffer, offsets} (offsets[k] = start
// of indices[k], in floats). The views are taken now, after the computation.
function packSteps(indices) {
  const views = indices.map((i) => engine.stepData(i));
  return { indices, ...pack(indices.length, (k) => views[k], views.map((v) => (v ? v.length : 0))) };
}

// Thumbnails: each item {index, offset, rows, cols} is a rows×cols region of step `index`
// (row-major from `offset`), reduced to at most max×max cells, each the maximum of its block
// (a peak stays visible). Returns {buffer, offsets, shapes: [[rows, cols]…]}.
function thumbs(items, max) {
  const shapes = [], parts = [];
  for (const it of items) {
    const v = engine.stepData(it.index);
    const R = it.rows | 0, C = it.cols | 0, off = it.offset | 0;
    if (!v || R <= 0 || C <= 0 || off < 0 || off + R * C > v.length) throw new Error(`bad thumbnail region of step ${it.index}`);
    const r = Math.min(R, max), c = Math.min(C, max);
    const out = new Float32Array(r * c);
    for (let y = 0; y < r; y++) {
      const y0 = Math.floor((y * R) / r), y1 = Math.floor(((y + 1) * R) / r);
      for (let x = 0; x < c; x++) {
        const x0 = Math.floor((x * C) / c), x1 = Math.floor(((x + 1) * C) / c);
        let m = -Infinity;
        for (let i = y0; i < y1; i++) for (let j = x0; j < x1; j++) m = Math.max(m, v[off + i * C + j]);
        out[y * c + x] = m;
      }
    }
    shapes.push([r, c]);
    parts.push(out);
  }
  const p = pack(parts.length, (k) => parts[k], parts.map((x) => x.length));
  return { ...p, shapes };
}

// The shipped models a model names ("weights": "builtin:<name>"), fetched from models/ the first
// time one is used: the page's builds carry their names, not their bytes (core/io/
// builtin_models.h; issue 29). A file that cannot be fetched is left out: the core then says
// which weights are not loaded.
async function ensureBuiltins(M, modelJson) {
  if (typeof modelJson !== 'string' || !M.builtinModelLoaded) return;
  for (const [, name] of modelJson.matchAll(/"weights"\s*:\s*"builtin:([\w.-]+)"/g)) {
    if (M.builtinModelLoaded(name)) continue;
    const r = await fetch(new URL(`../../models/${name}.safetensors`, import.meta.url).href).catch(() => null);
    if (r && r.ok) M.loadBuiltinModel(name, new Uint8Array(await r.arrayBuffer()));
  }
}

async function handle(msg) {
  const M = await getModule();
  switch (msg.action) {
    case 'init': {
      if (!engine) engine = new M.Engine();
      return { isa: M.kernelIsa(), build, threads, presets: JSON.parse(M.presetsJson()), schema: JSON.parse(M.configSchemaJson()) };
    }
    case 'run': {
      if (!engine) engine = new M.Engine();
      await ensureBuiltins(M, msg.model);
      postMessage({ id: msg.id, progress: 'forward' });
      const t0 = performance.now();
      // options (trained models, issue 10): {backward, generate, user_weights}; a request with
      // options also asks for a classifier's prediction. None: the forward pass alone.
      const options = msg.options ? { ...msg.options, prediction: true } : {};
      // msg.checkpoint {text, text2}: the checkpoint opened before (worker-checkpoint.js).
      const ck = msg.checkpoint;
      // Generation streams: each round is posted as it ends, while the engine goes on.
      if (options.generate)
        engine.onRound((json) => postMessage({ id: msg.id, stream: { ...JSON.parse(json), at: performance.timeOrigin + performance.now() } }));
      let reply;
      try {
        reply = ck ? engine.runCheckpoint(String(ck.text), String(ck.text2 || ''), JSON.stringify(options))
          : engine.run(msg.model, JSON.stringify(options));
      } finally {
        if (options.generate) engine.onRound(null);
      }
      const meta = JSON.parse(reply);
      const t1 = performance.now();
      if (!meta.ok) {
        // A model that failed to parse leaves the last trace in place; one that failed while
        // running may not: then its data requests must be refused. A refused intervention
        // leaves the run without it in the engine (same steps, other values): refused too.
        const intervened = ['ablate', 'set', 'patch_from', 'patch'].some((k) => k in options);
        if (engine.stepCount() !== stepCount || intervened) generation++;
        return { meta };
      }
      generation++;
      stepCount = meta.steps.length;
      postMessage({ id: msg.id, progress: 'copy' });
      const steps = packSteps(wantedSteps(meta.steps, msg.want || []));
      const psizes = meta.params.map((p) => size(p.shape));
      const ptotal = psizes.reduce((a, b) => a + b, 0);
      const params = ptotal <= EAGER_PARAM_FLOATS ? pack(meta.params.length, (i) => engine.paramData(i), psizes) : null;
      const t2 = performance.now();
      const transfer = [steps.buffer];
      if (params) transfer.push(params.buffer);
      return {
        meta,
        generation,
        steps,
        params,
        timing: { forward: meta.ms - (meta.setup_ms || 0), weights: meta.setup_ms || 0, load: t1 - t0, copy: t2 - t1 },
        transfer,
      };
    }
    case 'steps': {
      checkGeneration(msg);
      const idx = msg.indices.filter((i) => Number.isInteger(i) && i >= 0 && i < stepCount);
      const r = packSteps(idx);
      return { generation, ...r, transfer: [r.buffer] };
    }
    case 'thumbs': {
      checkGeneration(msg);
      const r = thumbs(msg.items, Math.max(1, msg.max | 0));
      return { generation, ...r, transfer: [r.buffer] };
    }
    case 'sweep': {
      // The what-if lab's sweeps (core/session/sweep.h) over the last model run: a table.
      if (!engine) throw new Error('sweep: no model has run yet');
      postMessage({ id: msg.id, progress: 'sweep' });
      return JSON.parse(engine.sweep(JSON.stringify(msg.spec || {})));
    }
    case 'params': {
      checkGeneration(msg);
      const idx = msg.indices;
      const sizes = msg.sizes;
      return { generation, indices: idx, ...pack(idx.length, (k) => engine.paramData(idx[k]), sizes), transfer: [] };
    }
    default:
      if (CHECKPOINT_ACTIONS[msg.action]) {
        const bump = () => {  // the trace the page holds is gone: its data requests are refused
          generation++;
          stepCount = engine.stepCount();
        };
        return CHECKPOINT_ACTIONS[msg.action](msg, M, () => engine || (engine = new M.Engine()), { bump });
      }
      if (TRAINED_ACTIONS[msg.action])
        return TRAINED_ACTIONS[msg.action](msg, M, () => engine || (engine = new M.Engine()));
      throw new Error(`unknown action "${msg.action}"`);
  }
}

self.onmessage = async (e) => {
  const msg = e.data;
  try {
    const result = await handle(msg);
    const transfer = (result && result.transfer) || [];
    if (result && msg.action === 'params') transfer.push(result.buffer);  // 'steps'/'thumbs' list their own
    if (result) delete result.transfer;
    postMessage({ id: msg.id, result }, transfer);
  } catch (err) {
    let text = String((err && err.message) || err);
    let code = err && err.code;  // the page's catalog says it in the reader's language (engine.js)
    const params = (err && err.params) || {};
    if (typeof err === 'number') {
      code = 'engine_internal';
      // A C++ exception escaped the engine (a build without exception catching): start afresh.
      text = 'the engine stopped on an internal error with these settings (a C++ exception this build cannot catch)';
      try { engine.delete(); } catch { /* already unusable */ }
      engine = null;
    }
    postMessage({ id: msg.id, error: text, code, params });
  }
};
