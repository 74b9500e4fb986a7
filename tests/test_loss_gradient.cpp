// test_loss_gradient.cpp — the softmax the loss reads keeps its digits at a confident answer:
// on the trained number-words model (loss ~1e-4, p of the right digit ≈ 0.9999), dL/dz at each
// right answer must equal −(1/N)·Σ_{j≠y} p_j computed here in float64 from the recorded
// probabilities, to 1e-5 relative, and dL/dz elsewhere (1/N)·p_j. The same pass through the
// softmax's separate steps (run_backward's fused_loss = false, which the recorded trainer keeps
// for its byte-identical file) misses by more than 1e-4 relative on some row: the cancellation
// this form removes, shown here so the check is known to fail without it.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "io/model_file.h"
#include "io/presets.h"
#include "trace/backward.h"
#include "trace/forward.h"

namespace {

// The worst relative error of dL/dz against (p − onehot)/N over the right answers' cells.
double worst_at_right_answers(bool fused) {
  const ew::Preset* p = ew::find_preset("trained-number-words");
  REQUIRE(p != nullptr);
  ew::Model m = ew::model_from_string(p->model_json);
  ew::Trace t;
  ew::run(m, t);
  ew::run_backward(m, t, true, fused);
  const ew::Step& P = t.at("probs");
  const ew::Step& dz = t.at("grad." + P.inputs.at(0));
  const ew::Step& dp = t.at("grad.probs");
  const int n = P.shape.back(), rows = static_cast<int>(P.size()) / n;
  double worst = 0;
  for (int r = 0; r < rows; ++r) {
    int y = -1;
    for (int j = 0; j < n; ++j)
      if (dp.data[r * n + j] != 0) y = j;
    REQUIRE(y >= 0);
    double rest = 0;
    for (int j = 0; j < n; ++j)
      if (j != y) rest += P.data[r * n + j];
    const double want = -rest / rows;
    worst = std::max(worst, std::abs(dz.data[r * n + y] - want) / std::abs(want));
    for (int j = 0; j < n; ++j)  // elsewhere: p_j / N
      if (j != y && fused) CHECK(std::abs(dz.data[r * n + j] - P.data[r * n + j] / rows) <= 1e-6 * (P.data[r * n + j] / rows) + 1e-30);
  }
  return worst;
}

}  // namespace

TEST_CASE("the loss's softmax gradient at a confident answer keeps its digits (p − onehot without cancellation)") {
  const double fused = worst_at_right_answers(true), separate = worst_at_right_answers(false);
  MESSAGE("worst relative error at the right answers: fused " << fused << ", separate steps " << separate);
  CHECK(fused <= 1e-5);
  CHECK(separate > 1e-4);  // the form this replaces fails the same check
}
