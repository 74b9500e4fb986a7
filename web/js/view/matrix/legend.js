// legend.js — the colour legend beside a matrix: the scale's gradient with its two ends
// (symmetric around 0 for signed values), or the mask's two swatches; in the matrix's theme.
import { el } from '../../lib/dom.js';
import { gradientStops } from '../../lib/colors.js';
import { fmt } from '../../lib/format.js';
import { t } from '../../lib/i18n.js';


export function legendFor(scale, lo, hi, dark = false) {
  const lg = el('span', 'legend');
  lg.setAttribute('aria-hidden', 'true');
  if (scale === 'mask') {
    lg.append(el('span', 'swatch masked-swatch'), ` ${t('matrix.legendMasked')}  `, el('span', 'swatch zero-swatch'), ` ${t('matrix.legendAllowed')}`);
    return lg;
  }
  const bar = el('span', 'legend-bar');
  for (const c of gradientStops(scale === 'diverging' ? 'diverging' : 'sequential', 7, dark)) {
    const s = el('span', 'legend-stop');
    s.style.backgroundColor = c;
    bar.append(s);
  }
  const m = Math.max(Math.abs(lo), Math.abs(hi));
  const a = scale === 'diverging' ? fmt(-m) : fmt(lo);
  const b = scale === 'diverging' ? fmt(m) : fmt(hi);
  lg.append(el('span', 'legend-lab', a), bar, el('span', 'legend-lab', b));
  return lg;
}
