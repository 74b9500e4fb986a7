// embed-params.js — the URL keys that say how the page is shown, not what it computes:
// view (full | figure), inputs (0 | 1), controls (none, or text and/or nav), theme
// (auto | light | dark). Pure functions (no DOM): the page, the web component and the tests
// read them the same way. A bad value is reported and replaced by a sensible default,
// never dropped silently.
import { t } from '../lib/i18n.js';

export const VIEWS = ['full', 'figure'];
export const CONTROLS = ['text', 'nav'];
export const THEMES = ['auto', 'light', 'dark'];

// A figure shows every row and column that fits its width (matrix.js elides only what does not).
export const FIGURE_WINDOW = { rows: 64, cols: 64, maxCols: 64 };

const clip = (s) => String(s).slice(0, 40);

// → {view, inputs, controls: Set, theme, notes: [messages], given: {key: value as written}}
// `get(key)` returns the raw string or null (URLSearchParams.get, element.getAttribute).
// inFrame: the page is embedded, so a mistyped view falls back to a figure, not the full page.
export function readEmbedParams(get, inFrame = false) {
  const notes = [];
  const given = {};
  const view0 = get('view');
  let view = 'full';
  if (view0 !== null && view0 !== '') {
    if (VIEWS.includes(view0.toLowerCase())) view = given.view = view0.toLowerCase();
    else {
      if (inFrame) view = 'figure';
      notes.push(t('embed.badView', { got: clip(view0), views: VIEWS.join(', '), inFrame }));
    }
  }
  let inputs = false;
  const in0 = get('inputs');
  if (in0 !== null && in0 !== '') {
    if (in0 === '0' || in0 === '1') {
      inputs = in0 === '1';
      given.inputs = in0;
    } else notes.push(t('embed.badInputs', { got: clip(in0) }));
  }
  const controls = new Set();
  const c0 = get('controls');
  if (c0 !== null && c0 !== '' && c0 !== 'none') {
    const bad = [];
    for (const c of c0.split(/[,\s]+/).filter(Boolean)) (CONTROLS.includes(c) ? controls.add(c) : bad.push(c));
    if (bad.length) notes.push(t('embed.badControls', { got: bad.map((b) => `"${clip(b)}"`).join(', '), list: CONTROLS.join(', ') }));
    if (controls.size) given.controls = [...controls].join(',');
  }
  let theme = 'auto';
  const t0 = get('theme');
  if (t0 !== null && t0 !== '') {
    if (THEMES.includes(t0.toLowerCase())) theme = given.theme = t0.toLowerCase();
    else notes.push(t('embed.badTheme', { list: THEMES.join(', '), got: clip(t0) }));
  }
  return { view, inputs, controls, theme, notes, given };
}

// Levenshtein distance, for "did you mean" on a mistyped step id.
function distance(a, b) {
  const d = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0];
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = d[j];
      d[j] = Math.min(d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return d[b.length];
}

// The step to show for a requested id: {index, note}. An id the trace lacks falls back to the
// closest id (edit distance) with a note naming both — never silently to step 1.
export function resolveStep(ids, wanted, fallbackIndex = 0) {
  const i = ids.indexOf(wanted);
  if (i >= 0 || !wanted) return { index: i >= 0 ? i : fallbackIndex, note: '' };
  let best = 0, bestD = Infinity;
  ids.forEach((id, k) => {
    const dd = distance(wanted, id);
    if (dd < bestD) { bestD = dd; best = k; }
  });
  return { index: best, note: t('embed.noStep', { wanted: String(wanted).slice(0, 60), closest: ids[best] }) };
}

// The step a figure shows when its link names none: the first attention weights (what people
// embed most), read from the steps' kind and head, not their ids.
export function defaultFigureStep(steps) {
  return Math.max(0, steps.findIndex((s) => s.kind === 'softmax' && s.head >= 0));
}
