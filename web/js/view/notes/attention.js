// notes/attention.js — the notes of the attention steps: masks, Q/K/V, raw and scaled scores,
// the softmax's pieces, the weights, each head's context, the concatenation and W_O. Each
// function returns {text, tut}: why the step exists and what this model's numbers show.
import { t, num } from '../../lib/i18n.js';
import { rowsOf, colLabel, spread, mean, argmax, topSoftmax, finite, tok } from './stats.js';
import { stackKey, wordSection } from '../../model/stack.js';

// A decoder-only checkpoint's self-attention is a decoder's, masked (model/stack.js).
const kindOfBlock = (p, trace) => (p.block === 'cross_attention' ? 'cross' : wordSection(p.section, trace) === 'decoder' ? 'masked' : 'self');

export function maskNote(step, trace) {
  const d = step.data;
  const blocked = finite(d).length === d.length ? 0 : d.length - finite(d).length;
  const why = t(stackKey(`notes.mask.${step.role}`, trace));
  return { text: `${why} ${t('notes.mask.count', { blocked, total: d.length })}`, tut: 'understanding' };
}

export function qkvNote(step, trace) {
  const c = trace.config;
  const fact = t('notes.qkv.split', { d: c.d_model, h: c.num_heads, dk: c.d_model / c.num_heads });
  return { text: `${t(`notes.${step.role}.${kindOfBlock(step.place, trace)}`)} ${fact}`, tut: step.place.block === 'cross_attention' ? 'fundamentals' : 'math' };
}

export function scoresNote(step, trace) {
  const rows = rowsOf(trace, step);
  const s = mean(rows.map((r) => spread(r.data)));
  return { text: `${t('notes.scores.why')} ${t('notes.scores.fact', { spread: num(s, 2) })}`, tut: 'encoder' };
}

// The spread of each row of S̃ and of S (allowed entries only), and what it does to softmax.
export function scaledFacts(step, trace) {
  const S = trace.get(step.inputs.find((id) => trace.get(id) && trace.get(id).role === 'scores'));
  const sc = rowsOf(trace, step), raw = S ? rowsOf(trace, S) : [];
  const rawRows = sc.map((r, k) => Array.from(raw[k].data).filter((_, j) => Number.isFinite(r.data[j])));
  return {
    spreadRaw: mean(rawRows.map(spread)), spreadScaled: mean(sc.map((r) => spread(r.data))),
    topRaw: mean(rawRows.map(topSoftmax)), topScaled: mean(sc.map((r) => topSoftmax(r.data))),
  };
}
export function scaledNote(step, trace) {
  const c = trace.config, dk = c.d_model / c.num_heads;
  if (c.scale === false) return { text: `${t('notes.scaled.off')}`, tut: 'understanding' };
  const f = scaledFacts(step, trace);
  const fact = t('notes.scaled.fact', {
    raw: num(f.spreadRaw, 2), scaled: num(f.spreadScaled, 2), root: num(Math.sqrt(dk), 2), dk,
    pRaw: num(f.topRaw, 2), pScaled: num(f.topScaled, 2),
  });
  return { text: `${t('notes.scaled.why')} ${fact}`, tut: 'understanding' };
}

export function pieceNote(step, trace) {
  const vals = finite(step.data);
  const fact = t(`notes.${step.role}.fact`, { lo: num(Math.min(...vals), 2), hi: num(Math.max(...vals), 2) });
  return { text: `${t(`notes.${step.role}.why`)} ${fact}`, tut: 'math' };
}

// Each query row's most-attended key: [{q, k, w}] for batch item 0.
// Each query row's most-attended key, for batch item b (the sentence on screen).
export function attendedFacts(step, trace, b = 0) {
  return rowsOf(trace, step).filter((r) => r.b === b).map((r) => {
    const j = argmax(r.data);
    return { q: tok(r.label), k: tok(colLabel(trace, step, j, b)), w: r.data[j], n: finite(r.data).filter((x) => x > 0).length };
  });
}
export function weightsNote(step, trace, info) {
  const batches = trace.layout(step).batches;
  const b = Math.min(Math.max(0, info.batch || 0), batches - 1);
  const facts = attendedFacts(step, trace, b);
  const list = facts.slice(0, 6).map((f) => t('notes.weights.pair', { q: f.q, k: f.k, w: num(f.w, 2) })).join('; ');
  const avgTop = mean(facts.map((f) => f.w)), uniform = mean(facts.map((f) => 1 / Math.max(1, f.n)));
  const parts = [t(`notes.weights.${kindOfBlock(step.place, trace)}`), t('notes.weights.fact', { list, top: num(avgTop, 2), uniform: num(uniform, 2), sentence: batches > 1 ? b + 1 : 0 })];
  if (!info.trained) parts.push(t('notes.weights.seeded'));
  return { text: parts.join(' '), tut: step.place.block === 'cross_attention' ? 'fundamentals' : 'math' };
}

export function contextNote(step, trace) {
  const dk = trace.config.d_model / trace.config.num_heads;
  return { text: `${t('notes.context.why')} ${t('notes.context.fact', { dk })}`, tut: 'math' };
}
export function concatNote(step, trace) {
  const c = trace.config;
  return { text: t('notes.concat.why', { h: c.num_heads, dk: c.d_model / c.num_heads, d: c.d_model }), tut: 'understanding' };
}
export function attnOutNote(step, trace) {
  return { text: t('notes.attn_out.why', { d: trace.config.d_model }), tut: 'understanding' };
}
