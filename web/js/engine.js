// engine.js — the main thread's side of the worker protocol (worker.js): call(action, payload)
// returns a Promise; progress messages go to an optional callback. One module Worker,
// started once; if it cannot start (no module workers, the wasm fails to load), every call
// rejects with a message the page shows.

export class EngineClient {
  // makeWorker: how to start the Worker (the single-file build starts it from a blob).
  constructor(makeWorker = () => new Worker(new URL('./worker.js', import.meta.url), { type: 'module' })) {
    this.nextId = 1;
    this.pending = new Map();
    this.failed = null;
    this.worker = makeWorker();
    this.worker.onmessage = (e) => {
      const { id, result, error, progress } = e.data;
      const p = this.pending.get(id);
      if (!p) return;
      if (progress) {
        if (p.onProgress) p.onProgress(progress);
        return;
      }
      this.pending.delete(id);
      if (error) p.reject(new Error(error));
      else p.resolve(result);
    };
    const fail = (msg) => {
      this.failed = msg;
      for (const p of this.pending.values()) p.reject(new Error(msg));
      this.pending.clear();
    };
    this.worker.onerror = (e) => {
      e.preventDefault();
      fail(`The compute engine (WebAssembly worker) failed to start: ${e.message || 'unknown error'}`);
    };
    this.worker.onmessageerror = () => fail('The compute engine sent a message that could not be read.');
  }

  call(action, payload = {}, onProgress = null) {
    if (this.failed) return Promise.reject(new Error(this.failed));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
      this.worker.postMessage({ id, action, ...payload });
    });
  }
}
