// test_grad_of.cpp — every gradient step names the tensor it differentiates (Step::of, the
// page's link from a gradient to its forward step): "grad." + of is its id, `of` is a step
// recorded before it or a parameter, and the gradient has that tensor's shape. Checked on the
// shipped models and a seeded model large enough that recording the gradients reallocates
// the trace's steps (the case that once left `of` pointing at a moved string).
#include <doctest/doctest.h>

#include <string>

#include "io/model_file.h"
#include "trace/backward.h"
#include "trace/forward.h"

namespace {

void check_of(const char* model_json) {
  ew::Model m = ew::model_from_string(model_json);
  ew::Trace t;
  ew::run(m, t);
  const std::size_t forward = t.size();
  ew::run_backward(m, t);
  int grads = 0;
  for (std::size_t i = forward; i < t.size(); ++i) {
    const ew::Step& s = t[i];
    if (s.kind != "grad") {
      CHECK(s.of.empty());
      continue;
    }
    ++grads;
    REQUIRE_MESSAGE(!s.of.empty(), s.id);
    CHECK(s.id == "grad." + s.of);
    std::size_t n = 0;
    if (const ew::Step* f = t.find(s.of)) {
      CHECK(f->kind != "grad");
      n = f->size();
    } else {
      n = m.at(s.of).value.size();
    }
    CHECK_MESSAGE(n == s.size(), s.id);
  }
  CHECK(grads > 20);
  for (std::size_t i = 0; i < forward; ++i) CHECK(t[i].of.empty());
}

}  // namespace

TEST_CASE("grad steps name the tensor they differentiate") {
  check_of(R"J({"weights": "builtin:number-words", "text": "six hundred twelve", "target": "6 1 2"})J");
  check_of(R"J({"weights": "builtin:brackets", "text": "( ( ) )", "label": 0})J");
  check_of(R"J({"config": {"d_model": 8, "num_heads": 2, "d_ff": 16, "num_layers": 3, "decoder_layers": 2, "seed": 4},
               "text": "in the bleak midwinter frosty wind made moan", "target": "earth stood hard"})J");
}
