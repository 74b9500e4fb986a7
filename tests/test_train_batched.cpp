// test_train_batched.cpp — the batched training path (train_batched.h) against the recorded
// one (run + run_backward, itself checked against PyTorch autograd by
// reference/check_gradients.py): on random small models of every kind it supports
// (encoder–decoder and classifier; 1–2 layers; 1, 2 and 4 heads; causal or not; GELU and
// ReLU) and padded minibatches of examples of different lengths, the loss and every
// parameter's gradient must agree. Tolerance: |batched − recorded| ≤ 1e-5·max|recorded| +
// 1e-7 over each tensor (float32, sums in another order). Then: a training step allocates
// nothing after the first (a counting global operator new, in this test binary only), and
// unsupported models fall back to the recorded path by name.
#include <doctest/doctest.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "model/random.h"
#include "trace/backward.h"
#include "trace/forward.h"
#include "train/masked_words.h"
#include "train/train.h"
#include "train/train_batched.h"

// Every allocation of the test binary passes through here (replaceable global operator new).
static std::atomic<long> g_allocations{0};
void* operator new(std::size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
// The nothrow forms too (std::stable_sort's temporary buffer uses them): otherwise ASan pairs
// its own nothrow new with the free below and reports a mismatch in whichever test sorts.
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  ++g_allocations;
  return std::malloc(n ? n : 1);
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace {

struct Kind {
  const char* task;
  int d_model, heads, layers;
  bool causal;
  ew::Activation act;
};

// Creates every parameter of m (a run on its text) and draws each at random.
void randomize(ew::Model& m, std::uint64_t seed) {
  ew::Trace t;
  ew::run(m, t);  // creates every parameter
  for (ew::Param& p : m.params) {
    const auto s = ew::seeded_stream(seed, "test:" + p.id);
    for (std::size_t i = 0; i < p.value.size(); ++i) p.value.data()[i] = 0.5f * ew::seeded_uniform(s, i);
    if (p.id.find("gamma") != std::string::npos)
      for (std::size_t i = 0; i < p.value.size(); ++i) p.value.data()[i] += 1.0f;
    p.packed.data.clear();  // repacked from the new values by the next run
  }
}

// A model of this kind with every parameter random (γ ≠ 1, β and biases ≠ 0, so every term
// of every gradient is exercised).
ew::Model random_model(const Kind& k, std::uint64_t seed) {
  ew::TrainOptions o;
  o.task = k.task;
  o.d_model = k.d_model;
  o.num_heads = k.heads;
  o.d_ff = 12;
  o.num_layers = k.layers;
  o.decoder_layers = k.layers;
  o.seed = seed;
  const ew::Task& task = ew::find_task(o.task);
  ew::Model m = ew::initial_model(o, task);
  m.config.causal = k.causal;
  m.config.activation = k.act;
  const ew::Example ex = task.sample(seed, 0, ew::Split::Train);
  m.text = ex.source;
  m.target = ex.target;
  m.target_given = !task.classifier;
  m.label = ex.label;
  randomize(m, seed);
  return m;
}

// The recorded path: each example on its own, the mean of the losses and of the gradients.
double recorded(ew::Model& m, const std::vector<ew::Example>& batch, std::vector<std::vector<float>>& g) {
  g.assign(m.params.size(), {});
  for (std::size_t k = 0; k < m.params.size(); ++k) g[k].assign(m.params[k].value.size(), 0.0f);
  double loss = 0;
  ew::Trace t;
  for (const ew::Example& ex : batch) {
    m.text = ex.source;
    m.target = ex.target;
    m.target_given = m.config.decoder_layers > 0;
    m.label = ex.label;
    m.mask_targets = ex.mask_targets;
    ew::run(m, t);
    ew::run_backward(m, t, false);
    loss += t.at("loss").data[0] / batch.size();
    for (std::size_t k = 0; k < m.params.size(); ++k)
      if (const ew::Step* s = t.find("grad." + m.params[k].id))
        for (std::size_t i = 0; i < s->size(); ++i) g[k][i] += s->data[i] / batch.size();
  }
  return loss;
}

// Largest |got − want| over one tensor against the tolerance; prints the worst on failure.
bool close(const float* got, const std::vector<float>& want, const std::string& what) {
  double scale = 0, worst = 0;
  std::size_t at = 0;
  for (float w : want) scale = std::max(scale, std::fabs(static_cast<double>(w)));
  for (std::size_t i = 0; i < want.size(); ++i) {
    const double e = std::fabs(static_cast<double>(got[i]) - want[i]);
    if (e > worst) worst = e, at = i;
  }
  if (worst <= 1e-5 * scale + 1e-7) return true;
  std::printf("MISMATCH %s[%zu]: batched %.9g, recorded %.9g (max |recorded| %.3g)\n", what.c_str(), at,
              static_cast<double>(got[at]), static_cast<double>(want[at]), scale);
  return false;
}

void check_kind(const Kind& k, std::uint64_t seed, int B) {
  ew::Model m = random_model(k, seed);
  const ew::Task& task = ew::find_task(k.task);
  std::vector<ew::Example> batch;
  for (int i = 0; i < B; ++i) batch.push_back(task.sample(seed, 100 + i, ew::Split::Train));
  std::vector<std::vector<float>> want;
  const double want_loss = recorded(m, batch, want);

  ew::BatchedPass pass(m);
  ew::TokenBatch tb;
  pass.encode(tb, batch.data(), B);
  std::vector<float> got(pass.num_grads());
  const double loss = pass.loss_and_grads(m, tb, got.data());
  INFO(k.task << " d_model " << k.d_model << ", " << k.heads << " heads, " << k.layers << " layer(s), causal "
              << k.causal << ", batch " << B << " (source lengths up to " << tb.T << ")");
  CHECK(std::fabs(loss - want_loss) <= 1e-5 * std::fabs(want_loss));
  for (std::size_t p = 0; p < m.params.size(); ++p)
    CHECK(close(got.data() + pass.offset(p), want[p], m.params[p].id));
}

}  // namespace

TEST_CASE("batched training path: loss and every gradient equal the recorded backward pass") {
  const Kind kinds[] = {
      {"number-words", 8, 2, 1, false, ew::Activation::GELU}, {"number-words", 12, 4, 2, false, ew::Activation::GELU},
      {"number-words", 8, 1, 2, true, ew::Activation::ReLU},  {"brackets", 8, 2, 1, false, ew::Activation::GELU},
      {"brackets", 16, 4, 2, true, ew::Activation::GELU},     {"brackets", 8, 1, 1, false, ew::Activation::ReLU},
  };
  std::uint64_t seed = 3;
  for (const Kind& k : kinds)
    for (int B : {1, 5}) check_kind(k, seed++, B);
}

TEST_CASE("batched training path: the regex tokenizer (dates) and the masked-word head (BPE) equal the recorded pass") {
  std::uint64_t seed = 71;
  for (const Kind& k : {Kind{"dates", 8, 2, 1, false, ew::Activation::GELU}, Kind{"dates", 12, 4, 2, true, ew::Activation::ReLU}})
    for (int B : {1, 5}) check_kind(k, seed++, B);
  // masked-words on a small corpus: sentences of different lengths, one to several [MASK]s each.
  ew::MaskedCorpus corpus;
  for (int i = 0; i < 30; ++i)
    corpus.train.push_back(i % 3 == 0   ? "the people of the united states , in congress ."
                           : i % 3 == 1 ? "we the people , in order to form a more perfect union ."
                                        : "the state of the union is strong .");
  corpus.heldout = {"the union of the people ."};
  const ew::MaskedWordsTask task(corpus, 40);
  ew::TrainOptions o;
  o.task = "masked-words", o.d_model = 8, o.num_heads = 2, o.d_ff = 12, o.num_layers = 2;
  ew::Model m = ew::initial_model(o, task.task());
  m.text = "the people";
  randomize(m, 5);
  REQUIRE(ew::batched_unsupported(m).empty());
  std::vector<ew::Example> batch;
  for (int i = 0; i < 6; ++i) batch.push_back(task.task().sample(3, i, ew::Split::Train));
  std::vector<std::vector<float>> want;
  const double want_loss = recorded(m, batch, want);
  ew::BatchedPass pass(m);
  ew::TokenBatch tb;
  pass.encode(tb, batch.data(), static_cast<int>(batch.size()));
  CHECK(tb.mask_row.size() >= batch.size());
  std::vector<float> got(pass.num_grads());
  const double loss = pass.loss_and_grads(m, tb, got.data());
  CHECK(std::fabs(loss - want_loss) <= 1e-5 * std::fabs(want_loss));
  for (std::size_t p = 0; p < m.params.size(); ++p) CHECK(close(got.data() + pass.offset(p), want[p], m.params[p].id));
}

TEST_CASE("batched training path: padding is invisible (an example's gradient does not depend on its batch)") {
  // The same example alone and beside a longer one: the padded batch's gradient is the mean.
  const Kind k{"number-words", 8, 2, 1, false, ew::Activation::GELU};
  ew::Model m = random_model(k, 42);
  const ew::Task& task = ew::find_task(k.task);
  ew::BatchedPass pass(m);
  ew::TokenBatch tb;
  const ew::Example shortest{"five", "5", -1, {}, {}}, longer{"nine hundred ninety-nine thousand and one", "9 9 9 0 0 1", -1, {}, {}};
  std::vector<float> a(pass.num_grads()), b(pass.num_grads()), both(pass.num_grads());
  pass.encode(tb, &shortest, 1);
  const double la = pass.loss_and_grads(m, tb, a.data());
  pass.encode(tb, &longer, 1);
  const double lb = pass.loss_and_grads(m, tb, b.data());
  const ew::Example pair[] = {shortest, longer};
  pass.encode(tb, pair, 2);
  CHECK(tb.T == 6);
  CHECK(tb.src_len[0] == 1);
  const double l2 = pass.loss_and_grads(m, tb, both.data());
  CHECK(std::fabs(l2 - (la + lb) / 2) <= 1e-6 * std::fabs(l2));
  std::vector<float> mean(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) mean[i] = (a[i] + b[i]) / 2;
  CHECK(close(both.data(), mean, "mean of the two"));
  (void)task;
}

TEST_CASE("batched training path: a training step allocates nothing after the first") {
  for (const char* name : {"number-words", "brackets"}) {
    ew::TrainOptions o;
    o.task = name;
    o.d_model = 16;
    o.num_heads = 2;
    o.d_ff = 32;
    o.steps = 20;
    const ew::Task& task = ew::find_task(name);
    ew::Model m = ew::initial_model(o, task);
    m.text = task.sample(o.seed, 0, ew::Split::Train).source;
    m.target_given = !task.classifier;
    ew::Trace t;
    ew::run(m, t);
    ew::BatchedPass pass(m);
    ew::TokenBatch tb;
    std::vector<float> grads(pass.num_grads());
    std::vector<ew::ParamSlot> slots;
    for (std::size_t k = 0; k < m.params.size(); ++k)
      slots.push_back({m.params[k].value.data(), grads.data() + pass.offset(k), m.params[k].value.size(),
                       m.params[k].value.dimension() == 2});
    ew::AdamWConfig c;
    c.lr = 3e-3;
    ew::AdamW opt(c);
    // The examples are drawn first: the task's text generator builds strings (not the step's work).
    std::vector<std::vector<ew::Example>> batches(o.steps);
    for (int s = 0; s < o.steps; ++s)
      for (int i = 0; i < 32; ++i) batches[s].push_back(task.sample(o.seed, s * 32 + i, ew::Split::Train));
    long after_first = 0;
    for (int s = 0; s < o.steps; ++s) {
      const long before = g_allocations.load();
      pass.encode(tb, batches[s].data(), 32);
      const double loss = pass.loss_and_grads(m, tb, grads.data());
      opt.step(slots);
      CHECK(std::isfinite(loss));
      if (s > 0) after_first += g_allocations.load() - before;
    }
    INFO(name);
    CHECK(after_first == 0);
  }
}

TEST_CASE("Trainer uses the batched path for the models it builds, and falls back by name") {
  ew::TrainOptions o;
  o.steps = 3;
  o.batch = 4;
  ew::Trainer fast(o);
  CHECK(fast.path() == "batched");
  o.batched = false;
  ew::Trainer slow(o);
  CHECK(slow.path().rfind("recorded", 0) == 0);
  // Both paths take the same steps: the same loss at each (the first on the same weights, to
  // 1e-5; later ones after AdamW updates, which turn float32 rounding in near-zero gradients
  // into differences of up to lr per element, so to 1e-4).
  o.batched = true;
  ew::Trainer a(o);
  o.batched = false;
  ew::Trainer b(o);
  for (int s = 0; s < 3; ++s) {
    const double la = a.step(), lb = b.step();
    CHECK(std::fabs(la - lb) <= (s == 0 ? 1e-5 : 1e-4) * std::fabs(lb));
  }
  ew::Model post = ew::initial_model(o, ew::find_task("brackets"));
  post.config.norm = ew::NormOrder::Post;
  CHECK(ew::batched_unsupported(post) == "post-norm layers");
}

TEST_CASE("batched evaluation: the same predictions as greedy decoding on the recorded path") {
  // Partly trained models (so predictions are neither constant nor all right): the batched
  // greedy decoder and Trainer::predict (recorded path, one example at a time) must agree on
  // at least 199 of 200 held-out examples (a near-tie between two tokens may fall either way
  // under different float rounding), and evaluate() on the two paths within one example.
  // Under ASan+UBSan (EW_TEST_SANITIZED: a Debug build, ~15× slower; this case alone took 100 s
  // of the test command) half the training and 50 examples: the same code paths.
#ifdef EW_TEST_SANITIZED
  const int steps = 400, n = 50;
#else
  const int steps = 800, n = 200;
#endif
  for (const char* name : {"number-words", "brackets"}) {
    ew::TrainOptions o;
    o.task = name;
    o.steps = steps;
    o.batch = 16;
    o.lr = 0.006;
    ew::Trainer t(o);
    for (int s = 0; s < o.steps; ++s) t.step();
    std::vector<ew::Example> held;
    for (int i = 0; i < n; ++i) held.push_back(t.task().sample(o.seed, i, ew::Split::HeldOut));
    ew::BatchedPass pass(t.model());
    std::vector<std::vector<int>> got;
    pass.predict(t.model(), held.data(), n, 12, got);
    int same = 0;
    for (int i = 0; i < n; ++i) {
      std::vector<std::string> want = t.predict(held[i].source), mine;
      for (int id : got[i]) mine.push_back(t.task().classifier ? t.task().labels.at(id) : t.model().vocab.at(id));
      same += mine == want;
    }
    const double fast = t.evaluate(n), slow = t.evaluate_recorded(n);
    INFO(name << ": " << same << " of " << n << " predictions agree; accuracy batched " << fast << ", recorded " << slow);
    CHECK(same >= n - 1);
    CHECK(fast > 0.05);
    CHECK(std::fabs(fast - slow) <= 1.0 / n + 1e-12);
  }
}
