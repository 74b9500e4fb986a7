// layout.js — how a tensor is laid out as a matrix on the page: pure functions, no DOM
// (the kinds test runs them in Node). A tensor is viewed as flat rows × last-dimension
// columns (llm.c's (B·T, C)); a batched [B, T, n] tensor has B·T flat rows, shown one batch
// item at a time; a per-row statistic ([T] or [B, T]) is one column.

// The kinds whose tensor holds one value per row of another step's matrix (a row's maximum, sum,
// mean, variance): shown as one column beside those rows, not as a row of their own.
export const PER_ROW_KINDS = new Set(['rowmax', 'rowsum', 'mean', 'var']);

// {rows, cols, per (rows per batch item), batches}. batched: the first axis is the batch;
// column: the tensor is a per-row statistic.
export function matrixLayout(tensor, batched, column) {
  const sh = tensor.shape;
  if (sh.length === 0) return { rows: 1, cols: 1, per: 1, batches: 1 };
  if (batched) {
    if (sh.length === 3) return { rows: sh[0] * sh[1], cols: sh[2], per: sh[1], batches: sh[0] };
    if (sh.length === 2 && column) return { rows: sh[0] * sh[1], cols: 1, per: sh[1], batches: sh[0] };
  }
  if (sh.length === 1) {
    if (column) return { rows: sh[0], cols: 1, per: sh[0], batches: 1 };
    return { rows: 1, cols: sh[0], per: 1, batches: 1 };
  }
  const cols = sh[sh.length - 1];
  const rows = sh.slice(0, -1).reduce((a, b) => a * b, 1);
  return { rows, cols, per: rows, batches: 1 };
}

// Which axis the rows and the columns of that matrix stand for ({name, labels} or null).
export function matrixAxes(tensor, layout, column) {
  const ax = tensor.axes || [];
  if (!ax.length) return { rows: null, cols: null };
  if (column) return { rows: ax[ax.length - 1], cols: null };
  if (ax.length === 1) return { rows: null, cols: ax[0] };
  return { rows: ax[ax.length - 2], cols: ax[ax.length - 1] };
}

// [lo, hi] over the finite values (−∞ marks a masked entry).
export function valueRange(data) {
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < data.length; i++) {
    const v = data[i];
    if (v === -Infinity) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo === Infinity) lo = hi = 0;
  return [lo, hi];
}
