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

// A byte-level BPE piece (GPT-2's vocab.json: each byte drawn as a printable character, the
// space as "Ġ", the newline as "Ċ") as the text it stands for, a leading space shown as "␣".
const BYTE_OF = (() => {
  const m = new Map();
  let n = 0;
  for (let b = 0; b < 256; b++) {
    const printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
    m.set(String.fromCodePoint(printable ? b : 256 + n++), b);
  }
  return m;
})();
export function bytePieceText(piece) {
  const bytes = [];
  for (const ch of String(piece)) {
    if (!BYTE_OF.has(ch)) return String(piece);  // not a byte-level piece (a special token, "[id N]")
    bytes.push(BYTE_OF.get(ch));
  }
  const s = new TextDecoder().decode(new Uint8Array(bytes));
  return s.replace(/ /g, '␣').replace(/\n/g, '⏎');
}
