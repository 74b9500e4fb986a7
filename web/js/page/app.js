// app.js — the page's one piece of shared state: what is computed, what is shown, where the
// reader is. Every field is declared here (nothing else adds one); only page/ modules import
// it — the views, the training panel and the embeds get what they need passed in (the view
// context, hooks), which tests/layers.mjs holds them to.
import { defaults } from '../model/settings.js';

export const app = {
  // the engine and what it said at start-up
  engine: null, // EngineClient (engine/engine.js)
  presets: [], // the core's presets, titles in the reader's language (settings.js localizePresets)
  isa: '', // the kernels' instruction set (Module.kernelIsa())
  build: '', // which build of the module the Worker loaded (engine/builds.js)
  // the settings: asked for, and those of the trace on screen
  state: defaults(),
  shownState: null, // the state of the trace on screen
  // the trace on screen and where the reader is in it
  trace: null, // model/trace.js Trace
  index: 0, // the step on screen
  batch: 0, // the batch item (sentence) on screen
  cell: null, // {step, R, c}: the cell explained, kept across redraws of its step
  // how the page is shown
  embed: false, // embed=1: the compact layout
  view: null, // the view keys (embed/embed-params.js readEmbedParams), figure.js
  noteOpen: false, // on a phone: the reader opened the note under the title in full (step-card.js)
  urlExtra: {}, // what links the page writes keep besides the state (view=, theme=, lang=: figure.js)
  // timings for the readout (step-card.js updatePerf)
  computeMs: 0,
  renderMs: 0,
  timing: null, // the Worker's {forward, weights, load, copy} of the last run
  // what a recompute asks of the engine beyond the forward pass (run-options.js, issue 10)
  backward: false, // the switch: loss and gradients after the forward steps
  round: null, // {text, preset, index, input}: the generation round on screen, when not the last
  rounds: null, // {text, preset, list: [{decoder_input, token, prob}], generated}: the last generation
  lastMeta: null, // the engine's reply for the trace on screen (prediction, rounds, backward_ms)
  chat: null, // {config, error, on, addsBos, prompt}: the opened checkpoint's chat template and its switch (chat.js)
  userWeights: null, // {source: 'trained' | 'file', name, config, ...} once a reader has some
};
