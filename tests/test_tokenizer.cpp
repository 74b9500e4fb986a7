// test_tokenizer.cpp — the tokenizers against what the seeds print and what CPython 3 does:
// seed 001's BPE trace on "low,lowest,newer,wider" (copied verbatim from the seed), its
// regex tokenizer on its own sentences, Unicode words and white space, strict UTF-8.
// Expected values not printed by a seed were produced by /usr/bin/python3 (3.11, Unicode
// 14.0) running the seed's code; tests/reference/check_tokenizer.py repeats that at scale.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "model/error.h"
#include "text/tokenizer.h"
#include "text/unicode_tables.h"

namespace {

using Tokens = std::vector<std::string>;

std::string show(const Tokens& t) {
  std::string s = "[";
  for (std::size_t i = 0; i < t.size(); ++i) s += (i ? ", '" : "'") + t[i] + "'";
  return s + "]";
}

// Compares token lists; on failure names the first differing index and both lists.
void check_tokens(const Tokens& got, const Tokens& want) {
  std::size_t i = 0;
  while (i < got.size() && i < want.size() && got[i] == want[i]) ++i;
  INFO("got  " << show(got));
  INFO("want " << show(want));
  CHECK_MESSAGE(got == want, "first mismatch at token " << i);
}

// Python's print() of the seed's objects (the strings here need no escaping).
std::string py_tuple(const std::pair<std::string, std::string>& p) { return "('" + p.first + "', '" + p.second + "')"; }
std::string py_items(const std::vector<std::pair<std::string, long>>& v) {
  std::string s;
  for (const auto& [k, n] : v) s += " ('" + k + "', " + std::to_string(n) + ")";
  return s;
}

// What seed 001's byte_pair_encoding() and its final loop print for a trained model.
std::vector<std::string> seed_printout(const ew::BpeModel& m) {
  std::vector<std::string> out;
  for (const ew::BpeMerge& g : m.merges) {
    out.push_back("-----");
    out.push_back("most frequent pair: " + py_tuple(g.pair));
    out.push_back("vocab before merge:" + py_items(g.vocab_before));
    out.push_back("vocab after merge:" + py_items(g.vocab_after));
  }
  for (const auto& [k, n] : m.final_vocab) out.push_back(k + " " + std::to_string(n));
  return out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The bytes as Python writes a bytes literal's escapes: b'ok \xc3('.
std::string hex(const std::string& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string s = "b'";
  for (unsigned char c : bytes) {
    if (c >= 0x20 && c < 0x7F && c != '\\' && c != '\'') s += static_cast<char>(c);
    else s += std::string("\\x") + digits[c >> 4] + digits[c & 15];
  }
  return s + "'";
}

void check_invalid(const std::string& bytes, std::size_t at) {
  const std::string want = "invalid UTF-8 at byte " + std::to_string(at);
  INFO("input bytes: " << hex(bytes) << ", expected \"" << want << "\"");
  std::string got = "(no error)";
  try {
    ew::validate_utf8(bytes);
  } catch (const ew::Error& e) {
    got = e.what();
  }
  CHECK(got == want);
  // The tokenizers decode the same way, so they reject the same input.
  CHECK_THROWS_WITH_AS(ew::tokenize_regex(bytes), want.c_str(), ew::Error);
  CHECK_THROWS_WITH_AS(ew::tokenize_whitespace(bytes), want.c_str(), ew::Error);
}

}  // namespace

TEST_CASE("seed 001: BPE on low,lowest,newer,wider prints what the seed prints") {
  // Copied from seed 001 (shared/seeds/001_*.txt, "once run, this will return"), minus the
  // line "-- Final vocab:", which the seed's code does not print (its last loop prints only
  // "k v"); running the seed's code with /usr/bin/python3 gives exactly these lines.
  const std::string seed = R"(-----
most frequent pair: ('l', 'o')
vocab before merge: ('l o w </w>', 1) ('l o w e s t </w>', 1) ('n e w e r </w>', 1) ('w i d e r </w>', 1)
vocab after merge: ('lo w </w>', 1) ('lo w e s t </w>', 1) ('n e w e r </w>', 1) ('w i d e r </w>', 1)
-----
most frequent pair: ('lo', 'w')
vocab before merge: ('lo w </w>', 1) ('lo w e s t </w>', 1) ('n e w e r </w>', 1) ('w i d e r </w>', 1)
vocab after merge: ('low </w>', 1) ('low e s t </w>', 1) ('n e w e r </w>', 1) ('w i d e r </w>', 1)
-----
most frequent pair: ('e', 'r')
vocab before merge: ('low </w>', 1) ('low e s t </w>', 1) ('n e w e r </w>', 1) ('w i d e r </w>', 1)
vocab after merge: ('low </w>', 1) ('low e s t </w>', 1) ('n e w er </w>', 1) ('w i d er </w>', 1)
-----
most frequent pair: ('er', '</w>')
vocab before merge: ('low </w>', 1) ('low e s t </w>', 1) ('n e w er </w>', 1) ('w i d er </w>', 1)
vocab after merge: ('low </w>', 1) ('low e s t </w>', 1) ('n e w er</w>', 1) ('w i d er</w>', 1)
-----
most frequent pair: ('low', '</w>')
vocab before merge: ('low </w>', 1) ('low e s t </w>', 1) ('n e w er</w>', 1) ('w i d er</w>', 1)
vocab after merge: ('low</w>', 1) ('low e s t </w>', 1) ('n e w er</w>', 1) ('w i d er</w>', 1)
low</w> 1
low e s t </w> 1
n e w er</w> 1
w i d er</w> 1
)";
  // The seed's data = corpus.split(',').
  const ew::BpeModel m = ew::bpe_train({"low", "lowest", "newer", "wider"}, 5);
  const std::vector<std::string> want = lines_of(seed), got = seed_printout(m);
  for (std::size_t i = 0; i < std::max(want.size(), got.size()); ++i) {
    const std::string w = i < want.size() ? want[i] : "(nothing)", g = i < got.size() ? got[i] : "(nothing)";
    CHECK_MESSAGE(g == w, "first mismatch at printed line " << i + 1 << "\n  got:  " << g << "\n  want: " << w);
    if (g != w) break;
  }
  // The counts are not printed by the seed; they follow from its vocabularies (every word
  // once): l-o in low, lowest; e-r and er-</w> in newer, wider; low-</w> only in low.
  REQUIRE(m.merges.size() == 5);
  const long counts[] = {2, 2, 2, 2, 1};
  for (int i = 0; i < 5; ++i) CHECK_MESSAGE(m.merges[i].count == counts[i], "merge " << i);
}

TEST_CASE("seed 001: BPE encode applies the learned merges in order") {
  const ew::BpeModel m = ew::bpe_train({"low", "lowest", "newer", "wider"}, 5);
  // The preset's text "lowest newer wider low", through the regex tokenizer as forward.cpp does.
  check_tokens(ew::bpe_encode(m, ew::tokenize_regex("lowest newer wider low")),
               {"low", "e", "s", "t", "</w>", "n", "e", "w", "er</w>", "w", "i", "d", "er</w>", "low</w>"});
  // Unseen words: the same merges, in the same order (l-o, lo-w, e-r, er-</w>, low-</w>).
  check_tokens(ew::bpe_encode(m, {"lower", "slow"}), {"low", "er</w>", "s", "low</w>"});
  check_tokens(ew::bpe_encode(m, {}), {});
  check_tokens(ew::bpe_encode(ew::BpeModel{}, {"ab"}), {"a", "b", "</w>"});
}

TEST_CASE("BPE: ties, overlapping pairs, early stop, non-ASCII (values from the seed's code in Python)") {
  SUBCASE("overlapping pairs merge left to right, like re.sub") {
    ew::BpeModel m = ew::bpe_train({"aaaa"}, 1);
    REQUIRE(m.merges.size() == 1);
    CHECK(m.merges[0].count == 3);
    CHECK(py_items(m.final_vocab) == " ('aa aa </w>', 1)");
    m = ew::bpe_train({"aaa", "aaaa"}, 2);
    REQUIRE(m.merges.size() == 2);
    CHECK(py_tuple(m.merges[0].pair) == "('a', 'a')");
    CHECK(m.merges[0].count == 5);
    CHECK(py_tuple(m.merges[1].pair) == "('aa', 'a')");  // first of four pairs with count 1
    CHECK(py_items(m.final_vocab) == " ('aaa </w>', 1) ('aa aa </w>', 1)");
  }
  SUBCASE("the most frequent pair wins over an earlier, rarer one; counts add word frequencies") {
    const ew::BpeModel m = ew::bpe_train({"xy", "yx", "yx"}, 1);
    REQUIRE(m.merges.size() == 1);
    CHECK(py_tuple(m.merges[0].pair) == "('y', 'x')");
    CHECK(m.merges[0].count == 2);
    CHECK(py_items(m.merges[0].vocab_before) == " ('x y </w>', 1) ('y x </w>', 2)");
    CHECK(py_items(m.final_vocab) == " ('x y </w>', 1) ('yx </w>', 2)");
  }
  SUBCASE("stops when no pair is left") {
    const ew::BpeModel m = ew::bpe_train({"ab"}, 100);
    CHECK(m.merges.size() == 2);
    CHECK(py_items(m.final_vocab) == " ('ab</w>', 1)");
    CHECK(ew::bpe_train({}, 3).merges.empty());
    CHECK(ew::bpe_train({"abc"}, 0).merges.empty());
  }
  SUBCASE("lines are split on white space, as get_vocab does") {
    const ew::BpeModel m = ew::bpe_train({"low lowest", "low"}, 2);
    REQUIRE(m.merges.size() == 2);
    CHECK(m.merges[1].count == 3);
    CHECK(py_items(m.final_vocab) == " ('low </w>', 2) ('low e s t </w>', 1)");
  }
  SUBCASE("symbols are code points: é precomposed stays one symbol, e + U+0301 is two") {
    const ew::BpeModel m = ew::bpe_train({"caf\xC3\xA9", "cafe\xCC\x81", "caf\xC3\xA9"}, 3);
    REQUIRE(m.merges.size() == 3);
    CHECK(py_tuple(m.merges[2].pair) == "('caf', '\xC3\xA9')");
    CHECK(m.merges[2].count == 2);
    CHECK(py_items(m.final_vocab) == " ('caf\xC3\xA9 </w>', 2) ('caf e \xCC\x81 </w>', 1)");
  }
}

TEST_CASE("seed 001: the regex tokenizer on the seed's sentences") {
  // Seed 001, "Learn by Example": Tokens=[ "Despite", "the", ... "storm", "." ].
  check_tokens(ew::tokenize_regex(
                   "Despite the heavy rain, the children played happily in the park, unaware of the approaching storm."),
               {"Despite", "the", "heavy", "rain", ",", "the", "children", "played", "happily", "in", "the", "park", ",",
                "unaware", "of", "the", "approaching", "storm", "."});
  // Seed 001, simple_tokenize's printed output.
  check_tokens(ew::tokenize_regex("Hello, how are you doing today?"),
               {"Hello", ",", "how", "are", "you", "doing", "today", "?"});
}

TEST_CASE("regex tokenizer: Unicode words, punctuation kept and dropped, empty text") {
  // Non-ASCII letters are \w in Python 3's re on str; multi-byte characters stay whole.
  check_tokens(ew::tokenize_regex("na\xC3\xAFve caf\xC3\xA9 \xCE\x95\xCE\xBB\xCE\xBB\xCE\xB7\xCE\xBD\xCE\xB9\xCE\xBA\xCE\xAC "
                                  "\xE6\x9D\xB1\xE4\xBA\xAC"),
               {"na\xC3\xAFve", "caf\xC3\xA9", "\xCE\x95\xCE\xBB\xCE\xBB\xCE\xB7\xCE\xBD\xCE\xB9\xCE\xBA\xCE\xAC",
                "\xE6\x9D\xB1\xE4\xBA\xAC"});
  // . , ! ? ; are kept one by one; everything else that is not \w is dropped (' " ( ) - :).
  check_tokens(ew::tokenize_regex("e.g. \"quotes\" (parens) x-y a_b 3.14 it's: done!?;"),
               {"e", ".", "g", ".", "quotes", "parens", "x", "y", "a_b", "3", ".", "14", "it", "s", "done", "!", "?", ";"});
  // A combining accent (U+0301) is not alphanumeric, so it ends the word and is dropped.
  check_tokens(ew::tokenize_regex("cafe\xCC\x81!"), {"cafe", "!"});
  // Digits and numerics of other scripts are \w: Arabic-Indic ٣, superscript ², fraction ½.
  check_tokens(ew::tokenize_regex("\xD9\xA3\xC2\xB2\xC2\xBD x\xE2\x80\x94y"), {"\xD9\xA3\xC2\xB2\xC2\xBD", "x", "y"});
  // Full-width punctuation is not in [.,!?;]: dropped.
  check_tokens(ew::tokenize_regex("\xE6\x9D\xB1\xE4\xBA\xAC\xE3\x80\x82\xEF\xBC\x81"), {"\xE6\x9D\xB1\xE4\xBA\xAC"});
  check_tokens(ew::tokenize_regex(""), {});
  check_tokens(ew::tokenize_regex("  -- ... "), {".", ".", "."});
  check_tokens(ew::tokenize_regex("(*&^%$#@)"), {});
}

TEST_CASE("whitespace tokenizer: Python's str.split()") {
  check_tokens(ew::tokenize_whitespace("in the bleak midwinter"), {"in", "the", "bleak", "midwinter"});
  check_tokens(ew::tokenize_whitespace("  lead\t\ttab\nnew\r\nline\v\fend  "),
               {"lead", "tab", "new", "line", "end"});
  // U+3000 ideographic space, U+00A0 no-break space, U+2009 thin space, U+0085 NEL and the
  // ASCII separators \x1c-\x1f all split; U+200B zero-width space does not (not isspace()).
  check_tokens(ew::tokenize_whitespace("\xE6\x9D\xB1\xE4\xBA\xAC\xE3\x80\x80" "caf\xC3\xA9\xC2\xA0x\xE2\x80\x89y\xC2\x85z"
                                       "\x1c" "a\x1f" "b c\xE2\x80\x8B" "d"),
               {"\xE6\x9D\xB1\xE4\xBA\xAC", "caf\xC3\xA9", "x", "y", "z", "a", "b", "c\xE2\x80\x8B" "d"});
  // Punctuation stays attached (str.split() knows nothing but white space).
  check_tokens(ew::tokenize_whitespace("Hello, world!"), {"Hello,", "world!"});
  check_tokens(ew::tokenize_whitespace(""), {});
  check_tokens(ew::tokenize_whitespace(" \t\xE3\x80\x80 "), {});
}

TEST_CASE("UTF-8: valid input passes, invalid input names the byte (Python's UnicodeDecodeError.start)") {
  // Boundaries of the valid ranges: U+007F, U+0080, U+07FF, U+0800, U+D7FF, U+E000,
  // U+FFFF, U+10000, U+10FFFF, and NUL.
  for (const char* ok : {"\x7F", "\xC2\x80", "\xDF\xBF", "\xE0\xA0\x80", "\xED\x9F\xBF", "\xEE\x80\x80", "\xEF\xBF\xBF",
                         "\xF0\x90\x80\x80", "\xF4\x8F\xBF\xBF", "\xF0\x9F\x98\x80 ok"}) {
    INFO("valid input: " << hex(ok));
    CHECK_NOTHROW(ew::validate_utf8(ok));
  }
  CHECK_NOTHROW(ew::validate_utf8(std::string("a\0b", 3)));
  check_tokens(ew::tokenize_whitespace(std::string("a\0b c", 5)), {std::string("a\0b", 3), "c"});

  check_invalid("\x80", 0);                      // stray continuation byte
  check_invalid("abc\xBF", 3);                   // stray continuation byte after ASCII
  check_invalid("\xFF", 0);                      // never valid
  check_invalid("\xF5\x80\x80\x80", 0);          // lead byte beyond U+10FFFF
  check_invalid("\xC0\xAF", 0);                  // overlong '/'
  check_invalid("\xC1\xBF", 0);                  // overlong
  check_invalid("\xE0\x80\xAF", 0);              // overlong 3-byte
  check_invalid("\xF0\x8F\xBF\xBF", 0);          // overlong 4-byte
  check_invalid("\xED\xA0\x80", 0);              // surrogate U+D800
  check_invalid("x\xED\xBF\xBF", 1);             // surrogate U+DFFF
  check_invalid("\xF4\x90\x80\x80", 0);          // U+110000
  check_invalid("ab\xC3", 2);                    // truncated at the end
  check_invalid("x\xE2\x82", 1);                 // truncated 3-byte
  check_invalid("ab\xF0\x9F\x98", 2);            // truncated 4-byte
  check_invalid("ok \xC3(", 3);                  // continuation byte missing
  check_invalid("\xC3\xA9\xC3", 2);              // after a valid 2-byte character
  check_invalid("caf\xC3\xA9 na\xC3\xAFve \xE6\x9D\xB1\xE4\xBA", 16);
  // BPE training and encoding decode their words too.
  CHECK_THROWS_WITH_AS(ew::bpe_train({"ok", "b\xC3"}, 1), "invalid UTF-8 at byte 1", ew::Error);
  CHECK_THROWS_WITH_AS(ew::bpe_encode(ew::BpeModel{}, {"\x80"}), "invalid UTF-8 at byte 0", ew::Error);
}

TEST_CASE("Unicode tables: spot checks against Python's isalnum() / isspace()") {
  CHECK(ew::is_word_char(U'_'));
  CHECK(ew::is_word_char(U'0'));
  CHECK(ew::is_word_char(U'z'));
  CHECK(ew::is_word_char(U'\u00AA'));      // ª (Lo)
  CHECK(ew::is_word_char(U'\u00B2'));      // ² (isdigit)
  CHECK(ew::is_word_char(U'\u2167'));      // Ⅷ (isnumeric)
  CHECK(ew::is_word_char(U'\U00020000'));  // CJK Extension B
  CHECK_FALSE(ew::is_word_char(U'-'));
  CHECK_FALSE(ew::is_word_char(U'\u0301'));  // combining acute (Mn)
  CHECK_FALSE(ew::is_word_char(U'\u00B7'));  // middle dot
  CHECK_FALSE(ew::is_word_char(0x10FFFF));
  CHECK(ew::is_space_char(U' '));
  CHECK(ew::is_space_char(U'\u001C'));
  CHECK(ew::is_space_char(U'\u00A0'));
  CHECK(ew::is_space_char(U'\u3000'));
  CHECK_FALSE(ew::is_space_char(U'\u200B'));
  CHECK_FALSE(ew::is_space_char(U'\uFEFF'));
  CHECK_FALSE(ew::is_space_char(0));
  CHECK(std::string(ew::unicode_tables_version()).find("Unicode") != std::string::npos);
}

// What the regex tokenizer drops, with its position in code points (the CPython cross-check
// in tests/reference/check_tokenizer.py compares this with re.finditer over many strings).
TEST_CASE("regex tokenizer: the characters it skips, where they are") {
  const auto sp = ew::regex_skipped("I \xE2\x9D\xA4\xEF\xB8\x8F \xF0\x9F\xA4\x96 transformers");  // I ❤️ 🤖 transformers
  REQUIRE(sp.size() == 2);
  CHECK(sp[0].start == 2);
  CHECK(sp[0].length == 2);  // U+2764 and the variation selector U+FE0F
  CHECK(sp[0].text == "\xE2\x9D\xA4\xEF\xB8\x8F");
  CHECK(sp[1].start == 5);
  CHECK(sp[1].length == 1);
  CHECK(ew::regex_skipped("hello, world.").empty());
  CHECK(ew::regex_skipped("x-y", 10).at(0).start == 11);
}
