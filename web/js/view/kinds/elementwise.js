// kinds/elementwise.js — steps whose cell depends on one cell of each input: residual adds,
// copies and the classifier's pooling, activations (ReLU, exact GELU), and values given by
// the model file. (SiLU: the gated FFN of Llama and Qwen.)
import { lay, rowIn, val, symOf, fmt, term, paren } from './common.js';
import { exact } from '../../lib/format.js';
import { t as tr } from '../../lib/i18n.js';
import { activationOf } from './grad.js';

// A sum of two or more tensors of the step's shape (BERT adds token, position and token-type
// embeddings); an operand with fewer rows (positions [T, d] beside a batch) repeats per item.
function add({ trace, step, R, c, v, lines, H, inp }) {
  const ops = step.inputs.map((_, k) => inp(k));
  const rows = ops.map((X) => rowIn(trace, X, R));
  const xs = ops.map((X, k) => val(trace, X, rows[k], c));
  lines.push({ t: `${symOf(step)}[i, ${c}] = ${ops.map((X) => `${symOf(X)}[i, ${c}]`).join(' + ')}`, cls: 'formula' });
  lines.push({ t: `= ${xs.map((x, k) => (k ? paren(fmt(x)) : fmt(x))).join(' + ')}` });
  lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  lines.push({ t: ops.map((X, k) => `${symOf(X)}[${rows[k] % lay(trace, X).per}, ${c}] = ${exact(xs[k])}`).join(',  '), cls: 'muted' });
  ops.forEach((X, k) => H.push({ id: X.id, cells: [[rows[k], c]] }));
  return xs.reduce((s, x) => s + x, 0);
}

function copy({ trace, R, c, v, lines, H, inp }) {
  const X = inp(0), Rx = rowIn(trace, X, R);
  lines.push({ t: tr('explain.copy', { x: `${symOf(X)}[${Rx % lay(trace, X).per}, ${c}]` }), cls: 'formula' });
  lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  H.push({ id: X.id, cells: [[Rx, c]], rows: [Rx] });
  return val(trace, X, Rx, c);
}

function pool({ trace, R, c, v, lines, H, inp }) {
  const X = inp(0), Rx = R * lay(trace, X).per;  // first token of batch item R
  lines.push({ t: tr('explain.pool', { x: `${symOf(X)}[0, ${c}]` }), cls: 'formula' });
  lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  H.push({ id: X.id, cells: [[Rx, c]], rows: [Rx] });
  return val(trace, X, Rx, c);
}

// erf for the GELU readout only (Abramowitz–Stegun 7.1.26, |error| < 1.5e-7: below the
// digits shown; the recorded value comes from the engine's std::erf).
export function erf(x) {
  const s = Math.sign(x), a = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * a);
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-a * a);
  return s * y;
}

function activation({ trace, step, R, c, v, lines, H, inp }) {
  const X = inp(0), x = val(trace, X, R, c), act = activationOf(trace, step);
  let y;
  if (act === 'tanh') {  // BERT's pooler
    lines.push({ t: 'tanh(h)', cls: 'formula' });
    lines.push({ t: `= tanh(${fmt(x)})` });
    y = Math.tanh(x);
  } else if (act === 'silu') {  // the gate of Llama's and Qwen's feed-forward network
    const sg = 1 / (1 + Math.exp(-x));
    lines.push({ t: 'SiLU(h) = h · σ(h) = h / (1 + e^(−h))', cls: 'formula' });
    lines.push({ t: `= ${paren(fmt(x))} · ${paren(term(sg))}` });
    y = x * sg;
  } else if (act === 'gelu') {
    const e = erf(x / Math.SQRT2);
    lines.push({ t: 'GELU(h) = ½ · h · (1 + erf(h / √2))', cls: 'formula' });
    lines.push({ t: `= ½ · ${paren(fmt(x))} · (1 + erf(${term(x / Math.SQRT2)}))` });
    lines.push({ t: `= ½ · ${paren(fmt(x))} · (1 + ${paren(term(e))})` });
    y = 0.5 * x * (1 + e);
  } else if (act === 'gelu_new') {
    const u = Math.sqrt(2 / Math.PI) * (x + 0.044715 * x * x * x), th = Math.tanh(u);
    lines.push({ t: 'GELU(h) ≈ ½ · h · (1 + tanh(√(2/π) · (h + 0.044715 · h³)))', cls: 'formula' });
    lines.push({ t: `= ½ · ${paren(fmt(x))} · (1 + tanh(${term(u)}))` });
    lines.push({ t: `= ½ · ${paren(fmt(x))} · (1 + ${paren(term(th))})` });
    y = 0.5 * x * (1 + th);
  } else {
    lines.push({ t: 'ReLU(h) = max(0, h)', cls: 'formula' });
    lines.push({ t: `= max(0, ${fmt(x)})` });
    y = Math.max(0, x);
  }
  lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  H.push({ id: X.id, cells: [[R, c]], rows: [R] });
  return y;
}

function given({ R, c, v, lines }) {
  lines.push({ t: tr('explain.given', { r: R, c }), cls: 'formula' });
  lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  return undefined;  // nothing to recompute: the model file is the source
}

export default {
  add: { explain: add, scale: 'diverging' },
  copy: { explain: copy, scale: 'diverging' },
  pool: { explain: pool, scale: 'diverging' },
  activation: { explain: activation, scale: 'diverging' },
  given: { explain: given, scale: 'diverging', get noInputs() { return tr('explain.given.noInputs'); } },
};
