// kernels_scalar.cpp — the scalar reference of every kernel in kernels.h: the plainest
// loops that state the arithmetic, compiled in every build. The SIMD kernels
// (kernels_simd.cpp) are tested against these; a build with EW_SCALAR=ON uses them
// for everything (the "our scalar build" of the benchmarks).
#include <cmath>
#include <limits>

#include "kernels/kernels.h"

namespace ew {

float ew_activation(float x, Activation act) {
  switch (act) {
    case Activation::ReLU: return x > 0.0f ? x : 0.0f;
    case Activation::GELU: return 0.5f * x * (1.0f + std::erf(x * 0.70710678118654752f));
    case Activation::GELUTanh:  // √(2/π) = 0.7978845608…
      return 0.5f * x * (1.0f + std::tanh(0.79788456080286536f * (x + 0.044715f * x * x * x)));
    case Activation::Tanh: return std::tanh(x);
    case Activation::SiLU: return x / (1.0f + std::exp(-x));
    case Activation::None: break;
  }
  return x;
}

void ew_f32_matmul__scalar(float* C, int ldc, const float* A, int lda, const float* B, int ldb,
                           const float* bias, int M, int K, int N, Activation act) {
  for (int i = 0; i < M; ++i) {
    float* c = C + static_cast<std::size_t>(i) * ldc;
    for (int j = 0; j < N; ++j) c[j] = bias ? bias[j] : 0.0f;
    const float* a = A + static_cast<std::size_t>(i) * lda;
    for (int k = 0; k < K; ++k) {  // i-k-j order: rows of B stream contiguously
      const float aik = a[k];
      const float* b = B + static_cast<std::size_t>(k) * ldb;
      for (int j = 0; j < N; ++j) c[j] += aik * b[j];
    }
    if (act != Activation::None)
      for (int j = 0; j < N; ++j) c[j] = ew_activation(c[j], act);
  }
}

void ew_f32_scores__scalar(float* S, int lds, const float* Q, int ldq, const float* K, int ldk,
                           int Tq, int Tk, int dk) {
  for (int i = 0; i < Tq; ++i)
    for (int j = 0; j < Tk; ++j) {
      const float* q = Q + static_cast<std::size_t>(i) * ldq;
      const float* k = K + static_cast<std::size_t>(j) * ldk;
      float s = 0.0f;
      for (int c = 0; c < dk; ++c) s += q[c] * k[c];
      S[static_cast<std::size_t>(i) * lds + j] = s;
    }
}

float ew_f32_rmax__scalar(const float* x, int n) {
  float m = -std::numeric_limits<float>::infinity();
  for (int i = 0; i < n; ++i) m = x[i] > m ? x[i] : m;
  return m;
}

float ew_f32_raddexpminusmax__scalar(float* y, const float* x, int n, float max) {
  float sum = 0.0f;
  if (std::isinf(max) && max < 0) {  // every entry is -inf: nothing to exponentiate
    for (int i = 0; i < n; ++i) y[i] = 0.0f;
    return 0.0f;
  }
  for (int i = 0; i < n; ++i) {
    y[i] = std::exp(x[i] - max);
    sum += y[i];
  }
  return sum;
}

void ew_f32_vscale__scalar(float* y, const float* x, int n, float s) {
  for (int i = 0; i < n; ++i) y[i] = x[i] * s;
}

void ew_f32_softmax_row__scalar(float* scaled, float* weights, float* row_max, float* row_sum,
                                const float* s, const float* mask, int n, float scale) {
  for (int j = 0; j < n; ++j) scaled[j] = s[j] * scale + (mask ? mask[j] : 0.0f);
  const float m = ew_f32_rmax__scalar(scaled, n);
  const float sum = ew_f32_raddexpminusmax__scalar(weights, scaled, n, m);
  if (sum > 0.0f) ew_f32_vscale__scalar(weights, weights, n, 1.0f / sum);
  *row_max = m;
  *row_sum = sum;
}

void ew_f32_layernorm__scalar(float* y, float* mean, float* var, const float* x,
                              const float* gamma, const float* beta, int T, int C, float eps) {
  // Two passes in double: the textbook definition, the yardstick for the one-pass kernel.
  for (int t = 0; t < T; ++t) {
    const float* xt = x + static_cast<std::size_t>(t) * C;
    float* yt = y + static_cast<std::size_t>(t) * C;
    double mu = 0.0;
    for (int c = 0; c < C; ++c) mu += xt[c];
    mu /= C;
    double v = 0.0;
    for (int c = 0; c < C; ++c) v += (xt[c] - mu) * (xt[c] - mu);
    v /= C;
    const double inv = 1.0 / std::sqrt(v + static_cast<double>(eps));
    for (int c = 0; c < C; ++c)
      yt[c] = static_cast<float>((xt[c] - mu) * inv) * gamma[c] + beta[c];
    mean[t] = static_cast<float>(mu);
    var[t] = static_cast<float>(v);
  }
}

void ew_f32_matmul_nt__scalar(float* C, int ldc, const float* A, int lda, const float* B, int ldb, int M, int K,
                              int N, bool accumulate) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      const float* a = A + static_cast<std::size_t>(i) * lda;
      const float* b = B + static_cast<std::size_t>(j) * ldb;
      float s = 0.0f;
      for (int k = 0; k < K; ++k) s += a[k] * b[k];
      float& c = C[static_cast<std::size_t>(i) * ldc + j];
      c = accumulate ? c + s : s;
    }
}

void ew_f32_matmul_tn__scalar(float* C, int ldc, const float* A, int lda, const float* B, int ldb, int M, int K,
                              int N, bool accumulate) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0.0f;
      for (int k = 0; k < K; ++k) s += A[static_cast<std::size_t>(k) * lda + i] * B[static_cast<std::size_t>(k) * ldb + j];
      float& c = C[static_cast<std::size_t>(i) * ldc + j];
      c = accumulate ? c + s : s;
    }
}

void ew_f32_gelu_grad__scalar(float* y, float* dydx, const float* x, int n) {
  for (int i = 0; i < n; ++i) {
    const float v = x[i];
    const float cdf = 0.5f * (1.0f + std::erf(v * 0.70710678118654752f));
    y[i] = v * cdf;
    dydx[i] = cdf + v * 0.39894228040143268f * std::exp(-0.5f * v * v);
  }
}

void ew_h16_widen__scalar(float* out, const std::uint16_t* in, std::size_t n, Half t) {
  for (std::size_t i = 0; i < n; ++i) out[i] = ew_half_to_f32(in[i], t);
}

// The same loops as the float32 references, each B value widened where it is read.
void ew_h16_matmul__scalar(float* C, int ldc, const float* A, int lda, const std::uint16_t* B, int ldb, Half t,
                           const float* bias, int M, int K, int N, Activation act) {
  for (int i = 0; i < M; ++i) {
    float* c = C + static_cast<std::size_t>(i) * ldc;
    for (int j = 0; j < N; ++j) c[j] = bias ? bias[j] : 0.0f;
    const float* a = A + static_cast<std::size_t>(i) * lda;
    for (int k = 0; k < K; ++k) {
      const float aik = a[k];
      const std::uint16_t* b = B + static_cast<std::size_t>(k) * ldb;
      for (int j = 0; j < N; ++j) c[j] += aik * ew_half_to_f32(b[j], t);
    }
    if (act != Activation::None)
      for (int j = 0; j < N; ++j) c[j] = ew_activation(c[j], act);
  }
}

void ew_f32_gemv__scalar(float* y, const float* x, const float* B, int ldb, const float* bias, int K, int N) {
  for (int j = 0; j < N; ++j) y[j] = bias ? bias[j] : 0.0f;
  for (int k = 0; k < K; ++k) {
    const float xk = x[k];
    const float* b = B + static_cast<std::size_t>(k) * ldb;
    for (int j = 0; j < N; ++j) y[j] += xk * b[j];
  }
}

void ew_h16_gemv__scalar(float* y, const float* x, const std::uint16_t* B, int ldb, Half t, const float* bias, int K,
                         int N) {
  for (int j = 0; j < N; ++j) y[j] = bias ? bias[j] : 0.0f;
  for (int k = 0; k < K; ++k) {
    const float xk = x[k];
    const std::uint16_t* b = B + static_cast<std::size_t>(k) * ldb;
    for (int j = 0; j < N; ++j) y[j] += xk * ew_half_to_f32(b[j], t);
  }
}

void ew_h16_matmul_nt__scalar(float* C, int ldc, const float* A, int lda, const std::uint16_t* B, int ldb, Half t,
                              int M, int K, int N, bool accumulate) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      const float* a = A + static_cast<std::size_t>(i) * lda;
      const std::uint16_t* b = B + static_cast<std::size_t>(j) * ldb;
      float s = 0.0f;
      for (int k = 0; k < K; ++k) s += a[k] * ew_half_to_f32(b[k], t);
      float& c = C[static_cast<std::size_t>(i) * ldc + j];
      c = accumulate ? c + s : s;
    }
}

void ew_h16_scores__scalar(float* S, int lds, const float* Q, int ldq, const std::uint16_t* K, int ldk, Half t,
                           int Tq, int Tk, int dk) {
  for (int i = 0; i < Tq; ++i)
    for (int j = 0; j < Tk; ++j) {
      const float* q = Q + static_cast<std::size_t>(i) * ldq;
      const std::uint16_t* k = K + static_cast<std::size_t>(j) * ldk;
      float s = 0.0f;
      for (int c = 0; c < dk; ++c) s += q[c] * ew_half_to_f32(k[c], t);
      S[static_cast<std::size_t>(i) * lds + j] = s;
    }
}

}  // namespace ew
