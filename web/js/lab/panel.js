// panel.js — the "What if?" lab's panel: the switch that turns the lab on (on the step card),
// the interventions in force named for a reader (each with its own remove button), the "set a
// cell" mode (a number is typed into its own cell: cell-editor.js), the donor sentence and the
// steps to patch — picked with "Patch this step" on the step card, typed ids only as a fallback
// — lens/attribution switches, the prediction before → after, the sweeps and Reset. It changes
// the spec only through hooks.apply(spec) (page/lab-page.js), which recomputes; render()
// redraws the panel from labState and the trace on screen.
//   hooks: {apply(spec, {quiet}?) → Promise, trace(), meta(), stepOnScreen() → step | null,
//           sweep(kind, donor) → Promise, showError(msg), goTo(id), onToggle(on)}
import { el } from '../lib/dom.js';
import { t } from '../lib/i18n.js';
import { labState } from './state.js';
import { emptySpec, isEmpty, checkNumber, cellId } from './spec.js';
import { ablateName, cellName, targetName } from './names.js';
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

// Applies a change to the spec; a refusal leaves the spec as it was (the page shows why,
// unless opts.quiet). → '' when applied, else the engine's message.
async function change(edit, opts) {
  const next = structuredClone(labState.spec);
  edit(next);
  try {
    await H.apply(next, opts);
    return '';
  } catch (e) {
    return e.message;  // the page shows it too (hooks.apply); the panel keeps the last good spec
  }
}

// Builds the switch and "Patch this step" into `tools` (on the step card) and the (hidden)
// panel into `slot` (beside the card, or under it on a narrow screen: step.css).
export function buildPanel({ tools, slot }, hooks) {
  H = hooks;
  ui.toggle = button(t('lab.toggle'), 'lab-toggle', () => setOn(!labState.on));
  ui.toggle.title = t('lab.toggle.title');
  ui.toggle.setAttribute('aria-pressed', 'false');
  ui.toggle.setAttribute('aria-controls', 'lab-panel');
  ui.patchHere = button(t('lab.patch.here'), 'lab-patch-here', patchHere);
  ui.patchHere.hidden = true;
  // Where the panel is under a tall card (narrow screens): what it holds, a link down to it.
  ui.brief = el('p', 'lab-brief small');
  ui.brief.hidden = true;
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
    cellMode(), patchForm(), modeField(), switches(), sweepButtons(), ui.status, (ui.note = el('p', 'lab-note')),
    (ui.views = el('div', 'lab-views')), button(t('lab.reset'), 'lab-reset', () => H.apply(emptySpec()).catch(() => {})));
  tools.append(ui.toggle, ui.patchHere, ui.brief);
  slot.append(ui.panel);
}

export function setOn(on) {
  labState.on = on;
  ui.toggle.setAttribute('aria-pressed', String(on));
  ui.panel.hidden = !on;
  ui.patchHere.hidden = !on;
  ui.brief.hidden = !on;
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

// "Set a cell": while pressed, a click on a number of a matrix (or Enter on it) opens it for a
// new value in place (marks.js, cell-editor.js); the line under it says how, or what was wrong.
function cellMode() {
  const box = el('div', 'lab-cellmode');
  ui.setMode = button(t('lab.cell.mode'), 'lab-set-mode', () => {
    labState.setMode = !labState.setMode;
    render();
  });
  ui.cellHint = el('p', 'lab-cell-hint small');
  ui.cellHint.id = 'lab-cell-hint';
  ui.cellHint.setAttribute('aria-live', 'polite');
  box.append(el('h3', 'lab-sub', t('lab.cell.heading')), ui.setMode, ui.cellHint);
  return box;
}

// The hint under "Set a cell", or the reason a typed value was refused (class lab-error),
// which stays until the interventions change.
export function cellMessage(text) {
  ui.cellHint.textContent = text || t(labState.setMode ? 'lab.cell.hint' : 'lab.cell.hintOff');
  ui.cellHint.classList.toggle('lab-error', !!text);
  ui.errorSpec = text ? labState.spec : null;
}

// The value typed into cell `c` ({id, shape, flat, old}), checked and applied: '' when applied,
// else the message why not (shown; the spec and the trace stay as they were).
export async function setCell(c, text) {
  const id = cellId(c.id, c.shape, c.flat);
  const name = cellName(H.trace(), id);
  let v;
  try {
    v = checkNumber(name, text);
  } catch (e) {
    cellMessage(e.message);  // beside the cell's editor, which keeps it open (nothing was computed)
    return e.message;
  }
  cellMessage('');
  const had = id in labState.was;
  if (!had && c.old !== undefined) labState.was[id] = c.old;
  // The engine may still refuse it (a value whose consequences overflow float32 or divide by
  // zero further on): said here, in the reader's language, instead of the page's error.
  const refused = await change((x) => { x.set[id] = v; }, { quiet: true });
  const why = refused ? t('lab.err.refused', { cell: name, got: String(text).trim().slice(0, 40) }) : '';
  if (why && !had) delete labState.was[id];
  cellMessage(why);
  return why;
}

// The donor sentence, and — for those who know the ids — the steps to patch typed (ID or
// ID@positions, separated by ;). The usual way is "Patch this step" on the step card.
function patchForm() {
  const f = el('form', 'lab-patch');
  ui.donor = el('input', 'lab-donor');
  ui.donor.type = 'text';
  ui.donor.spellcheck = false;
  ui.patch = el('input', 'lab-patch-ids mono');
  ui.patch.type = 'text';
  ui.patch.spellcheck = false;
  const go = el('button', '', t('lab.patch.apply'));
  go.type = 'submit';
  const more = el('details', 'lab-advanced');
  more.append(el('summary', 'small', t('lab.patch.advanced')), field(t('lab.patch'), ui.patch), go);
  f.append(el('h3', 'lab-sub', t('lab.patch.heading')), field(t('lab.patchFrom'), ui.donor),
    el('p', 'muted small', t('lab.patch.how')), more);
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

// "Patch this step": the step on screen becomes a patch target, copied from the donor sentence.
function patchHere() {
  const step = H.stepOnScreen();
  if (!step) return;
  const donor = ui.donor.value.trim() || labState.spec.patchFrom;
  if (!donor) {
    H.showError(t('lab.patch.needDonor'));
    ui.donor.focus();
    return;
  }
  change((x) => {
    x.patchFrom = donor;
    if (!x.patch.includes(step.id)) x.patch = [...x.patch, step.id];
  });
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

// The interventions in force, named for a reader (names.js), each with a button that removes it
// and its id (the CLI's name) as its tooltip.
function listItems(s, trace) {
  const items = [];
  for (const id of s.ablate) items.push([t('lab.item.ablate', { name: ablateName(trace, id) }), id, (x) => { x.ablate = x.ablate.filter((a) => a !== id); }]);
  for (const [cell, value] of Object.entries(s.set)) {
    const was = labState.was[cell], name = cellName(trace, cell);
    const text = was !== undefined ? t('lab.item.setWas', { name, value, was: fmt(was) }) : t('lab.item.set', { name, value });
    items.push([text, cell, (x) => { delete x.set[cell]; }]);
  }
  // The last target removed takes the donor with it (the engine refuses a donor with nothing to patch).
  const unpatch = (id) => (x) => {
    x.patch = x.patch.filter((p) => p !== id);
    if (!x.patch.length) x.patchFrom = '';
  };
  for (const id of s.patch) items.push([t('lab.item.patch', { name: targetName(trace, id), donor: s.patchFrom }), id, unpatch(id)]);
  if (s.patchFrom && !s.patch.length) items.push([t('lab.item.donor', { donor: s.patchFrom }), '', (x) => { x.patchFrom = ''; }]);
  return items;
}

function listItem([text, id, remove]) {
  const li = el('li', '', text + ' ');
  if (id) li.title = id;
  const b = button('✕', 'small link', () => change(remove));
  b.setAttribute('aria-label', t('lab.remove.label', { what: text }));
  li.append(b);
  return li;
}

function showBrief(n, prediction) {
  const go = el('a', 'lab-brief-go', t('lab.brief.go'));
  go.href = '#lab-panel';
  ui.brief.replaceChildren([t('lab.brief', { n }), prediction].filter(Boolean).join(' · ') + ' ', go);
}

// "Patch this step" names the step on screen (after each redraw of the step: lab-page.js).
export function showHere() {
  const here = H && H.stepOnScreen();
  if (!ui.patchHere || !here) return;
  const patched = labState.spec.patch.includes(here.id);
  ui.patchHere.disabled = patched;
  ui.patchHere.textContent = t(patched ? 'lab.patch.hereDone' : 'lab.patch.here');
  ui.patchHere.title = t('lab.patch.hereTitle', { name: targetName(H.trace(), here.id) });
}

// Redraws the panel from labState and the trace on screen.
export function render() {
  if (!ui.panel || !labState.on) return;
  const s = labState.spec, trace = H.trace();
  const items = listItems(s, trace);
  ui.list.replaceChildren(...(items.length ? items.map(listItem) : [el('li', 'muted', t('lab.none'))]));
  ui.mode.value = s.ablateMode;
  ui.lens.checked = s.lens;
  ui.attribute.checked = s.attribute;
  if (document.activeElement !== ui.donor && s.patchFrom) ui.donor.value = s.patchFrom;
  if (document.activeElement !== ui.patch) ui.patch.value = s.patch.join('; ');
  ui.setMode.setAttribute('aria-pressed', String(labState.setMode));
  if (ui.errorSpec !== s) cellMessage('');
  showHere();
  const meta = H.meta();
  const p = predictionLine(meta);
  ui.prediction.textContent = isEmpty(s) || !p ? '' : p.line;
  showBrief(items.length, ui.prediction.textContent);
  ui.note.textContent = (p && !isEmpty(s) && p.note) || (labState.sweep && labState.sweep.note) || '';
  const views = [];
  if (s.lens && trace) views.push(lensGrid(trace, H));
  if (s.attribute && trace) views.push(attributionBars(trace, meta, H));
  if (labState.sweep) views.push(sweepView(labState.sweep, H, apply));
  ui.views.replaceChildren(...views.filter(Boolean));
  ui.views.scrollLeft = 0;  // a clicked sweep cell far right had scrolled the old views sideways
}

// A sweep cell clicked: its intervention applied (and the donor kept for patches).
function apply(edit) {
  change(edit);
}
