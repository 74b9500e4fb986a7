// explain.js — every number explains itself: for one cell of a step, the arithmetic that
// produced it written out with the real numbers of its inputs (the dot product's terms,
// softmax's exp and sum, LayerNorm's mean and variance, the residual's two addends), and
// which rows/columns/cells of the input tensors to highlight. The result shown is always
// the recorded value; the terms are read from the recorded inputs, never invented.
import { matrixLayout } from './matrix.js';
import { fmt, exact, term, paren } from './format.js';

const MAX_TERMS = 8;

function lay(trace, t) {
  return matrixLayout(t, trace.B, trace.isBatched(t.id));
}
function val(trace, t, R, c) {
  const L = lay(trace, t);
  return t.data[R * L.cols + c];
}
// An operand may have fewer flat rows than the step (positional [T,d] beside a batch):
// rows repeat per batch item.
function rowIn(trace, t, R) {
  const L = lay(trace, t);
  return R % L.rows;
}

function list(items, max = MAX_TERMS) {
  if (items.length <= max) return items;
  const head = items.slice(0, max - 2);
  return [...head, `… (${items.length - max + 1} more)`, items[items.length - 1]];
}
function sumOf(xs) {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}

// The token a flat row stands for, for the readout header.
function rowName(trace, t, R) {
  const L = lay(trace, t);
  const b = Math.floor(R / L.per), i = R % L.per;
  const ax = trace.axes(t.id).rows;
  const labels = trace.labelsFor(ax, b);
  const tok = labels && labels[i] !== undefined ? ` “${labels[i]}”` : '';
  const batch = L.batches > 1 ? `sentence ${b + 1}, ` : '';
  return { b, i, text: `${batch}row ${i}${tok}` };
}
function colName(trace, t, c) {
  const ax = trace.axes(t.id).cols;
  const labels = trace.labelsFor(ax, 0);
  return labels && labels[c] !== undefined ? `column ${c} “${labels[c]}”` : `column ${c}`;
}

// A short symbol for a tensor in arithmetic text.
export function sym(id) {
  const parts = id.split('.');
  let last = parts.pop();
  if (['mean', 'var', 'gamma', 'beta', 'rowmax', 'rowsum'].includes(last) && parts.length) {
    const owner = parts[parts.length - 1];
    const sub = { ln1: '₁', ln2: '₂', ln3: '₃' }[owner] || '';
    return ({ mean: 'μ', var: 'σ²', gamma: 'γ', beta: 'β', rowmax: 'm', rowsum: 's' })[last] + sub;
  }
  if (last === 'probs') last = 'probs';
  const map = { q: 'Q', k: 'K', v: 'V', W_q: 'W_Q', W_k: 'W_K', W_v: 'W_V', W_o: 'W_O', b_q: 'b_Q', b_k: 'b_K', b_v: 'b_V', b_o: 'b_O',
    W_1: 'W₁', b_1: 'b₁', W_2: 'W₂', b_2: 'b₂', concat: 'C', scores: 'S', scaled: 'S̃', weights: 'A', context: 'C_h',
    embedding_table: 'E', position_table: 'P', gamma: 'γ', beta: 'β', mean: 'μ', var: 'σ²', rowmax: 'm', rowsum: 's',
    attention_mask: 'M', decoder_mask: 'M', cross_mask: 'M', ffn_pre: 'H', ffn_hidden: 'h', input: 'X', output: 'Y',
    decoder_output: 'Z', decoder_input: 'Y', embedding: 'X_tok', positional: 'PE', logits: 'z', pooled: 'h',
    ln1: 'LN₁', ln2: 'LN₂', ln3: 'LN₃', residual1: 'R₁', residual2: 'R₂', residual3: 'R₃', attn_out: 'MHA',
    ffn_out: 'F', embedding_sum: 'X_sum', token_ids: 'id', probs: 'p', W: 'W', b: 'b' };
  return map[last] || id;
}

function maskReason(trace, maskId, b, i, j) {
  const causal = maskId === 'decoder_mask' || (maskId === 'attention_mask' && trace.config.causal);
  const keyTokens = maskId === 'decoder_mask' ? trace.targetTokens() : trace.sourceTokens(maskId === 'cross_mask' ? 0 : b);
  const srcLen = trace.text.source_tokens && trace.text.source_tokens[maskId === 'cross_mask' ? 0 : b]
    ? trace.text.source_tokens[maskId === 'cross_mask' ? 0 : b].length : keyTokens.length;
  const reasons = [];
  if (maskId !== 'decoder_mask' && j >= srcLen) reasons.push(`key ${j} is padding (<pad>): the sentence has only ${srcLen} tokens`);
  if (causal && j > i) reasons.push(`key ${j} comes after query ${i} (causal: no peeking at later positions)`);
  return reasons;
}

function dot(lines, aTerms, bTerms, products) {
  lines.push({ t: list(aTerms.map((a, k) => `${paren(a)}·${paren(bTerms[k])}`)).join(' + '), cls: 'terms' });
  lines.push({ t: '= ' + list(products.map((p) => paren(term(p)))).join(' + '), cls: 'terms' });
}

export function explain(trace, step, R, c) {
  const L = lay(trace, step);
  const v = step.data[R * L.cols + c];
  const rn = rowName(trace, step, R);
  const out = {
    head: `${sym(step.id)}[${L.rows > 1 || L.batches > 1 ? rn.i + ', ' : ''}${c}] = ${exact(v)}`,
    where: `${rn.text}, ${colName(trace, step, c)}`,
    lines: [],
    highlights: [],
  };
  const lines = out.lines;
  const inp = (k) => trace.get(step.inputs[k]);
  const H = out.highlights;
  const cfg = trace.config;
  const dk = cfg.d_model / cfg.num_heads;

  switch (step.kind) {
    case 'linear': {
      const X = inp(0), W = inp(1), b = inp(2);
      if (!X || !W || !W.data) break;
      const n = W.shape[0], m = W.shape[1];
      const Rx = rowIn(trace, X, R);
      const xs = [], ws = [], ps = [];
      for (let k = 0; k < n; k++) {
        const x = val(trace, X, Rx, k), w = W.data[k * m + c];
        xs.push(x); ws.push(w); ps.push(x * w);
      }
      const bias = b && b.data ? b.data[c] : 0;
      lines.push({ t: `${sym(step.id)}[i, ${c}] = Σₖ ${sym(X.id)}[i, k] · ${sym(W.id)}[k, ${c}] + ${sym(b ? b.id : 'b')}[${c}]   (k = 0 … ${n - 1})`, cls: 'formula' });
      dot(lines, xs.map(fmt), ws.map(fmt), ps);
      const s = sumOf(ps);
      lines.push({ t: `= ${term(s)}  (sum of ${n} products)  + ${paren(fmt(bias))} (bias)` });
      lines.push({ t: `= ${exact(v)}`, cls: 'result' });
      lines.push({ t: `check: float64 sum of the shown terms = ${term(s + bias)}; the engine works in float32.`, cls: 'muted' });
      H.push({ id: X.id, rows: [Rx], cells: [] });
      H.push({ id: W.id, cols: [c] });
      if (b) H.push({ id: b.id, cells: [[0, c]] });
      break;
    }
    case 'scores': {
      const Q = inp(0), K = inp(1);
      const h = step.head;
      const b = Math.floor(R / L.per), i = R % L.per, Tk = L.cols;
      const kR = b * Tk + c;
      const qs = [], ks = [], ps = [], qc = [], kc = [];
      for (let t = 0; t < dk; t++) {
        const col = h * dk + t;
        const x = val(trace, Q, R, col), y = val(trace, K, kR, col);
        qs.push(x); ks.push(y); ps.push(x * y);
        qc.push([R, col]); kc.push([kR, col]);
      }
      lines.push({ t: `S[${i}, ${c}] = Σₜ Q[${i}, ${h}·${dk}+t] · K[${c}, ${h}·${dk}+t]   (head ${h}: columns ${h * dk} … ${(h + 1) * dk - 1}, t = 0 … ${dk - 1})`, cls: 'formula' });
      dot(lines, qs.map(fmt), ks.map(fmt), ps);
      lines.push({ t: `= ${exact(v)}`, cls: 'result' });
      lines.push({ t: `query row ${i}${labelOf(trace, Q, R)} · key row ${c}${labelOf(trace, K, kR)}; float64 check ${term(sumOf(ps))}`, cls: 'muted' });
      H.push({ id: Q.id, rows: [R], cells: qc });
      H.push({ id: K.id, rows: [kR], cells: kc });
      break;
    }
    case 'scale_mask': {
      const S = inp(0), M = inp(1);
      const s = val(trace, S, R, c);
      const Rm = rowIn(trace, M, R);
      const mval = val(trace, M, Rm, c);
      const b = Math.floor(R / L.per), i = R % L.per;
      if (cfg.scale) {
        lines.push({ t: `S̃[${i}, ${c}] = S[${i}, ${c}] / √d_k + M[${i}, ${c}]   (d_k = ${dk})`, cls: 'formula' });
        lines.push({ t: `= ${paren(fmt(s))} / √${dk} + ${paren(fmt(mval))} = ${paren(term(s / Math.sqrt(dk)))} + ${paren(fmt(mval))}` });
      } else {
        lines.push({ t: `S̃[${i}, ${c}] = S[${i}, ${c}] + M[${i}, ${c}]   (scaling is off)`, cls: 'formula' });
        lines.push({ t: `= ${paren(fmt(s))} + ${paren(fmt(mval))}` });
      }
      lines.push({ t: `= ${exact(v)}`, cls: 'result' });
      if (mval === -Infinity) for (const r of maskReason(trace, M.id, b, i, c)) lines.push({ t: `masked: ${r}`, cls: 'muted' });
      H.push({ id: S.id, cells: [[R, c]], rows: [R] });
      H.push({ id: M.id, cells: [[Rm, c]] });
      break;
    }
    case 'rowmax': {
      const Z = inp(0);
      const LZ = lay(trace, Z);
      const row = [];
      let arg = 0;
      for (let j = 0; j < LZ.cols; j++) {
        const z = val(trace, Z, R, j);
        row.push(z);
        if (z > row[arg]) arg = j;
      }
      lines.push({ t: `m = max over row ${R % L.per} of ${sym(Z.id)}`, cls: 'formula' });
      lines.push({ t: `= max(${list(row.map(fmt)).join(', ')})`, cls: 'terms' });
      lines.push({ t: `= ${exact(v)}   (column ${arg})`, cls: 'result' });
      lines.push({ t: 'Subtracting it before exp keeps every exponent ≤ 0, so exp never overflows.', cls: 'muted' });
      H.push({ id: Z.id, rows: [R], cells: [[R, arg]] });
      break;
    }
    case 'rowsum': {
      const Z = inp(0), Mx = inp(1);
      const LZ = lay(trace, Z);
      const m = val(trace, Mx, R, 0);
      const es = [], parts = [];
      for (let j = 0; j < LZ.cols; j++) {
        const z = val(trace, Z, R, j);
        const e = z === -Infinity ? 0 : Math.exp(z - m);
        es.push(e);
        parts.push(z === -Infinity ? 'e^(−∞)' : `e^(${fmt(z)} − ${paren(fmt(m))})`);
      }
      lines.push({ t: `s = Σⱼ exp(${sym(Z.id)}[i, j] − m)   with m = ${fmt(m)}`, cls: 'formula' });
      lines.push({ t: list(parts).join(' + '), cls: 'terms' });
      lines.push({ t: '= ' + list(es.map(term)).join(' + '), cls: 'terms' });
      lines.push({ t: `= ${exact(v)}`, cls: 'result' });
      if (es.some((e, j) => val(trace, Z, R, j) === -Infinity)) lines.push({ t: 'Masked entries contribute e^(−∞) = 0.', cls: 'muted' });
      H.push({ id: Z.id, rows: [R] });
      H.push({ id: Mx.id, cells: [[R, 0]] });
      break;
    }
    case 'softmax': {
      const Z = inp(0), Mx = inp(1), Sm = inp(2);
      const z = val(trace, Z, R, c), m = val(trace, Mx, R, 0), s = val(trace, Sm, R, 0);
      lines.push({ t: `p = exp(${sym(Z.id)}[i, ${c}] − m) / s`, cls: 'formula' });
      if (z === -Infinity) {
        lines.push({ t: `= exp(−∞ − ${paren(fmt(m))}) / ${fmt(s)} = 0 / ${fmt(s)}` });
      } else {
        const e = Math.exp(z - m);
        lines.push({ t: `= exp(${fmt(z)} − ${paren(fmt(m))}) / ${fmt(s)}` });
        lines.push({ t: `= exp(${term(z - m)}) / ${fmt(s)} = ${term(e)} / ${fmt(s)}` });
      }
      lines.push({ t: `= ${exact(v)}`, cls: 'result' });
      let rs = 0;
      const LS = L.cols;
      for (let j = 0; j < LS; j++) rs += step.data[R * LS + j];
      lines.push({ t: `this row sums to ${term(rs)}`, cls: 'muted' });
      H.push({ id: Z.id, rows: [R], cells: [[R, c]] });
      H.push({ id: Mx.id, cells: [[R, 0]] });
      H.push({ id: Sm.id, cells: [[R, 0]] });
      break;
    }
    case 'context': {
      const A = inp(0), V = inp(1);
      const h = step.head;
      const LA = lay(trace, A);
      const b = Math.floor(R / L.per), i = R % L.per, Tk = LA.cols;
      const col = h * dk + c;
      const ws = [], vs = [], ps = [], vc = [];
      for (let j = 0; j < Tk; j++) {
        const w = val(trace, A, R, j), x = val(trace, V, b * Tk + j, col);
        ws.push(w); vs.push(x); ps.push(w * x);
        vc.push([b * Tk + j, col]);
      }
      lines.push({ t: `C_h[${i}, ${c}] = Σⱼ A[${i}, j] · V[j, ${h}·${dk}+${c}]   (head ${h}: V column ${col}, j = 0 … ${Tk - 1})`, cls: 'formula' });
      dot(lines, ws.map(fmt), vs.map(fmt), ps);
      lines.push({ t: `= ${exact(v)}`, cls: 'result' });
      lines.push({ t: `a weighted average of the values: the weights of row ${i} sum to 1; float64 check ${term(sumOf(ps))}`, cls: 'muted' });
      H.push({ id: A.id, rows: [R] });
      H.push({ id: V.id, cols: [col], cells: vc });
      break;
    }
    case 'concat': {
      const h = Math.floor(c / dk), t = c % dk;
      const Ch = trace.get(step.inputs[h]);
      lines.push({ t: `column ${c} = head ${h}'s column ${t}   (head h fills columns h·${dk} … h·${dk}+${dk - 1})`, cls: 'formula' });
      lines.push({ t: `= C_${h}[${R % L.per}, ${t}] = ${exact(v)}`, cls: 'result' });
      if (Ch) H.push({ id: Ch.id, cells: [[R, t]], rows: [R] });
      break;
    }
    case 'add': {
      const A = inp(0), Bt = inp(1);
      const Ra = rowIn(trace, A, R), Rb = rowIn(trace, Bt, R);
      const a = val(trace, A, Ra, c), b = val(trace, Bt, Rb, c);
      lines.push({ t: `${sym(step.id)}[i, ${c}] = ${sym(A.id)}[i, ${c}] + ${sym(Bt.id)}[i, ${c}]`, cls: 'formula' });
      lines.push({ t: `= ${fmt(a)} + ${paren(fmt(b))}` });
      lines.push({ t: `= ${exact(v)}`, cls: 'result' });
      lines.push({ t: `${A.id} = ${exact(a)},  ${Bt.id} = ${exact(b)}`, cls: 'muted' });
      H.push({ id: A.id, cells: [[Ra, c]] });
      H.push({ id: Bt.id, cells: [[Rb, c]] });
      break;
    }
    case 'copy': case 'pool': {
      const X = inp(0);
      let Rx = rowIn(trace, X, R);
      if (step.kind === 'pool') {
        const LX = lay(trace, X);
        Rx = R * LX.per; // first token of batch item R
      }
      lines.push({ t: step.kind === 'pool' ? `the first token's vector: ${X.id}[row ${Rx % lay(trace, X).per}, ${c}]` : `copied from ${X.id}[${Rx}, ${c}]`, cls: 'formula' });
      lines.push({ t: `= ${exact(v)}`, cls: 'result' });
      H.push({ id: X.id, cells: [[Rx, c]], rows: [Rx] });
      break;
    }
    case 'given':
      lines.push({ t: `given by the model file: input row ${R}, column ${c}`, cls: 'formula' });
      lines.push({ t: `= ${exact(v)}`, cls: 'result' });
      break;
    case 'mask': {
      const b = Math.floor(R / L.per), i = R % L.per;
      lines.push({ t: `query ${i} → key ${c}`, cls: 'formula' });
      if (v === -Infinity) {
        for (const r of maskReason(trace, step.id, b, i, c)) lines.push({ t: r });
        lines.push({ t: '= −∞: after exp it becomes 0, so this key gets no attention', cls: 'result' });
      } else {
        lines.push({ t: '= 0: allowed (adding 0 leaves the score unchanged)', cls: 'result' });
      }
      break;
    }
    case 'tokens': {
      const isT = step.id === 'target_token_ids';
      const toks = isT ? trace.targetTokens() : trace.sourceTokens(R);
      const tok = toks[c];
      lines.push({ t: `token ${c}: “${tok}”`, cls: 'formula' });
      lines.push({ t: `= id ${v} (position ${v} in the vocabulary of ${(trace.text.vocab || []).length} tokens)`, cls: 'result' });
      if (tok === '<pad>') lines.push({ t: 'Padding fills the shorter sentence up to the batch length.', cls: 'muted' });
      if (trace.get('embedding_table')) H.push({ id: 'embedding_table', rows: [v] });
      break;
    }
    case 'lookup': {
      const b = Math.floor(R / L.per), i = R % L.per;
      if (step.inputs.length >= 2) {
        const ids = inp(0), E = inp(1);
        const LI = lay(trace, ids);
        const idR = LI.rows > 1 ? b : 0;
        const id = val(trace, ids, idR, i);
        const tok = (trace.text.vocab || [])[id];
        lines.push({ t: `token ${i} “${tok}” has id ${id} → row ${id} of the embedding table E`, cls: 'formula' });
        lines.push({ t: `E[${id}, ${c}] = ${exact(v)}`, cls: 'result' });
        H.push({ id: ids.id, cells: [[idR, i]] });
        if (E && E.data) H.push({ id: E.id, rows: [id], cells: [[id, c]] });
      } else {
        const P = inp(0);
        lines.push({ t: `position ${i} → row ${i} of the learned position table P`, cls: 'formula' });
        lines.push({ t: `P[${i}, ${c}] = ${exact(v)}`, cls: 'result' });
        if (P && P.data) H.push({ id: P.id, rows: [i], cells: [[i, c]] });
      }
      break;
    }
    case 'positional': {
      const p = R % L.per, d = L.cols, k = Math.floor(c / 2);
      const denom = Math.pow(10000, (2 * k) / d);
      const angle = p / denom;
      const fn = c % 2 === 0 ? 'sin' : 'cos';
      lines.push({ t: `PE[p, ${c}] = ${fn}(p / 10000^(2·${k}/${d}))   (position p = ${p}, pair i = ${k})`, cls: 'formula' });
      lines.push({ t: `= ${fn}(${p} / ${term(denom)}) = ${fn}(${term(angle)})` });
      lines.push({ t: `= ${exact(v)}`, cls: 'result' });
      lines.push({ t: `even columns use sin, odd columns cos; wavelength grows with the column index`, cls: 'muted' });
      break;
    }
    case 'mean': {
      const X = inp(0);
      const LX = lay(trace, X);
      const xs = [];
      for (let j = 0; j < LX.cols; j++) xs.push(val(trace, X, R, j));
      lines.push({ t: `μ = (1/${LX.cols}) Σ_c ${sym(X.id)}[i, c]`, cls: 'formula' });
      lines.push({ t: `= (${list(xs.map(fmt)).join(' + ')}) / ${LX.cols}`, cls: 'terms' });
      lines.push({ t: `= ${term(sumOf(xs))} / ${LX.cols}` });
      lines.push({ t: `= ${exact(v)}`, cls: 'result' });
      H.push({ id: X.id, rows: [R] });
      break;
    }
    case 'var': {
      const X = inp(0), Mu = inp(1);
      const LX = lay(trace, X);
      const mu = val(trace, Mu, R, 0);
      const xs = [], sq = [];
      for (let j = 0; j < LX.cols; j++) {
        const x = val(trace, X, R, j);
        xs.push(`(${fmt(x)} − ${paren(fmt(mu))})²`);
        sq.push((x - mu) * (x - mu));
      }
      lines.push({ t: `σ² = (1/${LX.cols}) Σ_c (x_c − μ)²   with μ = ${fmt(mu)}`, cls: 'formula' });
      lines.push({ t: list(xs).join(' + '), cls: 'terms' });
      lines.push({ t: `= (${list(sq.map(term)).join(' + ')}) / ${LX.cols}`, cls: 'terms' });
      lines.push({ t: `= ${exact(v)}`, cls: 'result' });
      lines.push({ t: 'biased variance: divides by d, not d − 1', cls: 'muted' });
      H.push({ id: X.id, rows: [R] });
      H.push({ id: Mu.id, cells: [[R, 0]] });
      break;
    }
    case 'layernorm': {
      const X = inp(0), Mu = inp(1), Var = inp(2), G = inp(3), Bt = inp(4);
      const x = val(trace, X, R, c), mu = val(trace, Mu, R, 0), s2 = val(trace, Var, R, 0);
      const g = G && G.data ? G.data[c] : 1, be = Bt && Bt.data ? Bt.data[c] : 0;
      const eps = cfg.layer_norm_eps;
      const nrm = (x - mu) / Math.sqrt(s2 + eps);
      const epsText = exact(eps);
      lines.push({ t: `LN = (x − μ) / √(σ² + ε) · γ[${c}] + β[${c}]   (ε = ${epsText})`, cls: 'formula' });
      lines.push({ t: `= (${fmt(x)} − ${paren(fmt(mu))}) / √(${fmt(s2)} + ${epsText}) · ${paren(fmt(g))} + ${paren(fmt(be))}` });
      lines.push({ t: `= ${term(x - mu)} / ${term(Math.sqrt(s2 + eps))} · ${paren(fmt(g))} + ${paren(fmt(be))} = ${paren(term(nrm))} · ${paren(fmt(g))} + ${paren(fmt(be))}` });
      lines.push({ t: `= ${exact(v)}`, cls: 'result' });
      H.push({ id: X.id, cells: [[R, c]], rows: [R] });
      H.push({ id: Mu.id, cells: [[R, 0]] });
      H.push({ id: Var.id, cells: [[R, 0]] });
      if (G) H.push({ id: G.id, cells: [[0, c]] });
      if (Bt) H.push({ id: Bt.id, cells: [[0, c]] });
      break;
    }
    case 'activation': {
      const X = inp(0);
      const x = val(trace, X, R, c);
      if (step.title.startsWith('GELU')) {
        const e = erf(x / Math.SQRT2);
        lines.push({ t: 'GELU(h) = ½ · h · (1 + erf(h / √2))', cls: 'formula' });
        lines.push({ t: `= ½ · ${paren(fmt(x))} · (1 + erf(${term(x / Math.SQRT2)}))` });
        lines.push({ t: `= ½ · ${paren(fmt(x))} · (1 + ${paren(term(e))})` });
      } else {
        lines.push({ t: 'ReLU(h) = max(0, h)', cls: 'formula' });
        lines.push({ t: `= max(0, ${fmt(x)})` });
      }
      lines.push({ t: `= ${exact(v)}`, cls: 'result' });
      H.push({ id: X.id, cells: [[R, c]], rows: [R] });
      break;
    }
    case 'logits': {
      const Z = inp(0), E = inp(1);
      if (!E || !E.data) break;
      const d = E.shape[1];
      const zs = [], es = [], ps = [];
      for (let k = 0; k < d; k++) {
        const a = val(trace, Z, R, k), b = E.data[c * d + k];
        zs.push(a); es.push(b); ps.push(a * b);
      }
      const tok = (trace.text.vocab || [])[c];
      lines.push({ t: `z[i, ${c}] = Σₖ Z[i, k] · E[${c}, k]   (row ${c} of the embedding table is “${tok}”)`, cls: 'formula' });
      dot(lines, zs.map(fmt), es.map(fmt), ps);
      lines.push({ t: `= ${exact(v)}`, cls: 'result' });
      lines.push({ t: `float64 check ${term(sumOf(ps))}`, cls: 'muted' });
      H.push({ id: Z.id, rows: [R] });
      H.push({ id: E.id, rows: [c] });
      break;
    }
    default:
      lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  }
  return out;
}

function labelOf(trace, t, R) {
  const r = rowName(trace, t, R);
  const m = /“.*”/.exec(r.text);
  return m ? ` ${m[0]}` : '';
}

// erf for the GELU readout only (Abramowitz–Stegun 7.1.26, |error| < 1.5e-7: below the
// digits shown; the recorded value comes from the engine's std::erf).
export function erf(x) {
  const s = Math.sign(x), a = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * a);
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-a * a);
  return s * y;
}
