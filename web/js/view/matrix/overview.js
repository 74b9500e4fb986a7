// overview.js — a canvas overview of a matrix too big to read cell by cell: one pixel per
// value (downsampled), in the cell colours, −∞ grey; clicking it picks that cell.
import { el } from '../../lib/dom.js';
import { lutFor } from '../../lib/colors.js';
import { t } from '../../lib/i18n.js';


// opts: {tensor, layout, scale, lo, hi, dark (the theme), batch() → shown batch item, onPick(row, col)}.
// Returns the element, with .repaint() for when the batch item changes.
export function createOverview({ tensor, layout, scale, lo, hi, dark = false, batch, onPick }) {
  const wrap = el('div', 'overview');
  const cv = document.createElement('canvas');
  const W = Math.min(layout.cols, 480), H = Math.min(layout.per, 240);
  cv.width = W;
  cv.height = H;
  cv.className = 'overview-canvas';
  cv.style.height = `${Math.min(200, Math.max(36, layout.per * 8))}px`;
  cv.setAttribute('role', 'img');
  cv.setAttribute('aria-label', t('figure.overviewLabel', { rows: layout.per, cols: layout.cols }));
  wrap.append(cv);
  const paint = () => {
    const ctx = cv.getContext('2d');
    const img = ctx.createImageData(W, H);
    const base = batch() * layout.per * layout.cols;
    // The cell colours (colors.js cellColor), from a lookup table.
    const plain = scale === 'mask' || scale === 'none' || (lo === hi && scale !== 'prob');
    const { lut, index } = scale === 'prob' ? lutFor('sequential', 0, hi, dark) : lutFor(scale, lo, hi, dark);
    const px = img.data;
    for (let y = 0; y < H; y++) {
      const r = Math.floor((y * layout.per) / H);
      for (let x = 0; x < W; x++) {
        const v = tensor.data[base + r * layout.cols + Math.floor((x * layout.cols) / W)];
        const o = (y * W + x) * 4;
        if (v === -Infinity) px[o] = px[o + 1] = px[o + 2] = 150;
        else if (plain) px[o] = px[o + 1] = px[o + 2] = 240;
        else {
          const i = index(v);
          px[o] = lut[i];
          px[o + 1] = lut[i + 1];
          px[o + 2] = lut[i + 2];
        }
        px[o + 3] = 255;
      }
    }
    ctx.putImageData(img, 0, 0);
  };
  paint();
  wrap.repaint = paint;
  cv.addEventListener('click', (e) => {
    const rect = cv.getBoundingClientRect();
    const c = Math.min(layout.cols - 1, Math.floor(((e.clientX - rect.left) / rect.width) * layout.cols));
    const r = Math.min(layout.per - 1, Math.floor(((e.clientY - rect.top) / rect.height) * layout.per));
    onPick(r, c);
  });
  wrap.append(el('span', 'muted small-note', t('figure.overviewHint')));
  return wrap;
}
