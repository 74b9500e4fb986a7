// kinds/index.js — the registry of step kinds (docs/trace.md): for each kind the trace can
// hold, one entry with what the page needs of it — explain(cell) (the arithmetic of one cell
// with its real operands, returning the float64 value it recomputes), its colour scale, and
// what to say when it has no inputs (whether it is a per-row statistic, shown as a column, is
// the model's: model/layout.js PER_ROW_KINDS). A kind
// the registry does not know is a bug the kinds test (tests/web/kinds.mjs) catches.
import attention from './attention.js';
import decoder from './decoder.js';
import elementwise from './elementwise.js';
import embedding from './embedding.js';
import grad from './grad.js';
import linear from './linear.js';
import norm from './norm.js';
import { colName, rowName, symOf } from './common.js';
import { exact, term } from '../../lib/format.js';
import { t } from '../../lib/i18n.js';

export const KINDS = Object.freeze({ ...embedding, ...linear, ...attention, ...norm, ...elementwise, ...decoder, ...grad });

const UNKNOWN = { explain: () => undefined, scale: 'diverging' };
export function kindOf(kind) {
  return KINDS[kind] || UNKNOWN;
}

// The explanation of cell (R, c) of `step` (R a flat row of its matrix layout):
// {head, where, lines: [{t, cls}], highlights: [{id, rows, cols, cells}], value, check}
// where `check` is the float64 value the shown arithmetic gives (undefined when there is
// nothing to recompute) and `value` the recorded float32 one.
export function explain(trace, step, R, c) {
  const L = trace.layout(step);
  const v = step.data[R * L.cols + c];
  const rn = rowName(trace, step, R);
  const out = {
    head: `${symOf(step, trace)}[${L.rows > 1 || L.batches > 1 ? rn.i + ', ' : ''}${c}] = ${exact(v)}`,
    where: `${rn.text}, ${colName(trace, step, c, rn.b)}`,
    lines: [],
    highlights: [],
    value: v,
  };
  const inp = (k) => trace.get(step.inputs[k]);
  const entry = kindOf(step.kind);
  out.check = entry.explain({ trace, step, L, R, c, v, lines: out.lines, H: out.highlights, inp });
  if (!out.lines.length) out.lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  if (step.intervened) sayIntervened(out, v);
  return out;
}

// A step an intervention changed (the what-if lab: a head switched off, a number typed, a
// patch): a number that does not follow from the arithmetic shown says so, with what the
// arithmetic gives, instead of ending it with "= <the number held>".
function sayIntervened(out, v) {
  const c = out.check;
  if (typeof c !== 'number' || !Number.isFinite(c)) {
    out.lines.push({ t: t('explain.intervened.step'), cls: 'muted' });
    return;
  }
  if (Math.abs(c - v) <= 1e-4 * Math.max(1, Math.abs(v))) return;
  const line = { t: t('explain.intervened.cell', { x: term(c), v: exact(v) }), cls: 'result' };
  const last = out.lines.map((l) => l.cls).lastIndexOf('result');
  if (last >= 0) out.lines.splice(last, 1, line);
  else out.lines.push(line);
}
