// state.js — the lab's one piece of state: whether the lab is on, the intervention the trace
// on screen was computed with (spec.js), the trace as trained (for "was …" marks), the old
// values of cells the reader set, and the last sweep. The page (page/lab-page.js) and the lab's
// views read and write it; nothing else does.
import { emptySpec, toURLEntries } from './spec.js';

export const labState = {
  on: false,
  spec: emptySpec(), // the interventions of the trace on screen (or being computed)
  baseline: null, // the Trace computed without interventions, same model and text
  was: {}, // cell id → its value before the reader set it
  sweep: null, // {kind, result, ms} of the last sweep
  busy: false,
  setMode: true, // "Set a cell": a click on a number opens it for a new value (cell-editor.js)
};

// What links keep of the lab (page/url.js): lab=1 while it is on, and the interventions.
export function labURLEntries() {
  return { lab: labState.on ? '1' : '', ...toURLEntries(labState.spec) };
}
