// i18n/en.js — the English catalog: one object of every message, assembled from the area files.
import core from './en/core.js';

export const EN = Object.assign({}, core);

// The cell explanations, the alignment pictures and the AdamW panel (the explain branch).
import explain from './en/explain.js';
import alignment from './en/alignment.js';
import adamw from './en/adamw.js';
Object.assign(EN, explain, alignment, adamw);
