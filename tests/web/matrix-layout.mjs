#!/usr/bin/env node
// matrix-layout.mjs — the matrix's elision model (web/js/view/matrix/window.js) in Node, no
// browser: over every small size and many pins, the rows and columns on screen are checked
// against the rules the page promises, stated here independently (a window of `max` shows the
// first ⌈0.6·max⌉ and the last ⌊0.4·max⌋ indices plus every pin, in order, nothing else; a gap
// wherever two shown indices are not neighbours and after the last when it is not the end);
// keeping a highlight visible switches to its batch item and pins it; arrow keys move one shown
// cell and stop at the edges; fitting the width shows what fits, between 3 and maxCols.
//
//   node tests/web/matrix-layout.mjs
import process from 'node:process';
import { axisWindow, withGaps, createWindow, SHOW_ALL_LIMIT } from '../../web/js/view/matrix/window.js';

let failures = 0;
function check(name, fn) {
  try {
    fn();
    console.log(`ok   ${name}`);
  } catch (e) {
    failures++;
    console.log(`FAIL ${name}\n     ${e.message}`);
  }
}
function assert(c, msg) {
  if (!c) throw new Error(msg);
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const range = (a, b) => Array.from({ length: Math.max(0, b - a) }, (_, i) => a + i);

// The rule, written out: the indices a window of `max` over n shows with these pins.
function expectedWindow(n, max, pins, all) {
  if (all || n <= max) return range(0, n);
  const head = Math.ceil(0.6 * max), tail = max - head;
  const keep = new Set([...range(0, head), ...range(n - tail, n), ...pins.filter((p) => p >= 0 && p < n)]);
  return range(0, n).filter((i) => keep.has(i));
}

check('axisWindow: head and tail of the window plus every pin, in order, for every n ≤ 40, max ≤ 16', () => {
  let cases = 0;
  for (let n = 0; n <= 40; n++)
    for (let max = 1; max <= 16; max++)
      for (const pins of [[], [0], [n - 1], [Math.floor(n / 2)], [3, 17, 29], [-1, n, n + 5]]) {
        const got = axisWindow(n, max, pins, false);
        const want = expectedWindow(n, max, pins, false);
        assert(same(got, want), `n ${n}, max ${max}, pins ${pins}: ${got} ≠ ${want}`);
        cases++;
      }
  assert(same(axisWindow(30, 4, [9], true), range(0, 30)), 'show all');
  console.log(`     ${cases} cases`);
});

check('withGaps: a gap exactly where shown indices skip, and after the last when it is not the end', () => {
  for (let n = 1; n <= 30; n++)
    for (const max of [3, 5, 8, 12])
      for (const pins of [[], [Math.floor(n / 2)], [1, n - 2]]) {
        const idx = axisWindow(n, max, pins, false);
        const drawn = withGaps(idx, n);
        assert(same(drawn.filter((x) => !x.gap).map((x) => x.i), idx), 'the indices, in order');
        // Gaps counted from the indices: one before each index that does not follow its
        // predecessor (the first counts from −1), one at the end when n − 1 is not shown.
        let want = 0, prev = -1;
        for (const i of idx) { if (i !== prev + 1) want++; prev = i; }
        if (prev !== n - 1) want++;
        assert(drawn.filter((x) => x.gap).length === want, `n ${n}, max ${max}: ${JSON.stringify(drawn)}`);
        for (let k = 1; k < drawn.length; k++) assert(!(drawn[k].gap && drawn[k - 1].gap), 'two gaps in a row');
      }
  assert(same(withGaps([0, 1, 2], 3), [{ i: 0 }, { i: 1 }, { i: 2 }]), 'nothing elided: no gap');
  assert(same(withGaps([0, 1, 5], 8), [{ i: 0 }, { i: 1 }, { gap: true }, { i: 5 }, { gap: true }]), '[0, 1, 5] of 8');
});

const layout = (per, cols, batches = 1) => ({ rows: per * batches, per, cols, batches });
const WIN = { rows: 14, cols: 12, maxCols: 24 };

check('a window: elision note, "show all" only for moderate sizes, batch item clamped', () => {
  const w = createWindow(layout(40, 30), WIN);
  const e = w.elision();
  assert(e.elided && e.rows === 14 && e.cols === 12 && e.allRows === 40 && e.allCols === 30 && !e.overviewOnly, JSON.stringify(e));
  assert(w.canShowAll, 'a 40 × 30 matrix offers "show all"');
  w.showAll = true;
  assert(!w.elision().elided && w.rows().length === 40 && w.cols().length === 30, 'show all shows all');
  const big = createWindow(layout(100, 100), WIN);
  assert(!big.canShowAll && big.elision().overviewOnly && 100 * 100 > SHOW_ALL_LIMIT, 'a 100 × 100 matrix: the overview, no "show all"');
  const small = createWindow(layout(5, 3), WIN);
  assert(!small.canShowAll && !small.elision().elided, 'a 5 × 3 matrix is never elided');
  assert(createWindow(layout(4, 4, 2), WIN, 7).batch === 1, 'a batch item beyond the last is the last');
});

check('keepVisible: a highlight in another batch item switches to it; an elided one is pinned (≤ 4 each way)', () => {
  const per = 30, cols = 40;
  const w = createWindow(layout(per, cols, 3), WIN);
  let r = w.keepVisible({ cells: [[2 * per + 20, 25]] });
  assert(r.batchChanged && r.redraw && w.batch === 2, `batch ${w.batch}, ${JSON.stringify(r)}`);
  assert(w.rows().includes(20) && w.cols().includes(25), 'row 20 and column 25 on screen');
  r = w.keepVisible({ cells: [[2 * per + 20, 25]] });
  assert(!r.redraw && !r.batchChanged, 'already visible: no redraw');
  r = w.keepVisible({ rows: [2 * per + 1, 2 * per + 9, 2 * per + 10, 2 * per + 11, 2 * per + 12, 2 * per + 13], cols: [14, 15, 16, 17, 18, 19] });
  assert(r.redraw && w.pinsR.length === 4 && w.pinsC.length === 4, `pins ${w.pinsR} / ${w.pinsC}`);
  for (const p of w.pinsR) assert(w.rows().includes(p), `pinned row ${p} shown`);
  r = w.keepVisible(null);
  assert(!r.redraw, 'no highlight: nothing moves');
  const one = createWindow(layout(30, 40, 1), WIN);
  assert(!one.keepVisible({ rows: [3] }).batchChanged, 'one batch item: never switches');
});

check('reveal and pin: any flat row and column comes on screen', () => {
  const per = 25, cols = 33;
  const w = createWindow(layout(per, cols, 2), WIN);
  for (let R = 0; R < 2 * per; R += 3)
    for (let c = 0; c < cols; c += 4) {
      w.reveal(R, c);
      assert(w.batch === Math.floor(R / per) && w.rows().includes(R % per) && w.cols().includes(c), `R ${R}, c ${c}`);
    }
});

check('move: arrows step through the cells on screen and stop at the edges; Home/End go to the row\'s ends', () => {
  const per = 30, cols = 40;
  const w = createWindow(layout(per, cols, 2), WIN, 1);
  const rows = w.rows().map((r) => r + per), cs = w.cols();
  // From every shown cell, every key: the neighbour in the shown lists, clamped.
  for (const [ri, R] of rows.entries())
    for (const [ci, c] of cs.entries()) {
      const at = (i, j) => [rows[Math.max(0, Math.min(rows.length - 1, i))], cs[Math.max(0, Math.min(cs.length - 1, j))]];
      const want = { ArrowRight: at(ri, ci + 1), ArrowLeft: at(ri, ci - 1), ArrowDown: at(ri + 1, ci), ArrowUp: at(ri - 1, ci), Home: at(ri, 0), End: at(ri, cs.length - 1) };
      for (const [k, v] of Object.entries(want)) assert(same(w.move(R, c, k), v), `${k} from [${R}, ${c}]: ${w.move(R, c, k)} ≠ ${v}`);
    }
  assert(w.move(rows[0], cs[0], 'Enter') === null, 'another key: nothing');
  assert(same(w.move(per + 8, 7, 'ArrowRight'), [per + 8, cs[cs.indexOf(7) + 1]]), 'the step after column 7 skips the elided ones');
});

check('fitColumns: as many columns as fit, at least 3, at most maxCols; nothing for ≤ 3 columns or "show all"', () => {
  const w = createWindow(layout(10, 40), WIN);
  // 50 px a column, 100 px besides: 600 px hold (600 − 100 − 28) / 50 = 9 columns.
  assert(w.fitColumns({ width: 600, fixed: 100, perColumn: 50 }) && w.maxCols === 9, `600 px: ${w.maxCols}`);
  assert(!w.fitColumns({ width: 600, fixed: 100, perColumn: 50 }), 'the same width again: no change');
  w.fitColumns({ width: 5000, fixed: 100, perColumn: 50 });
  assert(w.maxCols === 24, `wide: capped at maxCols 24, got ${w.maxCols}`);
  w.fitColumns({ width: 120, fixed: 100, perColumn: 50 });
  assert(w.maxCols === 3, `narrow: at least 3, got ${w.maxCols}`);
  const all = createWindow(layout(10, 20), { rows: 64, cols: 64, maxCols: 64 });
  all.fitColumns({ width: 100 + 20 * 50, fixed: 100, perColumn: 50 });
  assert(all.maxCols === 64 && all.cols().length === 20, 'every column fits: the window stays');
  assert(!createWindow(layout(10, 3), WIN).fitColumns({ width: 10, fixed: 100, perColumn: 50 }), '3 columns: never fitted');
  const sa = createWindow(layout(10, 40), WIN);
  sa.showAll = true;
  assert(!sa.fitColumns({ width: 300, fixed: 100, perColumn: 50 }), '"show all": not fitted');
  assert(!w.fitColumns({ width: 0, fixed: 100, perColumn: 50 }), 'no width yet (not attached): nothing');
});

check('two windows never share state (each matrix has its own)', () => {
  const a = createWindow(layout(40, 40), WIN), b = createWindow(layout(40, 40), { rows: 64, cols: 64, maxCols: 64 });
  a.fitColumns({ width: 400, fixed: 100, perColumn: 50 });
  a.pin(20, 20);
  assert(b.maxCols === 64 && !b.pinsR.length && b.rows().length === 40, JSON.stringify({ maxCols: b.maxCols, pins: b.pinsR }));
});

console.log(failures ? `matrix-layout: ${failures} failed` : 'matrix-layout: all passed');
process.exit(failures ? 1 : 0);
