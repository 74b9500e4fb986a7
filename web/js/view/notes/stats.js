// notes/stats.js — the few statistics the notes quote, computed from a step's fetched data
// (Float32Array, −∞ = masked): its rows with their token labels, spreads, norms, arg-maxima.

// The rows of a tensor as a matrix: [{b, i, data, label}] (label: the row's token, or null).
export function rowsOf(trace, t) {
  const L = trace.layout(t);
  const ax = trace.axesOf(t);
  const out = [];
  for (let R = 0; R < L.rows; R++) {
    const b = Math.floor(R / L.per), i = R % L.per;
    const labels = trace.labelsFor(ax.rows, b);
    out.push({ b, i, data: t.data.subarray(R * L.cols, (R + 1) * L.cols), label: labels ? labels[i] : null });
  }
  return out;
}
// The label of column c (batch item b), or null.
export function colLabel(trace, t, c, b = 0) {
  const labels = trace.labelsFor(trace.axesOf(t).cols, b);
  return labels && labels[c] !== undefined ? labels[c] : null;
}
export const finite = (xs) => Array.from(xs).filter((x) => Number.isFinite(x));
export const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
export function spread(xs) {
  const f = finite(xs);
  return f.length ? Math.max(...f) - Math.min(...f) : 0;
}
export function norm(xs) {
  let s = 0;
  for (const x of xs) s += x * x;
  return Math.sqrt(s);
}
export function argmax(xs) {
  let k = -1;
  for (let j = 0; j < xs.length; j++) if (Number.isFinite(xs[j]) && (k < 0 || xs[j] > xs[k])) k = j;
  return k;
}
// The largest value of softmax(row) (masked entries excluded).
export function topSoftmax(xs) {
  const f = finite(xs);
  const m = Math.max(...f);
  const s = f.reduce((a, x) => a + Math.exp(x - m), 0);
  return 1 / s;
}
// Index of the largest |value|.
export function argmaxAbs(xs) {
  let k = 0;
  for (let j = 1; j < xs.length; j++) if (Math.abs(xs[j]) > Math.abs(xs[k])) k = j;
  return k;
}
// A number for prose in the reader's locale: `digits` decimals, or "−2.3 × 10⁻⁷" when that
// would show only zeros.
const SUP = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
export function sig(x, digits, num) {
  // At least two significant digits: fixed notation down to 10^(2 − digits), below it powers of ten.
  if (x === 0 || Math.abs(x) >= 10 ** (2 - digits)) return num(x, digits);
  const e = Math.floor(Math.log10(Math.abs(x)));
  return `${num(x / 10 ** e, 2)} × 10${String(e).replace(/./g, (ch) => SUP[ch])}`;
}
// A token label for prose: “word” (the quotes come from the catalog).
export const tok = (x) => (x === null || x === undefined ? '' : String(x));
