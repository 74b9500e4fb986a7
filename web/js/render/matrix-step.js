// render/matrix-step.js — the default view of a step: its result as an interactive heatmap
// grid, the explanation of the focused cell, and the input tensors it was computed from
// with the rows/columns/cells that cell used highlighted.
import { createMatrix, el } from '../matrix.js';
import { explain, kindOf } from '../kinds/index.js';
import { sym } from '../kinds/common.js';
import { stepTitle } from '../notes/title.js';

const NAMES = {
  embedding_table: 'Embedding table E', position_table: 'Position table P',
};

export function tensorLabel(trace, t) {
  if (NAMES[t.id]) return NAMES[t.id];
  if (t.isParam) return `${sym(t.id)} · ${t.id}`;
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

  const exp = el('section', 'explain');
  exp.setAttribute('aria-live', 'polite');
  exp.setAttribute('aria-label', 'How the selected number was computed');
  const operands = new Map();

  const result = matrixFor(ctx, step, {
    label: stepTitle(step, trace),
    interactive: true,
    linkTo: false,
    onCell: (R, c, how) => show(R, c),
  });
  result.el.classList.add('result');
  resultCol.append(result.el, exp);

  const inputs = (step.inputs || []).map((id) => trace.get(id)).filter((t) => t && t.data);
  if (inputs.length) {
    const h = el('h3', 'inputs-title', inputs.length === 1 ? 'Computed from' : 'Computed from these inputs');
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

  function show(R, c) {
    let x;
    try {
      x = explain(trace, step, R, c);
    } catch (e) {
      x = { head: '', where: '', lines: [{ t: `(cannot explain this cell: ${e.message})` }], highlights: [] };
    }
    const head = el('p', 'explain-head');
    head.append(el('strong', '', x.head), el('span', 'muted', ` — ${x.where}`));
    const body = el('div', 'arith');
    for (const line of x.lines) body.append(el('div', 'line ' + (line.cls || ''), line.t));
    exp.replaceChildren(head, body);
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
