// page-trace.mjs — the page's Trace (web/js/model/trace.js) from one run of the wasm engine in Node,
// copying the step and parameter views as the Worker does; shared by the Node suites that run
// page modules on real traces (kinds.mjs, notes.mjs). traceFromCli: the same from the native
// CLI's --json (embed.mjs, and the browser suites that compute what a page should show).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Trace } from '../../web/js/model/trace.js';

export function traceOf(engine, model, options) {
  return traceOfReply(engine, engine.run(JSON.stringify(model), JSON.stringify(options ? { ...options, prediction: true } : {})));
}

// The page's Trace of a Hugging Face checkpoint directory (its files staged in the wasm heap as
// the page's Worker stages them), run on `text` (and `text2`: BERT's segment B).
export function checkpointTraceOf(engine, dir, text, text2 = '', options = {}) {
  engine.clearCheckpointFiles();
  for (const name of readdirSync(dir)) {
    const bytes = readFileSync(path.join(dir, name));
    const view = engine.stageCheckpointFile(name, bytes.length);
    if (!view) continue;
    view.set(bytes);
  }
  const info = JSON.parse(engine.loadCheckpoint(path.basename(dir)));
  if (!info.ok) throw new Error(info.error);
  return traceOfReply(engine, engine.runCheckpoint(text, text2, JSON.stringify({ ...options, prediction: true })));
}

function traceOfReply(engine, reply) {
  const meta = JSON.parse(reply);
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

// The page's Trace of a CLI --json trace (null data entries are −inf), every step's data at hand.
export function traceFromCli(json) {
  const pack = (list) => {
    const offsets = [0];
    for (const x of list) offsets.push(offsets[offsets.length - 1] + x.data.length);
    const all = new Float32Array(offsets[list.length]);
    list.forEach((x, i) => all.set(x.data.map((v) => (v === null ? -Infinity : v)), offsets[i]));
    return { buffer: all.buffer, offsets };
  };
  const strip = (list) => list.map(({ data, ...rest }) => rest);
  // A checkpoint's --json has no parameter data: its parameters stay without data (null).
  const params = json.params.every((p) => p.data) ? pack(json.params) : null;
  return new Trace({ meta: { ...json, ok: true, steps: strip(json.steps), params: strip(json.params) }, steps: pack(json.steps), params, generation: 1, timing: {} });
}
