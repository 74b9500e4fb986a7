// render/matrix-step.js — the default view of a step: its result as an interactive heatmap
// grid, the explanation of the focused cell, and the input tensors it was computed from
// with the rows/columns/cells that cell used highlighted. ctx: the view context (context.js).
import { createMatrix } from '../matrix/matrix.js';
import { el } from '../../lib/dom.js';
import { explain, kindOf } from '../kinds/index.js';
import { t as msg, has } from '../../lib/i18n.js';
import { stepTitle } from '../../model/titles.js';

// The two tables with a name of their own (catalog keys matrix.name.<id>).
export function tensorLabel(trace, t) {
  if (has(`matrix.name.${t.id}`)) return msg(`matrix.name.${t.id}`);
  return stepTitle(t, trace);
}

export function matrixFor(ctx, t, extra = {}) {
  const { trace } = ctx;
  const ax = trace.axesOf(t);
  return createMatrix({
    tensor: t,
    label: extra.label || tensorLabel(trace, t),
    layout: trace.layout(t),
    scale: kindOf(t.kind).scale,
    batch: ctx.batch,
    window: ctx.window,
    dark: ctx.dark,
    rowLabels: ax.rows ? (b) => trace.labelsFor(ax.rows, b) : null,
    colLabels: ax.cols ? (b) => trace.labelsFor(ax.cols, b) : null,
    onBatch: (b) => { ctx.setBatch(b); },
    linkTo: extra.linkTo === false ? null : ctx.goTo,
    ...extra,
  });
}

export function renderMatrixStep(ctx, host) {
  const { trace, step } = ctx;
  const stage = el('div', 'stage');
  const resultCol = el('div', 'result-col');
  const inputsCol = el('div', 'inputs-col');

  // The explanation follows the pointer, so it is NOT a live region (a screen reader would
  // re-read it on every hover); a cell that gets focus or is selected is announced once,
  // through `said` (below).
  const exp = el('section', 'explain');
  exp.setAttribute('aria-label', msg('matrix.explainLabel'));
  const said = el('p', 'visually-hidden explain-said');
  said.setAttribute('aria-live', 'polite');
  const operands = new Map();

  const result = matrixFor(ctx, step, {
    label: stepTitle(step, trace),
    interactive: true,
    linkTo: false,
    onCell: (R, c, how) => show(R, c, how),
  });
  result.el.classList.add('result');
  resultCol.append(result.el, exp, said);

  const inputs = (step.inputs || []).map((id) => trace.get(id)).filter((t) => t && t.data);
  if (inputs.length) {
    const h = el('h3', 'inputs-title', msg(inputs.length === 1 ? 'matrix.computedFrom' : 'matrix.computedFromMany'));
    inputsCol.append(h);
    for (const t of inputs) {
      const v = matrixFor(ctx, t, { compact: inputs.length > 3 && t.shape.length === 1 });
      operands.set(t.id, v);
      inputsCol.append(v.el);
    }
  } else {
    inputsCol.append(el('p', 'muted', kindOf(step.kind).noInputs || ''));
  }
  stage.append(resultCol, inputsCol);
  host.append(stage);

  // how: 'hover' (pointer), 'focus' (keyboard or click), or nothing (the step's first cell).
  function show(R, c, how) {
    let x;
    try {
      x = explain(trace, step, R, c);
    } catch (e) {
      x = { head: '', where: '', lines: [{ t: msg('matrix.cannotExplain', { why: e.message }) }], highlights: [] };
    }
    const head = el('p', 'explain-head');
    head.append(el('strong', '', x.head), el('span', 'muted', ` — ${x.where}`));
    const body = el('div', 'arith');
    for (const line of x.lines) body.append(el('div', 'line ' + (line.cls || ''), line.t));
    exp.replaceChildren(head, body);
    if (how === 'focus') said.textContent = announcement(x);
    result.setHighlight({ cells: [[R, c]] });
    for (const [id, v] of operands) {
      const hs = x.highlights.filter((h) => h.id === id);
      if (!hs.length) v.setHighlight(null);
      else v.setHighlight({
        rows: hs.flatMap((h) => h.rows || []),
        cols: hs.flatMap((h) => h.cols || []),
        cells: hs.flatMap((h) => h.cells || []),
      });
    }
    ctx.onExplain && ctx.onExplain(R, c);
  }
  const start = ctx.cell && ctx.cell.step === step.id ? ctx.cell : { R: result.batch * result.layout.per, c: 0 };
  show(start.R, start.c);
  return { result, show };
}

// What a screen reader says when a cell gets focus: the cell, where it is, and its result
// (the last line of the arithmetic), not the whole derivation (it is in the box, to read on).
function announcement(x) {
  const last = x.lines.length ? x.lines[x.lines.length - 1].t : '';
  return [x.head, x.where, last].filter(Boolean).join(' — ');
}
