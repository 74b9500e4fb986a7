// component.js — <encoder-walkthrough>: a live figure of one step, for any page (a blog post).
//
//   <script type="module" src="https://example.org/encoder-walkthrough/component.js"></script>
//   <encoder-walkthrough text="the cat sat" step="layer0.head0.weights"></encoder-walkthrough>
//
// Attributes are the page's URL keys (text, text2, preset, step, every config key, inputs,
// controls, theme, lang; view is always a figure); changing one updates the figure. Each element
// renders into its own shadow DOM with the page's renderers; every element of the page shares
// ONE engine: a hidden iframe of this site (engine.html) running one Worker, one wasm instance
// (a page cannot start a Worker from another origin). element.exportStep(format[, id]) → File.
// The host's CSP must allow this site in script-src, style-src and frame-src (README).
import { RemoteEngine } from './js/engine/remote-engine.js';
import { useSchema, fromURL } from './js/model/settings.js';
import { FigureElementView } from './js/embed/component-view.js';
import { chooseLang, setLang, loadLang, LANG_NAMES, t } from './js/lib/i18n.js';

const here = new URL('.', import.meta.url);
let shared = null; // {engine, presets} once the engine answered 'init'

function setUp() {
  if (!shared) {
    shared = (async () => {
      const engine = new RemoteEngine(new URL('engine.html', here));
      const init = await engine.call('init');
      useSchema(init.schema);
      return { engine, presets: init.presets };
    })();
  }
  return shared;
}

class EncoderWalkthroughElement extends HTMLElement {
  constructor() {
    super();
    this.view = new FigureElementView(this.attachShadow({ mode: 'open' }), here, (k, v) => this.setAttribute(k, v));
    // Every attribute counts (the config keys come from the engine's schema, known later than
    // observedAttributes would need them).
    new MutationObserver(() => { if (this.isConnected) this.schedule(); }).observe(this, { attributes: true });
  }
  connectedCallback() {
    this.schedule();
  }
  // Several attributes set in a row make one recompute.
  schedule() {
    if (this.queued) return;
    this.queued = true;
    queueMicrotask(() => {
      this.queued = false;
      this.ready = this.update();
    });
  }
  async update() {
    const mine = (this.updates = (this.updates || 0) + 1);
    let shown;
    try {
      const { engine, presets } = await setUp();
      const q = new URLSearchParams();
      for (const a of this.attributes) q.set(a.name, a.value);
      const badLang = await this.useLang(q);
      const parsed = fromURL(q.toString(), presets);
      if (badLang) parsed.errors.push(badLang);
      shown = this.view.show(engine, presets, parsed, q);
    } catch (e) {
      shown = Promise.reject(e);
    }
    try {
      await shown;
    } catch (e) {
      if (mine === this.updates) this.view.fail(e.message || String(e));
    }
    if (mine !== this.updates) return; // superseded: the newer update reports
    this.dispatchEvent(new CustomEvent('encoder-walkthrough:shown', { detail: { step: this.view.stepId } }));
  }
  // The element's language: its lang attribute, else the reader's browser, else English (the
  // host page's <html lang> is left alone). Elements in different languages each draw in
  // their own (the view switches the shared catalog wherever it writes: component-view.js).
  // Returns the note for a lang attribute this site has no catalog for ('' otherwise).
  async useLang(q) {
    const c = chooseLang(q.has('lang') ? `?lang=${encodeURIComponent(q.get('lang'))}` : '', navigator.languages || [navigator.language]);
    await loadLang(c.lang); // its catalog, fetched the first time an element asks (i18n.js)
    setLang(c.lang, null);
    this.view.language = c.lang;
    this.view.lang = c.fromURL ? c.lang : undefined;
    if (c.bad === null) return '';
    return t('i18n.badLang', { lang: String(c.bad).slice(0, 20), shown: LANG_NAMES[c.lang] });
  }
  // The step on screen (or `id`) as a File: 'svg', 'png', 'csv', 'npy', 'tex' or 'json'.
  exportStep(format, id) {
    return this.view.exportStep(format, id);
  }
  getTrace() {
    return this.view.trace;
  }
}

if (!customElements.get('encoder-walkthrough')) customElements.define('encoder-walkthrough', EncoderWalkthroughElement);
