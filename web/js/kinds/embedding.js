// kinds/embedding.js — how tokens enter the model: token ids from the vocabulary, rows of
// the embedding (or learned position) table, and the sinusoidal positional encoding.
import { lay, val, term } from './common.js';
import { exact } from '../format.js';

// The id the vocabulary gives a token (its <unk> for unknown ones), or -1.
function vocabId(vocab, tok) {
  for (const t of [tok, '<unk>', '[UNK]']) {
    const i = vocab.indexOf(t);
    if (i >= 0) return i;
  }
  return -1;
}

function tokens({ trace, step, R, c, v, lines, H }) {
  const axes = step.axes || [];
  const target = axes.length && axes[axes.length - 1].labels === 'target';
  const toks = target ? trace.targetTokens() : trace.sourceTokens(R);
  const tok = toks[c], vocab = trace.text.vocab || [];
  lines.push({ t: `token ${c}: “${tok}”`, cls: 'formula' });
  lines.push({ t: `= id ${v} (position ${v} in the vocabulary of ${vocab.length} tokens)`, cls: 'result' });
  if (tok === '<pad>') lines.push({ t: 'Padding fills the shorter sentence up to the batch length.', cls: 'muted' });
  if (trace.get('embedding_table')) H.push({ id: 'embedding_table', rows: [v] });
  return vocabId(vocab, tok);
}

function lookup({ trace, step, L, R, c, v, lines, H, inp }) {
  const b = Math.floor(R / L.per), i = R % L.per;
  if (step.inputs.length >= 2) {
    const ids = inp(0), E = inp(1);
    const idR = lay(trace, ids).rows > 1 ? b : 0;
    const id = val(trace, ids, idR, i);
    const tok = (trace.text.vocab || [])[id];
    lines.push({ t: `token ${i} “${tok}” has id ${id} → row ${id} of the embedding table E`, cls: 'formula' });
    lines.push({ t: `E[${id}, ${c}] = ${exact(v)}`, cls: 'result' });
    H.push({ id: ids.id, cells: [[idR, i]] });
    if (!E || !E.data) return undefined;
    H.push({ id: E.id, rows: [id], cells: [[id, c]] });
    return E.data[id * E.shape[1] + c];
  }
  const P = inp(0);
  lines.push({ t: `position ${i} → row ${i} of the learned position table P`, cls: 'formula' });
  lines.push({ t: `P[${i}, ${c}] = ${exact(v)}`, cls: 'result' });
  if (!P || !P.data) return undefined;
  H.push({ id: P.id, rows: [i], cells: [[i, c]] });
  return P.data[i * P.shape[1] + c];
}

function positional({ L, R, c, v, lines }) {
  const p = R % L.per, d = L.cols, k = Math.floor(c / 2);
  const denom = Math.pow(10000, (2 * k) / d);
  const angle = p / denom;
  const fn = c % 2 === 0 ? 'sin' : 'cos';
  lines.push({ t: `PE[p, ${c}] = ${fn}(p / 10000^(2·${k}/${d}))   (position p = ${p}, pair i = ${k})`, cls: 'formula' });
  lines.push({ t: `= ${fn}(${p} / ${term(denom)}) = ${fn}(${term(angle)})` });
  lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  lines.push({ t: 'even columns use sin, odd columns cos; wavelength grows with the column index', cls: 'muted' });
  return fn === 'sin' ? Math.sin(angle) : Math.cos(angle);
}

export default {
  tokens: { explain: tokens, scale: 'none', noInputs: 'From the tokenizer and the vocabulary (below).' },
  lookup: { explain: lookup, scale: 'diverging' },
  positional: { explain: positional, scale: 'diverging', noInputs: 'A fixed formula of the position and the column: nothing learned.' },
};
