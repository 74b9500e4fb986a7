// render/attention.js — attention weights as token-to-token lines per head (BertViz's head
// view, in SVG: line opacity = weight), and all heads of the layer side by side as small
// heatmaps (small multiples, at most 64×64 cells each, reduced by the Worker: click one to
// go to that head). The weights grid with its arithmetic follows, as for every step.
// prepareAttention fetches what it draws before it draws (the Worker keeps the trace).
import { el, svgEl as svg } from '../../lib/dom.js';
import { lutFor, headColor } from '../../lib/colors.js';
import { fmt } from '../../lib/format.js';
import { renderMatrixStep } from './matrix-step.js';
import { t as msg } from '../../lib/i18n.js';
import { stepTitle } from '../../model/titles.js';

const samePlace = (a, b) => a.section === b.section && a.layer === b.layer && a.block === b.block;

// The per-head steps of the same kind in the same attention block as `step`, by head.
function headSteps(trace, step) {
  return trace.steps
    .filter((s) => s.kind === step.kind && s.place.head >= 0 && samePlace(s.place, step.place))
    .sort((x, y) => x.place.head - y.place.head);
}

// The same attention block in every layer of the stack: encoder self-attention, decoder
// self- or cross-attention. [{label, current, steps: [weights of head 0…h−1]}]
function layerRows(trace, step) {
  const p = step.place;
  const layers = new Map();
  for (const s of trace.steps) {
    if (s.kind !== step.kind || s.place.head < 0 || s.place.section !== p.section || s.place.block !== p.block) continue;
    if (!layers.has(s.place.layer)) layers.set(s.place.layer, []);
    layers.get(s.place.layer).push(s);
  }
  return [...layers.entries()].sort((x, y) => x[0] - y[0]).map(([L, steps]) => ({
    label: msg(p.section === 'decoder' ? 'attention.decoderLayer' : 'attention.layer', { n: L }),
    current: L === p.layer,
    steps: steps.sort((x, y) => x.place.head - y.place.head),
  }));
}

// The Tq×Tk region of batch item b of step s: {step, offset, rows, cols}.
function regionOf(trace, s, b) {
  const sh = s.shape;
  const Tq = sh[sh.length - 2], Tk = sh[sh.length - 1];
  const batched = trace.layout(s).batches > 1;
  return { step: s, offset: batched ? b * Tq * Tk : 0, rows: Tq, cols: Tk };
}

function sliceOf(trace, s, b) {
  const g = regionOf(trace, s, b);
  return { Tq: g.rows, Tk: g.cols, w: s.data.subarray(g.offset, g.offset + g.rows * g.cols) };
}

const THUMB_MAX = 64; // cells per side of a thumbnail (longer sentences: block maxima)

// Before drawing: the weights of every head of this block (the line view draws them all)
// and the thumbnails of every head of every layer, reduced by the Worker
// (trace.thumbnails), into ctx.thumbs (step id → {rows, cols, data}).
export async function prepareAttention(ctx) {
  const { trace, step } = ctx;
  const b = trace.layout(step).batches > 1 ? ctx.batch : 0;
  const heads = headSteps(trace, step);
  const steps = layerRows(trace, step).flatMap((row) => row.steps);
  const thumbs = heads.length > 1 || steps.length > 1
    ? trace.thumbnails(steps.map((s) => regionOf(trace, s, b)), THUMB_MAX, ctx.engine) : null;
  const [, got] = await Promise.all([trace.ensureSteps(heads.map((s) => s.id), ctx.engine), thumbs]);
  if (got) ctx.thumbs = new Map(steps.map((s, k) => [s.id, got[k]]));
}

export function renderAttention(ctx, host) {
  const { trace, step } = ctx;
  const heads = headSteps(trace, step);
  const b = trace.layout(step).batches > 1 ? ctx.batch : 0;
  const wrap = el('section', 'attn');
  wrap.append(headView(ctx, heads, b));
  // Small multiples: every head, and every layer when there are several (BertViz's model
  // view): rows are layers of this kind of attention block, columns are heads.
  const layers = layerRows(trace, step);
  if (heads.length > 1 || layers.length > 1) wrap.append(smallMultiples(ctx, layers, heads.length, b));
  host.append(wrap);
  return renderMatrixStep(ctx, host);
}

// The head view: who attends to whom, one line per weight, a colour per head; a checkbox per
// head says which heads are drawn.
function headView(ctx, heads, b) {
  const hv = el('div', 'headview');
  hv.append(el('h3', '', msg('attention.whoTitle')), el('p', 'muted', msg('attention.whoHelp')));
  const shown = new Set([ctx.step.head]);
  const lines = lineView(ctx, heads, b, shown);
  if (heads.length > 1) hv.append(headToggles(heads, shown, lines.draw, ctx.dark));
  const scroll = el('div', 'headview-scroll');
  scroll.append(lines.box);
  hv.append(scroll);
  return hv;
}

function headToggles(heads, shown, redraw, dark) {
  const toggles = el('div', 'head-toggles');
  toggles.setAttribute('role', 'group');
  toggles.setAttribute('aria-label', msg('attention.headsShown'));
  for (const s of heads) {
    const lab = el('label', 'head-toggle');
    const cb = document.createElement('input');
    cb.type = 'checkbox';
    cb.checked = shown.has(s.head);
    cb.addEventListener('change', () => {
      if (cb.checked) shown.add(s.head);
      else shown.delete(s.head);
      redraw();
    });
    const sw = el('span', 'swatch');
    sw.style.backgroundColor = headColor(s.head, dark);
    lab.append(cb, sw, ` ${msg('attention.head', { h: s.head })}`);
    toggles.append(lab);
  }
  return toggles;
}

const clipToken = (s) => (s.length > 16 ? s.slice(0, 15) + '…' : s);

// The lines between the query tokens (left) and the key tokens (right): all of them, or only
// the focused query's (pointer or keyboard on its token) with its weights written beside the
// keys. → {box (the SVG), draw()}.
function lineView(ctx, heads, b, shown) {
  const { trace, step } = ctx;
  const ax = trace.axesOf(step);
  const qTok = trace.labelsFor(ax.rows, b) || [];
  const kTok = trace.labelsFor(ax.cols, b) || [];
  const { Tq, Tk } = sliceOf(trace, step, b);
  const rowH = Tq > 40 || Tk > 40 ? 14 : 22;
  const g = { W: 460, left: 150, right: 460 - 150, y: (i) => 12 + i * rowH + rowH / 2 };
  const H = Math.max(Tq, Tk) * rowH + 16;
  const box = svg('svg', { viewBox: `0 0 ${g.W} ${H}`, width: '100%', class: 'headview-svg', role: 'group' });
  box.setAttribute('aria-label', msg('attention.linesLabel', { q: Tq, k: Tk }));
  const parts = { lines: svg('g', { class: 'lines' }), labelsL: svg('g', { class: 'tok-left' }), labelsR: svg('g', { class: 'tok-right' }), weightsR: svg('g', { class: 'tok-weights' }) };
  box.append(parts.lines, parts.labelsL, parts.labelsR, parts.weightsR);
  const view = { focusQ: -1 };
  const draw = () => drawLines(ctx, heads, b, shown, parts, g, view.focusQ);
  queryLabels(parts.labelsL, qTok, Tq, g, (i) => { view.focusQ = i; draw(); });
  box.addEventListener('pointerleave', () => { view.focusQ = -1; draw(); });
  for (let j = 0; j < Tk; j++) {
    const t = svg('text', { x: g.right + 8, y: g.y(j), 'dominant-baseline': 'middle', class: 'tok' });
    t.textContent = clipToken(kTok[j] ?? `k${j}`);
    parts.labelsR.append(t);
  }
  draw();
  return { box, draw };
}

// The query tokens: one tab stop for the whole column (roving tabindex); ↑/↓ move between
// tokens; pointing at or focusing one calls focus(i).
function queryLabels(labelsL, qTok, Tq, g, focus) {
  for (let i = 0; i < Tq; i++) {
    const t = svg('text', { x: g.left - 8, y: g.y(i), 'text-anchor': 'end', 'dominant-baseline': 'middle', tabindex: i === 0 ? 0 : -1, role: 'button', class: 'tok' });
    t.textContent = clipToken(qTok[i] ?? `q${i}`);
    t.setAttribute('aria-label', msg('attention.queryLabel', { i, tok: qTok[i] ?? '' }));
    t.addEventListener('pointerenter', () => focus(i));
    t.addEventListener('focus', () => focus(i));
    t.addEventListener('keydown', (e) => {
      if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
      e.preventDefault();
      e.stopPropagation();
      const n = labelsL.children[Math.max(0, Math.min(Tq - 1, i + (e.key === 'ArrowDown' ? 1 : -1)))];
      for (const c of labelsL.children) c.setAttribute('tabindex', c === n ? '0' : '-1');
      n.focus();
    });
    labelsL.append(t);
  }
}

function drawLines(ctx, heads, b, shown, parts, g, focusQ) {
  const { trace, step } = ctx;
  const { lines, labelsL, weightsR } = parts;
  const { Tq, Tk } = sliceOf(trace, step, b);
  lines.replaceChildren();
  weightsR.replaceChildren();
  for (const c of labelsL.children) c.classList.remove('active');
  if (focusQ >= 0) labelsL.children[focusQ].classList.add('active');
  const qs = focusQ >= 0 ? [focusQ] : Tq * Tk > 1600 ? [] : Array.from({ length: Tq }, (_, i) => i);
  for (const s of heads) {
    if (!shown.has(s.head)) continue;
    const { w } = sliceOf(trace, s, b);
    const color = headColor(s.head, ctx.dark);
    for (const i of qs)
      for (let j = 0; j < Tk; j++) {
        const a = w[i * Tk + j];
        if (!(a > 0.004)) continue;
        lines.append(svg('line', {
          x1: g.left, y1: g.y(i), x2: g.right, y2: g.y(j), stroke: color,
          'stroke-opacity': Math.min(1, 0.1 + a * 0.9).toFixed(3), 'stroke-width': (0.8 + a * 3.2).toFixed(2),
        }));
      }
  }
  if (focusQ >= 0 && shown.has(step.head)) {
    const { w } = sliceOf(trace, step, b);
    for (let j = 0; j < Tk; j++) {
      const a = w[focusQ * Tk + j];
      weightsR.append(svg('text', { x: g.W - 4, y: g.y(j), 'text-anchor': 'end', 'dominant-baseline': 'middle', class: 'wval' }, a === 0 ? '0' : fmt(a)));
    }
  }
  if (!qs.length) lines.append(svg('text', { x: g.W / 2, y: 10, 'text-anchor': 'middle', class: 'muted-svg' }, msg('attention.manyTokens')));
}

function smallMultiples(ctx, layers, nHeads, b) {
  const sm = el('div', 'multiples');
  sm.append(el('h3', '', layers.length > 1 ? msg('attention.allLayers', { layers: layers.length, heads: nHeads }) : msg('attention.allHeads', { heads: nHeads })));
  const table = el('div', 'multiples-rows');
  for (const row of layers) {
    const r = el('div', 'multiples-row' + (row.current ? ' current-row' : ''));
    if (layers.length > 1) r.append(el('span', 'multiples-label', row.label));
    const grid = el('div', 'multiples-grid');
    for (const s of row.steps) grid.append(thumb(ctx, s, layers.length > 1 ? 64 : 96, b));
    r.append(grid);
    table.append(r);
  }
  sm.append(table, el('p', 'muted small', msg('attention.thumbHelp')));
  return sm;
}

// One head as a link to its step: its weights one pixel each (reduced by the Worker in
// prepareAttention, or the whole head when its data is here: a view that holds the whole
// trace, e.g. <encoder-walkthrough>, draws without preparing), scaled up by CSS.
function thumb(ctx, s, size, b) {
  const { trace, step } = ctx;
  const got = (ctx.thumbs && ctx.thumbs.get(s.id)) || (s.data && (({ w, Tq, Tk }) => ({ data: w, rows: Tq, cols: Tk }))(sliceOf(trace, s, b)));
  if (!got) return el('span', 'multiple muted', '…');
  const current = s.id === step.id;
  const a = el('a', 'multiple' + (current ? ' current' : ''));
  a.href = '#';
  a.dataset.step = s.id; // the what-if lab switches this head off on a click (lab/marks.js)
  // The accessible name starts with the visible caption ("head 1"), as speech users say it.
  const capText = msg('attention.head', { h: s.head });
  a.setAttribute('aria-label', msg(current ? 'attention.thumbLabelCurrent' : 'attention.thumbLabel', { cap: capText, title: stepTitle(s, trace) }));
  if (current) a.setAttribute('aria-current', 'step');
  a.addEventListener('click', (e) => { e.preventDefault(); ctx.goTo(s.id); });
  const { cv, max } = heatCanvas(got, size, ctx.dark);
  cv.title = msg('attention.thumbTitle', { h: s.head, max: fmt(max) });
  const cap = el('span', 'multiple-cap', capText);
  const sw = el('span', 'swatch');
  sw.style.backgroundColor = headColor(s.head, ctx.dark);
  cap.prepend(sw);
  a.append(cv, cap);
  return a;
}

// One pixel per weight (ImageData, not a fillRect per cell); colours span 0 … this head's
// largest weight so that long sentences stay readable.
function heatCanvas({ data: w, rows: q, cols: k }, size, dark) {
  const cv = document.createElement('canvas');
  cv.width = k;
  cv.height = q;
  cv.style.width = `${size}px`;
  cv.style.height = `${size}px`;
  let max = 0;
  for (let i = 0; i < w.length; i++) if (w[i] > max) max = w[i];
  const g = cv.getContext('2d');
  const img = g.createImageData(k, q);
  const { lut, index } = lutFor('sequential', 0, max || 1, dark);
  const px = img.data;
  for (let i = 0; i < q * k; i++) {
    const j = index(w[i]);
    px[i * 4] = lut[j];
    px[i * 4 + 1] = lut[j + 1];
    px[i * 4 + 2] = lut[j + 2];
    px[i * 4 + 3] = 255;
  }
  g.putImageData(img, 0, 0);
  return { cv, max };
}
