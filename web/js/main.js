// main.js — the page's entry: wires the modules together (compute queue → trace → form,
// table of contents and step view), reads the URL, handles the keyboard, and exposes
// window.encoderWalkthrough (api.js). Each part lives in its own module:
//   app.js (shared state), compute.js (the queue to the engine Worker), form.js (settings),
//   toc.js (table of contents), step-view.js (one step on screen), url.js, messages.js.
import { app, $ } from './app.js';
import { EngineClient } from './engine.js';
import { useSchema, defaults, fromURL } from './state.js';
import { showError, showNotice } from './messages.js';
import { requestCompute, onTraceShown } from './compute.js';
import { buildForm, syncForm } from './form.js';
import { buildToc } from './toc.js';
import { showStep, goTo } from './step-view.js';
import { installApi } from './api.js';

// A new trace: show its settings and steps, and stay on the step on screen (the reader may
// have moved while this computed) unless the request names one (a link, setState({step})).
onTraceShown(async (prevTrace, trace, opts) => {
  syncForm();
  buildToc();
  const onScreen = prevTrace ? prevTrace.steps[app.index]?.id : null;
  const wanted = opts.useStateStep || !onScreen ? app.state.step : onScreen;
  let idx = trace.steps.findIndex((s) => s.id === wanted);
  if (idx < 0) idx = Math.min(app.index, trace.steps.length - 1);
  await showStep(Math.max(0, idx), { keepCell: true });
});

// ---- keyboard ------------------------------------------------------------------------------
function onKey(e) {
  if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
  const t = e.target;
  const tag = t && t.tagName;
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || (t && t.isContentEditable)) return;
  if (t && t.closest && t.closest('[role="grid"]') && ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'].includes(e.key)) return;
  if (!app.trace) return;
  const n = app.trace.steps.length;
  let i = null;
  if (e.key === 'ArrowRight' || e.key === 'j') i = app.index + 1;
  else if (e.key === 'ArrowLeft' || e.key === 'k') i = app.index - 1;
  else if (e.key === 'Home') i = 0;
  else if (e.key === 'End') i = n - 1;
  if (i === null) return;
  e.preventDefault();
  if (i >= 0 && i < n && i !== app.index) showStep(i);
}

// ---- start ---------------------------------------------------------------------------------
async function start() {
  const q = new URLSearchParams(location.search);
  app.embed = q.get('embed') === '1';
  document.body.classList.toggle('embed', app.embed);
  if (app.embed) {
    $('settings').open = false;
    $('toc-box').open = false;
  } else if (window.matchMedia('(max-width: 760px)').matches) {
    $('toc-box').open = false;
    $('settings').open = false;
  }
  $('prev').addEventListener('click', () => showStep(app.index - 1));
  $('next').addEventListener('click', () => showStep(app.index + 1));
  $('toc-list').addEventListener('click', (e) => {
    const a = e.target.closest('a.toc-link');
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    showStep(Number(a.dataset.i), { focus: false });
  });
  $('toc-list').addEventListener('toggle', (e) => {
    if (e.target.tagName === 'DETAILS') e.target.dataset.userOpen = e.target.open ? '1' : '';
  }, true);
  document.addEventListener('keydown', onKey);

  app.engine = new EngineClient();
  const init = await app.engine.call('init');
  app.isa = init.isa;
  app.build = init.build; // which module the Worker loaded (builds.js)
  useSchema(init.schema);
  app.presets = init.presets;
  buildForm();
  const { state, errors } = fromURL(location.search, app.presets);
  app.state = state;
  syncForm(state);
  const urlNote = errors.length ? `Some settings in the link are invalid and were replaced by defaults: ${errors.join('; ')}.` : '';
  try {
    await requestCompute(state, { useStateStep: true });
    if (urlNote) showNotice(urlNote);
  } catch (e) {
    // A link whose settings cannot run together: say why, then show the defaults.
    const why = e.message;
    const d = defaults();
    app.state = d;
    syncForm(d);
    await requestCompute(d);
    showNotice(`${urlNote ? urlNote + ' ' : ''}The link's settings could not run (${why}); showing the default settings instead.`);
  }
}

// Fetch the KaTeX fonts now, so that later formulas render the same with no network.
function preloadFonts() {
  if (!document.fonts || !document.fonts.load) return;
  for (const f of ['1em KaTeX_Main', 'italic 1em KaTeX_Math', 'bold 1em KaTeX_Main', '1em KaTeX_Size1', '1em KaTeX_Size2',
    '1em KaTeX_Size3', '1em KaTeX_Size4', '1em KaTeX_AMS', 'italic 1em KaTeX_Main'])
    document.fonts.load(f).catch(() => {});
}

const ready = start().then(preloadFonts).catch((e) => {
  showError(e.message || String(e));
  throw e;
});
installApi(app, {
  ready,
  requestCompute,
  goTo: (id) => goTo(id),
  syncForm,
  showError,
  showStep,
});

// Offline reloads: once the page is up, a service worker (sw.js) caches the whole site. The
// page works without it (file://, browsers or embeds that refuse one).
ready
  .then(() => {
    if ('serviceWorker' in navigator && location.protocol.startsWith('http'))
      return navigator.serviceWorker.register('sw.js').catch(() => {});
  })
  .catch(() => {});
