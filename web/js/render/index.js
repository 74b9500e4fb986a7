// render/index.js — the registry of step renderers: step.kind (and a few ids) → render
// function (PAIR explorables' pattern: one module per view). Every renderer ends with the
// default interactive grid, so every step shows its numbers and their arithmetic.
import { renderMatrixStep } from './matrix-step.js';
import { renderTokens } from './tokens.js';
import { renderAttention } from './attention.js';
import { renderProbs } from './probs.js';

const byKind = {
  tokens: renderTokens,
  softmax: (ctx, host) => (ctx.step.head >= 0 ? renderAttention(ctx, host) : renderProbs(ctx, host)),
};

export function renderStep(ctx, host) {
  const f = byKind[ctx.step.kind] || renderMatrixStep;
  return f(ctx, host);
}
