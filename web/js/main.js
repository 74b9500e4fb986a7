// main.js — the page: reads the URL, drives the settings form, sends model files to the
// engine worker (debounced; the latest request wins), keeps the last good trace on screen
// (dimmed) when an input is invalid, and renders one step at a time with next/previous,
// keyboard navigation and a table of contents. Exposes window.encoderWalkthrough (api.js).
import { EngineClient } from './engine.js';
import { Trace } from './trace.js';
import {
  FIELDS, CONFIG_KEYS, useSchema, defaults, parseValue, fromURL, toURL, buildModel, presetSettings, presetHasText,
  presetHasWeights, overrides, estimateFloats,
} from './state.js';
import { outline, placeOf, shortLabel } from './steps.js';
import { renderStep } from './render/index.js';
import { el } from './matrix.js';
import { shapeText, msText } from './format.js';
import { installApi } from './api.js';

const $ = (id) => document.getElementById(id);
const MAX_FLOATS = 96e6; // ~384 MB of float32 in the trace: beyond that the tab would struggle

// How the form names each configuration field, and its options: page wording only. Which
// fields exist, their order, types, ranges and enum values come from the core's schema.
const LABELS = {
  d_model: ['d_model', ''],
  num_heads: ['heads', 'must divide d_model; d_k = d_model / heads'],
  d_ff: ['d_ff', 'hidden width of the feed-forward network'],
  num_layers: ['encoder layers', ''],
  decoder_layers: ['decoder layers', '0 = encoder only'],
  norm: ['LayerNorm', { post: 'post-norm: LN(x + f(x))', pre: 'pre-norm: x + f(LN(x))' }],
  activation: ['activation', { relu: 'ReLU', gelu: 'GELU (exact, erf)' }],
  positional: ['positions', { sinusoidal: 'sinusoidal', learned: 'learned (BERT)', none: 'none' }],
  tokenizer: ['tokenizer', { regex: 'regex (words + punctuation)', whitespace: 'whitespace split', bpe: 'BPE (learned merges)' }],
  bpe_merges: ['BPE merges', ''],
  scale: ['scale scores by √d_k', ''],
  causal: ['causal mask in the encoder', ''],
  layer_norm_eps: ['LayerNorm ε', ''],
  seed: ['seed', 'seeds every weight not given'],
  max_tokens: ['max tokens', 'longer text is refused, never cut'],
  num_labels: ['classifier labels', '0 = no classification head'],
};
// [key, label, options or hint] for every configuration field, in the schema's order.
function settingsUI() {
  return CONFIG_KEYS.map((k) => {
    const [label, extra] = LABELS[k] || [k, FIELDS[k].description || ''];
    return [k, label, extra === '' ? FIELDS[k].description || '' : extra];
  });
}

const app = {
  engine: null,
  presets: [],
  isa: '',
  state: defaults(),
  shownState: null, // the state of the trace on screen
  trace: null,
  index: 0,
  batch: 0,
  cell: null,
  embed: false,
  computeMs: 0,
  renderMs: 0,
};

// ---- messages ---------------------------------------------------------------------------
function showError(msg) {
  const m = $('msg');
  m.replaceChildren(el('strong', '', 'Cannot compute: '), document.createTextNode(msg));
  m.hidden = false;
  document.body.classList.toggle('stale', !!app.trace);
  $('stale-note').hidden = !app.trace;
}
function clearError() {
  $('msg').hidden = true;
  document.body.classList.remove('stale');
  $('stale-note').hidden = true;
}
function showNotice(msg) {
  const n = $('notice');
  if (!msg) {
    n.hidden = true;
    return;
  }
  n.replaceChildren(document.createTextNode(msg));
  const x = el('button', 'small link', 'dismiss');
  x.type = 'button';
  x.addEventListener('click', () => { n.hidden = true; });
  n.append(' ', x);
  n.hidden = false;
}

// ---- computing ----------------------------------------------------------------------------
let pending = null; // the newest request not yet started
let running = false;
let statusTimer = null;

function requestCompute(state, opts = {}) {
  return new Promise((resolve, reject) => {
    const req = { state: structuredClone(state), resolve, reject, opts };
    if (pending) {
      // A newer request supersedes the queued one; the old promise follows the new outcome.
      const old = pending;
      req.followers = [...(old.followers || []), old];
    }
    pending = req;
    pump();
  });
}

async function pump() {
  if (running || !pending) return;
  const req = pending;
  pending = null;
  running = true;
  try {
    const r = await runOne(req);
    for (const f of [req, ...(req.followers || [])]) f.resolve(r);
  } catch (e) {
    for (const f of [req, ...(req.followers || [])]) f.reject(e);
  } finally {
    running = false;
    pump();
  }
}

function setBusy(on, what = '') {
  const s = $('status');
  clearInterval(statusTimer);
  if (!on) {
    s.hidden = true;
    document.body.classList.remove('busy');
    return;
  }
  const t0 = performance.now();
  statusTimer = setInterval(() => {
    const dt = performance.now() - t0;
    if (dt < 150) return;
    s.hidden = false;
    document.body.classList.add('busy');
    s.textContent = `computing${what ? ' ' + what : ''}… ${(dt / 1000).toFixed(1)} s`;
  }, 100);
}

async function runOne(req) {
  const state = req.state;
  const est = estimateFloats(state);
  if (est > MAX_FLOATS) {
    const msg = `this model would record about ${Math.round(est / 1e6)} million numbers (${Math.round((est * 4) / 1e6)} MB); the page stops at ${MAX_FLOATS / 1e6} million. Use fewer layers, a smaller d_model or d_ff, or a shorter text.`;
    showError(msg);
    throw new Error(msg);
  }
  const model = buildModel(state, app.presets);
  const words = (state.text.match(/\S+/g) || []).length;
  setBusy(true, `(d_model ${state.d_model}, ~${words} tokens)`);
  let result;
  try {
    result = await app.engine.call('run', { model: JSON.stringify(model) }, (p) => {
      if (p === 'copy') $('status').dataset.phase = 'copy';
    });
  } catch (e) {
    setBusy(false);
    showError(e.message);
    throw e;
  }
  setBusy(false);
  if (!result.meta.ok) {
    const p = app.presets.find((x) => x.name === state.preset);
    if (p && presetHasWeights(p) && overrides(state, p).length && !req.opts.noFallback) {
      // The preset's given weights do not fit the new settings: fall back to seeded weights.
      const changed = overrides(state, p);
      const next = { ...state, preset: '' };
      if (!presetHasText(p)) {
        next.text = FIELDS.text.def;
        next.text2 = '';
      }
      const r = await runOne({ state: next, opts: { ...req.opts, noFallback: true, keepNotice: true } });
      showNotice(`“${p.title}” gives its own weights, which do not fit ${changed.map((k) => `${k} = ${state[k]}`).join(', ')} (${result.meta.error}). Switched to seeded weights (seed ${next.seed}).`);
      return r;
    }
    showError(result.meta.error);
    throw new Error(result.meta.error);
  }
  clearError();
  if (!req.opts.keepNotice) showNotice('');
  const prevTrace = app.trace;
  const trace = new Trace(result);
  app.trace = trace;
  app.state = state;
  app.shownState = structuredClone(state);
  // The forward pass proper; drawing seeded weights (first run of new settings) is shown apart.
  app.computeMs = result.meta.ms - (result.meta.setup_ms || 0);
  app.timing = result.timing;
  if (app.batch >= trace.B) app.batch = 0;
  syncForm();
  buildToc();
  // Stay on the step on screen (the reader may have moved while this computed), unless the
  // request names one (a link, setState({step})).
  const onScreen = prevTrace ? prevTrace.steps[app.index]?.id : null;
  const wanted = req.opts.useStateStep || !onScreen ? state.step : onScreen;
  let idx = trace.steps.findIndex((s) => s.id === wanted);
  if (idx < 0) idx = Math.min(app.index, trace.steps.length - 1);
  await showStep(Math.max(0, idx), { keepCell: true });
  return trace;
}

// ---- the step view ------------------------------------------------------------------------
function katexInto(node, tex) {
  try {
    if (!window.katex) throw new Error('KaTeX not loaded');
    node.classList.remove('mono');
    window.katex.render(tex, node, { displayMode: true, throwOnError: true, output: 'htmlAndMathml', strict: 'ignore' });
  } catch {
    node.classList.add('mono');
    node.textContent = tex;
  }
}

let renderToken = 0;
async function showStep(index, opts = {}) {
  const trace = app.trace;
  if (!trace) return;
  index = Math.max(0, Math.min(trace.steps.length - 1, index));
  const step = trace.steps[index];
  const token = ++renderToken;
  const t0 = performance.now();
  if (!opts.keepCell || !app.cell || app.cell.step !== step.id) app.cell = null;
  app.index = index;
  app.state.step = step.id;
  if (app.shownState) app.shownState.step = step.id;
  await trace.ensureParams(step.inputs || [], app.engine).catch(() => {});
  if (token !== renderToken) return;

  const place = (app.places && app.places[index]) || placeOf(step);
  $('crumbs').textContent = [place.section, place.group, place.head >= 0 ? `head ${place.head}` : '']
    .filter(Boolean).join(' › ');
  $('counter').textContent = `Step ${index + 1} of ${trace.steps.length}`;
  $('prev').disabled = index === 0;
  $('next').disabled = index === trace.steps.length - 1;
  $('step-title').textContent = step.title;
  const meta = $('step-meta');
  meta.replaceChildren();
  const addMeta = (k, v, cls) => {
    const d = el('span', 'meta-item');
    d.append(el('span', 'meta-k', k), el('span', 'meta-v ' + (cls || ''), v));
    meta.append(d);
  };
  addMeta('id', step.id, 'mono');
  addMeta('shape', shapeText(step.shape));
  addMeta('kind', step.kind);
  katexInto($('formula'), step.formula);
  $('note').textContent = step.note || '';
  $('note').hidden = !step.note;

  const view = $('view');
  const host = el('div', 'step-body');
  const ctx = {
    trace, step, engine: app.engine, batch: app.batch, cell: app.cell,
    goTo: (id) => goTo(id, { focus: true }),
    setBatch: (b) => {
      if (b === app.batch) return;
      app.batch = b;
      app.cell = null;
      showStep(app.index);
    },
    onExplain: (R, c) => { app.cell = { step: step.id, R, c }; },
  };
  try {
    renderStep(ctx, host);
  } catch (e) {
    host.replaceChildren(el('p', 'msg', `This step could not be drawn: ${e.message}`));
    console.error(e);
  }
  view.replaceChildren(host);
  app.renderMs = performance.now() - t0;
  updatePerf();
  markToc();
  writeURL();
  document.title = `${index + 1}. ${step.title} — Encoder Walkthrough`;
  $('announce').textContent = `Step ${index + 1} of ${trace.steps.length}: ${step.title}`;
  if (opts.focus) $('step-title').focus({ preventScroll: false });
}

function updatePerf() {
  const isa = app.isa === 'wasmsimd' ? 'wasm simd' : `wasm ${app.isa || ''}`.trim();
  const t = app.timing;
  const w = t && t.weights >= 0.05 ? ` + seeded weights ${msText(t.weights)}` : '';
  $('perf').textContent = `computed in ${msText(app.computeMs)} (${isa})${w} · rendered in ${msText(app.renderMs)}`;
  $('perf').title = t ? `forward pass ${msText(t.forward)}; seeded weights ${msText(t.weights)}; parse + weights + forward in the worker ${msText(t.load)}; copy to the page ${msText(t.copy)}` : '';
}

function goTo(id, opts = {}) {
  if (!app.trace) return false;
  const i = app.trace.steps.findIndex((s) => s.id === id);
  if (i < 0) return false;
  showStep(i, opts);
  return true;
}

// ---- table of contents ----------------------------------------------------------------------
let tocLinks = [];
function stepHref(id) {
  const base = toURL({ ...app.shownState, step: '' }, app.presets, { embed: app.embed ? '1' : '' });
  return `${base}&step=${encodeURIComponent(id)}`;
}
function buildToc() {
  const trace = app.trace;
  const root = $('toc-list');
  const sections = outline(trace.steps);
  const base = toURL({ ...app.shownState, step: '' }, app.presets, { embed: app.embed ? '1' : '' });
  tocLinks = new Array(trace.steps.length);
  app.places = new Array(trace.steps.length);
  for (const sec of sections)
    for (const g of sec.groups)
      for (const it of g.items)
        for (const st of it.step ? [it.step] : it.head.steps)
          app.places[st.index] = { section: sec.title, group: g.title, head: it.head ? it.head.head : -1 };
  const link = (s, text) => {
    const a = el('a', 'toc-link', text);
    a.href = `${base}&step=${encodeURIComponent(s.id)}`;
    a.dataset.i = s.index;
    a.title = s.title;
    tocLinks[s.index] = a;
    return a;
  };
  const frag = document.createDocumentFragment();
  for (const sec of sections) {
    const d = el('details', 'toc-sec');
    d.dataset.first = sec.first;
    const sum = el('summary', '', sec.title);
    d.append(sum);
    for (const g of sec.groups) {
      const gd = el('div', 'toc-group');
      if (g.title) gd.append(el('p', 'toc-gtitle', g.title));
      const ol = el('ol');
      for (const it of g.items) {
        const li = el('li');
        if (it.step) li.append(link(it.step, shortLabel(it.step)));
        else {
          li.className = 'toc-head';
          li.append(el('span', 'toc-hlabel', `head ${it.head.head}`));
          const row = el('span', 'toc-hsteps');
          for (const s of it.head.steps) row.append(link(s, shortLabel(s)));
          li.append(row);
        }
        ol.append(li);
      }
      gd.append(ol);
      d.append(gd);
    }
    frag.append(d);
  }
  root.replaceChildren(frag);
  $('toc-count').textContent = `${trace.steps.length} steps`;
}
function markToc() {
  for (const a of $('toc-list').querySelectorAll('a[aria-current]')) a.removeAttribute('aria-current');
  const a = tocLinks[app.index];
  if (!a) return;
  a.setAttribute('aria-current', 'step');
  const sec = a.closest('details');
  for (const d of $('toc-list').children) if (d !== sec && d.open && !d.dataset.userOpen) d.open = false;
  if (sec && !sec.open) sec.open = true;
  const box = $('toc-list');
  if (box.offsetParent) {
    const r = a.getBoundingClientRect(), b = box.getBoundingClientRect();
    if (r.top < b.top || r.bottom > b.bottom) box.scrollTop += r.top - b.top - b.height / 3;
  }
}

// ---- URL ----------------------------------------------------------------------------------
function writeURL() {
  if (!app.shownState) return;
  const q = toURL(app.shownState, app.presets, { embed: app.embed ? '1' : '' });
  if (location.search !== q) history.replaceState(null, '', location.pathname + q);
  const full = $('open-full');
  if (full) full.href = location.pathname + toURL(app.shownState, app.presets);
}

// ---- the form ------------------------------------------------------------------------------
function buildForm() {
  const grid = $('settings-grid');
  for (const [key, label, extra] of settingsUI()) {
    const f = FIELDS[key];
    const wrap = el('div', 'setting');
    wrap.dataset.key = key;
    const id = `f-${key}`;
    let input;
    if (f.type === 'bool') {
      wrap.classList.add('check');
      input = document.createElement('input');
      input.type = 'checkbox';
      input.id = id;
      const lab = el('label', '', label);
      lab.htmlFor = id;
      wrap.append(input, lab);
    } else {
      const lab = el('label', '', label);
      lab.htmlFor = id;
      if (f.type === 'enum') {
        input = document.createElement('select');
        for (const v of f.values) {
          const o = el('option', '', extra && extra[v] ? extra[v] : v);
          o.value = v;
          input.append(o);
        }
      } else {
        input = document.createElement('input');
        input.type = f.type === 'int' ? 'number' : 'text';
        if (f.type === 'uint64') input.inputMode = 'numeric';
        else if (f.type === 'int') {
          input.min = f.min;
          input.max = f.max;
          input.step = 1;
          input.inputMode = 'numeric';
        } else input.inputMode = 'decimal';
      }
      input.id = id;
      wrap.append(lab, input);
      if (typeof extra === 'string' && extra && extra !== 'bool') {
        const h = el('span', 'hint', extra);
        h.id = `${id}-hint`;
        input.setAttribute('aria-describedby', h.id);
        wrap.append(h);
      }
    }
    input.name = key;
    const typed = ['int', 'float', 'uint64'].includes(f.type);
    input.addEventListener(typed ? 'input' : 'change', () => onSetting(key, typed));
    if (typed) input.addEventListener('change', () => onSetting(key, false));
    grid.append(wrap);
  }
  const sel = $('preset');
  const o = el('option', '', 'Your own settings (seeded weights)');
  o.value = '';
  sel.append(o);
  for (const p of app.presets) {
    const op = el('option', '', p.title);
    op.value = p.name;
    sel.append(op);
  }
  sel.addEventListener('change', () => {
    const p = app.presets.find((x) => x.name === sel.value);
    const next = p ? presetSettings(p) : { ...defaults() };
    next.step = app.state.step;
    app.state = next;
    showNotice('');
    syncForm(next, true);
    requestCompute(next, { useStateStep: true }).catch(() => {});
  });
  let textTimer = null;
  const onText = (key) => {
    clearTimeout(textTimer);
    textTimer = setTimeout(() => {
      const r = parseValue(key, $(key).value);
      if (r.error) return showError(r.error);
      app.state = { ...app.state, [key]: r.value };
      requestCompute(app.state).catch(() => {});
    }, 220);
  };
  $('text').addEventListener('input', () => onText('text'));
  $('text2').addEventListener('input', () => onText('text2'));
  $('form').addEventListener('submit', (e) => e.preventDefault());
}

let settingTimer = null;
function onSetting(key, debounce) {
  clearTimeout(settingTimer);
  const go = () => {
    const input = $(`f-${key}`);
    const raw = input.type === 'checkbox' ? input.checked : input.value;
    const r = parseValue(key, raw);
    input.setAttribute('aria-invalid', r.error ? 'true' : 'false');
    if (r.error) return showError(r.error);
    if (app.state[key] === r.value && $('msg').hidden) return;
    app.state = { ...app.state, [key]: r.value };
    syncVisibility();
    requestCompute(app.state).catch(() => {});
  };
  if (debounce) settingTimer = setTimeout(go, 350);
  else go();
}

function settingsSummary(s) {
  const layers = `${s.num_layers} encoder${s.decoder_layers ? ` + ${s.decoder_layers} decoder` : ''} layer${s.num_layers + s.decoder_layers === 1 ? '' : 's'}`;
  return `d_model ${s.d_model} · ${s.num_heads} head${s.num_heads === 1 ? '' : 's'} · d_ff ${s.d_ff} · ${layers} · ${s.norm}-norm · ${s.activation === 'gelu' ? 'GELU' : 'ReLU'}` +
    `${s.causal ? ' · causal' : ''}${s.scale ? '' : ' · no scaling'} · ${s.positional} positions · ${s.tokenizer} · seed ${s.seed}`;
}

function syncVisibility() {
  const s = app.state;
  const row = document.querySelector('.setting[data-key="bpe_merges"]');
  if (row) row.hidden = s.tokenizer !== 'bpe';
}

// `force`: also overwrite the focused field (a preset or the JS API changed the state; the
// reader is not typing into it). Otherwise the focused field keeps what is being typed.
function syncForm(state = app.state, force = false) {
  for (const key of CONFIG_KEYS) {
    const input = $(`f-${key}`);
    if (!input || (!force && document.activeElement === input)) continue;
    if (input.type === 'checkbox') input.checked = !!state[key];
    else input.value = String(state[key]);
    input.setAttribute('aria-invalid', 'false');
  }
  const p = app.presets.find((x) => x.name === state.preset);
  $('preset').value = p ? p.name : '';
  const hasText = !p || presetHasText(p);
  for (const k of ['text', 'text2']) {
    if (force || document.activeElement !== $(k)) $(k).value = hasText ? state[k] : '';
    $(k).disabled = !hasText;
  }
  $('text-note').textContent = hasText ? '' : 'This preset feeds its own input vectors X (no sentence, no tokenizer): the text is fixed.';
  if (state.text2) $('text2-box').open = true;
  const desc = $('preset-desc');
  desc.replaceChildren();
  if (p) {
    desc.append(el('span', '', p.description));
    if (p.source) desc.append(' ', el('span', 'source', `Source: ${p.source}.`));
    const ov = overrides(state, p);
    if (presetHasWeights(p)) {
      desc.append(el('span', 'lock', ov.length
        ? ` Changed from the preset: ${ov.join(', ')}.`
        : ' Its weights are given, so d_model, heads, d_ff and the layer counts are fixed by them: changing one switches to seeded weights.'));
    } else if (ov.length) desc.append(el('span', 'lock', ` Changed from the preset: ${ov.join(', ')}.`));
  } else {
    desc.textContent = 'Every weight is drawn from the seed; the same word gets the same embedding in any sentence.';
  }
  $('settings-summary').textContent = settingsSummary(state);
  syncVisibility();
}

// ---- keyboard ------------------------------------------------------------------------------
function onKey(e) {
  if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
  const t = e.target;
  const tag = t && t.tagName;
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || (t && t.isContentEditable)) return;
  if (t && t.closest && t.closest('[role="grid"]') && ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'].includes(e.key)) return;
  if (!app.trace) return;
  const n = app.trace.steps.length;
  let i = null;
  if (e.key === 'ArrowRight' || e.key === 'j') i = app.index + 1;
  else if (e.key === 'ArrowLeft' || e.key === 'k') i = app.index - 1;
  else if (e.key === 'Home') i = 0;
  else if (e.key === 'End') i = n - 1;
  if (i === null) return;
  e.preventDefault();
  if (i >= 0 && i < n && i !== app.index) showStep(i);
}

// ---- start ---------------------------------------------------------------------------------
async function start() {
  const q = new URLSearchParams(location.search);
  app.embed = q.get('embed') === '1';
  document.body.classList.toggle('embed', app.embed);
  if (app.embed) {
    $('settings').open = false;
    $('toc-box').open = false;
  } else if (window.matchMedia('(max-width: 760px)').matches) {
    $('toc-box').open = false;
    $('settings').open = false;
  }
  $('prev').addEventListener('click', () => showStep(app.index - 1));
  $('next').addEventListener('click', () => showStep(app.index + 1));
  $('toc-list').addEventListener('click', (e) => {
    const a = e.target.closest('a.toc-link');
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    showStep(Number(a.dataset.i), { focus: false });
  });
  $('toc-list').addEventListener('toggle', (e) => {
    if (e.target.tagName === 'DETAILS') e.target.dataset.userOpen = e.target.open ? '1' : '';
  }, true);
  document.addEventListener('keydown', onKey);

  app.engine = new EngineClient();
  const init = await app.engine.call('init');
  app.isa = init.isa;
  useSchema(init.schema);
  app.presets = init.presets;
  buildForm();
  const { state, errors } = fromURL(location.search, app.presets);
  app.state = state;
  syncForm(state);
  const urlNote = errors.length ? `Some settings in the link are invalid and were replaced by defaults: ${errors.join('; ')}.` : '';
  try {
    await requestCompute(state, { useStateStep: true });
    if (urlNote) showNotice(urlNote);
  } catch (e) {
    // A link whose settings cannot run together: say why, then show the defaults.
    const why = e.message;
    const d = defaults();
    app.state = d;
    syncForm(d);
    await requestCompute(d);
    showNotice(`${urlNote ? urlNote + ' ' : ''}The link's settings could not run (${why}); showing the default settings instead.`);
  }
}

// Fetch the KaTeX fonts now, so that later formulas render the same with no network.
function preloadFonts() {
  if (!document.fonts || !document.fonts.load) return;
  for (const f of ['1em KaTeX_Main', 'italic 1em KaTeX_Math', 'bold 1em KaTeX_Main', '1em KaTeX_Size1', '1em KaTeX_Size2',
    '1em KaTeX_Size3', '1em KaTeX_Size4', '1em KaTeX_AMS', 'italic 1em KaTeX_Main'])
    document.fonts.load(f).catch(() => {});
}

const ready = start().then(preloadFonts).catch((e) => {
  showError(e.message || String(e));
  throw e;
});
installApi(app, {
  ready,
  requestCompute,
  goTo: (id) => goTo(id),
  syncForm,
  showError,
  showStep,
});

// Offline reloads: once the page is up, a service worker (sw.js) caches the whole site. The
// page works without it (file://, browsers or embeds that refuse one).
ready
  .then(() => {
    if ('serviceWorker' in navigator && location.protocol.startsWith('http'))
      return navigator.serviceWorker.register('sw.js').catch(() => {});
  })
  .catch(() => {});
