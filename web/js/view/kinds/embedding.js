// kinds/embedding.js — how tokens enter the model: token ids from the vocabulary, rows of
// the embedding (or learned position) table, and the sinusoidal positional encoding.
import { lay, val, term, quoted } from './common.js';
import { exact } from '../../lib/format.js';
import { t as tr } from '../../lib/i18n.js';

// The id the vocabulary gives a token (its <unk> for unknown ones), or -1.
function vocabId(vocab, tok) {
  for (const t of [tok, '<unk>', '[UNK]']) {
    const i = vocab.indexOf(t);
    if (i >= 0) return i;
  }
  return -1;
}

// A token type (BERT's segments): 0 for sentence A, 1 for sentence B — not a vocabulary id.
// Returns the type BERT's pair template gives token c: 1 once a [SEP] came before it.
function segment({ trace, step, R, c, v, lines }) {
  const toks = trace.sourceTokens(Math.floor(R / trace.layout(step).per));
  lines.push({ t: tr('explain.tokens.token', { c, tok: quoted(toks[c]) }), cls: 'formula' });
  lines.push({ t: `= ${tr('explain.segment.value', { v, s: v === 1 ? 'B' : 'A' })}`, cls: 'result' });
  lines.push({ t: tr('explain.segment.why'), cls: 'muted' });
  return toks.slice(0, c).includes('[SEP]') ? 1 : 0;
}

function tokens(a) {
  if (a.step.role === 'token_type_ids') return segment(a);
  const { trace, step, R, c, v, lines, H } = a;
  const axes = step.axes || [];
  const target = axes.length && axes[axes.length - 1].labels === 'target';
  const toks = target ? trace.targetTokens() : trace.sourceTokens(R);
  const tok = toks[c], vocab = trace.shownVocab();
  lines.push({ t: tr('explain.tokens.token', { c, tok: quoted(tok) }), cls: 'formula' });
  lines.push({ t: `= id ${v} (${tr('explain.tokens.vocab', { v, n: vocab.length })})`, cls: 'result' });
  if (tok === '<pad>') lines.push({ t: tr('explain.tokens.pad'), cls: 'muted' });
  if (trace.get('embedding_table')) H.push({ id: 'embedding_table', rows: [v] });
  return vocabId(vocab, tok);
}

function lookup({ trace, step, L, R, c, v, lines, H, inp }) {
  const b = Math.floor(R / L.per), i = R % L.per;
  if (step.inputs.length >= 2) {
    const ids = inp(0), E = inp(1);
    const idR = lay(trace, ids).rows > 1 ? b : 0;
    const id = val(trace, ids, idR, i);
    const seg = step.role === 'token_type_embedding';
    const line = seg ? tr('explain.lookup.segment', { i, s: id === 1 ? 'B' : 'A', id })
      : tr('explain.lookup.token', { i, tok: quoted(trace.shownVocab()[id]), id });
    lines.push({ t: line, cls: 'formula' });
    lines.push({ t: `${seg ? 'E_type' : 'E'}[${id}, ${c}] = ${exact(v)}`, cls: 'result' });
    H.push({ id: ids.id, cells: [[idR, i]] });
    if (!E || !E.data) return undefined;
    H.push({ id: E.id, rows: [id], cells: [[id, c]] });
    return E.data[id * E.shape[1] + c];
  }
  const P = inp(0);
  lines.push({ t: tr('explain.lookup.position', { i }), cls: 'formula' });
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
  lines.push({ t: `PE[p, ${c}] = ${fn}(p / 10000^(2·${k}/${d}))   (${tr('explain.positional.where', { p, k })})`, cls: 'formula' });
  lines.push({ t: `= ${fn}(${p} / ${term(denom)}) = ${fn}(${term(angle)})` });
  lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  lines.push({ t: tr('explain.positional.why'), cls: 'muted' });
  return fn === 'sin' ? Math.sin(angle) : Math.cos(angle);
}

export default {
  tokens: { explain: tokens, scale: 'none', get noInputs() { return tr('explain.tokens.noInputs'); } },
  lookup: { explain: lookup, scale: 'diverging' },
  positional: { explain: positional, scale: 'diverging', get noInputs() { return tr('explain.positional.noInputs'); } },
};
