// i18n/de.js — the German catalog: the same keys as the English one (tests/web/i18n.mjs).
import core from './de/core.js';
import shell from './de/shell.js';
import map from './de/map.js';
import toc from './de/toc.js';

export const DE = Object.assign({}, core);
Object.assign(DE, shell, map, toc); // the page shell, the architecture map, the step list
