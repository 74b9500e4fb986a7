// notes/io.js — the notes of the steps before the layers and after them: tokens, embeddings,
// positions, the encoder's and decoder's inputs, the classifier's pooled row, logits,
// probabilities and the loss. Each function returns {text, tut}.
import { t, num } from '../../lib/i18n.js';
import { rowsOf, colLabel, argmax, mean, norm, tok, sig } from './stats.js';
import { stackKey } from '../../model/stack.js';
import { placeText, stepTitle } from '../../model/titles.js';

export function tokensNote(step, trace) {
  const V = (trace.text.vocab || []).length;
  // The real tokens: a padded batch's <pad> fill is not part of any sentence.
  // A [2, T] batch of ids has one row per sentence: row R is batch item R.
  const { rows, cols } = trace.layout(step);
  const perSentence = step.axes && step.axes[0] && step.axes[0].name === 'batch';
  let n = 0;
  for (let R = 0; R < rows; R++)
    for (let c = 0; c < cols; c++) if (colLabel(trace, step, c, perSentence ? R : 0) !== '<pad>') n++;
  return { text: `${t('notes.tokens.why')} ${t('notes.tokens.fact', { n, V: num(V) })}`, tut: 'fundamentals' };
}
// Token types [T] (BERT): 0 for sentence A, 1 for sentence B — how many tokens each has.
export function segmentsNote(step) {
  let b = 0;
  for (const x of step.data) if (x === 1) b++;
  const a = step.data.length - b;
  return { text: `${t('notes.token_type_ids.why')} ${t(b ? 'notes.token_type_ids.fact' : 'notes.token_type_ids.one', { a, b })}`, tut: 'anatomy' };
}
// Rows of the token-type table [T, d]: one learned vector per sentence, added to every token of it.
export function segmentEmbeddingNote(step, trace) {
  return { text: t('notes.token_type_embedding.why', { d: trace.config.d_model }), tut: 'anatomy' };
}
export function embeddingNote(step, trace) {
  const labels = rowsOf(trace, step).map((r) => r.label);
  const repeats = labels.length - new Set(labels).size;
  const parts = [t('notes.embedding.why', { d: trace.config.d_model })];
  parts.push(t(repeats ? 'notes.embedding.repeats' : 'notes.embedding.noRepeats', { n: repeats }));
  return { text: parts.join(' '), tut: 'anatomy' };
}
export function positionalNote(step, trace) {
  const key = step.kind === 'lookup' ? 'notes.positional.learned' : 'notes.positional.sin';
  return { text: `${t('notes.positional.why')} ${t(key, { d: trace.config.d_model, half: Math.ceil(trace.config.d_model / 2) })}`, tut: 'fundamentals' };
}
// X = token embedding + position: how large the position part is beside the token part.
export function inputNote(step, trace) {
  const ins = step.inputs.map((id) => trace.get(id)).filter(Boolean);
  const emb = ins.find((s) => ['embedding', 'target_embedding'].includes(s.role));
  const segments = ins.some((s) => s.role === 'token_type_embedding');
  const key = { decoder_input: 'notes.input.decoder', embedding_sum: segments ? 'notes.input.sumSegments' : 'notes.input.sum', target_embedding_sum: 'notes.input.sum' }[step.role] || stackKey('notes.input.encoder', trace);
  const pos = ins.find((s) => ['positional', 'target_positional'].includes(s.role));
  const why = t(key);
  if (step.kind !== 'add' || !emb || !pos || !emb.data || !pos.data) return { text: why, tut: 'fundamentals' };
  const re = rowsOf(trace, emb), rp = rowsOf(trace, pos);
  const ratio = mean(re.map((r, k) => norm(rp[k % rp.length].data) / Math.max(1e-12, norm(r.data))));
  return { text: `${why} ${t('notes.input.fact', { ratio: num(ratio, 2) })}`, tut: 'fundamentals' };
}
export function pooledNote() {
  return { text: t('notes.pooled.why'), tut: 'fundamentals' };
}
// Logits and probabilities: the top entry of the rows that matter (the last row of the
// decoder, the [MASK] rows, the classifier's one row).
function topRows(step, trace) {
  const rows = rowsOf(trace, step).filter((r) => r.b === 0);
  const sec = step.place.section;
  if (sec === 'masked_lm') {
    const m = rows.filter((r) => r.label === '[MASK]');
    return m.length ? m : rows.slice(0, 1);
  }
  return sec === 'output' ? rows.slice(-1) : rows;
}
export function logitsNote(step, trace) {
  const r = topRows(step, trace)[0];
  const j = argmax(r.data);
  const fact = t(r.label !== null ? 'notes.logits.fact' : 'notes.logits.factOne', { tok: tok(colLabel(trace, step, j, r.b)), z: num(r.data[j], 2), row: tok(r.label) });
  return { text: `${t(stackKey(`notes.logits.${step.place.section}`, trace))} ${fact}`, tut: 'fundamentals' };
}
export function probsNote(step, trace, info) {
  const parts = [t(stackKey(`notes.probs.${step.place.section}`, trace))];
  for (const r of topRows(step, trace).slice(0, 3)) {
    const j = argmax(r.data);
    parts.push(t(r.label !== null ? 'notes.probs.fact' : 'notes.probs.factOne', { tok: tok(colLabel(trace, step, j, r.b)), p: num(r.data[j], 3), row: tok(r.label) }));
  }
  if (!info.trained) parts.push(t('notes.probs.seeded'));
  return { text: parts.join(' '), tut: 'fundamentals' };
}
export function lossNote(step) {
  const L = step.data[0];
  return { text: `${t('notes.loss.why')} ${t('notes.loss.fact', { L: sig(L, 3, num), p: num(Math.exp(-L), 3) })}`, tut: 'fundamentals' };
}

// An attribution part for a reader: a head ("layer0.head1") or a block ("layer0.ffn", Gemma's
// "layer0.attn") by the place the map names; any other part (a bias, the input) by its step's title.
function partName(trace, id) {
  const own = trace.get(id);
  if (own) return stepTitle(own, trace);
  const head = trace.steps.find((s) => s.id.startsWith(`${id}.`) && s.place && s.place.head >= 0);
  if (head) return placeText(head.place, trace);
  const block = trace.get(`${id}_hidden`) || trace.get(`${id}_out`);
  return block ? placeText({ ...block.place, head: -1 }, trace) : id;
}

// Logit attribution's parts [P] (the lab): the largest, named as the lab names it, and their sum
// (the logit). No tutorial covers attribution, so the note cites none.
export function partsNote(step, trace) {
  const k = argmax(step.data);
  let sum = 0;
  for (const x of step.data) sum += x;
  const label = (trace.text.attr_parts || [])[k];  // the part ids, as the lab's bars read them
  const part = label !== undefined ? partName(trace, String(label)) : String(k);
  return { text: `${t('notes.parts.why')} ${t('notes.parts.fact', { n: step.data.length, part, v: sig(step.data[k], 4, num), sum: sig(sum, 4, num) })}`, tut: null };
}
// The final norm's scale, frozen at this run for attribution [1]: 1/σ (LayerNorm) or 1/rms (RMSNorm).
export function scaleNote(step, trace) {
  const rms = trace.get(step.inputs[0])?.kind === 'rms';
  return { text: t(rms ? 'notes.scale.rms' : 'notes.scale.ln', { s: sig(step.data[0], 4, num) }), tut: null };
}
