// i18n/en.js — the English catalog: one object of every message, assembled from the area files.
import core from './en/core.js';
import matrix from './en/matrix.js';
import attention from './en/attention.js';
import probs from './en/probs.js';

export const EN = Object.assign({}, core, matrix, attention, probs);
