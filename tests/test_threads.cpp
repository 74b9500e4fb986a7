// test_threads.cpp — the kernels' thread pool (core/kernels/pool.h) changes no bit: the SIMD
// matmuls split C's column panels over 1, 2, 3 and 4 threads and must give exactly (memcmp)
// the one-thread result on awkward shapes — rows, columns and K not multiples of the register
// tile, the panel width or the K block, strided operands, bias, fused activations and the
// pre-activation copy — and a whole multi-layer encoder–decoder trace must be bit-identical.
// Splitting the K loop across threads (partial sums added afterwards) would fail this.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/kernels.h"
#include "kernels/pool.h"
#include "model/random.h"
#include "session/session.h"
#include "check.h"

namespace {

std::vector<float> rnd_threads(std::size_t n, const std::string& key) { return ewtest::seeded_floats(11, key, n); }


struct Shape {
  int M, K, N;
};
// Large enough to be split (≥ 2^21 flops) and ragged everywhere; K > 512 crosses the K block
// of every build; the last one is small enough to stay on one thread.
const Shape kShapes[] = {{37, 531, 1001}, {128, 768, 769}, {5, 1100, 397}, {65, 257, 130}, {3, 17, 29}};

// C and C_act of the packed matmul and C of the unpacked one, with `n` threads.
std::vector<float> products(const Shape& s, int n, ew::Activation act) {
  ew::set_threads(n);
  const int lda = s.K + 3, ldb = s.N + 5, ldc = s.N + 2;
  const std::vector<float> A = rnd_threads(static_cast<std::size_t>(s.M) * lda, "A"), B = rnd_threads(static_cast<std::size_t>(s.K) * ldb, "B");
  const std::vector<float> bias = rnd_threads(s.N, "bias");
  std::vector<float> Bd(static_cast<std::size_t>(s.K) * s.N);
  for (int k = 0; k < s.K; ++k) std::memcpy(&Bd[static_cast<std::size_t>(k) * s.N], &B[static_cast<std::size_t>(k) * ldb], sizeof(float) * s.N);
  ew::PackedB packed;
  ew::ew_f32_pack_b(&packed, Bd.data(), s.K, s.N);
  const std::size_t size = static_cast<std::size_t>(s.M) * ldc;
  std::vector<float> C(size, 7.0f), C_act(size, 7.0f), C_plain(size, 7.0f), C_unpacked(size, 7.0f);
  ew::ew_f32_matmul_packed(C.data(), ldc, A.data(), lda, packed, bias.data(), s.M, act, C_act.data());
  ew::ew_f32_matmul_packed(C_plain.data(), ldc, A.data(), lda, packed, nullptr, s.M, act);
  ew::ew_f32_matmul(C_unpacked.data(), ldc, A.data(), lda, B.data(), ldb, bias.data(), s.M, s.K, s.N, act);
  std::vector<float> all = C;
  for (const auto* v : {&C_act, &C_plain, &C_unpacked}) all.insert(all.end(), v->begin(), v->end());
  return all;
}

std::vector<std::vector<float>> trace_data(int n) {
  ew::set_threads(n);
  const nlohmann::json model = {
      {"config", {{"d_model", 128}, {"num_heads", 4}, {"d_ff", 512}, {"num_layers", 2}, {"decoder_layers", 1}, {"seed", 3}}},
      {"text", "the quick brown fox jumps over the lazy dog while snow falls on the bleak midwinter hills "
               "and every word of this long sentence makes the matmuls large enough for the pool to split"}};
  ew::Session s;
  s.run({ew::ModelSource::Kind::Json, model.dump(), std::nullopt, std::nullopt, std::nullopt}, {});
  std::vector<std::vector<float>> out;
  for (std::size_t i = 0; i < s.trace().size(); ++i) out.push_back(s.trace()[i].data);
  return out;
}

}  // namespace

TEST_CASE("threads: matmuls split by output panels are bit-identical to one thread") {
  const int before = ew::threads();  // main.cpp's --threads
  for (const Shape& s : kShapes)
    for (ew::Activation act : {ew::Activation::None, ew::Activation::ReLU, ew::Activation::GELU}) {
      CAPTURE(s.M);
      CAPTURE(s.K);
      CAPTURE(s.N);
      const std::vector<float> one = products(s, 1, act);
      for (int n : {2, 3, 4}) {
        CAPTURE(n);
        CHECK(ewtest::same_bits(products(s, n, act), one));
      }
    }
  ew::set_threads(before);
}

TEST_CASE("threads: a whole encoder-decoder trace is bit-identical with 1, 2, 3 and 4 threads") {
  const int before = ew::threads();
  const std::vector<std::vector<float>> one = trace_data(1);
  REQUIRE(one.size() > 10);
  for (int n : {2, 3, 4}) {
    CAPTURE(n);
    const std::vector<std::vector<float>> many = trace_data(n);
    REQUIRE(many.size() == one.size());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < one.size(); ++i) differ += !ewtest::same_bits(many[i], one[i]);
    CHECK(differ == 0);
  }
  ew::set_threads(before);
}

TEST_CASE("threads: the pool runs every task once, nested calls run inline, the count is clamped") {
  const int before = ew::threads();
  ew::set_threads(3);
  CHECK(ew::threads() == std::min(3, ew::max_threads()));
  std::vector<int> hits(10, 0);
  ew::parallel_for(10, [&](int t) {
    ++hits[t];
    ew::parallel_for(2, [](int) {});  // nested: serial on this thread, no deadlock
  });
  CHECK(hits == std::vector<int>(10, 1));
  ew::set_threads(0);
  CHECK(ew::threads() == 1);
  ew::set_threads(1000);
  CHECK(ew::threads() == ew::max_threads());  // 1 in a wasm build without pthreads
  ew::set_threads(before);
}

TEST_CASE("threads: a vocabulary's scores split by key blocks are bit-identical to one thread") {
  // The tied LM head's product (ew_f32_scores over many keys): each thread takes a range of
  // key blocks, each score the same dot product as with one thread.
  const int before = ew::threads();
  const int Tq = 7, Tk = 3001, dk = 770;
  const std::vector<float> Q = rnd_threads(static_cast<std::size_t>(Tq) * dk, "Q"), K = rnd_threads(static_cast<std::size_t>(Tk) * dk, "K");
  auto scores = [&](int n) {
    ew::set_threads(n);
    std::vector<float> S(static_cast<std::size_t>(Tq) * Tk, 7.0f);
    ew::ew_f32_scores(S.data(), Tk, Q.data(), dk, K.data(), dk, Tq, Tk, dk);
    return S;
  };
  const std::vector<float> one = scores(1);
  for (int n : {2, 3, 4}) {
    CAPTURE(n);
    CHECK(ewtest::same_bits(scores(n), one));
  }
  ew::set_threads(before);
}
