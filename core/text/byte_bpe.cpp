// byte_bpe.cpp — GPT-2's pre-tokenizer regex by hand, the byte-to-Unicode map and merges by
// rank (see byte_bpe.h).
#include "text/byte_bpe.h"

#include <array>
#include <functional>
#include <queue>

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

// A word's symbols as a linked list over their first positions; merged symbols die.
struct BpeSymbols {
  std::vector<int> id, first, last, prev, next;  // last: one past the symbol's last code point
  void push(int token, int a, int b) {
    const int k = static_cast<int>(id.size());
    id.push_back(token), first.push_back(a), last.push_back(b);
    prev.push_back(k - 1), next.push_back(-1);
    if (k > 0) next[static_cast<std::size_t>(k - 1)] = k;
  }
};

namespace {

// A candidate merge: rank first, then the leftmost position (the library's Merge ordering).
struct Candidate {
  int rank, pos, left, right, merged;
  bool operator>(const Candidate& o) const { return rank != o.rank ? rank > o.rank : pos > o.pos; }
};

}  // namespace

// The word's first symbols: byte-level, one per UTF-8 byte; else one per code point, unknown
// ones by byte fallback or the unknown token. Each spans code points [first, last) of `word`.
void ByteBpe::initial_symbols(const SpanText& word, int first, int last, std::string& utf8, BpeSymbols& sy) const {
  for (int c = first; c < last; ++c) {
    const std::size_t before = utf8.size();
    append_utf8(utf8, word[static_cast<std::size_t>(c)].cp);
    const std::string_view ch(utf8.data() + before, utf8.size() - before);
    if (byte_level) {
      for (unsigned char b : ch) sy.push(byte_id[b], c, c + 1);
      continue;
    }
    const int id = vocab->id(std::string(ch));
    if (id >= 0) {
      sy.push(id, c, c + 1);
      continue;
    }
    bool all = byte_fallback;
    for (unsigned char b : ch) all = all && byte_id[b] >= 0;
    if (all) {
      for (unsigned char b : ch) sy.push(byte_id[b], c, c + 1);
    } else if (unk_id >= 0) {
      if (fuse_unk && !sy.id.empty() && sy.id.back() == unk_id) sy.last.back() = c + 1;
      else sy.push(unk_id, c, c + 1);
    }
  }
}

void ByteBpe::encode_word(const SpanText& word, int first, int last, std::vector<Piece>& out) const {
  std::string utf8;
  BpeSymbols sy;
  initial_symbols(word, first, last, utf8, sy);
  const int whole = ignore_merges ? vocab->id(byte_level ? bytes_to_symbols(utf8) : utf8) : -1;
  if (whole >= 0) {
    out.push_back({whole, vocab->tokens[static_cast<std::size_t>(whole)], word[static_cast<std::size_t>(first)].begin,
                   word[static_cast<std::size_t>(last - 1)].end});
    return;
  }
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<Candidate>> heap;
  auto consider = [&](int k) {  // the pair (k, next of k), if it merges
    if (k < 0 || sy.next[static_cast<std::size_t>(k)] < 0) return;
    const int r = sy.next[static_cast<std::size_t>(k)];
    const auto it = merges.find(key(sy.id[static_cast<std::size_t>(k)], sy.id[static_cast<std::size_t>(r)]));
    if (it != merges.end())
      heap.push({it->second.rank, k, sy.id[static_cast<std::size_t>(k)], sy.id[static_cast<std::size_t>(r)], it->second.id});
  };
  for (int k = 0; k < static_cast<int>(sy.id.size()); ++k) consider(k);
  std::vector<char> dead(sy.id.size(), 0);
  while (!heap.empty()) {
    const Candidate c = heap.top();
    heap.pop();
    const auto k = static_cast<std::size_t>(c.pos);
    const int r = sy.next[k];
    if (dead[k] || r < 0 || sy.id[k] != c.left || sy.id[static_cast<std::size_t>(r)] != c.right) continue;  // stale
    const auto rr = static_cast<std::size_t>(r);
    sy.id[k] = c.merged, sy.last[k] = sy.last[rr], sy.next[k] = sy.next[rr], dead[rr] = 1;
    if (sy.next[k] >= 0) sy.prev[static_cast<std::size_t>(sy.next[k])] = c.pos;
    consider(sy.prev[k]);
    consider(c.pos);
  }
  for (std::size_t k = 0; k < sy.id.size(); ++k) {
    if (dead[k]) continue;
    out.push_back({sy.id[k], vocab->tokens[static_cast<std::size_t>(sy.id[k])],
                   word[static_cast<std::size_t>(sy.first[k])].begin, word[static_cast<std::size_t>(sy.last[k] - 1)].end});
  }
}

}  // namespace ew
