// notes/index.js — the note under a step's title: which function explains the step (by its
// role, never its id), and the tutorial it follows, named by its title. A note is computed
// from the data the step view has fetched (the step and its inputs); the ids of any other
// steps a note reads are listed by notesNeed so the view fetches them first.
import { t } from '../../lib/i18n.js';
import * as A from './attention.js';
import * as Ly from './layer.js';
import * as IO from './io.js';
import * as Hd from './heads.js';
import { gradNote } from './grad.js';
import { decoderNoteFn } from './decoder.js';

const BY_ROLE = {
  attention_mask: A.maskNote, decoder_mask: A.maskNote, cross_mask: A.maskNote,
  q: A.qkvNote, k: A.qkvNote, v: A.qkvNote, scores: A.scoresNote, scaled: A.scaledNote,
  rowmax: A.pieceNote, rowsum: A.pieceNote, weights: A.weightsNote, context: A.contextNote,
  concat: A.concatNote, attn_out: A.attnOutNote,
  residual1: Ly.residualNote, residual2: Ly.residualNote, residual3: Ly.residualNote,
  mean: Ly.statNote, var: Ly.statNote, ln1: Ly.layerNormNote, ln2: Ly.layerNormNote, ln3: Ly.layerNormNote,
  ffn_pre: Ly.ffnPreNote, ffn_hidden: Ly.ffnHiddenNote, ffn_out: Ly.ffnOutNote,
  output: Ly.outputNote, decoder_output: Ly.outputNote,
  token_ids: IO.tokensNote, target_token_ids: IO.tokensNote, embedding: IO.embeddingNote,
  target_embedding: IO.embeddingNote, positional: IO.positionalNote, target_positional: IO.positionalNote,
  embedding_sum: IO.inputNote, target_embedding_sum: IO.inputNote, input: IO.inputNote, decoder_input: IO.inputNote,
  pooled: IO.pooledNote, logits: IO.logitsNote, probs: IO.probsNote, loss: IO.lossNote,
  token_type_ids: IO.segmentsNote, token_type_embedding: IO.segmentEmbeddingNote,
  transform_pre: Hd.transformPreNote, transform_act: Hd.transformActNote, transform_ln: Ly.layerNormNote,
  pooler_pre: Hd.poolerPreNote, pooler: Hd.poolerNote,
  parts: IO.partsNote, scale: IO.scaleNote,
  grad: gradNote,
};

// Which function a step's note comes from (LayerNorm-made outputs get the LayerNorm note
// only inside a layer: a stack's output is explained as the output).
function noteFn(step, trace) {
  const dec = decoderNoteFn(step, trace);
  if (dec) return dec;
  if ((step.role === 'input' || step.role === 'decoder_input') && step.kind === 'layernorm') return Ly.layerNormNote;
  if (step.role === 'output' && step.kind === 'layernorm' && step.place.block === 'add_norm') return Ly.layerNormNote;
  return BY_ROLE[step.role] || null;
}

// The note of a step: "<why and what to look for> Follows “<tutorial title>”." ('' when the
// step has no role the catalog knows; the suite fails on that).
export function noteFor(step, trace, info = {}) {
  const p = noteParts(step, trace, info);
  if (!p) return '';
  return p.title ? `${p.text} ${t('notes.follows', { title: p.title })}` : p.text;
}
// The same as parts: {text, title} (null when the step has no note).
export function noteParts(step, trace, info = {}) {
  const fn = noteFn(step, trace);
  if (!fn || !step.data) return null;
  const { text, tut } = fn(step, trace, info);
  return { text, title: tut ? t(`notes.tut.${tut}`) : null };  // null: no tutorial covers it
}
// The note into `node`: its text, then "Follows “<title>”." with the title as a <cite> in the
// tutorial's own language (English), whatever the page's language.
export function noteInto(node, step, trace, info = {}) {
  const p = noteParts(step, trace, info);
  if (!p) return node.replaceChildren(), false;
  if (!p.title) return node.replaceChildren(document.createTextNode(p.text)), true;
  const [before, after] = t('notes.follows', { title: '\u0000' }).split('\u0000');
  const cite = document.createElement('cite');
  cite.lang = 'en';
  cite.textContent = p.title;
  node.replaceChildren(document.createTextNode(`${p.text} ${before}`), cite, document.createTextNode(after || ''));
  return true;
}
