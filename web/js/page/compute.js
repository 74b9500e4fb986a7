// compute.js — the compute queue: a request (settings → model file) goes to the engine
// Worker; a newer request supersedes one not yet started (its promise follows the newer
// outcome); a long computation shows a progress line; a model too large for a tab is
// refused before it starts; a preset whose weights no longer fit falls back to seeded
// weights with a notice. What happens once a trace is ready is the page's hook.
import { app } from './app.js';
import { $ } from '../lib/dom.js';
import { Trace } from '../model/trace.js';
import { FIELDS, buildModel, presetHasText, presetHasWeights, overrides, estimateFloats } from '../model/settings.js';
import { showError, clearError, showNotice } from './messages.js';
import { coreErrorText } from '../engine/core-errors.js';
import { t, num } from '../lib/i18n.js';
import { engineRequest, noteRun, CHECKPOINT_PRESET } from './run-options.js';
import { chatText, learnBos } from './chat.js';

const MAX_FLOATS = 96e6; // ~384 MB of float32 in the trace: beyond that the tab would struggle

const hooks = { shown: async () => {} };
// hook(prevTrace, trace, opts) runs once a new trace is in app.trace (it draws it).
export function onTraceShown(hook) {
  hooks.shown = hook;
}

let pending = null; // the newest request not yet started
let running = false;
let statusTimer = null;

export function requestCompute(state, opts = {}) {
  return new Promise((resolve, reject) => {
    const req = { state: structuredClone(state), resolve, reject, opts };
    if (pending) {
      // A newer request supersedes the queued one; the old promise follows the new outcome.
      const old = pending;
      req.followers = [...(old.followers || []), old];
    }
    pending = req;
    pump();
  });
}

async function pump() {
  if (running || !pending) return;
  const req = pending;
  pending = null;
  running = true;
  try {
    const r = await runOne(req);
    for (const f of [req, ...(req.followers || [])]) f.resolve(r);
  } catch (e) {
    for (const f of [req, ...(req.followers || [])]) f.reject(e);
  } finally {
    running = false;
    pump();
  }
}

function setBusy(on, what = '') {
  const s = $('status');
  clearInterval(statusTimer);
  if (!on) {
    s.hidden = true;
    document.body.classList.remove('busy');
    return;
  }
  const t0 = performance.now();
  statusTimer = setInterval(() => {
    const dt = performance.now() - t0;
    if (dt < 150) return;
    s.hidden = false;
    document.body.classList.add('busy');
    s.textContent = t('errors.status_computing', { what: what ? ' ' + what : '', seconds: num(dt / 1000, 1) });
  }, 100);
}

// The steps the new trace will probably open on (the one asked for, the one on screen): the
// Worker sends their data (and their inputs') with the result; others are fetched on demand.
function wantedIds(state) {
  const onScreen = app.trace && app.trace.steps[app.index];
  return [state.step, onScreen && onScreen.id].filter(Boolean);
}

// A checkpoint's settings are its own (its weights fix them): a request that changes one (the
// JS API; the form shows them read-only) runs a seeded model of those settings instead, and
// says so. The checkpoint stays open: its preset brings it back. null: nothing changed.
async function leaveCheckpoint(req) {
  const state = req.state;
  const p = state.preset === CHECKPOINT_PRESET && app.presets.find((x) => x.name === state.preset);
  const changed = p && p.config && !req.opts.noFallback ? overrides(state, p) : [];
  if (!changed.length) return null;
  const next = { ...state, preset: '' };
  const r = await runOne({ state: next, opts: { ...req.opts, noFallback: true, keepNotice: true } });
  showNotice(t('ckpt.settingsFallback', { name: app.checkpoint ? app.checkpoint.name : '', title: p.title,
    changed: changed.map((k) => `${k} = ${state[k]}`).join(', '), seed: next.seed }));
  return r;
}

async function runOne(req) {
  const state = req.state;
  const est = estimateFloats(state);
  // A checkpoint's trace is bounded by its positions (the core refuses a longer text); the
  // estimate, made for seeded models, over-counts it (134 M for BERT-base at 128 tokens).
  if (est > MAX_FLOATS && state.preset !== 'checkpoint') {
    const msg = t('errors.too_many_numbers', { millions: Math.round(est / 1e6), mb: Math.round((est * 4) / 1e6), limit: MAX_FLOATS / 1e6 });
    showError(msg);
    throw new Error(msg);
  }
  const moved = await leaveCheckpoint(req);
  if (moved) return moved;
  // The chat-template switch (chat.js): the model reads the rendered prompt, not the typed text.
  const wrapped = await chatText(state, req.opts);
  const built = buildModel(state, app.presets);
  if (wrapped !== null) built.text = wrapped;
  const { model, options, checkpoint } = engineRequest(built, state, req.opts);
  const words = (state.text.match(/\S+/g) || []).length;
  setBusy(true, t('errors.status_what', { d_model: state.d_model, words }));
  let result;
  try {
    result = await app.engine.call('run', { model: JSON.stringify(model), options, want: wantedIds(state), checkpoint }, (p) => {
      if (p === 'copy') $('status').dataset.phase = 'copy';
    });
  } catch (e) {
    setBusy(false);
    showError(e.message);
    throw e;
  }
  setBusy(false);
  if (!result.meta.ok) {
    const p = app.presets.find((x) => x.name === state.preset);
    if (p && presetHasWeights(p) && overrides(state, p).length && !req.opts.noFallback) {
      // The preset's given weights do not fit the new settings: fall back to seeded weights.
      const changed = overrides(state, p);
      const next = { ...state, preset: '' };
      if (!presetHasText(p)) {
        next.text = FIELDS.text.def;
        next.text2 = '';
      }
      const r = await runOne({ state: next, opts: { ...req.opts, noFallback: true, keepNotice: true } });
      showNotice(t('errors.preset_weights_fallback', { title: p.title, changed: changed.map((k) => `${k} = ${state[k]}`).join(', '),
        error: coreErrorText(result.meta), seed: next.seed }));
      return r;
    }
    const msg = coreErrorText(result.meta);
    showError(msg);
    throw new Error(msg);
  }
  const trace = new Trace(result);
  if (wrapped !== null && learnBos(trace, wrapped)) return runOne(req);  // the BOS twice: once more with one
  clearError();
  if (!req.opts.keepNotice) showNotice('');
  const prevTrace = app.trace;
  noteRun(result.meta, state);
  app.trace = trace;
  if ('batch' in state) {  // a preset's own sentence (presetSettings), once
    app.batch = state.batch;
    delete state.batch;
  }
  app.state = state;
  app.shownState = structuredClone(state);
  // The forward pass proper; drawing seeded weights (first run of new settings) is shown apart.
  app.computeMs = result.meta.ms - (result.meta.setup_ms || 0);
  app.timing = result.timing;
  if (app.batch >= trace.B) app.batch = 0;
  await hooks.shown(prevTrace, trace, req.opts);
  return trace;
}
