// state.js — the page's settings: their types and defaults, URL <-> state, and state -> the
// model file the engine reads (docs/model-file.md). URL keys are the model file's config
// keys plus text, text2, preset and step, so a link reproduces exactly what the reader saw.
// Parsing never throws: a bad value becomes the default plus a message naming it.

export const FIELDS = {
  text: { type: 'text', def: 'in the bleak midwinter', max: 4000 },
  text2: { type: 'text', def: '', max: 4000 },
  d_model: { type: 'int', def: 8, min: 1, max: 4096, config: true },
  num_heads: { type: 'int', def: 2, min: 1, max: 64, config: true },
  d_ff: { type: 'int', def: 32, min: 1, max: 16384, config: true },
  num_layers: { type: 'int', def: 1, min: 0, max: 48, config: true },
  decoder_layers: { type: 'int', def: 1, min: 0, max: 48, config: true },
  norm: { type: 'enum', def: 'post', values: ['post', 'pre'], config: true },
  activation: { type: 'enum', def: 'relu', values: ['relu', 'gelu'], config: true },
  layer_norm_eps: { type: 'float', def: 1e-5, min: 1e-30, max: 1, config: true },
  causal: { type: 'bool', def: false, config: true },
  positional: { type: 'enum', def: 'sinusoidal', values: ['sinusoidal', 'learned', 'none'], config: true },
  scale: { type: 'bool', def: true, config: true },
  seed: { type: 'int', def: 66, min: 0, max: 4294967295, config: true },
  tokenizer: { type: 'enum', def: 'regex', values: ['regex', 'whitespace', 'bpe'], config: true },
  bpe_merges: { type: 'int', def: 10, min: 0, max: 10000, config: true },
};
export const CONFIG_KEYS = Object.keys(FIELDS).filter((k) => FIELDS[k].config);
export const SETTING_KEYS = Object.keys(FIELDS);

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
  if (!f) return { error: `unknown setting "${key}"` };
  const str = typeof raw === 'string' ? raw.trim() : raw;
  switch (f.type) {
    case 'text': {
      if (typeof raw !== 'string') return { error: `${key} must be text` };
      if (raw.length > f.max) return { error: `${key} is longer than ${f.max} characters` };
      return { value: raw };
    }
    case 'int': {
      const n = typeof str === 'number' ? str : /^[+-]?\d+$/.test(String(str)) ? Number(str) : NaN;
      if (!Number.isInteger(n)) return { error: `${key} must be a whole number, got "${String(raw).slice(0, 40)}"` };
      if (n < f.min || n > f.max) return { error: `${key} must be between ${f.min} and ${f.max}, got ${n}` };
      return { value: n };
    }
    case 'float': {
      const n = typeof str === 'number' ? str : /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(String(str)) ? Number(str) : NaN;
      if (!Number.isFinite(n)) return { error: `${key} must be a number, got "${String(raw).slice(0, 40)}"` };
      if (n < f.min || n > f.max) return { error: `${key} must be greater than 0 and at most ${f.max}, got ${n}` };
      return { value: n };
    }
    case 'bool': {
      if (typeof raw === 'boolean') return { value: raw };
      const s = String(str).toLowerCase();
      if (['1', 'true', 'on', 'yes'].includes(s)) return { value: true };
      if (['0', 'false', 'off', 'no'].includes(s)) return { value: false };
      return { error: `${key} must be true or false, got "${String(raw).slice(0, 40)}"` };
    }
    case 'enum': {
      const s = String(str).toLowerCase();
      if (f.values.includes(s)) return { value: s };
      return { error: `${key} must be one of ${f.values.join(', ')}, got "${String(raw).slice(0, 40)}"` };
    }
  }
  return { error: `bad ${key}` };
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
// The settings a preset stands for (what the form shows when it is chosen).
export function presetSettings(p) {
  const s = defaults();
  const c = p.model.config || {};
  for (const k of CONFIG_KEYS) if (k in c) s[k] = c[k];
  if (!('decoder_layers' in c)) s.decoder_layers = 0;
  s.text = presetHasText(p) ? p.model.text : '';
  s.text2 = typeof p.model.text2 === 'string' ? p.model.text2 : '';
  s.preset = p.name;
  return s;
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
    else errors.push(`unknown preset "${pname.slice(0, 60)}" (using the default settings)`);
  }
  for (const k of SETTING_KEYS) {
    if (!q.has(k)) continue;
    const r = parseValue(k, q.get(k));
    if (r.error) errors.push(`${r.error} (using ${JSON.stringify(state[k])})`);
    else state[k] = r.value;
  }
  if (q.has('step')) state.step = q.get('step').slice(0, 200);
  return { state, errors, embed: q.get('embed') === '1' };
}

export function toURL(state, presets, extra = {}) {
  const q = new URLSearchParams();
  const p = presets.find((x) => x.name === state.preset);
  if (p) q.set('preset', p.name);
  const hasText = !p || presetHasText(p);
  for (const k of SETTING_KEYS) {
    if ((k === 'text' || k === 'text2') && !hasText) continue;
    if (k === 'text2' && !state.text2) continue;
    if (k === 'bpe_merges' && state.tokenizer !== 'bpe') continue;
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
    if (k === 'bpe_merges' && state.tokenizer !== 'bpe') continue;
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
    m.config = m.config || {};
    for (const k of overrides(state, p)) m.config[k] = state[k];
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
