// notes/grad.js — the note of a gradient step ∂L/∂T: why the backward pass records it, and
// its largest-magnitude entry with what that entry says about the loss.
import { t, num } from '../../lib/i18n.js';
import { rowsOf, colLabel, argmaxAbs, sig } from './stats.js';

export function gradNote(step, trace) {
  const k = argmaxAbs(step.data);
  const g = step.data[k];
  const L = trace.layout(step);
  const R = Math.floor(k / L.cols), c = k % L.cols;
  const row = rowsOf(trace, step)[R];
  const cl = colLabel(trace, step, c, row ? row.b : 0);
  const quoted = (w) => t('notes.quoted', { w });
  const where = L.rows === 1 ? t('notes.grad.atEntry', { c: cl !== null ? quoted(cl) : c }) : t('notes.grad.at', { r: row && row.label !== null ? quoted(row.label) : row ? row.i : R, c: cl !== null ? quoted(cl) : c });
  const dir = t(g > 0 ? 'notes.grad.pos' : 'notes.grad.neg');
  return { text: `${t('notes.grad.why')} ${t('notes.grad.fact', { g: sig(g, 4, num), where, dir })}`, tut: 'fundamentals' };
}
