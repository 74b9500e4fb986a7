// tasks.cpp — the task generators (tasks.h).
#include "train/tasks.h"

#include <array>

#include "model/error.h"
#include "model/random.h"

namespace ew {

namespace {

const char* const kOnes[] = {"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                             "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
                             "eighteen", "nineteen"};
const char* const kTens[] = {"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"};
const char* const kMonths[] = {"January", "February", "March",     "April",   "May",      "June",
                               "July",    "August",   "September", "October", "November", "December"};

std::string two_digits(int n) { return (n < 10 ? "0" : "") + std::to_string(n); }

// A deterministic stream of 64-bit values for example `index` of a task and split.
struct Draw {
  std::uint64_t stream, i = 0;
  Draw(std::uint64_t s, std::uint64_t index) : stream(splitmix64(s ^ splitmix64(index))) {}
  std::uint64_t next() { return splitmix64(stream + 0x9E3779B97F4A7C15ull * ++i); }
  int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
};

// Number words with, for each digit of the number, the index of the word that says it.
struct Spelling {
  std::vector<std::string> words;
  std::vector<int> align;  // per digit, most significant first (Example::align)
  int push(const std::string& w) {
    words.push_back(w);
    return static_cast<int>(words.size()) - 1;
  }
};

// Appends the words of 1 ≤ g < 1000 ("three hundred and forty-two"; "and" before the tens if
// asked) and returns the word index that says its hundreds, tens and units digit: zero
// fillers after a hundred → that "hundred"; -1 where the group's words say nothing (g < 100).
std::array<int, 3> spell_group(Spelling& s, int g, bool with_and, bool hyphen) {
  std::array<int, 3> at = {-1, -1, -1};
  const int h = g / 100, r = g % 100;
  int hundred = -1;
  if (h) {
    at[0] = s.push(kOnes[h]);
    hundred = s.push("hundred");
    if (r && with_and) s.push("and");
  }
  if (r >= 20 && r % 10 && hyphen) {
    at[1] = at[2] = s.push(std::string(kTens[r / 10]) + "-" + kOnes[r % 10]);
  } else if (r >= 20) {
    at[1] = s.push(kTens[r / 10]);
    at[2] = r % 10 ? s.push(kOnes[r % 10]) : at[1];  // "forty" says 4 and 0
  } else if (r >= 10) {
    at[1] = at[2] = s.push(kOnes[r]);
  } else if (r > 0) {
    at[2] = s.push(kOnes[r]);
  }
  for (int k = 1; k < 3; ++k)
    if (at[k] < 0) at[k] = hundred;
  return at;
}

// The digits of 1 ≤ g < 1000 as written without leading zeros, from spell_group's indices.
void align_leading(std::vector<int>& out, int g, const std::array<int, 3>& at) {
  for (int k = g >= 100 ? 0 : g >= 10 ? 1 : 2; k < 3; ++k) out.push_back(at[k]);
}

Spelling spell_number(int n, bool with_and, bool hyphen) {
  if (n < 0 || n >= 1000000) throw Error("number_words: " + std::to_string(n) + " is outside 0–999,999");
  Spelling s;
  if (n == 0) {
    s.align.push_back(s.push("zero"));
    return s;
  }
  if (n < 1000) {
    align_leading(s.align, n, spell_group(s, n, with_and, hyphen));
    return s;
  }
  const int hi = n / 1000, lo = n % 1000;
  align_leading(s.align, hi, spell_group(s, hi, with_and, hyphen));
  const int thousand = s.push("thousand");
  std::array<int, 3> at = {-1, -1, -1};
  if (lo && with_and && lo < 100) s.push("and");
  if (lo) at = spell_group(s, lo, with_and, hyphen);
  for (int k = 0; k < 3; ++k) s.align.push_back(at[k] < 0 ? thousand : at[k]);
  return s;
}

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
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
    const Spelling sp = spell_number(n, with_and, hyphen);
    return {join(sp.words), spaced_digits(static_cast<std::uint64_t>(n)), -1, sp.align, {}};
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
    return {text, "", balanced(s) ? 0 : 1, {}, {}};
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

// A date uniformly drawn by year, month and day-of-month; one format of four. Source token
// positions under the regex tokenizer: format 1 is [month, day, ",", year], the others
// [day, month, year]; the target [year, month, day].
Example dates_sample(std::uint64_t seed, std::uint64_t index, Split split) {
  Draw r(seeded_stream(seed, split == Split::Train ? "dates:train" : "dates:held-out"), index);
  for (;;) {
    const int year = 1900 + r.below(200), month = 1 + r.below(12);
    int days = 28;
    while (is_real_date(year, month, days + 1)) ++days;
    const int day = 1 + r.below(days);
    const bool held = is_held_out(static_cast<std::uint64_t>(year * 10000 + month * 100 + day));
    if (held != (split == Split::HeldOut)) continue;
    const int format = r.below(4);
    const std::string target = std::to_string(year) + "-" + two_digits(month) + "-" + two_digits(day);
    const std::vector<int> align = format == 1 ? std::vector<int>{3, 0, 1} : std::vector<int>{2, 1, 0};
    return {date_words(year, month, day, format), target, -1, align, {}};
  }
}

std::vector<std::string> date_vocab() {
  std::vector<std::string> v = {"<pad>", "<s>", "</s>", "<unk>", ","};
  for (int d = 1; d <= 31; ++d) v.push_back(std::to_string(d));
  for (int d = 1; d <= 9; ++d) v.push_back(two_digits(d));
  for (const char* m : kMonths) v.push_back(m);
  for (const char* m : kMonths)
    if (std::string(m).size() > 3) v.push_back(std::string(m).substr(0, 3));  // "May" is already there
  for (int y = 1900; y <= 2099; ++y) v.push_back(std::to_string(y));
  return v;
}

}  // namespace

// One value in ten is held out, by a hash that does not depend on any seed.
bool is_held_out(std::uint64_t canonical) { return splitmix64(canonical ^ 0x68656C642D6F7574ull) % 10 == 0; }

std::string number_words(int n, bool with_and, bool hyphen) { return join(spell_number(n, with_and, hyphen).words); }

std::vector<int> number_alignment(int n, bool with_and, bool hyphen) { return spell_number(n, with_and, hyphen).align; }

bool is_real_date(int year, int month, int day) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1) return false;
  const bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
  return day <= kDays[month - 1] + (month == 2 && leap);
}

std::string date_words(int year, int month, int day, int format) {
  if (year < 1900 || year > 2099 || !is_real_date(year, month, day) || format < 0 || format > 3)
    throw Error("date_words: not a date of 1900–2099 in formats 0–3");
  const std::string d = std::to_string(day), y = std::to_string(year), name = kMonths[month - 1];
  switch (format) {
    case 0: return d + " " + name + " " + y;
    case 1: return name + " " + d + ", " + y;
    case 2: return d + " " + name.substr(0, 3) + " " + y;
    default: return two_digits(day) + "/" + two_digits(month) + "/" + y;
  }
}

namespace {

Task generated(const char* name, const char* description, bool classifier, std::vector<std::string> labels,
               std::vector<std::string> vocab, Example (*sample)(std::uint64_t, std::uint64_t, Split),
               TokenizerKind tokenizer) {
  Task t;
  t.name = name;
  t.description = description;
  t.classifier = classifier;
  t.labels = std::move(labels);
  t.vocab = std::move(vocab);
  t.sample = sample;
  t.tokenizer = tokenizer;
  return t;
}

}  // namespace

const std::vector<Task>& tasks() {
  using K = TokenizerKind;
  static const std::vector<Task> all = {
      generated("number-words", "English number words (0–999,999) to their digits", false, {}, number_vocab(),
                number_words_sample, K::Whitespace),
      generated("brackets", "Is a string of brackets balanced?", true, {"balanced", "unbalanced"},
                {"<pad>", "<s>", "</s>", "<unk>", "(", ")"}, brackets_sample, K::Chars),
      generated("dates", "Dates in four formats to ISO 8601 (yyyy-mm-dd), 1900–2099", false, {}, date_vocab(),
                dates_sample, K::Regex),
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
