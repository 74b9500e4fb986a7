// context.js — what a step view draws with, passed in rather than read from module state: the
// trace and the step, the engine that fetches their data, the batch item and the cell being
// explained, the theme (dark), the window (how many rows and columns a matrix shows before it
// elides), whether the weights were trained (the words of predictions and notes), and the ways
// back to whoever shows it — goTo(id) (another step), openCell(id, R, c) (another step with
// one of its cells explained), setBatch(b), onExplain(R, c). The page (page/step-card.js) and
// every <encoder-walkthrough> element (embed/component-view.js) make their own, so two views
// on one page never pick up each other's language, theme, window or navigation. specialTokens:
// the checkpoint's special tokens as the tokenizer spells them (a Set, from its
// tokenizer_config.json: page/chat.js), which the token step marks; null when not known.

// How much of a matrix the page shows before eliding; maxCols caps what fitting the width may
// add. A figure shows everything that fits (embed/embed-params.js FIGURE_WINDOW).
export const PAGE_WINDOW = Object.freeze({ rows: 14, cols: 12, maxCols: 24 });

export function viewContext(o) {
  return {
    trace: null, step: null, engine: null, batch: 0, cell: null, lang: undefined, dark: false, window: PAGE_WINDOW, trained: false, specialTokens: null,
    goTo: () => {}, openCell: () => {}, setBatch: () => {}, onExplain: () => {},
    ...o,
  };
}
