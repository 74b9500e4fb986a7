// kernels_scalar.cpp — the scalar reference of every kernel in kernels.h: the plainest
// loops that state the arithmetic, compiled in every build. The SIMD kernels
// (kernels_simd.cpp) are tested against these; a build with EW_SCALAR=ON uses them
// for everything (the "our scalar build" of the benchmarks).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "kernels/kernels.h"
#include "kernels/simd.h"  // EW_UNFUSED

namespace ew {

namespace {
float from_bits(std::uint32_t i) {
  float f;
  std::memcpy(&f, &i, sizeof f);
  return f;
}
std::uint32_t to_bits(float f) {
  std::uint32_t i;
  std::memcpy(&i, &f, sizeof i);
  return i;
}

// e^x − 1 by the algorithm of FreeBSD's and musl's expm1f (Sun's s_expm1f.c): x = k·ln2 + r,
// |r| ≤ ln2/2, a rational approximation of e^r − 1 with a correction c for the rounding of r,
// then 2^k. Written from its published description for ew_tanhf; the same float operations in
// the same order.
EW_UNFUSED float expm1_f(float x) {
  EW_UNFUSED_BODY
  constexpr float kLn2Hi = 6.9313812256e-01f, kLn2Lo = 9.0580006145e-06f, kInvLn2 = 1.4426950216e+00f;
  constexpr float kQ1 = -3.3333212137e-2f, kQ2 = 1.5807170421e-3f;
  const std::uint32_t hx = to_bits(x) & 0x7fffffffu;
  const bool neg = to_bits(x) >> 31;
  if (hx >= 0x4195b844u) {  // |x| ≥ 27·ln2: e^x − 1 is −1, or overflows, or x is NaN
    if (hx > 0x7f800000u) return x;
    if (neg) return -1.0f;
    if (x > 8.8721679688e+01f) return x * 0x1p127f;
  }
  int k = 0;
  float c = 0.0f;
  if (hx > 0x3eb17218u) {  // |x| > ln2/2: reduce
    float hi, lo;
    if (hx < 0x3f851592u) {  // and < 1.5·ln2: k = ±1
      hi = neg ? x + kLn2Hi : x - kLn2Hi;
      lo = neg ? -kLn2Lo : kLn2Lo;
      k = neg ? -1 : 1;
    } else {
      k = static_cast<int>(kInvLn2 * x + (neg ? -0.5f : 0.5f));
      const float t = static_cast<float>(k);
      hi = x - t * kLn2Hi;  // t·ln2_hi is exact here
      lo = t * kLn2Lo;
    }
    x = hi - lo;
    c = (hi - x) - lo;
  } else if (hx < 0x33000000u) {  // |x| < 2^-25
    return x;
  }
  const float hfx = 0.5f * x, hxs = x * hfx;
  const float r1 = 1.0f + hxs * (kQ1 + hxs * kQ2);
  const float t = 3.0f - r1 * hfx;
  float e = hxs * ((r1 - t) / (6.0f - x * t));
  if (k == 0) return x - (x * e - hxs);
  e = x * (e - c) - c;
  e -= hxs;
  if (k == -1) return 0.5f * (x - e) - 0.5f;
  if (k == 1) return x < -0.25f ? -2.0f * (e - (x + 0.5f)) : 1.0f + 2.0f * (x - e);
  const float twopk = from_bits(static_cast<std::uint32_t>(0x7f + k) << 23);
  if (k < 0 || k > 56) {
    float y = x - e + 1.0f;
    y = k == 128 ? y * 2.0f * 0x1p127f : y * twopk;
    return y - 1.0f;
  }
  const float u = from_bits(static_cast<std::uint32_t>(0x7f - k) << 23);  // 2^-k
  return k < 23 ? (x - e + (1.0f - u)) * twopk : (x - e - u + 1.0f) * twopk;
}
}  // namespace

EW_UNFUSED float ew_tanhf(float x) {
  EW_UNFUSED_BODY
  const std::uint32_t w = to_bits(x) & 0x7fffffffu;
  const bool neg = to_bits(x) >> 31;
  const float a = from_bits(w);
  float t;
  if (w > 0x41200000u) t = 1.0f + 0.0f / a;  // |x| > 10 (1), or NaN
  else if (w > 0x3f0c9f54u) t = 1.0f - 2.0f / (expm1_f(2.0f * a) + 2.0f);  // |x| > log(3)/2
  else if (w > 0x3e82c578u) {  // |x| > log(5/3)/2
    t = expm1_f(2.0f * a);
    t = t / (t + 2.0f);
  } else if (w >= 0x00800000u) {  // |x| ≥ 2^-126
    t = expm1_f(-2.0f * a);
    t = -t / (t + 2.0f);
  } else {
    t = a;  // subnormal or zero
  }
  return neg ? -t : t;
}

EW_UNFUSED float ew_activation(float x, Activation act) {
  EW_UNFUSED_BODY
  switch (act) {
    case Activation::ReLU: return x > 0.0f ? x : 0.0f;
    case Activation::GELU: return 0.5f * x * (1.0f + std::erf(x * 0.70710678118654752f));
    case Activation::GELUTanh:  // √(2/π) = 0.7978845608…
      return 0.5f * x * (1.0f + ew_tanhf(0.79788456080286536f * (x + 0.044715f * x * x * x)));
    case Activation::Tanh: return ew_tanhf(x);
    case Activation::SiLU: return x / (1.0f + std::exp(-x));
    case Activation::None: break;
  }
  return x;
}

void ew_f32_activate__scalar(float* y, const float* x, int n, Activation act) {
  for (int i = 0; i < n; ++i) y[i] = ew_activation(x[i], act);
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
