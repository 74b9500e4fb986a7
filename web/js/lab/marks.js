// marks.js — the lab on the page's own views, while it is on: a click on a head in the map
// or on a head thumbnail switches that head off (again: on) instead of going there; a click
// (or keyboard focus) on a matrix cell makes it the cell a new value goes into, and a digit
// typed on it starts typing that value; every number that differs from the model as trained
// is marked (class lab-changed) with its old value as its title ("was 0.97"), and switched-
// off heads are marked in the map and the thumbnails.
//   hooks: {trace(), baseline(), toggleHead(id), selectCell(cell), typeIntoCell(text)}
import { $ } from '../lib/dom.js';
import { t } from '../lib/i18n.js';
import { labState } from './state.js';
import { headOf } from './spec.js';
import { fmt } from './format.js';

let H = null;

// The step a head link stands for: a map head (data-i, the step's index) or a thumbnail (data-step).
function linkedStep(a) {
  const trace = H.trace();
  if (!trace) return null;
  if (a.dataset.step) return trace.get(a.dataset.step);
  return trace.steps[Number(a.dataset.i)] || null;
}

function onClick(e) {
  if (!labState.on || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) return;
  const a = e.target.closest && e.target.closest('a.map-head, a.multiple[data-step]');
  if (a) {
    const head = headOf(linkedStep(a)?.id);
    if (!head) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    H.toggleHead(head);
    return;
  }
  selectFrom(e.target);
}

// The cell under `node` (a td of a matrix inside the step view), made the lab's cell.
function selectFrom(node) {
  const td = node.closest && node.closest('#view td.cell');
  const m = td && td.closest('[data-tensor]');
  const trace = H.trace();
  if (!td || !m || !trace) return false;
  const s = trace.get(m.dataset.tensor);
  if (!s) return false;
  const R = Number(td.dataset.r), c = Number(td.dataset.c);
  const flat = R * trace.layout(s).cols + c;
  H.selectCell({ id: s.id, shape: s.shape, flat, old: s.data ? s.data[flat] : undefined });
  return true;
}

function onKey(e) {
  if (!labState.on || e.altKey || e.ctrlKey || e.metaKey) return;
  if (!/^[0-9.+\-]$/.test(e.key)) return;
  if (!selectFrom(e.target)) return;
  e.preventDefault();
  H.typeIntoCell(e.key);
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
    const off = labState.on && labState.spec.ablate.includes(headOf(linkedStep(a)?.id));
    a.classList.toggle('lab-off', off);
    if (off) a.title = t('lab.headOff');
    else if (a.title === t('lab.headOff')) a.removeAttribute('title');
  }
}

export function installMarks(hooks) {
  H = hooks;
  document.addEventListener('click', onClick, true);
  document.addEventListener('focusin', (e) => { if (labState.on) selectFrom(e.target); });
  document.addEventListener('keydown', onKey, true);
  // The step view and the map are redrawn by the page: mark them again after each redraw.
  let queued = false;
  const again = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      markChanges();
    });
  };
  const obs = new MutationObserver(again);
  for (const id of ['view', 'map']) if ($(id)) obs.observe($(id), { childList: true, subtree: true });
}
