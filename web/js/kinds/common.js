// kinds/common.js — what every step kind's explanation shares: reading a cell of a tensor
// through its matrix layout, naming rows and columns from the step's axes, the short
// symbols of the notation, and formatting a dot product's terms.
import { fmt, term, paren } from '../format.js';

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
  return [...head, `… (${items.length - max + 1} more)`, items[items.length - 1]];
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

// The token (or other label) a flat row stands for, from the step's row axis.
export function rowName(trace, t, R) {
  const L = lay(trace, t);
  const b = Math.floor(R / L.per), i = R % L.per;
  const labels = trace.labelsFor(trace.axesOf(t).rows, b);
  const label = labels && labels[i] !== undefined ? labels[i] : null;
  const batch = L.batches > 1 ? `sentence ${b + 1}, ` : '';
  return { b, i, label, text: `${batch}row ${i}${label !== null ? ` “${label}”` : ''}` };
}
export function colName(trace, t, c, b = 0) {
  const labels = trace.labelsFor(trace.axesOf(t).cols, b);
  return labels && labels[c] !== undefined ? `column ${c} “${labels[c]}”` : `column ${c}`;
}
export function labelOf(trace, t, R) {
  const r = rowName(trace, t, R);
  return r.label !== null ? ` “${r.label}”` : '';
}

// A short symbol for a tensor in arithmetic text (notation only: the page's structure comes
// from axes and place, never from ids).
const SYMBOLS = { q: 'Q', k: 'K', v: 'V', W_q: 'W_Q', W_k: 'W_K', W_v: 'W_V', W_o: 'W_O', b_q: 'b_Q', b_k: 'b_K',
  b_v: 'b_V', b_o: 'b_O', W_1: 'W₁', b_1: 'b₁', W_2: 'W₂', b_2: 'b₂', concat: 'C', scores: 'S', scaled: 'S̃', weights: 'A',
  context: 'C_h', embedding_table: 'E', position_table: 'P', gamma: 'γ', beta: 'β', mean: 'μ', var: 'σ²', rowmax: 'm',
  rowsum: 's', attention_mask: 'M', decoder_mask: 'M', cross_mask: 'M', ffn_pre: 'H', ffn_hidden: 'h', input: 'X',
  output: 'Y', decoder_output: 'Z', decoder_input: 'Y', embedding: 'X_tok', positional: 'PE', logits: 'z', pooled: 'h',
  ln1: 'LN₁', ln2: 'LN₂', ln3: 'LN₃', residual1: 'R₁', residual2: 'R₂', residual3: 'R₃', attn_out: 'MHA', ffn_out: 'F',
  embedding_sum: 'X_sum', token_ids: 'id', probs: 'p', W: 'W', b: 'b' };
export function sym(id) {
  const parts = id.split('.');
  const last = parts.pop();
  if (['mean', 'var', 'gamma', 'beta', 'rowmax', 'rowsum'].includes(last) && parts.length) {
    const sub = { ln1: '₁', ln2: '₂', ln3: '₃' }[parts[parts.length - 1]] || '';
    return SYMBOLS[last] + sub;
  }
  return SYMBOLS[last] || id;
}

export { fmt, term, paren };
