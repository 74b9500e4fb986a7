// test_tasks.cpp — the training tasks (tasks.h): the examples verbatim; every
// number-words example read back by an independent parser gives its target; held-out values
// never appear in a large training sample; bracket labels agree with an independent count and
// hard negatives are there; dates: every format, only real dates (checked against an
// independent calendar and the C library's timegm), leap years, no held-out date in training; the alignment of every target
// token to the source token that produces it; examples are deterministic; an unknown task is named.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <ctime>
#include <string>

#include "io/model_file.h"
#include "io/presets.h"
#include "model/error.h"
#include "text/tokenizer.h"
#include "train/tasks.h"
#include "train/train.h"

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
  CHECK_THROWS_WITH_AS(ew::find_task("sorting"), doctest::Contains("tasks: number-words, brackets, dates"), ew::Error);
  const ew::Task& d = ew::find_task("dates");
  CHECK(d.sample(5, 99, ew::Split::HeldOut).source == d.sample(5, 99, ew::Split::HeldOut).source);
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

namespace {

// The digits a number word says ("forty-two" → "42", "forty" → "40", "twelve" → "12");
// "hundred" and "thousand" say the zeros they stand for ("0"); "and" says nothing.
std::string says(const std::string& w) {
  if (w == "hundred" || w == "thousand") return "0";
  if (w == "and") return "";
  return std::to_string(parse_words(w));
}

// A date as yyyy-mm-dd read back from its spelling by a parser independent of tasks.cpp.
std::string parse_date(const std::string& s) {
  static const char* names[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  int y = 0, m = 0, d = 0;
  char month[16] = {0};
  if (std::sscanf(s.c_str(), "%2d/%2d/%4d", &d, &m, &y) == 3 && s.size() == 10) {
  } else if (std::sscanf(s.c_str(), "%d %15s %d", &d, month, &y) == 3 || std::sscanf(s.c_str(), "%15s %d, %d", month, &d, &y) == 3) {
    for (int k = 0; k < 12; ++k)
      if (std::string(month).compare(0, 3, names[k]) == 0) m = k + 1;
  }
  char out[16];
  std::snprintf(out, sizeof out, "%04d-%02d-%02d", y, m, d);
  return out;
}

// Howard Hinnant's days_from_civil / civil_from_days (public domain): a calendar written
// independently of tasks.cpp. A date is real when it survives the round trip (31 April → 1 May).
long days_from_civil(int y, unsigned m, unsigned d) {
  y -= m <= 2;
  const long era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  return era * 146097 + static_cast<long>(yoe * 365 + yoe / 4 - yoe / 100 + doy) - 719468;
}

bool calendar_real(int y, int m, int d) {
  const long z = days_from_civil(y, static_cast<unsigned>(m), static_cast<unsigned>(d)) + 719468;
  const long era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned dd = doy - (153 * mp + 2) / 5 + 1, mm = mp < 10 ? mp + 3 : mp - 9;
  const long yy = static_cast<long>(yoe) + era * 400 + (mm <= 2);
  return yy == y && static_cast<int>(mm) == m && static_cast<int>(dd) == d;
}

// The same by the C library natively: timegm normalises an impossible date. (Emscripten
// 3.1.6's timegm does not, so under wasm the independent calendar above stands alone.)
bool libc_real(int y, int m, int d) {
#ifdef __EMSCRIPTEN__
  return calendar_real(y, m, d);
#else
  std::tm t{};
  t.tm_year = y - 1900, t.tm_mon = m - 1, t.tm_mday = d, t.tm_hour = 12;
  timegm(&t);
  return t.tm_year == y - 1900 && t.tm_mon == m - 1 && t.tm_mday == d;
#endif
}

// "2026-11-23" → "20261123".
std::string undigits_dash(const std::string& t) {
  std::string s;
  for (char c : t)
    if (c != '-') s += c;
  return s;
}

}  // namespace

TEST_CASE("dates: the four formats as the issue spells them") {
  CHECK(ew::date_words(2026, 11, 23, 0) == "23 November 2026");
  CHECK(ew::date_words(2026, 11, 23, 1) == "November 23, 2026");
  CHECK(ew::date_words(2026, 11, 23, 2) == "23 Nov 2026");
  CHECK(ew::date_words(2026, 11, 23, 3) == "23/11/2026");
  CHECK(ew::date_words(1950, 3, 5, 3) == "05/03/1950");
  CHECK(ew::date_words(1950, 3, 5, 0) == "5 March 1950");
  CHECK(ew::date_words(2000, 2, 29, 2) == "29 Feb 2000");
  CHECK_THROWS_AS(ew::date_words(1900, 2, 29, 0), ew::Error);
  CHECK_THROWS_AS(ew::date_words(2100, 1, 1, 0), ew::Error);
  // Seed 001's regex tokenizer reads them as the model does.
  CHECK(ew::tokenize_regex("November 23, 2026") == std::vector<std::string>{"November", "23", ",", "2026"});
  CHECK(ew::tokenize_regex("23/11/2026") == std::vector<std::string>{"23", "11", "2026"});
  CHECK(ew::tokenize_regex("2026-11-23") == std::vector<std::string>{"2026", "11", "23"});
}

TEST_CASE("dates: real dates exactly, by an independent calendar and the C library's, 1900–2099 (leap years included)") {
  int feb29 = 0;
  for (int y = 1900; y <= 2099; ++y)
    for (int m = 1; m <= 12; ++m)
      for (int d = 1; d <= 31; ++d) {
        REQUIRE(ew::is_real_date(y, m, d) == calendar_real(y, m, d));
        REQUIRE(ew::is_real_date(y, m, d) == libc_real(y, m, d));
        feb29 += m == 2 && d == 29 && ew::is_real_date(y, m, d);
      }
  CHECK(feb29 == 49);  // 1904 … 2096 every fourth year, 2000 included, 1900 not
  CHECK(ew::is_real_date(2000, 2, 29));
  CHECK(!ew::is_real_date(1900, 2, 29));
}

TEST_CASE("dates examples read back to their target; tokens in the vocabulary; held-out dates never train") {
  const ew::Task& t = ew::find_task("dates");
  CHECK(t.tokenizer == ew::TokenizerKind::Regex);
  CHECK(std::set<std::string>(t.vocab.begin(), t.vocab.end()).size() == t.vocab.size());  // no duplicate ("May")
  CHECK(t.vocab.size() == 268);  // docs/training.md
  std::set<std::string> train;
  std::set<int> leap_years;
  for (std::uint64_t i = 0; i < 40000; ++i) {
    const ew::Example e = t.sample(11, i, ew::Split::Train);
    REQUIRE(parse_date(e.source) == e.target);
    const int y = std::stoi(e.target.substr(0, 4)), m = std::stoi(e.target.substr(5, 2)), d = std::stoi(e.target.substr(8));
    REQUIRE(libc_real(y, m, d));
    CHECK(y >= 1900);
    CHECK(y <= 2099);
    if (m == 2 && d == 29) leap_years.insert(y);
    for (const auto& tok : ew::tokenize_regex(e.source + " " + e.target))
      REQUIRE(std::find(t.vocab.begin(), t.vocab.end(), tok) != t.vocab.end());
    train.insert(e.target);
  }
  CHECK(leap_years.size() > 10);
  for (int y : leap_years) CHECK(libc_real(y, 2, 29));
  CHECK(train.size() > 25000);
  for (std::uint64_t i = 0; i < 3000; ++i) {
    const ew::Example e = t.sample(11, i, ew::Split::HeldOut);
    CHECK(parse_date(e.source) == e.target);
    CHECK(train.count(e.target) == 0);
  }
  std::set<std::string> spellings;  // all four formats occur
  for (std::uint64_t i = 0; i < 200; ++i) {
    const std::string s = t.sample(11, i, ew::Split::Train).source;
    const bool slash = s.find('/') != std::string::npos, comma = s.find(',') != std::string::npos;
    const auto toks = ew::tokenize_regex(s);
    spellings.insert(slash ? "slash" : comma ? "month first" : toks[1].size() == 3 ? "abbreviated" : "full");
  }
  CHECK(spellings.size() == 4);
}

TEST_CASE("alignment: each target token points at the source token that produces it") {
  // The definition on examples: fillers go to the scale word, "and" gets nothing.
  const ew::Task& nw = ew::find_task("number-words");
  for (std::uint64_t i = 0; i < 5000; ++i) {
    const ew::Example e = nw.sample(2, i, ew::Split::Train);
    const auto words = ew::tokenize_whitespace(e.source), digits = ew::tokenize_whitespace(e.target);
    REQUIRE(e.align.size() == digits.size());
    for (std::size_t k = 0; k < digits.size(); ++k) {
      REQUIRE(e.align[k] >= 0);
      REQUIRE(e.align[k] < static_cast<int>(words.size()));
      const std::string said = says(words[e.align[k]]);
      CHECK_MESSAGE(said.find(digits[k]) != std::string::npos, e.source, " digit ", k);
    }
  }
  // Hand-checked cases: "twelve thousand and five" → 1 2 0 0 5 → twelve twelve thousand thousand five.
  CHECK(ew::number_alignment(12005, true, false) == std::vector<int>{0, 0, 1, 1, 3});
  CHECK(ew::number_alignment(42, false, true) == std::vector<int>{0, 0});
  CHECK(ew::number_alignment(40, false, false) == std::vector<int>{0, 0});
  CHECK(ew::number_alignment(305, true, false) == std::vector<int>{0, 1, 3});  // three hundred and five
  CHECK(ew::number_alignment(300000, false, false) == std::vector<int>{0, 1, 1, 2, 2, 2});
  CHECK(ew::number_alignment(0, false, false) == std::vector<int>{0});

  const ew::Task& dt = ew::find_task("dates");
  for (std::uint64_t i = 0; i < 2000; ++i) {
    const ew::Example e = dt.sample(2, i, ew::Split::HeldOut);
    const auto src = ew::tokenize_regex(e.source), tgt = ew::tokenize_regex(e.target);
    REQUIRE(e.align.size() == 3);
    REQUIRE(tgt.size() == 3);
    CHECK(src.at(e.align[0]) == tgt[0]);                                  // the year token itself
    CHECK(std::stoi(src.at(e.align[2])) == std::stoi(tgt[2]));           // the day, padded or not
    const std::string& m = src.at(e.align[1]);                            // the month: 11, Nov, November
    CHECK((std::isdigit(static_cast<unsigned char>(m[0])) ? m : parse_date("1 " + m + " 2000").substr(5, 2)) == tgt[1]);
  }
}

TEST_CASE("each trained preset's example was held out: the model never saw it in training") {
  auto model_of = [](const char* name) {
    const ew::Preset* p = ew::find_preset(name);
    REQUIRE(p != nullptr);
    return ew::model_from_string(p->model_json);
  };
  const ew::Model nw = model_of("trained-number-words");
  const long n = parse_words(nw.text);
  CHECK(std::to_string(n) == undigits(nw.target));
  CHECK(n >= 100);
  CHECK(ew::is_held_out(static_cast<std::uint64_t>(n)));
  const ew::Model dt = model_of("trained-dates");
  CHECK(parse_date(dt.text) == dt.target);
  CHECK(ew::is_held_out(static_cast<std::uint64_t>(std::stoi(undigits_dash(dt.target)))));
  const ew::Model br = model_of("trained-brackets");
  std::string s;
  for (char c : br.text)
    if (c != ' ') s += c;
  std::uint64_t key = s.size();  // tasks.cpp's canonical value: the length, then one bit per bracket
  for (char c : s) key = (key << 1) | (c == '(' ? 1u : 0u);
  CHECK(s.size() >= 10);
  CHECK(ew::is_held_out(key));
}
