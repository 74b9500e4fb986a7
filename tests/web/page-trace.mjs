// page-trace.mjs — the page's Trace (web/js/trace.js) from one run of the wasm engine in Node,
// copying the step and parameter views as the Worker does; shared by the Node suites that run
// page modules on real traces (kinds.mjs, notes.mjs).
import { Trace } from '../../web/js/trace.js';

export function traceOf(engine, model, options) {
  const meta = JSON.parse(engine.run(JSON.stringify(model), JSON.stringify(options ? { ...options, prediction: true } : {})));
  if (!meta.ok) throw new Error(meta.error);
  const pack = (n, at) => {
    const offsets = [0];
    for (let i = 0; i < n; i++) offsets.push(offsets[i] + at(i).length);
    const out = new Float32Array(offsets[n]);
    for (let i = 0; i < n; i++) out.set(at(i), offsets[i]);
    return { buffer: out.buffer, offsets };
  };
  const steps = pack(meta.steps.length, (i) => engine.stepData(i));
  const params = pack(meta.params.length, (i) => engine.paramData(i));
  return new Trace({ meta, steps, params, generation: 1, timing: {} });
}
