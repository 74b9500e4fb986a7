// i18n/de.js — the German catalog: the same keys as the English one (tests/web/i18n.mjs).
import core from './de/core.js';

export const DE = Object.assign({}, core);

// The cell explanations, the alignment pictures and the AdamW panel (the explain branch).
import explain from './de/explain.js';
import alignment from './de/alignment.js';
import adamw from './de/adamw.js';
Object.assign(DE, explain, alignment, adamw);
