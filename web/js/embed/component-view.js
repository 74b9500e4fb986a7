// component-view.js — what one <encoder-walkthrough> element shows in its shadow DOM: a
// figure of one step (title, formula, the step's matrix with the explanation of the number
// pointed at, the inputs with inputs=1, the sentence box / previous-next with controls=), an
// Export menu, notices for bad attributes, and a link to the full walkthrough. It runs the
// element's settings on the shared engine and draws the step as the page does
// (view/step-view.js), in its own view context: its theme, a figure's window, and navigation
// through its own attributes — never anything page-wide, so elements do not touch each other.
// Its language too: the catalog is one per page, so the element switches to its own language
// wherever it starts to write — before drawing, on every event in its shadow root, before an
// export — and elements in different languages each keep theirs.
import { t, num, currentLang, setLang } from '../lib/i18n.js';
import { el } from '../lib/dom.js';
import { Trace } from '../model/trace.js';
import { buildModel, toURL, publicState, presetIsTrained } from '../model/settings.js';
import { viewContext } from '../view/context.js';
import { prepareStepView, drawStepView } from '../view/step-view.js';
import { loadFormulaTable, typesetFormula } from '../view/formulas.js';
import { stepFormula } from '../model/titles.js';
import { readEmbedParams, resolveStep, defaultFigureStep, FIGURE_WINDOW } from './embed-params.js';
import { exportStep } from './export.js';
import { exportMenu } from './export-menu.js';

let katexPromise = null;
// KaTeX as a classic script in the host document (window.katex; a host's own is reused).
function loadKatex(base) {
  if (window.katex) return Promise.resolve(window.katex);
  if (!katexPromise) {
    katexPromise = new Promise((resolve) => {
      const s = document.createElement('script');
      s.src = new URL('vendor/katex/katex.min.js', base).href;
      s.onload = () => resolve(window.katex || null);
      s.onerror = () => resolve(null);
      document.head.append(s);
    });
  }
  return katexPromise;
}

// The events the element's views handle (and may write text in: explanations, notes).
const EVENTS = ['pointerover', 'pointerenter', 'pointerleave', 'focusin', 'click', 'keydown', 'change', 'input'];

// The checkpoint each shared engine holds: {url, promise} (a failed open is forgotten). Its name
// is its folder's, as the page names it (page/checkpoint.js).
const opened = new WeakMap();
function openShared(engine, url) {
  const o = opened.get(engine);
  if (o && o.url === url) return o.promise;
  const parts = new URL(url).pathname.split('/').filter(Boolean);
  const name = decodeURIComponent(parts[parts.length - 1] || new URL(url).host);
  const promise = engine.call('openCheckpoint', { url, name });
  opened.set(engine, { url, promise });
  promise.catch(() => opened.delete(engine));
  return promise;
}

export class FigureElementView {
  constructor(shadow, base, setAttr) {
    this.base = base;
    this.setAttr = setAttr;
    this.token = 0;
    this.trace = null;
    this.stepId = '';
    this.language = ''; // the element's language (component.js useLang)
    for (const type of EVENTS) shadow.addEventListener(type, () => this.speak(), true);
    for (const css of ['css/style.css', 'css/step.css', 'css/dark.css', 'css/figure.css', 'css/component.css']) {
      const l = document.createElement('link');
      l.rel = 'stylesheet';
      l.href = new URL(css, base).href;
      shadow.append(l);
    }
    this.root = el('div', 'ew-root');
    this.notice = el('div', 'notice');
    this.notice.setAttribute('role', 'status');
    this.notice.hidden = true;
    this.controls = el('div', 'ew-controls');
    this.title = el('h3', 'ew-title', t('figure.starting'));
    this.provenance = el('p', 'provenance trained', '');
    this.provenance.hidden = true;
    this.formula = el('div', 'formula');
    this.menu = exportMenu((format) => this.exportStep(format));
    this.body = el('div', 'view');
    this.link = el('a', 'ew-link', t('figure.openFull'));
    this.link.target = '_blank';
    this.link.rel = 'noopener';
    this.status = el('p', 'status', '');
    this.status.setAttribute('role', 'status');
    this.status.hidden = true;
    this.root.append(this.controls, this.notice, this.status, this.title, this.provenance, this.formula, this.menu, this.body, this.link);
    shadow.append(this.root);
  }

  // Runs `parsed` ({state, errors} from model/settings.js fromURL) and shows its step.
  async show(engine, presets, parsed, q) {
    const token = ++this.token;
    const view = readEmbedParams((k) => q.get(k));
    const notes = [...parsed.errors, ...view.notes];
    if (view.view !== 'figure' && q.get('view') === 'full') notes.push(t('figure.alwaysFigure'));
    this.engine = engine;
    this.presets = presets;
    this.params = view;
    this.relabel();
    this.theme(view.theme);
    const request = await this.request(engine, parsed.state, q.get('model'));
    const result = await this.busy(() => engine.call('run', request));
    if (token !== this.token) return;
    this.speak(); // another element may have written in its language meanwhile
    if (!result.meta.ok) throw new Error(t('figure.cannotCompute', { why: result.meta.error }));
    this.trace = new Trace(result);
    this.state = parsed.state;
    const r = resolveStep(this.trace.steps.map((s) => s.id), parsed.state.step, defaultFigureStep(this.trace.steps));
    if (r.note) notes.push(r.note);
    this.setNotes(notes);
    this.renderControls(view);
    await this.draw(r.index);
  }

  // The engine's 'run' request: the settings' model, or (model="URL") the checkpoint in that
  // folder, opened once in the shared engine (which holds one checkpoint at a time).
  async request(engine, state, model) {
    this.checkpoint = null;
    if (!model) return { model: JSON.stringify(buildModel(state, this.presets)), want: 'all' };
    const url = new URL(model, document.baseURI);
    if (!url.pathname.endsWith('/')) url.pathname += '/';
    const r = await this.busy(() => openShared(engine, url.href));
    this.checkpoint = { url: url.href, name: r.info.name };
    return { model: '{}', want: 'all', options: { fills: true }, checkpoint: { text: state.text, text2: state.text2 || '' } };
  }

  // Makes the element's language the catalog's (component.js useLang chose it).
  speak() {
    if (this.language) setLang(this.language, null);
  }

  // The element's own words in the language now set (component.js useLang: the language is
  // known only once the attributes are read, after the constructor drew them).
  relabel() {
    this.root.lang = currentLang();
    this.link.textContent = t('figure.openFull');
    const menu = exportMenu((format) => this.exportStep(format));
    this.menu.replaceWith(menu);
    this.menu = menu;
  }

  // A computation longer than 150 ms shows "computing… 1.2 s" until it ends.
  async busy(work) {
    const t0 = performance.now();
    const timer = setInterval(() => {
      const dt = performance.now() - t0;
      if (dt < 150) return;
      this.status.hidden = false;
      this.speak();
      this.status.textContent = t('figure.computing', { secs: num(dt / 1000, 1) });
    }, 100);
    try {
      return await work();
    } finally {
      clearInterval(timer);
      this.status.hidden = true;
    }
  }

  theme(name) {
    const dark = name === 'dark' || (name === 'auto' && window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches);
    this.dark = dark;
    this.root.dataset.theme = dark ? 'dark' : 'light';
  }

  setNotes(notes) {
    this.notice.textContent = notes.length ? t('figure.badAttributes', { list: notes.join('; ') }) : '';
    this.notice.hidden = !notes.length;
  }

  fail(msg) {
    this.notice.textContent = msg;
    this.notice.hidden = false;
    this.root.classList.add('stale');
  }

  async draw(index) {
    const token = this.token;
    const trace = this.trace;
    const step = trace.steps[index];
    this.index = index;
    this.stepId = step.id;
    this.root.classList.remove('stale');
    this.root.classList.toggle('inputs', this.params.inputs);
    const ctx = this.context(step);
    await prepareStepView(ctx, { wholeTrace: true }); // 'run' sent every step (want: 'all')
    // The formula as the build typeset it (view/formulas.js), else KaTeX's script, loaded now.
    await loadFormulaTable(new URL('formulas-mathml.js', this.base).href);
    const katex = typesetFormula(stepFormula(step, trace)) === undefined ? await loadKatex(this.base) : null;
    if (token !== this.token) return; // a newer run is on its way
    this.speak();
    drawStepView(ctx, { title: this.title, formula: this.formula, body: this.body }, { katex: { katex, output: 'mathml' } });
    this.cell = null; // explained once; the next step starts at its first cell
    this.showProvenance();
    this.link.href = this.fullLink(step.id);
    this.syncNav();
  }

  // Where a checkpoint's weights come from, in the page's words (page/provenance.js); the
  // element's settings' weights say it in the step's notes.
  showProvenance() {
    const ck = this.checkpoint;
    this.provenance.textContent = ck ? t('provenance.checkpoint', { name: ck.name }) : '';
    this.provenance.hidden = !ck;
  }

  // The page in the same state: the settings, or (model=) the checkpoint's absolute folder URL
  // with the element's text, so the page reopens the same checkpoint.
  fullLink(step) {
    const extra = { theme: this.params.given.theme, lang: this.lang };
    const ck = this.checkpoint;
    if (!ck) return new URL(toURL({ ...this.state, step }, this.presets, extra), this.base).href;
    const q = new URLSearchParams({ model: ck.url, text: this.state.text });
    if (this.state.text2) q.set('text2', this.state.text2);
    q.set('step', step);
    for (const [k, v] of Object.entries(extra)) if (v) q.set(k, v);
    return new URL('?' + q.toString(), this.base).href;
  }

  // This element's view context: its theme, a figure's window, the cell a click on the
  // alignment asked for, and navigation by setting its own `step` attribute.
  context(step) {
    const preset = this.presets.find((p) => p.name === this.state.preset);
    const cell = this.cell && this.cell.step === step.id ? this.cell : null;
    return viewContext({
      trace: this.trace, step, engine: this.engine, cell, lang: this.language, dark: this.dark, window: FIGURE_WINDOW,
      trained: !!this.checkpoint || presetIsTrained(preset),
      goTo: (id) => this.setAttr('step', id),
      openCell: (id, R, c) => {
        this.cell = { step: id, R, c };
        this.setAttr('step', id);
      },
    });
  }

  renderControls(view) {
    this.controls.replaceChildren();
    if (view.controls.has('text')) {
      const box = el('textarea', 'ew-text');
      box.rows = 1;
      box.value = this.state.text;
      box.setAttribute('aria-label', t('figure.sentence'));
      let timer = 0;
      box.addEventListener('input', () => {
        clearTimeout(timer);
        timer = setTimeout(() => this.setAttr('text', box.value), 250);
      });
      this.controls.append(box);
    }
    if (view.controls.has('nav')) {
      const prev = el('button', 'ew-prev', t('figure.prev')), next = el('button', 'ew-next', t('figure.next'));
      const count = el('span', 'counter');
      prev.type = next.type = 'button';
      prev.addEventListener('click', () => this.setAttr('step', this.trace.steps[Math.max(0, this.index - 1)].id));
      next.addEventListener('click', () => this.setAttr('step', this.trace.steps[Math.min(this.trace.steps.length - 1, this.index + 1)].id));
      const bar = el('div', 'stepbar');
      bar.append(prev, count, next);
      this.nav = { prev, next, count };
      this.controls.append(bar);
    } else this.nav = null;
  }

  syncNav() {
    if (!this.nav) return;
    const n = this.trace.steps.length;
    this.nav.prev.disabled = this.index === 0;
    this.nav.next.disabled = this.index === n - 1;
    this.nav.count.textContent = t('figure.counter', { n: this.index + 1, total: n });
  }

  exportStep(format, id = this.stepId) {
    this.speak(); // titles in the element's language
    if (!this.trace) return Promise.reject(new Error(t('figure.nothingYet')));
    const settings = this.checkpoint ? { model: this.checkpoint.url, text: this.state.text, step: id } : { ...publicState(this.state, this.presets), step: id };
    const link = this.fullLink(id);
    return exportStep({ trace: this.trace, settings, link, batch: 0, dark: this.dark, engine: this.engine }, id, format);
  }
}
