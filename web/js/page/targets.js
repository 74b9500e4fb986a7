// targets.js — what a checkpoint's backward pass predicts (issue 19): a classifier's class (a
// select of its labels, the predicted one first) and a masked LM's word behind each [MASK] (one
// input per [MASK], in order, the model's top fill first, so the switch alone shows gradients).
// They go into the run options as the CLI's --label and --mask-targets (run-options.js). A word
// must be one token of the checkpoint's vocabulary (the core looks it up as a whole); any other
// gets a message naming it and what it would become, and the last good word stays in the run.
import { t } from '../lib/i18n.js';
import { $, el } from '../lib/dom.js';
import { app } from './app.js';

let hooks = null;
// label: a class index (null: the prediction's); masks: a word per [MASK] for `key` (the text).
// labels: the classes the label is of (another classifier starts at its own prediction).
// kind: 'cls' or 'mlm', the checkpoint of the last run (only its target is sent).
const targets = { kind: null, label: null, labels: null, key: null, masks: null, bad: [] };

export function installTargets(h) {
  hooks = h;
}

const textKey = (s) => `${s.text || ''}\u0000${s.text2 || ''}`;

// The run options of the targets chosen for this state (none yet: the core says what is missing).
export function targetOptions(state) {
  const o = {};
  if (targets.kind === 'cls' && targets.label !== null) o.label = targets.label;
  if (targets.kind === 'mlm' && targets.masks && targets.key === textKey(state)) o.mask_targets = targets.masks.slice();
  return o;
}

// Kept across a language switch's reload with the backward switch (run-options.js).
export function carriedTargets() {
  return { kind: targets.kind, label: targets.label, labels: targets.labels, key: targets.key, masks: targets.masks };
}
export function restoreTargets(c) {
  if (!c || typeof c !== 'object') return;
  if (c.kind === 'cls' || c.kind === 'mlm') targets.kind = c.kind;
  if (Number.isInteger(c.label) && c.label >= 0 && typeof c.labels === 'string') Object.assign(targets, { label: c.label, labels: c.labels });
  if (typeof c.key === 'string' && Array.isArray(c.masks) && c.masks.every((w) => typeof w === 'string'))
    Object.assign(targets, { key: c.key, masks: c.masks.slice(), bad: [] });
}

// A word as the vocabulary holds it (as typed, else lower case), or null.
function vocabWord(word, vocab) {
  if (vocab.has(word)) return word;
  return vocab.has(word.toLowerCase()) ? word.toLowerCase() : null;
}

// What a word not in the vocabulary would become: longest known pieces (WordPiece's "##"
// continuations), else the unknown token.
function pieces(word, vocab) {
  const out = [];
  const w = word.toLowerCase();
  for (let i = 0; i < w.length;) {
    let j = w.length;
    while (j > i && !vocab.has((i ? '##' : '') + w.slice(i, j))) j--;
    if (j === i) return [vocab.has('<unk>') ? '<unk>' : '[UNK]'];
    out.push((i ? '##' : '') + w.slice(i, j));
    i = j;
  }
  return out.length ? out : [vocab.has('<unk>') ? '<unk>' : '[UNK]'];
}

function rerun() {
  hooks.requestCompute(app.state).catch(() => {});
}

// A classifier: the select of its classes.
function classSelect(pr) {
  const sel = el('select');
  sel.id = 'bw-label';
  pr.labels.forEach((name, i) => {
    const o = el('option', '', name || t('generate.targets.class', { n: i }));
    o.value = String(i);
    sel.append(o);
  });
  sel.value = String(targets.label);
  sel.addEventListener('change', () => {
    targets.label = Number(sel.value);
    rerun();
  });
  const lab = el('label', 'bw-target', t('generate.targets.label'));
  lab.htmlFor = 'bw-label';
  return [lab, sel];
}

// A masked LM: an input per [MASK]; a word checked against the vocabulary when changed.
function maskInputs(vocab) {
  return targets.masks.map((w, k) => {
    const inp = el('input', 'bw-mask mono');
    Object.assign(inp, { id: `bw-mask-${k}`, type: 'text', value: targets.bad[k] ?? w, spellcheck: false, autocomplete: 'off' });
    inp.size = 10;
    if (targets.bad[k] !== undefined) inp.setAttribute('aria-invalid', 'true');
    inp.addEventListener('change', () => {
      const typed = inp.value.trim();
      const word = vocabWord(typed, vocab);
      if (word === null) {
        targets.bad[k] = typed;
        inp.setAttribute('aria-invalid', 'true');
        showBad(vocab);
        return;
      }
      delete targets.bad[k];
      inp.removeAttribute('aria-invalid');
      targets.masks[k] = word;
      showBad(vocab);
      rerun();
    });
    const lab = el('label', 'bw-target', t('generate.targets.mask', { n: k + 1 }));
    lab.htmlFor = inp.id;
    const pair = el('span', 'bw-pair');
    pair.append(lab, inp);
    return pair;
  });
}

function showBad(vocab) {
  const why = $('bw-why');
  if (!why) return;
  why.textContent = targets.bad.map((w, k) => (w === undefined ? '' : t('generate.targets.notOneToken', { n: k + 1, word: w, pieces: pieces(w, vocab).join(' ') }))).filter(Boolean).join(' ');
}

// The [MASK] inputs as the reader left them: a word typed but not yet committed (its change
// event comes on Enter or leaving the input) and the focus. A run that lands meanwhile (the
// previous input's word) rebuilds the inputs, which would otherwise put back the last committed
// word under the reader's typing.
function typedWords(box) {
  return [...box.querySelectorAll('input.bw-mask')].map((inp) => ({
    id: inp.id, value: inp.value, focused: document.activeElement === inp, sel: [inp.selectionStart, inp.selectionEnd],
  }));
}
function keepTyping(typing) {
  for (const w of typing) {
    const inp = document.getElementById(w.id);
    if (!inp) continue;
    inp.value = w.value;
    if (w.focused) {
      inp.focus();
      inp.setSelectionRange(w.sel[0], w.sel[1]);
    }
  }
}

// After every run: the targets' controls for this checkpoint (hidden without the switch).
export function updateTargets(meta) {
  const box = $('bw-targets');
  const on = app.backward && app.state.preset === 'checkpoint' && !!meta;
  const pr = on && !meta.fills && meta.prediction;
  const fills = on && meta.fills;
  box.hidden = !(pr || fills);
  if (box.hidden) return box.replaceChildren();
  const why = el('span', 'bw-why small');
  why.id = 'bw-why';
  why.setAttribute('aria-live', 'polite');
  let fresh = targets.kind !== (pr ? 'cls' : 'mlm');
  targets.kind = pr ? 'cls' : 'mlm';
  if (pr) {
    const labels = pr.labels.join('\n');
    if (targets.label === null || targets.labels !== labels) {
      Object.assign(targets, { label: Math.max(0, pr.labels.indexOf(pr.label)), labels });
      fresh = true;
    }
    box.replaceChildren(...classSelect(pr), why);
  } else if (!fills.length) {
    box.replaceChildren(el('span', 'bw-why small', t('generate.targets.noMask')));
    return;
  } else {
    const key = textKey(app.state);
    if (targets.key !== key || !targets.masks || targets.masks.length !== fills.length) {
      Object.assign(targets, { key, masks: fills.map((f) => f[0].token), bad: [] });
      fresh = true;
    }
    const vocab = new Set((app.trace && app.trace.text.vocab) || []);
    const typing = typedWords(box);
    box.replaceChildren(el('span', 'bw-target muted', t('generate.targets.masks')), ...maskInputs(vocab), why);
    if (!fresh) keepTyping(typing);
    showBad(vocab);
  }
  if (fresh && meta.backward_error) rerun();
}
