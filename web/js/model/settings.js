// settings.js — the page's settings: their types and defaults, URL <-> state, and state -> the
// model file the engine reads (docs/model-file.md). URL keys are the model file's config
// keys plus text, text2, preset and step, so a link reproduces exactly what the reader saw.
// Parsing never throws: a bad value becomes the default plus a message naming it.
import { t, has } from '../lib/i18n.js';

// The page's own fields; the model's configuration fields are added from the core's config
// schema (Module.configSchemaJson(), sent by the Worker's init) by useSchema: their types,
// defaults, ranges and enum names are written once, in core/model/config_schema.cpp.
export const FIELDS = {
  text: { type: 'text', def: 'in the bleak midwinter', max: 4000 },
  text2: { type: 'text', def: '', max: 4000 },
};
export const CONFIG_KEYS = [];
export const SETTING_KEYS = ['text', 'text2'];

// Adds the schema's fields (in the schema's order, which is the form's). Call once, before
// anything else here.
export function useSchema(schema) {
  for (const f of schema) {
    const field = { type: f.type, def: f.default, config: true, description: f.description };
    if (f.type === 'int' || f.type === 'float') Object.assign(field, { min: f.min, max: f.max, exclusiveMin: !!f.exclusive_min });
    if (f.type === 'uint64') Object.assign(field, { def: u64Value(BigInt(f.default)), max: BigInt(f.max) });
    if (f.type === 'enum') field.values = f.values;
    if (!(f.name in FIELDS)) {
      CONFIG_KEYS.push(f.name);
      SETTING_KEYS.push(f.name);
    }
    FIELDS[f.name] = field;
  }
}

// Fields a link and getState() list only when they differ from their default.
const QUIET_WHEN_DEFAULT = new Set(['max_tokens', 'num_labels', 'masked_lm']);
function listed(state, k) {
  if (k === 'bpe_merges' && state.tokenizer !== 'bpe') return false;
  return !(QUIET_WHEN_DEFAULT.has(k) && state[k] === FIELDS[k].def);
}

// A uint64 as the page keeps it: a number while it is a safe integer, else its digits.
function u64Value(big) {
  return big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big.toString();
}

export function defaults() {
  const s = {};
  for (const k of SETTING_KEYS) s[k] = FIELDS[k].def;
  s.preset = '';
  s.step = '';
  return s;
}

// One value from a string (URL, form) or a typed value (the JS API). Returns {value} or {error}.
export function parseValue(key, raw) {
  const f = FIELDS[key];
  if (!f) return { error: t('errors.setting_unknown', { key }) };
  const str = typeof raw === 'string' ? raw.trim() : raw;
  switch (f.type) {
    case 'text': {
      if (typeof raw !== 'string') return { error: t('errors.setting_text', { key }) };
      if (raw.length > f.max) return { error: t('errors.setting_long', { key, max: f.max }) };
      return { value: raw };
    }
    case 'int': {
      const n = typeof str === 'number' ? str : /^[+-]?\d+$/.test(String(str)) ? Number(str) : NaN;
      if (!Number.isInteger(n)) return { error: t('errors.setting_integer', { key, got: String(raw).slice(0, 40) }) };
      if (n < f.min || n > f.max) return { error: t('errors.setting_range', { key, min: f.min, max: f.max, got: n }) };
      return { value: n };
    }
    case 'float': {
      const n = typeof str === 'number' ? str : /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(String(str)) ? Number(str) : NaN;
      if (!Number.isFinite(n)) return { error: t('errors.setting_number', { key, got: String(raw).slice(0, 40) }) };
      const low = f.exclusiveMin ? n <= f.min : n < f.min;
      if (low || n > f.max)
        return { error: t(f.exclusiveMin ? 'errors.setting_range_open' : 'errors.setting_range', { key, min: f.min, max: f.max, got: n }) };
      return { value: n };
    }
    case 'uint64': {
      const digits = String(str);
      if (!/^\d{1,20}$/.test(digits) || BigInt(digits) > f.max)
        return { error: t('errors.setting_u64', { key, max: f.max, got: String(raw).slice(0, 40) }) };
      return { value: u64Value(BigInt(digits)) };
    }
    case 'bool': {
      if (typeof raw === 'boolean') return { value: raw };
      const s = String(str).toLowerCase();
      if (['1', 'true', 'on', 'yes'].includes(s)) return { value: true };
      if (['0', 'false', 'off', 'no'].includes(s)) return { value: false };
      return { error: t('errors.setting_bool', { key, got: String(raw).slice(0, 40) }) };
    }
    case 'enum': {
      const s = String(str).toLowerCase();
      if (f.values.includes(s)) return { value: s };
      return { error: t('errors.setting_choice', { key, allowed: f.values.join(', '), got: String(raw).slice(0, 40) }) };
    }
  }
  return { error: t('errors.setting_bad', { key }) };
}

// ---- presets ------------------------------------------------------------------------
export function presetHasText(p) {
  return !!p && typeof p.model.text === 'string';
}
// A preset that supplies weights or inputs (not only config and text): its shapes are fixed.
export function presetHasWeights(p) {
  if (!p) return false;
  return Object.keys(p.model).some((k) => !['config', 'text', 'text2', 'target', 'bpe_corpus'].includes(k));
}
// A preset whose weights were trained (its model file names a shipped weights file).
export function presetIsTrained(p) {
  return !!p && typeof p.model.weights === 'string';
}
// The settings a preset stands for (what the form shows when it is chosen).
export function presetSettings(p) {
  const s = defaults();
  const c = p.model.config || p.config || {}; // p.config: what a weights file said (run-options.js)
  for (const k of CONFIG_KEYS) if (k in c) s[k] = c[k];
  if (!('decoder_layers' in c)) s.decoder_layers = 0;
  s.text = presetHasText(p) ? p.model.text : '';
  s.text2 = typeof p.model.text2 === 'string' ? p.model.text2 : '';
  s.preset = p.name;
  // Open on the step the tutorial prints, in the sentence it is about (a link's own step= wins:
  // fromURL reads it after this). `batch` is read once by compute.js and dropped.
  s.step = p.step || '';
  if (p.batch) s.batch = p.batch;
  return s;
}
// The presets with their titles and descriptions in the reader's language (the core's are English).
export function localizePresets(presets) {
  return presets.map((p) => {
    const title = `presets.${p.name}.title`, description = `presets.${p.name}.description`;
    const training = p.training || '';
    return { ...p, title: has(title) ? t(title) : p.title, description: has(description) ? t(description, { training }) : p.description };
  });
}
// The keys where state differs from its preset's own settings.
export function overrides(state, p) {
  if (!p) return [];
  const base = presetSettings(p);
  return CONFIG_KEYS.filter((k) => state[k] !== base[k]);
}

// ---- URL ----------------------------------------------------------------------------
// Returns {state, errors}: unknown presets and bad values are reported and replaced by defaults.
export function fromURL(search, presets) {
  const q = new URLSearchParams(search);
  const errors = [];
  let state = defaults();
  const pname = q.get('preset');
  if (pname) {
    const p = presets.find((x) => x.name === pname);
    if (p) state = presetSettings(p);
    else errors.push(t('errors.url_unknown_preset', { name: pname.slice(0, 60) }));
  }
  for (const k of SETTING_KEYS) {
    if (!q.has(k)) continue;
    const r = parseValue(k, q.get(k));
    if (r.error) errors.push(t('errors.url_using', { error: r.error, value: JSON.stringify(state[k]) }));
    else state[k] = r.value;
  }
  if (q.has('step')) state.step = q.get('step').slice(0, 200);
  return { state, errors, embed: q.get('embed') === '1' };
}

// A checkpoint's settings are its config.json's (a link's model= opens it; changing one is
// not the checkpoint any more, page/compute.js): its link does not list them.
export const CHECKPOINT_WEIGHTS = 'checkpoint:'; // page/run-options.js's model file for the checkpoint the engine holds
export function toURL(state, presets, extra = {}) {
  const q = new URLSearchParams();
  const p = presets.find((x) => x.name === state.preset);
  if (p) q.set('preset', p.name);
  const hasText = !p || presetHasText(p);
  const fixed = !!p && p.model.weights === CHECKPOINT_WEIGHTS;
  for (const k of SETTING_KEYS) {
    if (fixed && CONFIG_KEYS.includes(k)) continue;
    if ((k === 'text' || k === 'text2') && !hasText) continue;
    if (k === 'text2' && !state.text2) continue;
    if (!listed(state, k)) continue;
    q.set(k, String(state[k]));
  }
  if (state.step) q.set('step', state.step);
  for (const [k, v] of Object.entries(extra)) if (v) q.set(k, v);
  return '?' + q.toString();
}

// The state as the JS API and the URL show it (typed values, same keys).
export function publicState(state, presets) {
  const out = {};
  const p = presets.find((x) => x.name === state.preset);
  if (p) out.preset = p.name;
  const hasText = !p || presetHasText(p);
  for (const k of SETTING_KEYS) {
    if ((k === 'text' || k === 'text2') && !hasText) continue;
    if (k === 'text2' && !state.text2) continue;
    if (!listed(state, k)) continue;
    out[k] = state[k];
  }
  if (state.step) out.step = state.step;
  return out;
}

// ---- the model file ------------------------------------------------------------------
export function buildModel(state, presets) {
  const p = presets.find((x) => x.name === state.preset);
  if (p) {
    const m = structuredClone(p.model);
    // A weights file's settings are known after its first run (p.config); a link's values
    // for them before that are the file's own (the page writes them), not overrides.
    const ov = typeof m.weights === 'string' && !p.config ? [] : overrides(state, p);
    if (ov.length || typeof m.weights !== 'string') m.config = m.config || {}; // a weights file carries its own
    for (const k of ov) m.config[k] = state[k];
    if (presetHasText(p)) {
      m.text = state.text;
      if (state.text2) m.text2 = state.text2;
      else delete m.text2;
    }
    return m;
  }
  const config = {};
  for (const k of CONFIG_KEYS) {
    if (k === 'bpe_merges' && state.tokenizer !== 'bpe') continue;
    config[k] = state[k];
  }
  const m = { config, text: state.text };
  if (state.text2) m.text2 = state.text2;
  return m;
}

// A rough count of the floats a run records, to refuse sizes that would exhaust memory.
export function estimateFloats(state) {
  const words = (s) => (s.match(/\S+/g) || []).length * 1.3 + 2;
  const T = Math.max(words(state.text), state.text2 ? words(state.text2) : 0);
  const B = state.text2 ? 2 : 1;
  const d = state.d_model, ff = state.d_ff, H = state.num_heads;
  const layer = B * (14 * T * d + 2 * T * ff + 4 * H * T * T);
  const params = 4 * d * d + 2 * d * ff;
  return (state.num_layers + 2 * state.decoder_layers) * (layer + params);
}
