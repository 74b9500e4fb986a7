// kinds/common.js — what every step kind's explanation shares: reading a cell of a tensor
// through its matrix layout, naming rows and columns from the step's axes (in the reader's
// language: the words of every explanation come from the catalog's `explain` area, the
// arithmetic around them is the same in every language), the short symbols of the notation,
// and formatting a dot product's terms.
import { fmt, term, paren } from '../../lib/format.js';
import { t as tr } from '../../lib/i18n.js';

export const MAX_TERMS = 8;

export function lay(trace, t) {
  return trace.layout(t);
}
export function val(trace, t, R, c) {
  const L = lay(trace, t);
  return t.data[R * L.cols + c];
}
// An operand may have fewer flat rows than the step (positional [T,d] beside a batch):
// rows repeat per batch item.
export function rowIn(trace, t, R) {
  return R % lay(trace, t).rows;
}
export function list(items, max = MAX_TERMS) {
  if (items.length <= max) return items;
  const head = items.slice(0, max - 2);
  return [...head, tr('explain.more', { n: items.length - max + 1 }), items[items.length - 1]];
}
export function sumOf(xs) {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}
export function dot(lines, aTerms, bTerms, products) {
  lines.push({ t: list(aTerms.map((a, k) => `${paren(a)}·${paren(bTerms[k])}`)).join(' + '), cls: 'terms' });
  lines.push({ t: '= ' + list(products.map((p) => paren(term(p)))).join(' + '), cls: 'terms' });
}

// A backward rule's contribution shown as its terms (kinds/grad.js, kinds/decoder.js):
// Σ a_i·b_i, or Σ a_i.
export function prods(text, a, b) {
  const p = a.map((x, i) => x * b[i]);
  return { v: sumOf(p), text, terms: [list(a.map((x, i) => `${paren(fmt(x))}·${paren(fmt(b[i]))}`)).join(' + ')] };
}
export function sums(text, a) {
  return { v: sumOf(a), text, terms: a.length > 1 ? [list(a.map((x) => paren(fmt(x)))).join(' + ')] : [] };
}

// The token (or other label) a flat row stands for, from the step's row axis; rows of
// batch item b are named by b's own tokens.
export function rowName(trace, t, R) {
  const L = lay(trace, t);
  const b = Math.floor(R / L.per), i = R % L.per;
  const labels = trace.labelsFor(trace.axesOf(t).rows, b);
  const label = labels && labels[i] !== undefined ? labels[i] : null;
  const row = tr('explain.row', { i }) + (label !== null ? ' ' + quoted(label) : '');
  return { b, i, label, text: L.batches > 1 ? tr('explain.inSentence', { n: b + 1, what: row }) : row };
}
// Column c of batch item b (its own tokens when the columns are a sentence's positions).
export function colName(trace, t, c, b = 0) {
  const labels = trace.labelsFor(trace.axesOf(t).cols, b);
  const col = tr('explain.column', { c });
  return labels && labels[c] !== undefined ? `${col} ${quoted(labels[c])}` : col;
}
export function labelOf(trace, t, R) {
  const r = rowName(trace, t, R);
  return r.label !== null ? ' ' + quoted(r.label) : '';
}
// A token or word in the reader's quotation marks (“…” in English, „…“ in German).
export function quoted(s) {
  return tr('explain.quoted', { s });
}

// The short symbol of a tensor in arithmetic text: symbols.js, the page's one table (by role;
// parameters by name).
export { symbolOf as symOf } from '../../model/symbols.js';

export { fmt, term, paren };
