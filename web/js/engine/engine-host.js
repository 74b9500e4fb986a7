// engine-host.js — runs in engine.html, the hidden iframe component.js opens on a host page:
// one engine Worker (worker.js: one wasm instance) for every <encoder-walkthrough> element of
// that page. Relays the Worker protocol to the parent window:
//   parent → here: {type: 'encoder-walkthrough:engine', id, action, ...payload}
//   here → parent: {type: 'encoder-walkthrough:engine', id, result | error | progress | stream},
//                  and once {type: 'encoder-walkthrough:engine', ready: true}
// Only messages from the parent window are served, answered to the origin that sent them;
// the step data's buffers are transferred, not copied.
const TYPE = 'encoder-walkthrough:engine';
const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
const calls = new Map(); // worker call id → {origin, id}
let nextId = 1;

function reply(c, msg, transfer = []) {
  window.parent.postMessage({ type: TYPE, id: c.id, ...msg }, c.origin, transfer);
}

window.addEventListener('message', (e) => {
  const d = e.data;
  if (e.source !== window.parent || !d || d.type !== TYPE || typeof d.action !== 'string') return;
  const wid = nextId++;
  calls.set(wid, { origin: e.origin, id: d.id });
  const { type, id, ...call } = d;
  worker.postMessage({ ...call, id: wid });
});

worker.onmessage = (e) => {
  const { id, ...msg } = e.data;
  const c = calls.get(id);
  if (!c) return;
  if (msg.progress || msg.stream) return reply(c, msg);  // the call goes on
  calls.delete(id);
  const r = msg.result;
  const transfer = r ? [r.steps && r.steps.buffer, r.params && r.params.buffer, r.buffer].filter(Boolean) : [];
  reply(c, msg, transfer);
};
worker.onerror = (e) => {
  e.preventDefault();
  for (const c of calls.values()) reply(c, { error: `The compute engine (WebAssembly worker) failed to start: ${e.message || 'unknown error'}` });
  calls.clear();
};

window.parent.postMessage({ type: TYPE, ready: true }, '*');
