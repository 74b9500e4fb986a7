// wordpiece.h — BERT's tokenizer: the basic tokenizer (clean the text, split out CJK
// ideographs, lower-case and strip accents when asked, split on white space and punctuation)
// and WordPiece (greedy longest-match-first pieces, "##" on the pieces that continue a word,
// [UNK] for a word longer than max_input_chars_per_word or with no match).
//
// It comes in the two flavours a checkpoint's files can ask for, which differ in small ways:
//   BertFlavor::python   — vocab.txt, as transformers' BertTokenizer (BasicTokenizer) does it:
//     drops every C* code point (unassigned ones too) but \t\n\r; white space is ' ', \t\n\r and
//     Zs; the CJK ranges of _is_chinese_char (Extension E from U+2B820); then NFC; then splits
//     on str.isspace(); then per word lower-cases (unless the word is never_split) and strips
//     accents (NFD, drop Mn), then splits punctuation. (The one-code-point-at-a-time lower-casing
//     that BertTokenizer.tokenize does before all this is in hf_tokenizer.cpp.)
//   BertFlavor::library  — tokenizer.json's BertNormalizer + BertPreTokenizer (the tokenizers
//     library): drops Cc, Cf and Co but \t\n\r (unassigned code points stay); white space is
//     \t\n\r and White_Space; its CJK ranges start Extension E at U+2B920 (as the library's
//     source has it); no NFC; strips accents (NFD, drop Mn) *before* lower-casing; splits on
//     White_Space and punctuation.
// Punctuation is ASCII 33–47, 58–64, 91–96, 123–126 and Unicode P* in both.
// Not here: special tokens in the text, [CLS]/[SEP] (hf_tokenizer.h); reading vocab.txt.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "text/token_vocab.h"
#include "text/unicode_norm.h"

namespace ew {

enum class BertFlavor { python, library };

struct BertNormalizerOptions {
  bool clean_text = true;
  bool handle_chinese_chars = true;
  bool lowercase = true;
  int strip_accents = -1;  // -1: as lowercase (the default of both), 0: no, 1: yes
  bool strips_accents() const { return strip_accents < 0 ? lowercase : strip_accents == 1; }
};

bool is_bert_chinese_char(char32_t cp, BertFlavor flavor);
bool is_bert_punctuation(char32_t cp);

// The python flavour's whole basic tokenizer: the words, each a run of code points with spans.
// A word in `never_split` (after cleaning and NFC) is kept whole: not lower-cased, not split.
std::vector<SpanText> bert_basic_tokenize(const SpanText& text, const BertNormalizerOptions& opt,
                                          const std::set<std::string>& never_split);

// The library flavour, in its two stages: BertNormalizer, then BertPreTokenizer.
SpanText bert_normalize(const SpanText& text, const BertNormalizerOptions& opt);
std::vector<SpanText> bert_pre_tokenize(const SpanText& text);

// One piece of the output: its id, its spelling in the vocabulary and the input code points
// it covers.
struct Piece {
  int id;
  std::string token;
  int begin, end;
};

struct WordPiece {
  const TokenVocab* vocab = nullptr;
  std::string unk_token = "[UNK]";
  std::string prefix = "##";          // continuing_subword_prefix
  int max_input_chars_per_word = 100;
  int longest_token = 0;              // code points of the vocabulary's longest entry (a bound)

  void set_vocab(const TokenVocab* v);  // also computes longest_token
  // Appends the pieces of one word; the whole word as unk_token if it has too many code points
  // or a position no vocabulary entry matches. unk_token must be in the vocabulary.
  void encode_word(const SpanText& word, std::vector<Piece>& out) const;
};

}  // namespace ew
