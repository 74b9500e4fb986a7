#!/usr/bin/env node
// pieces.mjs — a tokenizer's pieces as the page shows them (web/js/lib/format.js pieceText,
// pieceStyle), in Node, against outside truth: every one of GPT-2's 50,256 byte-level tokens, whose bytes
// come from js-tiktoken's GPT-2 ranks (an independent copy of GPT-2's vocabulary), written as
// vocab.json writes it (GPT-2's bytes_to_unicode, written out here from its definition), must be
// shown (1) without a raw space, newline, tab or any of the 68 stand-in characters Ġ Ċ ĉ … that
// vocab.json uses for bytes that are not printable, and (2) so that it reads back to exactly
// its bytes (␣ → space, ⏎ → newline, ⇥ → tab, <0xNN> → that byte, anything else its UTF-8).
// SentencePiece pieces (▁ and byte fallback) and WordPiece pieces are checked on examples, and
// the style each vocabulary is recognized as. The checks can fail: a planted pieceText that
// drops the <0xNN> of incomplete characters (decoding them as �) must be caught.
//
//   node tests/web/pieces.mjs
import process from 'node:process';
import gpt2 from 'js-tiktoken/ranks/gpt2';
import { pieceText, pieceStyle } from '../../web/js/lib/format.js';

// GPT-2's bytes_to_unicode: printable Latin-1 bytes stand for themselves, the other 68 bytes
// for U+0100 + n in byte order.
const UNI = [];
{
  let n = 0;
  for (let b = 0; b < 256; b++) {
    const printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
    UNI[b] = String.fromCodePoint(printable ? b : 256 + n++);
  }
}
const STAND_INS = new Set(UNI.filter((c) => c.codePointAt(0) >= 256));

// The tokens' bytes, from the ranks file (lines "! offset base64 base64 …").
const tokens = [];
for (const line of gpt2.bpe_ranks.split('\n').filter(Boolean)) {
  const [, offset, ...b64] = line.split(' ');
  b64.forEach((s, i) => { tokens[Number(offset) + i] = Uint8Array.from(Buffer.from(s, 'base64')); });
}

// Shown text back to bytes.
function bytesOf(shown) {
  const out = [];
  for (const part of shown.split(/(<0x[0-9A-F]{2}>)/)) {
    const m = /^<0x([0-9A-F]{2})>$/.exec(part);
    if (m) out.push(parseInt(m[1], 16));
    else out.push(...Buffer.from(part.replace(/␣/g, ' ').replace(/⏎/g, '\n').replace(/⇥/g, '\t'), 'utf8'));
  }
  return out;
}
// A token whose own text holds ␣ ⏎ ⇥ or "<0x" reads back ambiguously: it is skipped in (2).
const ambiguous = (bytes) => /[␣⏎⇥]|<0x/.test(Buffer.from(bytes).toString('utf8'));

function checkGpt2(show) {
  const bad = [];
  let readBack = 0;
  tokens.forEach((bytes, id) => {
    const piece = Array.from(bytes, (b) => UNI[b]).join('');
    const shown = show(piece);
    if (/[ \n\t]/.test(shown) || [...shown].some((c) => STAND_INS.has(c) && !Buffer.from(bytes).toString('utf8').includes(c)))
      bad.push(`token ${id} ${JSON.stringify(piece)} is shown as ${JSON.stringify(shown)}: a raw space or stand-in`);
    if (ambiguous(bytes)) return;
    readBack++;
    const back = bytesOf(shown);
    if (back.length !== bytes.length || back.some((b, k) => b !== bytes[k])) bad.push(`token ${id} ${JSON.stringify(piece)} is shown as ${JSON.stringify(shown)}, which reads back to other bytes`);
  });
  return { bad, readBack };
}

let failures = 0;
const check = (name, ok, detail = '') => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `\n     ${detail}` : ''}`);
  if (!ok) failures++;
};

const real = checkGpt2((p) => pieceText(p, 'bytes'));
check(`GPT-2's ${tokens.length} byte-level tokens (js-tiktoken's bytes; <|endoftext|> is the 50,257th): none shown with a raw space or stand-in, ${real.readBack} read back to their bytes`,
  tokens.length === 50256 && !real.bad.length, real.bad.slice(0, 5).join('\n     '));
const planted = checkGpt2((p) => pieceText(p, 'bytes').replace(/<0x[0-9A-F]{2}>/g, '\uFFFD'));
check(`must fail: incomplete characters shown as � instead of <0xNN> (${planted.bad.length} tokens caught)`, planted.bad.length > 100);

const examples = [
  ['sentencepiece', '▁the', '␣the'], ['sentencepiece', '▁▁', '␣␣'], ['sentencepiece', '<0x0A>', '⏎'], ['sentencepiece', '<0xE2>', '<0xE2>'],
  ['sentencepiece', '<0x41>', 'A'], ['sentencepiece', '<s>', '<s>'], ['sentencepiece', 'ing', 'ing'],
  ['bytes', 'Ġmat', '␣mat'], ['bytes', 'Ċ', '⏎'], ['bytes', '[id 77]', '[id 77]'], ['bytes', '<|endoftext|>', '<|endoftext|>'],
  ['', '##ing', '##ing'], ['', 'é', 'é'], ['', 'Ġ', 'Ġ'],
];
const wrong = examples.filter(([style, p, want]) => pieceText(p, style) !== want).map(([s, p, w]) => `${s} ${p} → ${pieceText(p, s)}, not ${w}`);
check('SentencePiece (▁, byte fallback), byte-level and WordPiece examples', !wrong.length, wrong.join('; '));

const gpt2Vocab = tokens.slice(0, 300).map((b) => Array.from(b, (x) => UNI[x]).join(''));
const styles = [[gpt2Vocab, 'bytes'], [['<unk>', '<s>', '</s>', '<0x00>', '<0x01>', '▁t', 'he'], 'sentencepiece'],
  [['<pad>', '▁the', '▁a', '▁of', 'ing'], 'sentencepiece'], [['[PAD]', '[UNK]', 'the', '##s', 'é'], ''], [['<pad>', 'low</w>', 'er'], '']];
const missed = styles.filter(([v, want]) => pieceStyle(v) !== want).map(([v, want]) => `${v.slice(0, 4)}… → "${pieceStyle(v)}", not "${want}"`);
check('each vocabulary’s style recognized (GPT-2’s bytes, SentencePiece, WordPiece, the presets’ words)', !missed.length, missed.join('; '));

console.log(`pieces: ${failures ? `${failures} failed` : 'all passed'}`);
process.exit(failures ? 1 : 0);
