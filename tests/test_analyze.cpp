// test_analyze.cpp — the attention measurements (analyze.h) recomputed here straight from the
// traces of the same teacher-forced runs, step by step, with a direct count: entropy H/log n
// per row over unmasked keys, and the argmax of each cross-attention row against the task's
// alignment; a model that does not fit its task is refused by name.
#include <doctest/doctest.h>

#include <cmath>

#include "io/model_file.h"
#include "io/presets.h"
#include "model/error.h"
#include "trace/forward.h"
#include "train/analyze.h"
#include "train/train.h"

namespace {

// Mean over rows of H/log n of the [rows, cols] weights step `id`, n = keys with a finite
// masked score in `masked_id` (rows with n < 2 skipped); adds to sum and count.
void entropy_rows(const ew::Trace& tr, const std::string& id, const std::string& masked_id, double& sum, long& count) {
  const ew::Step& w = tr.at(id);
  const ew::Step& s = tr.at(masked_id);
  for (int i = 0; i < w.shape[0]; ++i) {
    int n = 0;
    double h = 0;
    for (int j = 0; j < w.shape[1]; ++j) {
      const float a = w.data[i * w.shape[1] + j];
      if (s.data[i * w.shape[1] + j] > -INFINITY) ++n;
      if (a > 0) h -= a * std::log(static_cast<double>(a));
    }
    if (n >= 2) sum += h / std::log(static_cast<double>(n)), ++count;
  }
}

}  // namespace

TEST_CASE("analyze: entropy and alignment equal a direct count over the same traces") {
  ew::TrainOptions o;
  o.d_model = 8, o.num_heads = 2, o.d_ff = 16;
  for (const char* task_name : {"number-words", "dates"}) {
    o.task = task_name;
    ew::Trainer t(o);  // untrained: seeded weights, the task's vocabulary and tokenizer
    for (int k = 0; k < 30; ++k) t.step();  // a little training, so rows are not all alike
    ew::Model m = t.model();
    const ew::Task& task = t.task();
    const int n = 12;
    const ew::Analysis a = ew::analyze(m, task, 5, n);
    REQUIRE(a.heads.size() == 6);  // encoder self 2, decoder self 2, cross 2
    double enc0 = 0, dec1 = 0, cross[2] = {0, 0};
    long enc0_n = 0, dec1_n = 0, cross_n[2] = {0, 0}, hits[2] = {0, 0}, aligned = 0;
    for (int i = 0; i < n; ++i) {
      const ew::Example ex = task.sample(5, static_cast<std::uint64_t>(i), ew::Split::HeldOut);
      m.text = ex.source, m.target = ex.target, m.target_given = true;
      ew::Trace tr;
      ew::run(m, tr);
      entropy_rows(tr, "layer0.head0.weights", "layer0.head0.scaled", enc0, enc0_n);
      entropy_rows(tr, "decoder0.self.head1.weights", "decoder0.self.head1.scaled", dec1, dec1_n);
      for (int h = 0; h < 2; ++h) {
        const std::string p = "decoder0.cross.head" + std::to_string(h);
        entropy_rows(tr, p + ".weights", p + ".scaled", cross[h], cross_n[h]);
        const ew::Step& w = tr.at(p + ".weights");
        for (std::size_t r = 0; r < ex.align.size(); ++r) {
          if (ex.align[r] < 0) continue;
          aligned += h == 0;
          int best = 0;
          for (int j = 1; j < w.shape[1]; ++j)
            if (w.data[r * w.shape[1] + j] > w.data[r * w.shape[1] + best]) best = j;
          hits[h] += best == ex.align[r];
        }
      }
    }
    CHECK(a.heads[0].place.block == "self_attention");
    CHECK(a.heads[0].entropy == doctest::Approx(enc0 / enc0_n).epsilon(1e-12));
    CHECK(a.heads[0].aligned == -1);
    CHECK(a.heads[3].place.section == "decoder");
    CHECK(a.heads[3].entropy == doctest::Approx(dec1 / dec1_n).epsilon(1e-12));
    CHECK(a.heads[3].rows == dec1_n);  // causal: the first row (one key) is skipped
    for (int h = 0; h < 2; ++h) {
      CHECK(a.heads[4 + h].place.block == "cross_attention");
      CHECK(a.heads[4 + h].entropy == doctest::Approx(cross[h] / cross_n[h]).epsilon(1e-12));
      CHECK(a.heads[4 + h].aligned_rows == aligned);
      CHECK(a.heads[4 + h].aligned == doctest::Approx(static_cast<double>(hits[h]) / aligned).epsilon(1e-12));
    }
    CHECK(a.accuracy >= 0);
    CHECK(a.accuracy <= 1);
  }
}

TEST_CASE("analyze: a model that does not fit the task is refused by name; the seeded copy drops every weight") {
  ew::Model br = ew::model_from_string(ew::find_preset("trained-brackets")->model_json);
  CHECK_THROWS_WITH_AS(ew::analyze(br, ew::find_task("number-words"), 1, 5), doctest::Contains("does not fit task \"number-words\""), ew::Error);
  ew::Model nw = ew::model_from_string(ew::find_preset("trained-number-words")->model_json);
  CHECK_THROWS_WITH_AS(ew::analyze(nw, ew::find_task("brackets"), 1, 5), doctest::Contains("does not fit task \"brackets\""), ew::Error);
  ew::Trace tr;
  ew::run(nw, tr);
  const ew::Model s = ew::seeded_copy(nw);
  CHECK(s.params.empty());
  CHECK(!s.user_embedding);
  CHECK(s.config.d_model == nw.config.d_model);
  CHECK(s.vocab == nw.vocab);
}
