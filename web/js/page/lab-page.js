// lab-page.js — the page's side of the "What if?" lab (web/js/lab/, issue 20): applying an
// intervention is a recompute of the shown settings with the lab's spec in the run options
// (run-options.js), so the trace on screen is the intervened one; the trace as trained is kept
// (fetched whole, when small) for the "was …" marks; sweeps run in the Worker ('sweep').
// Also the JS API's intervene() and sweep() (api.js documents them) and the lab's URL keys.
import { app } from './app.js';
import { $ } from '../lib/dom.js';
import { t } from '../lib/i18n.js';
import { requestCompute } from './compute.js';
import { showError } from './messages.js';
import { goTo } from './step-card.js';
import { writeURL } from './url.js';
import { coreErrorText } from '../engine/core-errors.js';
import { labState } from '../lab/state.js';
import { normalize, isEmpty, emptySpec, fromURL, publicSpec, cellId } from '../lab/spec.js';
import { buildPanel, render, setOn, setCell, cellMessage, showHere } from '../lab/panel.js';
import { openEditor } from '../lab/cell-editor.js';
import { cellName } from '../lab/names.js';
import { installMarks, markChanges } from '../lab/marks.js';
import { sweepNote } from '../lab/sweep.js';

const BASELINE_MAX_FLOATS = 4e6; // a trace as trained kept whole for the marks: at most 16 MB

// Recomputes the shown settings with `spec`; a refusal (the core's message, shown unless
// `quiet`: the lab says it in its own words beside a typed cell) restores the spec before it
// and rejects with that message.
export async function applySpec(spec, { quiet = false } = {}) {
  const prev = labState.spec;
  if (isEmpty(prev) && !isEmpty(spec)) await keepBaseline();
  labState.spec = spec;
  try {
    await requestCompute(app.shownState);
  } catch (e) {
    // The engine now holds the run without these interventions (core/session/session.cpp
    // keeps no last good trace for them): compute the last good spec again, so that what the
    // page fetches later is what it shows, and say what was wrong.
    labState.spec = prev;
    await requestCompute(app.shownState).catch(() => {});
    if (!quiet) showError(e.message);
    render();
    throw e;
  }
  if (isEmpty(spec)) labState.was = {};
  render();
  return publicSpec(spec);
}

// The trace on screen, computed without interventions: its data fetched for the marks.
async function keepBaseline() {
  const b = labState.baseline;
  if (!b || b !== app.trace) return;
  const floats = b.steps.reduce((n, s) => n + s.shape.reduce((a, x) => a * x, 1), 0);
  if (floats <= BASELINE_MAX_FLOATS) await b.ensureAll(app.engine);
}

// After every new trace (main.js): remember it as trained when nothing is applied, fetch the
// lens and attribution steps the panel draws, and redraw the panel and the marks.
export async function labTraceShown(trace) {
  if (isEmpty(labState.spec)) labState.baseline = trace;
  const want = trace.steps.filter((s) => /^lens\..*\.probs$/.test(s.id) || s.id === 'attr.parts').map((s) => s.id);
  if (want.length) await trace.ensureSteps(want, app.engine);
  render();
  markChanges();
}

// The JS API: intervene(spec) → the spec applied (the CLI's flags as data); intervene({}) resets.
export async function intervene(raw) {
  let spec;
  try {
    spec = normalize(raw === undefined ? {} : raw);
  } catch (e) {
    showError(e.message);
    throw e;
  }
  if (!isEmpty(spec) && !labState.on) setOn(true);
  return applySpec(spec);
}

// The JS API's and the panel's sweeps: {kind: 'ablate', task?, mode?, seed?, n?} or
// {kind: 'patch', patchFrom, text?} → the core's table (core/session/sweep.h).
export async function sweep(raw) {
  const r0 = raw && typeof raw === 'object' ? raw : {};
  const { kind, patchFrom, ...rest } = r0;
  if (kind !== 'ablate' && kind !== 'patch') {
    const msg = t('lab.err.sweepKind');
    showError(msg);
    throw new Error(msg);
  }
  const spec = { kind, ...rest };
  if (patchFrom !== undefined) spec.patch_from = patchFrom;
  if (kind === 'ablate' && !spec.mode && labState.spec.ablateMode !== 'zero') spec.mode = labState.spec.ablateMode;
  const t0 = performance.now();
  const r = await app.engine.call('sweep', { spec });
  if (!r.ok) {
    const msg = coreErrorText(r);
    showError(msg);
    throw new Error(msg);
  }
  delete r.ok;
  labState.sweep = { kind, result: r, note: sweepNote(kind, r, app.trace), ms: performance.now() - t0 };
  render();
  return r;
}

// The URL's lab keys (read once, before the first compute): {errors}; a spec turns the lab on.
export function readLabURL(search) {
  const { spec, errors } = fromURL(search);
  labState.spec = spec;
  const on = new URLSearchParams(search).get('lab') === '1' || !isEmpty(spec);
  if (on) setOn(true);
  return errors;
}

// Whether the link gave interventions (a checkpoint link applies them once it is on screen: main.js).
export const labSpecSet = () => !isEmpty(labState.spec);

// After a first compute the link's interventions refused: the same settings without them.
export function dropLabSpec() {
  if (isEmpty(labState.spec)) return false;
  labState.spec = emptySpec();
  return true;
}

export function installLab() {
  const slot = $('lab-slot'), tools = $('lab-tools');
  if (!slot || !tools) return;
  buildPanel({ tools, slot }, {
    apply: (spec, opts) => applySpec(spec, opts),
    trace: () => app.trace,
    meta: () => app.lastMeta,
    stepOnScreen: () => (app.trace ? app.trace.steps[app.index] : null),
    sweep: (kind, donor) => sweep(kind === 'patch' ? { kind, patchFrom: donor } : { kind }),
    showError,
    goTo: (id) => goTo(id),
    onToggle: (on) => {
      // Off is the model as trained again: whatever was applied is undone.
      if (!on && !isEmpty(labState.spec)) applySpec(emptySpec()).catch(() => {});
      markChanges();
      writeURL();
    },
  });
  installMarks({
    trace: () => app.trace,
    baseline: () => labState.baseline,
    toggleHead: (id) => {
      const next = structuredClone(labState.spec);
      next.ablate = next.ablate.includes(id) ? next.ablate.filter((a) => a !== id) : [...next.ablate, id];
      applySpec(next).catch(() => {});
    },
    editCell,
    redrawn: showHere,
  });
}

// A number of the step view opened for a new value in its own cell (cell-editor.js): `initial`
// is the digit typed on it, or null for the number it shows. Once applied, the redrawn cell
// gets the focus back.
function editCell({ td, cell }, initial) {
  const { r, c } = td.dataset;
  cellMessage('');
  openEditor(td, {
    name: cellName(app.trace, cellId(cell.id, cell.shape, cell.flat)),
    initial: initial ?? td.textContent.trim(),
    describedBy: 'lab-cell-hint',
    apply: async (text) => {
      const why = await setCell(cell, text);
      if (!why) focusRedrawn(cell.id, r, c, td);
      return why;
    },
    onClose: (cancelled) => { if (cancelled) cellMessage(''); },
  });
}

// The focus to the cell at the same place once the view is redrawn (a few frames at most).
function focusRedrawn(id, r, c, old, frames = 30) {
  const td = document.querySelector(`#view [data-tensor="${CSS.escape(id)}"] td.cell[data-r="${r}"][data-c="${c}"]`);
  if (td && (td !== old || frames === 0)) td.focus();
  else if (frames > 0) requestAnimationFrame(() => focusRedrawn(id, r, c, old, frames - 1));
}
