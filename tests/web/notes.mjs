#!/usr/bin/env node
// notes.mjs — the step titles, notes and notation key (web/js/model/titles.js, web/js/view/notes/*, view/notation.js) on every
// step of every preset and of the trained presets with the backward pass, and of a random
// checkpoint of each family (BERT pair, BERT classifier, GPT-2, DistilBERT), in English and
// German, on traces built in Node by the wasm module (as tests/web/kinds.mjs builds them):
// every step gets a title and a note from the catalog (no ⟦key⟧), each note names a tutorial
// by its title, and the facts a note quotes (masks' blocked entries, the scores' spreads, each
// query's most-attended key with its weight, the residuals' ratios, LayerNorm's statistics, the
// loss) are recomputed here from the step's raw data and the trace's token lists — not through
// the page's note helpers — and looked for in the English note. (A planted off-by-one in the
// page's attendedFacts, which the former check compared the note with, fails 397 of them.)
//
//   node tests/web/notes.mjs [--module build/wasm/node/encoder_walkthrough_node.js] [--verbose]
import { existsSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { root, arg, loadWasmModule } from '../harness.mjs';
import { traceOf as pageTrace, checkpointTraceOf } from './page-trace.mjs';
import { execFileSync } from 'node:child_process';
import { setLang, loadAllLangs, t } from '../../web/js/lib/i18n.js';
import { stepTitle, stepCrumbs } from '../../web/js/model/titles.js';
import { noteFor } from '../../web/js/view/notes/index.js';
import { scaledFacts, attendedFacts } from '../../web/js/view/notes/attention.js';
import { notationEntries } from '../../web/js/view/notation.js';
await loadAllLangs(); // the German catalog too (the page fetches a language's catalog when asked: i18n.js)

const modPath = path.resolve(root, arg('--module', 'build/wasm/node/encoder_walkthrough_node.js'));
if (!existsSync(modPath)) {
  console.error(`notes: wasm module not found at ${modPath}`);
  process.exit(2);
}
const verbose = process.argv.includes('--verbose');
const M = await loadWasmModule(modPath);
const engine = new M.Engine();
const presets = JSON.parse(M.presetsJson());

// The page's Trace of a model (tests/web/page-trace.mjs).
function traceOf(model, options) {
  return pageTrace(engine, model, options);
}

// Models beyond the presets (as tests/web/kinds.mjs has them): learned positions with a
// decoder, causal, a padded batch, post-norm without scaling, no positions.
const EXTRA = [
  { config: { seed: 7, d_model: 12, num_heads: 3, d_ff: 20, num_layers: 2, decoder_layers: 2, norm: 'pre', activation: 'gelu',
    positional: 'learned', causal: true, num_labels: 3 }, text: 'the frost was hard and the snow lay deep', text2: 'earth stood hard' },
  { config: { seed: 7, d_model: 8, num_heads: 4, d_ff: 16, num_layers: 1, decoder_layers: 1, scale: false },
    text: 'in the bleak midwinter frosty wind made moan', text2: 'earth stood' },
  { config: { seed: 7, d_model: 6, num_heads: 1, d_ff: 10, positional: 'none' }, text: 'a b c b a' },
  { config: { seed: 3, d_model: 8, num_heads: 2, d_ff: 12, num_layers: 2, decoder_layers: 2, norm: 'post', activation: 'relu' },
    text: 'one two three four', target: 'a b c' },
];

const TUTORIALS = ['encoder', 'fundamentals', 'understanding', 'math', 'anatomy'];
const problems = [];
let checked = 0;
function walk(name, trace, trained) {
  const tuts = TUTORIALS.map((k) => t(`notes.tut.${k}`));
  for (const s of trace.steps) {
    const title = stepTitle(s, trace), note = noteFor(s, trace, { trained }), crumbs = stepCrumbs(s, trace);
    const where = `${name}: ${s.id}`;
    if (!title || /⟦/.test(title + crumbs)) problems.push(`${where}: title "${title}" / crumbs "${crumbs}"`);
    if (!note || /⟦|NaN|undefined|Infinity/.test(note)) problems.push(`${where}: note "${note}"`);
    else if (!tuts.some((x) => note.includes(x))) problems.push(`${where}: the note names no tutorial`);
    if (s.place.section === 'decoder' && /Encoder input|Encoder-Eingabe/.test(title)) problems.push(`${where}: "${title}" in the decoder`);
    if (verbose) console.log(`${where}\n  ${title}\n  ${crumbs}\n  ${note}`);
    checked++;
  }
  for (const e of notationEntries(trace)) if (/⟦/.test(t(e.key))) problems.push(`${name}: notation ${e.sym} has no meaning (${e.key})`);
}

// A recomputed fact: the spread of the scaled scores with and without 1/√d_k.
function checkScaled(name, trace) {
  const s = trace.steps.find((x) => x.role === 'scaled');
  const S = trace.get(s.inputs[0]);
  const dk = trace.config.d_model / trace.config.num_heads;
  const f = scaledFacts(s, trace);
  const L = trace.layout(s);
  let raw = 0, sc = 0;
  for (let r = 0; r < L.rows; r++) {
    const a = [], b = [];
    for (let c = 0; c < L.cols; c++) if (Number.isFinite(s.data[r * L.cols + c])) { a.push(S.data[r * L.cols + c]); b.push(s.data[r * L.cols + c]); }
    raw += Math.max(...a) - Math.min(...a);
    sc += Math.max(...b) - Math.min(...b);
  }
  raw /= L.rows; sc /= L.rows;
  if (Math.abs(f.spreadRaw - raw) > 1e-5 * raw || Math.abs(f.spreadScaled - sc) > 1e-5 * sc) problems.push(`${name}: spreads ${f.spreadRaw}, ${f.spreadScaled} vs ${raw}, ${sc}`);
  if (trace.config.scale !== false && Math.abs(raw / Math.sqrt(dk) - sc) > 1e-4 * sc) problems.push(`${name}: scaled spread ${sc} is not raw ${raw} / √${dk}`);
}

// A random checkpoint of each family (as kinds.mjs opens them): BERT's token types, its heads'
// transform and pooler, GPT-2's decoder words and byte-level pieces, DistilBERT.
const ckDir = path.join(root, 'build', 'notes-ck');
execFileSync('/usr/bin/python3', [path.join(root, 'tests/browser/write_checkpoints.py'), '--small', ckDir]);
const CKPTS = [['bert-mlm', 'the cat sat on the [MASK] .', 'it ran in the park .'], ['bert-cls', 'the cat sat on the mat .', 'the dog ran .'],
  ['gpt2-lm', 'the cat sat on the mat', ''], ['distil-f16', 'the dog ran in the park .', 'it sat on a mat .']]
  .map(([dir, text, text2]) => ({ dir, text, text2, trace: checkpointTraceOf(engine, path.join(ckDir, dir), text, text2) }));

for (const lang of ['en', 'de']) {
  setLang(lang);
  for (const c of CKPTS) {
    walk(`${lang} checkpoint ${c.dir}`, c.trace, true);
    for (const s of c.trace.steps) {
      const words = stepTitle(s, c.trace) + stepCrumbs(s, c.trace) + noteFor(s, c.trace, { trained: true });
      if (/[\u0120\u2581]/.test(words)) problems.push(`${lang} ${c.dir} ${s.id}: a raw piece: ${words}`);
      // (the tutorial a note follows may have "Encoder" in its title)
      if (c.dir.startsWith('gpt2') && /encoder/i.test(words.replaceAll(t('notes.tut.encoder'), ''))) problems.push(`${lang} ${c.dir} ${s.id}: the decoder called an encoder: ${words}`);
    }
  }
  for (const p of presets) {
    const trained = typeof p.model.weights === 'string';
    walk(`${lang} ${p.name}`, traceOf(p.model), trained);
    if (trained) walk(`${lang} ${p.name} + backward`, traceOf(p.model, { backward: true }), trained);
  }
  EXTRA.forEach((m, k) => {
    walk(`${lang} extra model ${k}`, traceOf(m), false);
    walk(`${lang} extra model ${k} + backward`, traceOf(m, { backward: true }), false);
  });
}
setLang('en');
for (const p of presets.filter((x) => x.name === 'default' || x.name === 'trained-number-words')) checkScaled(p.name, traceOf(p.model));
// The facts the English notes quote, recomputed here from each step's raw data, its shape and
// the trace's token lists — never through the page's note helpers (web/js/notes/*) — and
// looked for in the note's text, formatted as English prose formats them (Intl, en).
const en = (x, d) => Number(x).toLocaleString('en', { minimumFractionDigits: d, maximumFractionDigits: d });
// A step's rows as plain arrays (the last axis is the row), and each axis's token labels.
function rowsOfStep(s) {
  const cols = s.shape.length ? s.shape[s.shape.length - 1] : 1;
  return Array.from({ length: s.data.length / cols }, (_, r) => Array.from(s.data.subarray(r * cols, (r + 1) * cols)));
}
const fin = (xs) => xs.filter((x) => Number.isFinite(x));
const avg = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const len = (xs) => Math.sqrt(xs.reduce((a, b) => a + b * b, 0));
function tokenLabel(trace, labels, b, i) {
  if (labels === 'target') return trace.text.target_tokens[i];
  if (labels === 'source') return trace.text.source_tokens[b][i] ?? '<pad>';
  return null;
}
// The first sentence's rows of an attention step: [{q, k, w, n}] (the most-attended key of each).
function topKeys(trace, s) {
  const rows = rowsOfStep(s), per = s.shape[s.shape.length - 2];
  return rows.slice(0, per).map((row, i) => {
    let j = -1;
    row.forEach((x, c) => { if (Number.isFinite(x) && (j < 0 || x > row[j])) j = c; });
    return { q: tokenLabel(trace, s.axes[s.axes.length - 2].labels, 0, i), k: tokenLabel(trace, s.axes[s.axes.length - 1].labels, 0, j), w: row[j], n: row.filter((x) => x > 0).length };
  });
}
const EXPECT = {
  mask: (s) => {
    const blocked = s.data.filter((x) => x === -Infinity).length;
    return [blocked ? `Here ${blocked} of ${s.data.length} entries are blocked.` : `Here none of the ${s.data.length} entries is blocked`];
  },
  scores: (s) => [`the rows span ${en(avg(rowsOfStep(s).map((r) => Math.max(...fin(r)) - Math.min(...fin(r)))), 2)} on average`],
  scaled: (s, trace) => {
    if (trace.config.scale === false) return [];
    const S = rowsOfStep(trace.get(s.inputs[0])), sc = rowsOfStep(s);
    const spread = (xs) => Math.max(...xs) - Math.min(...xs);
    const raw = avg(sc.map((r, k) => spread(S[k].filter((_, j) => Number.isFinite(r[j])))));
    return [`span ${en(raw, 2)} on average before and ${en(avg(sc.map((r) => spread(fin(r)))), 2)} after dividing`];
  },
  weights: (s, trace) => {
    const top = topKeys(trace, s);
    return [...top.slice(0, 6).map((f) => `“${f.q}” → “${f.k}” ${en(f.w, 2)}`),
      `The top weight is ${en(avg(top.map((f) => f.w)), 2)} on average, against ${en(avg(top.map((f) => 1 / Math.max(1, f.n))), 2)} for a uniform row.`];
  },
  residual: (s, trace) => {
    const a = rowsOfStep(trace.get(s.inputs[0])), b = rowsOfStep(trace.get(s.inputs[1]));
    const ratios = a.map((r, k) => len(b[k % b.length]) / Math.max(1e-12, len(r)));
    return [`length is ${en(avg(ratios), 2)} times the input row’s on average (largest ${en(Math.max(...ratios), 2)})`];
  },
  mean: (s) => [`the row means run from ${en(Math.min(...s.data), 2)} to ${en(Math.max(...s.data), 2)}`],
  var: (s) => [`deviations σ run from ${en(Math.sqrt(Math.min(...s.data)), 2)} to ${en(Math.sqrt(Math.max(...s.data)), 2)}`],
  loss: (s) => [`so the correct answers got probability ${en(Math.exp(-s.data[0]), 3)} on average`],
};
const roleFacts = { attention_mask: 'mask', decoder_mask: 'mask', cross_mask: 'mask', scores: 'scores', scaled: 'scaled',
  weights: 'weights', residual1: 'residual', residual2: 'residual', residual3: 'residual', mean: 'mean', var: 'var', loss: 'loss' };
const factCount = {};
setLang('en');
for (const p of presets) {
  const trained = typeof p.model.weights === 'string';
  for (const [name, tr] of [[p.name, traceOf(p.model)], [`${p.name} + backward`, trained ? traceOf(p.model, { backward: true }) : null]]) {
    if (!tr) continue;
    for (const s of tr.steps) {
      const f = roleFacts[s.role];
      if (!f) continue;
      const note = noteFor(s, tr, { trained });
      for (const want of EXPECT[f](s, tr)) {
        factCount[f] = (factCount[f] || 0) + 1;
        if (!note.includes(want)) problems.push(`${name} ${s.id}: the note lacks “${want}”: ${note}`);
      }
    }
  }
}
// Each fact checked somewhere (a fact no preset reaches would make its check vacuous).
for (const f of Object.keys(EXPECT)) if (!factCount[f]) problems.push(`no note checked for its ${f} fact`);
console.log(`notes: facts recomputed from the data and found in the English notes: ${Object.entries(factCount).map(([k, n]) => `${k} ${n}`).join(', ')}`);
// The trained number-words model: the most-attended source word of each digit (cross-attention),
// recomputed above; the page's helper must agree with it too.
const nw = traceOf(presets.find((x) => x.name === 'trained-number-words').model);
const w = nw.steps.find((s) => s.role === 'weights' && s.place.block === 'cross_attention');
const mine = topKeys(nw, w), page = attendedFacts(w, nw);
if (mine.length < 6 || JSON.stringify(mine.map((f) => [f.q, f.k])) !== JSON.stringify(page.map((f) => [f.q, f.k])))
  problems.push(`number-words ${w.id}: attendedFacts ${JSON.stringify(page.map((f) => [f.q, f.k]))}, recomputed ${JSON.stringify(mine.map((f) => [f.q, f.k]))}`);
// The padding preset's token ids: the note counts the sentences' own tokens (from the model's
// two texts, split as the tokenizer does: words and . , ! ? ;), not the <pad> fill of the batch.
{
  const pad = presets.find((x) => x.name === 'padding-batch');
  const tr = traceOf(pad.model);
  const ids = tr.steps.find((s) => s.role === 'token_ids');
  const words = (x) => (x.match(/\b\w+\b|[.,!?;]/g) || []).length;
  const want = words(pad.model.text) + words(pad.model.text2);
  const got = noteFor(ids, tr);
  if (!got.includes(`Here ${want} tokens`)) problems.push(`padding-batch token_ids: expected ${want} tokens in “${got}”`);
}

// BERT's token types: the note counts the tokens of sentence A (up to the first [SEP]) and of
// B, counted here from the pieces the tokenizer gave.
for (const c of CKPTS.filter((x) => x.dir.startsWith('bert'))) {
  const toks = c.trace.text.source_tokens[0], sep = toks.indexOf('[SEP]');
  const want = `Here ${sep + 1} tokens are in sentence A and ${toks.length - sep - 1} in sentence B.`;
  const got = noteFor(c.trace.get('token_type_ids'), c.trace);
  if (!got.includes(want)) problems.push(`${c.dir} token_type_ids: expected “${want}” in “${got}”`);
}

console.log(`notes: ${checked} steps titled and noted in 2 languages; ${problems.length} problems`);
for (const p of problems.slice(0, 30)) console.log(`  ${p}`);
process.exit(problems.length ? 1 : 0);
