// worker.js — runs the WebAssembly engine off the main thread (one thread; no
// SharedArrayBuffer, so no cross-origin isolation is needed). sql.js-style protocol:
//   in:  {id, action: 'init' | 'run' | 'params', ...}
//   out: {id, result} | {id, error} | {id, progress}
// 'run' copies every step view into ONE ArrayBuffer and transfers it (no per-step messages,
// no nested arrays); parameters travel the same way, eagerly when small, else on request.
import createEncoderWalkthrough from '../encoder_walkthrough.js';
import { TRAINED_ACTIONS } from './worker-trained.js';

const EAGER_PARAM_FLOATS = 4 * 1024 * 1024;

let modulePromise = null;
let engine = null;
let generation = 0; // bumps with every successful load; 'params' must match it

function getModule() {
  if (!modulePromise) {
    modulePromise = createEncoderWalkthrough({
      locateFile: (p) => new URL('../' + p, import.meta.url).href,
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

async function handle(msg) {
  const M = await getModule();
  switch (msg.action) {
    case 'init': {
      if (!engine) engine = new M.Engine();
      return { isa: M.kernelIsa(), presets: JSON.parse(M.presetsJson()), schema: JSON.parse(M.configSchemaJson()) };
    }
    case 'run': {
      if (!engine) engine = new M.Engine();
      postMessage({ id: msg.id, progress: 'forward' });
      const t0 = performance.now();
      // options (trained models, issue 10): {backward, generate, user_weights}
      const meta = JSON.parse(msg.options ? engine.runWith(msg.model, JSON.stringify(msg.options)) : engine.load(msg.model));
      const t1 = performance.now();
      if (!meta.ok) {
        return { meta };
      }
      generation++;
      postMessage({ id: msg.id, progress: 'copy' });
      const steps = pack(meta.steps.length, (i) => engine.stepData(i), meta.steps.map((s) => size(s.shape)));
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
    case 'params': {
      if (!engine || msg.generation !== generation) throw new Error('stale parameter request');
      const idx = msg.indices;
      const sizes = msg.sizes;
      return { generation, indices: idx, ...pack(idx.length, (k) => engine.paramData(idx[k]), sizes), transfer: [] };
    }
    default:
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
    if (result && msg.action === 'params') transfer.push(result.buffer);
    if (result) delete result.transfer;
    postMessage({ id: msg.id, result }, transfer);
  } catch (err) {
    let text = String((err && err.message) || err);
    if (typeof err === 'number') {
      // A C++ exception escaped the engine (a build without exception catching): start afresh.
      text = 'the engine stopped on an internal error with these settings (a C++ exception this build cannot catch)';
      try { engine.delete(); } catch { /* already unusable */ }
      engine = null;
    }
    postMessage({ id: msg.id, error: text });
  }
};
