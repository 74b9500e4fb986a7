// render/probs.js — the output distributions read as predictions: for each decoder position
// the most likely next tokens (vocabulary softmax), for each source token the masked-word
// head's guess at it, or the label probabilities of the classification head, then the full
// grid with its arithmetic. The list is bounded (MAX_ROWS positions, the first and the last
// ones, each labelled by at most the last PREFIX_WORDS words of its prefix): at 300 tokens it
// once repeated the whole prefix on each of 300 rows, a page 42,633 px tall.
import { el } from '../../lib/dom.js';
import { fmt } from '../../lib/format.js';
import { renderMatrixStep } from './matrix-step.js';
import { axisWindow } from '../matrix/window.js';
import { t as msg } from '../../lib/i18n.js';

const MAX_ROWS = 12;
const PREFIX_WORDS = 4;
const LARGE_VOCAB = 1000; // a checkpoint's vocabulary (GPT-2: 50,257): each row's top 10, found in one pass

// The indices of the k largest values of row, largest first: one pass keeping a sorted list of
// k (a [T, 50,257] step is 12 rows × 50,257 cells, never sorted whole).
export function topK(row, k) {
  const idx = [];
  for (let j = 0; j < row.length; j++) {
    const v = row[j];
    if (idx.length === k) {
      if (!(v > row[idx[k - 1]])) continue;
      idx[k - 1] = j;
    } else idx.push(j);
    for (let a = idx.length - 1; a > 0 && v > row[idx[a - 1]]; a--) [idx[a - 1], idx[a]] = [idx[a], idx[a - 1]];
  }
  return idx;
}

// “…the last words” of a prefix.
function tail(tokens) {
  const s = tokens.slice(-PREFIX_WORDS).join(' ');
  return tokens.length > PREFIX_WORDS ? `…${s}` : s;
}

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
  // A causal LM head over the source (GPT-2's probs): each row predicts the token after it.
  const lm = atSource && !step.id.startsWith('mlm.');
  const masks = atSource && !lm ? [...Array(rows).keys()].filter((i) => tokenAt(i) === '[MASK]') : [];
  const shown = masks.length ? masks : [...Array(rows).keys()];
  const top = masks.length ? 5 : isVocab ? (cols > LARGE_VOCAB ? 10 : 3) : cols;
  sec.append(el('h3', '', msg(masks.length ? 'probs.fillsTitle' : isVocab ? 'probs.topTitle' : 'probs.labelsTitle')));
  const trained = ctx.trained;
  const note = msg(!trained ? 'probs.seededNote' : lm ? 'probs.lmNote' : atSource ? 'probs.maskNote' : 'probs.trainedNote', { k: top });
  if (isVocab) sec.append(el('p', 'muted', note));
  const labelNames = trace.labelsFor({ labels: 'labels' }) || [];
  const vocab = trace.shownVocab();
  const tgt = trace.targetTokens();
  const context = (i) => {
    if (lm) return msg('probs.after', { prefix: tail(trace.sourceTokens(Math.floor(i / trace.T)).slice(0, (i % trace.T) + 1)) });
    if (atSource) return msg('probs.at', { tok: tokenAt(i), pos: i % trace.T });
    return isVocab ? msg('probs.after', { prefix: tail(tgt.slice(0, i + 1)) }) : trace.B > 1 ? msg('probs.sentence', { n: i + 1 }) : msg('probs.label');
  };
  const list = el('ol', 'pred-list');
  const rowsShown = axisWindow(shown.length, MAX_ROWS, [], false);
  let prev = -1;
  for (const k of rowsShown) {
    if (k !== prev + 1) list.append(el('li', 'pred-gap muted', msg('probs.notShown', { n: k - prev - 1 })));
    prev = k;
    const i = shown[k];
    const row = step.data.subarray(i * cols, (i + 1) * cols);
    const idx = topK(row, top);
    const li = el('li');
    li.append(el('span', 'pred-ctx', context(i) + ' → '));
    for (const j of idx) {
      const p = el('span', 'pred');
      const bar = el('span', 'pred-bar');
      bar.style.width = `${Math.max(2, Math.round(row[j] * 60))}px`;
      p.append(el('span', 'chip-tok', isVocab ? vocab[j] : labelNames[j] ?? msg('probs.labelN', { j })), bar, el('span', 'num', fmt(row[j])));
      li.append(p);
    }
    list.append(li);
  }
  sec.append(list);
  host.append(sec);
  return renderMatrixStep(ctx, host);
}
