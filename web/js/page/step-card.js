// step-view.js — one step on screen: its place in the model, title, formula (KaTeX), note,
// notation key and the renderer of its kind; the timing readout; going to a step by id.
// Titles, crumbs, the counter and document.title all come from notes/title.js (the catalog,
// by role and place); the note from notes/index.js.
import { app, $ } from './app.js';
import { el } from '../view/matrix/matrix.js';
import { shapeText, msText } from '../lib/format.js';
import { renderStep, prepareStep } from '../view/render/index.js';
import { BUILD_LABELS } from '../engine/builds.js';
import { markToc } from './toc.js';
import { writeURL } from './url.js';
import { showProvenance, weightsInfo } from './provenance.js';
import { t } from '../lib/i18n.js';
import { stepTitle, stepCrumbs } from '../model/titles.js';
import { noteInto } from '../view/notes/index.js';
import { renderNotation } from '../view/notation.js';
import { useTraceForSymbols, symbolOf, symbolTex } from '../model/symbols.js';

export { stepTitle, stepCrumbs };

export function katexInto(node, tex) {
  try {
    if (!window.katex) throw new Error('KaTeX not loaded');
    node.classList.remove('mono');
    window.katex.render(tex, node, { displayMode: true, throwOnError: true, output: 'htmlAndMathml', strict: 'ignore' });
  } catch {
    node.classList.add('mono');
    node.textContent = tex;
  }
}

let renderToken = 0;
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

  const host = el('div', 'step-body');
  const ctx = {
    trace, step, engine: app.engine, batch: app.batch, cell: app.cell,
    goTo: (id) => goTo(id, { focus: true }),
    setBatch: (b) => {
      if (b === app.batch) return;
      app.batch = b;
      app.cell = null;
      showStep(app.index);
    },
    onExplain: (R, c) => { app.cell = { step: step.id, R, c }; },
  };
  // The Worker keeps the trace: fetch this step, its inputs and what its renderer needs.
  let fetchError = null;
  await Promise.all([trace.ensureStep(step, app.engine), prepareStep(ctx)]).catch((e) => { fetchError = e; });
  if (token !== renderToken || trace !== app.trace) return;
  useTraceForSymbols(trace);
  const title = stepTitle(step, trace);
  const n = trace.steps.length;
  $('crumbs').textContent = stepCrumbs(step, trace);
  $('counter').textContent = t('steps.counter', { i: index + 1, n });
  $('prev').disabled = index === 0;
  $('next').disabled = index === n - 1;
  $('step-title').textContent = title;
  const meta = $('step-meta');
  meta.replaceChildren();
  const addMeta = (k, v, cls) => {
    const d = el('span', 'meta-item');
    d.append(el('span', 'meta-k', k), el('span', 'meta-v ' + (cls || ''), v));
    meta.append(d);
  };
  addMeta(t('steps.meta.id'), step.id, 'mono');
  addMeta(t('steps.meta.shape'), shapeText(step.shape));
  addMeta(t('steps.meta.kind'), step.kind);
  katexInto($('formula'), formulaOf(step, trace));
  showNote(step, trace);
  showProvenance(step);

  const view = $('view');
  try {
    if (fetchError) throw new Error(t('steps.fetchFailed', { why: fetchError.message }));
    renderStep(ctx, host);
  } catch (e) {
    host.replaceChildren(el('p', 'msg', t('steps.cantDraw', { why: e.message })));
    console.error(e);
  }
  view.replaceChildren(host);
  app.renderMs = performance.now() - t0;
  updatePerf();
  markToc();
  writeURL();
  document.title = t('steps.docTitle', { i: index + 1, title });
  $('announce').textContent = t('steps.announce', { i: index + 1, n, title });
  if (opts.focus) $('step-title').focus({ preventScroll: false });
}

// The step's formula: the engine's, except a gradient's, written with the page's symbol of the
// tensor it differentiates (the engine's names it by id).
function formulaOf(step, trace) {
  if (step.role !== 'grad') return step.formula;
  const of = trace.get(step.of);
  return of ? `\\frac{\\partial L}{\\partial ${symbolTex(symbolOf(of, trace))}}` : step.formula;
}

// The note (computed from the step's fetched data) and the notation key under the title.
function showNote(step, trace) {
  let shown = false;
  try {
    shown = noteInto($('note'), step, trace, { trained: app.shownState ? weightsInfo().kind === 'trained' : false, batch: app.batch });
  } catch (e) {
    console.error(e);
    $('note').replaceChildren();
  }
  $('note').hidden = !shown;
  let key = $('notation');
  if (!key) {
    key = document.createElement('details');
    key.id = 'notation';
    key.className = 'notation';
    $('provenance').after(key);
  }
  renderNotation(key, trace, step);
}

export function updatePerf() {
  // The relaxed-SIMD build is SIMD128 plus fused multiply-add: the ISA reads "wasm simd" and
  // the build is named after the render time.
  const isa = app.isa === 'wasmsimd' || app.isa === 'wasmrelaxed' ? 'wasm simd' : `wasm ${app.isa || ''}`.trim();
  const tm = app.timing;
  const w = tm && tm.weights >= 0.05 ? t('steps.perf.weights', { ms: msText(tm.weights) }) : '';
  const build = BUILD_LABELS[app.build] ? ` · ${BUILD_LABELS[app.build]}` : '';
  $('perf').textContent = t('steps.perf', { compute: msText(app.computeMs), isa, weights: w, render: msText(app.renderMs), build });
  $('perf').title = tm ? t('steps.perf.title', { forward: msText(tm.forward), weights: msText(tm.weights), load: msText(tm.load), copy: msText(tm.copy) }) : '';
}

export function goTo(id, opts = {}) {
  if (!app.trace) return false;
  const i = app.trace.steps.findIndex((s) => s.id === id);
  if (i < 0) return false;
  showStep(i, opts);
  return true;
}
