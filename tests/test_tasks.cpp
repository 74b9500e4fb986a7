// test_tasks.cpp — the training tasks (tasks.h): the examples verbatim; every
// number-words example read back by an independent parser gives its target; held-out values
// never appear in a large training sample; bracket labels agree with an independent count and
// hard negatives are there; examples are deterministic; an unknown task is named.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "error.h"
#include "tasks.h"
#include "train.h"

namespace {

// Number words → value, written independently of tasks.cpp (hyphens split, "and" ignored).
long parse_words(std::string s) {
  for (char& c : s)
    if (c == '-') c = ' ';
  static const std::map<std::string, int> small = {
      {"zero", 0}, {"one", 1}, {"two", 2}, {"three", 3}, {"four", 4}, {"five", 5}, {"six", 6}, {"seven", 7},
      {"eight", 8}, {"nine", 9}, {"ten", 10}, {"eleven", 11}, {"twelve", 12}, {"thirteen", 13}, {"fourteen", 14},
      {"fifteen", 15}, {"sixteen", 16}, {"seventeen", 17}, {"eighteen", 18}, {"nineteen", 19}, {"twenty", 20},
      {"thirty", 30}, {"forty", 40}, {"fifty", 50}, {"sixty", 60}, {"seventy", 70}, {"eighty", 80}, {"ninety", 90}};
  long total = 0, group = 0;
  std::istringstream in(s);
  std::string w;
  while (in >> w) {
    if (w == "and") continue;
    if (w == "hundred") group *= 100;
    else if (w == "thousand") total += group * 1000, group = 0;
    else group += small.at(w);
  }
  return total + group;
}

std::string undigits(const std::string& t) {
  std::string s;
  for (char c : t)
    if (c != ' ') s += c;
  return s;
}

}  // namespace

TEST_CASE("number words: the issue's examples, spelled every way") {
  CHECK(ew::number_words(342, false, false) == "three hundred forty two");
  CHECK(ew::number_words(342, true, true) == "three hundred and forty-two");
  CHECK(ew::number_words(12005, true, false) == "twelve thousand and five");
  CHECK(ew::number_words(12005, false, false) == "twelve thousand five");
  CHECK(ew::number_words(0, false, false) == "zero");
  CHECK(ew::number_words(999999, false, true) == "nine hundred ninety-nine thousand nine hundred ninety-nine");
  CHECK_THROWS_AS(ew::number_words(1000000, false, false), ew::Error);
}

TEST_CASE("number-words examples read back to their digits; held-out values never train") {
  const ew::Task& t = ew::find_task("number-words");
  std::set<long> train_values;
  for (std::uint64_t i = 0; i < 20000; ++i) {
    const ew::Example e = t.sample(7, i, ew::Split::Train);
    const long v = parse_words(e.source);
    REQUIRE(std::to_string(v) == undigits(e.target));
    train_values.insert(v);
    std::istringstream in(e.source);
    std::string w;
    while (in >> w) CHECK(std::find(t.vocab.begin(), t.vocab.end(), w) != t.vocab.end());
  }
  int held = 0;
  for (std::uint64_t i = 0; i < 2000; ++i) {
    const ew::Example e = t.sample(7, i, ew::Split::HeldOut);
    CHECK(std::to_string(parse_words(e.source)) == undigits(e.target));
    CHECK(train_values.count(parse_words(e.source)) == 0);
    held += ew::is_held_out(static_cast<std::uint64_t>(parse_words(e.source))) && parse_words(e.source) >= 100;
  }
  CHECK(held == 2000);
  CHECK(train_values.size() > 8000);  // short and long numbers, not a handful
}

TEST_CASE("brackets: labels by an independent count, hard negatives, lengths 2–24, held out by value") {
  const ew::Task& t = ew::find_task("brackets");
  int balanced = 0, hard = 0, n = 4000;
  std::set<std::string> train;
  for (std::uint64_t i = 0; i < static_cast<std::uint64_t>(n); ++i) {
    const ew::Example e = t.sample(3, i, ew::Split::Train);
    std::string s;
    for (char c : e.source)
      if (c != ' ') s += c;
    int depth = 0, low = 0, open = 0;
    for (char c : s) depth += c == '(' ? 1 : -1, low = std::min(low, depth), open += c == '(';
    const bool ok = depth == 0 && low == 0;
    CHECK(e.label == (ok ? 0 : 1));
    CHECK(s.size() >= 2);
    CHECK(s.size() <= 24);
    balanced += ok;
    hard += !ok && 2 * open == static_cast<int>(s.size()) && s.front() == '(' && s.back() == ')';
    train.insert(s);
  }
  CHECK(balanced > n * 4 / 10);
  CHECK(balanced < n * 6 / 10);
  CHECK(hard > n / 5);
  for (std::uint64_t i = 0; i < 500; ++i) {
    std::string s;
    for (char c : t.sample(3, i, ew::Split::HeldOut).source)
      if (c != ' ') s += c;
    CHECK(train.count(s) == 0);
    CHECK(s.size() >= 10);
  }
}

TEST_CASE("examples are deterministic, and an unknown task is named") {
  const ew::Task& t = ew::find_task("number-words");
  CHECK(t.sample(5, 123, ew::Split::Train).source == t.sample(5, 123, ew::Split::Train).source);
  CHECK(t.sample(5, 123, ew::Split::Train).source != t.sample(6, 123, ew::Split::Train).source);
  CHECK_THROWS_WITH_AS(ew::find_task("sorting"), doctest::Contains("tasks: number-words, brackets"), ew::Error);
}

TEST_CASE("training learns: 40 steps of number-words lower the loss and keep it finite") {
  ew::TrainOptions o;
  o.steps = 40;
  o.batch = 8;
  o.d_model = 16;
  o.num_heads = 2;
  o.d_ff = 32;
  ew::Trainer t(o);
  double first = 0, last = 0;
  for (int s = 0; s < o.steps; ++s) {
    const double l = t.step();
    if (s < 5) first += l / 5;
    if (s >= o.steps - 5) last += l / 5;
  }
  CHECK(last < 0.8 * first);
  CHECK_THROWS_WITH_AS(ew::Trainer(ew::TrainOptions{"sorting"}), doctest::Contains("unknown task"), ew::Error);
}
