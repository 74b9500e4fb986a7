// test_backward.cpp — the backward pass (backward.h) against central finite differences of
// the forward pass itself: for every parameter of small models that reach every rule
// (post- and pre-norm with the final LayerNorm, ReLU and GELU, causal, a padded batch of two
// with a classifier, learned and sinusoidal positions, one to four heads, two decoder
// layers with the tied output projection), three elements each are nudged by ±h and
//   |(L(θ+h) − L(θ−h)) / 2h − dL/dθ| ≤ 2e-2·|dL/dθ| + 1e-3
// (the forward pass is float32: h = 1e-3 keeps ReLU kinks out of ±h — at 1e-2 some elements
// of the ReLU batch case straddled one — while rounding, ≈ |L|·1e-7/h, stays far below the
// tolerance). Also: every grad step has its step's shape, and what cannot have a loss is
// refused clearly.
#include <doctest/doctest.h>

#include <string>

#include "model/error.h"
#include "trace/backward.h"
#include "trace/forward.h"
#include "check.h"

namespace {

double loss_of(ew::Model& m, ew::Trace& t) {
  ew::run(m, t);
  ew::run_backward(m, t);
  return t.at("loss").data[0];
}

// Checks every parameter's gradient; returns how many elements were compared.
int check_gradients(const std::string& json) {
  ew::Model m = ew::model_from_string(json);
  ew::Trace t;
  loss_of(m, t);
  m.vocab = t.text.vocab;  // keep the seeded embedding rows fixed while nudging them
  m.user_embedding = true;
  int compared = 0;
  for (std::size_t p = 0; p < m.params.size(); ++p) {
    const std::string id = m.params[p].id;
    const ew::Step* g = t.find("grad." + id);
    REQUIRE_MESSAGE(g != nullptr, "no gradient for parameter " << id);
    const std::size_t n = m.params[p].value.size();
    for (std::size_t i : {std::size_t{0}, n / 2, n - 1}) {
      const float grad = g->data[i];
      const float keep = m.params[p].value.data()[i];
      const float h = 1e-3f;
      double l[2];
      for (int side = 0; side < 2; ++side) {
        m.params[p].value.data()[i] = keep + (side ? -h : h);
        m.params[p].packed.data.clear();  // repack the nudged weight
        ew::Trace tt;
        l[side] = loss_of(m, tt);
      }
      m.params[p].value.data()[i] = keep;
      m.params[p].packed.data.clear();
      const double fd = (l[0] - l[1]) / (2.0 * h);
      INFO(id << "[" << i << "]: finite difference " << fd << ", backward " << grad);
      CHECK(std::abs(fd - grad) <= 2e-2 * std::abs(grad) + 1e-3);
      ++compared;
    }
  }
  return compared;
}

}  // namespace

TEST_CASE("classifier gradients: post-norm, ReLU, learned positions, a padded batch of two") {
  CHECK(check_gradients(R"({"config": {"d_model": 8, "num_heads": 2, "d_ff": 12, "num_layers": 2, "num_labels": 3,
      "positional": "learned", "seed": 3}, "text": "the frost was hard", "text2": "snow fell", "label": 2, "label2": 0})") > 60);
}

TEST_CASE("encoder-decoder gradients: pre-norm with final LayerNorms, GELU, causal, two decoder layers") {
  CHECK(check_gradients(R"({"config": {"d_model": 8, "num_heads": 4, "d_ff": 10, "num_layers": 1, "decoder_layers": 2,
      "norm": "pre", "activation": "gelu", "causal": true, "seed": 5}, "text": "three hundred forty two",
      "target": "3 4 2"})") > 100);
}

TEST_CASE("encoder-decoder gradients: post-norm, one head, no scaling, classifier too") {
  CHECK(check_gradients(R"({"config": {"d_model": 6, "num_heads": 1, "d_ff": 8, "num_layers": 1, "decoder_layers": 1,
      "scale": false, "num_labels": 2, "seed": 11}, "text": "in the bleak midwinter", "label": 1})") > 60);
}

TEST_CASE("every grad step has the shape and axes of its step; the loss comes first") {
  ew::Model m = ew::model_from_string(R"({"config": {"decoder_layers": 1}, "text": "a b c"})");
  ew::Trace t;
  ew::run(m, t);
  const std::size_t forward = t.size();
  ew::run_backward(m, t);
  CHECK(t[forward].id == "loss");
  CHECK(t.at("loss").data[0] > 0.0f);
  int grads = 0;
  for (std::size_t i = forward + 1; i < t.size(); ++i) {
    const std::string id = t[i].id.substr(5);
    const ew::Step* s = t.find(id);
    if (s) {
      CHECK(t[i].shape == s->shape);
      CHECK(t[i].axes.size() == s->axes.size());
    } else {
      CHECK(m.find(id) != nullptr);
    }
    ++grads;
  }
  CHECK(grads > 50);
  CHECK(t.find("grad.attention_mask") == nullptr);  // nothing flows into a mask
  CHECK(t.find("grad.token_ids") == nullptr);
}

TEST_CASE("the backward pass refuses what has nothing to predict, and bad labels") {
  ew::Model m = ew::model_from_string(R"({"text": "a b c"})");
  ew::Trace t;
  ew::run(m, t);
  CHECK_THROWS_WITH_AS(ew::run_backward(m, t), doctest::Contains("needs something to predict"), ew::Error);
  CHECK_THROWS_WITH_AS(ew::model_from_string(R"({"config": {"num_labels": 2}, "text": "a", "label": 2})"),
                       doctest::Contains("label must be between 0 and 1"), ew::Error);
  CHECK_THROWS_WITH_AS(ew::model_from_string(R"({"config": {"num_labels": 2}, "text": "a", "labels": ["x", "y"], "label": "z"})"),
                       doctest::Contains("not one of the labels"), ew::Error);
  CHECK_THROWS_WITH_AS(ew::model_from_string(R"({"text": "a", "label": 0})"), doctest::Contains("num_labels is 0"), ew::Error);
}
