// tokenizer.cpp — strict UTF-8 decoding, the whitespace and regex tokenizers, and seed
// 001's byte-pair encoding, all reproducing what CPython 3 does on str:
//   tokenize_whitespace = str.split(); tokenize_regex = re.findall(r'(\b\w+\b|[.,!?;])', s);
//   bpe_train = get_vocab / get_stats / max(pairs, key=pairs.get) / merge_vocab.
// Character classes come from the generated tables (unicode_tables.h).
#include "text/tokenizer.h"

#include <cstddef>
#include <cstdint>
#include <climits>
#include <cstdint>
#include <unordered_map>

#include "model/error.h"
#include "text/unicode_tables.h"

namespace ew {

namespace {

// One decoded character: its code point and where its bytes are in the text.
struct Char {
  char32_t cp;
  std::size_t offset, size;
};

[[noreturn]] void bad_utf8(std::size_t at) {
  throw Error("invalid UTF-8 at byte " + std::to_string(at), "invalid_utf8", {{"byte", std::to_string(at)}});
}

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


// One word through the merges (see bpe_encode): repeatedly the first merge after `last`
// whose pair occurs in the word.
Symbols encode_word(const BpeModel& model, const std::unordered_map<std::string, std::vector<int>>& ranks,
                    std::string_view word) {
  Symbols syms = initial_symbols(word);
  int last = -1;
  for (;;) {
    int next = -1;
    for (std::size_t i = 0; i + 1 < syms.size(); ++i) {
      auto it = ranks.find(syms[i] + ' ' + syms[i + 1]);
      if (it == ranks.end()) continue;
      for (int k : it->second)
        if (k > last) {
          if (next < 0 || k < next) next = k;
          break;
        }
    }
    if (next < 0) return syms;
    syms = merge_symbols(syms, model.merges[next].pair.first, model.merges[next].pair.second);
    last = next;
  }
}

// ---- BPE at corpus scale (bpe_learn) --------------------------------------------------------

using Key = std::uint64_t;  // a pair of interned symbol ids
Key key_of(int a, int b) { return (static_cast<Key>(static_cast<std::uint32_t>(a)) << 32) | static_cast<std::uint32_t>(b); }

struct Learner {
  std::vector<std::string> names;               // interned symbols
  std::unordered_map<std::string, int> ids;
  std::vector<std::vector<int>> words;          // distinct words, first-seen order
  std::vector<long> freq;
  std::unordered_map<Key, long> counts;         // pair → total frequency (entries > 0 only)
  std::unordered_map<Key, std::vector<int>> where;  // pair → words that had it (may be stale)
  std::vector<int> stamp;                       // dedupes a where list per merge

  int intern(const std::string& s) {
    auto [it, fresh] = ids.emplace(s, static_cast<int>(names.size()));
    if (fresh) names.push_back(s);
    return it->second;
  }
  void count(int w, long sign) {
    const auto& sy = words[w];
    for (std::size_t i = 0; i + 1 < sy.size(); ++i) {
      const Key k = key_of(sy[i], sy[i + 1]);
      long& c = counts[k];
      c += sign * freq[w];
      if (c == 0) counts.erase(k);
      else if (sign > 0) where[k].push_back(w);
    }
  }
  // Position of the first occurrence of k in word w, or -1.
  int find(int w, Key k) const {
    const auto& sy = words[w];
    for (std::size_t i = 0; i + 1 < sy.size(); ++i)
      if (key_of(sy[i], sy[i + 1]) == k) return static_cast<int>(i);
    return -1;
  }
  // Where get_stats would first insert k: (word index, position).
  std::pair<int, int> first_seen(Key k) const {
    std::pair<int, int> best{INT32_MAX, INT32_MAX};
    for (int w : where.at(k))
      if (w < best.first) {
        const int pos = find(w, k);
        if (pos >= 0) best = {w, pos};
      }
    return best;
  }
  // max(pairs, key=pairs.get) over get_stats' insertion order.
  Key best() const {
    long top = 0;
    std::vector<Key> tied;
    for (const auto& [k, c] : counts) {
      if (c > top) top = c, tied.clear();
      if (c == top) tied.push_back(k);
    }
    Key b = tied[0];
    std::pair<int, int> at = first_seen(b);
    for (std::size_t i = 1; i < tied.size(); ++i) {
      const auto f = first_seen(tied[i]);
      if (f < at) at = f, b = tied[i];
    }
    return b;
  }
  void merge(Key k, int merged, int round) {
    const int a = static_cast<int>(k >> 32), b = static_cast<int>(k & 0xffffffffu);
    const std::vector<int> list = where[k];  // copy: count() appends to where lists
    for (int w : list) {
      if (stamp[w] == round || find(w, k) < 0) continue;
      stamp[w] = round;
      count(w, -1);
      std::vector<int> out;
      const auto& sy = words[w];
      for (std::size_t i = 0; i < sy.size();) {
        if (i + 1 < sy.size() && sy[i] == a && sy[i + 1] == b) out.push_back(merged), i += 2;
        else out.push_back(sy[i]), i += 1;
      }
      words[w] = std::move(out);
      count(w, +1);
    }
  }
};

}  // namespace

void validate_utf8(std::string_view text) { (void)decode(text); }

std::pair<std::string, std::string> bpe_merge_from_string(const std::string& text, const std::string& where) {
  validate_utf8(text);
  const std::vector<std::string> parts = tokenize_whitespace(text);
  if (parts.size() != 2 || text != parts[0] + ' ' + parts[1])
    throw Error(where + " must be two symbols separated by one space (\"l o\"), got \"" + text + "\"");
  return {parts[0], parts[1]};
}

std::vector<std::string> tokenize_chars(std::string_view text) {
  const std::vector<Char> chars = decode(text);
  std::vector<std::string> out;
  for (const Char& c : chars)
    if (!is_space_char(c.cp)) out.emplace_back(bytes_of(text, c, c));
  return out;
}

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

const char* const kRegexSkipReason =
    "neither \\b\\w+\\b (a run of letters, digits or _) nor [.,!?;] matches here, so the regex tokenizer drops it";

std::vector<SkippedSpan> regex_skipped(std::string_view text, int base) {
  const std::vector<Char> chars = decode(text);
  auto skipped = [](char32_t cp) {
    return !is_word_char(cp) && !is_space_char(cp) && cp != '.' && cp != ',' && cp != '!' && cp != '?' && cp != ';';
  };
  std::vector<SkippedSpan> out;
  for (std::size_t i = 0; i < chars.size();) {
    if (!skipped(chars[i].cp)) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j + 1 < chars.size() && skipped(chars[j + 1].cp)) ++j;
    out.push_back({base + static_cast<int>(i), static_cast<int>(j - i + 1), std::string(bytes_of(text, chars[i], chars[j]))});
    i = j + 1;
  }
  return out;
}

int utf8_length(std::string_view text) {
  int n = 0;
  for (char ch : text) n += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
  return n;
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

// Equivalent to applying every merge in order (merge_symbols, a no-op where the pair is
// absent), but fast for thousands of merges: each step applies the earliest merge after the
// last one applied whose pair is present. Each distinct word is encoded once.
BpeModel bpe_learn(const std::vector<std::string>& words, int num_merges) {
  Learner L;
  for (const Entry& e : get_vocab(words)) {
    std::vector<int> sy;
    for (const std::string& s : e.symbols) sy.push_back(L.intern(s));
    L.words.push_back(std::move(sy));
    L.freq.push_back(e.freq);
  }
  L.stamp.assign(L.words.size(), -1);
  for (std::size_t w = 0; w < L.words.size(); ++w) L.count(static_cast<int>(w), +1);
  BpeModel model;
  for (int m = 0; m < num_merges && !L.counts.empty(); ++m) {
    const Key k = L.best();
    BpeMerge merge;
    merge.pair = {L.names[k >> 32], L.names[k & 0xffffffffu]};
    merge.count = L.counts.at(k);
    L.merge(k, L.intern(merge.pair.first + merge.pair.second), m);
    model.merges.push_back(std::move(merge));
  }
  for (std::size_t w = 0; w < L.words.size(); ++w) {
    Symbols sy;
    for (int id : L.words[w]) sy.push_back(L.names[id]);
    model.final_vocab.emplace_back(join(sy), L.freq[w]);
  }
  return model;
}

std::vector<std::string> bpe_encode(const BpeModel& model, const std::vector<std::string>& words) {
  std::unordered_map<std::string, std::vector<int>> ranks;  // "a b" → the merges of that pair, ascending
  for (std::size_t k = 0; k < model.merges.size(); ++k)
    ranks[model.merges[k].pair.first + ' ' + model.merges[k].pair.second].push_back(static_cast<int>(k));
  std::unordered_map<std::string, Symbols> cache;
  std::vector<std::string> out;
  for (const std::string& line : words)
    for (const std::string& word : tokenize_whitespace(line)) {  // as get_vocab splits its lines
      auto [it, fresh] = cache.emplace(word, Symbols{});
      if (fresh) it->second = encode_word(model, ranks, word);
      for (const std::string& s : it->second) out.push_back(s);
    }
  return out;
}

}  // namespace ew
