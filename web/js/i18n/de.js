// i18n/de.js — the German catalog: the same keys as the English one (tests/web/i18n.mjs).
import core from './de/core.js';
import matrix from './de/matrix.js';
import attention from './de/attention.js';
import probs from './de/probs.js';

export const DE = Object.assign({}, core, matrix, attention, probs);
