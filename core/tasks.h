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
// Deliberately not here yet: dates, masked words.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ew {

struct Example {
  std::string source;  // the text the encoder reads
  std::string target;  // what the decoder should produce (encoder–decoder tasks)
  int label = -1;      // the right label (classifier tasks)
};

enum class Split { Train, HeldOut };

struct Task {
  std::string name;
  std::string description;
  bool classifier = false;
  std::vector<std::string> labels;  // classifier label names
  std::vector<std::string> vocab;   // every token either side uses; <pad> <s> </s> <unk> first
  Example (*sample)(std::uint64_t seed, std::uint64_t index, Split split) = nullptr;
};

const std::vector<Task>& tasks();
const Task& find_task(const std::string& name);  // ew::Error listing the tasks when unknown

// number-words' spelling of n (0 ≤ n < 1,000,000), for the tests and the page.
std::string number_words(int n, bool with_and, bool hyphen);
bool is_held_out(std::uint64_t canonical);

}  // namespace ew
