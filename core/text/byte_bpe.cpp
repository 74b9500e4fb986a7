// byte_bpe.cpp — GPT-2's pre-tokenizer regex by hand, the byte-to-Unicode map and merges by
// rank (see byte_bpe.h).
#include "text/byte_bpe.h"

#include <array>
#include <climits>

#include "text/unicode_data.h"

namespace ew {

namespace {

struct ByteMap {
  std::array<char32_t, 256> to_cp{};
  std::array<std::int16_t, 0x144> to_byte{};  // every stand-in is below U+0144
  ByteMap() {
    to_byte.fill(-1);
    int n = 0;
    for (int b = 0; b < 256; ++b) {
      const bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
      to_cp[b] = printable ? static_cast<char32_t>(b) : static_cast<char32_t>(256 + n++);
      to_byte[to_cp[b]] = static_cast<std::int16_t>(b);
    }
  }
};

const ByteMap& byte_map() {
  static const ByteMap m;
  return m;
}

bool is_s(char32_t cp) { return is_white_space(cp); }
bool is_l(char32_t cp) { return cp < 0x80 ? ((cp | 32) >= 'a' && (cp | 32) <= 'z') : is_letter(cp); }
bool is_n(char32_t cp) { return cp < 0x80 ? (cp >= '0' && cp <= '9') : is_number(cp); }
bool is_o(char32_t cp) { return !is_s(cp) && !is_l(cp) && !is_n(cp); }  // [^\s\p{L}\p{N}]

// The length of 's 't 're 've 'm 'll 'd at t[i] (0: none).
int contraction(const SpanText& t, int i) {
  const int n = static_cast<int>(t.size());
  if (t[i].cp != '\'' || i + 1 >= n) return 0;
  const char32_t a = t[i + 1].cp;
  if (a == 's' || a == 't' || a == 'm' || a == 'd') return 2;
  if (i + 2 >= n) return 0;
  const char32_t b = t[i + 2].cp;
  return (a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l') ? 3 : 0;
}

}  // namespace

char32_t byte_to_unicode(std::uint8_t b) { return byte_map().to_cp[b]; }

int unicode_to_byte(char32_t cp) { return cp < 0x144 ? byte_map().to_byte[cp] : -1; }

std::vector<std::pair<int, int>> gpt2_pre_tokenize(const SpanText& t) {
  std::vector<std::pair<int, int>> out;
  const int n = static_cast<int>(t.size());
  int i = 0;
  auto run = [&](int from, bool (*cls)(char32_t)) {
    while (from < n && cls(t[from].cp)) ++from;
    return from;
  };
  while (i < n) {
    int end;
    if (const int c = contraction(t, i)) {
      end = i + c;
    } else {
      const int q = t[i].cp == ' ' && i + 1 < n ? i + 1 : i;  // the optional leading space
      const char32_t x = t[q].cp;
      if (is_l(x)) end = run(q, is_l);
      else if (is_n(x)) end = run(q, is_n);
      else if (is_o(x)) end = run(q, is_o);
      else {
        // x is white space (q == i): \s+(?!\S) takes the run, less its last code point when
        // a non-space follows; a single space before a non-space falls to \s+.
        const int e = run(i, is_s);
        end = e == n || e - i < 2 ? e : e - 1;
      }
    }
    out.emplace_back(i, end);
    i = end;
  }
  return out;
}

std::string bytes_to_symbols(std::string_view bytes) {
  std::string out;
  for (unsigned char b : bytes) append_utf8(out, byte_to_unicode(b));
  return out;
}

std::string symbols_to_bytes(std::string_view symbols) {
  std::string out;
  for (const SpanChar& c : span_text(symbols)) {
    const int b = unicode_to_byte(c.cp);
    if (b >= 0) out += static_cast<char>(b);
    else append_utf8(out, c.cp);
  }
  return out;
}

std::string utf8_lossy(std::string_view s) {
  std::string out;
  const std::size_t n = s.size();
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  for (std::size_t i = 0; i < n;) {
    const unsigned char b0 = byte(i);
    if (b0 < 0x80) {
      out += static_cast<char>(b0);
      ++i;
      continue;
    }
    int len = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (b0 >= 0xC2 && b0 <= 0xDF) len = 2;
    else if (b0 >= 0xE0 && b0 <= 0xEF) len = 3, lo = b0 == 0xE0 ? 0xA0 : 0x80, hi = b0 == 0xED ? 0x9F : 0xBF;
    else if (b0 >= 0xF0 && b0 <= 0xF4) len = 4, lo = b0 == 0xF0 ? 0x90 : 0x80, hi = b0 == 0xF4 ? 0x8F : 0xBF;
    std::size_t k = 1;  // bytes of the sequence that are well-formed so far
    if (len) {
      while (k < static_cast<std::size_t>(len) && i + k < n) {
        const unsigned char b = byte(i + k);
        if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) break;
        ++k;
      }
    }
    if (len && k == static_cast<std::size_t>(len)) out.append(s.substr(i, k));
    else out += "\xEF\xBF\xBD";  // one U+FFFD for the maximal ill-formed subsequence
    i += k;
  }
  return out;
}

void ByteBpe::encode_word(const SpanText& word, int first, int last, std::vector<Piece>& out) const {
  // The word's bytes, each with the index of the code point it belongs to.
  std::vector<int> ids, char_of;  // one symbol per byte at first
  std::string utf8;
  for (int c = first; c < last; ++c) {
    const std::size_t before = utf8.size();
    append_utf8(utf8, word[c].cp);
    for (std::size_t k = before; k < utf8.size(); ++k) {
      ids.push_back(byte_id[static_cast<unsigned char>(utf8[k])]);
      char_of.push_back(c);
    }
  }
  std::vector<int> starts(ids.size());  // first byte of each symbol
  for (std::size_t k = 0; k < starts.size(); ++k) starts[k] = static_cast<int>(k);
  if (ignore_merges) {
    const int whole = vocab->id(bytes_to_symbols(utf8));
    if (whole >= 0) ids = {whole}, starts = {0};
  }
  while (ids.size() > 1) {
    int best = INT_MAX, best_id = -1;
    std::uint64_t best_key = 0;
    for (std::size_t k = 0; k + 1 < ids.size(); ++k) {
      const auto it = merges.find(key(ids[k], ids[k + 1]));
      if (it != merges.end() && it->second.rank < best) best = it->second.rank, best_id = it->second.id, best_key = it->first;
    }
    if (best_id < 0) break;
    std::size_t w = 0;  // merge every occurrence of the pair, left to right
    for (std::size_t k = 0; k < ids.size(); ++k, ++w) {
      ids[w] = ids[k], starts[w] = starts[k];
      if (k + 1 < ids.size() && key(ids[k], ids[k + 1]) == best_key) ids[w] = best_id, ++k;
    }
    ids.resize(w), starts.resize(w);
  }
  for (std::size_t k = 0; k < ids.size(); ++k) {
    const int b0 = starts[k];
    const int b1 = k + 1 < ids.size() ? starts[k + 1] : static_cast<int>(char_of.size());
    out.push_back({ids[k], vocab->tokens[static_cast<std::size_t>(ids[k])], word[char_of[b0]].begin,
                   word[char_of[b1 - 1]].end});
  }
}

}  // namespace ew
