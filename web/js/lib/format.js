// format.js — numbers as text: short for matrix cells, exact (shortest float32 round-trip,
// like the CLI's --json) for the arithmetic, "−∞" for masked entries. Minus is U+2212.

import { t, num } from './i18n.js';

const MINUS = '\u2212';

function sign(s) {
  return s.startsWith('-') ? MINUS + s.slice(1) : s;
}

// Up to 3 significant digits (cells; the explanation shows every digit), trailing zeros
// dropped; exponent form outside [1e-3, 1e5).
export function fmt(v) {
  if (v === -Infinity) return MINUS + '\u221e';
  if (v === Infinity) return '\u221e';
  if (Number.isNaN(v)) return 'NaN';
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (Number.isInteger(v) && a < 1e5) return sign(String(v));
  if (a >= 1e5 || a < 1e-3) return sign(v.toExponential(1).replace(/\.?0+e/, 'e'));
  let s = a >= 100 ? String(Math.round(v)) : v.toPrecision(3);
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  return sign(s);
}

// The shortest decimal that reads back to the same float32 (what the CLI prints).
export function exact(v) {
  if (v === -Infinity) return MINUS + '\u221e';
  if (!Number.isFinite(v)) return String(v);
  if (v === 0) return '0';
  const f = Math.fround(v);
  for (let p = 1; p <= 9; p++) {
    const s = f.toPrecision(p);
    if (Math.fround(Number(s)) === f) return sign(String(Number(s)));
  }
  return sign(String(f));
}

// A float64 intermediate (a term of a dot product, an exp) with 6 significant digits.
export function term(v) {
  if (!Number.isFinite(v)) return fmt(v);
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e6 || a < 1e-4) return sign(v.toExponential(4).replace(/\.?0+e/, 'e'));
  let s = v.toPrecision(6);
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  return sign(s);
}

// A number inside arithmetic: negative values in parentheses.
export function paren(s) {
  return s.startsWith(MINUS) ? `(${s})` : s;
}

export function shapeText(shape) {
  return shape.length ? shape.join(' \u00d7 ') : t('explain.scalar');
}

// A duration for the reader, in the page's language (a decimal comma in German).
export function msText(ms) {
  if (ms < 1) return `${num(ms, 2)} ms`;
  if (ms < 100) return `${num(ms, 1)} ms`;
  return `${Math.round(ms)} ms`;
}

// A tokenizer's piece as the text it stands for, one function for every vocabulary style:
//   'bytes' — byte-level BPE (GPT-2, Llama 3, Qwen: vocab.json / tokenizer.json): each byte is
//             drawn as a printable character, the space as "Ġ", the newline as "Ċ";
//   'sentencepiece' — SentencePiece-style (Llama 2, Gemma): "▁" is the space, "<0xE2>" a
//             byte-fallback token for a byte no piece covers;
//   anything else (WordPiece's "##ing", the presets' words) is shown as it is.
// A space is shown as "␣", a newline as "⏎", a tab as "⇥"; bytes that are not whole UTF-8
// characters (one piece of a multi-byte character) as "<0xE2>", the form SentencePiece uses.
// Special tokens ("[CLS]", "<s>", "[id N]") are not byte pieces and stay as they are.
export const SPACE_MARK = '␣';
const BYTE_OF = (() => {
  const m = new Map();
  let n = 0;
  for (let b = 0; b < 256; b++) {
    const printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
    m.set(String.fromCodePoint(printable ? b : 256 + n++), b);
  }
  return m;
})();
const hexByte = (b) => `<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`;
const marks = (s) => s.replace(/ /g, SPACE_MARK).replace(/\n/g, '⏎').replace(/\t/g, '⇥')
  .replace(/[\u0000-\u001f\u007f]/g, (c) => hexByte(c.charCodeAt(0)));

// Bytes as text: the longest valid UTF-8 runs decoded, any other byte as <0xNN>.
function bytesText(bytes) {
  let out = '', run = [];
  const flush = () => { out += marks(new TextDecoder().decode(new Uint8Array(run))); run = []; };
  for (let i = 0; i < bytes.length;) {
    const n = utf8Length(bytes, i);
    if (n) { run.push(...bytes.slice(i, i + n)); i += n; } else { flush(); out += hexByte(bytes[i]); i++; }
  }
  flush();
  return out;
}
// The length of the whole UTF-8 character starting at bytes[i], or 0 when none starts there.
function utf8Length(bytes, i) {
  const b = bytes[i];
  const n = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
  if (!n || i + n > bytes.length) return 0;
  for (let k = 1; k < n; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return 0;
  return n;
}

export function pieceText(piece, style) {
  const s = String(piece);
  if (style === 'sentencepiece') {
    const m = /^<0x([0-9A-Fa-f]{2})>$/.exec(s);
    if (m) return bytesText([parseInt(m[1], 16)]);
    return marks(s.replace(/▁/g, ' '));
  }
  if (style !== 'bytes') return s;
  const bytes = [];
  for (const ch of s) {
    if (!BYTE_OF.has(ch)) return s;  // not a byte-level piece (a special token, "[id N]")
    bytes.push(BYTE_OF.get(ch));
  }
  return bytesText(bytes);
}
// GPT-2's byte-level pieces as text (the generation rounds of a decoder-only checkpoint).
export function bytePieceText(piece) {
  return pieceText(piece, 'bytes');
}

// Which style a vocabulary's pieces are written in (pieceText): a byte-level BPE vocabulary has
// the one-character piece "Ġ" (the space byte), a SentencePiece one byte-fallback pieces
// "<0x00>" or pieces that start with "▁"; '' for any other (WordPiece, the presets' words).
export function pieceStyle(vocab) {
  const v = vocab || [];
  if (v.includes('<0x00>') || v.includes('<0x0A>')) return 'sentencepiece';
  if (v.includes('\u0120')) return 'bytes';
  let marked = 0;
  for (let i = 0; i < v.length && i < 5000; i++) if (typeof v[i] === 'string' && v[i].startsWith('▁')) marked++;
  return marked >= 3 ? 'sentencepiece' : '';
}
