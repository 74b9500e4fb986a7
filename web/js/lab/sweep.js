// sweep.js — a sweep's table (core/session/sweep.h) as heatmaps of buttons: the ablation
// sweep as blocks × heads (each feed-forward block a cell of its own), coloured by the
// accuracy lost; the patching sweep as layer × position of the residual stream and as a row
// of heads, coloured by the share of the logit difference restored. Clicking a cell applies
// that intervention (apply(edit), edit(spec) changes the spec), and a note says, in this
// model's numbers, what the largest effect was.
import { el } from '../lib/dom.js';
import { t } from '../lib/i18n.js';
import { ablateName, headName, headParts, targetName } from './names.js';

const pct = (x) => (100 * x).toFixed(1);
// A share of the logit difference, to two decimals (float noise around 0 shown as 0.00).
const share = (x) => (Math.abs(x) < 0.005 ? 0 : x).toFixed(2);

// A cell's button: named by what it shows (its row header says where), described by its full
// label (an aria-label would hide the visible text from speech users: axe's name mismatch).
function cellButton(text, label, weight, onClick) {
  const b = el('button', 'lab-cellbtn mono', text);
  b.type = 'button';
  b.title = label;
  b.style.setProperty('--w', Math.max(0, Math.min(1, weight)).toFixed(3));
  b.addEventListener('click', onClick);
  return b;
}

// The ids a whole feed-forward block ("layer0.ffn") switches off: every unit of its hidden step.
export function blockUnits(trace, id) {
  const s = trace && trace.get(`${id}_hidden`);
  if (!s) return [id];
  return Array.from({ length: s.shape[s.shape.length - 1] }, (_, j) => `${s.id}[${j}]`);
}

// The note for a sweep's result (the largest effect), in this model's numbers and names.
export function sweepNote(kind, r, trace) {
  if (kind === 'ablate') {
    const worst = r.ablations.reduce((a, b) => (b.accuracy < a.accuracy ? b : a), r.ablations[0]);
    return worst ? t('lab.note.ablate', { name: ablateName(trace, worst.ablate), from: pct(r.accuracy), to: pct(worst.accuracy) }) : '';
  }
  let best = null;
  r.heads.heads.forEach((id, i) => { if (!best || r.heads.restored[i] > best.v) best = { id, v: r.heads.restored[i] }; });
  return best ? t('lab.note.patch', { name: headName(trace, best.id), donor: r.patch_from, pct: pct(best.v), donor_answer: r.donor_answer }) : '';
}

// Rows of named cells: each id's row (its block, as the map names it) and column ("head 2"; a
// whole feed-forward block is a row of one cell named by its step).
function byBlock(trace, ids) {
  const rows = new Map();
  for (const id of ids) {
    const p = headParts(trace, id) || { row: ablateName(trace, id), col: t('lab.sweep.block') };
    if (!rows.has(p.row)) rows.set(p.row, []);
    rows.get(p.row).push({ id, col: p.col });
  }
  return rows;
}

function table(rows, cellOf) {
  const tb = el('table', 'lab-grid');
  for (const [name, cells] of rows) {
    const tr = el('tr');
    const th = el('th', '', name);
    th.scope = 'row';
    tr.append(th);
    for (const c of cells) {
      const td = el('td');
      td.append(cellOf(c));
      tr.append(td);
    }
    tb.append(tr);
  }
  return tb;
}

function ablationTable(r, trace, apply) {
  const acc = new Map(r.ablations.map((a) => [a.ablate, a.accuracy]));
  return table(byBlock(trace, r.ablations.map((a) => a.ablate)), ({ id, col }) => {
    const a = acc.get(id);
    const drop = r.accuracy > 0 ? (r.accuracy - a) / r.accuracy : 0;
    return cellButton(`${col}\n${pct(a)}%`, t('lab.sweep.cellAblate', { name: ablateName(trace, id), pct: pct(a) }), drop, () => apply((x) => {
      const ids = headParts(trace, id) ? [id] : blockUnits(trace, id);
      x.ablate = [...new Set([...x.ablate, ...ids])];
    }));
  });
}

function patchTables(r, trace, apply) {
  const res = table(r.residual.map((row) => [targetName(trace, row.step), row.restored.map((v, p) => ({ id: row.step, v, p }))]),
    ({ id, v, p }) => cellButton(share(v), t('lab.sweep.cellPatch', { name: targetName(trace, id), p, share: share(v) }), Math.abs(v), () => apply((x) => {
      x.patchFrom = r.patch_from;
      x.patch = [...new Set([...x.patch, `${id}@${p}`])];
    })));
  const restored = new Map(r.heads.heads.map((id, i) => [id, r.heads.restored[i]]));
  const heads = table(byBlock(trace, r.heads.heads), ({ id, col }) => {
    const v = restored.get(id);
    return cellButton(`${col}\n${share(v)}`, t('lab.sweep.cellHead', { name: headName(trace, id), share: share(v) }), Math.abs(v), () => apply((x) => {
      x.patchFrom = r.patch_from;
      x.patch = [...new Set([...x.patch, `${id}.context`])];
    }));
  });
  return [el('h4', 'lab-sub', t('lab.sweep.residual')), res, el('h4', 'lab-sub', t('lab.sweep.heads')), heads];
}

// sweep: {kind, result}; hooks: {trace()}; apply(edit) applies a change to the spec.
export function sweepView(sweep, hooks, apply) {
  const r = sweep.result;
  const box = el('figure', 'lab-sweep-view');
  if (sweep.kind === 'ablate') {
    box.append(el('figcaption', 'lab-sub', t('lab.sweep.ablateTitle', { n: r.n, task: r.task, pct: pct(r.accuracy) })),
      ablationTable(r, hooks.trace(), apply));
  } else {
    box.append(el('figcaption', 'lab-sub', t('lab.sweep.patchTitle', { row: r.row, answer: r.answer, donor: r.donor_answer })),
      ...patchTables(r, hooks.trace(), apply));
  }
  return box;
}
