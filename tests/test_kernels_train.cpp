// test_kernels_train.cpp — the training kernels. The backward pass's transposed matmuls
// (ew_f32_matmul_nt, ew_f32_matmul_tn), SIMD and scalar reference, against a plain
// double-precision product: sizes below, at, and above the vector width and the register
// tiles (1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65), strided operands (row strides
// larger than the row), and both C = and C += (the gradient accumulation). Tolerance: 1e-5
// relative to the largest |term| sum of each entry (float32 sums in a different order).
// GELU with its derivative (ew_f32_gelu_grad), SIMD against the scalar reference (std::erf)
// over [−12, 12] and extremes, within 4e-7·(1 + |x|) for both outputs.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "kernels/kernels.h"
#include "model/random.h"
#include "check.h"

namespace {

std::vector<float> rnd_train(std::size_t n, const std::string& key) { return ewtest::seeded_floats(11, key, n); }

const int kTrainSizes[] = {1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65};

// C (M×N, ldc) (+)= op(A)·op(B) in double, and Σ|terms| per entry (the error scale).
// a(i, k) and b(k, j) read the operands as the kernel should.
template <class FA, class FB>
void reference(std::vector<double>& C, std::vector<double>& mag, int ldc, int M, int K, int N, FA a, FB b) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0, m = 0;
      for (int k = 0; k < K; ++k) {
        s += static_cast<double>(a(i, k)) * b(k, j);
        m += std::fabs(static_cast<double>(a(i, k)) * b(k, j));
      }
      C[static_cast<std::size_t>(i) * ldc + j] += s;
      mag[static_cast<std::size_t>(i) * ldc + j] += m;
    }
}

// Every entry within 1e-5·(Σ|terms| + |C₀|) + 1e-7 of the double result; untouched padding
// (columns ≥ N of each row) keeps its value.
bool close_to(const std::vector<float>& got, const std::vector<double>& want, const std::vector<double>& mag,
           const char* what, int M, int N, int ldc) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < ldc; ++j) {
      const std::size_t at = static_cast<std::size_t>(i) * ldc + j;
      const double err = std::fabs(got[at] - want[at]);
      if (err > 1e-5 * mag[at] + 1e-7) {
        std::printf("MISMATCH %s M=%d N=%d at (%d,%d): got %.9g want %.9g\n", what, M, N, i, j,
                    static_cast<double>(got[at]), want[at]);
        return false;
      }
    }
  return true;
}

using Kernel = void (*)(float*, int, const float*, int, const float*, int, int, int, int, bool);

// Runs `k` on M×K×N with strided operands, C = and C +=, and compares with the double product.
void check_nt(Kernel k, const char* what, int M, int K, int N, bool accumulate) {
  const int lda = K + 3, ldb = K + 1, ldc = N + 2;
  const auto A = rnd_train(static_cast<std::size_t>(M) * lda, "A");
  const auto B = rnd_train(static_cast<std::size_t>(N) * ldb, "B");
  std::vector<float> C = rnd_train(static_cast<std::size_t>(M) * ldc, "C");
  std::vector<double> want(C.begin(), C.end()), mag(C.size());
  for (std::size_t i = 0; i < C.size(); ++i) mag[i] = std::fabs(want[i]);
  if (!accumulate)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) want[static_cast<std::size_t>(i) * ldc + j] = mag[static_cast<std::size_t>(i) * ldc + j] = 0;
  reference(want, mag, ldc, M, K, N, [&](int i, int kk) { return A[static_cast<std::size_t>(i) * lda + kk]; },
            [&](int kk, int j) { return B[static_cast<std::size_t>(j) * ldb + kk]; });
  k(C.data(), ldc, A.data(), lda, B.data(), ldb, M, K, N, accumulate);
  CHECK(close_to(C, want, mag, what, M, N, ldc));
}

void check_tn(Kernel k, const char* what, int M, int K, int N, bool accumulate) {
  const int lda = M + 3, ldb = N + 1, ldc = N + 2;
  const auto A = rnd_train(static_cast<std::size_t>(K) * lda, "A");
  const auto B = rnd_train(static_cast<std::size_t>(K) * ldb, "B");
  std::vector<float> C = rnd_train(static_cast<std::size_t>(M) * ldc, "C");
  std::vector<double> want(C.begin(), C.end()), mag(C.size());
  for (std::size_t i = 0; i < C.size(); ++i) mag[i] = std::fabs(want[i]);
  if (!accumulate)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) want[static_cast<std::size_t>(i) * ldc + j] = mag[static_cast<std::size_t>(i) * ldc + j] = 0;
  reference(want, mag, ldc, M, K, N, [&](int i, int kk) { return A[static_cast<std::size_t>(kk) * lda + i]; },
            [&](int kk, int j) { return B[static_cast<std::size_t>(kk) * ldb + j]; });
  k(C.data(), ldc, A.data(), lda, B.data(), ldb, M, K, N, accumulate);
  CHECK(close_to(C, want, mag, what, M, N, ldc));
}

}  // namespace

TEST_CASE("matmul_nt (A·Bᵀ): SIMD and scalar reference equal the double product at awkward sizes") {
  for (int M : kTrainSizes)
    for (int K : {1, 3, 4, 8, 9, 17, 32, 65})
      for (int N : {1, 3, 4, 5, 9, 16, 33})
        for (bool acc : {false, true}) {
          check_nt(ew::ew_f32_matmul_nt__scalar, "nt scalar", M, K, N, acc);
          check_nt(ew::ew_f32_matmul_nt, "nt", M, K, N, acc);
        }
}

TEST_CASE("matmul_tn (Aᵀ·B): SIMD and scalar reference equal the double product at awkward sizes") {
  for (int M : kTrainSizes)
    for (int K : {1, 3, 4, 8, 9, 17, 32, 65})
      for (int N : {1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65})
        for (bool acc : {false, true}) {
          check_tn(ew::ew_f32_matmul_tn__scalar, "tn scalar", M, K, N, acc);
          check_tn(ew::ew_f32_matmul_tn, "tn", M, K, N, acc);
        }
}

TEST_CASE("matmul_nt/tn: K = 0 gives zeros, or leaves C as it was when accumulating") {
  std::vector<float> C(6, 5.0f);
  const float a = 1.0f, b = 1.0f;
  ew::ew_f32_matmul_nt(C.data(), 3, &a, 1, &b, 1, 2, 0, 3, true);
  CHECK(C == std::vector<float>(6, 5.0f));
  ew::ew_f32_matmul_tn(C.data(), 3, &a, 1, &b, 3, 2, 0, 3, false);
  CHECK(C == std::vector<float>(6, 0.0f));
}

TEST_CASE("gelu_grad: GELU and its derivative, SIMD equals the std::erf reference") {
  std::vector<float> x;
  for (int i = -1200; i <= 1200; ++i) x.push_back(i * 0.01f + 0.003f);
  for (float v : {0.0f, -0.0f, 1e-30f, -1e-30f, 50.0f, -50.0f, 1e6f, -1e6f}) x.push_back(v);
  for (int n : {1, 3, 4, 5, 7, 8, 9, static_cast<int>(x.size())}) {
    std::vector<float> y(n), d(n), yr(n), dr(n);
    ew::ew_f32_gelu_grad(y.data(), d.data(), x.data() + x.size() - n, n);
    ew::ew_f32_gelu_grad__scalar(yr.data(), dr.data(), x.data() + x.size() - n, n);
    double worst_y = 0, worst_d = 0;
    for (int i = 0; i < n; ++i) {
      const double s = 1.0 + std::fabs(x[x.size() - n + i]);
      worst_y = std::max(worst_y, std::fabs(y[i] - yr[i]) / s);
      worst_d = std::max(worst_d, std::fabs(d[i] - dr[i]) / s);
      CHECK(std::isfinite(y[i]));
      CHECK(std::isfinite(d[i]));
    }
    INFO("n = " << n << ": worst |Δy|/(1+|x|) " << worst_y << ", |Δdy|/(1+|x|) " << worst_d);
    CHECK(worst_y <= 4e-7);
    CHECK(worst_d <= 4e-7);
  }
  // Spot values against the definition in double: GELU(1) = Φ(1), GELU'(1) = Φ(1) + φ(1).
  float y1, d1, one = 1.0f;
  ew::ew_f32_gelu_grad(&y1, &d1, &one, 1);
  CHECK(std::fabs(y1 - 0.8413447460685429) <= 2e-7);
  CHECK(std::fabs(d1 - (0.8413447460685429 + 0.24197072451914337)) <= 2e-7);
}
