// test_typed_input.cpp — inputs as people type them: the shipped brackets model reads "(())()"
// and "( ( ) ) ( )" as the same six tokens (its tokenizer is "chars": every character that is
// not white space) and gives the same probabilities, with its committed weights and its
// vocabulary of 6; tokens a trained vocabulary lacks are reported by name ("unknown"), each once,
// and a seeded model (whose vocabulary is built from the text) reports none.
#include <doctest/doctest.h>

#include <string>

#include "text/tokenizer.h"
#include "session/session.h"

namespace {

nlohmann::json run(const std::string& preset, const std::string& text) {
  ew::Session s;
  ew::RunOptions o;
  o.prediction = true;
  s.run({ew::ModelSource::Kind::Preset, preset, text, std::nullopt, std::nullopt}, o);
  return {{"tokens", s.trace().text.source_tokens.at(0)}, {"report", s.report()}};
}

}  // namespace

TEST_CASE("the brackets model reads brackets typed with and without spaces alike") {
  CHECK(ew::tokenize_chars("(( )\t)\n") == std::vector<std::string>{"(", "(", ")", ")"});
  CHECK(ew::tokenize_chars("é ü") == std::vector<std::string>{"é", "ü"});  // a character, not a byte
  const auto typed = run("trained-brackets", "(())()"), spaced = run("trained-brackets", "( ( ) ) ( )");
  CHECK(typed["tokens"] == spaced["tokens"]);
  CHECK(typed["tokens"].size() == 6);
  CHECK(typed["report"]["prediction"] == spaced["report"]["prediction"]);
  CHECK(typed["report"]["prediction"]["label"] == "balanced");
  CHECK(!typed["report"].contains("unknown"));
  CHECK(run("trained-brackets", "(()")["report"]["prediction"]["label"] == "unbalanced");
}

TEST_CASE("tokens outside a trained vocabulary are named, each once; a seeded vocabulary has none") {
  const auto odd = run("trained-brackets", "( [ ) ] [");
  REQUIRE(odd["report"].contains("unknown"));
  CHECK(odd["report"]["unknown"]["tokens"] == nlohmann::json::array({"[", "]"}));
  CHECK(odd["report"]["unknown"]["as"] == "<unk>");
  CHECK(odd["report"]["unknown"]["vocab_size"] == 6);
  CHECK(!run("default", "zillions of words")["report"].contains("unknown"));
}
