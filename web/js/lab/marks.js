// marks.js — the lab on the page's own views, while it is on: a click on a head in the map
// or on a head thumbnail switches that head off (again: on) instead of going there; in "set a
// cell" mode a click on a number of a matrix (or Enter or F2 on it) opens it for a new value in
// place, and a digit typed on a number starts that value (cell-editor.js); every number that
// differs from the model as trained is marked (class lab-changed) with its old value as its
// title ("was 0.97"), and switched-off heads are marked in the map and the thumbnails, their
// titles naming the head as the map does (names.js).
//   hooks: {trace(), baseline(), toggleHead(id), editCell({td, cell}, initial | null), redrawn()}
import { $ } from '../lib/dom.js';
import { t } from '../lib/i18n.js';
import { labState } from './state.js';
import { headOf } from './spec.js';
import { headName } from './names.js';
import { fmt } from './format.js';
import { isEditorInput } from './cell-editor.js';

let H = null;

// The step a head link stands for: a map head (data-i, the step's index) or a thumbnail (data-step).
function linkedStep(a) {
  const trace = H.trace();
  if (!trace) return null;
  if (a.dataset.step) return trace.get(a.dataset.step);
  return trace.steps[Number(a.dataset.i)] || null;
}

function onClick(e) {
  if (!labState.on || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || isEditorInput(e.target)) return;
  const a = e.target.closest && e.target.closest('a.map-head, a.multiple[data-step]');
  if (a) {
    const head = headOf(linkedStep(a)?.id);
    if (!head) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    H.toggleHead(head);
    return;
  }
  // After the matrix's own click handler, which focuses the cell (and would close the editor).
  const at = labState.setMode && cellAt(e.target);
  if (at) setTimeout(() => { if (at.td.isConnected) H.editCell(at, null); });
}

// The cell under `node` (a td of a matrix inside the step view): {td, cell: {id, shape, flat,
// old}}, or null.
function cellAt(node) {
  const td = node.closest && node.closest('#view td.cell');
  const m = td && td.closest('[data-tensor]');
  const trace = H.trace();
  if (!td || !m || !trace) return null;
  const s = trace.get(m.dataset.tensor);
  if (!s) return null;
  const flat = Number(td.dataset.r) * trace.layout(s).cols + Number(td.dataset.c);
  return { td, cell: { id: s.id, shape: s.shape, flat, old: s.data ? s.data[flat] : undefined } };
}

// On a number: a digit (or sign, or point) starts a new value; in "set a cell" mode Enter or F2
// opens it with the value it has.
function onKey(e) {
  if (!labState.on || e.altKey || e.ctrlKey || e.metaKey || isEditorInput(e.target)) return;
  const digit = /^[0-9.+\-]$/.test(e.key);
  if (!digit && !(labState.setMode && (e.key === 'Enter' || e.key === 'F2'))) return;
  const at = cellAt(e.target);
  if (!at) return;
  e.preventDefault();
  e.stopPropagation();
  H.editCell(at, digit ? e.key : null);
}

// Marks the numbers of the view that differ from the model as trained, and the heads off.
export function markChanges() {
  const trace = H.trace(), base = H.baseline();
  const view = $('view');
  if (!trace || !view) return;
  // The lab off and no mark left from when it was on (a redrawn view's cells have none): nothing
  // to do — walking every cell was ~7 ms of a d512 sentence edit (tests/browser/profile.mjs).
  const marked = (root, cls) => root.getElementsByClassName(cls).length > 0;
  if (!labState.on && !marked(view, 'lab-changed') && !marked(view, 'lab-was') && !marked(document, 'lab-off')) return;
  for (const m of view.querySelectorAll('[data-tensor]')) {
    const s = trace.get(m.dataset.tensor), b = base && base.get(m.dataset.tensor);
    const same = labState.on && s && b && s.data && b.data && s.data.length === b.data.length;
    const cols = same ? trace.layout(s).cols : 0;
    for (const td of m.querySelectorAll('td.cell')) {
      const i = Number(td.dataset.r) * cols + Number(td.dataset.c);
      const changed = same && !(s.data[i] === b.data[i] || Math.abs(s.data[i] - b.data[i]) <= 1e-6 * Math.max(1, Math.abs(b.data[i])));
      td.classList.toggle('lab-changed', !!changed);
      if (changed) td.title = t('lab.was', { old: fmt(b.data[i]) });
      else if (td.classList.contains('lab-was')) td.removeAttribute('title');
      td.classList.toggle('lab-was', !!changed);
    }
  }
  for (const a of document.querySelectorAll('a.map-head, a.multiple[data-step]')) {
    const head = headOf(linkedStep(a)?.id);
    const off = labState.on && labState.spec.ablate.includes(head);
    if (off === a.classList.contains('lab-off')) continue;
    a.classList.toggle('lab-off', off);
    // The title it had (the map's name of the head) comes back when the head is on again.
    if (off) {
      a.dataset.titleOn = a.getAttribute('title') || '';
      a.title = t('lab.headOff', { name: headName(trace, head) });
    } else if (a.dataset.titleOn) a.title = a.dataset.titleOn;
    else a.removeAttribute('title');
  }
}

export function installMarks(hooks) {
  H = hooks;
  document.addEventListener('click', onClick, true);
  document.addEventListener('keydown', onKey, true);
  // The step view and the map are redrawn by the page: mark them again after each redraw.
  let queued = false;
  const again = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      markChanges();
      H.redrawn();
    });
  };
  const obs = new MutationObserver(again);
  for (const id of ['view', 'map']) if ($(id)) obs.observe($(id), { childList: true, subtree: true });
}
