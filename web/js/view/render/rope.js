// render/rope.js — the rotation's before and after, pair by pair (issue 30). Under the explanation
// of the cell in focus of a rotated q or k: for that cell's row and head, each pair of columns
// (p, p + d_h/2) as it came in beside the same pair after its turn by θ[t, p], and each pair's
// length, which the turn keeps; the focused pair drawn as two arrows on a circle. Every number is
// read from the trace — the input, the angles, the step's own result — not recomputed: the grid
// above explains any one of them (kinds/decoder.js rope), and pointing at a cell there moves this.
import { renderMatrixStep } from './matrix-step.js';
import { el, svgEl } from '../../lib/dom.js';
import { fmt } from '../../lib/format.js';
import { t } from '../../lib/i18n.js';
import { symOf, rowName, val } from '../kinds/common.js';

const MAX_PAIRS = 16;

export function renderRope(ctx, host) {
  const box = el('section', 'rope-pairs');
  const show = ropePanel(ctx, box);
  const onExplain = ctx.onExplain;
  const r = renderMatrixStep({ ...ctx, onExplain: (R, c) => { show(R, c); if (onExplain) onExplain(R, c); } }, host);
  // Between the result (with its explanation, sticky in its column) and the inputs.
  const col = r.result.el.parentElement;
  col.after(box);
  return r;
}

// The panel in `box`; returns show(R, c) for the cell in focus.
function ropePanel({ trace, step }, box) {
  const X = trace.get(step.inputs[0]), A = trace.get(step.inputs[1]);
  if (!X || !X.data || !A || !A.data) return () => {};
  const half = A.shape[1], cols = step.shape[1];
  const title = el('h3', 'rope-title'), about = el('p', 'muted small rope-about');
  const table = el('table', 'rope-table'), fig = el('div', 'rope-fig');
  const wrap = el('div', 'rope-body'), scroll = el('div', 'rope-scroll');
  scroll.append(table);
  wrap.append(scroll, fig);
  box.append(title, wrap, about);
  return (R, c) => {
    const hd = 2 * half, h = Math.floor(c / hd), p = (c % hd) % half;
    const p0 = Math.max(0, Math.min(p - MAX_PAIRS / 2, half - MAX_PAIRS)), p1 = Math.min(half, p0 + MAX_PAIRS);
    const pair = (q) => {
      const a = h * hd + q, b = a + half;
      return { q, a, b, th: val(trace, A, R, q), x: [X.data[R * cols + a], X.data[R * cols + b]], y: [step.data[R * cols + a], step.data[R * cols + b]] };
    };
    title.textContent = t('decoders.rope.pairs.title', { row: rowName(trace, step, R).text, h });
    const head = el('tr');
    for (const k of ['pair', 'cols', 'angle']) head.append(el('th', '', t(`decoders.rope.pairs.${k}`)));
    head.append(el('th', '', t('decoders.rope.pairs.before', { sym: symOf(X) })), el('th', '', t('decoders.rope.pairs.after', { sym: symOf(step) })),
      el('th', '', t('decoders.rope.pairs.length')));
    const rows = [head];
    for (let q = p0; q < p1; q++) {
      const s = pair(q), tr = el('tr', q === p ? 'current' : '');
      tr.append(el('td', 'num', String(q)), el('td', 'num', `${s.a}, ${s.b}`), el('td', 'num', fmt(s.th)),
        el('td', 'num', `(${fmt(s.x[0])}, ${fmt(s.x[1])})`), el('td', 'num', `(${fmt(s.y[0])}, ${fmt(s.y[1])})`),
        el('td', 'num', `${fmt(Math.hypot(...s.x))} → ${fmt(Math.hypot(...s.y))}`));
      rows.push(tr);
    }
    table.replaceChildren(...rows);
    fig.replaceChildren(pairFigure(pair(p), R));
    about.textContent = t('decoders.rope.pairs.about', { half, h, a: p0, b: p1 - 1, n: half });
  };
}

// The focused pair as two arrows from the centre of a circle: before (dashed) and after the turn.
function pairFigure(s, R) {
  const size = 132, mid = size / 2, rad = 52;
  const len = Math.max(Math.hypot(...s.x), Math.hypot(...s.y)) || 1;
  const tip = (v) => [mid + (rad * v[0]) / len, mid - (rad * v[1]) / len];
  const deg = ((((s.th * 180) / Math.PI) % 360) + 360) % 360;
  const svg = svgEl('svg', { viewBox: `0 0 ${size} ${size}`, width: size, height: size, role: 'img',
    'aria-label': t('decoders.rope.pairs.figure', { p: s.q, t: R, deg: fmt(deg) }) });
  svg.append(svgEl('circle', { cx: mid, cy: mid, r: rad, class: 'rope-circle' }),
    svgEl('line', { x1: mid - rad, y1: mid, x2: mid + rad, y2: mid, class: 'rope-axis' }),
    svgEl('line', { x1: mid, y1: mid - rad, x2: mid, y2: mid + rad, class: 'rope-axis' }));
  for (const [v, cls] of [[s.x, 'rope-before'], [s.y, 'rope-after']]) {
    const [x2, y2] = tip(v);
    svg.append(svgEl('line', { x1: mid, y1: mid, x2, y2, class: cls }), svgEl('circle', { cx: x2, cy: y2, r: 3, class: cls }));
  }
  return svg;
}
