// notes/decoder.js — the notes of the modern decoders' steps (Llama, Qwen2/3, Gemma 3): RMSNorm
// and its rms, the rotation and its angles, the sliding window, grouped-query attention, the
// gated feed-forward network, Gemma's embedding scale and the key/value cache. Each returns
// {text, tut}; tut is null: none of the tutorials the page follows covers these operations, so
// no "Follows …" is claimed. Every fact is computed from the step's (and its inputs') data.
import { t, num } from '../../lib/i18n.js';
import { bytePieceText } from '../../lib/format.js';
import { rowsOf, norm } from './stats.js';
import { gammaPlusOne, embedScale } from '../kinds/decoder.js';
import { scoresNote } from './attention.js';

// A row's token as text: byte-level pieces (Llama 3, Qwen: "Ġcat") and SentencePiece's "▁" as the
// text they stand for (a leading space shown as ␣).
// (Only a raw piece is converted: labels the trace already shows as text stay as they are.)
const readable = (label) => (/[Ġ▁]/.test(label) ? bytePieceText(label).replace(/▁/g, '␣') : label);
const tok = (label) => (label !== null && label !== undefined ? ` ${t('explain.quoted', { s: readable(String(label)) })}` : '');
const argmax = (xs) => xs.reduce((b, x, i) => (x > xs[b] ? i : b), 0);
const labelOfRow = (trace, step, i) => {
  const rows = rowsOf(trace, step);
  return rows[i] ? rows[i].label : null;
};

// rms [T] (a row of T cells) or [T, H]: the largest is shrunk most.
function rmsNote(step, trace) {
  const v = Array.from(step.data), perTok = step.shape.length === 2 ? step.shape[1] : 1;
  const k = argmax(v), tk = Math.floor(k / perTok);
  const X = trace.get(step.inputs[0]);
  const fact = t('decoders.notes.rms.fact', { lo: num(Math.min(...v), 3), hi: num(Math.max(...v), 3), t: tk, tok: tok(X ? labelOfRow(trace, X, tk) : null) });
  return { text: `${t('decoders.notes.rms.why')} ${fact}`, tut: null };
}

// RMSNorm (pre, post, q/k, final): row 0's rms and the range of γ.
function rmsnormNote(step, trace) {
  const X = trace.get(step.inputs[0]), R = trace.get(step.inputs[1]), G = trace.get(step.inputs[2]);
  const parts = [];
  if (step.role === 'q_norm' || step.role === 'k_norm') parts.push(t('decoders.notes.qknorm.why'));
  else if (step.role === 'post_attn_norm' || step.role === 'post_ffn_norm') parts.push(t('decoders.notes.rmsnorm.post'));
  parts.push(t('decoders.notes.rmsnorm.why'));
  if (gammaPlusOne(trace)) parts.push(t('decoders.notes.rmsnorm.gemma'));
  if (R && R.data && G && G.data) {
    const g = Array.from(G.data);
    parts.push(t('decoders.notes.rmsnorm.fact', { t: 0, tok: tok(X ? labelOfRow(trace, X, 0) : null), rms: num(R.data[0], 3), glo: num(Math.min(...g), 3), ghi: num(Math.max(...g), 3) }));
  }
  return { text: parts.join(' '), tut: null };
}

// The rotation: the last row's angle of pair 0, and its length before and after (a rotation keeps it).
function ropeNote(step, trace) {
  const X = trace.get(step.inputs[0]), A = trace.get(step.inputs[1]);
  const T = step.shape[0], w = step.shape[1], last = T - 1;
  const row = (d) => d.subarray(last * w, (last + 1) * w);
  const fact = X && X.data && A && A.data ? ' ' + t('decoders.notes.rope.fact', { t: last, tok: tok(labelOfRow(trace, step, last)),
    a0: num(A.data[last * A.shape[1]], 3), n0: num(norm(row(X.data)), 3), n1: num(norm(row(step.data)), 3) }) : '';
  return { text: t('decoders.notes.rope.why') + fact, tut: null };
}

// The angles [T, d_h/2]: per-position turn of the first and last pair (row 1 is ω itself).
function ropeAnglesNote(step) {
  const half = step.shape[1];
  const parts = [t('decoders.notes.rope_angles.why')];
  if (step.shape[0] > 1) {
    const w0 = step.data[half], wl = step.data[2 * half - 1];
    parts.push(t('decoders.notes.rope_angles.fact', { w0: num(w0, 3), wl: num(wl, 4), period: num((2 * Math.PI) / wl, 0) }));
  }
  return { text: parts.join(' '), tut: null };
}

// The band: the window from the last row (its allowed keys), and how many causal entries it hides.
function slidingNote(step) {
  const T = step.shape[0];
  let allowed = 0, lastRow = 0;
  for (let i = 0; i < T; i++) for (let j = 0; j <= i; j++) if (step.data[i * T + j] !== -Infinity) { allowed++; if (i === T - 1) lastRow++; }
  const causal = (T * (T + 1)) / 2;
  return { text: `${t('decoders.notes.sliding.why', { w: lastRow })} ${t('decoders.notes.sliding.fact', { blocked: causal - allowed, causal })}`, tut: null };
}

// q, k, v of a modern decoder: the head width from the queries, the K/V heads from k's columns.
function geometry(step, trace) {
  const layerQ = trace.steps.find((s) => s.role === 'q' && s.place.layer === step.place.layer);
  const H = trace.config.num_heads, hd = layerQ.shape[1] / H;
  const layerK = trace.steps.find((s) => s.role === 'k' && s.place.layer === step.place.layer);
  return { H, hd, KV: layerK.shape[1] / hd };
}
function qkvNote(step, trace) {
  const { H, hd, KV } = geometry(step, trace);
  const parts = [t(`notes.${step.role}.masked`), t('decoders.notes.qkv.heads', { cols: step.shape[1], h: step.role === 'q' ? H : KV, hd })];
  if (KV < H) {
    const per = H / KV;
    const groups = Array.from({ length: KV }, (_, k) => t('decoders.notes.gqa.group', { a: k * per, b: (k + 1) * per - 1, k })).join(', ');
    parts.push(t('decoders.notes.gqa.fact', { H, KV, groups }));
  }
  return { text: parts.join(' '), tut: null };
}

// The heads side by side: H·d_h columns (not d: Qwen3 and Gemma have d_h ≠ d/H), mapped back to d by W_O.
function concatNote(step, trace) {
  const H = step.inputs.length, hd = step.shape[1] / H;
  return { text: t('decoders.notes.concat.heads', { H, hd, cols: step.shape[1], d: trace.config.d_model }), tut: null };
}
// The scores of one head, and which K/V head it reads when heads share them.
function gqaScoresNote(step, trace) {
  const base = scoresNote(step, trace);
  const { H, KV } = geometry(step, trace);
  if (KV >= H) return base;
  const per = H / KV, k = Math.floor(step.head / per);
  return { text: `${base.text} ${t('decoders.notes.gqa.head', { h: step.head, k, a: k * per, b: (k + 1) * per - 1 })}`, tut: base.tut };
}

// The gated FFN: the share of nearly shut gates, the largest product.
function gateActNote(step) {
  let shut = 0;
  for (const x of step.data) if (Math.abs(x) < 0.1) shut++;
  return { text: `${t('decoders.notes.gate.why')} ${t('decoders.notes.gate_act.fact', { share: num((100 * shut) / step.data.length, 0), n: step.data.length })}`, tut: null };
}
function gatedNote(step, trace) {
  const v = Array.from(step.data).map(Math.abs), k = argmax(v), row = Math.floor(k / step.shape[1]);
  return { text: `${t('decoders.notes.gated.why')} ${t('decoders.notes.gated.fact', { max: num(step.data[k], 3), t: row, tok: tok(labelOfRow(trace, step, row)) })}`, tut: null };
}
const dims = (trace) => ({ d: trace.config.d_model, dff: trace.config.d_ff });
const BY_ROLE = {
  rms: rmsNote, attn_norm: rmsnormNote, ffn_norm: rmsnormNote, post_attn_norm: rmsnormNote, post_ffn_norm: rmsnormNote,
  q_norm: rmsnormNote, k_norm: rmsnormNote, q_rot: ropeNote, k_rot: ropeNote, rope_angles: ropeAnglesNote,
  sliding_mask: slidingNote, ffn_gate: () => ({ text: t('decoders.notes.gate.why'), tut: null }), ffn_gate_act: gateActNote,
  ffn_up: (s, tr) => ({ text: t('decoders.notes.up.why', dims(tr)), tut: null }),
  k_cache: kvNote, v_cache: kvNote,
};
function kvNote(step) {
  const T = step.shape[0];
  return { text: `${t('decoders.notes.kv_cache.why')} ${t('decoders.notes.kv_cache.fact', { last: T - 2, new: T - 1 })}`, tut: null };
}

// The note function of a modern decoder's step, or null (then the older models' table decides).
// Roles the older models share (q, k, v, ffn_hidden, ffn_out, input, output) are told apart by
// kind or by what feeds them, never by id.
export function decoderNoteFn(step, trace) {
  if (BY_ROLE[step.role]) return BY_ROLE[step.role];
  if (step.kind === 'rmsnorm') return rmsnormNote;
  if (step.kind === 'mul') return gatedNote;
  if (step.kind === 'scale') return () => ({ text: t('decoders.notes.scale.why', { s: num(embedScale(trace), 4) }), tut: null });
  const modern = trace.steps.some((s) => s.kind === 'rope' || s.kind === 'rmsnorm');
  if (modern && ['q', 'k', 'v'].includes(step.role)) return qkvNote;
  if (modern && step.role === 'concat') return concatNote;
  if (modern && step.role === 'scores') return gqaScoresNote;
  if (step.role === 'ffn_out' && trace.get(step.inputs[0])?.kind === 'mul') return (s, tr) => ({ text: t('decoders.notes.down.why', dims(tr)), tut: null });
  return null;
}
