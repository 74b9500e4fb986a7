// i18n/en.js — the English catalog: one object of every message, assembled from the area files.
import core from './en/core.js';
import shell from './en/shell.js';
import map from './en/map.js';
import toc from './en/toc.js';

export const EN = Object.assign({}, core);
Object.assign(EN, shell, map, toc); // the page shell, the architecture map, the step list
