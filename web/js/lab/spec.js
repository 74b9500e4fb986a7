// spec.js — an intervention of the "What if?" lab as data (issue 20): the JS API's form
// {ablate, ablateMode, set, patchFrom, patch, lens, attribute} (the CLI's flags), checked and
// converted to the engine's run options (core/session/session.h run_options_from_json) and
// to and from the URL (ablate=a,b & ablate_mode=mean & set=CELL=V;CELL=V & patch_from=TEXT &
// patch=ID@p,q;ID & lens=1 & attribute=1). Whether an id or a cell exists is the core's to
// say (its message reaches the reader); here only the shapes of the values are checked.
import { t } from '../lib/i18n.js';

export const URL_KEYS = ['ablate', 'ablate_mode', 'set', 'patch_from', 'patch', 'lens', 'attribute'];
const API_KEYS = ['ablate', 'ablateMode', 'set', 'patchFrom', 'patch', 'lens', 'attribute'];
const MAX_TEXT = 4000;

export function emptySpec() {
  return { ablate: [], ablateMode: 'zero', set: {}, patchFrom: '', patch: [], lens: false, attribute: false };
}

export function isEmpty(s) {
  return !s.ablate.length && !Object.keys(s.set).length && !s.patchFrom && !s.patch.length && !s.lens && !s.attribute;
}

// The API's object → a full spec; throws an Error naming the key that is wrong.
export function normalize(raw) {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new Error(t('lab.err.object'));
  for (const k of Object.keys(raw)) if (!API_KEYS.includes(k)) throw new Error(t('lab.err.key', { key: k.slice(0, 40), keys: API_KEYS.join(', ') }));
  const s = emptySpec();
  const strings = (k) => {
    const v = raw[k];
    if (v === undefined) return [];
    const list = typeof v === 'string' ? [v] : v;
    if (!Array.isArray(list) || list.some((x) => typeof x !== 'string' || !x.trim()))
      throw new Error(t('lab.err.strings', { key: k }));
    return list.map((x) => x.trim());
  };
  s.ablate = [...new Set(strings('ablate'))];
  s.patch = strings('patch');
  if (raw.ablateMode !== undefined) {
    if (raw.ablateMode !== 'zero' && raw.ablateMode !== 'mean') throw new Error(t('lab.err.mode', { got: String(raw.ablateMode).slice(0, 40) }));
    s.ablateMode = raw.ablateMode;
  }
  if (raw.set !== undefined) {
    if (raw.set === null || typeof raw.set !== 'object' || Array.isArray(raw.set)) throw new Error(t('lab.err.setObject'));
    for (const [cell, v] of Object.entries(raw.set)) s.set[cell.trim()] = checkNumber(cell, v);
  }
  if (raw.patchFrom !== undefined) {
    if (typeof raw.patchFrom !== 'string' || raw.patchFrom.length > MAX_TEXT) throw new Error(t('lab.err.patchFrom', { max: MAX_TEXT }));
    s.patchFrom = raw.patchFrom;
  }
  if (s.patch.length && !s.patchFrom) throw new Error(t('lab.err.patchNeedsDonor'));
  for (const k of ['lens', 'attribute']) if (raw[k] !== undefined) s[k] = !!raw[k];
  return s;
}

// The largest magnitude a float32 holds: the engine's numbers are float32.
const FLOAT32_MAX = 3.4028234663852886e38;

// A typed value (number, or a string such as "0.5") → a finite number a float32 holds, else an
// Error that says which of the three it is: nothing typed, not a number, or too large.
export function checkNumber(cell, v) {
  const name = String(cell).slice(0, 120), got = String(v).slice(0, 40);
  if (typeof v === 'string' && !v.trim()) throw new Error(t('lab.err.empty', { cell: name }));
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(v) ? Number(v) : NaN;
  if (Number.isNaN(n)) throw new Error(t('lab.err.number', { cell: name, got }));
  if (!(Math.abs(n) <= FLOAT32_MAX)) throw new Error(t('lab.err.range', { cell: name, got }));
  return n;
}

// The spec as the API returns it (a copy, the same keys it was given in).
export function publicSpec(s) {
  return structuredClone(s);
}

// The engine's run options for a spec (none when it is empty).
export function engineOptions(s) {
  const o = {};
  if (s.ablate.length) o.ablate = s.ablate;
  if (s.ablate.length && s.ablateMode !== 'zero') o.ablate_mode = s.ablateMode;
  if (Object.keys(s.set).length) o.set = s.set;
  if (s.patchFrom) o.patch_from = s.patchFrom;
  if (s.patch.length) o.patch = s.patch;
  if (s.lens) o.lens = true;
  if (s.attribute) o.attribute = true;
  return o;
}

// URL entries for a spec ({} when empty): cells and patches contain commas, so they are
// separated by ';'.
export function toURLEntries(s) {
  const q = {};
  if (s.ablate.length) q.ablate = s.ablate.join(',');
  if (s.ablate.length && s.ablateMode !== 'zero') q.ablate_mode = s.ablateMode;
  const sets = Object.entries(s.set);
  if (sets.length) q.set = sets.map(([c, v]) => `${c}=${v}`).join(';');
  if (s.patchFrom) q.patch_from = s.patchFrom;
  if (s.patch.length) q.patch = s.patch.join(';');
  if (s.lens) q.lens = '1';
  if (s.attribute) q.attribute = '1';
  return q;
}

// A link's lab keys → {spec, errors}; a bad value is left out with a message naming its key.
export function fromURL(search) {
  const q = new URLSearchParams(search);
  const errors = [];
  const raw = {};
  const list = (k, sep) => (q.get(k) || '').split(sep).map((x) => x.trim()).filter(Boolean);
  if (q.has('ablate')) raw.ablate = list('ablate', ',');
  if (q.has('ablate_mode')) raw.ablateMode = q.get('ablate_mode');
  if (q.has('set')) {
    raw.set = {};
    for (const item of list('set', ';')) {
      const m = /^(.+\])\s*=\s*(.*)$/.exec(item);
      if (!m) errors.push(t('lab.err.urlSet', { item: item.slice(0, 80) }));
      else raw.set[m[1].trim()] = m[2];
    }
  }
  if (q.has('patch_from')) raw.patchFrom = q.get('patch_from');
  if (q.has('patch')) raw.patch = list('patch', ';');
  for (const k of ['lens', 'attribute']) if (q.has(k)) raw[k] = q.get(k) === '1' || q.get(k) === 'true';
  // Each key on its own, so that one bad value does not lose the others.
  let spec = emptySpec();
  for (const k of Object.keys(raw)) {
    try {
      const one = normalize({ ...(k === 'patch' ? { patchFrom: raw.patchFrom || '' } : {}), [k]: raw[k] });
      spec = k === 'patch' ? { ...spec, patch: one.patch } : { ...spec, [k]: one[k] };
    } catch (e) {
      errors.push(t('lab.err.url', { key: URL_KEYS[API_KEYS.indexOf(k)] || k, why: e.message }));
    }
  }
  return { spec, errors };
}

// The head a step belongs to, as an ablation id ("layer0.head1", "decoder0.cross.head2"), or ''.
export function headOf(stepId) {
  const m = /^(.*\.head\d+)\./.exec(stepId || '');
  return m ? m[1] : '';
}

// A cell of a step or parameter with shape `shape`, from its row-major index: "ID[i]",
// "ID[r,c]" or "ID[b,r,c]" (the page's matrices are reshapes of the data, never transposes).
export function cellId(id, shape, flat) {
  const idx = [];
  for (let k = shape.length - 1; k >= 0; k--) {
    idx.unshift(flat % shape[k]);
    flat = Math.floor(flat / shape[k]);
  }
  return `${id}[${idx.join(',')}]`;
}
