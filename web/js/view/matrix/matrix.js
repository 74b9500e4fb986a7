// matrix.js — one tensor as a heatmap table WITH its numbers as text (role=grid): caption,
// legend (legend.js), batch switch, cell focus and highlights, and for matrices too big to
// read cell by cell a canvas overview (overview.js). Large matrices are elided ("…"
// rows/columns) to a window that always includes the rows/columns being explained; moderate
// sizes offer "show all". Never more than a few thousand DOM cells. Which rows and columns are
// on screen is window.js's (pure, tested in Node); which flat rows and columns a tensor has is
// model/layout.js's (the caller passes the layout). The theme and the window come with each
// matrix (the view context), never from module state.
import { el } from '../../lib/dom.js';
import { cellColor } from '../../lib/colors.js';
import { fmt, exact, shapeText } from '../../lib/format.js';
import { t as msg } from '../../lib/i18n.js';
import { valueRange } from '../../model/layout.js';
import { PAGE_WINDOW } from '../context.js';
import { legendFor } from './legend.js';
import { createOverview } from './overview.js';
import { createWindow, withGaps } from './window.js';

let uid = 0;
// The column count fit() last settled on for a matrix (its tensor, size, window and place): a
// recompute redraws the same matrix at the same width, so it starts there instead of at the
// window's default and fit() has nothing to redraw (it was a second build of every cell and a
// forced layout after each d512 sentence edit: tests/browser/profile.mjs). fit() still measures
// and corrects, so what ends on screen is what fitting from the default gives.
const fitted = new Map();

/**
 * createMatrix(opts) → view
 *  opts: {tensor, label (caption), layout (model/layout.js), scale (a kind's colour scale), batch,
 *         window ({rows, cols, maxCols}: view/context.js), dark (the theme),
 *         rowLabels(b) → [labels], colLabels(b) → [labels], onBatch(b), hideBatchSwitch,
 *         interactive (focusable cells that call onCell), onCell(R, c, how), compact, linkTo}
 *  view: {el, layout, batch, setHighlight({rows, cols, cells}), focusCell(R, c), setBatch(b), exactAt(R, c)}
 */
export function createMatrix(opts) {
  return new MatrixView(opts);
}

class MatrixView {
  constructor(opts) {
    this.opts = opts;
    this.t = opts.tensor;
    this.layout = opts.layout;
    this.scale = opts.scale;
    this.dark = !!opts.dark;
    // Probabilities: 0 … the largest value (a long sentence's weights are all small; the
    // legend states the range).
    const [lo, hi] = valueRange(this.t.data);
    [this.lo, this.hi] = this.scale === 'prob' ? [0, Math.max(hi, 1e-6)] : [lo, hi];
    this.win = createWindow(this.layout, opts.window || PAGE_WINDOW, opts.batch);
    const w = opts.window || PAGE_WINDOW;
    this.fitKey = [this.t.id, this.layout.per, this.layout.cols, w.rows, w.cols, w.maxCols, !!opts.compact, opts.label || ''].join('|');
    if (fitted.has(this.fitKey)) this.win.maxCols = fitted.get(this.fitKey);
    this.id = `m${++uid}`;
    this.hl = { rows: new Set(), cols: new Set(), cells: new Set() };
    this.active = null; // [R, c] with tabindex 0
    this.cellRefs = new Map(); // "R,c" → td
    this.batchBtns = [];
    this.buildFrame();
    if (this.layout.batches > 1 && !opts.hideBatchSwitch) this.buildBatchSwitch();
    if (opts.interactive) this.listen();
    this.render();
    this.watchWidth();
  }

  get batch() {
    return this.win.batch;
  }

  exactAt(R, c) {
    return exact(this.t.data[R * this.layout.cols + c]);
  }

  // The figure: caption (name, shape, link to the step), tools (batch switch, elision note,
  // "show all", legend), the overview of a large matrix, and the table's scroll box.
  buildFrame() {
    const { t, opts, layout, win } = this;
    this.el = el('figure', 'matrix' + (opts.compact ? ' compact' : ''));
    this.el.dataset.tensor = t.id;
    this.el.append(this.caption());
    this.tools = el('div', 'matrix-tools');
    this.scroller = el('div', 'matrix-scroll');
    this.scroller.tabIndex = -1;
    this.el.append(this.tools, this.scroller);
    this.note = el('span', 'muted elided-note');
    this.tools.append(this.note);
    if (win.canShowAll) this.tools.append(this.showAllButton());
    if (!opts.compact && layout.per > 2 && layout.cols > 2 && (layout.per > 28 || layout.cols > 40)) {
      this.overview = createOverview({
        tensor: t, layout, scale: this.scale, lo: this.lo, hi: this.hi, dark: this.dark, batch: () => win.batch,
        onPick: (r, c) => {
          win.pin(r, c);
          this.render();
          this.focusCell(win.batch * layout.per + r, c);
        },
      });
      this.el.insertBefore(this.overview, this.scroller);
    }
    if (this.scale !== 'none' && !opts.compact) this.tools.append(legendFor(this.scale, this.lo, this.hi, this.dark));
  }

  caption() {
    const { t, opts } = this;
    const cap = el('figcaption', 'matrix-cap');
    cap.append(el('span', 'matrix-name', opts.label || t.id), ' ', el('span', 'matrix-shape', shapeText(t.shape)));
    if (opts.linkTo) {
      const a = el('a', 'matrix-link', msg(t.isParam ? 'matrix.parameter' : 'matrix.goToStep'));
      if (!t.isParam) {
        a.href = '#';
        a.addEventListener('click', (e) => { e.preventDefault(); opts.linkTo(t.id); });
      } else a.removeAttribute('href');
      cap.append(' ', a);
    }
    return cap;
  }

  showAllButton() {
    const b = (this.allBtn = el('button', 'small', msg('matrix.showAll', { n: this.win.total })));
    b.type = 'button';
    b.setAttribute('aria-pressed', 'false');
    b.addEventListener('click', () => {
      this.win.showAll = !this.win.showAll;
      b.textContent = this.win.showAll ? msg('matrix.showFewer') : msg('matrix.showAll', { n: this.win.total });
      b.setAttribute('aria-pressed', String(this.win.showAll));
      this.render();
    });
    return b;
  }

  // Says whether (and how) the table is elided.
  syncElision() {
    const e = this.win.elision();
    this.note.textContent = e.elided ? msg('matrix.elided', { rows: e.rows, allRows: e.allRows, cols: e.cols, allCols: e.allCols }) + (e.overviewOnly ? msg('matrix.elidedOverview') : '') : '';
    this.note.hidden = !e.elided;
    if (this.allBtn) {
      this.allBtn.hidden = !e.elided && !this.win.showAll;
      if (!this.win.showAll) this.allBtn.textContent = msg('matrix.showAll', { n: this.win.total });
    }
  }

  // The table of the window on screen, then the elision note, the focusable cell, highlights.
  render() {
    const { layout, opts, win } = this;
    this.cellRefs = new Map();
    const rows = win.rows(), cols = win.cols();
    const table = el('table', 'grid');
    table.id = this.id;
    table.setAttribute('role', opts.interactive ? 'grid' : 'table');
    table.setAttribute('aria-label', msg('matrix.tableLabel', { label: opts.label || this.t.id, shape: shapeText(this.t.shape) }) + (layout.batches > 1 ? msg('matrix.ofSentence', { n: win.batch + 1 }) : ''));
    const colAxis = withGaps(cols, layout.cols);
    table.append(this.headerRow(colAxis), this.body(withGaps(rows, layout.per), colAxis));
    this.scroller.replaceChildren(table);
    this.syncElision();
    if (opts.interactive) {
      if (!this.active || !this.cellRefs.has(this.active.join(','))) this.active = [win.batch * layout.per + rows[0], cols[0]];
      const a = this.cellRefs.get(this.active.join(','));
      if (a) a.tabIndex = 0;
    }
    // New cells carry no highlight: with none to apply, leave them (a pass over every cell).
    if (this.hl.rows.size || this.hl.cols.size || this.hl.cells.size) this.applyHighlight();
    if (this.overview) this.overview.repaint();
  }

  headerRow(colAxis) {
    const labels = this.opts.colLabels ? this.opts.colLabels(this.win.batch) : null;
    const thead = el('thead');
    const tr = el('tr');
    // The corner says what the headers are (an empty header cell is announced as nothing).
    const corner = el('th', 'corner');
    corner.append(el('span', 'visually-hidden', msg('matrix.corner')));
    tr.append(corner);
    for (const x of colAxis) {
      if (x.gap) { tr.append(el('th', 'gap', '…')); continue; }
      const th = el('th', 'col-h', labels ? labels[x.i] : String(x.i));
      th.scope = 'col';
      th.dataset.c = x.i;
      if (labels) th.title = msg('matrix.column', { c: x.i });
      tr.append(th);
    }
    thead.append(tr);
    return thead;
  }

  body(rowAxis, colAxis) {
    const labels = this.opts.rowLabels ? this.opts.rowLabels(this.win.batch) : null;
    const tbody = el('tbody');
    for (const x of rowAxis) tbody.append(x.gap ? this.gapRow(colAxis.length) : this.row(x.i, labels, colAxis));
    return tbody;
  }

  gapRow(span) {
    const tr = el('tr', 'gap-row');
    tr.append(el('th', 'gap', '⋮'));
    const td = el('td', 'gap', '…');
    td.colSpan = span;
    tr.append(td);
    return tr;
  }

  row(r, labels, colAxis) {
    const R = this.win.batch * this.layout.per + r;
    const tr = el('tr');
    const th = el('th', 'row-h', labels ? labels[r] ?? String(r) : String(r));
    th.scope = 'row';
    if (labels) th.title = msg('matrix.row', { r });
    tr.append(th);
    for (const x of colAxis) tr.append(x.gap ? el('td', 'gap', '…') : this.cell(R, x.i));
    return tr;
  }

  cell(R, c) {
    const v = this.t.data[R * this.layout.cols + c];
    const td = el('td', 'cell');
    if (this.opts.interactive) {
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
      const col = cellColor(v, this.scale, this.lo, this.hi, this.dark);
      if (col) {
        td.style.backgroundColor = col.bg;
        td.style.color = col.fg;
      } else if (this.scale === 'mask') td.classList.add('zero');
    }
    this.cellRefs.set(R + ',' + c, td);
    return td;
  }

  applyHighlight() {
    const hl = this.hl;
    for (const [key, td] of this.cellRefs) {
      const [R, c] = key.split(',').map(Number);
      td.classList.toggle('hl-row', hl.rows.has(R));
      td.classList.toggle('hl-col', hl.cols.has(c));
      td.classList.toggle('hl-cell', hl.cells.has(key));
    }
    for (const th of this.scroller.querySelectorAll('th.col-h')) th.classList.toggle('hl', hl.cols.has(Number(th.dataset.c)));
  }

  // Highlights rows, columns and cells (flat rows R), keeping them on screen (window.js).
  setHighlight(h) {
    this.hl = {
      rows: new Set((h && h.rows) || []),
      cols: new Set((h && h.cols) || []),
      cells: new Set(((h && h.cells) || []).map((x) => x.join(','))),
    };
    const r = this.win.keepVisible(h);
    if (r.batchChanged) this.syncBatchButtons();
    if (r.redraw) this.render();
    else this.applyHighlight();
  }

  focusCell(R, c) {
    if (!this.opts.interactive) return;
    let td = this.cellRefs.get(R + ',' + c);
    if (!td) {
      if (this.win.reveal(R, c)) this.syncBatchButtons();
      this.render();
      td = this.cellRefs.get(R + ',' + c);
    }
    if (!td) return;
    const old = this.active && this.cellRefs.get(this.active.join(','));
    if (old) old.tabIndex = -1;
    this.active = [R, c];
    td.tabIndex = 0;
    td.focus({ preventScroll: false });
  }

  buildBatchSwitch() {
    const sw = el('span', 'batch-switch');
    sw.setAttribute('role', 'group');
    sw.setAttribute('aria-label', msg('matrix.batchItem'));
    for (let b = 0; b < this.layout.batches; b++) {
      const btn = el('button', 'small', msg('matrix.sentence', { n: b + 1 }));
      btn.type = 'button';
      btn.addEventListener('click', () => {
        this.setBatch(b);
        if (this.opts.onBatch) this.opts.onBatch(b);
      });
      this.batchBtns.push(btn);
      sw.append(btn);
    }
    this.tools.prepend(sw);
    this.syncBatchButtons();
  }

  syncBatchButtons() {
    this.batchBtns.forEach((b, i) => b.setAttribute('aria-pressed', String(i === this.win.batch)));
  }

  setBatch(b) {
    if (!this.win.setBatch(b)) return;
    this.syncBatchButtons();
    this.render();
  }

  // Pointer, click, focus and arrow keys on the cells (a roving tabindex: one tab stop).
  listen() {
    const sc = this.scroller;
    const fromEvent = (e) => {
      const td = e.target.closest && e.target.closest('td.cell');
      if (!td || !sc.contains(td)) return null;
      return [Number(td.dataset.r), Number(td.dataset.c), td];
    };
    sc.addEventListener('pointerover', (e) => {
      const x = fromEvent(e);
      if (x) this.opts.onCell(x[0], x[1], 'hover');
    });
    sc.addEventListener('click', (e) => {
      const x = fromEvent(e);
      if (x) this.focusCell(x[0], x[1]);
    });
    sc.addEventListener('focusin', (e) => {
      const x = fromEvent(e);
      if (!x) return;
      const old = this.active && this.cellRefs.get(this.active.join(','));
      if (old && old !== x[2]) old.tabIndex = -1;
      this.active = [x[0], x[1]];
      x[2].tabIndex = 0;
      this.opts.onCell(x[0], x[1], 'focus');
    });
    sc.addEventListener('keydown', (e) => {
      const x = fromEvent(e);
      const to = x && this.win.move(x[0], x[1], e.key);
      if (!to) return;
      e.preventDefault();
      e.stopPropagation();
      this.focusCell(to[0], to[1]);
    });
  }

  // The space the layout gives (not the table's own width: that would feed back): the
  // result's column, or the inputs' row.
  box() {
    return this.el.closest('.inputs-col, .result-col') || this.el;
  }

  // Show as many columns as fit (window.js fitColumns). The width a column takes is measured on
  // the columns shown (their headers: numbers and labels alike), plus 3% for wider numbers among
  // those not shown; the row labels and spacing are what the table has besides.
  fit() {
    const table = this.scroller.querySelector('table');
    if (!table) return;
    const heads = [...table.querySelectorAll('thead th.col-h')];
    const gapW = [...table.querySelectorAll('thead th.gap')].reduce((a, th) => a + th.offsetWidth + 2, 0);
    const colsW = heads.reduce((a, th) => a + th.offsetWidth + 2, 0);
    if (!heads.length || !colsW) return;
    const m = { width: this.box().clientWidth, fixed: table.offsetWidth - colsW - gapW, perColumn: (colsW / heads.length) * 1.03 };
    const changed = this.win.fitColumns(m);
    if (!this.win.showAll) fitted.set(this.fitKey, this.win.maxCols);
    if (changed) this.render();
  }

  // Once attached, fit the width at hand: ResizeObserver alone is not enough, as Chromium
  // pauses it in cross-origin frames out of view (an embedded figure further down a post).
  watchWidth() {
    setTimeout(() => this.fit(), 0);
    if (typeof ResizeObserver === 'undefined') return;
    let last = 0;
    const ro = new ResizeObserver(() => {
      const w = this.box().clientWidth;
      if (Math.abs(w - last) < 8) return;
      last = w;
      this.fit();
    });
    ro.observe(this.el);
    requestAnimationFrame(() => { const box = this.el.closest('.inputs-col, .result-col'); if (box) ro.observe(box); });
  }
}
