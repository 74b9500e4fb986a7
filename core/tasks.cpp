// tasks.cpp — the task generators (tasks.h).
#include "tasks.h"

#include "error.h"
#include "random.h"

namespace ew {

namespace {

const char* const kOnes[] = {"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                             "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
                             "eighteen", "nineteen"};
const char* const kTens[] = {"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"};

// A deterministic stream of 64-bit values for example `index` of a task and split.
struct Draw {
  std::uint64_t stream, i = 0;
  Draw(std::uint64_t s, std::uint64_t index) : stream(splitmix64(s ^ splitmix64(index))) {}
  std::uint64_t next() { return splitmix64(stream + 0x9E3779B97F4A7C15ull * ++i); }
  int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
};

std::string below_100(int n, bool hyphen) {
  if (n < 20) return kOnes[n];
  std::string s = kTens[n / 10];
  if (n % 10) s += (hyphen ? "-" : " ") + std::string(kOnes[n % 10]);
  return s;
}

// 1 ≤ n < 1000, with "and" before the tens if asked ("three hundred and forty two").
std::string below_1000(int n, bool with_and, bool hyphen) {
  if (n < 100) return below_100(n, hyphen);
  std::string s = std::string(kOnes[n / 100]) + " hundred";
  if (n % 100) s += (with_and ? " and " : " ") + below_100(n % 100, hyphen);
  return s;
}

std::string spaced_digits(std::uint64_t n) {
  const std::string d = std::to_string(n);
  std::string out;
  for (char c : d) out += (out.empty() ? "" : " ") + std::string(1, c);
  return out;
}

Example number_words_sample(std::uint64_t seed, std::uint64_t index, Split split) {
  Draw r(seeded_stream(seed, split == Split::Train ? "number-words:train" : "number-words:held-out"), index);
  for (;;) {
    const int digits = 1 + r.below(6);  // as many short numbers as long ones
    int lo = 1, hi = 9;
    for (int k = 1; k < digits; ++k) lo *= 10, hi = hi * 10 + 9;
    const int n = digits == 1 ? r.below(10) : lo + r.below(hi - lo + 1);
    // Numbers below 100 are training-only: every word must be learnable from training.
    const bool held = n >= 100 && is_held_out(static_cast<std::uint64_t>(n));
    if (held != (split == Split::HeldOut)) continue;
    const bool with_and = r.below(2), hyphen = r.below(2);
    return {number_words(n, with_and, hyphen), spaced_digits(static_cast<std::uint64_t>(n)), -1};
  }
}

bool balanced(const std::string& s) {
  int depth = 0;
  for (char c : s) {
    depth += c == '(' ? 1 : -1;
    if (depth < 0) return false;
  }
  return depth == 0;
}

// A bracket string as the canonical value: length in the top bits, the brackets as bits.
std::uint64_t bracket_key(const std::string& s) {
  std::uint64_t k = s.size();
  for (char c : s) k = (k << 1) | (c == '(' ? 1u : 0u);
  return k;
}

std::string random_brackets(Draw& r, int len) {
  std::string s;
  for (int i = 0; i < len; ++i) s += r.below(2) ? '(' : ')';
  return s;
}

// Balanced: a random walk that never goes below 0 and ends at 0.
std::string random_balanced(Draw& r, int len) {
  std::string s;
  int depth = 0;
  for (int i = 0; i < len; ++i) {
    const int left = len - i;
    const bool open = depth == 0 || (depth < left && r.below(2));
    s += open ? '(' : ')';
    depth += open ? 1 : -1;
  }
  return s;
}

Example brackets_sample(std::uint64_t seed, std::uint64_t index, Split split) {
  Draw r(seeded_stream(seed, split == Split::Train ? "brackets:train" : "brackets:held-out"), index);
  for (;;) {
    const int kind = r.below(4);  // 0, 1: balanced; 2: hard negative; 3: any unbalanced
    const int len = kind <= 2 ? 2 * (1 + r.below(12)) : 2 + r.below(23);
    std::string s;
    if (kind <= 1) {
      s = random_balanced(r, len);
    } else if (kind == 2) {  // as many ( as ), "(" first and ")" last, yet unbalanced
      const int n = 2 * (3 + r.below(10));  // 6–24: shorter ones cannot be unbalanced this way
      do {
        std::string mid = std::string(n / 2 - 1, '(') + std::string(n / 2 - 1, ')');
        for (std::size_t i = mid.size(); i > 1; --i) std::swap(mid[i - 1], mid[r.below(static_cast<int>(i))]);
        s = "(" + mid + ")";
      } while (balanced(s));
    } else {
      s = random_brackets(r, len);
      if (balanced(s)) continue;
    }
    // Strings shorter than 10 are training-only (there are too few of them to hold any out).
    const bool held = s.size() >= 10 && is_held_out(bracket_key(s));
    if (held != (split == Split::HeldOut)) continue;
    std::string text;
    for (char c : s) text += (text.empty() ? "" : " ") + std::string(1, c);
    return {text, "", balanced(s) ? 0 : 1};
  }
}

std::vector<std::string> number_vocab() {
  std::vector<std::string> v = {"<pad>", "<s>", "</s>", "<unk>"};
  for (const char* w : kOnes) v.push_back(w);
  for (int t = 2; t < 10; ++t) v.push_back(kTens[t]);
  for (int t = 2; t < 10; ++t)
    for (int u = 1; u < 10; ++u) v.push_back(std::string(kTens[t]) + "-" + kOnes[u]);
  v.push_back("hundred");
  v.push_back("thousand");
  v.push_back("and");
  for (char c = '0'; c <= '9'; ++c) v.push_back(std::string(1, c));
  return v;
}

}  // namespace

// One value in ten is held out, by a hash that does not depend on any seed.
bool is_held_out(std::uint64_t canonical) { return splitmix64(canonical ^ 0x68656C642D6F7574ull) % 10 == 0; }

std::string number_words(int n, bool with_and, bool hyphen) {
  if (n < 0 || n >= 1000000) throw Error("number_words: " + std::to_string(n) + " is outside 0–999,999");
  if (n == 0) return "zero";
  if (n < 1000) return below_1000(n, with_and, hyphen);
  std::string s = below_1000(n / 1000, with_and, hyphen) + " thousand";
  const int rest = n % 1000;
  if (rest) s += (with_and && rest < 100 ? " and " : " ") + below_1000(rest, with_and, hyphen);
  return s;
}

const std::vector<Task>& tasks() {
  static const std::vector<Task> all = {
      {"number-words", "English number words (0–999,999) to their digits", false, {}, number_vocab(),
       number_words_sample},
      {"brackets", "Is a string of brackets balanced?", true, {"balanced", "unbalanced"},
       {"<pad>", "<s>", "</s>", "<unk>", "(", ")"}, brackets_sample},
  };
  return all;
}

const Task& find_task(const std::string& name) {
  std::string names;
  for (const Task& t : tasks()) {
    if (t.name == name) return t;
    names += (names.empty() ? "" : ", ") + t.name;
  }
  throw Error("unknown task \"" + name + "\" (tasks: " + names + ")");
}

}  // namespace ew
