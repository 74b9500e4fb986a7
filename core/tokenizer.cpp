// tokenizer.cpp — strict UTF-8 decoding, the whitespace and regex tokenizers, and seed
// 001's byte-pair encoding, all reproducing what CPython 3 does on str:
//   tokenize_whitespace = str.split(); tokenize_regex = re.findall(r'(\b\w+\b|[.,!?;])', s);
//   bpe_train = get_vocab / get_stats / max(pairs, key=pairs.get) / merge_vocab.
// Character classes come from the generated tables (unicode_tables.h).
#include "tokenizer.h"

#include <cstddef>
#include <cstdint>
#include <unordered_map>

#include "error.h"
#include "unicode_tables.h"

namespace ew {

namespace {

// One decoded character: its code point and where its bytes are in the text.
struct Char {
  char32_t cp;
  std::size_t offset, size;
};

[[noreturn]] void bad_utf8(std::size_t at) { throw Error("invalid UTF-8 at byte " + std::to_string(at)); }

// Strict UTF-8 (Unicode Table 3-7): no overlong forms, no surrogates, nothing above
// U+10FFFF, no truncated sequences. The offset reported is the first byte of the bad
// sequence (what Python's UnicodeDecodeError.start reports).
std::vector<Char> decode(std::string_view s) {
  std::vector<Char> out;
  out.reserve(s.size());
  std::size_t i = 0;
  const std::size_t n = s.size();
  auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(s[k]); };
  while (i < n) {
    const std::uint8_t b0 = byte(i);
    if (b0 < 0x80) {
      out.push_back({b0, i, 1});
      ++i;
      continue;
    }
    std::size_t len;
    char32_t cp;
    std::uint8_t lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (b0 >= 0xC2 && b0 <= 0xDF) {
      len = 2, cp = b0 & 0x1F;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
      len = 3, cp = b0 & 0x0F;
      if (b0 == 0xE0) lo = 0xA0;  // overlong
      if (b0 == 0xED) hi = 0x9F;  // surrogates U+D800..DFFF
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
      len = 4, cp = b0 & 0x07;
      if (b0 == 0xF0) lo = 0x90;  // overlong
      if (b0 == 0xF4) hi = 0x8F;  // above U+10FFFF
    } else {
      bad_utf8(i);  // continuation byte, C0/C1 (overlong) or F5..FF
    }
    for (std::size_t k = 1; k < len; ++k) {
      if (i + k >= n) bad_utf8(i);
      const std::uint8_t b = byte(i + k);
      if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) bad_utf8(i);
      cp = (cp << 6) | (b & 0x3F);
    }
    out.push_back({cp, i, len});
    i += len;
  }
  return out;
}

std::string_view bytes_of(std::string_view s, const Char& first, const Char& last) {
  return s.substr(first.offset, last.offset + last.size - first.offset);
}

// ---- BPE (seed 001) ---------------------------------------------------------------------

using Symbols = std::vector<std::string>;

struct Entry {
  Symbols symbols;
  long freq;
};

// The vocabulary key as the seed's dict holds it: symbols joined by single spaces.
std::string join(const Symbols& syms) {
  std::string out;
  for (std::size_t i = 0; i < syms.size(); ++i) {
    if (i) out += ' ';
    out += syms[i];
  }
  return out;
}

// list(word) + ["</w>"]: one symbol per code point, then the end-of-word marker.
Symbols initial_symbols(std::string_view word) {
  Symbols syms;
  for (const Char& c : decode(word)) syms.emplace_back(word.substr(c.offset, c.size));
  syms.emplace_back("</w>");
  return syms;
}

// get_vocab: for line in data: for word in line.split(): vocab[' '.join(word) + ' </w>'] += 1
std::vector<Entry> get_vocab(const std::vector<std::string>& data) {
  std::vector<Entry> vocab;
  std::unordered_map<std::string, std::size_t> index;
  for (const std::string& line : data)
    for (const std::string& word : tokenize_whitespace(line)) {
      Symbols syms = initial_symbols(word);
      auto [it, fresh] = index.emplace(join(syms), vocab.size());
      if (fresh) vocab.push_back({std::move(syms), 0});
      vocab[it->second].freq += 1;
    }
  return vocab;
}

// merge_vocab: re.sub(r'(?<!\S)' + re.escape(a + ' ' + b) + r'(?!\S)', a + b, word).
// Symbols contain no white space, so the lookarounds pin the match to whole symbols: it is
// a left-to-right, non-overlapping replacement of the adjacent symbols (a, b) by a + b.
Symbols merge_symbols(const Symbols& in, const std::string& a, const std::string& b) {
  Symbols out;
  out.reserve(in.size());
  for (std::size_t i = 0; i < in.size();) {
    if (i + 1 < in.size() && in[i] == a && in[i + 1] == b) {
      out.push_back(a + b);
      i += 2;
    } else {
      out.push_back(in[i]);
      i += 1;
    }
  }
  return out;
}

std::vector<std::pair<std::string, long>> snapshot(const std::vector<Entry>& vocab) {
  std::vector<std::pair<std::string, long>> out;
  out.reserve(vocab.size());
  for (const Entry& e : vocab) out.emplace_back(join(e.symbols), e.freq);
  return out;
}

}  // namespace

void validate_utf8(std::string_view text) { (void)decode(text); }

std::vector<std::string> tokenize_whitespace(std::string_view text) {
  const std::vector<Char> chars = decode(text);
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < chars.size()) {
    if (is_space_char(chars[i].cp)) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j + 1 < chars.size() && !is_space_char(chars[j + 1].cp)) ++j;
    out.emplace_back(bytes_of(text, chars[i], chars[j]));
    i = j + 1;
  }
  return out;
}

// findall scans left to right. \b\w+\b can only match at the start of a run of word
// characters (\b) and, \w+ being greedy, takes the whole run (the closing \b then holds),
// so the matches are: every maximal run of \w, and every single one of . , ! ? ;
std::vector<std::string> tokenize_regex(std::string_view text) {
  const std::vector<Char> chars = decode(text);
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < chars.size()) {
    const char32_t cp = chars[i].cp;
    if (is_word_char(cp)) {
      std::size_t j = i;
      while (j + 1 < chars.size() && is_word_char(chars[j + 1].cp)) ++j;
      out.emplace_back(bytes_of(text, chars[i], chars[j]));
      i = j + 1;
      continue;
    }
    if (cp == '.' || cp == ',' || cp == '!' || cp == '?' || cp == ';') out.emplace_back(1, static_cast<char>(cp));
    ++i;
  }
  return out;
}

BpeModel bpe_train(const std::vector<std::string>& words, int num_merges) {
  BpeModel model;
  std::vector<Entry> vocab = get_vocab(words);
  for (int m = 0; m < num_merges; ++m) {
    // get_stats: pair counts in first-seen order (a defaultdict keeps insertion order).
    std::vector<std::pair<std::pair<std::string, std::string>, long>> pairs;
    std::unordered_map<std::string, std::size_t> index;  // "a b" → position in pairs
    for (const Entry& e : vocab)
      for (std::size_t i = 0; i + 1 < e.symbols.size(); ++i) {
        const std::string& a = e.symbols[i];
        const std::string& b = e.symbols[i + 1];
        auto [it, fresh] = index.emplace(a + ' ' + b, pairs.size());
        if (fresh) pairs.push_back({{a, b}, 0});
        pairs[it->second].second += e.freq;
      }
    if (pairs.empty()) break;  // the seed's max() would raise here
    // max(pairs, key=pairs.get): the first pair with the highest count.
    std::size_t best = 0;
    for (std::size_t k = 1; k < pairs.size(); ++k)
      if (pairs[k].second > pairs[best].second) best = k;

    BpeMerge merge;
    merge.pair = pairs[best].first;
    merge.count = pairs[best].second;
    merge.vocab_before = snapshot(vocab);
    // Distinct words stay distinct keys (merging keeps each word's spelling), so the
    // seed's v_out[w_out] = v_in[word] never overwrites: order and counts carry over.
    for (Entry& e : vocab) e.symbols = merge_symbols(e.symbols, merge.pair.first, merge.pair.second);
    merge.vocab_after = snapshot(vocab);
    model.merges.push_back(std::move(merge));
  }
  model.final_vocab = snapshot(vocab);
  return model;
}

std::vector<std::string> bpe_encode(const BpeModel& model, const std::vector<std::string>& words) {
  std::vector<std::string> out;
  for (const std::string& line : words)
    for (const std::string& word : tokenize_whitespace(line)) {  // as get_vocab splits its lines
      Symbols syms = initial_symbols(word);
      for (const BpeMerge& m : model.merges) syms = merge_symbols(syms, m.pair.first, m.pair.second);
      for (std::string& s : syms) out.push_back(std::move(s));
    }
  return out;
}

}  // namespace ew
