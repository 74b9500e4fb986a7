// app.js — the page's one piece of shared state (what is computed, what is shown, where
// the reader is) and the element lookup every page module uses.
import { defaults } from '../model/settings.js';

export const $ = (id) => document.getElementById(id);

export const app = {
  engine: null,
  presets: [],
  isa: '',
  state: defaults(),
  shownState: null, // the state of the trace on screen
  trace: null,
  index: 0,
  batch: 0,
  cell: null,
  embed: false,
  computeMs: 0,
  renderMs: 0,
};
