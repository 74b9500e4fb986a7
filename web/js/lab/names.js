// names.js — what the lab acts on, named for a reader: a head as the architecture map names it
// ("head 2, cross-attention, decoder layer 0": model/titles.js placeText, the one naming of a
// place), a step to patch by its title, a cell by its step's title and its row and column. The
// ids (the engine's and the CLI's names) stay the data; these are only what the reader reads.
// An id the trace does not hold is shown as it is.
import { t } from '../lib/i18n.js';
import { placeText, stepTitle } from '../model/titles.js';
import { headOf } from './spec.js';

// The first step of head `id` ("decoder0.cross.head2"): its place names the head.
function headStep(trace, id) {
  return (trace && trace.steps.find((s) => s.place && s.place.head >= 0 && headOf(s.id) === id)) || null;
}

export function headName(trace, id) {
  const s = headStep(trace, id);
  return (s && placeText(s.place, trace)) || id;
}

// A head in a table whose row names its block: {row: "cross-attention, decoder layer 0",
// col: "head 2"} (the same words, split), or null when the trace holds no such head.
export function headParts(trace, id) {
  const s = headStep(trace, id);
  if (!s) return null;
  return { row: placeText({ ...s.place, head: -1 }, trace), col: t('steps.head', { h: s.place.head }) };
}

// "ID[r,c]" → {id, idx: [..]}; null for an id without a cell index.
function splitCell(cell) {
  const m = /^(.+)\[([\d,\s]+)\]$/.exec(cell);
  return m ? { id: m[1], idx: m[2].split(',').map(Number) } : null;
}

// "Attention weights A (head 0, self-attention, encoder layer 0), row 2, column 0".
export function cellName(trace, cell) {
  const c = splitCell(cell);
  const s = c && trace && trace.get(c.id);
  if (!s) return cell;
  const [r, col] = c.idx.length === 1 ? [-1, c.idx[0]] : c.idx.slice(-2);
  const at = r < 0 ? t('lab.name.index', { i: col }) : t('lab.name.rowCol', { r, c: col });
  const sentence = c.idx.length === 3 && trace.B > 1 ? t('lab.name.sentence', { n: c.idx[0] + 1 }) : '';
  return t('lab.name.cell', { name: stepTitle(s, trace), at: sentence + at });
}

// A patch target "ID" or "ID@p,q" → the step's title (and its positions).
export function targetName(trace, target) {
  const [id, at] = String(target).split('@');
  const s = trace && trace.get(id.trim());
  if (!s) return target;
  const name = stepTitle(s, trace);
  return at ? t('lab.name.positions', { name, positions: at.split(',').map((x) => x.trim()).join(', ') }) : name;
}

// An ablation: a head, a feed-forward unit (an index into its hidden step), a whole feed-forward
// block or any other id.
export function ablateName(trace, id) {
  if (headStep(trace, id)) return headName(trace, id);
  const c = splitCell(id), u = c && c.idx.length === 1 && trace && trace.get(c.id);
  if (u) return t('lab.name.unit', { name: stepTitle(u, trace), i: c.idx[0] });  // one unit of a feed-forward block
  if (c) return cellName(trace, id);
  const hidden = trace && trace.get(`${id}_hidden`);  // a whole feed-forward block ("layer0.ffn", as the sweeps name it)
  if (hidden) return t('lab.name.ffn', { where: placeText(hidden.place, trace) });
  // a whole attention block ("layer0.attn": Gemma's attribution part, the post-norm's output)
  const attn = trace && trace.get(`${id}_out`);
  if (attn && attn.role === 'attn_out') return t('lab.name.attn', { where: placeText(attn.place, trace) });
  const s = trace && trace.get(id);
  return s ? stepTitle(s, trace) : id;
}
