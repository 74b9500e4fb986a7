// panel.js — the "What if?" lab's panel: the switch that turns the lab on, the interventions
// in force (each with its own remove button), a cell's new value, the donor sentence and the
// steps to patch, lens/attribution switches, the prediction before → after, the sweeps and
// Reset. It changes the spec only through hooks.apply(spec) (page/lab-page.js), which
// recomputes; render() redraws the panel from labState and the trace on screen.
//   hooks: {apply(spec) → Promise, trace(), meta(), cell() → {id, shape, flat, old} | null,
//           stepOnScreen() → step | null, sweep(kind) → Promise, showError(msg)}
import { el } from '../lib/dom.js';
import { t } from '../lib/i18n.js';
import { labState } from './state.js';
import { emptySpec, isEmpty, checkNumber, cellId } from './spec.js';
import { lensGrid } from './lens.js';
import { attributionBars } from './attribution.js';
import { sweepView } from './sweep.js';
import { predictionLine } from './prediction.js';
import { fmt } from './format.js';

let H = null;
const ui = {};

function button(text, cls, onClick) {
  const b = el('button', cls, text);
  b.type = 'button';
  b.addEventListener('click', onClick);
  return b;
}

let fields = 0;
function field(labelText, input) {
  input.id = `lab-field-${++fields}`;
  const l = el('label', 'lab-label', labelText);
  l.htmlFor = input.id;
  const box = el('div', 'lab-field');
  box.append(l, input);
  return box;
}

// Applies a change to the spec; a refusal leaves the spec as it was (the page shows why).
async function change(edit) {
  const next = structuredClone(labState.spec);
  edit(next);
  try {
    await H.apply(next);
  } catch {
    // the page shows the message (hooks.apply); the panel keeps the last good spec
  }
}

// Builds the switch and the (hidden) panel into `slot`.
export function buildPanel(slot, hooks) {
  H = hooks;
  ui.toggle = button(t('lab.toggle'), 'lab-toggle', () => setOn(!labState.on));
  ui.toggle.title = t('lab.toggle.title');
  ui.toggle.setAttribute('aria-pressed', 'false');
  ui.toggle.setAttribute('aria-controls', 'lab-panel');
  ui.panel = el('section', 'lab-panel');
  ui.panel.id = 'lab-panel';
  ui.panel.hidden = true;
  ui.panel.setAttribute('aria-labelledby', 'lab-heading');
  const h = el('h2', 'lab-heading', t('lab.heading'));
  h.id = 'lab-heading';
  ui.status = el('p', 'lab-status muted small');
  ui.status.setAttribute('role', 'status');
  ui.prediction = el('p', 'lab-prediction');
  ui.list = el('ul', 'lab-list');
  ui.panel.append(h, el('p', 'muted small', t('lab.help')), ui.prediction, el('h3', 'lab-sub', t('lab.active')), ui.list,
    modeField(), cellForm(), patchForm(), switches(), sweepButtons(), ui.status, (ui.note = el('p', 'lab-note')),
    (ui.views = el('div', 'lab-views')), button(t('lab.reset'), 'lab-reset', () => H.apply(emptySpec()).catch(() => {})));
  slot.append(ui.toggle, ui.panel);
}

export function setOn(on) {
  labState.on = on;
  ui.toggle.setAttribute('aria-pressed', String(on));
  ui.panel.hidden = !on;
  document.body.classList.toggle('lab-on', on);
  if (on) render();
  if (H.onToggle) H.onToggle(on);
}

function modeField() {
  const s = el('select', 'lab-mode');
  for (const m of ['zero', 'mean']) {
    const o = el('option', '', t(`lab.mode.${m}`));
    o.value = m;
    s.append(o);
  }
  s.addEventListener('change', () => change((x) => { x.ablateMode = s.value; }));
  ui.mode = s;
  return field(t('lab.mode'), s);
}

function cellForm() {
  const f = el('form', 'lab-cell');
  ui.cellName = el('code', 'lab-cell-name', t('lab.cell.none'));
  ui.cellInput = el('input', 'lab-cell-input');
  ui.cellInput.inputMode = 'decimal';
  ui.cellInput.autocomplete = 'off';
  const row = field(t('lab.cell.value'), ui.cellInput);
  row.prepend(el('span', 'lab-label', `${t('lab.cell')}: `), ui.cellName);
  const go = el('button', '', t('lab.cell.apply'));
  go.type = 'submit';
  row.append(go);
  f.append(row);
  f.addEventListener('submit', (e) => {
    e.preventDefault();
    applyCell();
  });
  return f;
}

// The cell the reader clicked (or typed into) gets the value typed; a non-number is refused.
function applyCell() {
  const c = H.cell();
  if (!c) return H.showError(t('lab.err.noCell'));
  const id = cellId(c.id, c.shape, c.flat);
  let v;
  try {
    v = checkNumber(id, ui.cellInput.value);
  } catch (e) {
    return H.showError(e.message);
  }
  if (!(id in labState.was) && c.old !== undefined) labState.was[id] = c.old;
  change((x) => { x.set[id] = v; });
}

// Focuses the value box with `text` typed so far (a digit typed on a matrix cell lands here).
export function typeIntoCell(text) {
  if (!labState.on) return;
  showCell();
  ui.cellInput.value = text;
  ui.cellInput.focus();
}

export function showCell() {
  const c = H.cell();
  ui.cellName.textContent = c ? cellId(c.id, c.shape, c.flat) : t('lab.cell.none');
}

function patchForm() {
  const f = el('form', 'lab-patch');
  ui.donor = el('input', 'lab-donor');
  ui.donor.type = 'text';
  ui.donor.spellcheck = false;
  ui.patch = el('input', 'lab-patch-ids mono');
  ui.patch.type = 'text';
  ui.patch.spellcheck = false;
  ui.patchHere = el('p', 'muted small');
  const go = el('button', '', t('lab.patch.apply'));
  go.type = 'submit';
  f.append(field(t('lab.patchFrom'), ui.donor), field(t('lab.patch'), ui.patch), ui.patchHere, go);
  f.addEventListener('submit', (e) => {
    e.preventDefault();
    const ids = ui.patch.value.split(';').map((s) => s.trim()).filter(Boolean);
    change((x) => {
      x.patchFrom = ui.donor.value;
      x.patch = ids;
    });
  });
  return f;
}

function switches() {
  const box = el('div', 'lab-switches');
  for (const k of ['lens', 'attribute']) {
    const c = el('input');
    c.type = 'checkbox';
    c.addEventListener('change', () => change((x) => { x[k] = c.checked; }));
    ui[k] = c;
    const l = el('label', 'switch');
    l.append(c, ' ', el('span', '', t(`lab.${k}`)));
    box.append(l);
  }
  return box;
}

function sweepButtons() {
  const box = el('div', 'lab-sweeps');
  for (const kind of ['ablate', 'patch'])
    box.append(ui[`sweep-${kind}`] = button(t(`lab.sweep.${kind}`), 'lab-sweep', () => runSweep(kind)));
  return box;
}

async function runSweep(kind) {
  if (kind === 'patch' && !ui.donor.value.trim()) return H.showError(t('lab.sweep.needDonor'));
  setBusy(true);
  try {
    await H.sweep(kind, ui.donor.value);
  } catch {
    // shown by the page
  } finally {
    setBusy(false);
    render();
  }
}

// While a sweep runs (in the Worker): the buttons wait, the status counts the seconds.
let busyTimer = 0;
function setBusy(on) {
  labState.busy = on;
  clearInterval(busyTimer);
  ui.panel.setAttribute('aria-busy', String(on));
  for (const b of ui.panel.querySelectorAll('.lab-sweep')) b.disabled = on;
  ui.status.textContent = on ? t('lab.sweep.running', { seconds: '0.0' }) : '';
  if (!on) return;
  const t0 = performance.now();
  busyTimer = setInterval(() => {
    ui.status.textContent = t('lab.sweep.running', { seconds: ((performance.now() - t0) / 1000).toFixed(1) });
  }, 100);
}

// The interventions in force, each with a button that removes it.
function listItems(s) {
  const items = [];
  for (const id of s.ablate) items.push([t('lab.item.ablate', { id }), (x) => { x.ablate = x.ablate.filter((a) => a !== id); }]);
  for (const [cell, value] of Object.entries(s.set)) {
    const was = labState.was[cell];
    const text = was !== undefined ? t('lab.item.setWas', { cell, value, was: fmt(was) }) : t('lab.item.set', { cell, value });
    items.push([text, (x) => { delete x.set[cell]; }]);
  }
  for (const id of s.patch) items.push([t('lab.item.patch', { id, donor: s.patchFrom }), (x) => { x.patch = x.patch.filter((p) => p !== id); }]);
  if (s.patchFrom && !s.patch.length) items.push([t('lab.item.donor', { donor: s.patchFrom }), (x) => { x.patchFrom = ''; }]);
  return items;
}

// Redraws the panel from labState and the trace on screen.
export function render() {
  if (!ui.panel || !labState.on) return;
  const s = labState.spec;
  const items = listItems(s);
  ui.list.replaceChildren(...(items.length ? items.map(([text, remove]) => {
    const li = el('li', '', text + ' ');
    const b = button('✕', 'small link', () => change(remove));
    b.setAttribute('aria-label', t('lab.remove.label', { what: text }));
    li.append(b);
    return li;
  }) : [el('li', 'muted', t('lab.none'))]));
  ui.mode.value = s.ablateMode;
  ui.lens.checked = s.lens;
  ui.attribute.checked = s.attribute;
  if (document.activeElement !== ui.donor && s.patchFrom) ui.donor.value = s.patchFrom;
  if (document.activeElement !== ui.patch) ui.patch.value = s.patch.join('; ');
  const here = H.stepOnScreen();
  ui.patchHere.textContent = here ? t('lab.patch.here', { id: here.id }) : '';
  showCell();
  const trace = H.trace(), meta = H.meta();
  const p = predictionLine(meta);
  ui.prediction.textContent = isEmpty(s) || !p ? '' : p.line;
  ui.note.textContent = (p && !isEmpty(s) && p.note) || (labState.sweep && labState.sweep.note) || '';
  const views = [];
  if (s.lens && trace) views.push(lensGrid(trace, H));
  if (s.attribute && trace) views.push(attributionBars(trace, meta, H));
  if (labState.sweep) views.push(sweepView(labState.sweep, H, apply));
  ui.views.replaceChildren(...views.filter(Boolean));
}

// A sweep cell clicked: its intervention applied (and the donor kept for patches).
function apply(edit) {
  change(edit);
}
