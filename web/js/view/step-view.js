// step-view.js — one step drawn: the one way the page's step card (page/step-card.js) and an
// <encoder-walkthrough> element (embed/component-view.js) show a step. Its title and formula
// come from the catalog (model/titles.js), the same for the page, the element and the exports;
// then, where the host has room for them, the note under the title and the notation key; then
// the view of its kind (render/index.js) with the arithmetic of the cell pointed at. Everything
// it draws with is in the view context (context.js); the host keeps the rest (crumbs, counter,
// links, where the reader is).
import { el } from '../lib/dom.js';
import { t, withLang } from '../lib/i18n.js';
import { stepTitle, stepFormula } from '../model/titles.js';
import { renderStep, prepareStep } from './render/index.js';
import { noteInto } from './notes/index.js';
import { renderNotation } from './notation.js';
import { typesetFormula } from './formulas.js';

// Fetches what drawing ctx.step reads (the Worker keeps the trace): the step, its inputs and
// what its renderer needs. A view that already holds every step of its trace (wholeTrace: an
// element, whose shared Worker may have moved on to another element's trace) fetches only the
// parameters the step reads, and draws without them if they cannot come.
export function prepareStepView(ctx, { wholeTrace = false } = {}) {
  const { trace, step, engine } = ctx;
  if (wholeTrace) return trace.ensureParams(step.inputs || [], engine).catch(() => {});
  return Promise.all([trace.ensureStep(step, engine), prepareStep(ctx)]);
}

// Draws ctx.step into the host's parts: {title, formula, body, note?, notation? (a <details>)}.
// opts: {katex: {katex, output, onMissing} (katexInto), fetchError (the prepare's failure, said in the
// body)}. A renderer that throws is said in the body too; the rest of the step stays. Drawn in
// ctx.lang when the context names a language (an element's own), else the page's.
export function drawStepView(ctx, parts, opts = {}) {
  withLang(ctx.lang, () => draw(ctx, parts, opts));
}

function draw(ctx, parts, opts) {
  const { trace, step } = ctx;
  parts.title.textContent = stepTitle(step, trace);
  katexInto(parts.formula, stepFormula(step, trace), opts.katex);
  if (parts.note) showNote(parts.note, ctx);
  if (parts.notation) renderNotation(parts.notation, trace, step);
  const host = el('div', 'step-body');
  try {
    if (opts.fetchError) throw new Error(t('steps.fetchFailed', { why: opts.fetchError.message }));
    renderStep(ctx, host);
  } catch (e) {
    host.replaceChildren(el('p', 'msg', t('steps.cantDraw', { why: e.message })));
    console.error(e);
  }
  parts.body.replaceChildren(host);
}

// A formula with KaTeX (the page's window.katex, or the one an element loaded; `output`:
// 'htmlAndMathml' where KaTeX's CSS is loaded, 'mathml' in a figure or a shadow root without it);
// for 'mathml', the build's own typesetting of it first (formulas.js: KaTeX's same markup, made at
// build time), and that too while KaTeX is not there yet (the full page's first paint: its MathML
// until KaTeX's HTML). Its LaTeX as monospace text when neither has it — and then `onMissing(tex)`, the
// host's cue to load KaTeX and draw again. The same formula already typeset in `node` (a
// recompute of the step on screen) is left as it is: KaTeX was ~4 ms of a d512 sentence edit for
// the same markup (tests/browser/profile.mjs).
const typeset = new WeakMap(); // node → {tex, by, output, child}: what KaTeX (or the table) last put there
export function katexInto(node, tex, { katex = typeof window !== 'undefined' ? window.katex : null, output = 'htmlAndMathml', onMissing = null } = {}) {
  const built = output === 'mathml' || !katex ? typesetFormula(tex) : undefined;
  const by = built !== undefined ? 'build' : katex;
  const last = typeset.get(node);
  if (last && last.tex === tex && last.by === by && last.output === output && last.child === node.firstChild
    && node.childNodes.length === 1 && !node.classList.contains('mono')) return;
  typeset.delete(node);
  try {
    node.classList.remove('mono');
    if (built !== undefined) node.innerHTML = built; // KaTeX's markup from the build's own formulas-mathml.js
    else if (!katex) throw new Error('KaTeX not loaded');
    else katex.render(tex, node, { displayMode: true, throwOnError: true, output, strict: 'ignore' });
    if (node.childNodes.length === 1) typeset.set(node, { tex, by, output, child: node.firstChild });
  } catch {
    node.classList.add('mono');
    node.textContent = tex;
    if (!katex && onMissing) onMissing(tex);
  }
}

// The note (computed from the step's fetched data) under the title, hidden when it has none.
function showNote(node, ctx) {
  let shown = false;
  try {
    shown = noteInto(node, ctx.step, ctx.trace, { trained: ctx.trained, batch: ctx.batch });
  } catch (e) {
    console.error(e);
    node.replaceChildren();
  }
  node.hidden = !shown;
}
