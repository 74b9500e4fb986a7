// generate.js — the model's answer beside the walkthrough (issue 10): for an encoder–decoder,
// a "Generate" control that decodes greedily — run the decoder, take the argmax of the last
// row, append it, run again, until </s> — listing every round (the decoder input growing, the
// chosen token and its probability); any round can be revisited (the walkthrough then shows
// that round). A classifier shows its predicted label and every label's probability. And the
// switch that adds the backward pass to the walkthrough. A decoder-only checkpoint (GPT-2,
// model/stack.js) generates the same way from its text (until <|endoftext|> or its length
// limit); its rounds are listed, not revisited (the page holds its text, not the ids).
import { t, num } from '../lib/i18n.js';
import { bytePieceText } from '../lib/format.js';
import { decoderOnly } from '../model/stack.js';
import { app } from './app.js';
import { $, el } from '../lib/dom.js';
import { chooseRound } from './run-options.js';
import { unknownNote } from './provenance.js';
import { updateTargets } from './targets.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let hooks = null;
let animating = 0;

// The model generates: an encoder–decoder, or a decoder-only checkpoint.
const generates = (trace) => !!trace && (trace.config.decoder_layers > 0 || decoderOnly(trace));

export function installGenerate(h) {
  hooks = h;
  $('generate').textContent = t('generate.button');
  $('generate').addEventListener('click', () => generate().catch(() => {}));
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
  try {
    await hooks.requestCompute(app.state, maxTokens === undefined ? { generate: true } : { generate: true, max_len: maxTokens });
    await showRounds(true);
    return app.rounds ? app.rounds.generated.slice() : [];
  } finally {
    $('generate').disabled = false;
  }
}

// A decoder-only checkpoint's pieces are GPT-2's byte-level ones ("Ġmat"): shown as text.
function roundText(r, k, dec) {
  const shown = dec ? bytePieceText : (x) => x;
  const input = [...(dec ? [] : ['<s>']), ...(r.decoder_input ? r.decoder_input.split(' ').map(shown) : [])].join(' ');
  return { n: `${k + 1}.`, input, token: shown(r.token), p: `p = ${num(r.prob, 3)}` };
}

// The list of rounds; `animate` adds them one by one (what the loop did, in order).
async function showRounds(animate) {
  const list = $('rounds');
  const r = app.rounds;
  const token = ++animating;
  const dec = decoderOnly(app.trace);
  list.replaceChildren();
  $('gen-output').textContent = r ? t('generate.output', { tokens: r.generated.map(dec ? bytePieceText : (x) => x).join(' ') || t(dec ? 'generate.nothing.decoderOnly' : 'generate.nothing') }) : '';
  if (!r) return;
  const current = app.round ? app.round.index : r.list.length - 1;
  for (let k = 0; k < r.list.length; k++) {
    if (animate) await sleep(140);
    if (token !== animating) return;
    const rt = roundText(r.list[k], k, dec);
    const b = el(dec ? 'span' : 'button', 'round');
    b.type = 'button';
    b.dataset.round = k;
    b.append(el('span', 'round-n', rt.n), el('span', 'round-in mono', rt.input), el('span', 'round-arrow', ' → '),
      el('strong', 'round-tok mono', rt.token), el('span', 'round-p muted', ` ${rt.p}`));
    b.title = t(dec ? 'generate.round.decoderOnly' : 'generate.round', { n: k + 1, input: rt.input, token: rt.token, p: rt.p });
    if (k === current) b.setAttribute('aria-current', 'step');
    if (!dec)
      b.addEventListener('click', () => {
        chooseRound(k, app.state);
        hooks.requestCompute(app.state).catch(() => {});
      });
    const li = el('li');
    li.append(b);
    list.append(li);
  }
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
  if (dec) showRounds(false);
  $('backward').checked = app.backward;
  const bm = app.lastMeta && app.lastMeta.backward_ms;
  const err = app.lastMeta && app.lastMeta.backward_error;
  updateTargets(app.lastMeta);
  $('backward-ms').textContent = !app.backward ? '' : err ? t('generate.noBackward', { why: err }) : bm !== undefined ? t('generate.backwardMs', { ms: num(bm, 2) }) : '';
}
