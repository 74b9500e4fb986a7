// test_kernels.cpp — every SIMD kernel against its scalar reference (kernels_scalar.cpp)
// on seeded random data at awkward sizes (1, 3, 4, 5, 7, 8, 17, 63, 64, 65, ... around the
// vector width, the register tile and the K block), strided operands, and adversarial
// values: logits whose exp overflows unless the max is subtracted, -inf masks, fully
// masked rows. Tolerance: 1e-5 relative to the row's largest magnitude (float32 sums of
// up to ~700 terms in a different order, and a polynomial exp with ~1e-7 relative error).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <algorithm>
#include <cstdio>
#include "kernels/kernels.h"
#include "model/random.h"
#include "check.h"

namespace {

const float kInf = std::numeric_limits<float>::infinity();

std::vector<float> rnd(std::size_t n, const std::string& key, float scale = 1.0f) {
  return ewtest::seeded_floats(7, key, n, scale);
}

const int kSizes[] = {1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 63, 64, 65};

// |got − want| ≤ atol + rtol·|want| everywhere (equal infinities pass); on failure prints
// the first mismatch and the largest error.
bool close_all(const std::vector<float>& got, const std::vector<float>& want, float atol, float rtol,
               const char* what) {
  std::size_t bad = want.size();
  double worst = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (std::isinf(want[i]) && got[i] == want[i]) continue;
    const double err = std::fabs(static_cast<double>(got[i]) - want[i]);
    if (!(err <= atol + rtol * std::fabs(want[i]))) {
      if (bad == want.size()) bad = i;
      worst = std::max(worst, err);
    }
  }
  if (bad == want.size()) return true;
  std::printf("MISMATCH %s: first at [%zu]: got %.9g, want %.9g (max error %.3g; atol %.2g, rtol %.2g)\n", what,
              bad, static_cast<double>(got[bad]), static_cast<double>(want[bad]), worst, static_cast<double>(atol),
              static_cast<double>(rtol));
  return false;
}

}  // namespace

extern std::string ew_expected_isa;  // main.cpp: --expect-isa=NAME

TEST_CASE("kernel ISA is named") {
  const std::string isa = ew::kernel_isa();
  MESSAGE("kernels: " << isa);
  CHECK((isa == "wasmsimd" || isa == "wasmrelaxed" || isa == "avx2" || isa == "sse2" || isa == "scalar"));
  if (!ew_expected_isa.empty()) {
    CHECK(isa == ew_expected_isa);  // the relaxed-SIMD suites' --expect-isa (tests/CMakeLists.txt)
  } else {
#if defined(__wasm_simd128__) && !defined(EW_SCALAR)
    CHECK(isa == "wasmsimd");
#endif
  }
}

TEST_CASE("matmul: packed and unpacked SIMD equal the scalar reference at awkward sizes") {
  for (int M : {1, 2, 3, 4, 5, 7, 9, 17}) {
    for (int K : {1, 3, 4, 5, 8, 17, 64, 65, 255, 256, 257, 600}) {
      for (int N : {1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 33, 63, 64, 65}) {
        for (ew::Activation act : {ew::Activation::None, ew::Activation::ReLU, ew::Activation::GELU, ew::Activation::GELUTanh}) {
          CAPTURE(M);
          CAPTURE(K);
          CAPTURE(N);
          CAPTURE(static_cast<int>(act));
          const int lda = K + 3, ldc = N + 2;  // strided rows on both sides
          const auto A = rnd(static_cast<std::size_t>(M) * lda, "A" + std::to_string(K));
          const auto B = rnd(static_cast<std::size_t>(K) * N, "B" + std::to_string(N));
          const auto bias = rnd(N, "bias");
          std::vector<float> ref(static_cast<std::size_t>(M) * ldc, 7.0f), got = ref, got2 = ref, pre = ref,
                                                                          act_out = ref;
          ew::ew_f32_matmul__scalar(ref.data(), ldc, A.data(), lda, B.data(), N, bias.data(), M, K, N, act);
          ew::PackedB P;
          ew::ew_f32_pack_b(&P, B.data(), K, N);
          ew::ew_f32_matmul_packed(got.data(), ldc, A.data(), lda, P, bias.data(), M, act);
          ew::ew_f32_matmul(got2.data(), ldc, A.data(), lda, B.data(), N, bias.data(), M, K, N, act);
          // Fused dual output: pre-activation in one buffer, activation in the other.
          ew::ew_f32_matmul_packed(pre.data(), ldc, A.data(), lda, P, bias.data(), M, act, act_out.data());
          const float tol = 1e-5f * std::sqrt(static_cast<float>(K));  // |a|,|b| < 1: sums grow like √K
          REQUIRE(close_all(got, ref, tol, 1e-5f, "packed"));
          REQUIRE(close_all(got2, ref, tol, 1e-5f, "unpacked"));
          REQUIRE(close_all(act_out, ref, tol, 1e-5f, "fused activation"));
          if (act == ew::Activation::None) REQUIRE(close_all(pre, ref, tol, 1e-5f, "fused pre"));
          // Padding between rows (ldc > N) is never written.
          for (int i = 0; i < M; ++i)
            for (int j = N; j < ldc; ++j) REQUIRE(got[static_cast<std::size_t>(i) * ldc + j] == 7.0f);
        }
      }
    }
  }
}

// A weight packed piece by piece, as a checkpoint's is while its file is decoded, and read back.
TEST_CASE("packed B built by rows or by columns equals ew_f32_pack_b's; unpack, set and the one-row product read it exactly") {
  for (int K : {1, 3, 8, 17, 64, 65, 257}) {
    for (int N : {1, 3, 4, 5, 12, 15, 16, 17, 33, 64, 65, 100}) {
      CAPTURE(K);
      CAPTURE(N);
      const std::string key = std::to_string(K) + "x" + std::to_string(N);
      const auto B = rnd(static_cast<std::size_t>(K) * N, "pB" + key);
      std::vector<float> Bt(static_cast<std::size_t>(N) * K);  // Bᵀ, as nn.Linear stores [out, in]
      for (int k = 0; k < K; ++k)
        for (int j = 0; j < N; ++j) Bt[static_cast<std::size_t>(j) * K + k] = B[static_cast<std::size_t>(k) * N + j];
      ew::PackedB whole, by_rows, by_cols;
      ew::ew_f32_pack_b(&whole, B.data(), K, N);
      ew::ew_f32_pack_b_init(&by_rows, K, N);
      ew::ew_f32_pack_b_init(&by_cols, K, N);
      for (int k0 = 0; k0 < K; k0 += 5) ew::ew_f32_pack_b_rows(&by_rows, B.data() + static_cast<std::size_t>(k0) * N, N, k0, std::min(5, K - k0));
      for (int j0 = 0; j0 < N; j0 += 7) ew::ew_f32_pack_bt_rows(&by_cols, Bt.data() + static_cast<std::size_t>(j0) * K, K, j0, std::min(7, N - j0));
      REQUIRE(by_rows.data == whole.data);  // padding included
      REQUIRE(by_cols.data == whole.data);
      REQUIRE(whole.data.size() == ew::ew_f32_packed_floats(K, N));
      std::vector<float> back(B.size());
      ew::ew_f32_unpack_b(whole, 0, back.size(), back.data());
      REQUIRE(back == B);
      std::vector<float> tail(3);  // a range that starts mid-row
      if (B.size() >= 5) {
        ew::ew_f32_unpack_b(whole, B.size() - 4, 3, tail.data());
        CHECK(std::equal(tail.begin(), tail.end(), B.end() - 4));
      }
      // the one-row product: ew_f32_gemv's on the row-major B, bit for bit (N a multiple of the
      // vector width: its other columns are a scalar tail there, lanes here), else within 1e-5
      const auto x = rnd(K, "px" + key), bias = rnd(N, "pbias" + key, 0.5f);
      for (const float* b : {static_cast<const float*>(nullptr), bias.data()}) {
        std::vector<float> packed(N, 7.0f), rows(N), ref(N);
        ew::ew_f32_gemv_packed(packed.data(), x.data(), whole, b);
        ew::ew_f32_gemv(rows.data(), x.data(), B.data(), N, b, K, N);
        ew::ew_f32_gemv__scalar(ref.data(), x.data(), B.data(), N, b, K, N);
        if (N % 16 == 0) REQUIRE(packed == rows);
        REQUIRE(close_all(packed, ref, 1e-5f * std::sqrt(static_cast<float>(K)), 1e-5f, "gemv packed"));
      }
      // set: one cell changes, and only it
      const std::size_t cell = B.size() / 2;
      ew::ew_f32_packed_set(&whole, cell, 42.5f);
      ew::ew_f32_unpack_b(whole, 0, back.size(), back.data());
      std::vector<float> want = B;
      want[cell] = 42.5f;
      REQUIRE(back == want);
    }
  }
}

TEST_CASE("matmul: the null bias and K = 0 give zeros (plus activation)") {
  ew::PackedB P;
  ew::ew_f32_pack_b(&P, nullptr, 0, 5);
  std::vector<float> C(3 * 5, 9.0f);
  const float a = 1.0f;
  ew::ew_f32_matmul_packed(C.data(), 5, &a, 0, P, nullptr, 3, ew::Activation::None);
  for (float v : C) CHECK(v == 0.0f);
}

TEST_CASE("scores: Q·Kᵀ without a transpose equals the reference, strided, rectangular") {
  for (int Tq : {1, 2, 3, 5, 8, 17}) {
    for (int Tk : {1, 3, 4, 5, 7, 9, 17, 65}) {
      for (int dk : {1, 3, 4, 5, 8, 17, 64, 65}) {
        CAPTURE(Tq);
        CAPTURE(Tk);
        CAPTURE(dk);
        const int ldq = dk * 3, ldk = dk * 2 + 1;  // heads are column slices of q, k
        const auto Q = rnd(static_cast<std::size_t>(Tq) * ldq, "Q");
        const auto K = rnd(static_cast<std::size_t>(Tk) * ldk, "K");
        std::vector<float> ref(static_cast<std::size_t>(Tq) * Tk), got(ref.size());
        ew::ew_f32_scores__scalar(ref.data(), Tk, Q.data(), ldq, K.data(), ldk, Tq, Tk, dk);
        ew::ew_f32_scores(got.data(), Tk, Q.data(), ldq, K.data(), ldk, Tq, Tk, dk);
        REQUIRE(close_all(got, ref, 1e-5f * std::sqrt(static_cast<float>(dk)), 1e-5f, "scores"));
      }
    }
  }
}

TEST_CASE("scores over a vocabulary: keys in blocks, each score bit-identical to one key at a time") {
  // A tied LM head's shape in small: many keys of a wide dk, so that ew_f32_scores walks the
  // keys in several blocks (one a partial block). Each score must be exactly the one computed
  // with its key alone (the same instruction sequence), and close to the scalar reference.
  const int Tq = 5, Tk = 1003, dk = 770;
  const auto Q = rnd(static_cast<std::size_t>(Tq) * dk, "Q");
  const auto K = rnd(static_cast<std::size_t>(Tk) * dk, "K");
  std::vector<float> ref(static_cast<std::size_t>(Tq) * Tk), got(ref.size()), one(Tq);
  ew::ew_f32_scores__scalar(ref.data(), Tk, Q.data(), dk, K.data(), dk, Tq, Tk, dk);
  ew::ew_f32_scores(got.data(), Tk, Q.data(), dk, K.data(), dk, Tq, Tk, dk);
  REQUIRE(close_all(got, ref, 1e-5f * std::sqrt(static_cast<float>(dk)), 1e-5f, "vocabulary scores"));
  for (int j = 0; j < Tk; j += 7) {
    ew::ew_f32_scores(one.data(), 1, Q.data(), dk, K.data() + static_cast<std::size_t>(j) * dk, dk, Tq, 1, dk);
    for (int i = 0; i < Tq; ++i) REQUIRE(got[static_cast<std::size_t>(i) * Tk + j] == one[i]);
  }
}

// A decoded token's head: one query against the vocabulary takes its own path (one key at a time,
// one stream per key: kernels_simd.cpp, scores_one_query); its scores are the two-query path's
// within rounding (a different summation order), and close to the scalar reference.
TEST_CASE("scores of one query equal its row computed beside a second query within 1e-6, and the reference") {
  for (int dk : {3, 8, 15, 16, 17, 64, 65, 770}) {
    const int Tk = 1003;
    CAPTURE(dk);
    const auto Q = rnd(static_cast<std::size_t>(2) * dk, "Q1");
    const auto K = rnd(static_cast<std::size_t>(Tk) * dk, "K1");
    std::vector<float> pair(static_cast<std::size_t>(2) * Tk), alone(Tk), ref(Tk);
    ew::ew_f32_scores(pair.data(), Tk, Q.data(), dk, K.data(), dk, 2, Tk, dk);
    ew::ew_f32_scores(alone.data(), Tk, Q.data(), dk, K.data(), dk, 1, Tk, dk);
    ew::ew_f32_scores__scalar(ref.data(), Tk, Q.data(), dk, K.data(), dk, 1, Tk, dk);
    const std::vector<float> first(pair.begin(), pair.begin() + Tk);
    const float scale = static_cast<float>(std::sqrt(static_cast<double>(dk)));  // |q|, |k| < 1: sums grow like √dk
    REQUIRE(close_all(alone, first, 1e-6f * scale, 1e-6f, "one query vs two"));
    REQUIRE(close_all(alone, ref, 1e-5f * scale, 1e-5f, "one query vs reference"));
    // each key is read beside the key half its range away (two streams): its score is the same
    // number whichever key that is, or none — any sub-range, any partner, the key alone
    for (const std::pair<int, int>& range : {std::pair{0, 1}, {1, 2}, {500, 501}, {1002, 1003}, {0, 2}, {1, 1003}, {3, 10}, {400, 777}}) {
      const int j0 = range.first, j1 = range.second;
      CAPTURE(j0);
      CAPTURE(j1);
      std::vector<float> part(static_cast<std::size_t>(j1 - j0));
      ew::ew_f32_scores(part.data(), j1 - j0, Q.data(), dk, K.data() + static_cast<std::size_t>(j0) * dk, dk, 1, j1 - j0, dk);
      REQUIRE(std::equal(part.begin(), part.end(), alone.begin() + j0));
    }
    // planted: another summation order (the two-query path's) is seen by that exact comparison
    if (dk >= 64) REQUIRE_FALSE(std::equal(first.begin(), first.end(), alone.begin()));
  }
}

TEST_CASE("softmax pieces: SIMD equals the reference; the max keeps huge logits finite") {
  for (int n : kSizes) {
    for (float scale : {1.0f, 30.0f, 1000.0f}) {  // 1000: exp(x) alone overflows at x > 88.7
      CAPTURE(n);
      CAPTURE(scale);
      const auto x = rnd(n, "x" + std::to_string(n), scale);
      std::vector<float> yr(n), yg(n);
      const float mr = ew::ew_f32_rmax__scalar(x.data(), n), mg = ew::ew_f32_rmax(x.data(), n);
      REQUIRE(mr == mg);
      const float sr = ew::ew_f32_raddexpminusmax__scalar(yr.data(), x.data(), n, mr);
      const float sg = ew::ew_f32_raddexpminusmax(yg.data(), x.data(), n, mg);
      REQUIRE(std::isfinite(sg));
      REQUIRE(sg >= 1.0f);  // the max's own term is e^0
      CHECK(std::fabs(sg - sr) <= 1e-5f * sr);
      REQUIRE(close_all(yg, yr, 1e-5f, 1e-5f, "exp(x - max)"));
      ew::ew_f32_vscale(yg.data(), yg.data(), n, 1.0f / sg);
      double sum = 0;
      for (float v : yg) {
        REQUIRE(std::isfinite(v));
        sum += v;
      }
      CHECK(std::fabs(sum - 1.0) < 1e-5);
    }
  }
}

TEST_CASE("softmax row: scale, -inf mask, fully masked rows, extreme logits") {
  for (int n : kSizes) {
    CAPTURE(n);
    auto s = rnd(n, "s" + std::to_string(n), 50.0f);
    s[0] = 1e30f;  // would overflow exp without the max
    std::vector<float> mask(n, 0.0f);
    for (int j = 0; j < n; ++j)
      if (j % 3 == 2) mask[j] = -kInf;
    std::vector<float> sr(n), wr(n), sg(n), wg(n);
    float mr, sumr, mg, sumg;
    ew::ew_f32_softmax_row__scalar(sr.data(), wr.data(), &mr, &sumr, s.data(), mask.data(), n, 0.125f);
    ew::ew_f32_softmax_row(sg.data(), wg.data(), &mg, &sumg, s.data(), mask.data(), n, 0.125f);
    REQUIRE(mr == mg);
    for (int j = 0; j < n; ++j) {
      REQUIRE(sr[j] == sg[j]);  // scaled = s·scale + mask, the same in both (no FMA: exact)
      REQUIRE(std::isfinite(wg[j]));
      if (j % 3 == 2) REQUIRE(wg[j] == 0.0f);
    }
    REQUIRE(close_all(wg, wr, 1e-6f, 1e-5f, "weights"));

    std::vector<float> all_masked(n, -kInf);
    ew::ew_f32_softmax_row(sg.data(), wg.data(), &mg, &sumg, s.data(), all_masked.data(), n, 1.0f);
    CHECK(sumg == 0.0f);
    CHECK(mg == -kInf);
    for (float v : wg) REQUIRE(v == 0.0f);
    ew::ew_f32_softmax_row__scalar(sr.data(), wr.data(), &mr, &sumr, s.data(), all_masked.data(), n, 1.0f);
    CHECK(sumr == 0.0f);
    for (float v : wr) REQUIRE(v == 0.0f);
  }
}

// Every 251st float32 bit pattern (17 million: every exponent, both signs, ±0, ±inf, NaNs) and
// the edges of ew_tanhf's and its expm1's branches, in an order that puts each in every lane.
std::vector<float> float_sweep() {
  std::vector<float> v;
  for (std::uint64_t b = 0; b < (std::uint64_t{1} << 32); b += 251) {
    const auto bits = static_cast<std::uint32_t>(b);
    float f;
    std::memcpy(&f, &bits, sizeof f);
    v.push_back(f);
  }
  for (std::uint32_t edge : {0x41200000u, 0x3f0c9f54u, 0x3e82c578u, 0x00800000u, 0x3eb17218u, 0x3f851592u, 0x33000000u,
                             0x3f000000u, 0x7f800000u, 0x7fc00000u, 0x007fffffu, 0u})
    for (std::uint32_t d = 0; d < 9; ++d)
      for (std::uint32_t sign : {0u, 0x80000000u}) {
        const std::uint32_t bits = ((edge + d - 4) & 0x7fffffffu) | sign;
        float f;
        std::memcpy(&f, &bits, sizeof f);
        v.push_back(f);
      }
  return v;
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b)); }

// GELU with tanh (GPT-2's, Gemma's) and tanh itself run in SIMD lanes (simd.h, vtanh): each lane
// the scalar ew_tanhf's operations in its order, so the same numbers — checked bit for bit over
// the sweep, for every activation, at lengths that leave a scalar tail.
TEST_CASE("activations: SIMD lanes equal ew_activation bit for bit; ew_tanhf is musl's tanhf and within 2 ulp of tanh") {
  const std::vector<float> x = float_sweep();
  std::vector<float> got(x.size()), ref(x.size());
  for (ew::Activation act : {ew::Activation::GELUTanh, ew::Activation::Tanh, ew::Activation::GELU, ew::Activation::ReLU,
                             ew::Activation::SiLU, ew::Activation::None}) {
    CAPTURE(static_cast<int>(act));
    for (int n : {static_cast<int>(x.size()), static_cast<int>(x.size()) - 3, 5, 1}) {
      ew::ew_f32_activate(got.data(), x.data(), n, act);
      ew::ew_f32_activate__scalar(ref.data(), x.data(), n, act);
      std::size_t bad = 0, first = 0;
      for (int i = 0; i < n; ++i)
        if (!same_bits(got[i], ref[i]) && bad++ == 0) first = static_cast<std::size_t>(i);
      CAPTURE(n);
      CAPTURE(x[first]);
      REQUIRE(bad == 0);
    }
  }
  // in place
  std::vector<float> y = x;
  ew::ew_f32_activate(y.data(), y.data(), static_cast<int>(y.size()), ew::Activation::GELUTanh);
  ew::ew_f32_activate__scalar(ref.data(), x.data(), static_cast<int>(x.size()), ew::Activation::GELUTanh);
  REQUIRE(std::equal(y.begin(), y.end(), ref.begin(), same_bits));
  // planted: GELU's cube grouped another way, x·x·x·0.044715 — a rounding apart somewhere, and seen
  std::size_t moved = 0;
  for (float v : x)
    if (std::isfinite(v) && std::fabs(v) < 10.0f) {
      const float other = 0.5f * v * (1.0f + ew::ew_tanhf(0.79788456080286536f * (v + v * v * v * 0.044715f)));
      moved += !same_bits(other, ew::ew_activation(v, ew::Activation::GELUTanh));
    }
  REQUIRE(moved > 0);
  // ew_tanhf against tanh in double: within 2 ulp of the float nearest to it; exact at ±0, ±inf
  std::size_t far = 0;
  for (float v : x) {
    const float t = ew::ew_tanhf(v);
    if (std::isnan(v)) {
      far += !std::isnan(t);
      continue;
    }
    const float want = static_cast<float>(std::tanh(static_cast<double>(v)));
    const float ulp = std::nextafter(std::fabs(want), 2.0f) - std::fabs(want);
    far += !(std::fabs(t - want) <= 2.0f * ulp);
  }
  REQUIRE(far == 0);
  REQUIRE(same_bits(ew::ew_tanhf(-0.0f), -0.0f));
  REQUIRE(ew::ew_tanhf(-std::numeric_limits<float>::infinity()) == -1.0f);
#if defined(__EMSCRIPTEN__)
  // outside truth: Emscripten's libc is musl, so std::tanh(float) is musl's tanhf itself
  std::size_t differ = 0;
  for (float v : x) differ += !same_bits(ew::ew_tanhf(v), std::tanh(v));
  REQUIRE(differ == 0);
#endif
}

TEST_CASE("exp of the SIMD softmax matches std::exp over its whole range") {
  // x - max from 0 down past the underflow threshold, in 4097 steps.
  const int n = 4097;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = -104.0f * static_cast<float>(i) / (n - 1);
  ew::ew_f32_raddexpminusmax(y.data(), x.data(), n, 0.0f);
  for (int i = 0; i < n; ++i) {
    const float want = std::exp(x[i]);
    if (x[i] > -87.3f) {
      INFO("x = " << x[i] << " got " << y[i] << " want " << want);
      REQUIRE(std::fabs(y[i] - want) <= 2e-7f * want);
    } else {
      REQUIRE(y[i] <= 1.7e-38f);  // e^-87.3 ≈ 1.2e-38 and below: 0 or tiny, never NaN
      REQUIRE(y[i] >= 0.0f);
    }
  }
}

TEST_CASE("LayerNorm: one-pass SIMD equals the two-pass double reference") {
  for (int C : kSizes) {
    for (float offset : {0.0f, 100.0f, -3000.0f}) {  // |mean| ≫ std stresses the one-pass variance
      CAPTURE(C);
      CAPTURE(offset);
      const int T = 5;
      auto x = rnd(static_cast<std::size_t>(T) * C, "ln" + std::to_string(C));
      for (float& v : x) v += offset;
      const auto gamma = rnd(C, "gamma"), beta = rnd(C, "beta");
      std::vector<float> yr(x.size()), yg(x.size()), mr(T), mg(T), vr(T), vg(T);
      ew::ew_f32_layernorm__scalar(yr.data(), mr.data(), vr.data(), x.data(), gamma.data(), beta.data(), T, C, 1e-5f);
      ew::ew_f32_layernorm(yg.data(), mg.data(), vg.data(), x.data(), gamma.data(), beta.data(), T, C, 1e-5f);
      REQUIRE(close_all(mg, mr, 1e-6f, 1e-6f, "mean"));
      // Variance: float32 one-pass sums against double; relative to the variance itself
      // (≈ 1/3 for uniform data), looser when the data sit far from 0.
      REQUIRE(close_all(vg, vr, offset == 0.0f ? 2e-6f : 2e-4f, 1e-5f, "var"));
      REQUIRE(close_all(yg, yr, offset == 0.0f ? 1e-5f : 5e-4f, 1e-5f, "y"));
    }
  }
}
