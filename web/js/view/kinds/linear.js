// kinds/linear.js — products: linear layers (X·W + b) and the output logits (Z·Eᵀ). Each
// cell is a dot product, shown term by term with the real numbers.
import { val, rowIn, sumOf, dot, symOf, quoted, fmt, term, paren } from './common.js';
import { exact } from '../../lib/format.js';
import { t as tr } from '../../lib/i18n.js';

function linear({ trace, step, R, c, v, lines, H, inp }) {
  const X = inp(0), W = inp(1), b = inp(2);
  if (!X || !W || !W.data) return undefined;
  const n = W.shape[0], m = W.shape[1];
  const Rx = rowIn(trace, X, R);
  const xs = [], ws = [], ps = [];
  for (let k = 0; k < n; k++) {
    const x = val(trace, X, Rx, k), w = W.data[k * m + c];
    xs.push(x); ws.push(w); ps.push(x * w);
  }
  const bias = b && b.data ? b.data[c] : 0;
  // A model without biases (Llama, Qwen's o/FFN, Gemma) records [x, W] only: no bias term.
  const bTerm = b ? ` + ${symOf(b)}[${c}]` : '';
  lines.push({ t: `${symOf(step)}[i, ${c}] = Σₖ ${symOf(X)}[i, k] · ${symOf(W)}[k, ${c}]${bTerm}   (k = 0 … ${n - 1})`, cls: 'formula' });
  dot(lines, xs.map(fmt), ws.map(fmt), ps);
  const s = sumOf(ps);
  const bText = b ? `  + ${paren(fmt(bias))} (${tr('explain.linear.bias')})` : '';
  lines.push({ t: `= ${term(s)}  (${tr('explain.linear.products', { n })})${bText}` });
  lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  lines.push({ t: tr('explain.linear.check', { x: term(s + bias) }), cls: 'muted' });
  H.push({ id: X.id, rows: [Rx], cells: [] });
  H.push({ id: W.id, cols: [c] });
  if (b) H.push({ id: b.id, cells: [[0, c]] });
  return s + bias;
}

function logits({ trace, step, R, c, v, lines, H, inp }) {
  const Z = inp(0), E = inp(1);
  if (!E || !E.data) return undefined;
  const d = E.shape[1];
  const zs = [], es = [], ps = [];
  for (let k = 0; k < d; k++) {
    const a = val(trace, Z, R, k), b = E.data[c * d + k];
    zs.push(a); es.push(b); ps.push(a * b);
  }
  const tok = trace.shownVocab()[c];
  // A checkpoint's masked-word head adds its bias per vocabulary entry (the third input, [V]).
  const bias = inp(2) && inp(2).data ? inp(2).data[c] : undefined;
  const plus = bias === undefined ? '' : ` + ${symOf(inp(2))}[${c}]`;
  lines.push({ t: `${symOf(step)}[i, ${c}] = Σₖ ${symOf(Z)}[i, k] · E[${c}, k]${plus}   (${tr('explain.logits.row', { c, tok: quoted(tok) })})`, cls: 'formula' });
  dot(lines, zs.map(fmt), es.map(fmt), ps);
  if (bias !== undefined) lines.push({ t: `+ ${paren(fmt(bias))}`, cls: 'terms' });
  const total = sumOf(ps) + (bias ?? 0);
  lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  lines.push({ t: tr('explain.check', { x: term(total) }), cls: 'muted' });
  H.push({ id: Z.id, rows: [R] });
  H.push({ id: E.id, rows: [c] });
  if (bias !== undefined) H.push({ id: inp(2).id, cells: [[0, c]] });
  return total;
}

export default {
  linear: { explain: linear, scale: 'diverging' },
  logits: { explain: logits, scale: 'diverging' },
};
