// remote-engine.js — the engine as the web component sees it: the same call(action, payload,
// onProgress) → Promise as engine.js's EngineClient, answered by engine.html (engine-host.js)
// in a hidden iframe of the walkthrough's site. One per host page; every message is checked
// to come from that iframe and from the site's origin.
const TYPE = 'encoder-walkthrough:engine';

import { t, has } from '../lib/i18n.js';
export class RemoteEngine {
  constructor(url) {
    this.origin = url.origin;
    this.nextId = 1;
    this.pending = new Map();
    this.onStream = null; // as engine.js: a generating run's rounds, as they end
    const frame = document.createElement('iframe');
    frame.src = url.href;
    frame.title = t('embed.engineFrame');
    frame.hidden = true;
    frame.style.setProperty('display', 'none', 'important'); // whatever the host's CSS says about iframes
    frame.setAttribute('aria-hidden', 'true');
    frame.dataset.encoderWalkthroughEngine = '';
    this.frame = frame;
    this.ready = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the engine (${url.href}) did not start within 30 s`)), 30000);
      window.addEventListener('message', (e) => {
        if (e.source !== frame.contentWindow || e.origin !== this.origin) return;
        const d = e.data;
        if (!d || d.type !== TYPE) return;
        if (d.ready) {
          clearTimeout(timer);
          resolve();
          return;
        }
        this.answer(d);
      });
    });
    document.body.append(frame);
  }

  answer({ id, result, error, code, params, progress, stream }) {
    const p = this.pending.get(id);
    if (!p) return;
    if (stream) return this.onStream && this.onStream(stream, id);
    if (progress) return p.onProgress && p.onProgress(progress);
    this.pending.delete(id);
    if (error) p.reject(new Error(code && has(`errors.${code}`) ? t(`errors.${code}`, params || {}) : error));  // as engine.js
    else p.resolve(result);
  }

  async call(action, payload = {}, onProgress = null) {
    await this.ready;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
      this.frame.contentWindow.postMessage({ type: TYPE, id, action, ...payload }, this.origin);
    });
  }
}
