// render/attention.js — attention weights as token-to-token lines per head (BertViz's head
// view, in SVG: line opacity = weight), and all heads of the layer side by side as small
// heatmaps (small multiples, at most 64×64 cells each, reduced by the Worker: click one to
// go to that head). The weights grid with its arithmetic follows, as for every step.
// prepareAttention fetches what it draws before it draws (the Worker keeps the trace).
import { el } from '../matrix/matrix.js';
import { lutFor, headColor } from '../../lib/colors.js';
import { fmt } from '../../lib/format.js';
import { renderMatrixStep } from './matrix-step.js';
import { t as msg } from '../../lib/i18n.js';

const SVGNS = 'http://www.w3.org/2000/svg';
function svg(tag, attrs = {}) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

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
  const ax = trace.axesOf(step);
  const b = trace.layout(step).batches > 1 ? ctx.batch : 0;
  const qTok = trace.labelsFor(ax.rows, b) || [];
  const kTok = trace.labelsFor(ax.cols, b) || [];
  const wrap = el('section', 'attn');

  // ---- head view ---------------------------------------------------------------------
  const hv = el('div', 'headview');
  const title = el('h3', '', msg('attention.whoTitle'));
  hv.append(title);
  hv.append(el('p', 'muted', msg('attention.whoHelp')));
  const toggles = el('div', 'head-toggles');
  toggles.setAttribute('role', 'group');
  toggles.setAttribute('aria-label', msg('attention.headsShown'));
  const shown = new Set([step.head]);
  heads.forEach((s) => {
    const lab = el('label', 'head-toggle');
    const cb = document.createElement('input');
    cb.type = 'checkbox';
    cb.checked = shown.has(s.head);
    cb.addEventListener('change', () => {
      if (cb.checked) shown.add(s.head);
      else shown.delete(s.head);
      draw();
    });
    const sw = el('span', 'swatch');
    sw.style.backgroundColor = headColor(s.head);
    lab.append(cb, sw, ` ${msg('attention.head', { h: s.head })}`);
    toggles.append(lab);
  });
  if (heads.length > 1) hv.append(toggles);

  const { Tq, Tk } = sliceOf(trace, step, b);
  const rowH = Tq > 40 || Tk > 40 ? 14 : 22;
  const W = 460, left = 150, right = W - 150;
  const H = Math.max(Tq, Tk) * rowH + 16;
  const box = svg('svg', { viewBox: `0 0 ${W} ${H}`, width: '100%', class: 'headview-svg', role: 'group' });
  box.setAttribute('aria-label', msg('attention.linesLabel', { q: Tq, k: Tk }));
  const lines = svg('g', { class: 'lines' });
  const labelsL = svg('g', { class: 'tok-left' });
  const labelsR = svg('g', { class: 'tok-right' });
  const weightsR = svg('g', { class: 'tok-weights' });
  box.append(lines, labelsL, labelsR, weightsR);
  const y = (i) => 12 + i * rowH + rowH / 2;
  let focusQ = -1;
  const many = Tq * Tk > 1600;

  const clip = (s) => (s.length > 16 ? s.slice(0, 15) + '…' : s);
  for (let i = 0; i < Tq; i++) {
    // One tab stop for the whole column (roving tabindex); ↑/↓ move between tokens.
    const t = svg('text', { x: left - 8, y: y(i), 'text-anchor': 'end', 'dominant-baseline': 'middle', tabindex: i === 0 ? 0 : -1, role: 'button', class: 'tok' });
    t.textContent = clip(qTok[i] ?? `q${i}`);
    t.setAttribute('aria-label', msg('attention.queryLabel', { i, tok: qTok[i] ?? '' }));
    const on = () => { focusQ = i; draw(); };
    t.addEventListener('pointerenter', on);
    t.addEventListener('focus', on);
    t.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        e.stopPropagation();
        const n = labelsL.children[Math.max(0, Math.min(Tq - 1, i + (e.key === 'ArrowDown' ? 1 : -1)))];
        for (const c of labelsL.children) c.setAttribute('tabindex', c === n ? '0' : '-1');
        n.focus();
      }
    });
    labelsL.append(t);
  }
  box.addEventListener('pointerleave', () => { focusQ = -1; draw(); });
  for (let j = 0; j < Tk; j++) {
    const t = svg('text', { x: right + 8, y: y(j), 'dominant-baseline': 'middle', class: 'tok' });
    t.textContent = clip(kTok[j] ?? `k${j}`);
    labelsR.append(t);
  }

  function draw() {
    lines.replaceChildren();
    weightsR.replaceChildren();
    for (const c of labelsL.children) c.classList.remove('active');
    if (focusQ >= 0) labelsL.children[focusQ].classList.add('active');
    const qs = focusQ >= 0 ? [focusQ] : many ? [] : Array.from({ length: Tq }, (_, i) => i);
    for (const s of heads) {
      if (!shown.has(s.head)) continue;
      const { w } = sliceOf(trace, s, b);
      const color = headColor(s.head);
      for (const i of qs) {
        for (let j = 0; j < Tk; j++) {
          const a = w[i * Tk + j];
          if (!(a > 0.004)) continue;
          lines.append(svg('line', {
            x1: left, y1: y(i), x2: right, y2: y(j), stroke: color,
            'stroke-opacity': Math.min(1, 0.1 + a * 0.9).toFixed(3), 'stroke-width': (0.8 + a * 3.2).toFixed(2),
          }));
        }
      }
    }
    if (focusQ >= 0 && shown.has(step.head)) {
      const { w } = sliceOf(trace, step, b);
      for (let j = 0; j < Tk; j++) {
        const a = w[focusQ * Tk + j];
        const t = svg('text', { x: W - 4, y: y(j), 'text-anchor': 'end', 'dominant-baseline': 'middle', class: 'wval' });
        t.textContent = a === 0 ? '0' : fmt(a);
        weightsR.append(t);
      }
    }
    if (!qs.length) {
      const t = svg('text', { x: W / 2, y: 10, 'text-anchor': 'middle', class: 'muted-svg' });
      t.textContent = msg('attention.manyTokens');
      lines.append(t);
    }
  }
  draw();
  const scroll = el('div', 'headview-scroll');
  scroll.append(box);
  hv.append(scroll);
  wrap.append(hv);

  // ---- small multiples: every head, and every layer when there are several (BertViz's
  // model view): rows are layers of this kind of attention block, columns are heads ------
  const layers = layerRows(trace, step);
  if (heads.length > 1 || layers.length > 1) {
    const sm = el('div', 'multiples');
    sm.append(el('h3', '', layers.length > 1 ? msg('attention.allLayers', { layers: layers.length, heads: heads.length }) : msg('attention.allHeads', { heads: heads.length })));
    const table = el('div', 'multiples-rows');
    for (const row of layers) {
      const r = el('div', 'multiples-row' + (row.current ? ' current-row' : ''));
      if (layers.length > 1) r.append(el('span', 'multiples-label', row.label));
      const grid = el('div', 'multiples-grid');
      for (const s of row.steps) grid.append(thumb(s, layers.length > 1 ? 64 : 96));
      r.append(grid);
      table.append(r);
    }
    sm.append(table);
    sm.append(el('p', 'muted small', msg('attention.thumbHelp')));
    wrap.append(sm);
  }

  function thumb(s, size) {
    // Reduced by the Worker (prepareAttention), or the whole head when its data is here (a
    // view that holds the whole trace, e.g. <encoder-walkthrough>, draws without preparing).
    const got = (ctx.thumbs && ctx.thumbs.get(s.id)) || (s.data && (({ w, Tq, Tk }) => ({ data: w, rows: Tq, cols: Tk }))(sliceOf(trace, s, b)));
    if (!got) return el('span', 'multiple muted', '…');
    const { data: w, rows: q, cols: k } = got;
    const current = s.id === step.id;
    const a = el('a', 'multiple' + (current ? ' current' : ''));
    a.href = '#';
    // The accessible name starts with the visible caption ("head 1"), as speech users say it.
    const capText = msg('attention.head', { h: s.head });
    a.setAttribute('aria-label', msg(current ? 'attention.thumbLabelCurrent' : 'attention.thumbLabel', { cap: capText, title: s.title }));
    if (current) a.setAttribute('aria-current', 'step');
    a.addEventListener('click', (e) => { e.preventDefault(); ctx.goTo(s.id); });
    // One pixel per weight (ImageData, not a fillRect per cell), scaled up by CSS; colours
    // span 0 … this head's largest weight so that long sentences stay readable.
    const cv = document.createElement('canvas');
    cv.width = k;
    cv.height = q;
    cv.style.width = `${size}px`;
    cv.style.height = `${size}px`;
    let mx = 0;
    for (let i = 0; i < w.length; i++) if (w[i] > mx) mx = w[i];
    const g = cv.getContext('2d');
    const img = g.createImageData(k, q);
    const { lut, index } = lutFor('sequential', 0, mx || 1);
    const px = img.data;
    for (let i = 0; i < q * k; i++) {
      const j = index(w[i]);
      px[i * 4] = lut[j];
      px[i * 4 + 1] = lut[j + 1];
      px[i * 4 + 2] = lut[j + 2];
      px[i * 4 + 3] = 255;
    }
    g.putImageData(img, 0, 0);
    cv.title = msg('attention.thumbTitle', { h: s.head, max: fmt(mx) });
    const cap = el('span', 'multiple-cap', capText);
    const sw = el('span', 'swatch');
    sw.style.backgroundColor = headColor(s.head);
    cap.prepend(sw);
    a.append(cv, cap);
    return a;
  }
  host.append(wrap);
  return renderMatrixStep(ctx, host);
}
