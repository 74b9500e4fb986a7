// generate.js — the model's answer beside the walkthrough (issue 10): for an encoder–decoder,
// a "Generate" control that decodes greedily — run the decoder, take the argmax of the last
// row, append it, run again, until </s> — listing every round (the decoder input growing, the
// chosen token and its probability); any round can be revisited (the walkthrough then shows
// that round). A classifier shows its predicted label and every label's probability. And the
// switch that adds the backward pass to the walkthrough. A decoder-only checkpoint (GPT-2,
// model/stack.js) generates the same way from its text (until <|endoftext|> or its length
// limit); its rounds are listed, not revisited (the page holds its text, not the ids).
// Generation streams (issues 30, 31): each round reaches the page as the core ends it (the
// Worker's {id, stream} messages, engine.js onStream) and is shown at once — the output
// growing, round k of at most max, and for a decoder-only model the key/value cache as a strip
// of rows (the prompt's, filled once by the prefill; one per generated token; the newest marked)
// with its size, and the prefill's and the decode's times apart. Every number is the core's
// (GenProgress, the final reply's timing); a stream that no longer matches what the page shows
// (the reader typed, opened another model) draws nothing.
import { t, num } from '../lib/i18n.js';
import { bytePieceText, msText } from '../lib/format.js';
import { decoderOnly } from '../model/stack.js';
import { app } from './app.js';
import { $, el } from '../lib/dom.js';
import { chooseRound } from './run-options.js';
import { unknownNote } from './provenance.js';
import { updateTargets } from './targets.js';
import { goTo } from './step-card.js';

let hooks = null;
// The generation being streamed, or the last one streamed: {state, checkpoint, dec, heads,
// rounds: [GenProgress as JSON], id (the engine call's), stale, done (app.rounds once it ended)}.
let live = null;

// The model generates: an encoder–decoder, or a decoder-only checkpoint.
const generates = (trace) => !!trace && (trace.config.decoder_layers > 0 || decoderOnly(trace));

export function installGenerate(h) {
  hooks = h;
  $('generate').textContent = t('generate.button');
  $('generate').addEventListener('click', () => generate().catch(() => {}));
  const box = el('div', 'gen-live');
  box.id = 'gen-live';
  box.hidden = true;
  const bar = el('progress');
  bar.id = 'gen-progress';
  bar.setAttribute('aria-labelledby', 'gen-progress-text');
  const status = el('span', 'gen-progress-text small');
  status.id = 'gen-progress-text';
  status.setAttribute('role', 'status');
  const row = el('div', 'gen-progress-row');
  row.append(bar, status);
  const cache = el('figure', 'kv-box');
  cache.id = 'kv-box';
  cache.hidden = true;
  const strip = el('button', 'kv-strip');
  strip.id = 'kv-strip';
  strip.type = 'button';
  strip.addEventListener('click', () => openCache());
  const size = el('p', 'kv-size small');
  size.id = 'kv-size';
  const cap = el('figcaption', 'kv-caption small');
  cap.id = 'kv-caption';
  const legend = el('p', 'kv-legend small muted');
  legend.id = 'kv-legend';
  legend.setAttribute('aria-hidden', 'true');
  cache.append(cap, strip, legend, size);
  const timing = el('p', 'gen-timing small');
  timing.id = 'gen-timing';
  box.append(row, cache, timing);
  $('rounds').before(box);
  if (app.engine) app.engine.onStream = onStream;
  $('backward').addEventListener('change', () => {
    app.backward = $('backward').checked;
    hooks.requestCompute(app.state).catch(() => {});
  });
}

// Decodes and shows the rounds one after the other; resolves with the generated tokens.
// maxTokens: at most that many rounds (the core's default, 32, without it).
export async function generate({ maxTokens } = {}) {
  if (!generates(app.trace)) throw new Error(t('generate.needsDecoder'));
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && maxTokens >= 1 && maxTokens <= 100000))
    throw new Error(t('generate.badMax', { value: String(maxTokens) }));
  $('generate').disabled = true;
  if (app.engine) app.engine.onStream = onStream;  // the engine may have been replaced since install
  const mine = { state: app.state, checkpoint: app.checkpoint, dec: decoderOnly(app.trace), rounds: [], id: null, stale: false, done: null };
  live = mine;
  $('rounds').replaceChildren();
  $('gen-output').textContent = '';
  try {
    await hooks.requestCompute(app.state, maxTokens === undefined ? { generate: true } : { generate: true, max_len: maxTokens });
    if (live === mine && !mine.stale && mine.rounds.length) mine.done = app.rounds;
    showRounds();
    drawLive();
    return app.rounds ? app.rounds.generated.slice() : [];
  } catch (e) {
    mine.stale = true;  // a run that failed half-way: its rounds are no answer (the page says why)
    drawLive();
    throw e;
  } finally {
    $('generate').disabled = false;
  }
}

// A stream is this page's while the state and the model it was asked for are still the ones
// shown (app.state is replaced on every change: the text typed, a preset, an opened model).
function current(g) {
  return g && !g.stale && g.state === app.state && g.checkpoint === app.checkpoint;
}

// One round from the Worker (engine.js onStream): shown at once, if it is still this page's.
function onStream(round, id) {
  const g = live;
  if (!g || g.done) return;  // a run no generate() asked for (a trained model's recompute), or one already ended
  if (g.id === null && round.round === 0) g.id = id;
  if (id !== g.id || round.round !== g.rounds.length) return;  // another call's rounds, or out of order
  if (!current(g)) {
    g.stale = true;
    $('gen-live').hidden = true;
    return;
  }
  g.rounds.push({ ...round, shownAt: performance.timeOrigin + performance.now() });
  appendRound(round, g.rounds.length - 1, g.dec, false, true);
  const tokens = g.rounds.filter((r) => !r.end).map((r) => shownPiece(r.token, g.dec));
  $('gen-output').textContent = t('generate.output', { tokens: tokens.join(' ') });
  drawLive();
}

const shownPiece = (p, dec) => (dec ? bytePieceText(p) : p);

// A decoder-only checkpoint's pieces are GPT-2's byte-level ones ("Ġmat"): shown as text.
function roundText(r, k, dec) {
  const shown = dec ? bytePieceText : (x) => x;
  const input = [...(dec ? [] : ['<s>']), ...(r.decoder_input ? r.decoder_input.split(' ').map(shown) : [])].join(' ');
  return { n: `${k + 1}.`, input, token: shown(r.token), p: `p = ${num(r.prob, 3)}` };
}

// One round of the list: {decoder_input, token, prob} (the reply's rounds) or a streamed round
// ({input, token, prob}); `current` marks the round the walkthrough shows. A streamed round is
// revisited once the reply lists it (its list replaces the streamed one).
function appendRound(r, k, dec, current, streamed = false) {
  const rt = roundText({ decoder_input: r.decoder_input ?? r.input, token: r.token, prob: r.prob }, k, dec);
  const b = el(dec ? 'span' : 'button', 'round');
  b.type = 'button';
  b.dataset.round = k;
  b.append(el('span', 'round-n', rt.n), el('span', 'round-in mono', rt.input), el('span', 'round-arrow', ' → '),
    el('strong', 'round-tok mono', rt.token), el('span', 'round-p muted', ` ${rt.p}`));
  b.title = t(dec ? 'generate.round.decoderOnly' : 'generate.round', { n: k + 1, input: rt.input, token: rt.token, p: rt.p });
  if (current) b.setAttribute('aria-current', 'step');
  if (!dec && !streamed)
    b.addEventListener('click', () => {
      chooseRound(k, app.state);
      hooks.requestCompute(app.state).catch(() => {});
    });
  const li = el('li');
  li.append(b);
  // A decoder-only model's rounds are text, not buttons: the list itself takes the focus, so a
  // keyboard scrolls it (it scrolls past 220 px).
  if (dec) $('rounds').tabIndex = 0;
  else $('rounds').removeAttribute('tabindex');
  $('rounds').append(li);
  $('rounds').scrollTop = $('rounds').scrollHeight;
}

// The list of rounds of the last generation (the reply's: the streamed ones were these).
function showRounds() {
  const r = app.rounds;
  const dec = decoderOnly(app.trace);
  $('rounds').replaceChildren();
  $('gen-output').textContent = r ? t('generate.output', { tokens: r.generated.map(dec ? bytePieceText : (x) => x).join(' ') || t(dec ? 'generate.nothing.decoderOnly' : 'generate.nothing') }) : '';
  if (!r) return;
  const current = app.round ? app.round.index : r.list.length - 1;
  r.list.forEach((x, k) => appendRound(x, k, dec, k === current));
}

// A byte count as the reader reads it: bytes, KiB or MiB (1024-based, as the unit says).
function bytesText(b) {
  if (b < 1024) return t('generate.bytes', { value: num(b, 0) });
  if (b < 1024 * 1024) return t('generate.kib', { value: num(b / 1024, 1) });
  return t('generate.mib', { value: num(b / (1024 * 1024), 1) });
}

// The streamed generation's panel: progress, the cache strip and its size, the times. Drawn
// while it streams and, once it ended, while its rounds are the ones the page lists.
function drawLive() {
  const g = live;
  const box = $('gen-live');
  const shown = g && !g.stale && g.rounds.length && (g.done ? g.done === app.rounds : current(g));
  box.hidden = !shown;
  if (!shown) return;
  const last = g.rounds[g.rounds.length - 1];
  const finished = !!g.done;
  const bar = $('gen-progress');
  bar.max = last.max_len;
  bar.value = finished ? last.max_len : last.round + 1;
  bar.hidden = finished;
  $('gen-progress-text').textContent = finished
    ? t(last.end ? 'generate.progress.ended' : 'generate.progress.limit', { n: g.rounds.length, max: num(last.max_len, 0) })
    : t('generate.progress', { k: num(last.round + 1, 0), max: num(last.max_len, 0) });
  drawCache(g, last, finished);
  drawTiming(g, finished);
}

// The cache as a strip of rows: rows 0 … prompt−1 the prompt's (prefill), then one row per
// generated token whose K and V a later round computed; the newest marked. Its size from the
// core's geometry: rows × layers × K/V heads × head_dim, for K and for V, in float32.
function drawCache(g, last, finished) {
  const box = $('kv-box');
  const rows = last.cache_rows;
  const uncached = g.rounds.some((r) => r.phase === 'full');  // the lab's interventions: every round whole
  box.hidden = !g.dec || (!rows && !uncached);  // one round alone (a limit of 1) needs no cache
  if (box.hidden) return;
  const strip = $('kv-strip');
  if (!rows) {
    strip.hidden = true;
    $('kv-legend').replaceChildren();
    $('kv-caption').textContent = t('generate.cache.none');
    $('kv-size').textContent = '';
    return;
  }
  strip.hidden = false;
  const prompt = last.prompt;
  const pieces = g.rounds[0].input ? g.rounds[0].input.split(' ') : [];
  const cells = strip.children;
  while (cells.length > rows) strip.lastChild.remove();
  for (let i = cells.length; i < rows; i++) {
    const c = el('span', i < prompt ? 'kv-row kv-prompt' : 'kv-row kv-gen');
    c.setAttribute('aria-hidden', 'true');
    // Row i ≥ prompt holds generated token i − prompt (round i − prompt chose it); round i − prompt + 1 computed its K and V.
    c.title = i < prompt
      ? t('generate.cache.row.prompt', { i, token: shownPiece(pieces[i] || '', true) })
      : t('generate.cache.row.gen', { i, token: shownPiece(g.rounds[i - prompt].token, true), r: i - prompt + 1, c: i - prompt + 2 });
    strip.append(c);
  }
  for (let i = 0; i < cells.length; i++) cells[i].classList.toggle('kv-new', i === rows - 1 && last.round > 0);
  strip.classList.toggle('kv-dense', rows > 100);  // a long prompt: rows narrower than a pixel, none clipped
  const gen = rows - prompt;
  $('kv-caption').textContent = t('generate.cache.caption', { rows: num(rows, 0), prompt: num(prompt, 0), gen: num(gen, 0) });
  $('kv-legend').replaceChildren(...['prompt', 'gen', 'new'].map((k) => {
    const key = el('span', 'kv-key');
    key.append(el('span', `kv-row kv-swatch kv-${k}`), el('span', '', t(`generate.cache.legend.${k}`)));
    return key;
  }));
  const per = last.layers * last.kv_heads * last.head_dim;
  const numbers = rows * per;
  const size = t('generate.cache.size', { rows: num(rows, 0), layers: num(last.layers, 0), kv: num(last.kv_heads, 0), hd: num(last.head_dim, 0),
    numbers: num(numbers, 0), bytes: bytesText(2 * numbers * 4) });
  const gqa = last.heads > last.kv_heads ? ' ' + t('generate.cache.gqa', { heads: num(last.heads, 0), kv: num(last.kv_heads, 0), ratio: num(last.heads / last.kv_heads, 0) }) : '';
  $('kv-size').textContent = size + gqa;
  const alt = t('generate.cache.alt', { rows: num(rows, 0), p1: num(prompt - 1, 0), prompt: num(prompt, 0), gen: num(gen, 0), newest: num(rows - 1, 0) });
  const canOpen = finished && app.trace && !!app.trace.get('layer0.k_cache');
  strip.disabled = !canOpen;
  strip.setAttribute('aria-label', `${alt} ${size}${canOpen ? ' ' + t('generate.cache.open') : ''}`);
  strip.title = canOpen ? t('generate.cache.open') : '';
}

// Prefill and decode apart, as the core measured them: per round while it streams, and the
// reply's GenTiming once it ended (the same clock readings). An encoder–decoder's rounds each
// run the whole decoder, recorded.
function drawTiming(g, finished) {
  const p = $('gen-timing');
  const meta = app.lastMeta;
  const tm = finished && meta && meta.timing && meta.rounds === (app.rounds && app.rounds.list) ? meta.timing : null;
  const prefill = g.rounds.find((r) => r.phase === 'prefill');
  const decodes = g.rounds.filter((r) => r.phase === 'decode');
  const fulls = g.rounds.filter((r) => r.phase === 'full' || r.phase === 'record');
  const parts = [];
  if (g.dec && prefill) parts.push(t('generate.timing.prefill', { tokens: num(prefill.prompt, 0), ms: msText(tm ? tm.prefill_ms : prefill.ms) }));
  const n = tm ? tm.decode_rounds : decodes.length;
  const ms = tm ? tm.decode_ms : decodes.reduce((a, r) => a + r.ms, 0);
  if (n > 0) parts.push(t('generate.timing.decode', { per: msText(ms / n), n: num(n, 0), rate: num((1000 * n) / ms, ms / n < 10 ? 0 : 1) }));
  if (g.dec) {
    const rec = tm ? tm.record_ms : g.rounds.filter((r) => r.phase === 'record').reduce((a, r) => a + r.ms, 0);
    const full = g.rounds.filter((r) => r.phase === 'full');
    if (full.length) parts.push(t('generate.timing.full', { per: msText(full.reduce((a, r) => a + r.ms, 0) / full.length), n: num(full.length, 0) }));
    else if (rec > 0) parts.push(t('generate.timing.record', { ms: msText(rec) }));
  } else if (fulls.length) {
    parts.push(t('generate.timing.full', { per: msText(fulls.reduce((a, r) => a + r.ms, 0) / fulls.length), n: num(fulls.length, 0) }));
  }
  p.textContent = parts.join(' · ');
  p.title = t('generate.timing.title');
}

// The cache strip opens the K cache step of the final round's walkthrough (layer 0).
function openCache() {
  if (app.trace && app.trace.get('layer0.k_cache')) goTo('layer0.k_cache');
}

// The label, every label's probability, and beside them the tokens the model read as <unk>
// (the CLI prints the same sentence above its prediction).
function showPrediction(meta, trace) {
  const p = $('prediction');
  const pr = meta && meta.prediction;
  p.hidden = !pr;
  if (!pr) return;
  const unk = unknownNote(trace);
  p.replaceChildren(el('span', 'muted', t('generate.prediction')), el('strong', '', pr.label), el('span', 'muted',
    ` (${pr.labels.map((l, i) => `${l} ${t('generate.percent', { value: num(100 * pr.probs[i], 1) })}`).join(' · ')})`),
  ...(unk ? [el('span', 'unk-note', ` ${unk}`)] : []));
}

// After every new trace: the panel for this model.
export function updateModelPanel(trace) {
  const dec = generates(trace);
  $('gen-box').hidden = !dec;
  $('generate').title = t(decoderOnly(trace) ? 'generate.buttonTitle.decoderOnly' : 'generate.buttonTitle');
  showPrediction(app.lastMeta, trace);
  if (dec) showRounds();
  drawLive();
  $('backward').checked = app.backward;
  const bm = app.lastMeta && app.lastMeta.backward_ms;
  const err = app.lastMeta && app.lastMeta.backward_error;
  updateTargets(app.lastMeta);
  $('backward-ms').textContent = !app.backward ? '' : err ? t('generate.noBackward', { why: err }) : bm !== undefined ? t('generate.backwardMs', { ms: num(bm, 2) }) : '';
}
