// run-options.js — what a recompute asks of the engine beyond the forward pass (issue 10):
// the backward pass (the reader's switch), greedy generation (trained encoder–decoders always
// generate, so the walkthrough shows the model's own answer; a seeded one when asked), a
// generation round the reader went back to (its decoder input), and weights a reader trained
// or loaded (a preset named USER_PRESET whose model file says weights: USER_WEIGHTS).
import { app } from './app.js';
import { CONFIG_KEYS, CHECKPOINT_WEIGHTS } from '../model/settings.js';
import { labState } from '../lab/state.js';
import { engineOptions } from '../lab/spec.js';
import { targetOptions, carriedTargets, restoreTargets } from './targets.js';

export const USER_PRESET = 'your-weights';
export const USER_WEIGHTS = 'user:';
// A Hugging Face checkpoint the engine holds (checkpoint.js): run with the text, never reloaded.
export const CHECKPOINT_PRESET = 'checkpoint';
export { CHECKPOINT_WEIGHTS };

// The backward switch (and its targets, targets.js) survives the reload of a language switch (language.js), which keeps
// everything else in the URL: kept in sessionStorage for that one reload.
const CARRY = 'encoder-walkthrough:carry';
try {
  const carried = JSON.parse(sessionStorage.getItem(CARRY) || 'null');
  sessionStorage.removeItem(CARRY);
  if (carried && carried.backward === true) app.backward = true;
  if (carried) restoreTargets(carried.targets);
} catch {
  // no sessionStorage (a sandboxed frame, file:// in some browsers): the switch starts off
}
if (typeof window !== 'undefined')
  window.addEventListener('encoder-walkthrough:before-lang-switch', () => {
    try {
      sessionStorage.setItem(CARRY, JSON.stringify({ backward: app.backward, targets: carriedTargets() }));
    } catch {
      // as above
    }
  });

// The model file and engine options for one request; `opts.generate` asks for generation (at
// most `opts.max_len` tokens when given).
export function engineRequest(model, state, opts = {}) {
  if (model.weights === CHECKPOINT_WEIGHTS) {  // fills for a masked LM; generation when asked
    const options = opts.generate ? { fills: true, generate: true } : { fills: true };
    if (opts.generate && opts.max_len) options.max_len = opts.max_len;
    // The backward switch asked too: the core says why a checkpoint has none (backward_error,
    // shown beside the switch) instead of the switch doing nothing.
    // GPT-2's target is the text itself (shifted by one); a classifier's and a masked LM's are
    // the reader's (targets.js: --label, --mask-targets).
    if (app.backward) Object.assign(options, { backward: true }, targetOptions(state));
    // The what-if lab's interventions too (the core applies them to the checkpoint's weights
    // and steps, or says why not, e.g. no lens without a head that reads layers).
    Object.assign(options, engineOptions(labState.spec));
    return { model, options, checkpoint: { text: model.text || '', text2: model.text2 || '' } };
  }
  const options = {};
  if (model.weights === USER_WEIGHTS) {
    delete model.weights;
    options.user_weights = true;
  }
  const trained = typeof model.weights === 'string' || !!options.user_weights;
  if (app.backward) options.backward = true;
  if (app.round && (app.round.text !== state.text || app.round.preset !== state.preset)) app.round = null;
  if (opts.generate) app.round = null;
  // The what-if lab's interventions (issue 20); patching and some cell sets cannot generate.
  Object.assign(options, engineOptions(labState.spec));
  if ((opts.generate || (trained && !app.round)) && canGenerate(options)) options.generate = true;
  if (options.generate && opts.generate && opts.max_len) options.max_len = opts.max_len;
  if (app.round) model.target = app.round.input;
  return { model, options: Object.keys(options).length ? options : null };
}

// Generation with interventions: no donor sentence (its decoder would change length every
// round), and cells set only in parameters or encoder steps (the core's rule, session.cpp).
function canGenerate(options) {
  if (options.patch_from) return false;
  const trace = app.trace;
  return Object.keys(options.set || {}).every((cell) => {
    const id = cell.slice(0, cell.indexOf('['));
    const s = trace && trace.get(id);
    return !s || s.isParam || (s.place && (s.place.section === 'encoder' || s.place.section === 'input'));
  });
}

// Keeps what the engine said about the run now on screen.
export function noteRun(meta, state) {
  app.lastMeta = meta;
  // A preset whose weights file holds its configuration: learn it from the first run, so the
  // form shows the model's real settings (and changing one falls back to seeded weights).
  const p = app.presets.find((x) => x.name === state.preset);
  if (p && typeof p.model.weights === 'string' && !p.config) {
    p.config = meta.config;
    for (const k of CONFIG_KEYS) if (k in meta.config) state[k] = meta.config[k];
  }
  if (meta.rounds) app.rounds = { text: state.text, preset: state.preset, list: meta.rounds, generated: meta.generated };
  else if (!app.round) app.rounds = null;
}

// Go back to round k of the last generation (its decoder input); k = null: generate afresh.
export function chooseRound(k, state) {
  const r = app.rounds;
  app.round = r && k !== null
    ? { text: state.text, preset: state.preset, index: k, input: r.list[k].decoder_input }
    : null;
}
