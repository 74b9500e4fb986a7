// byte_bpe.h — byte-pair encoding as the tokenizers library's BPE model runs it, in its two
// flavours:
//   byte-level (GPT-2, Qwen, Llama 3, SmolLM2): a word's UTF-8 bytes, each written as its
//     stand-in code point (bytes_to_unicode() of GPT-2's encoder.py: printable bytes stand for
//     themselves, the other 68 become U+0100…U+0143, so a space is "Ġ" and a newline "Ċ");
//   over code points (SentencePiece-style: Llama 2, Gemma): each character its own symbol; one
//     the vocabulary lacks becomes its UTF-8 bytes as "<0xE2>" tokens (byte_fallback), else the
//     unknown token (consecutive unknowns fused into one with fuse_unk), else nothing;
// then merges by rank: the adjacent pair of lowest rank merges first, leftmost first among
// equals, until no pair has a rank (the library's BPE::merge_word; a heap, so a long word costs
// O(n log n)). ignore_merges: a word that is a vocabulary entry as a whole is that one token.
// Also GPT-2's pre-tokenizer regex 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
// written out by hand (tokenizer.json's ByteLevel use_regex; other regexes: split_regex.h).
// Not here: the vocabulary files (hf_tokenizer_load.cpp); special tokens such as <|endoftext|>
// in the text (hf_tokenizer.cpp); BPE dropout, continuing_subword_prefix, end_of_word_suffix
// (the loader refuses them by name).
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

struct BpeSymbols;  // byte_bpe.cpp

struct ByteBpe {
  const TokenVocab* vocab = nullptr;
  bool byte_level = true;      // false: symbols are code points (with byte_fallback / unk_id)
  bool ignore_merges = false;  // a word that is a vocabulary entry as a whole is one token
  int byte_id[256] = {};       // byte-level: the id of each byte's stand-in; else of "<0xNN>" (-1: none)
  bool byte_fallback = false;  // over code points: an unknown character becomes its bytes' tokens
  bool fuse_unk = false;       // consecutive unknown characters give one unknown token
  int unk_id = -1;             // -1: an unknown character (without byte fallback) is dropped

  struct Merge {
    int rank, id;  // its line among the merges; the id of the merged token
  };
  std::unordered_map<std::uint64_t, Merge> merges;  // (left id << 32 | right id) → merge

  static std::uint64_t key(int left, int right) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32) | static_cast<std::uint32_t>(right);
  }
  // Appends the pieces of one pre-tokenized word, the code points word[first, last).
  void encode_word(const SpanText& word, int first, int last, std::vector<Piece>& out) const;

 private:
  void initial_symbols(const SpanText& word, int first, int last, std::string& utf8, BpeSymbols& sy) const;
};

}  // namespace ew
