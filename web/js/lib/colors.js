// colors.js — colour scales readable by colour-blind readers (the numbers are always there
// as text too): blue–white–orange diverging for signed data, and a pale-to-viridis sequential
// scale for probabilities and other non-negative data. Okabe–Ito colours for heads.

function hex(h) {
  const n = parseInt(h.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function ramp(stops) {
  const s = stops.map(([t, c]) => [t, hex(c)]);
  return (t) => {
    if (!(t >= 0)) t = 0;
    if (t > 1) t = 1;
    let k = 1;
    while (k < s.length - 1 && t > s[k][0]) k++;
    const [t0, c0] = s[k - 1];
    const [t1, c1] = s[k];
    const u = t1 === t0 ? 0 : (t - t0) / (t1 - t0);
    return [0, 1, 2].map((i) => Math.round(c0[i] + (c1[i] - c0[i]) * u));
  };
}

// Blue (negative) – near-white (0) – orange (positive); after ColorBrewer's PuOr/RdBu ends.
const divergingLight = ramp([
  [0, '#1d4f91'], [0.25, '#6f9fd0'], [0.5, '#f4f4f2'], [0.75, '#f4a95c'], [1, '#b04a05'],
]);
// Pale (0) then viridis from yellow to deep purple (1).
const sequentialLight = ramp([
  [0, '#f7f7f2'], [0.12, '#fde725'], [0.35, '#7ad151'], [0.55, '#22a884'],
  [0.75, '#2a788e'], [0.9, '#414487'], [1, '#440154'],
]);

// The dark theme's scales: the same hues on a dark page, where a larger magnitude is LIGHTER
// (blue – dark grey – orange; viridis run from dark purple to yellow), so 0 recedes into the
// background as it does on white. Both stay blue/orange and viridis: colour-blind safe.
const divergingDark = ramp([
  [0, '#8fc1f5'], [0.25, '#2f6db3'], [0.5, '#2b2b30'], [0.75, '#b8600f'], [1, '#ffb15e'],
]);
const sequentialDark = ramp([
  [0, '#2b2b30'], [0.12, '#440154'], [0.3, '#414487'], [0.5, '#2a788e'],
  [0.68, '#22a884'], [0.85, '#7ad151'], [1, '#fde725'],
]);
// A theme's two ramps (and their lookup tables, made on first use). Every function below takes
// the theme as an argument (`dark`, default light): nothing here is page-wide, so two views in
// different themes (two <encoder-walkthrough> elements) never see each other's colours.
const THEMES = {
  light: { diverging: divergingLight, sequential: sequentialLight, luts: null },
  dark: { diverging: divergingDark, sequential: sequentialDark, luts: null },
};
const rampsOf = (dark) => (dark ? THEMES.dark : THEMES.light);

function css([r, g, b]) {
  return `rgb(${r}, ${g}, ${b})`;
}
// WCAG relative luminance (sRGB, linearised).
export function luminance([r, g, b]) {
  const lin = (c) => {
    c /= 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}
// WCAG contrast ratio of two colours (≥ 1).
export function contrast(a, b) {
  const la = luminance(a), lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}
const BLACK = [0, 0, 0], WHITE = [255, 255, 255];
// The text colour with the higher contrast on this cell, black or white. Computed, not picked
// per scale: for any background one of the two reaches at least 4.58:1 (the worst case is a
// background of luminance 0.179, where both give √(1.05 / 0.05)), so every value of every
// scale passes WCAG AA for small text in both themes (tests/browser/a11y.mjs sweeps them).
export function inkFor(rgb) {
  return contrast(rgb, BLACK) >= contrast(rgb, WHITE) ? '#000000' : '#ffffff';
}

// scale: 'diverging' (v in [-m, m]) or 'sequential' (v in [lo, hi]); dark: the dark theme's ramps.
export function colorFor(v, scale, lo, hi, dark = false) {
  const r = rampsOf(dark);
  let rgb;
  if (scale === 'diverging') {
    const m = Math.max(Math.abs(lo), Math.abs(hi)) || 1;
    rgb = r.diverging(0.5 + v / (2 * m));
  } else {
    const span = hi - lo || 1;
    rgb = r.sequential((v - lo) / span);
  }
  return { bg: css(rgb), fg: inkFor(rgb), rgb };
}

// The fast path for canvases (overviews, head thumbnails: one pixel per value, tens of
// thousands of them): the same scales sampled into 256-entry tables, so a pixel costs an
// index computation instead of an interpolation and a string. Returns (v) => offset of v's
// [r, g, b] in `lut` — or null for a scale with nothing to contrast.
const LUT_N = 256;
function makeLut(f) {
  const a = new Uint8ClampedArray(LUT_N * 3);
  for (let i = 0; i < LUT_N; i++) a.set(f(i / (LUT_N - 1)), i * 3);
  return a;
}
export function lutFor(scale, lo, hi, dark = false) {
  const r = rampsOf(dark);
  r.luts ||= { diverging: makeLut(r.diverging), sequential: makeLut(r.sequential) };
  const lut = scale === 'diverging' ? r.luts.diverging : r.luts.sequential;
  let a, k;  // t = (v - a)·k in [0, 1]
  if (scale === 'diverging') {
    const m = Math.max(Math.abs(lo), Math.abs(hi)) || 1;
    a = -m;
    k = 1 / (2 * m);
  } else {
    a = lo;
    k = 1 / (hi - lo || 1);
  }
  const index = (v) => {
    let t = (v - a) * k;
    if (!(t >= 0)) t = 0;
    if (t > 1) t = 1;
    return Math.round(t * (LUT_N - 1)) * 3;
  };
  return { lut, index };
}

export function gradientStops(scale, n = 9, dark = false) {
  const r = rampsOf(dark);
  const f = scale === 'diverging' ? r.diverging : r.sequential;
  return Array.from({ length: n }, (_, i) => css(f(i / (n - 1))));
}

// Okabe–Ito: distinguishable with every common colour-vision deficiency.
export const HEAD_COLORS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#D55E00', '#56B4E9', '#7a6a00', '#000000'];
export function headColor(h, dark = false) {
  const c = HEAD_COLORS[h % HEAD_COLORS.length];
  return c === '#000000' && dark ? '#e8e8ec' : c; // black lines vanish on a dark page
}

// The colour of one cell of a step drawn with a kind's scale ('diverging', 'sequential',
// 'prob': 0 … hi, 'mask' and 'none': uncoloured), or null. A constant tensor (γ = 1, b = 0)
// has nothing to contrast and stays uncoloured.
export function cellColor(v, scale, lo, hi, dark = false) {
  if (scale === 'mask' || scale === 'none') return null;
  if (lo === hi && scale !== 'prob') return null;
  if (scale === 'prob') return colorFor(v, 'sequential', 0, hi, dark);
  return colorFor(v, scale, lo, hi, dark);
}

// The colour of a scale ('diverging' or 'sequential') at t ∈ [0, 1] in the light or the dark
// theme: what the contrast sweep of the tests samples.
export function scaleAt(scale, t, dark) {
  const r = rampsOf(dark);
  return (scale === 'diverging' ? r.diverging : r.sequential)(t);
}
