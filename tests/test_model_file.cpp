// test_model_file.cpp — bad input gets a clear, specific error (naming the key and the
// expected and actual value or shape), never a crash or a silently wrong answer.
#include "model/error.h"
#include "trace/forward.h"
#include "check.h"

namespace {

// Runs a model file and returns the error message ("" if it ran).
std::string model_file_error_of(const std::string& json) {
  try {
    ew::Model m = ew::model_from_string(json);
    ew::Trace t;
    ew::run(m, t);
  } catch (const ew::Error& e) {
    return e.what();
  }
  return "";
}

void expect_error(const std::string& json, std::initializer_list<const char*> fragments) {
  const std::string msg = model_file_error_of(json);
  CAPTURE(json);
  CAPTURE(msg);
  CHECK_FALSE(msg.empty());
  for (const char* f : fragments) CHECK_MESSAGE(msg.find(f) != std::string::npos, "message lacks \"" << std::string(f) << "\"");
}

}  // namespace

TEST_CASE("configuration errors name the key, the limit and the value") {
  expect_error(R"({"config": {"d_model": 8, "num_heads": 3}, "text": "a b"})", {"number of heads (3)", "d_model (8)"});
  expect_error(R"({"config": {"d_model": 0}, "text": "a b"})", {"d_model", "got 0"});
  expect_error(R"({"config": {"d_model": -4}, "text": "a b"})", {"d_model", "-4"});
  expect_error(R"({"config": {"d_ff": 100000000}, "text": "a b"})", {"d_ff", "100000000"});
  expect_error(R"({"config": {"num_layers": 1000}, "text": "a b"})", {"num_layers"});
  expect_error(R"({"config": {"d_model": 8.5}, "text": "a b"})", {"d_model", "integer", "8.5"});
  expect_error(R"({"config": {"d_model": "8"}, "text": "a b"})", {"d_model", "string"});
  expect_error(R"({"config": {"norm": "middle"}, "text": "a b"})", {"norm", "\"post\"", "middle"});
  expect_error(R"({"config": {"activation": "tanh"}, "text": "a b"})", {"activation", "tanh"});
  expect_error(R"({"config": {"positional": 1}, "text": "a b"})", {"positional"});
  expect_error(R"({"config": {"causal": "yes"}, "text": "a b"})", {"causal", "true or false"});
  expect_error(R"({"config": {"layer_norm_eps": 0}, "text": "a b"})", {"layer_norm_eps"});
  expect_error(R"({"config": {"layer_norm_eps": -1e-5}, "text": "a b"})", {"layer_norm_eps"});
  expect_error(R"({"config": {"seed": -1}, "text": "a b"})", {"seed"});
  expect_error(R"({"config": {"dmodel": 8}, "text": "a b"})", {"unknown key", "dmodel", "config"});
  expect_error(R"({"config": {}, "txt": "a b"})", {"unknown key", "txt"});
}

TEST_CASE("weight errors name the parameter and both shapes") {
  expect_error(R"({"config": {"d_model": 2, "num_heads": 1}, "text": "a b",
                   "layers": [{"W_q": [[1, 0, 0], [0, 1, 0]]}]})",
               {"layer0.W_q", "[2, 3]", "[2, 2]"});
  expect_error(R"({"config": {"d_model": 2, "num_heads": 1}, "text": "a b", "layers": [{"W_q": [[1, 0], [0]]}]})",
               {"layers[0].W_q", "ragged", "row 1"});
  expect_error(R"({"config": {"d_model": 2, "num_heads": 1}, "text": "a b", "layers": [{"W_q": [[1, "x"], [0, 1]]}]})",
               {"layers[0].W_q[0][1]", "number", "string"});
  expect_error(R"({"config": {"d_model": 2, "num_heads": 1}, "text": "a b", "layers": [{"W_q": [[1, null], [0, 1]]}]})",
               {"layers[0].W_q[0][1]", "null"});
  expect_error(R"({"config": {"d_model": 2, "num_heads": 1}, "text": "a b", "layers": [{"b_q": [1e39, 0]}]})",
               {"layers[0].b_q[0]", "finite"});
  expect_error(R"({"config": {"d_model": 2, "num_heads": 1}, "text": "a b", "layers": [{"W_x": [[1]]}]})",
               {"unknown key", "W_x", "layers[0]"});
  expect_error(R"({"config": {"d_model": 2, "num_heads": 1}, "text": "a b", "layers": [{}, {}]})",
               {"layers has 2 entries", "num_layers is 1"});
  expect_error(R"({"config": {"d_model": 2, "num_heads": 1}, "input": [[1, 2, 3]]})", {"input", "3 columns", "d_model = 2"});
  expect_error(R"({"config": {"d_model": 2, "num_heads": 1}, "text": "a b", "vocab": ["a", "b"], "embedding": [[1, 2]]})",
               {"embedding", "[1,2]", "[2,2]"});
}

TEST_CASE("text errors: empty, no tokens, too long, invalid UTF-8, unknown token") {
  expect_error(R"({"text": ""})", {"text", "empty"});
  expect_error(R"({"text": "  --- @@ "})", {"no tokens"});
  expect_error(R"({"config": {"max_tokens": 3}, "text": "one two three four"})", {"4 tokens", "max_tokens", "3"});
  expect_error("{\"text\": \"bad \xff byte\"}", {"JSON"});  // nlohmann rejects it first
  expect_error(R"({"config": {"d_model": 2, "num_heads": 1}, "text": "a zebra", "vocab": ["a", "b"]})",
               {"zebra", "vocabulary"});
  expect_error(R"({"config": {"d_model": 2}})", {"text", "input"});
  expect_error(R"([1, 2])", {"model file", "object"});
  expect_error(R"({"text": "a b",)", {"not valid JSON"});
}

TEST_CASE("a missing model file is an error naming the path") {
  try {
    ew::model_from_file("/nonexistent/model.json");
    FAIL("no error");
  } catch (const ew::Error& e) {
    CHECK(std::string(e.what()).find("/nonexistent/model.json") != std::string::npos);
  }
}

TEST_CASE("no NaN anywhere in a causal, padded batch") {
  // (A wholly masked row is the kernels' test: test_kernels.cpp.)
  const ew::Trace t = ewtest::run_json(R"({"config": {"causal": true}, "text": "a b c d", "text2": "e"})");
  for (std::size_t i = 0; i < t.size(); ++i)
    for (float v : t[i].data) CHECK_MESSAGE(!std::isnan(v), t[i].id);
}

TEST_CASE("a number too large for a double is a clear error, not an escaping exception (found by the fuzzer)") {
  try {
    ew::model_from_string(R"({"config": {"layer_norm_eps": 9.9e8275}, "text": "a"})");
    FAIL("accepted");
  } catch (const ew::Error& e) {
    CHECK(std::string(e.what()).find("not valid JSON") != std::string::npos);
  }
}
