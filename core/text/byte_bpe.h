// byte_bpe.h — GPT-2's byte-level byte-pair encoding:
//   • the pre-tokenizer regex 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//     written out by hand, with regex's (and Oniguruma's) meaning: \p{L} and \p{N} are the
//     general categories L* and N*, \s is White_Space; a run of white space before a word gives
//     all but its last space to a token of its own (the \s+(?!\S) lookahead), the last goes with
//     the word;
//   • the byte-to-Unicode map (bytes_to_unicode() of GPT-2's encoder.py: printable bytes stand
//     for themselves, the other 68 become U+0100…U+0143, so a space is "Ġ" and a newline "Ċ");
//   • merges by rank: the adjacent pair of lowest rank is merged, everywhere in the word left to
//     right, again until no pair has a rank (encoder.py's bpe(), the tokenizers library's BPE).
// Not here: the vocabulary files (hf_tokenizer_load.cpp); special tokens such as <|endoftext|>
// in the text (hf_tokenizer.cpp); BPE dropout, byte fallback and unknown tokens (unsupported:
// the loader says so).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "text/token_vocab.h"
#include "text/unicode_norm.h"
#include "text/wordpiece.h"

namespace ew {

// bytes_to_unicode(): the code point that stands for each byte, and its inverse (-1: none).
char32_t byte_to_unicode(std::uint8_t b);
int unicode_to_byte(char32_t cp);

// GPT-2's pre-tokenizer: the [begin, end) index ranges of `t` its regex matches, in order
// (they cover all of t).
std::vector<std::pair<int, int>> gpt2_pre_tokenize(const SpanText& t);

// Bytes → their stand-in code points ("Ġthe" for " the"), and back with the UTF-8 decoded
// leniently (each maximal ill-formed subsequence → U+FFFD, as Python's errors="replace");
// a code point that stands for no byte is kept as its own UTF-8.
std::string bytes_to_symbols(std::string_view bytes);
std::string symbols_to_bytes(std::string_view symbols);
std::string utf8_lossy(std::string_view bytes);

struct ByteBpe {
  const TokenVocab* vocab = nullptr;
  bool ignore_merges = false;  // a word that is a vocabulary entry as a whole is one token
  int byte_id[256] = {};       // the vocabulary id of each byte's symbol

  struct Merge {
    int rank, id;  // its line among the merges; the id of the merged token
  };
  std::unordered_map<std::uint64_t, Merge> merges;  // (left id << 32 | right id) → merge

  static std::uint64_t key(int left, int right) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32) | static_cast<std::uint32_t>(right);
  }
  // Appends the pieces of one pre-tokenized word, the code points word[first, last).
  void encode_word(const SpanText& word, int first, int last, std::vector<Piece>& out) const;
};

}  // namespace ew
