// notes/layer.js — the notes of a layer's other steps: residual additions, LayerNorm and its
// statistics, the feed-forward network, and a layer's or stack's output. Each function
// returns {text, tut}: why the step exists and what this model's numbers show.
import { t, num } from '../../lib/i18n.js';
import { rowsOf, mean, norm } from './stats.js';
import { stackKey } from '../../model/stack.js';

// A residual R = x + f(x): how much the sublayer changed each row, ‖f(x)‖ / ‖x‖.
export function residualNote(step, trace) {
  const [a, b] = step.inputs.map((id) => trace.get(id));
  const ra = rowsOf(trace, a), rb = rowsOf(trace, b);
  const ratios = ra.map((r, k) => norm(rb[k % rb.length].data) / Math.max(1e-12, norm(r.data)));
  const fact = t('notes.residual.fact', { ratio: num(mean(ratios), 2), max: num(Math.max(...ratios), 2) });
  return { text: `${t('notes.residual.why')} ${fact}`, tut: 'encoder' };
}

export function statNote(step) {
  const v = Array.from(step.data);
  const f = step.role === 'var' ? Math.sqrt : (x) => x;
  const fact = t(`notes.${step.role}.fact`, { lo: num(f(Math.min(...v)), 2), hi: num(f(Math.max(...v)), 2) });
  return { text: `${t(`notes.${step.role}.why`)} ${fact}`, tut: 'fundamentals' };
}

// LayerNorm: each row's mean and standard deviation before (from its recorded statistics).
export function layerNormNote(step, trace) {
  const stat = (role) => step.inputs.map((id) => trace.get(id)).find((s) => s && s.role === role);
  const mu = stat('mean'), v = stat('var');
  const pre = trace.config.norm === 'pre';
  const block = step.place.block;
  const parts = [t(block === 'embedding' ? 'notes.ln.embedding' : block === 'transform' ? 'notes.ln.head' : pre ? 'notes.ln.pre' : 'notes.ln.post')];
  if (mu && v && mu.data && v.data) {
    const sd = Array.from(v.data, Math.sqrt), m = Array.from(mu.data);
    parts.push(t('notes.ln.fact', { mlo: num(Math.min(...m), 2), mhi: num(Math.max(...m), 2), slo: num(Math.min(...sd), 2), shi: num(Math.max(...sd), 2) }));
  }
  return { text: parts.join(' '), tut: pre ? 'fundamentals' : 'encoder' };
}

export function ffnPreNote(step, trace) {
  const c = trace.config;
  return { text: t('notes.ffn_pre.why', { d: c.d_model, dff: c.d_ff }), tut: 'encoder' };
}
// The share of hidden units the activation switched off: ReLU outputs exactly 0 there; GELU
// a small negative number (its input was negative).
export function ffnHiddenNote(step, trace) {
  const pre = trace.get(step.inputs[0]);
  const gelu = trace.config.activation === 'gelu' || trace.config.activation === 'gelu_new';
  const src = pre && pre.data ? pre.data : step.data;
  let off = 0;
  for (const x of src) if (x <= 0) off++;
  const share = num((100 * off) / src.length, 0);
  return { text: `${t(gelu ? 'notes.ffn_hidden.gelu' : 'notes.ffn_hidden.relu')} ${t('notes.ffn_hidden.fact', { share, n: src.length, gelu })}`, tut: 'encoder' };
}
export function ffnOutNote(step, trace) {
  return { text: t('notes.ffn_out.why', { d: trace.config.d_model, dff: trace.config.d_ff }), tut: 'encoder' };
}

export function outputNote(step, trace) {
  const p = step.place;
  const key = step.role === 'decoder_output' ? 'notes.output.decoder'
    : p.block === 'stack_output' ? (trace.config.decoder_layers > 0 ? 'notes.output.memory' : stackKey('notes.output.encoder', trace)) : stackKey('notes.output.layer', trace);
  const n = mean(rowsOf(trace, step).map((r) => norm(r.data)));
  return { text: `${t(key)} ${t('notes.output.fact', { norm: num(n, 2), d: trace.config.d_model })}`, tut: 'fundamentals' };
}
