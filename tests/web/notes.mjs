#!/usr/bin/env node
// notes.mjs — the step titles, notes and notation key (web/js/model/titles.js, web/js/view/notes/*, view/notation.js) on every
// step of every preset and of the trained presets with the backward pass, in English and
// German, on traces built in Node by the wasm module (as tests/web/kinds.mjs builds them):
// every step gets a title and a note from the catalog (no ⟦key⟧), each note names a tutorial
// by its title, and the facts a note quotes are recomputed here from the step's data.
//
//   node tests/web/notes.mjs [--module build/wasm/node/encoder_walkthrough_node.js] [--verbose]
import { existsSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { root, arg, loadWasmModule } from '../harness.mjs';
import { traceOf as pageTrace } from './page-trace.mjs';
import { setLang, t } from '../../web/js/lib/i18n.js';
import { stepTitle, stepCrumbs } from '../../web/js/model/titles.js';
import { noteFor } from '../../web/js/view/notes/index.js';
import { scaledFacts, attendedFacts } from '../../web/js/view/notes/attention.js';
import { notationEntries } from '../../web/js/view/notation.js';

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

for (const lang of ['en', 'de']) {
  setLang(lang);
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
// The trained number-words model: the most-attended source word of each digit (cross-attention).
const nw = traceOf(presets.find((x) => x.name === 'trained-number-words').model);
const w = nw.steps.find((s) => s.role === 'weights' && s.place.block === 'cross_attention');
const facts = attendedFacts(w, nw);
const note = noteFor(w, nw, { trained: true });
for (const f of facts.slice(0, 6)) if (!note.includes(`“${f.q}” → “${f.k}”`)) problems.push(`number-words ${w.id}: the note lacks “${f.q}” → “${f.k}”: ${note}`);
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

console.log(`notes: ${checked} steps titled and noted in 2 languages; ${problems.length} problems`);
for (const p of problems.slice(0, 30)) console.log(`  ${p}`);
process.exit(problems.length ? 1 : 0);
