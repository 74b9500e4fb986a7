// provenance.js — where the weights on screen come from, said on the steps where it matters
// (attention weights and predictions: seeded weights make them meaningless, trained ones say
// what they were trained on), and the words of a sentence a trained model does not know
// (shown as such: it reads them as <unk>, never drops them).
import { app } from './app.js';
import { $ } from '../lib/dom.js';
import { presetHasWeights, presetIsTrained } from '../model/settings.js';
import { USER_PRESET, CHECKPOINT_PRESET } from './run-options.js';
import { t, has, num } from '../lib/i18n.js';

// Where the weights of `state` come from: 'user' (trained in this page or loaded from a file),
// 'shipped' (a trained preset: the model file shipped with the site), 'given' (a tutorial's
// numbers, the rest seeded) or 'seeded'.
export function weightsSource(state = app.shownState) {
  const p = app.presets.find((x) => x.name === state.preset);
  if (p && p.name === USER_PRESET && app.userWeights) return 'user';
  if (p && p.name === CHECKPOINT_PRESET && app.checkpoint) return 'checkpoint';
  if (presetIsTrained(p)) return 'shipped';
  if (p && presetHasWeights(p)) return 'given';
  return 'seeded';
}

// {kind: 'trained' | 'given' | 'seeded', text} for the trace on screen: one line from the catalog.
export function weightsInfo(state = app.shownState) {
  const p = app.presets.find((x) => x.name === state.preset);
  const u = app.userWeights;
  const source = weightsSource(state);
  if (source === 'user')
    return { kind: 'trained', text: u.source === 'trained'
      ? t('provenance.userTrained', { task: u.task, steps: u.steps, metric: t(u.classifier ? 'provenance.accuracy' : 'provenance.exact'), acc: pct(u.accuracy), n: u.evalN })
      : t('provenance.loaded', { name: u.name, bytes: num(u.bytes) }) };
  if (source === 'shipped') return { kind: 'trained', text: trainedLine(p) };
  if (source === 'checkpoint') return { kind: 'trained', text: t('provenance.checkpoint', { name: app.checkpoint.name }) };
  if (source === 'given') return { kind: 'given', text: t('provenance.given', { title: p.title }) };
  return { kind: 'seeded', text: t('provenance.seeded', { seed: state.seed }) };
}
// "Trained on number words → digits (4000 steps, seed 1)": the task, steps and seed are flags of
// the preset's training command (its `training` field, core/io/presets.cpp).
function trainedLine(p) {
  const flag = (name) => (new RegExp(`--${name} (\\S+)`).exec(p.training || '') || [])[1];
  const task = flag('task'), steps = flag('steps'), seed = flag('seed');
  if (!task || !steps || !seed) return t('provenance.trainedPreset', { title: p.title });
  const key = `provenance.task.${task}`;
  return t('provenance.trained', { task: has(key) ? t(key) : task, steps: num(Number(steps)), seed });
}
const pct = (x) => (x === null || x === undefined ? '–' : t('provenance.percent', { value: num(100 * x, 1) }));

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

// A figure (view=figure) leaves the line out, except for a checkpoint: a figure of someone's
// pretrained weights says on every step where they came from, as the <encoder-walkthrough>
// element does (figure.css shows the line with class `in-figure`).
export function showProvenance(step) {
  const node = $('provenance');
  if (!node) return;
  const figureCkpt = app.view && app.view.view === 'figure' && weightsSource() === 'checkpoint';
  const text = figureCkpt ? weightsInfo().text : provenanceFor(step);
  node.textContent = text;
  node.hidden = !text;
  node.className = `provenance ${text ? weightsInfo().kind : ''}${figureCkpt ? ' in-figure' : ''}`;
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
  return t('provenance.unknown', { words: u.map((w) => t('provenance.quoted', { w: trace.piece(w) })).join(', '), n: u.length, V: trace.text.vocab.length, unk });
}

// The note under the sentence box.
export function showTextNote(trace) {
  const note = unknownNote(trace);
  if (note) $('text-note').textContent = note;
  $('text-note').classList.toggle('unk-note', !!note);
}
