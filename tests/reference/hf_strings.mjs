// hf_strings.mjs — the strings the checkpoint tokenizers are checked on (check_hf_tokenizers.mjs):
// written sentences, then seeded random mixes of fragments — accents (composed and decomposed),
// CJK, Hangul, other scripts, emoji (with modifiers and joiners), digits of several scripts, punctuation runs, white-space
// runs (Unicode spaces, tabs, newlines), control and format characters, contractions, long
// words, and special tokens written in the text. Every character is assigned in Unicode 14 (the
// version of the core's tables and of CPython here): Node's newer Unicode must not differ.
export const SENTENCES = [
  'Hello world!',
  "I'm sure they'll say it's fine, but we've seen what you'd do — don't.",
  "DON'T SHOUT, it'S THE 'll RULE'S edge",
  'The quick brown fox jumps over the lazy dog.',
  'unaffable supercalifragilisticexpialidocious antidisestablishmentarianism',
  'naïve café résumé Zürich São Paulo Ångström İstanbul straße',
  'nai\u0308ve cafe\u0301 A\u030Angstro\u0308m',
  '東京は日本の首都です。北京大学',
  '한국어 텍스트와 카카오',
  'Привет, мир! Ελληνικά κείμενα עברית مرحبا بالعالم हिन्दी ไทย',
  '😀 👍🏽 👨‍👩‍👧 🇫🇷 ❤️ ✨🎉',
  'Prices: $3.50, €100, ¥2000, 1,234,567.89 and 50% off ½ ² ³ Ⅻ ٣٤ १२३',
  '2026-11-25 12:30:45 +01:00',
  'e-mail me at someone@example.com or visit http://example.com/a?b=c&d=e#f',
  'C++ x86_64 foo_bar __init__ a+b=c a->b a::b',
  'Wait... what?! Really!!! ??? --- ***',
  '“Quoted” ‘single’ «guillemets» (parens) [brackets] {braces} <tag>',
  '  leading and trailing spaces  ',
  'tabs\tand\nnewlines\r\nand   runs    of     spaces',
  'a\u00a0b\u3000c\u2003d\u2009e\u202ff',
  'zero\u200bwidth soft\u00adhyphen bell\u0007char',
  'The [MASK] sat on the mat. [SEP] Second part [CLS] x',
  'a[MASK]b [mask] [Mask] [UNK] [PAD]',
  'Before<|endoftext|>After <|endoftext|> <|endoftext|><|endoftext|>',
  'ＡＢＣ１２３ ﬁne ﬀ Ω K µ ı ǅ ẞ',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝟙𝟚𝟛',
  `a${'b'.repeat(99)} c${'d'.repeat(100)} e${'é'.repeat(120)}`,
  '\n\n\n',
  '   ',
  'x',
  '',
];

const FRAGMENTS = [
  'Hello', 'world', 'the', 'The', 'THE', 'a', 'I', "don't", "I'm", "we'll", "they've", "she'd", "it's",
  "you're", "CAN'T", "'s", "'", "''", "'ll", 'naïve', 'café', 'Zürich', 'résumé', 'Ñandú', 'Ångström',
  'İstanbul', 'straße', 'ﬁne', 'Ⅻ', '½', '²', '٣', '१२३', '東京', '北京大学', 'こんにちは', 'カタカナ',
  '한국어', 'Привет', 'мир', 'Ελληνικά', 'עברית', 'مرحبا', 'हिन्दी', 'ไทย', 'ქართული', 'Հայերեն',
  '😀', '👍🏽', '👨‍👩‍👧', '🇫🇷', '❤️', '🎉', '™', '©', '€100', '$3.50', '1,234,567', '3.14159',
  '2026', '0', '007', '12:30', '#hashtag', '@user', 'e-mail', 'C++', 'x86_64', 'foo_bar',
  'http://example.com/a?b=c', '...', '!!!', '?!', '—', '–', '“', '”', '‘', '’', '«', '»', '(', ')',
  '[', ']', '{', '}', '<', '>', '+', '=', '%', '\\', '|', '~', '^', '`', '_', '*', '&', '§', '¶',
  '[MASK]', '[SEP]', '[CLS]', '[UNK]', '[PAD]', '[mask]', '<|endoftext|>', '<|endoftext', 'unaffable',
  'playing', 'tokenization', 'walkthrough', 'e\u0301', 'A\u030A', 'o\u0308\u0301', 'Å', 'ǅ', 'ﬀ', 'Ω',
  '\u2126hm \u212Bngstr\u00F6m', '\uF900\uF91D', '\u1100\u1161\u11A8', 'K', 'µ', 'ı', 'Ⓐ', 'ＡＢＣ', '１２３', '\u200b', '\u00ad', '\u0007', '\u0000', '\ufffd', '\u00a0',
  '\u3000', '\u2003', '\u2028', '𝔘𝔫𝔦', '𝟙𝟚', 'ꙮ', 'ᚠᛇᚻ', 'ΣΑΣ', 'ΟΔΥΣΣΕΥΣ', '𠀀𠀁', '\ufeff', '\u0085',
  'x'.repeat(101), 'ab'.repeat(40),
];
const SEPARATORS = [' ', ' ', ' ', '', '  ', '\n', '\t', ' \n ', '   ', '\r\n', '\u00a0', '\u3000'];

// mulberry32: a small seeded generator, so every run checks the same strings.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function testStrings(n, seed = 19) {
  const r = rng(seed);
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const out = [...SENTENCES];
  while (out.length < n) {
    const k = 1 + Math.floor(r() * 8);
    let s = r() < 0.3 ? pick(SEPARATORS) : '';
    for (let i = 0; i < k; ++i) s += (i ? pick(SEPARATORS) : '') + pick(FRAGMENTS);
    if (r() < 0.2) s += pick(SEPARATORS);
    out.push(s);
  }
  return out;
}

// The modern decoders' hard strings (check_decoder_tokenizers.mjs): written cases of every kind
// the issue lists — runs of spaces and newlines (the \s+(?!\S) and \s*[\r\n]+ branches), digits
// (\p{N} one at a time or {1,3}), contractions in every case ((?i:'s|…)), NFD accents (NFC),
// CJK, emoji with joiners and modifiers (byte fallback, bytes split across pieces), special-token
// text of each family (and near misses), a 300-character word — then each written case joined
// with its neighbours, to reach `n` (at least 100 per tokenizer).
export const DECODER_SPECIALS = [
  '<|im_start|>', '<|im_end|>', '<|endoftext|>', '<|begin_of_text|>', '<|eot_id|>', '<|start_header_id|>',
  '<bos>', '<eos>', '<start_of_turn>', '<end_of_turn>', '<s>', '</s>', '<unk>', '<pad>',
];
const DECODER_WRITTEN = [
  ' ', '  ', '   x', 'x   ', 'a  b   c    d', ' leading', 'trailing ', '\n', '\n\n', 'a\nb', 'a \n b', 'a\n\n\nb',
  'a\r\nb', 'line one\n  indented\n\ttabbed', '  \n  \n', 'x \t\n y', 'end.\n', '\n start',
  '1', '12', '123', '1234', '12345678901', '3.14159', '1,000,000', 'v2.0.1', 'a1b22c333d4444', '٣٤٥ ١٢٣ ½ Ⅻ',
  "don't", "DON'T", "Don'T", "I'm", "I'M", "we'll", "WE'LL", "they've", "THEY'VE", "you're", "she'd", "it's", "IT'S",
  "'s 't 're 've 'm 'll 'd", "'S 'T 'RE 'VE 'M 'LL 'D", "'Twas the night, 'Tis 'SUP 'Sdeath 'DUNNO 'LLAMA", "rock 'n' roll", "''quoted''",
  'cafe\u0301', 'nai\u0308ve', 'A\u030Angstro\u0308m', 'e\u0301e\u0301e\u0301', 'Ame\u0301lie Zu\u0308rich', 'o\u0308\u0301',
  '東京は日本の首都です。', '北京大学', 'こんにちは世界', '한국어 텍스트', '中文，标点！', '日本語とEnglishの混在',
  '😀', '👍🏽', '👨‍👩‍👧', '👩🏽‍💻 at work', '🇫🇷🇩🇪', '❤️‍🔥', '🏳️‍🌈', 'a😀b', '😀😀😀', 'emoji 🎉 party 🎊',
  'x'.repeat(300), 'supercalifragilistic'.repeat(15), 'é'.repeat(300), '😀'.repeat(100), 'ab1'.repeat(100),
  'Привет, мир!', 'Ελληνικά', 'مرحبا بالعالم', 'हिन्दी', 'ไทย', 'a\u00a0b', 'a\u3000b', 'zero\u200bwidth',
  '▁already▁marked', 'Ġalready', '<0xE2>', '<0x41>', 'C++ foo_bar __init__ a->b a::b', 'http://example.com/a?b=c&d=e',
  '...', '!!!???', '—–-', '“”‘’«»', '$3.50 €100 ¥2000', '#tag @user', '(a) [b] {c} <d>',
  // words Llama 3's vocabulary holds whole that its merges would split (ignore_merges)
  'sự hợp tác ngoài trời', 'chạy nhanh', 'dikkat edilmesi, kullanılmış', 'biểu diễn', 'اطلاعات بیشتر',
  '<|im_start|', 'im_start|>', '<bo s>', '< bos>', '<BOS>', '<s >', '<|eot_id', '<start_of_turn',
];
export function decoderStrings(n = 160) {
  const written = [...DECODER_WRITTEN];
  for (const sp of DECODER_SPECIALS) written.push(sp, `${sp}Hello`, `say ${sp} twice ${sp}${sp}`, ` ${sp}\n`);
  written.push('<|im_start|>user\nHi there!<|im_end|>\n<|im_start|>assistant\n', '<bos><start_of_turn>user\nHello<end_of_turn>\n',
    '<s>[INST] Hello [/INST]', '<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|>');
  const out = [...written];
  for (let i = 0; out.length < Math.max(n, written.length + 40); ++i)
    out.push(written[i % written.length] + [' ', '\n', '', '  '][i % 4] + written[(i * 7 + 3) % written.length]);
  return out;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  for (const s of testStrings(Number(process.argv[2] || 2000))) console.log(JSON.stringify(s));
}
