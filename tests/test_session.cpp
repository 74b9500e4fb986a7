// test_session.cpp — one run through core/session/session.h, as the CLI and the wasm Engine
// do it: the CLI's document (with data) and the Engine's (metadata and timings) are the same
// document at two levels of detail, made by one function; the prediction is the label a
// bracket counter gives; the fills are the top 5 of the [MASK] rows, sorted here; generation's
// rounds give a held-out number's digits (std::to_string); a backward pass the model refuses is
// reported while the forward trace stays; seeded weights are kept when only the text changes
// and are the numbers a fresh session draws; a shipped model's bytes as user weights give the
// numbers of the model file that names it; run options are read strictly.
#include <doctest/doctest.h>

#include "check.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "io/builtin_models.h"
#include "io/presets.h"
#include "model/error.h"
#include "session/session.h"
#include "trace/generate.h"
#include "train/tasks.h"

namespace {

using ew::ModelSource;
using Json = nlohmann::json;

ew::RunOptions cli_options() {  // what the CLI asks for (cli/main.cpp)
  ew::RunOptions o;
  o.prediction = o.fills = true;
  return o;
}

ModelSource preset(const std::string& name) { return {ModelSource::Kind::Preset, name, std::nullopt, std::nullopt, std::nullopt}; }
ModelSource model_json(const Json& j) { return {ModelSource::Kind::Json, j.dump(), std::nullopt, std::nullopt, std::nullopt}; }

// Is the bracket string balanced? Counted here, not by the model.
bool balanced(const std::string& text) {
  int depth = 0;
  for (char c : text) {
    depth += c == '(' ? 1 : c == ')' ? -1 : 0;
    if (depth < 0) return false;
  }
  return depth == 0;
}


}  // namespace

TEST_CASE("session: the CLI's and the Engine's documents are one document at two levels of detail") {
  for (const ew::Preset& p : ew::presets()) {
    INFO(p.name);
    ew::Session s;
    ew::RunOptions o = cli_options();
    o.backward = true;
    s.run(preset(p.name), o);
    const auto full = ew::session_json(s, {});                             // the CLI's --json
    const auto meta = ew::session_json(s, {{false, true, false}, true});  // the Engine's reply
    // The same keys in the same order, and the Engine's timings after them.
    std::vector<std::string> keys, meta_keys;
    for (auto it = full.begin(); it != full.end(); ++it) keys.push_back(it.key());
    for (auto it = meta.begin(); it != meta.end(); ++it) meta_keys.push_back(it.key());
    keys.insert(keys.end(), {"ms", "setup_ms", "backward_ms"});
    CHECK(meta_keys == keys);
    CHECK((std::vector<std::string>(keys.begin(), keys.begin() + 6) ==
           std::vector<std::string>{"tokens", "text", "config", "isa", "steps", "params"}));
    // Each step and parameter: the same object without its data.
    REQUIRE(full["steps"].size() == s.trace().size());
    for (std::size_t i = 0; i < full["steps"].size(); ++i) {
      auto step = full["steps"][i];
      CHECK(step["data"].size() == s.trace()[i].size());
      step.erase("data");
      CHECK(step == meta["steps"][i]);
    }
    for (std::size_t i = 0; i < full["params"].size(); ++i) {
      auto param = full["params"][i];
      param.erase("data");
      CHECK(param == meta["params"][i]);
    }
    for (const char* k : {"tokens", "text", "config", "isa", "prediction", "fills", "backward_error"})
      if (full.contains(k)) CHECK(full[k] == meta[k]);
    CHECK(meta["ms"].get<double>() >= 0.0);
  }
}

TEST_CASE("session: a float is written as its shortest decimal and reads back to the same float32") {
  ew::Session s;
  s.run(preset("seed001-despite"), cli_options());
  const auto doc = Json::parse(ew::session_json(s, {}).dump());
  int checked = 0;
  for (std::size_t i = 0; i < s.trace().size(); ++i) {
    const ew::Step& step = s.trace()[i];
    const Json& data = doc["steps"][i]["data"];
    for (std::size_t k = 0; k < step.size(); ++k, ++checked) {
      if (std::isinf(step.data[k])) {
        CHECK(data[k].is_null());
        continue;
      }
      CHECK(static_cast<float>(data[k].get<double>()) == step.data[k]);
      CHECK(data[k].get<double>() == std::stod(ew::format_float(step.data[k])));  // the decimal itself
    }
  }
  CHECK(checked > 1000);
}

TEST_CASE("session: a classifier's prediction is the balanced-or-not a counter gives") {
  ew::Session s;
  int right = 0, n = 0;
  for (const char* text : {"( ( ) )", "( ) ( )", "( ( )", ") (", "( ( ( ) ) ( ) )", "( ) ) ( ( )", "( )", "( ( ( ("}) {
    s.run(model_json({{"weights", "builtin:brackets"}, {"text", text}}), cli_options());
    const Json& p = s.report().at("prediction");
    const std::vector<float> probs = p["probs"].get<std::vector<float>>();
    const auto best = std::max_element(probs.begin(), probs.end()) - probs.begin();
    CHECK(p["label"] == p["labels"][static_cast<std::size_t>(best)]);
    CHECK(std::accumulate(probs.begin(), probs.end(), 0.0) == doctest::Approx(1.0).epsilon(1e-5));
    right += p["label"] == (balanced(text) ? "balanced" : "unbalanced");
    ++n;
  }
  CHECK(right == n);
  // Without a request, no prediction: the Engine asks for it only with the trained-model options.
  s.run(model_json({{"weights", "builtin:brackets"}, {"text", "( )"}}), {});
  CHECK(!s.report().contains("prediction"));
}

TEST_CASE("session: the fills are the five most probable tokens of each [MASK] row, in order") {
  ew::Session s;
  s.run(preset("trained-masked-words"), cli_options());
  const Json& fills = s.report().at("fills");
  const ew::Step& probs = s.trace().at("mlm.probs");
  const auto& tokens = s.trace().text.source_tokens[0];
  const int V = probs.shape.back();
  std::size_t mask = 0;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i] != "[MASK]") continue;
    const float* row = probs.data.data() + i * static_cast<std::size_t>(V);
    std::vector<int> order(static_cast<std::size_t>(V));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return row[a] > row[b]; });
    REQUIRE(mask < fills.size());
    REQUIRE(fills[mask].size() == 5);
    for (int k = 0; k < 5; ++k) {
      CHECK(fills[mask][k]["token"] == s.trace().text.vocab[static_cast<std::size_t>(order[k])]);
      CHECK(fills[mask][k]["p"].get<float>() == row[order[k]]);
    }
    ++mask;
  }
  CHECK(mask == fills.size());
  CHECK(mask == 1);
  CHECK(fills[0][0]["token"] == "united</w>");  // the preset's sentence: "… by the [MASK] states ."
}

TEST_CASE("session: generation's rounds give a held-out number's digits; without a decoder, the forward pass") {
  int checked = 0;
  for (int n = 4021; checked < 3 && n < 1000000; n += 7919) {
    if (!ew::is_held_out(static_cast<std::uint64_t>(n))) continue;
    ew::Session s;
    ew::RunOptions o;
    o.generate = true;
    s.run(model_json({{"weights", "builtin:number-words"}, {"text", ew::number_words(n, false, false)}}), o);
    const Json& rounds = s.report().at("rounds");
    std::string got;
    for (const auto& tok : s.report().at("generated")) got += (got.empty() ? "" : " ") + tok.get<std::string>();
    CHECK(got == ewtest::spaced_digits(n));
    REQUIRE(!rounds.empty());
    CHECK(rounds.back()["token"] == "</s>");
    CHECK(rounds.size() == s.report()["generated"].size() + 1);
    std::string so_far;
    for (const auto& r : rounds) {  // round k read the tokens chosen before it
      CHECK(r["decoder_input"] == so_far);
      if (r["token"] != "</s>") so_far += (so_far.empty() ? "" : " ") + r["token"].get<std::string>();
    }
    CHECK(s.model().target == so_far);  // the trace on screen is the last round's
    ++checked;
  }
  CHECK(checked == 3);
  ew::Session s;
  ew::RunOptions o;
  o.generate = true;
  s.run(preset("trained-brackets"), o);  // no decoder: generation is not asked of it
  CHECK(!s.report().contains("rounds"));
  CHECK(s.trace().find("cls.probs") != nullptr);
}

TEST_CASE("session: a backward pass the model refuses is reported, and the forward trace stays") {
  ew::Session plain, s;
  plain.run(preset("seed003-y2"), {});
  ew::RunOptions o;
  o.backward = true;
  s.run(preset("seed003-y2"), o);
  CHECK(s.ok());
  CHECK(s.report().at("backward_error").get<std::string>().find("needs something to predict") != std::string::npos);
  REQUIRE(s.trace().size() == plain.trace().size());
  for (std::size_t i = 0; i < s.trace().size(); ++i) {
    CHECK(s.trace()[i].id == plain.trace()[i].id);
    CHECK(s.trace()[i].data == plain.trace()[i].data);
  }
  // A model it accepts: the loss and its gradients, no error.
  s.run(preset("trained-brackets"), o);
  CHECK(!s.report().contains("backward_error"));
  CHECK(s.trace().find("loss") != nullptr);
  CHECK(ew::session_json(s, {{false, false, false}, true}).contains("backward_ms"));
}

TEST_CASE("session: seeded weights are kept when only the text changes, and are the numbers drawn afresh") {
  const Json model = {{"config", {{"d_model", 16}, {"num_heads", 2}, {"decoder_layers", 1}}}, {"text", "snow had fallen"}};
  Json other = model;
  other["text"] = "snow on snow";
  ew::Session s, fresh;
  s.run(model_json(model), {});
  const float* w_q = s.model().at("layer0.W_q").value.data();
  s.run(model_json(other), {});
  CHECK(s.model().at("layer0.W_q").value.data() == w_q);  // the same buffer: not drawn again
  fresh.run(model_json(other), {});
  REQUIRE(s.model().params.size() == fresh.model().params.size());
  for (std::size_t i = 0; i < s.model().params.size(); ++i) {
    INFO(s.model().params[i].id);
    CHECK(s.model().params[i].value == fresh.model().params[i].value);
  }
  for (std::size_t i = 0; i < s.trace().size(); ++i) CHECK(s.trace()[i].data == fresh.trace()[i].data);
  // After a failed run nothing is kept from before it.
  CHECK_THROWS_AS(s.run(model_json({{"config", {{"d_model", 16}, {"num_heads", 3}}}, {"text", "x"}}), {}), ew::Error);
  CHECK(!s.ok());
  CHECK(s.rerun() == -1.0);
}

TEST_CASE("session: a shipped model's bytes as user weights give the numbers of the model file that names it") {
  std::string bytes;
  for (const ew::BuiltinModel& b : ew::builtin_models())
    if (std::string(b.name) == "number-words") bytes.assign(reinterpret_cast<const char*>(b.data), b.size);
  REQUIRE(!bytes.empty());
  ew::Session s, named;
  ew::RunOptions o;
  o.user_weights = true;
  CHECK_THROWS_WITH_AS(s.run(model_json({{"text", "four hundred"}}), o), "no weights have been loaded", ew::Error);
  const Json summary = s.set_user_weights(bytes);
  CHECK(summary["config"]["decoder_layers"].get<int>() > 0);
  CHECK(!summary["vocab"].empty());
  s.run(model_json({{"text", "four hundred"}}), o);
  named.run(model_json({{"weights", "builtin:number-words"}, {"text", "four hundred"}}), {});
  REQUIRE(s.trace().size() == named.trace().size());
  for (std::size_t i = 0; i < s.trace().size(); ++i) CHECK(s.trace()[i].data == named.trace()[i].data);
  CHECK_THROWS_AS(s.set_user_weights(bytes.substr(0, 100)), ew::Error);
  CHECK(s.user_weights() == bytes);  // a refused file keeps the last good one
}

TEST_CASE("session: run options are read strictly, from one place") {
  const ew::RunOptions none = ew::run_options_from_json(nullptr);
  CHECK((!none.backward && !none.generate && !none.prediction && none.max_len == 32));
  const ew::RunOptions o = ew::run_options_from_json(
      Json::parse(R"({"backward": true, "generate": true, "max_len": 5, "prediction": true, "fills": false})"));
  CHECK((o.backward && o.generate && o.max_len == 5 && o.prediction && !o.fills && !o.user_weights));
  CHECK_THROWS_WITH_AS(ew::run_options_from_json(Json::parse(R"({"backwards": true})")),
                       doctest::Contains("unknown run option \"backwards\""), ew::Error);
  CHECK_THROWS_WITH_AS(ew::run_options_from_json(Json::parse(R"({"backward": "yes"})")),
                       doctest::Contains("\"backward\" must be true or false"), ew::Error);
  CHECK_THROWS_WITH_AS(ew::run_options_from_json(Json::parse(R"({"max_len": 0})")),
                       doctest::Contains("\"max_len\" must be a whole number"), ew::Error);
  CHECK_THROWS_AS(ew::run_options_from_json(Json::parse("[]")), ew::Error);
}
