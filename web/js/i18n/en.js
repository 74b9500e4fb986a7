// i18n/en.js — the English catalog: one object of every message, assembled from the area files.
import core from './en/core.js';
import steps from './en/steps.js';
import notes from './en/notes.js';
import notation from './en/notation.js';
import provenance from './en/provenance.js';

export const EN = Object.assign({}, core, steps, notes, notation, provenance);
