// provenance.js — where the weights on screen come from, said on the steps where it matters
// (attention weights and predictions: seeded weights make them meaningless, trained ones say
// what they were trained on), and the words of a sentence a trained model does not know
// (shown as such: it reads them as <unk>, never drops them).
import { app, $ } from './app.js';
import { presetHasWeights } from './state.js';
import { USER_PRESET } from './run-options.js';

// {kind: 'trained' | 'given' | 'seeded', text} for the trace on screen.
export function weightsInfo(state = app.shownState) {
  const p = app.presets.find((x) => x.name === state.preset);
  const u = app.userWeights;
  if (p && p.name === USER_PRESET && u)
    return { kind: 'trained', text: u.source === 'trained'
      ? `Weights trained in this page: task ${u.task}, ${u.steps} steps (held-out ${u.classifier ? 'accuracy' : 'exact match'} ${pct(u.accuracy)} on ${u.evalN} examples the training never saw).`
      : `Weights loaded from ${u.name} (${u.bytes.toLocaleString('en')} bytes of safetensors).` };
  if (p && typeof p.model.weights === 'string')
    // What it was trained on is the preset's own description (core/presets.cpp); its first sentence says it.
    return { kind: 'trained', text: `Trained weights: “${p.title}”. ${firstSentence(p.description)}` };
  if (p && presetHasWeights(p))
    return { kind: 'given', text: `The preset “${p.title}” gives its own numbers (the tutorial’s); any weights it does not give are seeded. Nothing here was trained.` };
  return { kind: 'seeded', text: `Seeded weights (seed ${state.seed}): drawn at random, not trained, so this pattern means nothing yet. Choose a “Trained: …” preset, or train one below, to see what a trained model does.` };
}
const pct = (x) => (x === null || x === undefined ? '–' : `${(100 * x).toFixed(1)}%`);

// Steps whose numbers a reader would read meaning into: attention weights, predictions.
function matters(step) {
  return step.kind === 'softmax' || step.kind === 'logits' || step.kind === 'loss';
}

// The line under a step's title (empty for steps where the weights' origin does not matter).
export function provenanceFor(step) {
  if (!app.shownState) return '';
  const unk = step.kind === 'tokens' || step.kind === 'lookup' ? unknownNote(app.trace) : '';
  if (!matters(step)) return unk;
  const w = weightsInfo();
  return [w.text, unk].filter(Boolean).join(' ');
}

export function showProvenance(step) {
  const node = $('provenance');
  if (!node) return;
  const text = provenanceFor(step);
  node.textContent = text;
  node.hidden = !text;
  node.className = `provenance ${text ? weightsInfo().kind : ''}`;
}

// The words of the sentence(s) outside a trained model's vocabulary.
export function unknownWords(trace) {
  const vocab = new Set(trace.text.vocab || []);
  if (!vocab.has('<unk>') && !vocab.has('[UNK]')) return [];
  const words = (trace.text.source_tokens || []).flat();
  return [...new Set(words.filter((w) => !vocab.has(w)))];
}
export function unknownNote(trace) {
  const u = unknownWords(trace);
  if (!u.length) return '';
  const unk = (trace.text.vocab || []).includes('<unk>') ? '<unk>' : '[UNK]';
  return `${u.map((w) => `“${w}”`).join(', ')} ${u.length > 1 ? 'are' : 'is'} not in this model’s vocabulary of ${trace.text.vocab.length} tokens: it reads ${u.length > 1 ? 'them' : 'it'} as ${unk}, one vector for every unknown word.`;
}

// The note under the sentence box.
export function showTextNote(trace) {
  const note = unknownNote(trace);
  if (note) $('text-note').textContent = note;
  $('text-note').classList.toggle('unk-note', !!note);
}

function firstSentence(text) {
  const m = /^.*?[.!?](\s|$)/.exec(text || '');
  return (m ? m[0] : text || '').trim();
}
