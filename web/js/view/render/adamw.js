// render/adamw.js — one AdamW update of a parameter (issue 10), under its gradient step: for
// the cell in focus, its gradient g, the moments m and v, their bias corrections, and the new
// value — the first step of torch.optim.AdamW (fresh moments) with the training panel's
// hyper-parameters, in its order: w ← w(1 − lr·λ), then w ← w − lr·m̂/(√v̂ + ε). A single
// example's gradient, unclipped; training averages a batch and clips its norm (train.h).
import { el } from '../../lib/dom.js';
import { fmt, exact } from '../../lib/format.js';
import { t } from '../../lib/i18n.js';

export const ADAMW = { lr: 3e-3, beta1: 0.9, beta2: 0.999, eps: 1e-8, weight_decay: 0.01 };

// The update of one weight w with gradient g, step t = 1, all in float64.
export function adamwUpdate(w, g, h = ADAMW, decay = true) {
  const m = (1 - h.beta1) * g, v = (1 - h.beta2) * g * g;
  const mh = m / (1 - h.beta1), vh = v / (1 - h.beta2);
  const decayed = decay ? w * (1 - h.lr * h.weight_decay) : w;
  const step = (h.lr * mh) / (Math.sqrt(vh) + h.eps);
  return { m, v, mh, vh, decayed, step, w1: decayed - step };
}

// The panel; returns show(R, c) for the cell in focus.
export function adamwPanel(ctx, host) {
  const { trace, step } = ctx;
  const P = trace.get(step.of);
  const box = el('section', 'adamw');
  box.append(el('h3', '', t('adamw.title')));
  const body = el('div', 'arith');
  const hp = `lr = ${ADAMW.lr}, β₁ = ${ADAMW.beta1}, β₂ = ${ADAMW.beta2}, ε = ${ADAMW.eps}, λ = ${ADAMW.weight_decay}`;
  const decays = P && P.shape.length === 2;
  box.append(body, el('p', 'muted small', t(decays ? 'adamw.about' : 'adamw.aboutNoDecay', { hp })));
  host.append(box);
  return (R, c) => {
    if (!P || !P.data) return;
    const L = trace.layout(step);
    const f = R * L.cols + c;
    const w = P.data[f], g = step.data[f];
    const u = adamwUpdate(w, g, ADAMW, decays);
    const lines = [
      `w = ${exact(w)},  g = ∂L/∂w = ${exact(g)}`,
      `m = β₁·0 + (1 − β₁)·g = ${fmt(u.m)};   v = β₂·0 + (1 − β₂)·g² = ${fmt(u.v)}`,
      `m̂ = m/(1 − β₁) = ${fmt(u.mh)};   v̂ = v/(1 − β₂) = ${fmt(u.vh)}`,
      decays ? `${t('adamw.decay')}: w·(1 − lr·λ) = ${fmt(u.decayed)}` : `${t('adamw.decay')}: ${t('adamw.noDecay')} ${fmt(u.decayed)}`,
      `w′ = ${fmt(u.decayed)} − lr·m̂/(√v̂ + ε) = ${fmt(u.decayed)} − ${fmt(u.step)} = ${fmt(u.w1)}`,
    ];
    body.replaceChildren(...lines.map((x, i) => el('div', `line ${i === lines.length - 1 ? 'result' : 'terms'}`, x)));
  };
}
