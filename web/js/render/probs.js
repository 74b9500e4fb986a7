// render/probs.js — the output distributions read as predictions: for each decoder position
// the most likely next tokens (vocabulary softmax), for each source token the masked-word
// head's guess at it, or the label probabilities of the classification head, then the full
// grid with its arithmetic.
import { el } from '../matrix.js';
import { fmt } from '../format.js';
import { renderMatrixStep } from './matrix-step.js';
import { weightsInfo } from '../provenance.js';

export function renderProbs(ctx, host) {
  const { trace, step } = ctx;
  const sec = el('section', 'predictions');
  const cols = step.shape[step.shape.length - 1];
  const rows = step.data.length / cols;
  const isVocab = step.axes[step.axes.length - 1].name === 'vocab';
  // Rows over the source tokens (the masked-word head): each row is the guess at that token;
  // the rows of the [MASK] tokens are the fills (top 5), the others the guess at a visible word.
  const rowAxis = step.axes[step.axes.length - 2];
  const atSource = isVocab && rowAxis && rowAxis.labels === 'source';
  const tokenAt = (i) => trace.sourceTokens(Math.floor(i / trace.T))[i % trace.T];
  const masks = atSource ? [...Array(rows).keys()].filter((i) => tokenAt(i) === '[MASK]') : [];
  const shown = masks.length ? masks : [...Array(rows).keys()];
  const top = masks.length ? 5 : isVocab ? 3 : cols;
  sec.append(el('h3', '', masks.length ? 'The fills of each [MASK] (top 5)' : isVocab ? 'Top predictions at each position' : 'Label probabilities'));
  const trained = weightsInfo().kind === 'trained';
  const note = !trained ? 'Weights are seeded, not trained, so the predictions are arbitrary — but every number is the real softmax of the real logits.'
    : atSource ? 'The trained model’s five most likely tokens at each [MASK], read from the words around it (the grid below has its guess at every position).'
      : 'The trained model’s three most likely next tokens after each prefix (the last row: after the whole decoder input).';
  if (isVocab) sec.append(el('p', 'muted', note));
  const labelNames = trace.labelsFor({ labels: 'labels' }) || [];
  const vocab = trace.text.vocab || [];
  const tgt = trace.targetTokens();
  const context = (i) => {
    if (atSource) return `at “${tokenAt(i)}” (position ${i % trace.T})`;
    return isVocab ? `after “${tgt.slice(0, i + 1).join(' ')}”` : trace.B > 1 ? `sentence ${i + 1}` : 'label';
  };
  const list = el('ol', 'pred-list');
  for (const i of shown) {
    const row = step.data.subarray(i * cols, (i + 1) * cols);
    const idx = Array.from(row.keys()).sort((a, b) => row[b] - row[a]).slice(0, top);
    const li = el('li');
    li.append(el('span', 'pred-ctx', context(i) + ' → '));
    for (const j of idx) {
      const p = el('span', 'pred');
      const bar = el('span', 'pred-bar');
      bar.style.width = `${Math.max(2, Math.round(row[j] * 60))}px`;
      p.append(el('span', 'chip-tok', isVocab ? vocab[j] : labelNames[j] ?? `label ${j}`), bar, el('span', 'num', fmt(row[j])));
      li.append(p);
    }
    list.append(li);
  }
  sec.append(list);
  host.append(sec);
  return renderMatrixStep(ctx, host);
}
