// i18n/en.js — the English catalog: one object of every message, assembled from the area files.
import core from './en/core.js';

export const EN = Object.assign({}, core);
