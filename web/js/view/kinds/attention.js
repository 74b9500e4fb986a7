// kinds/attention.js — the pieces of scaled dot-product attention: raw scores, scaling and
// the mask, softmax as its three pieces (row max, sum of exp, the weights), the weighted sum
// of values and the concatenation of heads; and the mask itself, whose −∞ entries say why.
import { lay, val, rowIn, list, sumOf, dot, symOf, labelOf, fmt, term, paren } from './common.js';
import { exact } from '../../lib/format.js';
import { t as tr } from '../../lib/i18n.js';
import { headGeom } from './decoder.js';

const dkOf = (trace) => trace.config.d_model / trace.config.num_heads;

// Why key j is masked for query i of batch item b, from the mask's own axes.
export function maskReasons(trace, M, b, i, j) {
  const ax = M.axes || [];
  const qLab = ax.length >= 2 ? ax[ax.length - 2].labels : null, kLab = ax.length ? ax[ax.length - 1].labels : null;
  const causal = (qLab === kLab && kLab === 'target') || (qLab === 'source' && kLab === 'source' && trace.config.causal);
  const reasons = [];
  if (kLab === 'source') {
    const src = (trace.text.source_tokens || [])[b];
    const srcLen = src ? src.length : lay(trace, M).cols;
    if (j >= srcLen) reasons.push(tr('explain.mask.padding', { j, n: srcLen }));
  }
  if (causal && j > i) reasons.push(tr('explain.mask.causal', { i, j }));
  const w = M.role === 'sliding_mask' && trace.meta.checkpoint ? trace.meta.checkpoint.sliding_window : 0;
  if (w > 0 && j <= i - w) reasons.push(tr('decoders.explain.mask.window', { i, j, w }));
  return reasons;
}

function scores({ trace, step, L, R, c, v, lines, H, inp }) {
  const Q = inp(0), K = inp(1), h = step.head, { dk, kvHead } = headGeom(trace, Q, K), kh = kvHead(h);
  const b = Math.floor(R / L.per), i = R % L.per, kR = b * L.cols + c;
  const qs = [], ks = [], ps = [], qc = [], kc = [];
  for (let t = 0; t < dk; t++) {
    const col = h * dk + t, kcol = kh * dk + t;
    const x = val(trace, Q, R, col), y = val(trace, K, kR, kcol);
    qs.push(x); ks.push(y); ps.push(x * y);
    qc.push([R, col]); kc.push([kR, kcol]);
  }
  lines.push({ t: `S[${i}, ${c}] = Σₜ Q[${i}, ${h}·${dk}+t] · K[${c}, ${kh}·${dk}+t]   (${tr('explain.scores.head', { h, a: h * dk, b: (h + 1) * dk - 1 })}, t = 0 … ${dk - 1})`, cls: 'formula' });
  if (kh !== h) lines.push({ t: tr('decoders.explain.gqa.reads', { h, k: kh }), cls: 'muted' });
  dot(lines, qs.map(fmt), ks.map(fmt), ps);
  lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  lines.push({ t: tr('explain.scores.rows', { i, q: labelOf(trace, Q, R), j: c, k: labelOf(trace, K, kR), x: term(sumOf(ps)) }), cls: 'muted' });
  H.push({ id: Q.id, rows: [R], cells: qc });
  H.push({ id: K.id, rows: [kR], cells: kc });
  return sumOf(ps);
}

function scaleMask({ trace, L, R, c, v, lines, H, inp }) {
  const S = inp(0), M = inp(1), Q = trace.get(S.inputs[0]), { dk, mult } = headGeom(trace, Q, trace.get(S.inputs[1]));
  const s = val(trace, S, R, c);
  const Rm = rowIn(trace, M, R);
  const m = val(trace, M, Rm, c);
  const b = Math.floor(R / L.per), i = R % L.per;
  if (trace.config.scale && mult) {  // Gemma: query_pre_attn_scalar s_q instead of d_k
    lines.push({ t: `S̃[${i}, ${c}] = S[${i}, ${c}] / √s_q + M[${i}, ${c}]   (1/√s_q = ${exact(mult)})`, cls: 'formula' });
    lines.push({ t: `= ${paren(fmt(s))} · ${fmt(mult)} + ${paren(fmt(m))} = ${paren(term(s * mult))} + ${paren(fmt(m))}` });
  } else if (trace.config.scale) {
    lines.push({ t: `S̃[${i}, ${c}] = S[${i}, ${c}] / √d_k + M[${i}, ${c}]   (d_k = ${dk})`, cls: 'formula' });
    lines.push({ t: `= ${paren(fmt(s))} / √${dk} + ${paren(fmt(m))} = ${paren(term(s / Math.sqrt(dk)))} + ${paren(fmt(m))}` });
  } else {
    lines.push({ t: `S̃[${i}, ${c}] = S[${i}, ${c}] + M[${i}, ${c}]   (${tr('explain.scaled.off')})`, cls: 'formula' });
    lines.push({ t: `= ${paren(fmt(s))} + ${paren(fmt(m))}` });
  }
  lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  if (m === -Infinity) for (const r of maskReasons(trace, M, b, i, c)) lines.push({ t: tr('explain.masked', { reason: r }), cls: 'muted' });
  H.push({ id: S.id, cells: [[R, c]], rows: [R] });
  H.push({ id: M.id, cells: [[Rm, c]] });
  return (!trace.config.scale ? s : mult ? s * mult : s / Math.sqrt(dk)) + m;
}

function rowmax({ trace, L, R, v, lines, H, inp }) {
  const Z = inp(0);
  const row = [];
  let arg = 0;
  for (let j = 0; j < lay(trace, Z).cols; j++) {
    row.push(val(trace, Z, R, j));
    if (row[j] > row[arg]) arg = j;
  }
  lines.push({ t: `m = ${tr('explain.rowmax.of', { i: R % L.per, x: symOf(Z) })}`, cls: 'formula' });
  lines.push({ t: `= max(${list(row.map(fmt)).join(', ')})`, cls: 'terms' });
  lines.push({ t: `= ${exact(v)}   (${tr('explain.column', { c: arg })})`, cls: 'result' });
  lines.push({ t: tr('explain.rowmax.why'), cls: 'muted' });
  H.push({ id: Z.id, rows: [R], cells: [[R, arg]] });
  return Math.max(...row);
}

function rowsum({ trace, R, v, lines, H, inp }) {
  const Z = inp(0), Mx = inp(1);
  const m = val(trace, Mx, R, 0);
  const es = [], parts = [];
  let masked = false;
  for (let j = 0; j < lay(trace, Z).cols; j++) {
    const z = val(trace, Z, R, j);
    masked = masked || z === -Infinity;
    es.push(z === -Infinity ? 0 : Math.exp(z - m));
    parts.push(z === -Infinity ? 'e^(−∞)' : `e^(${fmt(z)} − ${paren(fmt(m))})`);
  }
  lines.push({ t: `s = Σⱼ exp(${symOf(Z)}[i, j] − m)   ${tr('explain.with', { what: `m = ${fmt(m)}` })}`, cls: 'formula' });
  lines.push({ t: list(parts).join(' + '), cls: 'terms' });
  lines.push({ t: '= ' + list(es.map(term)).join(' + '), cls: 'terms' });
  lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  if (masked) lines.push({ t: tr('explain.rowsum.masked'), cls: 'muted' });
  H.push({ id: Z.id, rows: [R] });
  H.push({ id: Mx.id, cells: [[R, 0]] });
  return sumOf(es);
}

function softmax({ trace, step, L, R, c, v, lines, H, inp }) {
  const Z = inp(0), Mx = inp(1), Sm = inp(2);
  const z = val(trace, Z, R, c), m = val(trace, Mx, R, 0), s = val(trace, Sm, R, 0);
  lines.push({ t: `${symOf(step)}[i, ${c}] = exp(${symOf(Z)}[i, ${c}] − m) / s`, cls: 'formula' });
  const e = z === -Infinity ? 0 : Math.exp(z - m);
  if (z === -Infinity) {
    lines.push({ t: `= exp(−∞ − ${paren(fmt(m))}) / ${fmt(s)} = 0 / ${fmt(s)}` });
  } else {
    lines.push({ t: `= exp(${fmt(z)} − ${paren(fmt(m))}) / ${fmt(s)}` });
    lines.push({ t: `= exp(${term(z - m)}) / ${fmt(s)} = ${term(e)} / ${fmt(s)}` });
  }
  lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  let rs = 0;
  for (let j = 0; j < L.cols; j++) rs += step.data[R * L.cols + j];
  lines.push({ t: tr('explain.softmax.rowSum', { x: term(rs) }), cls: 'muted' });
  H.push({ id: Z.id, rows: [R], cells: [[R, c]] });
  H.push({ id: Mx.id, cells: [[R, 0]] });
  H.push({ id: Sm.id, cells: [[R, 0]] });
  return e / s;
}

function context({ trace, step, L, R, c, v, lines, H, inp }) {
  const A = inp(0), V = inp(1), h = step.head, dk = step.shape[step.shape.length - 1];
  const b = Math.floor(R / L.per), i = R % L.per, Tk = lay(trace, A).cols;
  const kh = Math.floor(h / (trace.config.num_heads / (V.shape[V.shape.length - 1] / dk)));  // grouped-query: K/V head of h
  const col = kh * dk + c;
  const ws = [], vs = [], ps = [], vc = [];
  for (let j = 0; j < Tk; j++) {
    const w = val(trace, A, R, j), x = val(trace, V, b * Tk + j, col);
    ws.push(w); vs.push(x); ps.push(w * x);
    vc.push([b * Tk + j, col]);
  }
  lines.push({ t: `C_h[${i}, ${c}] = Σⱼ A[${i}, j] · V[j, ${kh}·${dk}+${c}]   (${tr('explain.context.head', { h: kh, col })}, j = 0 … ${Tk - 1})`, cls: 'formula' });
  if (kh !== h) lines.push({ t: tr('decoders.explain.gqa.reads', { h, k: kh }), cls: 'muted' });
  dot(lines, ws.map(fmt), vs.map(fmt), ps);
  lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  lines.push({ t: tr('explain.context.average', { i, x: term(sumOf(ps)) }), cls: 'muted' });
  H.push({ id: A.id, rows: [R] });
  H.push({ id: V.id, cols: [col], cells: vc });
  return sumOf(ps);
}

function concat({ trace, step, L, R, c, v, lines, H }) {
  const C0 = trace.get(step.inputs[0]), dk = C0 ? C0.shape[C0.shape.length - 1] : dkOf(trace), h = Math.floor(c / dk), t = c % dk;
  const Ch = trace.get(step.inputs[h]);
  lines.push({ t: `${tr('explain.concat.is', { c, h, t })}   (${tr('explain.concat.fills', { a: `h·${dk}`, b: `h·${dk}+${dk - 1}` })})`, cls: 'formula' });
  lines.push({ t: `= C_${h}[${R % L.per}, ${t}] = ${exact(v)}`, cls: 'result' });
  if (!Ch) return undefined;
  H.push({ id: Ch.id, cells: [[R, t]], rows: [R] });
  return val(trace, Ch, R, t);
}

function mask({ trace, step, L, R, c, v, lines }) {
  const b = Math.floor(R / L.per), i = R % L.per;
  const reasons = maskReasons(trace, step, b, i, c);
  lines.push({ t: tr('explain.mask.pair', { i, j: c }), cls: 'formula' });
  if (v === -Infinity) {
    for (const r of reasons) lines.push({ t: r });
    lines.push({ t: `= −∞: ${tr('explain.mask.blocked')}`, cls: 'result' });
  } else {
    lines.push({ t: `= 0: ${tr('explain.mask.allowed')}`, cls: 'result' });
  }
  return reasons.length ? -Infinity : 0;
}

export default {
  scores: { explain: scores, scale: 'diverging' },
  scale_mask: { explain: scaleMask, scale: 'diverging' },
  rowmax: { explain: rowmax, scale: 'diverging' },
  rowsum: { explain: rowsum, scale: 'sequential' },
  softmax: { explain: softmax, scale: 'prob' },
  context: { explain: context, scale: 'diverging' },
  concat: { explain: concat, scale: 'diverging' },
  mask: {
    explain: mask, scale: 'mask',
    get noInputs() { return tr('explain.mask.noInputs'); },
  },
};
