// test_overflow.cpp — a run whose numbers leave float32's range stops with a message naming
// the first step that did it (session.cpp's overflow scan), instead of printing inf: input rows
// of ±1e30, huge weights, and a backward pass whose gradient overflows although its forward pass
// is finite. The step each message must name is found here by running the forward pass (or the
// backward pass) without the session and reading the trace in order; the controls (the same
// models at sane sizes, masked −∞ in causal and padded runs) run without an error. Training that
// diverges names its step and parameter (train.cpp).
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "io/model_file.h"
#include "model/error.h"
#include "session/session.h"
#include "trace/backward.h"
#include "trace/forward.h"
#include "train/train.h"

namespace {

using Json = nlohmann::json;

// The error a session run of this model file throws ("" when it runs).
ew::Error run_error(const Json& model, bool backward = false) {
  ew::Session s;
  ew::RunOptions o;
  o.backward = backward;
  try {
    s.run({ew::ModelSource::Kind::Json, model.dump(), std::nullopt, std::nullopt, std::nullopt}, o);
  } catch (const ew::Error& e) {
    return e;
  }
  return ew::Error("");
}

// The first step of a trace (from step `from`) holding NaN or ±inf, read here directly.
std::string first_non_finite(const ew::Trace& t, std::size_t from = 0) {
  for (std::size_t k = from; k < t.size(); ++k)
    for (float v : t[k].data)
      if (!std::isfinite(v)) return t[k].id;
  return "";
}

Json rows(double v, int T, int d) {
  Json r = Json::array();
  for (int i = 0; i < T; ++i) {
    Json row = Json::array();
    for (int c = 0; c < d; ++c) row.push_back((i + c) % 2 ? -v : v);
    r.push_back(row);
  }
  return r;
}

Json base() {
  return {{"config", {{"d_model", 4}, {"num_heads", 2}, {"d_ff", 8}, {"num_layers", 1}, {"positional", "none"}}},
          {"text", "the cat sat"}};
}

}  // namespace

TEST_CASE("input rows of ±1e30 stop the run at the first step that overflows, named") {
  Json m = base();
  m.erase("text");
  m["input"] = rows(1e30, 3, 4);
  ew::Trace t;
  ew::Model model = ew::model_from_string(m.dump());
  ew::run(model, t);
  const std::string first = first_non_finite(t);
  REQUIRE(!first.empty());  // the forward pass alone does produce inf (the symptom)
  const ew::Error e = run_error(m);
  CHECK(e.code == "overflow");
  CHECK(std::string(e.what()).find("step " + first + " (") != std::string::npos);
  CHECK(std::string(e.what()).find("from finite inputs") != std::string::npos);
  REQUIRE(!e.params.empty());
  CHECK(e.params[0] == std::pair<std::string, std::string>{"step", first});
  m["input"] = rows(1e3, 3, 4);  // the control: large, but in range
  CHECK(std::string(run_error(m).what()).empty());
}

TEST_CASE("after an overflow the session still holds the last good run's trace, value for value") {
  ew::Session s;
  ew::RunOptions o;
  o.backward = true;
  Json good = base();
  good["config"]["num_labels"] = 2;
  good["label"] = 1;
  s.run({ew::ModelSource::Kind::Json, good.dump(), std::nullopt, std::nullopt, std::nullopt}, o);
  std::vector<std::vector<float>> before;
  for (std::size_t k = 0; k < s.trace().size(); ++k) before.push_back(s.trace()[k].data);
  Json bad = good;
  Json w = Json::array();
  for (int i = 0; i < 4; ++i) w.push_back(Json::array({1e20, -1e20, 1e20, 1e20}));
  bad["layers"] = Json::array({{{"W_q", w}, {"W_k", w}}});  // the same architecture: as many steps
  CHECK_THROWS_AS(s.run({ew::ModelSource::Kind::Json, bad.dump(), std::nullopt, std::nullopt, std::nullopt}, o), ew::Error);
  REQUIRE(s.trace().size() == before.size());
  bool same = true;
  for (std::size_t k = 0; k < before.size(); ++k) same = same && s.trace()[k].data == before[k];
  CHECK(same);
}

TEST_CASE("huge weights: the first step past float32's range is named") {
  Json m = base();
  Json w = Json::array();
  for (int i = 0; i < 4; ++i) w.push_back(Json::array({1e20, -1e20, 1e20, 1e20}));
  m["layers"] = Json::array({{{"W_q", w}, {"W_k", w}}});
  ew::Trace t;
  ew::Model model = ew::model_from_string(m.dump());
  ew::run(model, t);
  const std::string first = first_non_finite(t);
  REQUIRE(!first.empty());
  const ew::Error e = run_error(m);
  CHECK(e.code == "overflow");
  CHECK(std::string(e.what()).find("step " + first + " (") != std::string::npos);
}

TEST_CASE("masked −∞ is not an overflow: causal and padded runs pass the scan") {
  Json m = base();
  m["config"]["causal"] = true;
  m["text2"] = "a dog";
  CHECK(std::string(run_error(m).what()).empty());
  Json d = base();
  d["config"]["decoder_layers"] = 1;
  d["target"] = "le chat";
  CHECK(std::string(run_error(d, /*backward=*/true).what()).empty());
}

TEST_CASE("a backward pass that overflows from a finite forward pass names its first gradient") {
  // A classifier whose pooled vector is 0 (the last LayerNorm's γ = 0, β = 0) reads it with
  // W = ±3e38: the logits are the bias, finite; their gradient back to the pooled vector is
  // Σ dz·W ≈ (1 − (−1))·3e38 = 6e38, beyond float32.
  Json m = base();
  m["config"]["num_labels"] = 2;
  m["layers"] = Json::array({{{"ln2", {{"gamma", {0, 0, 0, 0}}}}}});
  Json W = Json::array();
  for (int i = 0; i < 4; ++i) W.push_back(Json::array({3e38, -3e38}));
  m["classifier"] = {{"W", W}, {"b", {20, 0}}};
  m["label"] = 1;
  ew::Trace t;
  ew::Model model = ew::model_from_string(m.dump());
  ew::run(model, t);
  REQUIRE(first_non_finite(t).empty());  // the forward pass is finite
  const std::size_t forward_steps = t.size();
  ew::run_backward(model, t);
  const std::string first = first_non_finite(t, forward_steps);
  REQUIRE(!first.empty());
  const ew::Error e = run_error(m, /*backward=*/true);
  CHECK(e.code == "overflow");
  CHECK(std::string(e.what()).find("step " + first + " (") != std::string::npos);
  for (auto& row : m["classifier"]["W"]) row = Json::array({1, -1});  // the control: in range
  CHECK(std::string(run_error(m, true).what()).empty());
}

TEST_CASE("training that diverges stops naming its step and what stopped being finite") {
  // number-words at the recipe's largest learning rate, no clipping or warm-up: confident wrong
  // answers whose probability underflows (the CLI: step 597 of this run).
  ew::TrainOptions o;
  o.task = "number-words";
  o.d_model = 8, o.num_heads = 2, o.d_ff = 16, o.batch = 4, o.steps = 3000;
  o.lr = 1.0, o.clip_norm = 0, o.warmup = 0, o.weight_decay = 0;
  ew::Trainer t(o);
  std::string what;
  int steps = 0;
  try {
    for (; steps < o.steps; ++steps) t.step();
  } catch (const ew::Error& e) {
    what = e.what();
  }
  CAPTURE(what);
  REQUIRE(!what.empty());
  CHECK(what.find("training stopped at step " + std::to_string(steps + 1) + ": ") == 0);
  // What stopped being finite: the loss, or a parameter (or its gradient) by its id.
  bool named = what.find("the loss is not finite") != std::string::npos;
  for (const ew::Param& p : t.model().params) named = named || what.find(" " + p.id + " ") != std::string::npos;
  CHECK(named);
}
