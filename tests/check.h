// check.h — test helpers: compare a trace step (or any float range) with expected values
// under a stated tolerance and, on failure, print the first mismatching index with both
// values and the largest error (llm.c's check_tensor).
#pragma once
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "io/model_file.h"
#include "io/presets.h"
#include "model/model.h"
#include "model/random.h"
#include "trace/forward.h"
#include "trace/trace.h"

namespace ewtest {

// n floats in [-scale, scale), drawn from the seeded stream (seed, key): test inputs that are the
// same on every platform and build.
inline std::vector<float> seeded_floats(std::uint64_t seed, const std::string& key, std::size_t n, float scale = 1.0f) {
  std::vector<float> v(n);
  const auto s = ew::seeded_stream(seed, key);
  for (std::size_t i = 0; i < n; ++i) v[i] = scale * ew::seeded_uniform(s, i);
  return v;
}

// Bitwise equality of two float vectors (determinism: the same bits, not merely close).
inline bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// "1 2 3" for 123: a number as the digit tokens the trained tasks read.
inline std::string spaced_digits(int n) {
  std::string out;
  for (char c : std::to_string(n)) out += (out.empty() ? "" : " ") + std::string(1, c);
  return out;
}

// Passes when |got − want| ≤ rtol·|want| + atol for every element.
inline bool close_all(const std::string& what, const float* got, const std::vector<double>& want, double rtol,
                      double atol = 0.0) {
  std::size_t bad = want.size();
  double worst = 0.0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const double err = std::fabs(static_cast<double>(got[i]) - want[i]);
    const bool same_inf = std::isinf(got[i]) && std::isinf(want[i]) && (got[i] < 0) == (want[i] < 0);
    if (!same_inf && !(err <= rtol * std::fabs(want[i]) + atol)) {
      if (bad == want.size()) bad = i;
      worst = std::max(worst, err);
    }
  }
  if (bad != want.size()) {
    std::printf("MISMATCH %s: first at [%zu]: got %.9g, want %.9g (max error %.3g; rtol %.1g, atol %.1g)\n",
                what.c_str(), bad, static_cast<double>(got[bad]), want[bad], worst, rtol, atol);
    return false;
  }
  return true;
}

// Row `row` (of width `cols`) of a step, compared with `want`.
inline bool close_row(const ew::Trace& t, const std::string& id, int row, const std::vector<double>& want,
                      double rtol, double atol = 0.0) {
  const ew::Step& s = t.at(id);
  const int cols = s.shape.back();
  REQUIRE(static_cast<int>(want.size()) <= cols);
  return close_all(id + " row " + std::to_string(row), s.data.data() + static_cast<std::size_t>(row) * cols, want,
                   rtol, atol);
}

inline ew::Trace run_preset(const std::string& name, ew::Model* out = nullptr) {
  const ew::Preset* p = ew::find_preset(name);
  REQUIRE_MESSAGE(p != nullptr, "no preset " << name);
  ew::Model m = ew::model_from_string(p->model_json);
  ew::Trace t;
  ew::run(m, t);
  if (out) *out = std::move(m);
  return t;
}

inline ew::Trace run_json(const std::string& json, ew::Model* out = nullptr) {
  ew::Model m = ew::model_from_string(json);
  ew::Trace t;
  ew::run(m, t);
  if (out) *out = std::move(m);
  return t;
}

}  // namespace ewtest
