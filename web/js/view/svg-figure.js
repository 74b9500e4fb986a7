// svg-figure.js — one step as a standalone SVG image: its title, the heatmap of one batch item
// with its numbers and its row/column labels, the colour legend with its range, and the
// settings it came from in <metadata> (JSON) — the figure as the page shows it, for a
// slide or a paper. A string builder (no DOM), so it also runs in Node; every text is escaped.
import { cellColor, gradientStops } from '../lib/colors.js';
import { valueRange } from '../model/layout.js';
import { fmt } from '../lib/format.js';

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// Cell size: numbers while they can be read, small coloured squares beyond.
function cellSize(rows, cols) {
  if (cols <= 32 && rows <= 64) return { w: 50, h: 22, numbers: true };
  return { w: Math.max(3, Math.floor(960 / cols)), h: Math.max(3, Math.floor(960 / cols)), numbers: false };
}

// Where everything goes: {W, H, left, top, cell}. The same function gives the PNG's size.
export function svgLayout(per, cols, rowLabels, title, subtitle = '') {
  const cell = cellSize(per, cols);
  const labelW = rowLabels ? Math.min(140, 14 + 7 * Math.max(1, ...rowLabels.map((l) => String(l).length))) : 34;
  const left = 12 + labelW, top = 58;
  const gridW = cols * cell.w, gridH = per * cell.h;
  // Text widths estimated generously (bold 15 px ≈ 9.5 px a character; 11 px ≈ 6.8 px).
  const W = Math.max(left + gridW + 12, 24 + 9.5 * String(title).length, 24 + 6.8 * String(subtitle).length, 320);
  return { W: Math.ceil(W), H: top + gridH + 52, left, top, cell };
}

// opts: {title, subtitle, data (the batch item's rows × cols values), per, cols, rowLabels,
//        colLabels, scale, dark, metadata (object)} → SVG text.
export function svgFigure(o) {
  const L = svgLayout(o.per, o.cols, o.rowLabels, o.title, o.subtitle);
  const { w, h, numbers } = L.cell;
  const [lo0, hi0] = valueRange(o.data);
  const [lo, hi] = o.scale === 'prob' ? [0, Math.max(hi0, 1e-6)] : [lo0, hi0];
  const ink = o.dark ? '#ececf1' : '#1c1c21', muted = o.dark ? '#a3a3ad' : '#6b6b76';
  const bg = o.dark ? '#1e1f24' : '#ffffff', plain = o.dark ? '#34353c' : '#f4f4f2';
  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${L.W}" height="${L.H}" viewBox="0 0 ${L.W} ${L.H}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">`);
  out.push(`<title>${esc(o.title)}</title>`);
  out.push(`<metadata id="encoder-walkthrough-settings">${esc(JSON.stringify(o.metadata))}</metadata>`);
  out.push(`<rect width="100%" height="100%" fill="${bg}"/>`);
  out.push(`<text x="12" y="22" font-size="15" font-weight="bold" fill="${ink}">${esc(o.title)}</text>`);
  out.push(`<text x="12" y="40" font-size="11" fill="${muted}">${esc(o.subtitle)}</text>`);
  const mono = 'font-family="DejaVu Sans Mono, Menlo, Consolas, monospace"';
  if (o.colLabels || numbers) {
    for (let c = 0; c < o.cols && numbers; c++) {
      const lab = o.colLabels ? o.colLabels[c] : c;
      out.push(`<text x="${L.left + c * w + w / 2}" y="${L.top - 5}" font-size="10" text-anchor="middle" fill="${muted}">${esc(String(lab).slice(0, 8))}</text>`);
    }
  }
  for (let r = 0; r < o.per; r++) {
    const y = L.top + r * h;
    if (numbers || r % Math.ceil(12 / h) === 0) {
      const lab = o.rowLabels ? o.rowLabels[r] : r;
      out.push(`<text x="${L.left - 6}" y="${y + h / 2 + 3.5}" font-size="10" text-anchor="end" fill="${muted}">${esc(String(lab).slice(0, 18))}</text>`);
    }
    for (let c = 0; c < o.cols; c++) {
      const v = o.data[r * o.cols + c];
      const col = v === -Infinity ? null : cellColor(v, o.scale, lo, hi, o.dark);
      const fill = v === -Infinity ? (o.dark ? '#55565e' : '#d4d4d4') : col ? col.bg : plain;
      out.push(`<rect x="${L.left + c * w + 1}" y="${y + 1}" width="${w - 2}" height="${h - 2}" rx="2" fill="${fill}"/>`);
      if (numbers) {
        const fg = v === -Infinity ? '#222222' : col ? col.fg : ink;
        out.push(`<text x="${L.left + c * w + w - 5}" y="${y + h / 2 + 3.5}" font-size="10.5" text-anchor="end" fill="${fg}" ${mono}>${esc(fmt(v))}</text>`);
      }
    }
  }
  out.push(legend(o.scale, lo, hi, L, muted, o.dark));
  out.push('</svg>');
  return out.join('\n');
}

function legend(scale, lo, hi, L, muted, dark) {
  if (scale === 'mask' || scale === 'none') return '';
  const y = L.H - 30, x0 = L.left;
  const stops = gradientStops(scale === 'diverging' ? 'diverging' : 'sequential', 7, dark);
  const m = Math.max(Math.abs(lo), Math.abs(hi));
  const a = scale === 'diverging' ? -m : lo, b = scale === 'diverging' ? m : hi;
  const parts = [`<text x="${x0 - 6}" y="${y + 9}" font-size="10" text-anchor="end" fill="${muted}">${esc(fmt(a))}</text>`];
  stops.forEach((c, i) => parts.push(`<rect x="${x0 + i * 16}" y="${y}" width="16" height="11" fill="${c}"/>`));
  parts.push(`<text x="${x0 + stops.length * 16 + 6}" y="${y + 9}" font-size="10" fill="${muted}">${esc(fmt(b))}</text>`);
  return parts.join('\n');
}
