// unicode_norm.cpp — NFD/NFC (UAX #15: full canonical decomposition, canonical ordering by
// combining class, canonical composition of unblocked pairs; Hangul by its arithmetic), one
// code point at a time lower-casing, and Mn removal, over code points that carry their span.
#include "text/unicode_norm.h"

#include <algorithm>
#include <cstdint>

#include "text/tokenizer.h"
#include "text/unicode_data.h"

namespace ew {

namespace {

// Hangul syllables (Unicode 3.12): S = SBase + (L·VCount + V)·TCount + T.
constexpr char32_t kSBase = 0xAC00, kLBase = 0x1100, kVBase = 0x1161, kTBase = 0x11A7;
constexpr int kLCount = 19, kVCount = 21, kTCount = 28, kNCount = kVCount * kTCount, kSCount = kLCount * kNCount;

void decompose_into(SpanText& out, const SpanChar& c) {
  const char32_t s = c.cp - kSBase;
  if (c.cp >= kSBase && s < static_cast<char32_t>(kSCount)) {
    out.push_back({kLBase + s / kNCount, c.begin, c.end});
    out.push_back({kVBase + (s % kNCount) / kTCount, c.begin, c.end});
    if (s % kTCount) out.push_back({kTBase + s % kTCount, c.begin, c.end});
    return;
  }
  const std::u32string_view d = canonical_decomposition(c.cp);
  if (d.empty()) {
    out.push_back(c);
    return;
  }
  for (char32_t x : d) out.push_back({x, c.begin, c.end});
}

char32_t compose(char32_t a, char32_t b) {
  if (a >= kLBase && a < kLBase + kLCount && b >= kVBase && b < kVBase + kVCount)
    return kSBase + ((a - kLBase) * kVCount + (b - kVBase)) * kTCount;
  const char32_t s = a - kSBase;
  if (a >= kSBase && s < static_cast<char32_t>(kSCount) && s % kTCount == 0 && b > kTBase && b < kTBase + kTCount)
    return a + (b - kTBase);
  return primary_composite(a, b);
}

bool below(const SpanText& t, char32_t limit) {
  return std::all_of(t.begin(), t.end(), [&](const SpanChar& c) { return c.cp < limit; });
}

}  // namespace

SpanText span_text(std::string_view s, int base) {
  validate_utf8(s);  // the one message for bad bytes; below the text is known to be valid
  SpanText out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const auto b0 = static_cast<std::uint8_t>(s[i]);
    const int len = b0 < 0x80 ? 1 : b0 < 0xE0 ? 2 : b0 < 0xF0 ? 3 : 4;
    char32_t cp = len == 1 ? b0 : len == 2 ? (b0 & 0x1F) : len == 3 ? (b0 & 0x0F) : (b0 & 0x07);
    for (int k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<std::uint8_t>(s[i + k]) & 0x3F);
    const int at = base + static_cast<int>(out.size());
    out.push_back({cp, at, at + 1});
    i += len;
  }
  return out;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::string to_utf8(const SpanText& t, std::size_t first, std::size_t last) {
  std::string out;
  last = std::min(last, t.size());
  for (std::size_t i = first; i < last; ++i) append_utf8(out, t[i].cp);
  return out;
}

std::u32string to_u32(std::string_view utf8) {
  std::u32string out;
  for (const SpanChar& c : span_text(utf8)) out += c.cp;
  return out;
}

SpanText nfd(const SpanText& t) {
  if (below(t, 0xC0)) return t;  // nothing below U+00C0 decomposes or has a combining class
  SpanText out;
  out.reserve(t.size() + t.size() / 4);
  for (const SpanChar& c : t) decompose_into(out, c);
  // Canonical ordering: each run of non-starters sorted (stably) by combining class.
  for (std::size_t i = 0; i < out.size();) {
    if (combining_class(out[i].cp) == 0) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < out.size() && combining_class(out[j].cp) != 0) ++j;
    std::stable_sort(out.begin() + i, out.begin() + j, [](const SpanChar& a, const SpanChar& b) {
      return combining_class(a.cp) < combining_class(b.cp);
    });
    i = j;
  }
  return out;
}

SpanText nfc(const SpanText& t) {
  if (below(t, 0xC0)) return t;
  const SpanText d = nfd(t);
  SpanText out;
  out.reserve(d.size());
  std::ptrdiff_t starter = -1;  // index in out of the last starter, -1 before the first
  int last_cc = 0;              // combining class of the last code point appended
  for (const SpanChar& c : d) {
    const int cc = combining_class(c.cp);
    if (starter >= 0) {
      // c composes with the starter unless a code point between them blocks it: one whose
      // class is 0 or not below c's (the run between is in canonical order: the last decides).
      const bool adjacent = out.size() == static_cast<std::size_t>(starter) + 1;
      if (adjacent || (last_cc != 0 && last_cc < cc)) {
        if (const char32_t p = compose(out[starter].cp, c.cp)) {
          SpanChar& s = out[starter];
          s.cp = p;
          s.begin = std::min(s.begin, c.begin);
          s.end = std::max(s.end, c.end);
          continue;
        }
      }
    }
    if (cc == 0) starter = static_cast<std::ptrdiff_t>(out.size());
    out.push_back(c);
    last_cc = cc;
  }
  return out;
}

SpanText lowercase(const SpanText& t) {
  SpanText out;
  out.reserve(t.size());
  for (const SpanChar& c : t) {
    const std::u32string_view m = c.cp < 0x80 ? std::u32string_view() : lowercase_mapping(c.cp);
    if (c.cp < 0x80) {
      out.push_back({c.cp >= 'A' && c.cp <= 'Z' ? c.cp + 32 : c.cp, c.begin, c.end});
    } else if (m.empty()) {
      out.push_back(c);
    } else {
      for (char32_t x : m) out.push_back({x, c.begin, c.end});
    }
  }
  return out;
}

SpanText drop_nonspacing_marks(const SpanText& t) {
  SpanText out;
  out.reserve(t.size());
  for (const SpanChar& c : t)
    if (c.cp < 0x300 || general_category(c.cp) != Category::Mn) out.push_back(c);
  return out;
}

std::string nfd(std::string_view utf8) { return to_utf8(nfd(span_text(utf8))); }
std::string nfc(std::string_view utf8) { return to_utf8(nfc(span_text(utf8))); }

}  // namespace ew
