// window.js — which rows and columns of one matrix are on screen: the elision model behind
// matrix.js, pure (no DOM; tests/web/matrix-layout.mjs runs it in Node). A matrix larger than
// its window shows the head and tail of each axis with "…" gaps between, plus pinned rows and
// columns that keep the cell being explained in view; one batch item at a time; "show all"
// lifts the window for moderate sizes; the column count follows the width available.

export const SHOW_ALL_LIMIT = 6000; // cells: beyond this, no "show all" (the overview instead)

// Indices to show along one axis of n: the whole axis when it fits (or all = true), else the
// first ~60% and the last ~40% of `max`, plus the pinned ones.
export function axisWindow(n, max, pins, all) {
  if (all || n <= max) return Array.from({ length: n }, (_, i) => i);
  const head = Math.ceil(max * 0.6), tail = max - head;
  const set = new Set();
  for (let i = 0; i < head; i++) set.add(i);
  for (let i = n - tail; i < n; i++) set.add(i);
  for (const p of pins) if (p >= 0 && p < n) set.add(p);
  return [...set].sort((a, b) => a - b);
}

// An axis as drawn: its shown indices in order, with a gap ({gap: true}) wherever indices skip
// and after the last one when it is not the axis's end.
export function withGaps(idx, n) {
  const out = [];
  let prev = -1;
  for (const i of idx) {
    if (i !== prev + 1) out.push({ gap: true });
    out.push({ i });
    prev = i;
  }
  if (prev !== n - 1) out.push({ gap: true });
  return out;
}

// The window of one matrix: layout {per, cols, batches} (model/layout.js), window {rows, cols,
// maxCols} (view/context.js: the page's, or a figure's), the batch item first shown. Flat rows
// R count across batch items (R = batch·per + r); r is a row within the shown item.
export function createWindow(layout, window, batch = 0) {
  const w = {
    batch: Math.min(batch || 0, layout.batches - 1),
    maxRows: window.rows,
    maxCols: window.cols, // adapts to the width available (fitColumns)
    showAll: false,
    pinsR: [],
    pinsC: [],
  };
  const total = layout.per * layout.cols;
  const mayElide = layout.per > w.maxRows || layout.cols > 3;
  return Object.assign(w, {
    total,
    canShowAll: mayElide && total <= SHOW_ALL_LIMIT,
    rows: () => axisWindow(layout.per, w.maxRows, w.pinsR, w.showAll),
    cols: () => axisWindow(layout.cols, w.maxCols, w.pinsC, w.showAll),
    // What the "…" note says: {elided, rows, allRows, cols, allCols, overviewOnly}.
    elision() {
      const rows = w.rows().length, cols = w.cols().length;
      return { elided: rows < layout.per || cols < layout.cols, rows, allRows: layout.per, cols, allCols: layout.cols, overviewOnly: total > SHOW_ALL_LIMIT };
    },
    // Row r and column c of the shown item are on screen from now on (the overview's pick).
    pin(r, c) {
      w.pinsR = [r];
      w.pinsC = [c];
    },
    // Switches to batch item b; whether it changed.
    setBatch(b) {
      if (b === w.batch || b < 0 || b >= layout.batches) return false;
      w.batch = b;
      return true;
    },
    // Brings flat row R, column c on screen (its batch item, pinned); whether the batch changed.
    reveal(R, c) {
      const changed = w.setBatch(Math.floor(R / layout.per));
      w.pin(R - w.batch * layout.per, c);
      return changed;
    },
    keepVisible: (h) => keepVisible(w, layout, h),
    move: (R, c, key) => move(w, layout, R, c, key),
    fitColumns: (m) => fitColumns(w, layout, window, m),
  });
}

// Keeps what a highlight {rows, cols, cells} names on screen: the batch item of its first
// row, and pins (at most 4 each way) when any of it is elided. → {redraw, batchChanged}.
function keepVisible(w, layout, h) {
  const rows = (h && h.rows) || [], cols = (h && h.cols) || [], cells = (h && h.cells) || [];
  const anyR = rows.length ? rows[0] : cells.length ? cells[0][0] : null;
  let batchChanged = false;
  if (anyR !== null && layout.batches > 1) batchChanged = w.setBatch(Math.floor(anyR / layout.per));
  const wantR = [...rows, ...cells.map((x) => x[0])].map((R) => R - w.batch * layout.per).filter((r) => r >= 0 && r < layout.per);
  const wantC = [...cols, ...cells.map((x) => x[1])];
  const visibleR = new Set(w.rows()), visibleC = new Set(w.cols());
  let redraw = batchChanged;
  if (wantR.some((r) => !visibleR.has(r)) || wantC.some((c) => !visibleC.has(c))) {
    w.pinsR = wantR.slice(0, 4);
    w.pinsC = wantC.slice(0, 4);
    redraw = true;
  }
  return { redraw, batchChanged };
}

// The cell a key moves to from flat row R, column c, among the cells on screen (arrows one
// step, Home/End to the row's ends, clamped at the edges), or null for another key.
function move(w, layout, R, c, key) {
  const rows = w.rows().map((r) => r + w.batch * layout.per), cols = w.cols();
  let ri = rows.indexOf(R), ci = cols.indexOf(c);
  if (key === 'ArrowRight') ci = Math.min(cols.length - 1, ci + 1);
  else if (key === 'ArrowLeft') ci = Math.max(0, ci - 1);
  else if (key === 'ArrowDown') ri = Math.min(rows.length - 1, ri + 1);
  else if (key === 'ArrowUp') ri = Math.max(0, ri - 1);
  else if (key === 'Home') ci = 0;
  else if (key === 'End') ci = cols.length - 1;
  else return null;
  return [rows[ri], cols[ci]];
}

// As many columns as fit beside the row labels, so the default view needs no sideways
// scrolling. m: {width (the space the layout gives), fixed (the table's width besides its
// columns), perColumn (a shown column's width, measured)}. At least 3, at most the window's
// maxCols; whether the count changed.
function fitColumns(w, layout, window, m) {
  if (w.showAll || layout.cols <= 3 || !m.width || !m.perColumn) return false;
  const fit = m.fixed + layout.cols * m.perColumn <= m.width ? layout.cols : Math.floor((m.width - m.fixed - 28) / m.perColumn);
  const want = Math.min(layout.cols, Math.max(3, Math.min(fit, window.maxCols)));
  if (want === w.maxCols || (want >= layout.cols && w.maxCols >= layout.cols)) return false;
  w.maxCols = want;
  return true;
}
