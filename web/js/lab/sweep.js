// sweep.js — a sweep's table (core/session/sweep.h) as heatmaps of buttons: the ablation
// sweep as blocks × heads (each feed-forward block a cell of its own), coloured by the
// accuracy lost; the patching sweep as layer × position of the residual stream and as a row
// of heads, coloured by the share of the logit difference restored. Clicking a cell applies
// that intervention (apply(edit), edit(spec) changes the spec), and a note says, in this
// model's numbers, what the largest effect was.
import { el } from '../lib/dom.js';
import { t } from '../lib/i18n.js';

const pct = (x) => (100 * x).toFixed(1);
// A share of the logit difference, to two decimals (float noise around 0 shown as 0.00).
const share = (x) => (Math.abs(x) < 0.005 ? 0 : x).toFixed(2);

function cellButton(text, label, weight, onClick) {
  const b = el('button', 'lab-cellbtn mono', text);
  b.type = 'button';
  b.setAttribute('aria-label', label);
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

// The note for a sweep's result (the largest effect), in this model's numbers.
export function sweepNote(kind, r) {
  if (kind === 'ablate') {
    const worst = r.ablations.reduce((a, b) => (b.accuracy < a.accuracy ? b : a), r.ablations[0]);
    return worst ? t('lab.note.ablate', { id: worst.ablate, from: pct(r.accuracy), to: pct(worst.accuracy) }) : '';
  }
  let best = null;
  r.heads.heads.forEach((id, i) => { if (!best || r.heads.restored[i] > best.v) best = { id, v: r.heads.restored[i] }; });
  return best ? t('lab.note.patch', { id: best.id, donor: r.patch_from, pct: pct(best.v), donor_answer: r.donor_answer }) : '';
}

function ablationTable(r, trace, apply) {
  const rows = new Map();
  for (const a of r.ablations) {
    const m = /^(.*)\.head(\d+)$/.exec(a.ablate);
    const key = m ? m[1] : a.ablate;
    if (!rows.has(key)) rows.set(key, []);
    rows.get(key).push({ ...a, col: m ? `head${m[2]}` : 'ffn' });
  }
  const table = el('table', 'lab-grid');
  for (const [key, cells] of rows) {
    const tr = el('tr');
    const th = el('th', 'mono', key);
    th.scope = 'row';
    tr.append(th);
    for (const c of cells) {
      const td = el('td');
      const label = t('lab.sweep.cellAblate', { id: c.ablate, pct: pct(c.accuracy) });
      const drop = r.accuracy > 0 ? (r.accuracy - c.accuracy) / r.accuracy : 0;
      td.append(cellButton(`${c.col} ${pct(c.accuracy)}%`, label, drop, () => apply((x) => {
        const ids = c.col === 'ffn' ? blockUnits(trace, c.ablate) : [c.ablate];
        x.ablate = [...new Set([...x.ablate, ...ids])];
      })));
      tr.append(td);
    }
    table.append(tr);
  }
  return table;
}

function patchTables(r, apply) {
  const res = el('table', 'lab-grid');
  for (const row of r.residual) {
    const tr = el('tr');
    const th = el('th', 'mono', row.step);
    th.scope = 'row';
    tr.append(th);
    row.restored.forEach((v, p) => {
      const td = el('td');
      const label = t('lab.sweep.cellPatch', { id: row.step, p, share: share(v) });
      td.append(cellButton(share(v), label, Math.abs(v), () => apply((x) => {
        x.patchFrom = r.patch_from;
        x.patch = [...new Set([...x.patch, `${row.step}@${p}`])];
      })));
      tr.append(td);
    });
    res.append(tr);
  }
  const heads = el('table', 'lab-grid');
  const tr = el('tr');
  r.heads.heads.forEach((id, i) => {
    const v = r.heads.restored[i];
    const td = el('td');
    td.append(cellButton(`${id} ${share(v)}`, t('lab.sweep.cellHead', { id, share: share(v) }), Math.abs(v), () => apply((x) => {
      x.patchFrom = r.patch_from;
      x.patch = [...new Set([...x.patch, `${id}.context`])];
    })));
    tr.append(td);
  });
  heads.append(tr);
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
      ...patchTables(r, apply));
  }
  return box;
}
