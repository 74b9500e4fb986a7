// step-view.js — one step on screen: its place in the model, title, formula (KaTeX), note
// and the renderer of its kind; the timing readout; going to a step by id.
import { app, $ } from './app.js';
import { el } from './matrix.js';
import { shapeText, msText } from './format.js';
import { placeOf } from './steps.js';
import { renderStep, prepareStep } from './render/index.js';
import { BUILD_LABELS } from './builds.js';
import { markToc } from './toc.js';
import { writeURL } from './url.js';
import { showProvenance } from './provenance.js';

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
  const place = (app.places && app.places[index]) || placeOf(step);
  $('crumbs').textContent = [place.section, place.group, place.head >= 0 ? `head ${place.head}` : '']
    .filter(Boolean).join(' › ');
  $('counter').textContent = `Step ${index + 1} of ${trace.steps.length}`;
  $('prev').disabled = index === 0;
  $('next').disabled = index === trace.steps.length - 1;
  $('step-title').textContent = step.title;
  const meta = $('step-meta');
  meta.replaceChildren();
  const addMeta = (k, v, cls) => {
    const d = el('span', 'meta-item');
    d.append(el('span', 'meta-k', k), el('span', 'meta-v ' + (cls || ''), v));
    meta.append(d);
  };
  addMeta('id', step.id, 'mono');
  addMeta('shape', shapeText(step.shape));
  addMeta('kind', step.kind);
  katexInto($('formula'), step.formula);
  $('note').textContent = step.note || '';
  $('note').hidden = !step.note;
  showProvenance(step);

  const view = $('view');
  try {
    if (fetchError) throw new Error(`its numbers could not be fetched from the engine (${fetchError.message})`);
    renderStep(ctx, host);
  } catch (e) {
    host.replaceChildren(el('p', 'msg', `This step could not be drawn: ${e.message}`));
    console.error(e);
  }
  view.replaceChildren(host);
  app.renderMs = performance.now() - t0;
  updatePerf();
  markToc();
  writeURL();
  document.title = `${index + 1}. ${step.title} — Encoder Walkthrough`;
  $('announce').textContent = `Step ${index + 1} of ${trace.steps.length}: ${step.title}`;
  if (opts.focus) $('step-title').focus({ preventScroll: false });
}

export function updatePerf() {
  // The relaxed-SIMD build is SIMD128 plus fused multiply-add: the ISA reads "wasm simd" and
  // the build is named after the render time.
  const isa = app.isa === 'wasmsimd' || app.isa === 'wasmrelaxed' ? 'wasm simd' : `wasm ${app.isa || ''}`.trim();
  const t = app.timing;
  const w = t && t.weights >= 0.05 ? ` + seeded weights ${msText(t.weights)}` : '';
  const build = BUILD_LABELS[app.build] ? ` · ${BUILD_LABELS[app.build]}` : '';
  $('perf').textContent = `computed in ${msText(app.computeMs)} (${isa})${w} · rendered in ${msText(app.renderMs)}${build}`;
  $('perf').title = t ? `forward pass ${msText(t.forward)}; seeded weights ${msText(t.weights)}; parse + weights + forward in the worker ${msText(t.load)}; copy to the page ${msText(t.copy)}` : '';
}

export function goTo(id, opts = {}) {
  if (!app.trace) return false;
  const i = app.trace.steps.findIndex((s) => s.id === id);
  if (i < 0) return false;
  showStep(i, opts);
  return true;
}
