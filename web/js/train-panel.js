// train-panel.js — training live in the page (issue 10): choose a task, a model size that
// stays interactive, steps, learning rate, seed; start, pause, resume, stop, reset. Training
// runs in the engine Worker (worker-trained.js) in chunks of steps, so the page never waits
// for it; each chunk reports loss and steps/s, every few hundred steps the held-out accuracy
// and one fixed held-out example's attention, redrawn as it learns. When training stops the
// weights become the model the walkthrough shows (weights-io.js: download, load again).
// Also the page's first load (a trained model) and the JS API for all of this.
import { app, $ } from './app.js';
import { el } from './dom.js';
import { isCrossAttention } from './render/alignment.js';
import { showError } from './messages.js';
import { drawTrainingPlot } from './plot.js';
import { drawHeads } from './heads-mini.js';
import { useWeights, installWeightsIO, loadWeights, exportWeights } from './weights-io.js';

export const FIRST_PRESET = 'trained-number-words';

// The first load opens on a trained encoder–decoder unless the link says otherwise.
export function firstLoadState(search, presets, fromURL) {
  const q = new URLSearchParams(search);
  const keys = [...q.keys()].filter((k) => k !== 'embed');
  if (keys.length || !presets.some((p) => p.name === FIRST_PRESET)) return fromURL(search, presets);
  return fromURL(`?preset=${FIRST_PRESET}${q.get('embed') ? '&embed=1' : ''}`, presets);
}

// The step a first load opens on: the sharpest head of the first cross-attention (the largest
// mean of its rows' maxima), where the alignment is plainest; null without cross-attention.
// The heads' weights are fetched first (the Worker keeps the trace).
export async function firstLoadStep(trace, engine) {
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

// The size and schedule fields: [key, label, default, min, max, step].
const FIELDS = [
  ['d_model', 'd_model', 32, 8, 64, 8], ['num_heads', 'heads', 4, 1, 8, 1], ['d_ff', 'd_ff', 64, 8, 256, 8],
  ['num_layers', 'encoder layers', 1, 1, 2, 1], ['decoder_layers', 'decoder layers', 1, 1, 2, 1],
  // The defaults are the recipe that reaches 99% on number-words fastest (README, "Train a model").
  ['steps', 'steps', 3000, 10, 5000, 10], ['batch', 'batch', 16, 1, 128, 1], ['lr', 'learning rate', 0.006, 0.0001, 0.05, 0.0001],
  ['seed', 'seed', 1, 0, 1e9, 1],
];

let hooks = null;
let running = null; // the promise of the run in progress
const series = { loss: [], acc: [] };

export function installTraining(h) {
  hooks = h;
  const box = $('train-panel');
  const form = el('div', 'train-grid');
  const task = el('select');
  task.id = 't-task';
  form.append(labelled('task', task));
  for (const [k, label, def, min, max, step] of FIELDS) {
    const i = el('input');
    Object.assign(i, { id: `t-${k}`, type: 'number', value: def, min, max, step });
    form.append(labelled(label, i));
  }
  const buttons = el('div', 'train-buttons');
  for (const [id, text] of [['t-start', 'Train'], ['t-pause', 'Pause'], ['t-stop', 'Stop'], ['t-reset', 'Reset']]) {
    const b = el('button', id === 't-start' ? 'primary' : '', text);
    b.type = 'button';
    b.id = id;
    buttons.append(b);
  }
  const bar = el('progress');
  bar.id = 't-bar';
  bar.max = 1;
  bar.value = 0;
  const status = el('p', 'train-status small');
  status.id = 't-status';
  status.setAttribute('role', 'status');
  const plot = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  plot.id = 't-plot';
  plot.setAttribute('class', 'train-plot');
  plot.setAttribute('role', 'img');
  plot.setAttribute('aria-label', 'Training loss and held-out accuracy by step');
  const heads = el('div', 'train-heads');
  heads.id = 't-heads';
  box.append(form, buttons, bar, status, plot, heads);
  app.engine.call('tasks').then((tasks) => {
    for (const t of tasks) {
      const o = el('option', '', `${t.name}${t.classifier ? ' (classifier)' : ''}`);
      o.value = t.name;
      o.title = t.description;
      task.append(o);
    }
  }).catch((e) => showError(e.message));
  // A value out of range is named in the status line (training failures are shown by train()).
  $('t-start').addEventListener('click', () => train(readForm()).catch((e) => { $('t-status').textContent = e.message; }));
  $('t-pause').addEventListener('click', togglePause);
  $('t-stop').addEventListener('click', () => stopTraining());
  $('t-reset').addEventListener('click', reset);
  setButtons('idle');
  drawTrainingPlot(plot, series, 1);
  installWeightsIO(h);
}

function labelled(text, input) {
  const l = el('label', 'train-field');
  l.append(el('span', 'small', text), input);
  return l;
}

function readForm() {
  const o = { task: $('t-task').value || 'number-words' };
  for (const [k] of FIELDS) o[k] = Number($(`t-${k}`).value);
  return o;
}

// Checks the options the way the panel's fields limit them; a message names the field.
function checkOptions(o) {
  if (!o || typeof o !== 'object') throw new Error('train() expects an object of options');
  for (const [k, label, , min, max] of FIELDS) {
    if (!(k in o)) continue;
    const v = o[k];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max)
      throw new Error(`${label} must be a number from ${min} to ${max} for training in the page, got ${String(v).slice(0, 30)}`);
    if (k !== 'lr' && !Number.isInteger(v)) throw new Error(`${label} must be a whole number, got ${v}`);
  }
}

function setButtons(state) {
  $('t-start').disabled = state !== 'idle';
  $('t-pause').disabled = state === 'idle';
  $('t-pause').textContent = state === 'paused' ? 'Resume' : 'Pause';
  $('t-stop').disabled = state === 'idle';
  $('t-reset').disabled = state !== 'idle';
}

let paused = false;
async function togglePause() {
  paused = !paused;
  setButtons(paused ? 'paused' : 'running');
  await app.engine.call('trainControl', { command: paused ? 'pause' : 'resume' });
  if (paused) $('t-status').textContent += ' — paused';
}

export async function stopTraining() {
  if (!running) return false;
  await app.engine.call('trainControl', { command: 'stop' });
  return true;
}

function reset() {
  series.loss = [];
  series.acc = [];
  $('t-bar').value = 0;
  $('t-status').textContent = '';
  $('t-heads').replaceChildren();
  drawTrainingPlot($('t-plot'), series, 1);
}

function progressText(p) {
  const acc = p.accuracy !== undefined ? ` · held-out ${(100 * p.accuracy).toFixed(1)}% (${p.evalN})` : '';
  return `step ${p.steps.toLocaleString('en')} / ${p.total.toLocaleString('en')} · loss ${p.loss.toFixed(4)}${acc} · ${p.stepsPerSec.toFixed(1)} steps/s · ${(p.ms / 1000).toFixed(1)} s`;
}

// Trains with `options` (a task and the fields above); resolves with {steps, loss, accuracy,
// ms}; a second call while one runs rejects. onProgress gets every chunk's report.
export async function train(options = {}, onProgress = null) {
  if (running) throw new Error('a training run is already going: wait for it or call stopTraining() first');
  checkOptions(options);
  const o = { ...readDefaults(), ...options };
  // The panel shows the run's settings (train() from the JS API included).
  if ([...$('t-task').options].some((x) => x.value === o.task)) $('t-task').value = o.task;
  for (const [k] of FIELDS) $(`t-${k}`).value = o[k];
  reset();
  paused = false;
  setButtons('running');
  $('train-box').open = true;
  let lastAcc = null;
  running = app.engine.call('trainStart', { options: o, evalN: o.evalN || 100, finalEvalN: o.finalEvalN || 200, stopAt: o.stopAt },
    (p) => {
      series.loss.push([p.steps, p.loss]);
      if (p.accuracy !== undefined) {
        series.acc.push([p.steps, p.accuracy]);
        lastAcc = p.accuracy;
      }
      $('t-bar').value = p.steps / p.total;
      $('t-status').textContent = progressText({ ...p, accuracy: p.accuracy ?? lastAcc ?? undefined, evalN: o.evalN || 100 });
      drawTrainingPlot($('t-plot'), series, p.total);
      if (p.sample) drawHeads($('t-heads'), p.sample);
      if (onProgress) onProgress({ ...p });
    });
  try {
    const r = await running;
    $('t-status').textContent = `${r.stopped ? 'Stopped' : 'Done'} at step ${r.steps}: loss ${r.loss.toFixed(4)}, held-out ${r.classifier ? 'accuracy' : 'exact match'} ${(100 * r.accuracy).toFixed(1)}% on ${r.evalN} examples, ${(r.ms / 1000).toFixed(1)} s of training. The walkthrough now shows this model.`;
    // The walkthrough switches to the new weights; a recompute it refuses (e.g. the backward
    // pass of a classifier without a label) is shown as any other, and training still succeeded.
    await useWeights({ source: 'trained', task: r.task, steps: r.steps, accuracy: r.accuracy, evalN: r.evalN, config: r.config, classifier: r.classifier }, r.example, hooks).catch(() => {});
    return { steps: r.steps, loss: r.loss, accuracy: r.accuracy, ms: r.ms };
  } catch (e) {
    $('t-status').textContent = `Training stopped: ${e.message}`;
    showError(e.message);
    throw e;
  } finally {
    running = null;
    setButtons('idle');
  }
}

function readDefaults() {
  const o = { task: 'number-words' };
  for (const [k, , def] of FIELDS) o[k] = def;
  return o;
}

// window.encoderWalkthrough additions (api.js documents the whole API; README's table too).
export function trainedApi({ generate }) {
  return {
    generate: () => generate(),
    train: (options, onProgress) => train(options, onProgress),
    stopTraining: () => stopTraining(),
    loadWeights: (buffer) => loadWeights(buffer, 'the buffer given to loadWeights()'),
    exportWeights: () => exportWeights(),
  };
}
