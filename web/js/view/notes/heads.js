// notes/heads.js — the notes of a checkpoint's own head steps: BERT's and DistilBERT's
// masked-word transform (dense layer, activation; its LayerNorm is layer.js's) before the
// vocabulary scores, and the classifier's pooler (BERT: dense + tanh; DistilBERT's
// pre-classifier: dense + ReLU). Each function returns {text, tut}.
import { t, num } from '../../lib/i18n.js';
import { rowsOf, mean, norm } from './stats.js';

// The head's dense layer [T, d] → [T, d]: what it is for, and how long its rows are.
export function transformPreNote(step, trace) {
  const n = mean(rowsOf(trace, step).map((r) => norm(r.data)));
  return { text: `${t('notes.transform_pre.why', { d: trace.config.d_model })} ${t('notes.output.fact', { norm: num(n, 2), d: trace.config.d_model })}`, tut: 'anatomy' };
}
export function transformActNote(step, trace) {
  const pre = trace.get(step.inputs[0]);
  const src = pre && pre.data ? pre.data : step.data;
  let off = 0;
  for (const x of src) if (x <= 0) off++;
  const a = trace.config.activation, gelu = a === 'gelu' || a === 'gelu_new';
  const act = { gelu: 'GELU', gelu_new: 'GELU (tanh)' }[a] || 'ReLU';
  return { text: `${t('notes.transform_act.why', { act })} ${t('notes.ffn_hidden.fact', { share: num((100 * off) / src.length, 0), n: src.length, gelu })}`, tut: 'anatomy' };
}
// The pooler reads the first token's row only ([1, d] per sentence).
export function poolerPreNote(step, trace) {
  return { text: t('notes.pooler_pre.why', { d: trace.config.d_model }), tut: 'anatomy' };
}
export function poolerNote(step) {
  const tanh = /\\tanh/.test(step.formula || '');
  const v = Array.from(step.data);
  const fact = t('notes.pooler.fact', { lo: num(Math.min(...v), 2), hi: num(Math.max(...v), 2) });
  return { text: `${t(tanh ? 'notes.pooler.tanh' : 'notes.pooler.relu')} ${fact}`, tut: 'anatomy' };
}
