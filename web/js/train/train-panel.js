// train-panel.js — training live in the page (issue 10): choose a task, a model size that
// stays interactive, steps, learning rate, seed; start, pause, resume, stop, reset. Training
// runs in the engine Worker (engine/worker-trained.js) in chunks of steps, so the page never
// waits for it; each chunk reports loss and steps/s, every few hundred steps the held-out
// accuracy and one fixed held-out example's attention, redrawn as it learns. When training
// stops the weights become the model the walkthrough shows (hooks.useWeights: the page's
// page/weights-io.js, which also downloads and loads them). The page passes in what the panel
// needs of it (installTraining's hooks): nothing here reads the page's state.
import { t, num } from '../lib/i18n.js';
import { $, el } from '../lib/dom.js';
import { drawTrainingPlot } from './plot.js';
import { drawHeads } from './heads-mini.js';

// The size and schedule fields: [key, default, min, max, step]; each is labelled t('train.<key>').
const FIELDS = [
  ['d_model', 32, 8, 64, 8], ['num_heads', 4, 1, 8, 1], ['d_ff', 64, 8, 256, 8],
  ['num_layers', 1, 1, 2, 1], ['decoder_layers', 1, 1, 2, 1],
  // The defaults are the recipe that reaches 99% on number-words fastest (README, "Train a model").
  ['steps', 3000, 10, 5000, 10], ['batch', 16, 1, 128, 1], ['lr', 0.006, 0.0001, 0.05, 0.0001],
  ['seed', 1, 0, 1e9, 1],
];

let hooks = null;
let running = null; // the promise of the run in progress
const series = { loss: [], acc: [] };

// hooks: {engine (the engine client: trainStart, trainControl, tasks), showError(msg),
// dark() (the page's theme), useWeights(info, text) (the trained weights become the model shown)}.
export function installTraining(h) {
  hooks = h;
  const box = $('train-panel');
  const form = el('div', 'train-grid');
  const task = el('select');
  task.id = 't-task';
  form.append(labelled(t('train.task'), task));
  for (const [k, def, min, max, step] of FIELDS) {
    const i = el('input');
    Object.assign(i, { id: `t-${k}`, type: 'number', value: def, min, max, step });
    form.append(labelled(t(`train.${k}`), i));
  }
  const buttons = el('div', 'train-buttons');
  for (const [id, key] of [['t-start', 'start'], ['t-pause', 'pause'], ['t-stop', 'stop'], ['t-reset', 'reset']]) {
    const b = el('button', id === 't-start' ? 'primary' : '', t(`train.${key}`));
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
  plot.setAttribute('aria-label', t('train.plotLabel'));
  const heads = el('div', 'train-heads');
  heads.id = 't-heads';
  box.append(form, buttons, bar, status, plot, heads);
  h.engine.call('tasks').then((tasks) => {
    for (const k of tasks) {
      const o = el('option', '', k.classifier ? t('train.classifier', { name: k.name }) : k.name);
      o.value = k.name;
      o.title = k.description;
      task.append(o);
    }
  }).catch((e) => h.showError(e.message));
  // A value out of range is named in the status line (training failures are shown by train()).
  $('t-start').addEventListener('click', () => train(readForm()).catch((e) => { $('t-status').textContent = e.message; }));
  $('t-pause').addEventListener('click', togglePause);
  $('t-stop').addEventListener('click', () => stopTraining());
  $('t-reset').addEventListener('click', reset);
  setButtons('idle');
  drawTrainingPlot(plot, series, 1);
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
  for (const [k, , min, max] of FIELDS) {
    const label = t(`train.${k}`);
    if (!(k in o)) continue;
    const v = o[k];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max)
      throw new Error(t('train.badNumber', { label, min, max, got: String(v).slice(0, 30) }));
    if (k !== 'lr' && !Number.isInteger(v)) throw new Error(t('train.badInteger', { label, got: v }));
  }
}

function setButtons(state) {
  $('t-start').disabled = state !== 'idle';
  $('t-pause').disabled = state === 'idle';
  $('t-pause').textContent = t(state === 'paused' ? 'train.resume' : 'train.pause');
  $('t-stop').disabled = state === 'idle';
  $('t-reset').disabled = state !== 'idle';
}

let paused = false;
async function togglePause() {
  paused = !paused;
  setButtons(paused ? 'paused' : 'running');
  await hooks.engine.call('trainControl', { command: paused ? 'pause' : 'resume' });
  if (paused) $('t-status').textContent += t('train.paused');
}

export async function stopTraining() {
  if (!running) return false;
  await hooks.engine.call('trainControl', { command: 'stop' });
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
  const acc = p.accuracy !== undefined ? t('train.heldOut', { pct: num(100 * p.accuracy, 1), n: p.evalN }) : '';
  return t('train.progress', { step: num(p.steps), total: num(p.total), loss: num(p.loss, 4), acc, rate: num(p.stepsPerSec, 1), secs: num(p.ms / 1000, 1) });
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
  running = hooks.engine.call('trainStart', { options: o, evalN: o.evalN || 100, finalEvalN: o.finalEvalN || 200, stopAt: o.stopAt },
    (p) => {
      series.loss.push([p.steps, p.loss]);
      if (p.accuracy !== undefined) {
        series.acc.push([p.steps, p.accuracy]);
        lastAcc = p.accuracy;
      }
      $('t-bar').value = p.steps / p.total;
      $('t-status').textContent = progressText({ ...p, accuracy: p.accuracy ?? lastAcc ?? undefined, evalN: o.evalN || 100 });
      drawTrainingPlot($('t-plot'), series, p.total);
      if (p.sample) drawHeads($('t-heads'), p.sample, hooks.dark());
      if (onProgress) onProgress({ ...p });
    });
  try {
    const r = await running;
    $('t-status').textContent = t('train.done', { stopped: r.stopped, step: num(r.steps), loss: num(r.loss, 4), classifier: r.classifier, pct: num(100 * r.accuracy, 1), n: r.evalN, secs: num(r.ms / 1000, 1) });
    // The walkthrough switches to the new weights; a recompute it refuses (e.g. the backward
    // pass of a classifier without a label) is shown as any other, and training still succeeded.
    await hooks.useWeights({ source: 'trained', task: r.task, steps: r.steps, accuracy: r.accuracy, evalN: r.evalN, config: r.config, classifier: r.classifier }, r.example).catch(() => {});
    return { steps: r.steps, loss: r.loss, accuracy: r.accuracy, ms: r.ms };
  } catch (e) {
    $('t-status').textContent = t('train.failed', { why: e.message });
    hooks.showError(e.message);
    throw e;
  } finally {
    running = null;
    setButtons('idle');
  }
}

function readDefaults() {
  const o = { task: 'number-words' };
  for (const [k, def] of FIELDS) o[k] = def;
  return o;
}
