// test_kernels_h16.cpp — the 16-bit-B kernels (kernels.h: ew_h16_*), which read F16/BF16 weights
// where they lie and widen them as they stage them. Checked exactly (bit for bit), never with a
// tolerance: widening is exact and each kernel stages into the blocks its float32 twin reads, so
//   SIMD h16 kernel  == float32 SIMD kernel on the widened B,
//   scalar h16 reference == float32 scalar reference on the widened B (the matmul; the dot-product
//   references within 1e-5, as the compiler may contract their a·b + s into a fused multiply-add
//   in one and not the other),
//   SIMD h16 kernel ≈ scalar h16 reference within 1e-5 of the largest magnitude,
// at odd shapes around the vector width, the register tile and the K block, M = 1 (one decoded
// token) and M > 1, both dtypes, with a row stride. The widening itself against io/safetensors'
// conversions over all 65,536 bit patterns, and a planted one-ulp change that must be seen.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "check.h"
#include "io/safetensors.h"
#include "kernels/kernels.h"

namespace {

// n 16-bit values of dtype t whose widened values are finite numbers of magnitude ≤ scale.
std::vector<std::uint16_t> h16_rnd(std::size_t n, const std::string& key, ew::Half t, float scale = 1.0f) {
  const std::vector<float> f = ewtest::seeded_floats(11, key, n, scale);
  std::vector<std::uint16_t> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = t == ew::Half::BF16 ? ew::float_to_bf16(f[i]) : ew::float_to_half(f[i]);
  return h;
}
std::vector<float> h16_widened(const std::vector<std::uint16_t>& h, ew::Half t) {
  std::vector<float> f(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) f[i] = ew::ew_half_to_f32(h[i], t);
  return f;
}
bool h16_same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}
const char* h16_name(ew::Half t) { return t == ew::Half::BF16 ? "bf16" : "f16"; }
// The SIMD kernels against the scalar references: the same products summed in another order
// (and, natively, fused or not as the compiler contracts them), so within 1e-5 of the largest
// magnitude, as tests/test_kernels.cpp holds the float32 kernels to their references.
bool h16_close(const std::vector<float>& got, const std::vector<float>& want) {
  float scale = 0;
  for (float w : want) scale = std::max(scale, std::fabs(w));
  for (std::size_t i = 0; i < want.size(); ++i)
    if (!(std::fabs(got[i] - want[i]) <= 1e-5f * std::max(scale, 1.0f))) return false;
  return true;
}

}  // namespace

TEST_CASE("16-bit widening is exact: every bit pattern, the scalar, SIMD and io conversions agree") {
  std::vector<std::uint16_t> all(65536);
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::uint16_t>(i);
  for (const ew::Half t : {ew::Half::F16, ew::Half::BF16}) {
    CAPTURE(h16_name(t));
    std::vector<float> simd(all.size() + 3), scalar(all.size() + 3), io(all.size() + 3);
    // from an odd offset and with a ragged tail: the vector loop and its scalar tail both run
    ew::ew_h16_widen(simd.data(), all.data() + 1, all.size() - 1, t);
    ew::ew_h16_widen__scalar(scalar.data(), all.data() + 1, all.size() - 1, t);
    for (std::size_t i = 1; i < all.size(); ++i)
      io[i - 1] = t == ew::Half::BF16 ? ew::bf16_to_float(all[i]) : ew::half_to_float(all[i]);
    CHECK(h16_same_bits(simd, scalar));
    CHECK(h16_same_bits(scalar, io));  // NaNs compared by their bits, payloads included
  }
  CHECK(ew::ew_half_to_f32(0x0001, ew::Half::F16) == 5.9604644775390625e-8f);  // the smallest subnormal
  CHECK(ew::ew_half_to_f32(0xFBFF, ew::Half::F16) == -65504.0f);
  CHECK(ew::ew_half_to_f32(0x3F80, ew::Half::BF16) == 1.0f);
}

TEST_CASE("ew_h16_matmul equals ew_f32_matmul on the widened B, bit for bit (odd shapes, M = 1 and M > 1, a row stride)") {
  const int Ms[] = {1, 2, 3, 5, 17};
  const int Ks[] = {1, 7, 64, 65, 600};
  const int Ns[] = {1, 5, 16, 33, 130};
  for (const ew::Half t : {ew::Half::F16, ew::Half::BF16})
    for (const int M : Ms)
      for (const int K : Ks)
        for (const int N : Ns) {
          CAPTURE(h16_name(t));
          CAPTURE(M);
          CAPTURE(K);
          CAPTURE(N);
          const int lda = K + 3, ldb = N + 5, ldc = N + 2;  // strides wider than the rows
          const std::vector<float> A = ewtest::seeded_floats(3, "A", static_cast<std::size_t>(M) * lda, 1.0f);
          const std::vector<std::uint16_t> B = h16_rnd(static_cast<std::size_t>(K) * ldb, "B", t);
          const std::vector<float> Bw = h16_widened(B, t);
          const std::vector<float> bias = ewtest::seeded_floats(3, "bias", static_cast<std::size_t>(N), 1.0f);
          const std::size_t nc = static_cast<std::size_t>(M) * ldc;
          for (const ew::Activation act : {ew::Activation::None, ew::Activation::GELU}) {
            std::vector<float> h(nc, 7.0f), f(nc, 7.0f), hs(nc, 7.0f), fs(nc, 7.0f);
            ew::ew_h16_matmul(h.data(), ldc, A.data(), lda, B.data(), ldb, t, bias.data(), M, K, N, act);
            ew::ew_f32_matmul(f.data(), ldc, A.data(), lda, Bw.data(), ldb, bias.data(), M, K, N, act);
            ew::ew_h16_matmul__scalar(hs.data(), ldc, A.data(), lda, B.data(), ldb, t, bias.data(), M, K, N, act);
            ew::ew_f32_matmul__scalar(fs.data(), ldc, A.data(), lda, Bw.data(), ldb, bias.data(), M, K, N, act);
            CHECK(h16_same_bits(h, f));    // padding columns (7.0) untouched in both
            CHECK(h16_same_bits(hs, fs));
            CHECK(h16_close(h, hs));
          }
        }
}

TEST_CASE("ew_h16_matmul_nt (dX = dY·Wᵀ) and ew_h16_scores (logits against a 16-bit table) equal their float32 twins, bit for bit") {
  const int Ms[] = {1, 2, 3, 9};
  const int Ks[] = {1, 5, 8, 33, 129};
  const int Ns[] = {1, 3, 4, 7, 130, 1031};  // 1031 rows: more than one widened block of rows, ragged
  for (const ew::Half t : {ew::Half::F16, ew::Half::BF16})
    for (const int M : Ms)
      for (const int K : Ks)
        for (const int N : Ns) {
          CAPTURE(h16_name(t));
          CAPTURE(M);
          CAPTURE(K);
          CAPTURE(N);
          const int lda = K + 1, ldb = K + 3, ldc = N + 2;
          const std::vector<float> A = ewtest::seeded_floats(5, "A", static_cast<std::size_t>(M) * lda, 1.0f);
          const std::vector<std::uint16_t> B = h16_rnd(static_cast<std::size_t>(N) * ldb, "Bt", t);
          const std::vector<float> Bw = h16_widened(B, t);
          const std::size_t nc = static_cast<std::size_t>(M) * ldc;
          for (const bool acc : {false, true}) {
            std::vector<float> h(nc, 0.5f), f(nc, 0.5f), hs(nc, 0.5f), fs(nc, 0.5f);
            ew::ew_h16_matmul_nt(h.data(), ldc, A.data(), lda, B.data(), ldb, t, M, K, N, acc);
            ew::ew_f32_matmul_nt(f.data(), ldc, A.data(), lda, Bw.data(), ldb, M, K, N, acc);
            ew::ew_h16_matmul_nt__scalar(hs.data(), ldc, A.data(), lda, B.data(), ldb, t, M, K, N, acc);
            ew::ew_f32_matmul_nt__scalar(fs.data(), ldc, A.data(), lda, Bw.data(), ldb, M, K, N, acc);
            CHECK(h16_same_bits(h, f));
            CHECK(h16_close(hs, fs));
            CHECK(h16_close(h, hs));
          }
          std::vector<float> h(nc, 0.5f), f(nc, 0.5f), hs(nc, 0.5f), fs(nc, 0.5f);
          ew::ew_h16_scores(h.data(), ldc, A.data(), lda, B.data(), ldb, t, M, N, K);
          ew::ew_f32_scores(f.data(), ldc, A.data(), lda, Bw.data(), ldb, M, N, K);
          ew::ew_h16_scores__scalar(hs.data(), ldc, A.data(), lda, B.data(), ldb, t, M, N, K);
          ew::ew_f32_scores__scalar(fs.data(), ldc, A.data(), lda, Bw.data(), ldb, M, N, K);
          CHECK(h16_same_bits(h, f));
          CHECK(h16_close(hs, fs));
          CHECK(h16_close(h, hs));
        }
}

TEST_CASE("planted: one 16-bit weight one ulp off changes the product (the exact comparisons can fail)") {
  for (const ew::Half t : {ew::Half::F16, ew::Half::BF16}) {
    CAPTURE(h16_name(t));
    const int M = 1, K = 65, N = 33;
    const std::vector<float> A = ewtest::seeded_floats(3, "A", static_cast<std::size_t>(M) * K, 1.0f);
    std::vector<std::uint16_t> B = h16_rnd(static_cast<std::size_t>(K) * N, "B", t);
    const std::vector<float> Bw = h16_widened(B, t);
    B[static_cast<std::size_t>(40) * N + 20] ^= 1;  // the widened copy keeps the original
    std::vector<float> h(static_cast<std::size_t>(M) * N), f(h.size());
    ew::ew_h16_matmul(h.data(), N, A.data(), K, B.data(), N, t, nullptr, M, K, N, ew::Activation::None);
    ew::ew_f32_matmul(f.data(), N, A.data(), K, Bw.data(), N, nullptr, M, K, N, ew::Activation::None);
    CHECK_FALSE(h16_same_bits(h, f));
    CHECK(h[20] != f[20]);
  }
}

// The one-row products of a decoded token (ew_*_gemv): B read row after row where it lies.
TEST_CASE("one-row products (gemv): the 16-bit kernel equals the float32 one on the widened B bit for bit; both within 1e-5 of the scalar references and of the matmul at M = 1") {
  const int shapes[][2] = {{1, 1}, {3, 5}, {7, 15}, {16, 16}, {33, 17}, {64, 100}, {130, 67}, {300, 513}};
  for (const ew::Half t : {ew::Half::F16, ew::Half::BF16})
    for (const auto& s : shapes)
      for (const bool with_bias : {false, true}) {
        const int K = s[0], N = s[1], ldb = N + 3;
        CAPTURE(h16_name(t));
        CAPTURE(K);
        CAPTURE(N);
        CAPTURE(with_bias);
        const std::string key = std::to_string(K) + "x" + std::to_string(N);
        const std::vector<std::uint16_t> Bh = h16_rnd(static_cast<std::size_t>(K) * ldb, "gemv-B" + key, t);
        const std::vector<float> B = h16_widened(Bh, t);
        const std::vector<float> x = ewtest::seeded_floats(12, "gemv-x" + key, K, 1.0f);
        const std::vector<float> bias = ewtest::seeded_floats(13, "gemv-b" + key, N, 0.5f);
        const float* b = with_bias ? bias.data() : nullptr;
        std::vector<float> f32(N), h16(N), ref(N), href(N), mm(N);
        ew::ew_f32_gemv(f32.data(), x.data(), B.data(), ldb, b, K, N);
        ew::ew_h16_gemv(h16.data(), x.data(), Bh.data(), ldb, t, b, K, N);
        ew::ew_f32_gemv__scalar(ref.data(), x.data(), B.data(), ldb, b, K, N);
        ew::ew_h16_gemv__scalar(href.data(), x.data(), Bh.data(), ldb, t, b, K, N);
        ew::ew_f32_matmul(mm.data(), N, x.data(), K, B.data(), ldb, b, 1, K, N, ew::Activation::None);
        CHECK(h16_same_bits(h16, f32));
        CHECK(h16_close(f32, ref));
        CHECK(h16_close(href, ref));
        CHECK(h16_close(f32, mm));
        // a planted change of one weight by one ulp must be seen by the exact comparison
        std::vector<std::uint16_t> planted = Bh;
        planted[static_cast<std::size_t>(K - 1) * ldb + (N - 1)] ^= 1;
        std::vector<float> moved(N);
        ew::ew_h16_gemv(moved.data(), x.data(), planted.data(), ldb, t, b, K, N);
        if (x[static_cast<std::size_t>(K - 1)] != 0.0f) CHECK_FALSE(h16_same_bits(moved, f32));
      }
}

// An F16/BF16 checkpoint's matmul weights live 16-bit in the kernels' panels (kernels.h,
// ew_h16_pack_b_rows): built by rows or by columns, read back exactly, and multiplied as the
// float32 panels of the widened weight are — the one-row product as ew_h16_gemv, bit for bit.
TEST_CASE("16-bit panels: built by rows or columns alike, read back exactly; their products equal the float32 panels' of the widened weight bit for bit") {
  const int shapes[][2] = {{1, 1}, {3, 5}, {7, 15}, {16, 16}, {33, 17}, {64, 100}, {130, 67}, {300, 513}};
  for (const ew::Half t : {ew::Half::F16, ew::Half::BF16})
    for (const auto& s : shapes) {
      const int K = s[0], N = s[1];
      CAPTURE(h16_name(t));
      CAPTURE(K);
      CAPTURE(N);
      const std::string key = std::to_string(K) + "x" + std::to_string(N);
      const std::vector<std::uint16_t> Bh = h16_rnd(static_cast<std::size_t>(K) * N, "panels-B" + key, t);
      const std::vector<float> B = h16_widened(Bh, t);
      std::vector<std::uint16_t> Bt(Bh.size());
      for (int k = 0; k < K; ++k)
        for (int j = 0; j < N; ++j) Bt[static_cast<std::size_t>(j) * K + k] = Bh[static_cast<std::size_t>(k) * N + j];
      const std::size_t n = ew::ew_f32_packed_floats(K, N);
      std::vector<std::uint16_t> by_rows(n, 0), by_cols(n, 0);
      for (int k0 = 0; k0 < K; k0 += 32) ew::ew_h16_pack_b_rows(by_rows.data(), K, N, Bh.data() + static_cast<std::size_t>(k0) * N, N, k0, std::min(32, K - k0));
      for (int j0 = 0; j0 < N; j0 += 32) ew::ew_h16_pack_bt_rows(by_cols.data(), K, N, Bt.data() + static_cast<std::size_t>(j0) * K, K, j0, std::min(32, N - j0));
      REQUIRE(by_rows == by_cols);
      std::vector<float> back(B.size());
      ew::ew_h16_unpack_b(by_rows.data(), K, N, t, 0, back.size(), back.data());
      REQUIRE(h16_same_bits(back, B));
      ew::PackedB wide;
      ew::ew_f32_pack_b(&wide, B.data(), K, N);
      const std::vector<float> x = ewtest::seeded_floats(12, "panels-x" + key, static_cast<std::size_t>(5) * K, 1.0f);
      const std::vector<float> bias = ewtest::seeded_floats(13, "panels-b" + key, N, 0.5f);
      std::vector<float> g16(N), grow(N), m16(static_cast<std::size_t>(5) * N), m32(m16.size()), a16(m16.size()), a32(m16.size());
      ew::ew_h16_gemv_packed(g16.data(), x.data(), by_rows.data(), K, N, t, bias.data());
      ew::ew_h16_gemv(grow.data(), x.data(), Bh.data(), N, t, bias.data(), K, N);
      if (N % 16 == 0) CHECK(h16_same_bits(g16, grow));  // else: that kernel's scalar tail columns are lanes here
      CHECK(h16_close(g16, grow));
      ew::ew_h16_matmul_packed(m16.data(), N, x.data(), K, by_rows.data(), K, N, t, bias.data(), 5, ew::Activation::GELU, a16.data());
      ew::ew_f32_matmul_packed(m32.data(), N, x.data(), K, wide, bias.data(), 5, ew::Activation::GELU, a32.data());
      CHECK(h16_same_bits(m16, m32));
      CHECK(h16_same_bits(a16, a32));
    }
}

// The products read F16 weights with a widening that skips ±inf and NaN (simd.h vload_f16_finite:
// the loader refuses them, io/checkpoint.cpp). Each of the 63,488 finite bit patterns is here one
// product's only nonzero term, times 1: the kernel must give back its exact value. A widening
// that dropped the sign, a subnormal or the exponent's top bit would fail.
TEST_CASE("F16 weights in the products: every finite bit pattern read exactly (one-row product, its panels, a 16-bit table's scores, the matmul)") {
  std::vector<std::uint16_t> fin;
  for (std::uint32_t i = 0; i < 65536; ++i)
    if ((i & 0x7C00u) != 0x7C00u) fin.push_back(static_cast<std::uint16_t>(i));
  REQUIRE(fin.size() == 63488);
  const int N = static_cast<int>(fin.size());
  const std::vector<float> want = h16_widened(fin, ew::Half::F16);
  // -0 + 0 = +0 in a sum: compared as values, so ±0 are equal (every other value to its bits).
  auto exact = [&](const std::vector<float>& got) {
    for (int j = 0; j < N; ++j)
      if (!(got[static_cast<std::size_t>(j)] == want[static_cast<std::size_t>(j)])) return false;
    return true;
  };
  const int K = 3;  // x = (0, 1, 0): row 1 holds the patterns, rows 0 and 2 zeros
  const float x[K] = {0.0f, 1.0f, 0.0f};
  std::vector<std::uint16_t> B(static_cast<std::size_t>(K) * N, 0);
  std::copy(fin.begin(), fin.end(), B.begin() + N);
  std::vector<float> y(N);
  ew::ew_h16_gemv(y.data(), x, B.data(), N, ew::Half::F16, nullptr, K, N);
  CHECK(exact(y));
  std::vector<std::uint16_t> P(ew::ew_f32_packed_floats(K, N), 0);
  ew::ew_h16_pack_b_rows(P.data(), K, N, B.data(), N, 0, K);
  std::fill(y.begin(), y.end(), -1.0f);
  ew::ew_h16_gemv_packed(y.data(), x, P.data(), K, N, ew::Half::F16, nullptr);
  CHECK(exact(y));
  std::vector<float> m(static_cast<std::size_t>(2) * N), act(m.size());
  const float x2[2 * K] = {0.0f, 1.0f, 0.0f, 0.0f, 1.0f, 0.0f};
  ew::ew_h16_matmul_packed(m.data(), N, x2, K, P.data(), K, N, ew::Half::F16, nullptr, 2, ew::Activation::None, nullptr);
  CHECK(exact(std::vector<float>(m.begin() + N, m.end())));
  // A table's scores, one query (a decoded token's head): key j = (0, pattern j, 0, …, 0), q = e₁.
  const int dk = 9;  // a vector width or two and a tail
  std::vector<std::uint16_t> T(static_cast<std::size_t>(N) * dk, 0);
  for (int j = 0; j < N; ++j) T[static_cast<std::size_t>(j) * dk + 1] = fin[static_cast<std::size_t>(j)];
  std::vector<float> q(dk, 0.0f);
  q[1] = 1.0f;
  std::fill(y.begin(), y.end(), -1.0f);
  ew::ew_h16_scores(y.data(), N, q.data(), dk, T.data(), dk, ew::Half::F16, 1, N, dk);
  CHECK(exact(y));
}
