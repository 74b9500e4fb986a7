// matrix.js — one tensor as a heatmap table WITH its numbers as text (role=grid): caption,
// legend (legend.js), batch switch, cell focus and highlights, and for matrices too big to
// read cell by cell a canvas overview (overview.js). Large matrices are elided ("…"
// rows/columns) to a window that always includes the rows/columns being explained;
// moderate sizes offer "show all". Never more than a few thousand DOM cells. Which flat rows
// and columns a tensor has is layout.js's business (the caller passes the layout).
import { el } from '../../lib/dom.js';
import { cellColor, scalesAreDark, useDarkScales } from '../../lib/colors.js';
import { legendFor } from './legend.js';
import { createOverview } from './overview.js';
import { valueRange as range, axisWindow } from '../../model/layout.js';
import { fmt, exact, shapeText } from '../../lib/format.js';
import { t as msg } from '../../lib/i18n.js';

const SHOW_ALL_LIMIT = 6000; // cells
const WINDOW = { rows: 14, cols: 12, maxCols: 24 };
let uid = 0;

// How many rows and columns a table shows before eliding ("…"); maxCols caps what fit() lets
// the width add. A figure (view=figure) shows everything that fits.
export function setMatrixWindow(w) {
  Object.assign(WINDOW, w);
}


export { el };  // for the views that import it from here

/**
 * createMatrix(opts) → view
 *  opts: {tensor, label (caption), layout (layout.js), scale (a kind's colour scale), batch,
 *         rowLabels(b) → [labels], colLabels(b) → [labels],
 *         interactive (focusable cells that call onCell), onCell(R, c, how), compact, linkTo}
 *  view: {el, setHighlight({rows, cols, cells, batch}), focusCell(R, c), setBatch(b), layout}
 */
export function createMatrix(opts) {
  const t = opts.tensor;
  const layout = opts.layout;
  const scale = opts.scale;
  // Probabilities: 0 … the largest value (a long sentence's weights are all small; the
  // legend states the range).
  const [lo, hi] = scale === 'prob' ? [0, Math.max(range(t.data)[1], 1e-6)] : range(t.data);
  const id = `m${++uid}`;
  let batch = Math.min(opts.batch || 0, layout.batches - 1);
  const maxRows = WINDOW.rows;
  let maxCols = WINDOW.cols; // adapts to the width available (fit(), below)
  let showAll = false;
  let pinsR = [], pinsC = [];
  let hl = { rows: new Set(), cols: new Set(), cells: new Set() };
  let active = null; // [R, c] with tabindex 0
  let cellRefs = new Map(); // "R,c" -> td

  const legend = () => legendFor(scale, lo, hi);
  const color = (v) => cellColor(v, scale, lo, hi);
  const drawOverview = () =>
    createOverview({
      tensor: t, layout, scale, lo, hi, batch: () => batch,
      onPick: (r, c) => {
        pinsR = [r];
        pinsC = [c];
        render();
        focusCell(batch * layout.per + r, c);
      },
    });

  const root = el('figure', 'matrix' + (opts.compact ? ' compact' : ''));
  root.dataset.tensor = t.id;
  const cap = el('figcaption', 'matrix-cap');
  const name = el('span', 'matrix-name', opts.label || t.id);
  cap.append(name);
  const sub = el('span', 'matrix-shape', shapeText(t.shape));
  cap.append(' ', sub);
  if (opts.linkTo) {
    const a = el('a', 'matrix-link', msg(t.isParam ? 'matrix.parameter' : 'matrix.goToStep'));
    if (!t.isParam) {
      a.href = '#';
      a.addEventListener('click', (e) => { e.preventDefault(); opts.linkTo(t.id); });
    } else a.removeAttribute('href');
    cap.append(' ', a);
  }
  root.append(cap);

  const tools = el('div', 'matrix-tools');
  root.append(tools);
  const scroller = el('div', 'matrix-scroll');
  scroller.tabIndex = -1;
  root.append(scroller);
  let overview = null;

  const total = layout.per * layout.cols;
  const mayElide = layout.per > maxRows || layout.cols > 3;
  const note = el('span', 'muted elided-note');
  tools.append(note);
  let allBtn = null;
  if (mayElide && total <= SHOW_ALL_LIMIT) {
    allBtn = el('button', 'small', msg('matrix.showAll', { n: total }));
    allBtn.type = 'button';
    allBtn.setAttribute('aria-pressed', 'false');
    allBtn.addEventListener('click', () => {
      showAll = !showAll;
      allBtn.textContent = showAll ? msg('matrix.showFewer') : msg('matrix.showAll', { n: total });
      allBtn.setAttribute('aria-pressed', String(showAll));
      render();
    });
    tools.append(allBtn);
  }
  if (!opts.compact && layout.per > 2 && layout.cols > 2 && (layout.per > 28 || layout.cols > 40)) {
    overview = drawOverview();
    root.insertBefore(overview, scroller);
  }
  // Called by render(): says whether (and how) the table is elided.
  function syncElision(nr, nc) {
    const el2 = nr < layout.per || nc < layout.cols;
    note.textContent = el2 ? msg('matrix.elided', { rows: nr, allRows: layout.per, cols: nc, allCols: layout.cols }) + (total > SHOW_ALL_LIMIT ? msg('matrix.elidedOverview') : '') : '';
    note.hidden = !el2;
    if (allBtn) {
      allBtn.hidden = !el2 && !showAll;
      if (!showAll) allBtn.textContent = msg('matrix.showAll', { n: total });
    }
  }
  if (scale !== 'none' && !opts.compact) tools.append(legend());

  // The theme's scales as they were at creation: a later redraw (fit, batch, pins) keeps them
  // even when another figure on the page has drawn in the other theme since.
  const dark = scalesAreDark();
  function render() {
    useDarkScales(dark);
    cellRefs = new Map();
    const rowsIdx = axisWindow(layout.per, maxRows, pinsR, showAll);
    const colsIdx = axisWindow(layout.cols, maxCols, pinsC, showAll);
    const table = el('table', 'grid');
    table.id = id;
    table.setAttribute('role', opts.interactive ? 'grid' : 'table');
    table.setAttribute('aria-label', msg('matrix.tableLabel', { label: opts.label || t.id, shape: shapeText(t.shape) }) + (layout.batches > 1 ? msg('matrix.ofSentence', { n: batch + 1 }) : ''));
    const rowLabels = opts.rowLabels ? opts.rowLabels(batch) : null;
    const colLabels = opts.colLabels ? opts.colLabels(batch) : null;
    const thead = el('thead');
    const htr = el('tr');
    // The corner says what the headers are (an empty header cell is announced as nothing).
    const corner = el('th', 'corner');
    corner.append(el('span', 'visually-hidden', msg('matrix.corner')));
    htr.append(corner);
    let prev = -1;
    for (const c of colsIdx) {
      if (c !== prev + 1) htr.append(el('th', 'gap', '…'));
      const th = el('th', 'col-h', colLabels ? colLabels[c] : String(c));
      th.scope = 'col';
      th.dataset.c = c;
      if (colLabels) th.title = msg('matrix.column', { c });
      htr.append(th);
      prev = c;
    }
    if (prev !== layout.cols - 1) htr.append(el('th', 'gap', '…'));
    thead.append(htr);
    table.append(thead);
    const tbody = el('tbody');
    let prevR = -1;
    const base = batch * layout.per;
    const gapRow = () => {
      const tr = el('tr', 'gap-row');
      tr.append(el('th', 'gap', '⋮'));
      const td = el('td', 'gap', '…');
      td.colSpan = colsIdx.length + (colsIdx.length && colsIdx[colsIdx.length - 1] !== layout.cols - 1 ? 1 : 0) + countGaps(colsIdx);
      tr.append(td);
      return tr;
    };
    for (const r of rowsIdx) {
      if (r !== prevR + 1) tbody.append(gapRow());
      const R = base + r;
      const tr = el('tr');
      const th = el('th', 'row-h', rowLabels ? rowLabels[r] ?? String(r) : String(r));
      th.scope = 'row';
      if (rowLabels) th.title = msg('matrix.row', { r });
      tr.append(th);
      let pc = -1;
      for (const c of colsIdx) {
        if (c !== pc + 1) tr.append(el('td', 'gap', '…'));
        const v = t.data[R * layout.cols + c];
        const td = el('td', 'cell');
        if (opts.interactive) {
          td.setAttribute('role', 'gridcell');
          td.tabIndex = -1;
        }
        td.dataset.r = R;
        td.dataset.c = c;
        if (v === -Infinity) {
          td.classList.add('masked');
          td.textContent = '−∞';
        } else {
          td.textContent = fmt(v);
          const col = color(v);
          if (col) {
            td.style.backgroundColor = col.bg;
            td.style.color = col.fg;
          } else if (scale === 'mask') td.classList.add('zero');
        }
        cellRefs.set(R + ',' + c, td);
        tr.append(td);
        pc = c;
      }
      if (pc !== layout.cols - 1) tr.append(el('td', 'gap', '…'));
      tbody.append(tr);
      prevR = r;
    }
    if (prevR !== layout.per - 1) tbody.append(gapRow());
    table.append(tbody);
    scroller.replaceChildren(table);
    syncElision(rowsIdx.length, colsIdx.length);
    if (opts.interactive) {
      if (!active || !cellRefs.has(active.join(','))) active = [base + rowsIdx[0], colsIdx[0]];
      const a = cellRefs.get(active.join(','));
      if (a) a.tabIndex = 0;
    }
    applyHighlight();
    if (overview) overview.repaint();
  }

  function countGaps(idx) {
    let g = 0, p = -1;
    for (const c of idx) {
      if (c !== p + 1) g++;
      p = c;
    }
    return g;
  }

  function applyHighlight() {
    for (const [key, td] of cellRefs) {
      const [R, c] = key.split(',').map(Number);
      td.classList.toggle('hl-row', hl.rows.has(R));
      td.classList.toggle('hl-col', hl.cols.has(c));
      td.classList.toggle('hl-cell', hl.cells.has(key));
    }
    for (const th of scroller.querySelectorAll('th.col-h')) th.classList.toggle('hl', hl.cols.has(Number(th.dataset.c)));
  }

  function setHighlight(h) {
    const rows = h && h.rows ? h.rows : [];
    const cols = h && h.cols ? h.cols : [];
    const cells = h && h.cells ? h.cells : [];
    hl = { rows: new Set(rows), cols: new Set(cols), cells: new Set(cells.map((x) => x.join(','))) };
    // Keep what is explained visible: switch batch item and pin rows/columns.
    const anyR = rows.length ? rows[0] : cells.length ? cells[0][0] : null;
    let rerender = false;
    if (anyR !== null && layout.batches > 1) {
      const b = Math.floor(anyR / layout.per);
      if (b !== batch) {
        batch = b;
        rerender = true;
        syncBatchButtons();
      }
    }
    const wantR = [...rows, ...cells.map((x) => x[0])].map((R) => R - batch * layout.per).filter((r) => r >= 0 && r < layout.per);
    const wantC = [...cols, ...cells.map((x) => x[1])];
    const visibleR = new Set(axisWindow(layout.per, maxRows, pinsR, showAll));
    const visibleC = new Set(axisWindow(layout.cols, maxCols, pinsC, showAll));
    if (wantR.some((r) => !visibleR.has(r)) || wantC.some((c) => !visibleC.has(c))) {
      pinsR = wantR.slice(0, 4);
      pinsC = wantC.slice(0, 4);
      rerender = true;
    }
    if (rerender) render();
    else applyHighlight();
  }

  function focusCell(R, c) {
    if (!opts.interactive) return;
    let td = cellRefs.get(R + ',' + c);
    if (!td) {
      const b = Math.floor(R / layout.per);
      if (b !== batch) {
        batch = b;
        syncBatchButtons();
      }
      pinsR = [R - batch * layout.per];
      pinsC = [c];
      render();
      td = cellRefs.get(R + ',' + c);
    }
    if (!td) return;
    const old = active && cellRefs.get(active.join(','));
    if (old) old.tabIndex = -1;
    active = [R, c];
    td.tabIndex = 0;
    td.focus({ preventScroll: false });
  }

  let batchBtns = [];
  function syncBatchButtons() {
    batchBtns.forEach((b, i) => b.setAttribute('aria-pressed', String(i === batch)));
  }
  function setBatch(b) {
    if (b === batch || b >= layout.batches) return;
    batch = b;
    syncBatchButtons();
    render();
  }
  if (layout.batches > 1 && !opts.hideBatchSwitch) {
    const sw = el('span', 'batch-switch');
    sw.setAttribute('role', 'group');
    sw.setAttribute('aria-label', msg('matrix.batchItem'));
    for (let b = 0; b < layout.batches; b++) {
      const btn = el('button', 'small', msg('matrix.sentence', { n: b + 1 }));
      btn.type = 'button';
      btn.addEventListener('click', () => {
        setBatch(b);
        if (opts.onBatch) opts.onBatch(b);
      });
      batchBtns.push(btn);
      sw.append(btn);
    }
    tools.prepend(sw);
    syncBatchButtons();
  }

  if (opts.interactive) {
    const fromEvent = (e) => {
      const td = e.target.closest && e.target.closest('td.cell');
      if (!td || !scroller.contains(td)) return null;
      return [Number(td.dataset.r), Number(td.dataset.c), td];
    };
    scroller.addEventListener('pointerover', (e) => {
      const x = fromEvent(e);
      if (x) opts.onCell(x[0], x[1], 'hover');
    });
    scroller.addEventListener('click', (e) => {
      const x = fromEvent(e);
      if (x) focusCell(x[0], x[1]);
    });
    scroller.addEventListener('focusin', (e) => {
      const x = fromEvent(e);
      if (!x) return;
      const old = active && cellRefs.get(active.join(','));
      if (old && old !== x[2]) old.tabIndex = -1;
      active = [x[0], x[1]];
      x[2].tabIndex = 0;
      opts.onCell(x[0], x[1], 'focus');
    });
    scroller.addEventListener('keydown', (e) => {
      const x = fromEvent(e);
      if (!x) return;
      const rowsIdx = axisWindow(layout.per, maxRows, pinsR, showAll).map((r) => r + batch * layout.per);
      const colsIdx = axisWindow(layout.cols, maxCols, pinsC, showAll);
      let ri = rowsIdx.indexOf(x[0]), ci = colsIdx.indexOf(x[1]);
      const k = e.key;
      if (k === 'ArrowRight') ci = Math.min(colsIdx.length - 1, ci + 1);
      else if (k === 'ArrowLeft') ci = Math.max(0, ci - 1);
      else if (k === 'ArrowDown') ri = Math.min(rowsIdx.length - 1, ri + 1);
      else if (k === 'ArrowUp') ri = Math.max(0, ri - 1);
      else if (k === 'Home') ci = 0;
      else if (k === 'End') ci = colsIdx.length - 1;
      else return;
      e.preventDefault();
      e.stopPropagation();
      focusCell(rowsIdx[ri], colsIdx[ci]);
    });
  }

  // Show as many columns as fit beside the row labels, so the default view needs no
  // sideways scrolling ("show all" scrolls). The width a column takes is measured on the
  // columns shown (their headers: numbers and labels alike), plus 3% for wider numbers among
  // those not shown; the row labels and spacing are what the table has besides.
  function fit() {
    if (showAll || layout.cols <= 3) return;
    // Measure the space the layout gives (not the table's own width: that would feed back):
    // the result's column, or the inputs' row.
    const box = root.closest('.inputs-col, .result-col') || root;
    const width = box.clientWidth;
    const table = scroller.querySelector('table');
    if (!width || !table) return;
    const heads = [...table.querySelectorAll('thead th.col-h')];
    const gapW = [...table.querySelectorAll('thead th.gap')].reduce((a, th) => a + th.offsetWidth + 2, 0);
    const colsW = heads.reduce((a, th) => a + th.offsetWidth + 2, 0);
    if (!heads.length || !colsW) return;
    const per = (colsW / heads.length) * 1.03;
    const fixed = table.offsetWidth - colsW - gapW;
    const fitCols = fixed + layout.cols * per <= width ? layout.cols : Math.floor((width - fixed - 28) / per);
    const want = Math.min(layout.cols, Math.max(3, Math.min(fitCols, WINDOW.maxCols)));
    if (want !== maxCols && !(want >= layout.cols && maxCols >= layout.cols)) {
      maxCols = want;
      render();
    }
  }
  render();
  // Once attached, fit the width at hand: ResizeObserver alone is not enough, as Chromium
  // pauses it in cross-origin frames out of view (an embedded figure further down a post).
  setTimeout(fit, 0);
  if (typeof ResizeObserver !== 'undefined') {
    let last = 0;
    const ro = new ResizeObserver(() => {
      const box = root.closest('.inputs-col, .result-col') || root;
      const w = box.clientWidth;
      if (Math.abs(w - last) < 8) return;
      last = w;
      fit();
    });
    ro.observe(root);
    requestAnimationFrame(() => { const box = root.closest('.inputs-col, .result-col'); if (box) ro.observe(box); });
  }
  return {
    el: root,
    layout,
    setHighlight,
    focusCell,
    setBatch,
    get batch() { return batch; },
    exactAt: (R, c) => exact(t.data[R * layout.cols + c]),
  };
}
