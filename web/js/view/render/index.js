// render/index.js — the registry of step renderers: step.kind → render function (and, for
// some, what to fetch first) (PAIR explorables' pattern: one module per view). Every renderer
// ends with the default interactive grid, so every step shows its numbers and their
// arithmetic. Each takes the view context (../context.js) and a host element.
import { renderMatrixStep } from './matrix-step.js';
import { el } from '../../lib/dom.js';
import { renderTokens } from './tokens.js';
import { renderAttention, prepareAttention } from './attention.js';
import { renderProbs } from './probs.js';
import { renderAlignment, isCrossAttention, prepareAlignment } from './alignment.js';
import { adamwPanel } from './adamw.js';
import { renderRope } from './rope.js';

// A parameter's gradient: its grid, then one AdamW update of the weight in focus.
function renderGrad(ctx, host) {
  if (!ctx.step.gradOf || !ctx.step.gradOf.isParam) return renderMatrixStep(ctx, host);
  const extra = el('div');
  const show = adamwPanel(ctx, extra);
  const onExplain = ctx.onExplain;
  const r = renderMatrixStep({ ...ctx, onExplain: (R, c) => { show(R, c); if (onExplain) onExplain(R, c); } }, host);
  host.append(extra);
  return r;
}

const byKind = {
  tokens: renderTokens,
  softmax: (ctx, host) => {
    if (isCrossAttention(ctx.step)) renderAlignment(ctx, host);
    return ctx.step.head >= 0 ? renderAttention(ctx, host) : renderProbs(ctx, host);
  },
  grad: renderGrad,
  rope: renderRope,
};

// What a renderer fetches before it draws, beyond the step and its inputs (which the step
// view fetches for every step): e.g. the attention heads' thumbnails.
const prepareByKind = {
  softmax: (ctx) => Promise.all([
    ctx.step.head >= 0 ? prepareAttention(ctx) : null,
    isCrossAttention(ctx.step) ? prepareAlignment(ctx) : null,
  ]),
  // A gradient cell's explanation reads the forward steps its chain-rule terms come from and
  // the tensor it differentiates (kinds/grad.js): the whole trace, small at the sizes the
  // backward pass runs in the page, and the parameter for the AdamW panel.
  grad: (ctx) => Promise.all([ctx.trace.ensureAll(ctx.engine), ctx.step.of ? ctx.trace.ensureParams([ctx.step.of], ctx.engine) : null]),
  loss: (ctx) => ctx.trace.ensureAll(ctx.engine),
};

export async function prepareStep(ctx) {
  const f = prepareByKind[ctx.step.kind];
  if (f) await f(ctx);
}

export function renderStep(ctx, host) {
  const f = byKind[ctx.step.kind] || renderMatrixStep;
  return f(ctx, host);
}
