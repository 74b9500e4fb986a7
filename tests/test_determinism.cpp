// test_determinism.cpp — "deterministic for a seed" (README, docs/training.md): training twice
// with the same options gives bit-identical parameters, on both gradient paths (batched and
// recorded) and through a classifier and an encoder–decoder; another seed gives other
// parameters. Compared bit for bit (memcmp), so a non-deterministic sum order, an
// uninitialised buffer or a clock-dependent draw fails it. The retraining of a shipped model
// and the comparison with its file is the ctest `trained_dates_reproduces` (tests/CMakeLists.txt).
#include <doctest/doctest.h>

#include "check.h"

#include <cstring>
#include <string>
#include <vector>

#include "train/train.h"

namespace {

ew::TrainOptions small(const std::string& task, std::uint64_t seed, bool batched) {
  ew::TrainOptions o;
  o.task = task;
  o.seed = seed;
  o.steps = 12;
  o.batch = 4;
  o.d_model = 8;
  o.num_heads = 2;
  o.d_ff = 16;
  o.num_layers = 1;
  o.lr = 0.01;
  o.batched = batched;
  return o;
}

// Every parameter's value after o.steps steps, in the model's order, as raw floats.
std::vector<float> trained(const ew::TrainOptions& o) {
  ew::Trainer t(o);
  for (int i = 0; i < o.steps; ++i) t.step();
  std::vector<float> out;
  for (const ew::Param& p : t.model().params) out.insert(out.end(), p.value.data(), p.value.data() + p.value.size());
  return out;
}


}  // namespace

TEST_CASE("training is deterministic for a seed, and the seed matters") {
  for (const char* task : {"number-words", "brackets"})
    for (bool batched : {true, false}) {
      CAPTURE(task);
      CAPTURE(batched);
      const std::vector<float> a = trained(small(task, 5, batched)), b = trained(small(task, 5, batched));
      const std::vector<float> c = trained(small(task, 6, batched));
      REQUIRE(!a.empty());
      CHECK(ewtest::same_bits(a, b));
      REQUIRE(a.size() == c.size());
      std::size_t differ = 0;
      for (std::size_t i = 0; i < a.size(); ++i) differ += a[i] != c[i];
      CHECK(differ > a.size() / 2);  // another seed: other initial weights and other examples
    }
}
