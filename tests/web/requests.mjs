#!/usr/bin/env node
// requests.mjs — how the page's Trace (web/js/model/trace.js) asks its Worker for data, in Node:
// a big vocabulary's whole trace is gigabytes (a Qwen2.5-0.5B-sized model's 417 tokens: 2.4 GB),
// and a message cannot carry a buffer of 2 GiB or more ("The ArrayBuffer/ArrayBufferView size
// exceeds the supported range", getTrace() in Chromium before this). So ensureSteps and
// ensureParams cut what is missing into requests of at most Trace.requestFloats floats each, in
// order, every step and parameter in exactly one request; the data lands where it belongs.
// Checked with a Worker stand-in that answers as web/js/engine/worker.js does and refuses a
// request over the limit. The check can fail: with the limit lifted (one request for all), the
// stand-in must refuse it.
//
//   node tests/web/requests.mjs
import process from 'node:process';
import { Trace, batches } from '../../web/js/model/trace.js';

let failures = 0;
function check(name, ok, detail = '') {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok || !detail ? '' : `: ${detail}`}`);
  if (!ok) failures++;
}

// batches(): runs in order, each at most `max`, an item over `max` alone.
const w = (x) => x;
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
check('batches: runs in order, each within the limit', same(batches([3, 3, 3, 1], w, 6), [[3, 3], [3, 1]]), JSON.stringify(batches([3, 3, 3, 1], w, 6)));
check('batches: an item heavier than the limit goes alone', same(batches([2, 9, 2], w, 5), [[2], [9], [2]]), JSON.stringify(batches([2, 9, 2], w, 5)));
check('batches: nothing gives no run', same(batches([], w, 5), []));

// A trace of 7 steps and 3 parameters with known shapes; the stand-in fills step i's floats with
// i + k / 1000 and parameter j's with 100 + j + k / 1000, as the engine's views would be copied.
const shapes = [[2, 3], [4, 5], [1, 1], [6, 2], [3, 3], [2, 2], [5, 1]];
const pshapes = [[3, 4], [2, 2], [7, 1]];
const meta = {
  steps: shapes.map((shape, i) => ({ id: `s${i}`, shape, inputs: [], place: {}, kind: 'linear' })),
  params: pshapes.map((shape, j) => ({ id: `p${j}`, shape })), text: { source_tokens: [['a', 'b']] }, config: {}, tokens: [],
};
const floats = (s) => s.reduce((a, b) => a * b, 1);
function standIn(limit) {
  const calls = [];
  return {
    calls,
    async call(action, msg) {
      const items = msg.indices.map((i) => (action === 'steps' ? shapes[i] : pshapes[i]));
      const total = items.reduce((a, s) => a + floats(s), 0);
      calls.push({ action, indices: msg.indices, total });
      if (total > limit) throw new Error(`${action}: ${total} floats in one message, over ${limit}`);
      const out = new Float32Array(total), offsets = [0];
      msg.indices.forEach((i, k) => {
        const n = floats(items[k]);
        for (let x = 0; x < n; x++) out[offsets[k] + x] = (action === 'steps' ? i : 100 + i) + x / 1000;
        offsets.push(offsets[k] + n);
      });
      return { indices: msg.indices, buffer: out.buffer, offsets };
    },
  };
}
const holds = (items, base) => items.every((s, i) => s.data && s.data.length === floats(s.shape) &&
  Array.from(s.data).every((v, x) => Math.abs(v - (base + i + x / 1000)) < 1e-4));

async function run(limit, lifted) {
  Trace.requestFloats = lifted ? Infinity : limit;
  const trace = new Trace({ meta, steps: null, params: null, generation: 1 });
  const engine = standIn(limit);
  let error = '';
  try {
    await trace.ensureAll(engine);
    await trace.ensureParams(pshapes.map((s, j) => `p${j}`), engine);
  } catch (e) {
    error = e.message;
  }
  return { trace, engine, error };
}

{
  const { trace, engine, error } = await run(20, false);
  const steps = engine.calls.filter((c) => c.action === 'steps');
  const params = engine.calls.filter((c) => c.action === 'params');
  const order = steps.flatMap((c) => c.indices);
  check('the whole trace in requests of at most 20 floats, none refused', !error && engine.calls.every((c) => c.total <= 20), error);
  check('every step asked once, in order, over several requests', steps.length > 1 && same(order, shapes.map((s, i) => i)), JSON.stringify(steps.map((c) => c.indices)));
  check('every step\'s data where it belongs', holds(trace.steps, 0));
  check('the parameters the same way', params.length > 1 && holds(trace.params, 100), JSON.stringify(params.map((c) => c.indices)));
  const again = engine.calls.length;
  await trace.ensureAll(engine);
  check('nothing asked twice', engine.calls.length === again);
}
{
  const { error } = await run(20, true);
  check('planted: the limit lifted, the one request for all is refused by the stand-in (the check can fail)', /over 20/.test(error), error || 'not refused');
}

console.log(`requests: ${failures ? `${failures} failed` : 'all passed'}`);
process.exit(failures ? 1 : 0);
