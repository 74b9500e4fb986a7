// form.js — the settings form: its fields come from the core's config schema
// (model/settings.js), their wording from the catalog (lib/i18n.js); editing a field or the
// sentence recomputes (debounced), a preset replaces the settings, and syncForm shows any state
// (a link, the JS API).
import { app } from './app.js';
import { $, el } from '../lib/dom.js';
import {
  FIELDS, CONFIG_KEYS, defaults, parseValue, presetSettings, presetHasText, presetHasWeights, overrides,
} from '../model/settings.js';
import { showError, showNotice } from './messages.js';
import { requestCompute } from './compute.js';
import { t, has } from '../lib/i18n.js';
import { lockSettings, isCheckpointPreset, checkpointSummary } from './checkpoint-form.js';

// [key, label, options or hint] for every configuration field, in the schema's order. Which
// fields exist, their order, types, ranges and enum values come from the core's schema; their
// wording from the catalog (i18n/<lang>/form.js, keyed by field name), the schema's English
// description only for a field the catalog does not know yet.
export function settingsUI() {
  return CONFIG_KEYS.map((k) => {
    const f = FIELDS[k];
    const label = has(`form.${k}`) ? t(`form.${k}`) : k;
    if (f.type === 'enum') return [k, label, Object.fromEntries(f.values.map((v) => [v, has(`form.${k}.${v}`) ? t(`form.${k}.${v}`) : v]))];
    return [k, label, has(`form.${k}.hint`) ? t(`form.${k}.hint`) : f.description || ''];
  });
}

// The form: one field per setting of the schema, the presets, the sentence boxes.
export function buildForm() {
  const grid = $('settings-grid');
  for (const [key, label, extra] of settingsUI()) grid.append(settingField(key, label, extra));
  buildPresets();
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

// One setting's labelled field (a checkbox, a select of the enum's values, or a number/text
// input with its hint); editing it recomputes (typed numbers: debounced while typing).
function settingField(key, label, extra) {
  const f = FIELDS[key];
  const wrap = el('div', 'setting');
  wrap.dataset.key = key;
  const id = `f-${key}`;
  const lab = el('label', '', label);
  lab.htmlFor = id;
  const input = f.type === 'bool' ? el('input') : f.type === 'enum' ? enumSelect(f, extra) : numberInput(f);
  input.id = id;
  if (f.type === 'bool') {
    wrap.classList.add('check');
    input.type = 'checkbox';
    wrap.append(input, lab);
  } else {
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
  return wrap;
}

function enumSelect(f, names) {
  const input = el('select');
  for (const v of f.values) {
    const o = el('option', '', names && names[v] ? names[v] : v);
    o.value = v;
    input.append(o);
  }
  return input;
}

function numberInput(f) {
  const input = el('input');
  input.type = f.type === 'int' ? 'number' : 'text';
  if (f.type === 'uint64') input.inputMode = 'numeric';
  else if (f.type === 'int') {
    input.min = f.min;
    input.max = f.max;
    input.step = 1;
    input.inputMode = 'numeric';
  } else input.inputMode = 'decimal';
  return input;
}

// The presets' <select>: choosing one replaces the settings and opens on its own step.
function buildPresets() {
  const sel = $('preset');
  const o = el('option', '', t('form.ownSettings'));
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
    if (!next.step) next.step = app.state.step;  // a preset opens on its own step
    app.state = next;
    showNotice('');
    syncForm(next, true);
    requestCompute(next, { useStateStep: true }).catch(() => {});
  });
}

let settingTimer = null;
export function onSetting(key, debounce) {
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

export function settingsSummary(s) {
  const p = summaryParts(s);
  return [p.shape, p.layers, ...p.rest, s.tokenizer, t('form.summary.seed', { seed: s.seed })].filter(Boolean).join(' · ');
}
function summaryParts(s) {
  return {
    shape: [`d_model ${s.d_model}`, t('form.summary.heads', { n: s.num_heads }), `d_ff ${s.d_ff}`].join(' · '),
    layers: t('form.summary.layers', { enc: s.num_layers, dec: s.decoder_layers }),
    rest: [t('form.summary.norm', { norm: s.norm }), s.activation === 'gelu' ? 'GELU' : s.activation === 'gelu_new' ? 'GELU (tanh)' : 'ReLU',
      s.causal ? t('form.summary.causal') : '', s.scale ? '' : t('form.summary.noScale'), t('form.summary.positions', { positional: s.positional })],
  };
}

export function syncVisibility() {
  const s = app.state;
  const row = document.querySelector('.setting[data-key="bpe_merges"]');
  if (row) row.hidden = s.tokenizer !== 'bpe';
}

// `force`: also overwrite the focused field (a preset or the JS API changed the state; the
// reader is not typing into it). Otherwise the focused field keeps what is being typed.
// A description whose `backticked` parts are commands or code: those as <code> (the same in
// every language, and not prose).
function withCode(text) {
  const span = el('span', '');
  String(text).split('`').forEach((part, i) => { if (part) span.append(i % 2 ? el('code', '', part) : part); });
  return span;
}

export function syncForm(state = app.state, force = false) {
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
  $('text-note').textContent = hasText ? '' : t('form.fixedText');
  if (state.text2) $('text2-box').open = true;
  const desc = $('preset-desc');
  desc.replaceChildren();
  if (p) {
    desc.append(withCode(p.description));
    if (p.source) desc.append(' ', el('span', 'source', t('form.source', { source: p.source })));
    const ov = overrides(state, p);
    if (isCheckpointPreset(p)) {
      // its settings are shown read-only, with their own sentence (checkpoint-form.js)
    } else if (presetHasWeights(p)) {
      desc.append(' ', el('span', 'lock', ov.length ? t('form.changed', { list: ov.join(', ') }) : t('form.weightsFixed')));
    } else if (ov.length) desc.append(' ', el('span', 'lock', t('form.changed', { list: ov.join(', ') })));
  } else {
    desc.textContent = t('form.seededDesc');
  }
  syncVisibility();
  lockSettings(p, app.checkpoint);
  $('settings-summary').textContent = isCheckpointPreset(p) ? (p.config ? checkpointSummary(state, app.checkpoint, summaryParts(state)) : '') : settingsSummary(state);
}
