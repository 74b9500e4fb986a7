// i18n/en.js — the English catalog: one object of every message, assembled from the area files.
import core from './en/core.js';
import presets from './en/presets.js';
import tokens from './en/tokens.js';
import errors from './en/errors.js';

// One area per line (a new area: its import above and its name here).
export const EN = Object.assign(
  {},
  core,
  presets,
  tokens,
  errors,
);
