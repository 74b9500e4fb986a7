// map-decoder.js — how the architecture map (arch-map.js) draws a modern decoder (Llama, Qwen,
// Gemma 3) as it is: RMSNorm boxes (Gemma's four norms each named), the rotation and grouped-
// query attention in the attention block (which K/V head each query head reads, also in the head
// picker), the gated feed-forward network, Gemma's √d scale and its sliding-window layers. Read
// from the steps' kinds, roles and inputs only; null where the older models' words apply.
import { t } from '../lib/i18n.js';

const stepsOf = (b, trace) => b.steps.map((i) => trace.steps[i]);
const hasKind = (ss, k) => ss.some((s) => s.kind === k);

// The attention block's geometry: query heads, K/V heads, and whether its scores read the band.
export function attnInfo(b, trace) {
  const ss = stepsOf(b, trace);
  const q = ss.find((s) => s.role === 'q'), k = ss.find((s) => s.role === 'k');
  if (!q || !k || !hasKind(ss, 'rope')) return null;
  const H = trace.config.num_heads, hd = q.shape[q.shape.length - 1] / H, KV = k.shape[k.shape.length - 1] / hd;
  const sliding = ss.some((s) => (s.inputs || []).some((id) => trace.get(id)?.role === 'sliding_mask'));
  return { H, KV, hd, sliding, kvHead: (h) => Math.floor(h / (H / KV)), qkNorm: ss.some((s) => s.role === 'q_norm') };
}

// The words of block `b`, or null.
export function modernLabel(b, trace) {
  const ss = stepsOf(b, trace);
  if (b.type === 'norm' && hasKind(ss, 'rmsnorm')) {
    const r = ss.find((s) => s.kind === 'rmsnorm').role;
    return t(r === 'post_attn_norm' || r === 'post_ffn_norm' ? `decoders.map.${r}` : 'decoders.map.rmsnorm');
  }
  if (b.type === 'ffn' && hasKind(ss, 'mul')) return t('decoders.map.gatedFfn');
  if (b.type === 'stack_output' && hasKind(ss, 'rmsnorm')) return t('decoders.map.finalNorm');
  if (b.type === 'embed' && hasKind(ss, 'rope_angles')) return t(hasKind(ss, 'scale') ? 'decoders.map.embedScaled' : 'decoders.map.embed');
  if (b.type === 'mask' && ss.some((s) => s.role === 'sliding_mask')) return t('decoders.map.masks');
  if (b.type === 'self_attention') {
    const a = attnInfo(b, trace);
    if (a) return t(a.sliding ? 'decoders.map.attnSliding' : 'decoders.map.attn');
  }
  return null;
}

// The attention block's second line: the rotation, q/k norms, and which K/V head the query heads read.
export function attnNote(b, trace) {
  const a = b.type === 'self_attention' ? attnInfo(b, trace) : null;
  if (!a) return null;
  const per = a.H / a.KV;
  const kv = a.KV === a.H ? t('decoders.map.mha', { H: a.H })
    : t('decoders.map.gqa', { H: a.H, KV: a.KV, groups: Array.from({ length: a.KV }, (_, k) => `${k * per}–${(k + 1) * per - 1}→${k}`).join(', ') });
  return `${a.qkNorm ? t('decoders.map.qkNorm') + ' · ' : ''}${t('decoders.map.rope')} · ${kv}`;
}
