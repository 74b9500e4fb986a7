// kinds/grad.js — the backward pass's steps (docs/trace.md, "Backward pass"): the loss, and
// dL/dX for every step and parameter X. A gradient cell is a sum over the steps X feeds
// (the chain rule): for each such step Y (found through the grad step's inputs, each a
// grad.Y whose `of` names Y), the term dY reaches X by — the same rule the core's backward
// pass applies to Y's kind (core/trace/backward.cpp) — shown with the real numbers of the forward
// step it came from. explain() returns the float64 sum of the terms it shows.
import { sumOf, fmt, term, paren, list, symOf, quoted, prods, sums } from './common.js';
import { exact } from '../../lib/format.js';
import { t as tr } from '../../lib/i18n.js';
import { wordSection } from '../../model/stack.js';
import { headGeom, DECODER_RULES } from './decoder.js';

const size = (t) => t.data.length;
const last = (t) => t.shape[t.shape.length - 1];

// Each rule: (ctx) → {v, text, terms} — ctx: {trace, Y, dY, X, k (X = Y.inputs[k]), f (flat
// index in X)}; v the contribution, text the formula with the index, terms the products.
const RULES = {
  ...DECODER_RULES,
  linear({ trace, Y, dY, X, k, f }) {
    const W = trace.get(Y.inputs[1]);
    const n = W.shape[0], m = W.shape[1], rows = size(Y) / m;
    if (k === 0) {
      const r = Math.floor(f / n), c = f % n;
      const a = [], b = [];
      for (let o = 0; o < m; o++) { a.push(dY.data[r * m + o]); b.push(W.data[c * m + o]); }
      return prods(`Σₒ ∂L/∂${symOf(Y)}[${r}, o] · ${symOf(W)}[${c}, o]   (dY·Wᵀ)`, a, b);
    }
    if (k === 1) {
      const x = trace.get(Y.inputs[0]);
      const c = Math.floor(f / m), o = f % m;
      const a = [], b = [];
      for (let r = 0; r < rows; r++) { a.push(x.data[r * n + c]); b.push(dY.data[r * m + o]); }
      return prods(`Σᵣ ${symOf(x)}[r, ${c}] · ∂L/∂${symOf(Y)}[r, ${o}]   (Xᵀ·dY)`, a, b);
    }
    const a = [];
    for (let r = 0; r < rows; r++) a.push(dY.data[r * m + f]);
    return sums(`Σᵣ ∂L/∂${symOf(Y)}[r, ${f}]   (${tr('explain.grad.biasRows')})`, a);
  },
  add({ Y, dY, X, f }) {
    const a = [];
    for (let i = f; i < size(Y); i += size(X)) a.push(dY.data[i]);
    return sums(tr('explain.grad.samePlace', { y: `∂L/∂${symOf(Y)}` }) + (a.length > 1 ? ` (${tr('explain.grad.summedSentences')})` : ''), a);
  },
  copy({ Y, dY, f }) {
    return sums(tr('explain.grad.samePlace', { y: `∂L/∂${symOf(Y)}` }), [dY.data[f]]);
  },
  pool({ Y, dY, X, f }) {
    const dm = last(X), T = X.shape[X.shape.length - 2];
    const b = Math.floor(f / (T * dm)), t = Math.floor(f / dm) % T, c = f % dm;
    if (t !== 0) return { v: 0, text: `0 (${tr('explain.grad.notPooled')})`, terms: [] };
    return sums(`∂L/∂${symOf(Y)}[${b}, ${c}] (${tr('explain.grad.pooled')})`, [dY.data[b * dm + c]]);
  },
  layernorm({ trace, Y, dY, k, f }) {
    const x = trace.get(Y.inputs[0]), mu = trace.get(Y.inputs[1]), va = trace.get(Y.inputs[2]), g = trace.get(Y.inputs[3]);
    const d = last(x), rows = size(Y) / d, eps = trace.config.layer_norm_eps;
    const rstd = (r) => 1 / Math.sqrt(va.data[r] + eps);
    if (k === 0) {
      const r = Math.floor(f / d), c = f % d;
      return prods(`∂L/∂y · γ[${c}] · r   (r = 1/√(σ²+ε) = ${fmt(rstd(r))})`, [dY.data[f] * g.data[c]], [rstd(r)]);
    }
    if (k === 1 || k === 2) {
      const r = f, a = [], b = [];
      for (let c = 0; c < d; c++) {
        const xc = x.data[r * d + c] - mu.data[r];
        a.push(dY.data[r * d + c] * g.data[c]);
        b.push(k === 1 ? -rstd(r) : -0.5 * rstd(r) ** 3 * xc);
      }
      return prods(k === 1 ? `Σ_c (∂L/∂y·γ)[c] · (−r)` : `Σ_c (∂L/∂y·γ)[c] · (−½ r³ (x − μ)[c])`, a, b);
    }
    const a = [], b = [];
    for (let r = 0; r < rows; r++) {
      a.push(dY.data[r * d + f]);
      b.push(k === 3 ? (x.data[r * d + f] - mu.data[r]) * rstd(r) : 1);
    }
    return k === 3 ? prods(`Σᵣ ∂L/∂y[r, ${f}] · x̂[r, ${f}]`, a, b) : sums(`Σᵣ ∂L/∂y[r, ${f}]`, a);
  },
  var({ trace, Y, dY, k, f }) {
    const x = trace.get(Y.inputs[0]), mu = trace.get(Y.inputs[1]);
    const d = last(x);
    if (k === 0) {
      const r = Math.floor(f / d);
      return prods(`∂L/∂σ²[${r}] · 2(x − μ)/d`, [dY.data[r]], [(2 * (x.data[f] - mu.data[r])) / d]);
    }
    let s = 0;
    for (let c = 0; c < d; c++) s += x.data[f * d + c] - mu.data[f];
    return prods(`∂L/∂σ²[${f}] · (−2/d) Σ (x − μ)`, [dY.data[f]], [(-2 * s) / d]);
  },
  mean({ Y, dY, X, f }) {
    const d = last(X), r = Math.floor(f / d);
    return prods(`∂L/∂μ[${r}] / d`, [dY.data[r]], [1 / d]);
  },
  softmax({ trace, Y, dY, k, f }) {
    const n = last(Y), y = symOf(Y), z = symOf(trace.get(Y.inputs[0]));
    if (k === 0 && (dY.inputs || []).includes('loss')) return lossSoftmax(Y, dY, f);
    if (k === 0) return prods(`∂L/∂${y} · ${y}   (${tr('explain.grad.held', { f: `exp(${z} − m)/s` })})`, [dY.data[f]], [Y.data[f]]);
    const s = trace.get(Y.inputs[2]);
    const a = [], b = [];
    for (let j = 0; j < n; j++) { a.push(dY.data[f * n + j]); b.push(-Y.data[f * n + j] / (k === 1 ? 1 : s.data[f])); }
    return prods(k === 1 ? `−Σⱼ ∂L/∂${y}[${f}, j] · ${y}[${f}, j]` : `−Σⱼ ∂L/∂${y}[${f}, j] · ${y}[${f}, j] / s[${f}]`, a, b);
  },
  rowmax({ trace, Y, dY, X, f }) {
    const n = last(X), r = Math.floor(f / n);
    let arg = 0;
    for (let j = 1; j < n; j++) if (X.data[r * n + j] > X.data[r * n + arg]) arg = j;
    if (arg !== f % n) return { v: 0, text: `0 (${tr('explain.grad.notMax')})`, terms: [] };
    return sums(`∂L/∂m[${r}] (${tr('explain.grad.isMax')})`, [dY.data[r]]);
  },
  rowsum({ trace, Y, dY, X, k, f }) {
    if (k === 1) return prods(`−∂L/∂s[${f}] · s[${f}]`, [dY.data[f]], [-Y.data[f]]);
    const m = trace.get(Y.inputs[1]), n = last(X), r = Math.floor(f / n);
    if (X.data[f] === -Infinity) return { v: 0, text: `0 (${tr('explain.grad.masked')})`, terms: [] };
    return prods(`∂L/∂s[${r}] · exp(${symOf(X)} − m)`, [dY.data[r]], [Math.exp(X.data[f] - m.data[r])]);
  },
  scale_mask({ trace, Y, dY, f }) {
    const M = trace.get(Y.inputs[1]);
    if (M.data[f] !== 0) return { v: 0, text: `0 (${tr('explain.grad.maskedScore')})`, terms: [] };
    const S = trace.get(Y.inputs[0]), { dk, mult } = headGeom(trace, trace.get(S.inputs[0]), trace.get(S.inputs[1]));
    const c = trace.config, s = !c.scale ? 1 : mult || 1 / Math.sqrt(dk);
    return prods(`∂L/∂S̃ · ${!c.scale ? '1' : mult ? '1/√s_q' : '1/√d_k'}`, [dY.data[f]], [s]);
  },
  // Query head h reads K/V head kh (grouped-query attention; kh = h when every head has its own).
  scores({ trace, Y, dY, k, f }) {
    const Q = trace.get(Y.inputs[0]), K = trace.get(Y.inputs[1]), h = Y.place.head;
    const { dk, kvHead } = headGeom(trace, Q, K), kh = kvHead(h);
    const Tq = Y.shape[Y.shape.length - 2], Tk = last(Y);
    const X = k === 0 ? Q : K, O = k === 0 ? K : Q, T = X.shape[X.shape.length - 2], d = last(X), dO = last(O);
    const c0 = (k === 0 ? h : kh) * dk, o0 = (k === 0 ? kh : h) * dk;
    const b = Math.floor(f / (T * d)), i = Math.floor(f / d) % T, c = f % d;
    if (c < c0 || c >= c0 + dk) return { v: 0, text: `0 (${tr('explain.grad.otherHead', { c, h: k === 0 ? h : kh })})`, terms: [] };
    const a = [], o = [];
    const n = k === 0 ? Tk : Tq;
    for (let j = 0; j < n; j++) {
      a.push(k === 0 ? dY.data[(b * Tq + i) * Tk + j] : dY.data[(b * Tq + j) * Tk + i]);
      o.push(O.data[(b * n + j) * dO + o0 + c - c0]);
    }
    return prods(k === 0 ? `Σⱼ ∂L/∂S[${i}, j] · K[j, ${o0 + c - c0}]` : `Σᵢ ∂L/∂S[i, ${i}] · Q[i, ${o0 + c - c0}]`, a, o);
  },
  context({ trace, Y, dY, k, f }) {
    const A = trace.get(Y.inputs[0]), V = trace.get(Y.inputs[1]);
    const d = last(V), dk = last(Y), H = trace.config.num_heads, c0 = Math.floor(Y.place.head / (H / (d / dk))) * dk;  // its K/V head's columns
    const Tq = Y.shape[Y.shape.length - 2], Tk = last(A);
    if (k === 0) {
      const b = Math.floor(f / (Tq * Tk)), i = Math.floor(f / Tk) % Tq, j = f % Tk;
      const a = [], o = [];
      for (let t = 0; t < dk; t++) { a.push(dY.data[(b * Tq + i) * dk + t]); o.push(V.data[(b * Tk + j) * d + c0 + t]); }
      return prods(`Σₜ ∂L/∂C_h[${i}, t] · V[${j}, ${c0} + t]`, a, o);
    }
    const b = Math.floor(f / (Tk * d)), j = Math.floor(f / d) % Tk, c = f % d;
    if (c < c0 || c >= c0 + dk) return { v: 0, text: `0 (${tr('explain.grad.otherHead', { c, h: Y.place.head })})`, terms: [] };
    const a = [], o = [];
    for (let i = 0; i < Tq; i++) { a.push(A.data[(b * Tq + i) * Tk + j]); o.push(dY.data[(b * Tq + i) * dk + c - c0]); }
    return prods(`Σᵢ A[i, ${j}] · ∂L/∂C_h[i, ${c - c0}]`, a, o);
  },
  concat({ Y, dY, X, k, f }) {
    const dk = last(X), d = last(Y), r = Math.floor(f / dk);
    return sums(`∂L/∂C[${r}, ${k * dk + (f % dk)}] (${tr('explain.grad.headColumns', { h: k })})`, [dY.data[r * d + k * dk + (f % dk)]]);
  },
  activation({ trace, Y, dY, X, f }) {
    const v = X.data[f], act = activationOf(trace, Y);
    if (act === 'gelu') {
      const slope = 0.5 * (1 + erf(v / Math.SQRT2)) + v * Math.exp(-0.5 * v * v) / Math.sqrt(2 * Math.PI);
      return prods(`∂L/∂y · GELU′(x)   (Φ(x) + x·φ(x), x = ${fmt(v)})`, [dY.data[f]], [slope]);
    }
    if (act === 'gelu_new') {
      const c = Math.sqrt(2 / Math.PI), th = Math.tanh(c * (v + 0.044715 * v * v * v));
      const slope = 0.5 * (1 + th) + 0.5 * v * (1 - th * th) * c * (1 + 3 * 0.044715 * v * v);
      return prods(`∂L/∂y · GELU_tanh′(x)   (x = ${fmt(v)})`, [dY.data[f]], [slope]);
    }
    if (act === 'silu') {
      const sg = 1 / (1 + Math.exp(-v));
      return prods(`∂L/∂y · SiLU′(x)   (σ(x)·(1 + x·(1 − σ(x))), x = ${fmt(v)})`, [dY.data[f]], [sg * (1 + v * (1 - sg))]);
    }
    if (act === 'tanh') return prods(`∂L/∂y · (1 − y²)   (y = ${fmt(Y.data[f])})`, [dY.data[f]], [1 - Y.data[f] * Y.data[f]]);
    return prods(`∂L/∂y · [x > 0]   (x = ${fmt(v)})`, [dY.data[f]], [v > 0 ? 1 : 0]);
  },
  lookup({ trace, Y, dY, X, k, f }) {
    const d = last(Y), rows = size(Y) / d, row = Math.floor(f / d), c = f % d;
    const ids = k === 1 ? trace.get(Y.inputs[0]) : null;
    const a = [];
    for (let r = 0; r < rows; r++) if ((ids ? ids.data[r] : r) === row) a.push(dY.data[r * d + c]);
    return sums(`Σ ∂L/∂${symOf(Y)}[t, ${c}]   (${tr('explain.grad.readers', { n: a.length, row })})`, a);
  },
  logits({ trace, Y, dY, k, f }) {
    const Z = trace.get(Y.inputs[0]), E = trace.get(Y.inputs[1]);
    const d = last(Z), V = last(Y), S = size(Z) / d;
    const a = [], o = [];
    if (k === 0) {
      const t = Math.floor(f / d), c = f % d;
      for (let v = 0; v < V; v++) { a.push(dY.data[t * V + v]); o.push(E.data[v * d + c]); }
      return prods(`Σᵥ ∂L/∂z[${t}, v] · E[v, ${c}]`, a, o);
    }
    if (k === 2) {  // a checkpoint's masked-LM decoder bias: every row's ∂L/∂z of its column
      for (let t = 0; t < S; t++) a.push(dY.data[t * V + f]);
      return sums(`Σₜ ∂L/∂z[t, ${f}]`, a);
    }
    const v = Math.floor(f / d), c = f % d;
    for (let t = 0; t < S; t++) { a.push(dY.data[t * V + v]); o.push(Z.data[t * d + c]); }
    return prods(`Σₜ ∂L/∂z[t, ${v}] · ${symOf(Z)}[t, ${c}]`, a, o);
  },
};

// The softmax the loss reads, with the loss as one function of z (core/trace/backward.cpp,
// back_softmax_loss): ∂L/∂z[r, j] = w·(p[r, j] − [j = y_r]), w = 1/N, N the rows with a label
// (each is the one nonzero entry of its row of ∂L/∂p); p_y − 1 is −Σ_{j≠y} p[r, j], which keeps
// its digits when p_y ≈ 1, where p_y − 1 in float32 would not.
function lossSoftmax(Y, dY, f) {
  const n = last(Y), r = Math.floor(f / n), j = f % n, rows = size(Y) / n;
  const label = (q) => {
    for (let c = 0; c < n; c++) if (dY.data[q * n + c] !== 0) return c;
    return -1;
  };
  let N = 0;
  for (let q = 0; q < rows; q++) N += label(q) >= 0 ? 1 : 0;
  const y = label(r);
  if (y < 0) return { v: 0, text: `0 (${tr('explain.grad.noLabelRow', { r })})`, terms: [] };
  if (j !== y) return prods(`(1/N)·p[${r}, ${j}]   (N = ${N}; ${tr('explain.grad.ceOther', { y })})`, [1 / N], [Y.data[f]]);
  const others = [];
  for (let c = 0; c < n; c++) if (c !== y) others.push(Y.data[r * n + c]);
  return prods(`−(1/N)·Σ_{j≠${y}} p[${r}, j]   (N = ${N}; ${tr('explain.grad.ceRight')})`, others.map(() => -1 / N), others);
}


// The function an activation step applies: a pooler's own (BERT: tanh, DistilBERT's
// pre-classifier: ReLU; the core's formula says which), every other the model's.
export function activationOf(trace, Y) {
  if (Y.role === 'pooler') return Y.formula && Y.formula.startsWith('\\tanh') ? 'tanh' : 'relu';
  if (trace.config.activation == null && Y.role === 'ffn_gate_act') return 'silu';  // Llama, Qwen
  return trace.config.activation;
}

// Abramowitz–Stegun 7.1.26 is not exact enough for a 1e-5 check: erf by its series / continued
// fraction in float64 (|error| < 1e-15 for the arguments that occur).
export function erf(x) {
  const s = Math.sign(x), a = Math.abs(x);
  if (a < 3) {
    let sum = a, t = a;
    for (let n = 1; n < 80; n++) {
      t *= (-a * a) / n;
      sum += t / (2 * n + 1);
    }
    return (s * 2 * sum) / Math.sqrt(Math.PI);
  }
  let cf = 0;
  for (let n = 60; n >= 1; n--) cf = n / 2 / (a + cf);
  return s * (1 - Math.exp(-a * a) / Math.sqrt(Math.PI) / (a + cf));
}

// The loss's seed: dL/dp[t, y_t] = −(1/N)/p for the right answer y_t of each row.
function lossSeed(trace, X, f) {
  const tgt = trace.text.target_tokens || [];
  const vocab = trace.text.vocab || [];
  const n = last(X), r = Math.floor(f / n), c = f % n;
  const labels = tgt.slice(1).concat(['</s>']).map((t) => vocab.indexOf(t));
  if (!tgt.length || labels.length !== size(X) / n) return null; // a classifier: its label is not in the trace
  if (labels[r] !== c) return { v: 0, text: `0 (${tr('explain.grad.wrongAnswer', { tok: quoted(trace.piece(vocab[c])), r, right: quoted(trace.piece(vocab[labels[r]])) })})`, terms: [] };
  const N = labels.length;
  return prods(`−(1/N)/p[${r}, ${c}]   (N = ${N}; ${tr('explain.grad.rightAnswer', { tok: quoted(trace.piece(vocab[c])) })})`, [-1 / N], [1 / X.data[f]]);
}

// A forward step named for a reader: its symbol and where it sits (section, layer, head).
function stepName(trace, Y) {
  if (!Y) return '?';
  const p = Y.place || {};
  const where = [];
  if (p.section === 'encoder' || p.section === 'decoder') where.push(tr(`explain.place.${wordSection(p.section, trace)}${p.layer >= 0 ? 'Layer' : ''}`, { l: p.layer }));
  if (p.head >= 0) where.push(tr('explain.place.head', { h: p.head }));
  return where.length ? `${symOf(Y, trace)} (${where.join(', ')})` : symOf(Y, trace);
}

function gradExplain({ trace, step, L, R, c, v, lines, H }) {
  const X = trace.get(step.of);
  if (!X || !X.data) return undefined;
  const f = R * L.cols + c;
  const feeds = step.inputs.filter((id) => ['grad', 'loss'].includes(trace.get(id)?.kind)).length;
  lines.push({ t: tr('explain.grad.chain', { x: symOf(X), n: feeds, v: fmt(X.data[f]) }), cls: 'formula' });
  let total = 0, complete = true;
  for (const id of step.inputs) {
    if (trace.get(id)?.kind === 'loss') {
      const s = lossSeed(trace, X, f);
      if (!s) { complete = false; lines.push({ t: tr('explain.grad.fromLoss', { text: `−(1/N)/p (${tr('explain.grad.noLabel')})` }) }); continue; }
      lines.push({ t: tr('explain.grad.fromLoss', { text: s.text }), cls: 'terms' });
      total += s.v;
      continue;
    }
    const dY = trace.get(id);
    if (!dY || dY.kind !== 'grad') continue;
    const Y = trace.get(dY.of);
    const rule = Y && RULES[Y.kind];
    if (!rule) { complete = false; lines.push({ t: tr('explain.grad.from', { y: stepName(trace, Y), text: tr('explain.grad.noRule') }) }); continue; }
    Y.inputs.forEach((inId, k) => {
      if (inId !== X.id) return;
      const s = rule({ trace, Y, dY, X, k, f });
      lines.push({ t: tr('explain.grad.from', { y: stepName(trace, Y), text: s.text }), cls: 'terms' });
      for (const t of s.terms) lines.push({ t: `   = ${t}`, cls: 'terms' });
      lines.push({ t: `   = ${term(s.v)}` });
      total += s.v;
    });
    H.push({ id, rows: [], cells: [] });
  }
  lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  if (complete) lines.push({ t: tr('explain.grad.check', { x: term(total) }), cls: 'muted' });
  return complete ? total : undefined;
}

// −log p_y as the core computes it: −log1p(−Σ_{j≠y} p_j) for a confident answer (p_y > 0.5).
function nll(P, r, n, y) {
  const p = P.data[r * n + y];
  if (!(p > 0.5)) return -Math.log(p);
  let rest = 0;
  for (let c = 0; c < n; c++) if (c !== y) rest += P.data[r * n + c];
  return -Math.log1p(-rest);
}

// L = −(1/N) Σ log p[t, y_t] (an encoder–decoder; a classifier's label is not in the trace).
function lossExplain({ trace, step, v, lines, H }) {
  const P = trace.get(step.inputs[0]);
  const tgt = trace.text.target_tokens || [];
  const vocab = trace.text.vocab || [];
  if (!P || !tgt.length) return undefined;
  const n = last(P);
  const labels = tgt.slice(1).concat(['</s>']).map((t) => vocab.indexOf(t));
  if (labels.length !== size(P) / n || labels.includes(-1)) return undefined;
  const terms = labels.map((y, r) => nll(P, r, n, y));
  lines.push({ t: `L = −(1/${labels.length}) Σₜ log p[t, yₜ]   (yₜ: ${labels.map((y) => trace.piece(vocab[y])).join(' ')})`, cls: 'formula' });
  lines.push({ t: list(labels.map((y, r) => `−log ${fmt(P.data[r * n + y])}`)).join(' + '), cls: 'terms' });
  lines.push({ t: `= (${list(terms.map((x) => term(x))).join(' + ')}) / ${labels.length}`, cls: 'terms' });
  lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  H.push({ id: P.id, cells: labels.map((y, r) => [r, y]) });
  return sumOf(terms) / labels.length;
}

export default {
  grad: { explain: gradExplain, scale: 'diverging', get noInputs() { return tr('explain.grad.noInputs'); } },
  loss: { explain: lossExplain, scale: 'sequential' },
};
