// main.js — the page's entry: wires the modules together (compute queue → trace → form,
// table of contents and step card), reads the URL, handles the keyboard, and exposes
// window.encoderWalkthrough (api.js). Each part lives in its own module:
//   app.js (shared state), compute.js (the queue to the engine Worker), form.js (settings),
//   toc.js (map and step list), step-card.js (the step on screen), url.js, messages.js;
//   the training panel (../train/) and the embeds (../embed/) get what they need passed in.
import { languageReady } from './language.js'; // first: the reader's language, before any module renders text
import { app } from './app.js';
import { $ } from '../lib/dom.js';
import { EngineClient } from '../engine/engine.js';
import { BUILD_FILES } from '../engine/builds.js';
import { loadKatex, formulaTable, figureFormulasSettled } from './katex-loader.js';
import { useSchema, defaults, fromURL, publicState, toURL } from '../model/settings.js';
import { localizePresets } from '../model/settings.js';
import { showError, showNotice, appendNotice } from './messages.js';
import { requestCompute, onTraceShown } from './compute.js';
import { buildForm, syncForm } from './form.js';
import { buildToc } from './toc.js';
import { showStep, goTo } from './step-card.js';
import { installApi } from './api.js';
import { setupView } from './figure.js';
import { resolveStep, defaultFigureStep } from '../embed/embed-params.js';
import { startAutoHeight } from '../embed/autoheight.js';
import { exportStep } from '../embed/export.js';
import { exportMenu } from '../embed/export-menu.js';
import { isDark } from './theme.js';
import { installGenerate, updateModelPanel, generate } from './generate.js';
import { installTargets } from './targets.js';
import { showTextNote } from './provenance.js';
import { firstLoadState, firstLoadStep } from './first-load.js';
import { installTraining, train, stopTraining } from '../train/train-panel.js';
import { installWeightsIO, useWeights, loadWeights, exportWeights } from './weights-io.js';
import { installCheckpoint, loadCheckpoint, openLinkedCheckpoint } from './checkpoint.js';
import { installChat, updateChat, setChat, getChat } from './chat.js';
import { t } from '../lib/i18n.js';
import { installPhoneBar, describeModel, closePanels } from './layout-shell.js';
import { showIntro, introModel } from './intro.js';
import { installLab, labTraceShown, readLabURL, dropLabSpec, labSpecSet, intervene, sweep } from './lab-page.js';


// A new trace: show its settings and steps, and stay on the step on screen (the reader may
// have moved while this computed) unless the request names one (a link, setState({step})).
onTraceShown(async (prevTrace, trace, opts) => {
  syncForm();
  updateModelPanel(trace);
  updateChat();
  showTextNote(trace);
  describeModel(trace.config, app.shownState?.preset === 'checkpoint' ? app.checkpoint : null);
  introModel(app.shownState?.preset === 'checkpoint' ? app.checkpoint : null, trace.config);
  buildToc();
  const onScreen = prevTrace ? prevTrace.steps[app.index]?.id : null;
  const wanted = opts.useStateStep || !onScreen ? app.state.step : onScreen;
  // A step this trace lacks: the closest id, with a notice saying so (embed-params.js).
  // A figure whose link names no step opens on the first attention weights.
  const figureStart = !prevTrace && !wanted && app.view.view === 'figure';
  const fallback = figureStart ? defaultFigureStep(trace.steps) : Math.min(app.index, trace.steps.length - 1);
  const r = resolveStep(trace.steps.map((s) => s.id), wanted, fallback);
  await showStep(Math.max(0, r.index), { keepCell: true });
  appendNotice(r.note);
  await labTraceShown(trace); // the what-if lab's panel and marks (lab-page.js)
});

// ---- keyboard ------------------------------------------------------------------------------
function onKey(e) {
  if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
  const tg = e.target;
  const tag = tg && tg.tagName;
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || (tg && tg.isContentEditable)) return;
  if (tg && tg.closest && tg.closest('[role="grid"]') && ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'].includes(e.key)) return;
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
  // The reader's language (language.js, imported first; its catalog may be fetched): the static
  // markup follows it, and nothing renders before it is set.
  await languageReady;
  document.title = t('shell.docTitle');
  const viewNotes = setupView(location.search, () => app.trace && showStep(app.index, { keepCell: true }));
  formulaTable(); // fetched beside the engine's start, not after it: the first paint's formulas
  $('step-meta').after(exportMenu((format) => exportFromPage(app.shownState.step, format)));
  startAutoHeight(() => (app.shownState ? app.shownState.step : ''));
  const q = new URLSearchParams(location.search);
  app.embed = q.get('embed') === '1';
  document.body.classList.toggle('embed', app.embed);
  if (app.embed) {
    $('settings').open = false;
    $('toc-box').open = false;
  } else if (window.matchMedia('(max-width: 760px)').matches) {
    $('settings').open = false;
  }
  installPhoneBar();
  // The opening is the full page's: never in an embed, never in a figure (a figure is the step alone).
  if (!app.embed && app.view.view !== 'figure') showIntro($('intro-slot'));
  $('prev').addEventListener('click', () => showStep(app.index - 1));
  $('next').addEventListener('click', () => showStep(app.index + 1));
  for (const [box, sel] of [['toc-list', 'a.toc-link'], ['map', 'a.map-node, a.map-head']])
    $(box).addEventListener('click', (e) => {
      const a = e.target.closest(sel);
      if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
      e.preventDefault();
      showStep(Number(a.dataset.i), { focus: false });
      if (!a.classList.contains('map-head')) closePanels();
    });
  $('toc-list').addEventListener('toggle', (e) => {
    if (e.target.tagName === 'DETAILS') e.target.dataset.userOpen = e.target.open ? '1' : '';
  }, true);
  document.addEventListener('keydown', onKey);

  app.engine = new EngineClient();
  const init = await app.engine.call('init');
  app.isa = init.isa;
  app.build = init.build; // which module the Worker loaded (builds.js)
  app.threads = init.threads; // its kernels' thread count (1 but in the threaded build)
  useSchema(init.schema);
  app.presets = localizePresets(init.presets);
  buildForm();
  installLab();
  installGenerate({ requestCompute });
  installTargets({ requestCompute });
  installWeightsIO({ requestCompute, syncForm });
  installTraining({ engine: app.engine, showError, dark: isDark, useWeights: (info, text) => useWeights(info, text) });
  installCheckpoint({ requestCompute, syncForm });
  installChat({ requestCompute });
  // ?model=URL: that checkpoint, with the link's text and step; if it cannot open, the defaults
  // with a notice saying why.
  const ckFailed = await openLinkedCheckpoint(location.search);
  if (ckFailed === null) return applyLinkedLab(location.search);
  // The link as it came: the first compute rewrites location.search (url.js).
  const search = ckFailed ? withoutCheckpoint(location.search) : location.search;
  const { state, errors } = firstLoadState(search, app.presets, fromURL);
  app.state = state;
  syncForm(state);
  const bad = [...errors, ...readLabURL(search), ...viewNotes];
  if (new URLSearchParams(search).get('chat') === '1') bad.push(t('chat.noModel'));
  const urlNote = bad.length ? t('shell.badLink', { list: bad.join('; ') }) : '';
  try {
    await requestCompute(state, { useStateStep: true });
    appendNotice(urlNote);
    appendNotice(ckFailed);
    // A first visit (no settings in the link) opens on the trained model's alignment.
    const atStart = await firstLoadStep(app.trace, app.engine);
    if (atStart) goTo(atStart); // null unless the link was bare (first-load.js)
  } catch (e) {
    const why = e.message;
    // A link whose interventions the core refuses: say why, then the same settings without them.
    if (dropLabSpec()) {
      await requestCompute(state, { useStateStep: true });
      showNotice(`${urlNote ? urlNote + ' ' : ''}${t('shell.linkFailed', { why })}`);
      return;
    }
    // A link whose settings cannot run together: say why, then show the defaults.
    const d = defaults();
    app.state = d;
    syncForm(d);
    await requestCompute(d);
    showNotice(`${urlNote ? urlNote + ' ' : ''}${t('shell.linkFailed', { why })}`);
  }
}

// A checkpoint link's lab keys (lens=1, attribute=1, ablate=…), applied once the checkpoint is on
// screen; interventions the core refuses are dropped with its reason, and the checkpoint stays.
async function applyLinkedLab(search) {
  const errors = readLabURL(search);
  if (errors.length) appendNotice(t('shell.badLink', { list: errors.join('; ') }));
  if (!labSpecSet()) return;
  try {
    await requestCompute(app.state, { useStateStep: true });
  } catch (e) {
    dropLabSpec();
    await requestCompute(app.state, { useStateStep: true });
    showNotice(t('shell.linkFailed', { why: e.message }));
  }
}

// A link whose checkpoint could not open, without it (the defaults are shown instead).
function withoutCheckpoint(search) {
  const q = new URLSearchParams(search);
  q.delete('model');
  if (q.get('preset') === 'checkpoint') q.delete('preset');
  const s = q.toString();
  return s ? '?' + s : '';
}

// A step of the trace on screen as a file (export.js), with the settings and link it came from.
function exportFromPage(id, format) {
  const settings = publicState(app.shownState, app.presets);
  const link = new URL(location.pathname + toURL({ ...app.shownState, step: id }, app.presets), location.href).href;
  return exportStep({ trace: app.trace, settings: { ...settings, step: id }, link, batch: app.batch, dark: isDark(), engine: app.engine }, id, format);
}

// KaTeX after the first paint (katex-loader.js): the step on screen is drawn again with it, and
// `ready` (api.js) waits for it, so a formula is typeset whenever the page says it is ready.
// A figure waits for its own: the build's typeset formulas, KaTeX's script only for one not there.
async function withKatex() {
  if (app.view.view === 'figure') return figureFormulasSettled();
  if (await loadKatex() && app.trace) await showStep(app.index, { keepCell: true, focus: false });
}

const ready = start().then(withKatex).catch((e) => {
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
  exportStep: exportFromPage,
  // Trained models (api.js documents them; README's table too).
  extra: {
    generate: (o) => generate(o),
    train: (options, onProgress) => train(options, onProgress),
    stopTraining: () => stopTraining(),
    loadWeights: (buffer) => loadWeights(buffer, t('train.w.apiBuffer')),
    exportWeights: () => exportWeights(),
    // The what-if lab (issue 20; lab-page.js).
    intervene: (spec) => intervene(spec),
    sweep: (spec) => sweep(spec),
    loadCheckpoint: async (src, opts = {}) => {
      await ready;
      return loadCheckpoint(src, { chat: !!(opts && opts.chat === true) });
    },
    // The chat-template switch (issue 30; chat.js): on a checkpoint with a chat_template.
    setChat: async (on) => {
      await ready;
      return setChat(!!on);
    },
    getChat: () => getChat(),
  },
});

// Offline reloads: once the page is up, a service worker (sw.js) caches its shell (the build's
// offline-manifest.json) and what this visit loaded: the engine's build, the shipped model, the
// KaTeX fonts in use (from the HTTP cache, so nothing is downloaded twice). The page works
// without it (file://, browsers or embeds that refuse one).
ready
  .then(() => {
    // Not for the single-file build (data-single-file): its folder's sw.js is someone else's.
    if ('serviceWorker' in navigator && location.protocol.startsWith('http') && !document.documentElement.hasAttribute('data-single-file'))
      return navigator.serviceWorker.register('sw.js').then(() => navigator.serviceWorker.ready)
        .then((reg) => {
          if (!reg.active) return;
          reg.active.postMessage({ type: 'cache', urls: visitedFiles() });
          // A split build's deferred half, once the Worker loads it (the first backward pass,
          // checkpoint, training run or sweep): kept for offline use from then on.
          if (app.engine && 'onLoaded' in app.engine) app.engine.onLoaded = (u) => reg.active.postMessage({ type: 'cache', urls: [u] });
        });
  })
  .catch(() => {});

// This site's files the visit fetched: the page's and the Worker's (its build, .js and .wasm).
function visitedFiles() {
  const own = (u) => new URL(u, location.href).origin === location.origin;
  const urls = performance.getEntriesByType('resource').map((e) => e.name).filter(own);
  const build = BUILD_FILES[app.build];
  if (build) urls.push(new URL(build, location.href).href, new URL(build.replace(/\.js$/, '.wasm'), location.href).href);
  // The threaded build's pthreads each load its .worker.js (from the engine's Worker: not in this
  // page's resource entries); offline, without it, the engine never becomes ready.
  if (build && app.build.endsWith('_mt')) urls.push(new URL(build.replace(/\.js$/, '.worker.js'), location.href).href);
  if (app.engine && Array.isArray(app.engine.loaded)) urls.push(...app.engine.loaded);
  // The shipped model the Worker fetched for the preset on screen (a bare link's first visit).
  const preset = (app.presets || []).find((p) => p.name === (app.shownState && app.shownState.preset));
  const weights = preset && preset.model && preset.model.weights;
  if (typeof weights === 'string' && weights.startsWith('builtin:'))
    urls.push(new URL(`models/${weights.slice(8)}.safetensors`, location.href).href);
  return urls.map((u) => u.split('#')[0]);
}
