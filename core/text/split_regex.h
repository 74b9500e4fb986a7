// split_regex.h — the regular expressions of tokenizer.json's Split pre-tokenizer and Replace
// normalizer, matched as the tokenizers library's Oniguruma matches them: backtracking,
// leftmost-first alternation, greedy quantifiers (lazy with a trailing ?). The subset is what
// the real files use (Qwen2.5/3, Llama 3, SmolLM2, GPT-4o-style patterns):
//   literals and escapes (\r \n \t \f \v \' \\ …), . (anything but \n), classes [...] / [^...]
//   with ranges, \p{L} \p{N} \p{Lu} … \P{…} (general categories), \s \S (White_Space),
//   \d \D (Nd), \w \W (letters, marks, Nd, Pc); groups (...) (?:...) (?i:...) (case-insensitive
//   by simple lower-case folding), lookahead (?=...) (?!...); quantifiers ? * + {n} {n,} {n,m}
//   on one character or class.
// Refused by name (an ew::Error from compile, which the loader turns into a message naming the
// key): quantified groups, lookbehind, anchors, back-references, possessive quantifiers, inline
// flags other than i, groups nested over 32 deep, patterns over 1,024 characters. With no
// repeated groups, matching recurses once per pattern item, never per character; a pattern whose
// alternatives backtrack without end stops after 1,000,000 steps at one position with an
// ew::Error (code regex_too_slow) from find_all.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ew {

class SplitRegex {
 public:
  // Throws ew::Error (code regex_unsupported, message naming the construct and its offset).
  static SplitRegex compile(std::string_view pattern);
  // A pattern that matches `literal` as written (tokenizer.json's {"String": …}).
  static SplitRegex literal(std::string_view literal);

  // The non-empty, non-overlapping matches in `text`, leftmost first: [begin, end) indices.
  // Throws ew::Error (regex_too_slow) past the step budget.
  std::vector<std::pair<int, int>> find_all(const std::u32string& text) const;

  SplitRegex(SplitRegex&&) noexcept;
  SplitRegex& operator=(SplitRegex&&) noexcept;
  SplitRegex(const SplitRegex&);
  SplitRegex& operator=(const SplitRegex&);
  ~SplitRegex();

  struct Impl;

 private:
  SplitRegex();
  std::shared_ptr<const Impl> impl_;  // immutable once compiled: copies share it
};

}  // namespace ew
