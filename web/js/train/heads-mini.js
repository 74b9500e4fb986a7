// heads-mini.js — one example's attention, every head of the last layer side by side as small
// labelled heatmaps (rows: the token each decoder position produced, or the encoder's tokens;
// columns: the source tokens), for the training panel: redrawn as the model learns.
import { t } from '../lib/i18n.js';
import { el, svgEl } from '../lib/dom.js';
import { colorFor } from '../lib/colors.js';

const s = svgEl;

// sample: {source, target, generated?, heads: [{layer, head, rows, cols, data}], probs?};
// dark: the page's theme.
export function drawHeads(host, sample, dark = false) {
  const last = Math.max(...sample.heads.map((h) => h.layer));
  const heads = sample.heads.filter((h) => h.layer === last);
  const rows = sample.generated ? [...sample.generated, '</s>'] : sample.source;
  const cap = el('p', 'small muted', sample.generated
    ? t('train.heads.cross', { source: sample.source.join(' '), generated: sample.generated.join(' ') || t('train.heads.nothing') })
    : t('train.heads.self', { source: sample.source.join(' ') }));
  const wrap = el('div', 'mini-heads');
  for (const h of heads) wrap.append(headSvg(h, rows, sample.source, dark));
  host.replaceChildren(cap, wrap);
}

function headSvg(h, rowLabels, colLabels, dark) {
  const c = 11, lw = 34, th = 34;
  const W = lw + h.cols * c + 2, H = th + h.rows * c + 14;
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, width: W * 1.4, height: H * 1.4, class: 'mini-head', role: 'img',
    'aria-label': t('train.heads.head', { head: h.head }) });
  svg.setAttribute('preserveAspectRatio', 'xMinYMin meet');
  for (let i = 0; i < h.rows; i++) {
    svg.append(s('text', { x: lw - 2, y: th + i * c + 8, 'text-anchor': 'end' }, short(rowLabels[i] ?? '')));
    for (let j = 0; j < h.cols; j++) {
      const v = h.data[i * h.cols + j];
      const r = s('rect', { x: lw + j * c, y: th + i * c, width: c - 1, height: c - 1, fill: colorFor(v, 'sequential', 0, 1, dark).bg });
      r.append(s('title', {}, `${rowLabels[i] ?? i} → ${colLabels[j] ?? j}: ${v.toFixed(3)}`));
      svg.append(r);
    }
  }
  for (let j = 0; j < h.cols; j++)
    svg.append(s('text', { x: lw + j * c + 7, y: th - 3, transform: `rotate(-60 ${lw + j * c + 7} ${th - 3})` }, short(colLabels[j] ?? '')));
  svg.append(s('text', { x: lw, y: H - 2 }, t('train.heads.head', { head: h.head })));
  return svg;
}
const short = (t) => (t.length > 7 ? t.slice(0, 6) + '…' : t);
