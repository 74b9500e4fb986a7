// kinds/decoder.js — the operations of the modern decoders (Llama, Qwen2/3, Gemma 3), one unit:
// RMSNorm's root mean square and the scaled row, the rotary angles and the rotation of q/k,
// the gated FFN's product, Gemma's embedding scale, and the key/value cache. Each explanation
// shows one cell's arithmetic with its real operands and returns the float64 value it gives.
import { val, list, sumOf, symOf, fmt, term, paren, prods, sums } from './common.js';
import { exact } from '../../lib/format.js';
import { t as tr } from '../../lib/i18n.js';

// Gemma scales a normalised row by (1 + γ); Llama and Qwen by γ (the checkpoint's model type).
export function gammaPlusOne(trace) {
  const ck = trace.meta && trace.meta.checkpoint;
  return !!(ck && ck.model_type === 'gemma3_text');
}

// The heads of attention from the shapes of Q and K ([.., H·d_k], [.., KV·d_k]): query head h
// reads K/V head h / (H/KV) (grouped-query attention; KV = H is ordinary multi-head attention).
// mult: what a checkpoint multiplies the scores by instead of 1/√d_k (Gemma: 1/√s_q), or 0.
export function headGeom(trace, Q, K) {
  const H = trace.config.num_heads, dk = Q.shape[Q.shape.length - 1] / H;
  const KV = K ? K.shape[K.shape.length - 1] / dk : H;
  const ck = trace.meta && trace.meta.checkpoint;
  return { H, dk, KV, kvHead: (h) => Math.floor(h / (H / KV)), mult: ck && ck.attn_scale > 0 ? ck.attn_scale : 0 };
}

// rms [T] (one per token: a row of T cells, cell c is token c) or [T, H] (per token and head,
// over that head's columns of a [T, H·hd] input): √(mean of squares + ε).
function rmsCell(trace, step, R, c) {
  const X = trace.get(step.inputs[0]);
  if (step.shape.length === 1) return { X, row: c, lo: 0, n: X.shape[X.shape.length - 1] };
  const n = X.shape[X.shape.length - 1] / step.shape[1];
  return { X, row: R, lo: c * n, n };
}
function rms({ trace, step, R, c, v, lines, H }) {
  const { X, row, lo, n } = rmsCell(trace, step, R, c);
  const eps = trace.config.layer_norm_eps;
  const xs = [];
  for (let j = lo; j < lo + n; j++) xs.push(val(trace, X, row, j));
  const ss = sumOf(xs.map((x) => x * x));
  lines.push({ t: `rms = √((1/${n}) Σ_c ${symOf(X)}[${row}, c]² + ε)   (c = ${lo} … ${lo + n - 1}, ε = ${exact(eps)})`, cls: 'formula' });
  lines.push({ t: list(xs.map((x) => `${paren(fmt(x))}²`)).join(' + '), cls: 'terms' });
  lines.push({ t: `= √(${term(ss)} / ${n} + ${exact(eps)}) = √${term(ss / n + eps)}` });
  lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  lines.push({ t: tr('decoders.explain.rms.noMean'), cls: 'muted' });
  H.push({ id: X.id, rows: [row], cells: xs.map((_, k) => [row, lo + k]) });
  return Math.sqrt(ss / n + eps);
}

// RMSNorm(x)[r, c] = x / rms[r] · γ[c] (Gemma: · (1 + γ[c])). The step's flat rows match the
// input's ([T, d], or [T·H, hd] over a [T, H·hd] input) and the rms step's cells one to one.
function rmsnorm({ trace, step, L, R, c, v, lines, H, inp }) {
  const X = inp(0), Rm = inp(1), G = inp(2);
  const x = X.data[R * L.cols + c], r = Rm.data[R];
  const g = G && G.data ? G.data[c] : 1;
  const one = gammaPlusOne(trace), scale = one ? 1 + g : g;
  const gs = one ? `(1 + γ[${c}])` : `γ[${c}]`;
  lines.push({ t: `${symOf(step)}[${R}, ${c}] = ${symOf(X)}[${R}, ${c}] / rms[${R}] · ${gs}`, cls: 'formula' });
  lines.push({ t: `= ${fmt(x)} / ${fmt(r)} · ${one ? `(1 + ${paren(fmt(g))})` : paren(fmt(g))}` });
  lines.push({ t: `= ${term(x / r)} · ${paren(term(scale))}` });
  lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  if (one) lines.push({ t: tr('decoders.explain.rmsnorm.gemma'), cls: 'muted' });
  H.push({ id: X.id, cells: [[R, c]] });
  const rmsL = trace.layout(Rm);
  H.push({ id: Rm.id, cells: [rmsL.rows === 1 ? [0, R] : [Math.floor(R / rmsL.cols), R % rmsL.cols]] });
  if (G) H.push({ id: G.id, cells: [[0, c]] });
  return (x / r) * scale;
}

// The rotation (rotate-half): in each head of d_h columns, column p (p < d_h/2) pairs with
// p + d_h/2, and the pair turns by θ[t, p] (angles [T, d_h/2]).
function rope({ trace, step, R, c, v, lines, H, inp }) {
  const X = inp(0), A = inp(1);
  const half = A.shape[1], hd = 2 * half;
  const h = Math.floor(c / hd), j = c % hd, p = j % half, first = j < half;
  const base = h * hd, ca = base + p, cb = base + p + half;
  const xa = X.data[R * step.shape[1] + ca], xb = X.data[R * step.shape[1] + cb];
  const th = val(trace, A, R, p), co = Math.cos(th), si = Math.sin(th);
  const y = first ? xa * co - xb * si : xa * si + xb * co;
  const sx = symOf(X);
  lines.push({ t: tr('decoders.explain.rope.pair', { h, p, a: ca, b: cb, th: fmt(th) }), cls: 'muted' });
  lines.push({ t: first ? `${symOf(step)}[${R}, ${c}] = ${sx}[${R}, ${ca}] · cos θ − ${sx}[${R}, ${cb}] · sin θ`
    : `${symOf(step)}[${R}, ${c}] = ${sx}[${R}, ${ca}] · sin θ + ${sx}[${R}, ${cb}] · cos θ`, cls: 'formula' });
  lines.push({ t: first ? `= ${fmt(xa)} · ${paren(term(co))} − ${paren(fmt(xb))} · ${paren(term(si))}`
    : `= ${fmt(xa)} · ${paren(term(si))} + ${paren(fmt(xb))} · ${paren(term(co))}` });
  lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  H.push({ id: X.id, cells: [[R, ca], [R, cb]].map(([r, k]) => (X.shape.length === 3 ? [r * X.shape[1] + Math.floor(k / X.shape[2]), k % X.shape[2]] : [r, k])) });
  H.push({ id: A.id, cells: [[R, p]] });
  return y;
}

// θ[t, p] = t · ω_p: linear in the position. ω_p is read from row 1 (position 1), so this
// checks that every row is that row times its position (the frequencies themselves, with
// any llama3/linear scaling, are the engine's: the step's formula and note say which).
function ropeAngles({ trace, step, R, c, v, lines, H }) {
  const w = step.shape[0] > 1 ? val(trace, step, 1, c) : undefined;
  lines.push({ t: `θ[${R}, ${c}] = ${R} · ω_${c}`, cls: 'formula' });
  if (w !== undefined) lines.push({ t: `= ${R} · ${fmt(w)}   (ω_${c} = θ[1, ${c}])` });
  lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  lines.push({ t: tr('decoders.explain.rope_angles.turns', { deg: fmt((v * 180) / Math.PI), cos: term(Math.cos(v)), sin: term(Math.sin(v)) }), cls: 'muted' });
  H.push({ id: step.id, cells: [[R, c]] });
  return w === undefined ? (R === 0 ? 0 : undefined) : R * w;
}

// The gated FFN's product: Z = act(G) ⊙ U, one cell of each.
function mul({ trace, step, R, c, v, lines, H, inp }) {
  const A = inp(0), B = inp(1);
  const a = val(trace, A, R, c), b = val(trace, B, R, c);
  lines.push({ t: `${symOf(step)}[${R}, ${c}] = ${symOf(A)}[${R}, ${c}] · ${symOf(B)}[${R}, ${c}]`, cls: 'formula' });
  lines.push({ t: `= ${fmt(a)} · ${paren(fmt(b))}` });
  lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  lines.push({ t: tr(Math.abs(a) < 0.1 ? 'decoders.explain.mul.closed' : 'decoders.explain.mul.open'), cls: 'muted' });
  H.push({ id: A.id, cells: [[R, c]] });
  H.push({ id: B.id, cells: [[R, c]] });
  return a * b;
}

// Gemma's embedding scale: X = √d · X_tok, √d as the engine applies it (the checkpoint's report:
// in the file's dtype, as Hugging Face computes it: √18 = 4.2426 is 4.25 in bfloat16).
export function embedScale(trace) {
  const ck = trace.meta && trace.meta.checkpoint, d = trace.config.d_model;
  return ck && ck.embed_scale > 0 ? ck.embed_scale : Math.sqrt(d);
}
function scale({ trace, R, c, v, lines, H, inp }) {
  const X = inp(0), d = trace.config.d_model, x = val(trace, X, R, c), s = embedScale(trace);
  lines.push({ t: `X[${R}, ${c}] = √${d} · ${symOf(X)}[${R}, ${c}]   (√${d} = ${exact(s)})`, cls: 'formula' });
  lines.push({ t: `= ${exact(s)} · ${paren(fmt(x))}` });
  lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  if (Math.abs(s - Math.sqrt(d)) > 1e-6 * s) lines.push({ t: tr('decoders.explain.scale.dtype', { exact: term(Math.sqrt(d)) }), cls: 'muted' });
  H.push({ id: X.id, cells: [[R, c]] });
  return s * x;
}

// The key/value cache: row t is the input step's row t, kept from the run in which position t
// was new (rows 0 … T−2) or computed in this run (row T−1).
function kvCache({ trace, step, R, c, v, lines, H, inp }) {
  const X = inp(0), x = val(trace, X, R, c);
  const last = R === step.shape[0] - 1;
  lines.push({ t: tr(last ? 'decoders.explain.kv_cache.new' : 'decoders.explain.kv_cache.kept', { t: R }), cls: 'muted' });
  lines.push({ t: `${symOf(step)}[${R}, ${c}] = ${symOf(X)}[${R}, ${c}]`, cls: 'formula' });
  lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  H.push({ id: X.id, cells: [[R, c]] });
  return x;
}

// ---- backward rules (kinds/grad.js): how ∂L/∂Y reaches the cell f of input k of Y ------------
// (the same rules as the core's backward pass: core/trace/op_rmsnorm.cpp, op_rope.cpp, op_gated.cpp)
const lastDim = (t) => t.shape[t.shape.length - 1];
// rms[r] = √(Σ x²/n + ε) over n columns: ∂rms/∂x = x / (n · rms).
function rmsGrad({ trace, Y, dY, X, f }) {
  const w = lastDim(X), t = Math.floor(f / w);
  const n = Y.shape.length === 1 ? w : w / Y.shape[1], r = Y.shape.length === 1 ? t : t * Y.shape[1] + Math.floor((f % w) / n);
  return prods(`∂L/∂rms[${r}] · x / (${n} · rms[${r}])`, [dY.data[r]], [X.data[f] / (n * Y.data[r])]);
}
// y = x / rms · g (g = γ, Gemma 1 + γ); the rms is an input of its own (its rule above).
function rmsnormGrad({ trace, Y, dY, k, f }) {
  const x = trace.get(Y.inputs[0]), R = trace.get(Y.inputs[1]), G = trace.get(Y.inputs[2]);
  const d = lastDim(Y), rows = Y.data.length / d, off = gammaPlusOne(trace) ? 1 : 0;
  const g = (c) => off + G.data[c];
  if (k === 0) {
    const r = Math.floor(f / d), c = f % d;
    return prods(`∂L/∂y · ${off ? '(1 + γ)' : 'γ'}[${c}] / rms[${r}]`, [dY.data[f] * g(c)], [1 / R.data[r]]);
  }
  const a = [], b = [];
  if (k === 1) {
    for (let c = 0; c < d; c++) { a.push(dY.data[f * d + c]); b.push((-x.data[f * d + c] * g(c)) / (R.data[f] * R.data[f])); }
    return prods(`−Σ_c ∂L/∂y[${f}, c] · x[${f}, c] · g[c] / rms[${f}]²`, a, b);
  }
  for (let r = 0; r < rows; r++) { a.push(dY.data[r * d + f]); b.push(x.data[r * d + f] / R.data[r]); }
  return prods(`Σᵣ ∂L/∂y[r, ${f}] · x[r, ${f}] / rms[r]`, a, b);
}
// The rotation's transpose: a pair turned back by −θ.
function ropeGrad({ trace, Y, dY, k, f }) {
  const A = trace.get(Y.inputs[1]), half = A.shape[1], hd = 2 * half, w = lastDim(Y);
  if (k !== 0) return { v: 0, text: '0', terms: [] };
  const t = Math.floor(f / w), c = f % w, j = c % hd, p = j % half, base = t * w + c - j;
  const th = A.data[t * half + p], co = Math.cos(th), si = Math.sin(th);
  const ga = dY.data[base + p], gb = dY.data[base + p + half];
  return j < half ? prods(`∂L/∂y[${t}, ${c}]·cos θ + ∂L/∂y[${t}, ${c + half}]·sin θ`, [ga, gb], [co, si])
    : prods(`−∂L/∂y[${t}, ${c - half}]·sin θ + ∂L/∂y[${t}, ${c}]·cos θ`, [ga, gb], [-si, co]);
}

export const DECODER_RULES = {
  rms: rmsGrad,
  rmsnorm: rmsnormGrad,
  rope: ropeGrad,
  mul: ({ trace, Y, dY, k, f }) => {
    const O = trace.get(Y.inputs[1 - k]);
    return prods(`∂L/∂${symOf(Y)} · ${symOf(O)}`, [dY.data[f]], [O.data[f]]);
  },
  scale: ({ trace, dY, f }) => prods(`∂L/∂X · √${trace.config.d_model}`, [dY.data[f]], [embedScale(trace)]),
  kv_cache: ({ dY, f }) => sums('∂L/∂cache', [dY.data[f]]),
};

export default {
  rms: { explain: rms, scale: 'sequential' },
  rmsnorm: { explain: rmsnorm, scale: 'diverging' },
  rope: { explain: rope, scale: 'diverging' },
  rope_angles: { explain: ropeAngles, scale: 'sequential', get noInputs() { return tr('decoders.explain.rope_angles.noInputs'); } },
  mul: { explain: mul, scale: 'diverging' },
  scale: { explain: scale, scale: 'diverging' },
  kv_cache: { explain: kvCache, scale: 'diverging' },
};
