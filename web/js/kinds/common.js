// kinds/common.js — what every step kind's explanation shares: reading a cell of a tensor
// through its matrix layout, naming rows and columns from the step's axes (in the reader's
// language: the words of every explanation come from the catalog's `explain` area, the
// arithmetic around them is the same in every language), the short symbols of the notation,
// and formatting a dot product's terms.
import { fmt, term, paren } from '../format.js';
import { t as tr } from '../i18n.js';

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

// The labels along `axis` for batch item b (trace.labelsFor), the sentences of a batch axis
// named in the reader's language.
function labelsOf(trace, axis, b) {
  if (axis && axis.labels === 'batch') return Array.from({ length: trace.B }, (_, i) => tr('explain.sentence', { n: i + 1 }));
  return trace.labelsFor(axis, b);
}

// The token (or other label) a flat row stands for, from the step's row axis; rows of
// batch item b are named by b's own tokens.
export function rowName(trace, t, R) {
  const L = lay(trace, t);
  const b = Math.floor(R / L.per), i = R % L.per;
  const labels = labelsOf(trace, trace.axesOf(t).rows, b);
  const label = labels && labels[i] !== undefined ? labels[i] : null;
  const row = tr('explain.row', { i }) + (label !== null ? ' ' + quoted(label) : '');
  return { b, i, label, text: L.batches > 1 ? tr('explain.inSentence', { n: b + 1, what: row }) : row };
}
// Column c of batch item b (its own tokens when the columns are a sentence's positions).
export function colName(trace, t, c, b = 0) {
  const labels = labelsOf(trace, trace.axesOf(t).cols, b);
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

// The short symbol of a tensor in arithmetic text, one per quantity across the page (the
// notation key): a step's from its role (the encoder's output is H, layer l's H⁽ˡ⁾; the
// decoder's Z, Z⁽ˡ⁾), a gradient's as ∂L/∂ of its tensor, a parameter's from its name
// (parameters carry no role: the last part of a parameter id is its name, docs/trace.md).
// Notation only: the page's structure comes from axes and place.
const ROLE_SYMBOLS = { token_ids: 'id', target_token_ids: 'id', embedding: 'X_tok', target_embedding: 'Y_tok',
  positional: 'PE', target_positional: 'PE', input: 'X', decoder_input: 'Y', output: 'H', decoder_output: 'Z',
  attention_mask: 'M', decoder_mask: 'M', cross_mask: 'M', q: 'Q', k: 'K', v: 'V', scores: 'S', scaled: 'S̃',
  rowmax: 'm', rowsum: 's', weights: 'A', context: 'C_h', concat: 'C', attn_out: 'MHA', residual1: 'R₁',
  residual2: 'R₂', residual3: 'R₃', mean: 'μ', var: 'σ²', ln1: 'LN₁', ln2: 'LN₂', ln3: 'LN₃', ffn_pre: 'U',
  ffn_hidden: 'G', ffn_out: 'FFN', logits: 'z', probs: 'p', loss: 'L', pooled: 'h_cls' };
const PARAM_SYMBOLS = { W_q: 'W_Q', W_k: 'W_K', W_v: 'W_V', W_o: 'W_O', b_q: 'b_Q', b_k: 'b_K', b_v: 'b_V', b_o: 'b_O',
  W_1: 'W₁', b_1: 'b₁', W_2: 'W₂', b_2: 'b₂', embedding_table: 'E', position_table: 'P', gamma: 'γ', beta: 'β',
  W: 'W', b: 'b' };
export function symOf(t, trace = null) {
  if (!t) return '?';
  if (t.kind === 'grad' && t.of) return `∂L/∂${symOf((trace && trace.get(t.of)) || { id: t.of }, trace)}`;
  if (t.role === 'output') return layerOutput(t.place || {});
  if (t.role && ROLE_SYMBOLS[t.role]) return ROLE_SYMBOLS[t.role];
  const name = String(t.id).split('.').pop();
  return PARAM_SYMBOLS[name] || t.id;
}
// One layer's output is H⁽ˡ⁾ (encoder) or Z⁽ˡ⁾ (decoder); the stack's output H or Z.
const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';
function layerOutput(place) {
  const letter = place.section === 'decoder' ? 'Z' : 'H';
  if (!(place.layer >= 0)) return letter;
  return `${letter}⁽${String(place.layer).replace(/\d/g, (d) => SUPERSCRIPT[d])}⁾`;
}
// A parameter's symbol from its id (render/matrix-step.js names parameters so).
export function sym(id) {
  return symOf({ id });
}

export { fmt, term, paren };
