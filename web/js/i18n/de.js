// i18n/de.js — the German catalog: the same keys as the English one (tests/web/i18n.mjs).
import core from './de/core.js';
import presets from './de/presets.js';
import tokens from './de/tokens.js';
import errors from './de/errors.js';

// One area per line (a new area: its import above and its name here).
export const DE = Object.assign(
  {},
  core,
  presets,
  tokens,
  errors,
);
