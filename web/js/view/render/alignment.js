// render/alignment.js — the cross-attention alignment of an encoder–decoder (issue 10): one
// picture of source tokens × output tokens per head and decoder layer, every head side by side,
// so the alignment is visible at a glance (in the trained number-words model each digit's row
// lands on the word that says it). Rows are named by the token that decoder position produces
// (the argmax of its row of the output probabilities, read from the trace), columns by the
// source tokens. Pointing at a cell says what it is; clicking it opens that head's weights step
// with the cell's own arithmetic, like every other cell (ctx.openCell: whoever shows the step —
// the page, an <encoder-walkthrough> element — goes there).
import { el, svgEl } from '../../lib/dom.js';
import { colorFor } from '../../lib/colors.js';
import { t, num } from '../../lib/i18n.js';

const s = svgEl;

// The token each decoder position produces: the argmax of its row of the output softmax.
export function producedTokens(trace) {
  const probs = trace.steps.find((x) => x.kind === 'softmax' && x.head < 0 && x.axes?.[1]?.labels === 'vocab');
  if (!probs) return null;
  const V = probs.shape[probs.shape.length - 1], S = probs.data.length / V, vocab = trace.text.vocab || [];
  const out = [];
  for (let t = 0; t < S; t++) {
    let best = 0;
    for (let v = 1; v < V; v++) if (probs.data[t * V + v] > probs.data[t * V + best]) best = v;
    out.push(vocab[best] !== undefined ? trace.piece(vocab[best]) : String(best));
  }
  return out;
}

// What the alignment reads besides the shown step: every cross-attention head of its section
// and the output probabilities (the Worker keeps the trace: trace.js).
export function alignmentSteps(trace, section) {
  const heads = trace.steps.filter((x) => isCrossAttention(x) && x.place.section === section);
  const probs = trace.steps.find((x) => x.kind === 'softmax' && x.head < 0 && x.axes?.[1]?.labels === 'vocab');
  return [...heads, ...(probs ? [probs] : [])].map((x) => x.id);
}

export function prepareAlignment(ctx) {
  return ctx.trace.ensureSteps(alignmentSteps(ctx.trace, ctx.step.place.section), ctx.engine);
}

export function isCrossAttention(step) {
  return step.kind === 'softmax' && step.place.head >= 0 && step.place.block === 'cross_attention';
}

export function renderAlignment(ctx, host) {
  const { trace, step } = ctx;
  const all = trace.steps.filter((x) => isCrossAttention(x) && x.place.section === step.place.section);
  const layers = [...new Set(all.map((x) => x.place.layer))].sort((a, b) => a - b);
  const b = trace.layout(step).batches > 1 ? ctx.batch : 0;
  const ax = trace.axesOf(step);
  const src = trace.labelsFor(ax.cols, b) || [];
  const out = producedTokens(trace) || trace.labelsFor(ax.rows, b) || [];
  const sec = el('section', 'alignment');
  sec.append(el('h3', '', t('alignment.title')));
  sec.append(el('p', 'muted small', t('alignment.how')));
  for (const L of layers) {
    const row = el('div', 'align-row');
    row.append(el('p', 'align-layer small', t('alignment.layer', { l: L })));
    const heads = all.filter((x) => x.place.layer === L).sort((x, y) => x.place.head - y.place.head);
    for (const h of heads) row.append(headPicture(ctx, h, b, src, out, h.id === step.id));
    sec.append(row);
  }
  host.append(sec);
}

function headPicture(ctx, h, b, src, out, current) {
  const trace = ctx.trace;
  const sh = h.shape, Tq = sh[sh.length - 2], Tk = sh[sh.length - 1];
  const off = trace.layout(h).batches > 1 ? b * Tq * Tk : 0;
  const c = 16, lw = 40, th = 66;
  const W = lw + Tk * c + 4, H = th + Tq * c + 18;
  const fig = el('figure', `align-head${current ? ' current' : ''}`);
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img',
    'aria-label': t('alignment.label', { h: h.place.head, out: Tq, src: Tk }) });
  for (let j = 0; j < Tk; j++) {
    const x = lw + j * c + 10;
    svg.append(s('text', { x, y: th - 4, transform: `rotate(-60 ${x} ${th - 4})`, class: 'align-src' }, clip(src[j] ?? '')));
  }
  for (let i = 0; i < Tq; i++) {
    svg.append(s('text', { x: lw - 3, y: th + i * c + 11, 'text-anchor': 'end', class: 'align-out' }, `→${clip(out[i] ?? '', 5)}`));
    for (let j = 0; j < Tk; j++) {
      const v = h.data[off + i * Tk + j];
      const r = s('rect', { x: lw + j * c, y: th + i * c, width: c - 1, height: c - 1, class: 'align-cell',
        fill: colorFor(v, 'sequential', 0, 1, ctx.dark).bg, tabindex: -1 });
      r.append(s('title', {}, t('alignment.cell', { h: h.place.head, l: h.place.layer, out: out[i] ?? i, pct: num(100 * v, 1), src: src[j] ?? j }) + ` (A[${i}, ${j}] = ${v.toPrecision(6)})`));
      r.addEventListener('click', () => ctx.openCell(h.id, (trace.layout(h).batches > 1 ? b * Tq : 0) + i, j));
      svg.append(r);
    }
  }
  svg.append(s('text', { x: lw, y: H - 4, class: 'align-cap' }, t('alignment.head', { h: h.place.head })));
  fig.append(svg);
  return fig;
}

const clip = (t, n = 8) => (t.length > n ? t.slice(0, n - 1) + '…' : t);
