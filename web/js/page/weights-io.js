// weights-io.js — weights a reader trained or brings: they become the model the walkthrough
// shows (a preset "Your weights" whose model file names them), can be downloaded as
// safetensors, and loaded again from a file picker or by dropping a file on the page; a file
// the core cannot read gets the core's own message (which names the tensor or the problem).
import { t, num } from '../lib/i18n.js';
import { app } from './app.js';
import { $, el } from '../lib/dom.js';
import { presetSettings } from '../model/settings.js';
import { installPreset } from './runtime-preset.js';
import { showError, clearError, showNotice } from './messages.js';
import { USER_PRESET, USER_WEIGHTS } from './run-options.js';

const MAX_BYTES = 64 * 1024 * 1024;

// A file that cannot be used: said where errors go, but the model on screen is still good
// (no "stale" dimming, unlike a computation that failed).
function weightsError(msg) {
  const m = $('msg');
  m.replaceChildren(el('strong', '', t('train.w.notLoaded')), document.createTextNode(msg));
  m.hidden = false;
}
let hooks = null;

export function installWeightsIO(h) {
  hooks = h;
  const box = $('weights-io');
  const dl = el('button', '', t('train.w.download'));
  dl.type = 'button';
  dl.id = 'w-download';
  dl.disabled = true;
  const pick = el('input');
  Object.assign(pick, { type: 'file', id: 'w-file', accept: '.safetensors,application/octet-stream' });
  const lab = el('label', 'small', t('train.w.load'));
  lab.append(pick);
  box.append(dl, lab, el('p', 'muted small', t('train.w.drop')));
  dl.addEventListener('click', () => download().catch((e) => showError(e.message)));
  pick.addEventListener('change', () => {
    const f = pick.files && pick.files[0];
    if (f) loadFile(f).catch(() => {});
    pick.value = '';
  });
  document.addEventListener('dragover', (e) => {
    if (![...(e.dataTransfer?.types || [])].includes('Files')) return;
    e.preventDefault();
    document.body.classList.add('dropping');
  });
  document.addEventListener('dragleave', (e) => {
    if (!e.relatedTarget) document.body.classList.remove('dropping');
  });
  document.addEventListener('drop', (e) => {
    document.body.classList.remove('dropping');
    const f = e.dataTransfer?.files?.[0];
    if (!f) return;
    e.preventDefault();
    loadFile(f).catch(() => {});
  });
}

async function loadFile(file) {
  if (file.size > MAX_BYTES) {
    const msg = t('train.w.tooBig', { name: file.name, mb: num(file.size / 1e6, 1), max: num(MAX_BYTES / 1e6) });
    weightsError(msg);
    throw new Error(msg);
  }
  return loadWeights(await file.arrayBuffer(), `“${file.name}”`);
}

// Makes `buffer` (safetensors) the walked model; rejects with the core's message.
export async function loadWeights(buffer, name) {
  if (!(buffer instanceof ArrayBuffer)) throw new Error('loadWeights expects an ArrayBuffer of a .safetensors file');
  const bytes = buffer.byteLength;
  const r = await app.engine.call('setWeights', { buffer: buffer.slice(0) });
  if (!r.ok) {
    const msg = t('train.w.unusable', { name, why: r.error });
    weightsError(msg);
    throw new Error(msg);
  }
  clearError();
  const text = app.trace && app.trace.text.vocab && sameVocab(r.vocab) ? app.state.text : (r.vocab || []).filter((t) => !t.startsWith('<')).slice(0, 4).join(' ');
  await useWeights({ source: 'file', name, bytes, config: r.config }, text, hooks);
  return { config: r.config, vocab: r.vocab, labels: r.labels };
}
function sameVocab(v) {
  const a = app.trace.text.vocab;
  return v && v.length === a.length && v.every((t, i) => t === a[i]);
}

// The weights now in the engine become the preset "Your weights", shown with `text`.
export async function useWeights(info, text, h = hooks) {
  app.userWeights = info;
  const title = info.source === 'trained' ? t('train.w.titleTrained', { task: info.task }) : t('train.w.titleFile', { name: info.name });
  const preset = { name: USER_PRESET, title, description: t('train.w.desc'), source: '',
    model: { weights: USER_WEIGHTS, text } };
  installPreset(preset);
  $('w-download').disabled = false;
  const next = presetSettings(preset);
  next.step = app.state.step;
  app.state = next;
  h.syncForm(next, true);
  await h.requestCompute(next, { useStateStep: true });
  showNotice(t('train.w.now', { title }));
}

export async function exportWeights() {
  const r = await app.engine.call('exportWeights');
  return r.buffer;
}

async function download() {
  const buf = await exportWeights();
  const u = app.userWeights;
  const name = `encoder-walkthrough-${u && u.task ? u.task : 'weights'}.safetensors`;
  const url = URL.createObjectURL(new Blob([buf], { type: 'application/octet-stream' }));
  const a = el('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 5000);
}
