// test_params_cache.cpp — reuse_seeded_params (params.h): reusing the seeded weights of the
// previous model when only the sentence changed must give exactly the numbers of a fresh
// run, and must not reuse anything drawn differently: another seed, another shape, or a
// model file that supplies weights of its own.
#include <doctest/doctest.h>

#include <string>

#include "model/params.h"
#include "trace/forward.h"
#include "check.h"

namespace {

std::string cache_model_json(const std::string& text, int d_model = 8, int seed = 66, const std::string& extra = "") {
  return R"({"config": {"d_model": )" + std::to_string(d_model) +
         R"(, "num_heads": 2, "d_ff": 16, "num_layers": 2, "decoder_layers": 1, "positional": "learned", "seed": )" +
         std::to_string(seed) + R"(}, "text": ")" + text + "\"" + extra + "}";
}

// Every step and parameter of a and b are bit-identical.
void require_same(const ew::Trace& a, const ew::Model& ma, const ew::Trace& b, const ew::Model& mb) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    INFO("step " << a[i].id);
    REQUIRE(a[i].id == b[i].id);
    REQUIRE(a[i].data == b[i].data);
  }
  REQUIRE(ma.params.size() == mb.params.size());
  for (std::size_t i = 0; i < ma.params.size(); ++i) {
    INFO("param " << ma.params[i].id);
    REQUIRE(ma.params[i].id == mb.params[i].id);
    REQUIRE(ma.params[i].value == mb.params[i].value);
  }
}

}  // namespace

TEST_CASE("reused seeded weights give the numbers of a fresh run") {
  ew::Model prev;
  ewtest::run_json(cache_model_json("the frost was hard"), &prev);
  const std::size_t before = prev.params.size();

  ew::Model next = ew::model_from_string(cache_model_json("earth stood hard as iron water like a stone"));
  ew::reuse_seeded_params(next, prev);
  CHECK(next.params.size() > 10);                        // the layer weights moved over...
  CHECK(prev.params.size() == before - next.params.size());
  for (const ew::Param& p : next.params) {
    CHECK(p.id != "embedding_table");                    // ...but not the text-sized tables
    CHECK(p.id != "position_table");
  }
  ew::Trace reused;
  ew::run(next, reused);

  ew::Model fresh;
  const ew::Trace expect = ewtest::run_json(cache_model_json("earth stood hard as iron water like a stone"), &fresh);
  require_same(reused, next, expect, fresh);
}

TEST_CASE("nothing is reused across seeds, sizes or supplied weights") {
  ew::Model prev;
  ewtest::run_json(cache_model_json("the frost was hard"), &prev);

  ew::Model other_seed = ew::model_from_string(cache_model_json("a b c", 8, 67));
  ew::reuse_seeded_params(other_seed, prev);
  CHECK(other_seed.params.empty());

  // Another d_model: only parameters whose shape did not change may move (here the d_ff
  // biases, zeros either way), and the run must equal a fresh one.
  ew::Model other_size = ew::model_from_string(cache_model_json("a b c", 12));
  ew::reuse_seeded_params(other_size, prev);
  for (const ew::Param& p : other_size.params) CHECK(p.value.shape()[0] == 16);
  ew::Trace t;
  ew::run(other_size, t);
  ew::Model fresh;
  const ew::Trace expect = ewtest::run_json(cache_model_json("a b c", 12), &fresh);
  require_same(t, other_size, expect, fresh);

  ew::Model given = ew::model_from_string(
      cache_model_json("a b c", 8, 66, R"(, "layers": [{"b_q": [1, 2, 3, 4, 5, 6, 7, 8]}, {}])"));
  REQUIRE(given.given_params == 1);
  ew::reuse_seeded_params(given, prev);
  CHECK(given.params.size() == 1);
}
