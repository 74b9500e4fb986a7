// plot.js — a small SVG line plot with real axes, for the live training curves: x = step,
// a left axis for the loss (log scale: it falls by orders of magnitude) and a right axis for
// held-out accuracy (0–100%), with ticks, labels and a legend. Redrawn whole on each update
// (a few hundred points: cheap), all text set as text.
import { t, num } from '../lib/i18n.js';
import { svgEl } from '../lib/dom.js';
const s = svgEl;

const W = 360, H = 200, M = { l: 46, r: 44, t: 14, b: 34 };

// Nice ticks for [lo, hi] on a linear axis.
export function linearTicks(lo, hi, n = 5) {
  const span = hi - lo || 1;
  const step0 = span / n, mag = 10 ** Math.floor(Math.log10(step0));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((x) => span / x <= n) || 10 * mag;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9 * span; v += step) out.push(+v.toPrecision(12));
  return out;
}
// Powers of ten (and 2×, 5× when the range is narrow) for a log axis.
export function logTicks(lo, hi) {
  const out = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++)
    for (const m of hi / lo < 100 ? [1, 2, 5] : [1]) {
      const v = m * 10 ** e;
      if (v >= lo && v <= hi) out.push(v);
    }
  return out;
}

// series: {loss: [[step, loss]], acc: [[step, accuracy 0..1]]}; total: the last step.
export function drawTrainingPlot(svg, { loss, acc }, total) {
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.replaceChildren();
  const x0 = M.l, x1 = W - M.r, y0 = H - M.b, y1 = M.t;
  const finite = loss.filter((p) => p[1] > 0 && Number.isFinite(p[1]));
  let lmin = Math.min(...finite.map((p) => p[1]), 1), lmax = Math.max(...finite.map((p) => p[1]), 1.5);
  lmin = 10 ** Math.floor(Math.log10(lmin));
  lmax = 10 ** Math.ceil(Math.log10(lmax));
  const X = (v) => x0 + ((x1 - x0) * v) / Math.max(total, 1);
  const YL = (v) => y0 - ((y0 - y1) * (Math.log10(v) - Math.log10(lmin))) / (Math.log10(lmax) - Math.log10(lmin));
  const YA = (v) => y0 - (y0 - y1) * v;
  const g = s('g', { class: 'plot-axes' });
  g.append(s('line', { x1: x0, y1: y0, x2: x1, y2: y0 }), s('line', { x1: x0, y1: y0, x2: x0, y2: y1 }),
    s('line', { x1: x1, y1: y0, x2: x1, y2: y1 }));
  for (const v of linearTicks(0, total, 4)) {
    g.append(s('line', { x1: X(v), y1: y0, x2: X(v), y2: y0 + 4 }));
    g.append(s('text', { x: X(v), y: y0 + 15, 'text-anchor': 'middle' }, num(v)));
  }
  for (const v of logTicks(lmin, lmax)) {
    g.append(s('line', { class: 'grid', x1: x0, y1: YL(v), x2: x1, y2: YL(v) }));
    g.append(s('text', { x: x0 - 5, y: YL(v) + 3, 'text-anchor': 'end' }, v >= 0.01 ? num(v) : v.toExponential(0)));
  }
  for (const v of [0, 0.25, 0.5, 0.75, 1]) g.append(s('text', { x: x1 + 5, y: YA(v) + 3, 'text-anchor': 'start' }, t('train.percent', { value: num(v * 100) })));
  g.append(s('text', { x: (x0 + x1) / 2, y: H - 4, 'text-anchor': 'middle' }, t('train.plot.x')));
  g.append(s('text', { x: 12, y: (y0 + y1) / 2, 'text-anchor': 'middle', transform: `rotate(-90 12 ${(y0 + y1) / 2})`, class: 'loss-label' }, t('train.plot.loss')));
  g.append(s('text', { x: W - 6, y: (y0 + y1) / 2, 'text-anchor': 'middle', transform: `rotate(90 ${W - 6} ${(y0 + y1) / 2})`, class: 'acc-label' }, t('train.plot.acc')));
  svg.append(g);
  const path = (pts, Y, cls) => {
    if (!pts.length) return;
    const d = pts.map((p, i) => `${i ? 'L' : 'M'}${X(p[0]).toFixed(1)},${Y(p[1]).toFixed(1)}`).join('');
    svg.append(s('path', { d, class: cls }));
  };
  path(finite, YL, 'plot-loss');
  path(acc, YA, 'plot-acc');
  for (const p of acc) svg.append(s('circle', { cx: X(p[0]), cy: YA(p[1]), r: 2.2, class: 'plot-acc-dot' }));
}
