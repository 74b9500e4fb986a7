// i18n/de.js — the German catalog: the same keys as the English one (tests/web/i18n.mjs).
import core from './de/core.js';
import steps from './de/steps.js';
import notes from './de/notes.js';
import notation from './de/notation.js';
import provenance from './de/provenance.js';

export const DE = Object.assign({}, core, steps, notes, notation, provenance);
