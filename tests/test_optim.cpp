// test_optim.cpp — AdamW's schedule, clipping and first step (optim.h) against their closed
// forms; the many-step comparison with torch.optim.AdamW is tests/reference/check_optim.py.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "model/error.h"
#include "train/optim.h"

TEST_CASE("learning rate: linear warm-up, then linear decay to min_lr_ratio") {
  ew::AdamWConfig c;
  c.lr = 0.01;
  c.warmup_steps = 4;
  c.total_steps = 14;
  c.min_lr_ratio = 0.1;
  CHECK(ew::scheduled_lr(c, 1) == doctest::Approx(0.0025));
  CHECK(ew::scheduled_lr(c, 4) == doctest::Approx(0.01));
  CHECK(ew::scheduled_lr(c, 9) == doctest::Approx(0.01 * (0.1 + 0.9 * 0.5)));
  CHECK(ew::scheduled_lr(c, 14) == doctest::Approx(0.001));
  CHECK(ew::scheduled_lr(c, 20) == doctest::Approx(0.001));
  c.total_steps = 0;
  CHECK(ew::scheduled_lr(c, 1000) == doctest::Approx(0.01));
}

TEST_CASE("the first AdamW step moves each weight by lr·g/(|g| + eps), plus decoupled decay") {
  ew::AdamWConfig c;
  c.lr = 0.1;
  c.weight_decay = 0.5;
  c.clip_norm = 0;
  ew::AdamW opt(c);
  std::vector<float> w{1.0f, -2.0f, 0.5f}, g{0.3f, -4.0f, 0.0f}, b{1.0f}, gb{2.0f};
  const auto info = opt.step({{w.data(), g.data(), 3, true}, {b.data(), gb.data(), 1, false}});
  CHECK(info.t == 1);
  CHECK(info.lr == doctest::Approx(0.1));
  CHECK(info.clip_scale == 1.0f);
  CHECK(w[0] == doctest::Approx(1.0 * 0.95 - 0.1 * 0.3 / (0.3 + 1e-8)).epsilon(1e-6));
  CHECK(w[1] == doctest::Approx(-2.0 * 0.95 + 0.1).epsilon(1e-6));
  CHECK(w[2] == doctest::Approx(0.5 * 0.95).epsilon(1e-6));  // zero gradient: decay only
  CHECK(b[0] == doctest::Approx(1.0 - 0.1).epsilon(1e-6));   // no decay on this slot
}

TEST_CASE("clipping scales every gradient by max_norm / (norm + 1e-6) only above max_norm") {
  std::vector<float> g1{3.0f, 0.0f}, g2{4.0f};
  float scale = 0;
  const double n = ew::clip_grad_norm({{nullptr, g1.data(), 2, true}, {nullptr, g2.data(), 1, false}}, 1.0, &scale);
  CHECK(n == doctest::Approx(5.0));
  CHECK(scale == doctest::Approx(1.0 / (5.0 + 1e-6)));
  CHECK(g1[0] == doctest::Approx(0.6).epsilon(1e-6));
  CHECK(g2[0] == doctest::Approx(0.8).epsilon(1e-6));
  std::vector<float> small{0.1f};
  ew::clip_grad_norm({{nullptr, small.data(), 1, true}}, 1.0, &scale);
  CHECK(scale == 1.0f);
  CHECK(small[0] == 0.1f);
}

TEST_CASE("bad hyper-parameters are refused, naming them") {
  auto refuses = [](auto set, const char* name) {
    ew::AdamWConfig c;
    set(c);
    try {
      ew::validate(c);
      FAIL("accepted a bad " << name);
    } catch (const ew::Error& e) {
      CHECK(std::string(e.what()).find(name) != std::string::npos);
    }
  };
  refuses([](ew::AdamWConfig& c) { c.lr = 0; }, "learning rate");
  refuses([](ew::AdamWConfig& c) { c.lr = NAN; }, "learning rate");
  refuses([](ew::AdamWConfig& c) { c.beta1 = 1; }, "beta1");
  refuses([](ew::AdamWConfig& c) { c.warmup_steps = 10; c.total_steps = 5; }, "warmup_steps");
  refuses([](ew::AdamWConfig& c) { c.clip_norm = -1; }, "clip_norm");
}
