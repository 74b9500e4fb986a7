// checkpoint.js — "Open a model…": a Hugging Face checkpoint (config.json, model.safetensors and
// its tokenizer files) from a folder URL (?model=URL, encoderWalkthrough.loadCheckpoint(url)),
// a file picker (several files, or a folder) or a drop of files or a folder onto the page. The
// Worker fetches or reads the files straight into the engine (engine/worker-checkpoint.js); a
// progress bar shows bytes and time left, then the core's loading; the checkpoint becomes the
// preset CHECKPOINT_PRESET, run with the text box's text (run-options.js). Errors are the
// catalog's (area `ckpt`, and `errors.checkpoint_*` for the Worker's).
import { t, num } from '../lib/i18n.js';
import { app } from './app.js';
import { $, el } from '../lib/dom.js';
import { presetSettings } from '../model/settings.js';
import { installPreset } from './runtime-preset.js';
import { clearError, showNotice } from './messages.js';
import { CHECKPOINT_PRESET, CHECKPOINT_WEIGHTS } from './run-options.js';
import { closePanels } from './layout-shell.js';
import { useChatSource } from './chat.js';

let hooks = null;
const ui = {};

export function installCheckpoint(h) {
  hooks = h;
  const box = el('details', 'checkpoint-box');
  box.id = 'checkpoint-box';
  const sum = el('summary', '', t('ckpt.open'));
  const files = el('input');
  Object.assign(files, { type: 'file', id: 'ckpt-files', multiple: true });
  const folder = el('input');
  Object.assign(folder, { type: 'file', id: 'ckpt-folder', webkitdirectory: true });
  const l1 = el('label', 'small', t('ckpt.files'));
  const l2 = el('label', 'small', t('ckpt.folder'));
  l1.append(' ', files);
  l2.append(' ', folder);
  ui.progress = Object.assign(el('progress'), { id: 'ckpt-progress', max: 1, value: 0, hidden: true });
  ui.status = el('p', 'small muted');
  ui.status.id = 'ckpt-status';
  ui.status.setAttribute('aria-live', 'polite');
  ui.info = el('p', 'small');
  ui.info.id = 'ckpt-info';
  box.append(sum, el('p', 'muted small', t('ckpt.help')), l1, l2, el('p', 'muted small', t('ckpt.drop')), ui.progress, ui.status, ui.info);
  $('train-box').before(box);
  ui.box = box;
  for (const input of [files, folder])
    input.addEventListener('change', () => {
      const list = [...(input.files || [])];
      input.value = '';
      if (list.length) loadCheckpoint(list).catch(() => {});
    });
  // Before weights-io.js's drop (a single .safetensors): a folder or files with config.json.
  window.addEventListener('drop', onDrop, true);
}

function onDrop(e) {
  const items = [...(e.dataTransfer?.items || [])];
  const entries = items.map((i) => (i.webkitGetAsEntry ? i.webkitGetAsEntry() : null)).filter(Boolean);
  const names = [...(e.dataTransfer?.files || [])].map((f) => f.name);
  if (!entries.some((x) => x.isDirectory) && !names.includes('config.json')) return;
  e.preventDefault();
  e.stopPropagation();
  document.body.classList.remove('dropping');
  filesOf(entries).then((list) => loadCheckpoint(list)).catch(() => {});
}

// The files of dropped entries, a folder's own files included (one level: a checkpoint's folder).
async function filesOf(entries) {
  const out = [];
  for (const x of entries) {
    if (x.isFile) out.push(await new Promise((ok, no) => x.file(ok, no)));
    else if (x.isDirectory) {
      const inner = await new Promise((ok, no) => x.createReader().readEntries(ok, no));
      for (const y of inner) if (y.isFile) out.push(await new Promise((ok, no) => y.file((f) => ok(withFolder(f, x.name)), no)));
    }
  }
  return out;
}
function withFolder(f, folder) {
  Object.defineProperty(f, 'folderName', { value: folder });
  return f;
}

// What was given → {url} or {files, name}; a wrong argument is an Error in the reader's language.
function source(src) {
  if (typeof src === 'string' || src instanceof URL) {
    let u;
    try {
      u = new URL(String(src), location.href);
    } catch {
      throw new Error(t('ckpt.badUrl', { url: String(src).slice(0, 200) }));
    }
    if (!/^https?:$/.test(u.protocol)) throw new Error(t('ckpt.badUrl', { url: String(src).slice(0, 200) }));
    if (!u.pathname.endsWith('/')) u.pathname += '/';
    const parts = u.pathname.split('/').filter(Boolean);
    return { url: u.href, name: decodeURIComponent(parts[parts.length - 1] || u.host) };
  }
  const files = src && typeof src.length === 'number' ? [...src] : [];
  if (!files.length || !files.every((f) => f instanceof File)) throw new Error(t('ckpt.badArg'));
  const rel = files.map((f) => f.folderName || (f.webkitRelativePath || '').split('/')[0]).find(Boolean);
  return { files, name: rel || t('ckpt.unnamed') };
}

function mb(bytes) {
  return num(bytes / 1e6, 1);
}

// On a phone the box is in the closed input panel: open it (its toggle, layout-shell.js) so
// the progress shows; true if this opened it (closed again once the model is on screen).
function revealBox() {
  if (!ui.box || ui.box.getClientRects().length) return false;
  const toggle = document.getElementById('show-input');
  if (!toggle || !toggle.getClientRects().length || toggle.getAttribute('aria-expanded') === 'true') return false;
  toggle.click();
  ui.box.scrollIntoView({ block: 'center' });
  return true;
}

// The progress bar: bytes so far of the total and the time left, then the core's loading.
function progressShower() {
  const t0 = performance.now();
  ui.progress.hidden = false;
  ui.progress.removeAttribute('value');
  ui.status.textContent = t('ckpt.starting');
  return (p) => {
    if (p.phase === 'load') {
      ui.progress.removeAttribute('value');
      ui.status.textContent = t('ckpt.loading');
      return;
    }
    const frac = p.total > 0 ? p.loaded / p.total : 0;
    ui.progress.max = 1;
    ui.progress.value = frac;
    const secs = (performance.now() - t0) / 1000;
    const left = frac > 0.02 ? Math.max(0, (secs / frac) * (1 - frac)) : null;
    ui.status.textContent = t(p.phase === 'read' ? 'ckpt.reading' : 'ckpt.downloading', {
      file: p.file, loaded: mb(p.loaded), total: mb(p.total),
      left: left === null ? t('ckpt.leftUnknown') : t('ckpt.left', { seconds: num(Math.ceil(left)) }),
    });
  };
}

function ckError(msg) {
  ui.progress.hidden = true;
  ui.status.textContent = '';
  const m = $('msg');
  m.replaceChildren(el('strong', '', t('ckpt.notOpened')), document.createTextNode(msg));
  m.hidden = false;
}

// "811,728" or "109.5 million" parameters.
export function paramsText(info) {
  return info.params >= 1e6 ? t('ckpt.millions', { n: num(info.params / 1e6, 1) }) : num(info.params);
}
function describe(info) {
  const params = paramsText(info);
  // a 16-bit file's matrices stay 16-bit in memory (the core's info.precision: bf16, f16, f32)
  const half = info.precision === 'bf16' || info.precision === 'f16';
  return t(half ? 'ckpt.infoHalf' : 'ckpt.info', { name: info.name, architecture: info.architecture || info.model_type, params,
    mb: num(info.bytes / 1e6, info.bytes < 1e7 ? 2 : 0), layers: info.num_layers, d_model: info.d_model, heads: info.num_heads,
    precision: half ? info.precision.toUpperCase() : '' });
}

// Opens a checkpoint and shows it; resolves with its info once its trace is on screen.
// opts: {text, text2, step} (a link's own), else the model's kind's example sentence; chat: true
// wraps the text in the checkpoint's chat template (chat.js; a notice when it has none).
export async function loadCheckpoint(src, opts = {}) {
  let s;
  try {
    s = source(src);
  } catch (e) {
    ckError(e.message);
    throw e;
  }
  if (ui.box) ui.box.open = true;
  const opened = revealBox();
  let r;
  try {
    r = await app.engine.call('openCheckpoint', s, progressShower());
  } catch (e) {
    ckError(e.message);
    throw e;
  }
  const info = r.info;
  ui.progress.hidden = true;
  ui.status.textContent = '';
  ui.info.textContent = describe(info);
  clearError();
  const causal = info.causal === true || info.model_type === 'gpt2';  // a decoder: GPT-2, Llama, Qwen, Gemma
  const text = typeof opts.text === 'string' ? opts.text : t(causal ? 'ckpt.textCausal' : 'ckpt.textMasked');
  const preset = { name: CHECKPOINT_PRESET, title: t('ckpt.title', { name: info.name }), description: describe(info), source: '',
    model: { weights: CHECKPOINT_WEIGHTS, text } };
  installPreset(preset);
  const next = presetSettings(preset);
  next.text2 = typeof opts.text2 === 'string' ? opts.text2 : '';
  next.step = opts.step || '';
  app.checkpoint = info;
  const noChat = useChatSource(r.tokenizerConfig, opts.chat === true);
  app.urlExtra = { ...(app.urlExtra || {}), model: s.url || '' };
  if (app.chat.on) app.urlExtra.chat = '1';
  else delete app.urlExtra.chat;
  app.state = next;
  hooks.syncForm(next, true);
  try {
    await hooks.requestCompute(next, { useStateStep: !!opts.step });
  } catch (e) {
    ckError(e.message);
    throw e;
  }
  if (opened) closePanels();
  if (noChat) showNotice(noChat);
  return { ...info };
}

// The link's ?model=URL at the page's start: null once it is on screen; '' when the link names
// none; else the notice saying why it could not open (the page then shows the defaults).
export async function openLinkedCheckpoint(search) {
  const q = new URLSearchParams(search);
  const url = q.get('model');
  if (!url) return '';
  const chat = q.get('chat');
  try {
    await loadCheckpoint(url, { text: q.has('text') ? q.get('text') : undefined, text2: q.get('text2') || '', step: q.get('step') || '', chat: chat === '1' });
    if (chat !== null && chat !== '' && chat !== '0' && chat !== '1') showNotice(t('chat.badValue', { got: chat.slice(0, 40) }));
    return null;
  } catch (e) {
    app.urlExtra = { ...(app.urlExtra || {}), model: '' };
    return t('ckpt.linkFailed', { why: e.message });
  }
}
