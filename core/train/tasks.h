// tasks.h — the small tasks the project trains its models on, generated in C++ from a seed,
// each with a held-out set the training never sees: an example belongs to the held-out set
// when a hash of its canonical value (the number, the bracket string) says so, whatever its
// spelling, so no held-out value can ever appear in training. Small values (numbers below
// 100, bracket strings shorter than 10) are training-only: every word and short pattern must
// be learnable, and the held-out set tests composing them into values never seen.
//
//   number-words (encoder–decoder): English number words 0–999,999 → their digits,
//     "three hundred forty-two" → "3 4 2", "twelve thousand and five" → "1 2 0 0 5"
//     (with and without "and"; tens hyphenated or not). Whitespace tokens: "forty-two" is one.
//   brackets (encoder-only classifier, labels balanced/unbalanced): "( ( ) )" — strings of
//     2–24 brackets, half balanced; a quarter are hard negatives (as many "(" as ")", first
//     "(" and last ")", yet unbalanced).
//   dates (encoder–decoder): "23 November 2026", "November 23, 2026", "23 Nov 2026",
//     "23/11/2026" (day and month zero-padded) → "2026-11-23"; years 1900–2099, real dates
//     only (leap years by the Gregorian rule). Read with seed 001's regex tokenizer
//     (\b\w+\b|[.,!?;]): "23/11/2026" is [23, 11, 2026], "November 23, 2026" is [November,
//     23, ",", 2026], and the target "2026-11-23" is [2026, 11, 23] — the year, the padded
//     month, the padded day: each output token copies or translates exactly one source token,
//     and every output token is already a source token, so the output adds nothing to the
//     vocabulary (268 tokens). Held out by a hash of the date (yyyymmdd), whatever its format.
// Every encoder–decoder example also says, per target token, which source token produces it
// (Example::align): the ground truth the cross-attention measurement (analyze.h) compares with.
// masked-words is a Task too, but not in tasks(): it reads a corpus from files and learns its
// vocabulary there (masked_words.h builds it at run time).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "model/model.h"

namespace ew {

struct Example {
  std::string source;  // the text the encoder reads
  std::string target;  // what the decoder should produce (encoder–decoder tasks)
  int label = -1;      // the right label (classifier tasks)
  // Per target token (the tokens of `target`, </s> not included): the index of the source token
  // that produces it, or -1 where no source token does. number-words: the word that says the
  // digit ("forty-two" both digits, "twelve" both, "forty" its 0); a zero filler the words do
  // not say aligns to the scale word it stands for: the group's "hundred" ("three hundred five":
  // the 0 → "hundred"), else "thousand" ("twelve thousand and five": both 0s → "thousand").
  // "and" produces nothing. dates: the year, month and day token.
  std::vector<int> align;
  // Masked-word tasks: the right token of each [MASK] of `source`, in order.
  std::vector<std::string> mask_targets;
};

enum class Split { Train, HeldOut };

struct Task {
  std::string name;
  std::string description;
  bool classifier = false;
  std::vector<std::string> labels;  // classifier label names
  std::vector<std::string> vocab;   // every token either side uses; <pad> <s> </s> <unk> first
  // Example `index` of a split, a pure function of its arguments.
  std::function<Example(std::uint64_t seed, std::uint64_t index, Split split)> sample;
  TokenizerKind tokenizer = TokenizerKind::Whitespace;  // how the model reads source and target
  // A masked-word task (encoder only, config.masked_lm): examples carry mask_targets.
  bool masked_lm = false;
  std::vector<std::pair<std::string, std::string>> merges;  // BPE merges (tokenizer Bpe)
  int max_tokens = 0;              // the model's config.max_tokens (0: the config's default)
  std::uint64_t held_out_size = 0;  // held-out examples there are (0: as many as asked for)

  bool decoder() const { return !classifier && !masked_lm; }  // an encoder–decoder task
};

const std::vector<Task>& tasks();
const Task& find_task(const std::string& name);  // ew::Error listing the tasks when unknown

// number-words' spelling of n (0 ≤ n < 1,000,000), for the tests and the page.
std::string number_words(int n, bool with_and, bool hyphen);
// Its alignment (Example::align): per digit of n, the index of the word that produces it.
std::vector<int> number_alignment(int n, bool with_and, bool hyphen);
bool is_held_out(std::uint64_t canonical);
// A real Gregorian date (1 ≤ month ≤ 12, 1 ≤ day ≤ the month's length)?
bool is_real_date(int year, int month, int day);
// dates' spelling of a date in format 0 "23 November 2026", 1 "November 23, 2026",
// 2 "23 Nov 2026", 3 "23/11/2026".
std::string date_words(int year, int month, int day, int format);

}  // namespace ew
