// step-card.js — the page's step card: the step on screen (drawn by view/step-view.js, as the
// web component draws it) with what only the page has around it — its place in the model
// (crumbs), the counter and previous/next, its id, shape and kind, where the weights come
// from, the note folded on a phone, the timing readout — and going to a step by id. The page's view context (theme,
// window, the cell explained, navigation) is made here, from app.js.
import { app } from './app.js';
import { $, el } from '../lib/dom.js';
import { shapeText, msText } from '../lib/format.js';
import { t } from '../lib/i18n.js';
import { stepTitle, stepCrumbs } from '../model/titles.js';
import { buildLabel } from '../engine/builds.js';
import { viewContext, PAGE_WINDOW } from '../view/context.js';
import { prepareStepView, drawStepView } from '../view/step-view.js';
import { FIGURE_WINDOW } from '../embed/embed-params.js';
import { markToc } from './toc.js';
import { writeURL } from './url.js';
import { showProvenance, weightsInfo, weightsSource } from './provenance.js';
import { isDark } from './theme.js';
import { specialTokens } from './chat.js';
import { figureFormulaOptions } from './katex-loader.js';

// The view context of `step` on the page: its theme, its window (a figure shows all that fits),
// the cell the reader explained, and navigation through showStep.
function pageContext(step) {
  return viewContext({
    trace: app.trace, step, engine: app.engine, batch: app.batch, cell: app.cell,
    dark: isDark(),
    specialTokens: specialTokens(),
    window: app.view && app.view.view === 'figure' ? FIGURE_WINDOW : PAGE_WINDOW,
    trained: app.shownState ? weightsInfo().kind === 'trained' : false,
    goTo: (id) => goTo(id, { focus: true }),
    openCell: (id, R, c) => {
      app.cell = { step: id, R, c };
      goTo(id, { keepCell: true, focus: false });
    },
    setBatch: (b) => {
      if (b === app.batch) return;
      app.batch = b;
      app.cell = null;
      showStep(app.index);
    },
    onExplain: (R, c) => { app.cell = { step: step.id, R, c }; },
  });
}

let renderToken = 0;
const redrawStep = () => app.trace && showStep(app.index, { keepCell: true, focus: false });
// opts: {keepCell (keep the cell explained when it is of this step), focus (move focus to the title)}.
export async function showStep(index, opts = {}) {
  const trace = app.trace;
  if (!trace) return;
  index = Math.max(0, Math.min(trace.steps.length - 1, index));
  const step = trace.steps[index];
  const token = ++renderToken;
  const t0 = performance.now();
  if (!opts.keepCell || !app.cell || app.cell.step !== step.id) app.cell = null;
  app.index = index;
  app.state.step = step.id;
  if (app.shownState) app.shownState.step = step.id;
  const ctx = pageContext(step);
  let fetchError = null;
  await prepareStepView(ctx).catch((e) => { fetchError = e; });
  if (token !== renderToken || trace !== app.trace) return;
  const title = stepTitle(step, trace);
  const n = trace.steps.length;
  $('crumbs').textContent = stepCrumbs(step, trace);
  $('counter').textContent = t('steps.counter', { i: index + 1, n });
  $('prev').disabled = index === 0;
  $('next').disabled = index === n - 1;
  showMeta(step);
  // A figure's formula as MathML, typeset by the build or KaTeX's script alone (katex-loader.js).
  const katex = app.view && app.view.view === 'figure' ? figureFormulaOptions(redrawStep) : undefined;
  drawStepView(ctx, { title: $('step-title'), formula: $('formula'), note: $('note'), notation: notationBox(), body: $('view') }, { fetchError, katex });
  showProvenance(step);
  foldNote();
  app.renderMs = performance.now() - t0;
  updatePerf();
  markToc();
  writeURL();
  document.title = t('steps.docTitle', { i: index + 1, title });
  $('announce').textContent = t('steps.announce', { i: index + 1, n, title });
  if (opts.focus) $('step-title').focus({ preventScroll: false });
}

// The step's id, shape and kind under its title.
function showMeta(step) {
  const meta = $('step-meta');
  meta.replaceChildren();
  const add = (k, v, cls) => {
    const d = el('span', 'meta-item');
    d.append(el('span', 'meta-k', k), el('span', 'meta-v ' + (cls || ''), v));
    meta.append(d);
  };
  add(t('steps.meta.id'), step.id, 'mono');
  add(t('steps.meta.shape'), shapeText(step.shape));
  add(t('steps.meta.kind'), step.kind);
}

// On a phone the note under the title starts as its first lines and a "more" button, so that
// the step's first numbers are on the first screen (issue 22); the reader's choice holds for the
// steps after. Elsewhere (wider screens, embeds, figures) the note is whole and has no button.
const PHONE = '(max-width: 760px)';
function foldNote() {
  const note = $('note');
  let more = $('note-more');
  if (!more) {
    more = el('button', 'note-more');
    more.id = 'note-more';
    more.type = 'button';
    more.setAttribute('aria-controls', 'note');
    more.addEventListener('click', () => {
      app.noteOpen = !app.noteOpen;
      foldNote();
    });
    note.after(more);
  }
  const phone = !app.embed && app.view.view !== 'figure' && window.matchMedia(PHONE).matches;
  note.classList.toggle('folded', phone && !app.noteOpen);
  // Measured only on a phone (a layout read): the button shows when the folded note hides lines.
  more.hidden = !phone || note.hidden || (!app.noteOpen && note.scrollHeight <= note.clientHeight + 1);
  more.textContent = t(app.noteOpen ? 'steps.note.less' : 'steps.note.more');
  more.setAttribute('aria-expanded', String(app.noteOpen));
}

// The notation key's <details>, made once, after the provenance line.
function notationBox() {
  let key = $('notation');
  if (!key) {
    key = document.createElement('details');
    key.id = 'notation';
    key.className = 'notation';
    $('provenance').after(key);
  }
  return key;
}

export function updatePerf() {
  // The relaxed-SIMD build is SIMD128 plus fused multiply-add: the ISA reads "wasm simd" and
  // the build is named after the render time.
  const isa = app.isa === 'wasmsimd' || app.isa === 'wasmrelaxed' ? 'wasm simd' : `wasm ${app.isa || ''}`.trim();
  const tm = app.timing;
  // The weights' part is named for where they come from: a trained preset's are read from its
  // shipped model file, not seeded (provenance.js).
  const source = app.shownState ? t(`steps.perf.source.${weightsSource()}`) : '';
  const w = tm && tm.weights >= 0.05 ? t('steps.perf.weights', { source, ms: msText(tm.weights) }) : '';
  const label = buildLabel(app.build, app.threads), build = label ? ` · ${label}` : '';
  $('perf').textContent = t('steps.perf', { compute: msText(app.computeMs), isa, weights: w, render: msText(app.renderMs), build });
  $('perf').title = tm ? t('steps.perf.title', { forward: msText(tm.forward), source, weights: msText(tm.weights), load: msText(tm.load), copy: msText(tm.copy) }) : '';
}

export function goTo(id, opts = {}) {
  if (!app.trace) return false;
  const i = app.trace.steps.findIndex((s) => s.id === id);
  if (i < 0) return false;
  showStep(i, opts);
  return true;
}
