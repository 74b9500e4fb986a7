// first-load.js — the page's first load: a link that names no model or step (a first visit)
// opens on the trained number-words model, on the step where its alignment is plainest.
import { isCrossAttention } from '../view/render/alignment.js';

export const FIRST_PRESET = 'trained-number-words';

// A link that says nothing about the model or the step: none of its keys but embed= and lang=.
export function isBareLink(search) {
  return [...new URLSearchParams(search).keys()].every((k) => k === 'embed' || k === 'lang');
}

// The first load opens on a trained encoder–decoder unless the link says otherwise.
let firstLoadBare = false; // the page opened on a bare link (decided before the address bar follows the state)
export function firstLoadState(search, presets, fromURL) {
  const q = new URLSearchParams(search);
  firstLoadBare = isBareLink(search) && presets.some((p) => p.name === FIRST_PRESET);
  if (!firstLoadBare) return fromURL(search, presets);
  return fromURL(`?preset=${FIRST_PRESET}${q.get('embed') ? '&embed=1' : ''}`, presets);
}

// The step a first load opens on: the sharpest head of the first cross-attention (the largest
// mean of its rows' maxima), where the alignment is plainest; null without cross-attention or
// when the link named a model or step (firstLoadState). The heads' weights are fetched first
// (the Worker keeps the trace).
export async function firstLoadStep(trace, engine) {
  if (!firstLoadBare) return null;
  const heads = trace.steps.filter(isCrossAttention);
  await trace.ensureSteps(heads.map((s) => s.id), engine);
  const first = heads.filter((s) => s.place.layer === (heads[0] && heads[0].place.layer));
  let best = null, bestScore = -1;
  for (const s of first) {
    const n = s.shape[s.shape.length - 1], rows = s.data.length / n;
    let score = 0;
    for (let r = 0; r < rows; r++) score += Math.max(...s.data.subarray(r * n, (r + 1) * n)) / rows;
    if (score > bestScore) [best, bestScore] = [s, score];
  }
  return best ? best.id : null;
}
