// unicode_norm.h — text as a sequence of code points that remember where in the input they came
// from, and the normalisations the checkpoints' tokenizers apply to it: NFD, NFC (Unicode
// Standard Annex #15, with the generated tables of unicode_data.h), lower-casing one code point
// at a time (str.lower() of each; Rust's char::to_lowercase), and dropping nonspacing marks.
// Each output code point keeps the span [begin, end) of input code points it came from, so a
// token can say which characters of the sentence it covers (a composed character covers all of
// its parts; each part of a decomposed one covers the whole character).
// Not here: which of these a tokenizer applies and in what order (wordpiece.h, hf_tokenizer.h);
// the context-dependent final sigma of str.lower() on a whole string (no checkpoint tokenizer
// sees it: the Python one lower-cases character by character, see wordpiece.h).
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace ew {

struct SpanChar {
  char32_t cp;
  int begin, end;  // the input code points it came from, [begin, end)
};
using SpanText = std::vector<SpanChar>;

// Strict UTF-8 → code points, code point i spanning [base + i, base + i + 1). Throws ew::Error
// ("invalid UTF-8 at byte N", code invalid_utf8) as validate_utf8 does.
SpanText span_text(std::string_view utf8, int base = 0);

std::string to_utf8(const SpanText& t, std::size_t first = 0, std::size_t last = std::string::npos);
void append_utf8(std::string& out, char32_t cp);
std::u32string to_u32(std::string_view utf8);  // strict, as span_text

SpanText nfd(const SpanText& t);
SpanText nfc(const SpanText& t);
SpanText lowercase(const SpanText& t);           // each code point's full str.lower() mapping
SpanText drop_nonspacing_marks(const SpanText& t);  // removes category Mn

// Plain-string forms (tests, added tokens' normalised spellings).
std::string nfd(std::string_view utf8);
std::string nfc(std::string_view utf8);

}  // namespace ew
