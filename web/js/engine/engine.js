// engine.js — the main thread's side of the worker protocol (worker.js): call(action, payload)
// returns a Promise; progress messages go to an optional callback. One module Worker,
// started once; if it cannot start (no module workers, the wasm fails to load), every call
// rejects with a message the page shows, in the reader's language (catalog area `errors`).
// A generating run streams its rounds ({id, stream}, worker.js) to onStream(round, id), for
// the call still pending with that id; the page decides whether it is still the one it shows.
import { t, has } from '../lib/i18n.js';

export class EngineClient {
  // makeWorker: how to start the Worker (the single-file build starts it from a blob). The URL
  // goes up to js/ and back into engine/: it holds from this file (js/engine/) and from wherever
  // the site's bundler puts this code (js/page/main.js, js/chunks/: scripts/bundle-site.mjs).
  constructor(makeWorker = () => new Worker(new URL('../engine/worker.js', import.meta.url), { type: 'module' })) {
    this.nextId = 1;
    this.pending = new Map();
    this.failed = null;
    this.worker = makeWorker();
    this.loaded = []; // files the Worker loaded after its start (a split build's deferred half)
    this.onLoaded = null;
    this.onStream = null;
    this.worker.onmessage = (e) => {
      const { id, result, error, code, params, progress, loaded, stream } = e.data;
      if (loaded) {
        this.loaded.push(loaded);
        if (this.onLoaded) this.onLoaded(loaded);
        return;
      }
      const p = this.pending.get(id);
      if (!p) return;
      if (stream) {
        if (this.onStream) this.onStream(stream, id);
        return;
      }
      if (progress) {
        if (p.onProgress) p.onProgress(progress);
        return;
      }
      this.pending.delete(id);
      if (error) p.reject(new Error(code && has(`errors.${code}`) ? t(`errors.${code}`, params || {}) : error));
      else p.resolve(result);
    };
    const fail = (msg) => {
      this.failed = msg;
      for (const p of this.pending.values()) p.reject(new Error(msg));
      this.pending.clear();
    };
    this.worker.onerror = (e) => {
      e.preventDefault();
      fail(t('errors.engine_start', { detail: e.message || t('errors.engine_unknown') }));
    };
    this.worker.onmessageerror = () => fail(t('errors.engine_message'));
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
