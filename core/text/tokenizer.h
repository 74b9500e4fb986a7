// tokenizer.h — text to tokens: whitespace split (seed 000), one token per character, the
// regex word/punctuation tokenizer (seed 001: \b\w+\b|[.,!?;]) and byte-pair encoding (seed 001's BPE, trained
// on a corpus with every merge recorded, then applied to new text).
//
// All of it is UTF-8 aware: a multi-byte character is never split, and non-ASCII
// letters and digits are word characters (\w), as in Python 3's re on str.
// Invalid UTF-8 is rejected with ew::Error naming the byte offset.
// Not here: vocabularies and ids (vocab.h), normalisation such as lower-casing.
#pragma once
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ew {

// Throws ew::Error("invalid UTF-8 at byte N") if `text` is not valid UTF-8.
void validate_utf8(std::string_view text);

// Splits on Unicode white space (Python's str.split() with no argument).
std::vector<std::string> tokenize_whitespace(std::string_view text);

// Every character that is not white space is one token ([c for c in s if not c.isspace()]):
// "(())" and "( ( ) )" are the same four tokens (the brackets task's tokenizer).
std::vector<std::string> tokenize_chars(std::string_view text);

// Seed 001's simple_tokenize: re.findall(r'(\b\w+\b|[.,!?;])', text).
// Everything else (other punctuation, symbols) is dropped, exactly as the seed does.
std::vector<std::string> tokenize_regex(std::string_view text);

// A run of characters tokenize_regex skips: neither \b\w+\b (no letter, digit or _ there)
// nor [.,!?;] matches at any of them — an emoji, a symbol, other punctuation. White space
// (which every tokenizer skips) is not listed; a run ends at white space or a token.
struct SkippedSpan {
  int start = 0, length = 0;  // in code points of the whole text, as Python's str indices
  std::string text;           // the characters, as UTF-8
};
extern const char* const kRegexSkipReason;  // the reason in words (English; the page has its own)

// What tokenize_regex(text) skips, with start offsets shifted by `base` code points.
std::vector<SkippedSpan> regex_skipped(std::string_view text, int base = 0);

// Number of code points in valid UTF-8 `text`.
int utf8_length(std::string_view text);

// One BPE merge as seed 001 prints it.
struct BpeMerge {
  std::pair<std::string, std::string> pair;  // the most frequent adjacent pair
  long count = 0;                            // its frequency
  // The vocabulary (space-separated symbols ending in "</w>", with frequency) in
  // first-seen order, before and after the merge.
  std::vector<std::pair<std::string, long>> vocab_before, vocab_after;
};

struct BpeModel {
  std::vector<BpeMerge> merges;                             // in the order learned
  std::vector<std::pair<std::string, long>> final_vocab;    // after the last merge
};

// Learns up to `num_merges` merges from `words` (seed 001's get_vocab / get_stats /
// merge_vocab). Ties between equally frequent pairs go to the pair seen first, as
// Python's max() over an insertion-ordered dict does. Stops early when no pair is left.
BpeModel bpe_train(const std::vector<std::string>& words, int num_merges);

// The same merges as bpe_train (same counts, same tie-breaking: the pair seen first in the
// seed's get_stats order wins a tie) without the vocabulary snapshots, at corpus scale:
// pair counts over the table of distinct words, updated only for the words a merge touches.
// final_vocab is filled; each merge's vocab_before/vocab_after are left empty.
BpeModel bpe_learn(const std::vector<std::string>& words, int num_merges);

// A merge as a model file stores it: "a b" (symbols hold no white space). Throws ew::Error
// naming `where` unless the text is two non-empty symbols separated by one space.
std::pair<std::string, std::string> bpe_merge_from_string(const std::string& text, const std::string& where);

// Splits each word into characters + "</w>" and applies the learned merges in order.
// Returns the subword tokens of all words, concatenated ("low</w>", "low", "e", ...).
std::vector<std::string> bpe_encode(const BpeModel& model, const std::vector<std::string>& words);

}  // namespace ew
