// kernels.h — the numeric kernels of the forward pass: matmul, attention scores,
// the softmax pieces and LayerNorm, each as a scalar reference and a SIMD version.
//
// Naming follows XNNPACK: ew_<type>_<op>__<isa>. The un-suffixed names dispatch at
// compile time to the best ISA this build has (EW_KERNEL_ISA below): WebAssembly
// SIMD128 under Emscripten with -msimd128, AVX2+FMA or SSE2 natively, scalar when
// built with EW_SCALAR=ON or on anything else. The __scalar versions are always
// compiled: they are the algorithmic reference the tests compare against.
//
// Conventions: row-major, float32, output first, shapes in comments. Leading
// dimensions (ld*) are in elements. One kernel keeps memory between calls: the SIMD
// matmuls pack each K block of A into a per-thread scratch buffer that grows to the largest
// M·KC they have seen and is then reused, so no kernel allocates in steady state. Nothing a
// kernel keeps changes a result: the same inputs give the same outputs on any call.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace ew {

// The instruction set the dispatching kernels use in this build: "wasmsimd",
// "avx2", "sse2" or "scalar".
const char* kernel_isa();

// GELU is the exact erf form; GELUTanh is GPT-2's "gelu_new" (the tanh approximation
// 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))); Tanh is BERT's pooler; SiLU is x·σ(x), the
// gate of Llama's SwiGLU feed-forward network.
enum class Activation { None, ReLU, GELU, GELUTanh, Tanh, SiLU };

// ---- matmul --------------------------------------------------------------------
// B (K×N) repacked once for the SIMD matmul (panels of the register tile's
// width, zero-padded). Weights are packed when a model is built, never per call.
struct PackedB {
  int K = 0, N = 0;
  std::vector<float> data;  // layout private to the kernel of this build
};
void ew_f32_pack_b(PackedB* out, const float* B /*K×N*/, int K, int N);

// C (M×N, row stride ldc) = act(A (M×K, row stride lda) · B (K×N) + bias (N, may be null))
void ew_f32_matmul__scalar(float* C, int ldc, const float* A, int lda, const float* B, int ldb,
                           const float* bias, int M, int K, int N, Activation act);
// The activations, elementwise (scalar; GELU uses std::erf, GELUTanh and Tanh ew_tanhf).
float ew_activation(float x, Activation act);
// tanh by the algorithm of musl's (FreeBSD's) tanhf, written out so that every build — native
// with glibc, wasm with musl, the SIMD lanes of ew_f32_activate — computes the same number: in
// wasm it is std::tanh(float) bit for bit (test_kernels), elsewhere within 2 ulp of tanh.
float ew_tanhf(float x);
// y[i] = ew_activation(x[i], act) for i < n, bit for bit (y may be x); GELUTanh and Tanh in SIMD
// lanes (simd.h, vtanh), the others element by element.
void ew_f32_activate(float* y, const float* x, int n, Activation act);
void ew_f32_activate__scalar(float* y, const float* x, int n, Activation act);
// With C_act non-null the activation is fused the other way round: C receives the
// pre-activation A·B + bias and C_act (same ldc) act(C), both from one pass (the trace
// records both; the FFN's first linear layer uses this).
void ew_f32_matmul_packed(float* C, int ldc, const float* A, int lda, const PackedB& B,
                          const float* bias, int M, Activation act, float* C_act = nullptr);
// A PackedB built piece by piece — a checkpoint's weight packed while its file is decoded, so no
// row-major copy is ever held — and read back by element (the accessors of Param, model.h):
//   ew_f32_pack_b_init   zeroed panels for K×N (padding stays 0)
//   ew_f32_pack_b_rows   rows k0 … k0+nk−1 of B (each N floats, row stride ld)
//   ew_f32_pack_bt_rows  columns j0 … j0+nj−1 of B, given as rows of Bᵀ (each K floats, stride ld)
//   ew_f32_unpack_b      B's elements first … first+n−1 in row-major order
//   ew_f32_packed_set    B's element i (row-major) set to v
// ew_f32_packed_floats and ew_packed_index say how many values the panels of a K×N weight take and
// where B[k][j] lies among them, in this build's layout (16-bit panels alike).
std::size_t ew_f32_packed_floats(int K, int N);
std::size_t ew_packed_index(int K, int N, int k, int j);
void ew_f32_pack_b_init(PackedB* out, int K, int N);
void ew_f32_pack_b_rows(PackedB* out, const float* rows, int ld, int k0, int nk);
void ew_f32_pack_bt_rows(PackedB* out, const float* rows, int ld, int j0, int nj);
void ew_f32_unpack_b(const PackedB& B, std::size_t first, std::size_t n, float* out);
void ew_f32_packed_set(PackedB* B, std::size_t i, float v);
// y (N) = x (K) · B + bias with B packed: a decoded token's product, each panel read as one
// stream into register accumulators (bench/layout: 30–32 GB/s in wasm against 17–18 for rows).
// Each y[j] gets bias, then k = 0, 1, … in turn: ew_f32_gemv's result on the unpacked B, bit for bit.
void ew_f32_gemv_packed(float* y, const float* x, const PackedB& B, const float* bias);
// Unpacked operands (e.g. attention weights · V_h, where B changes every call).
void ew_f32_matmul(float* C, int ldc, const float* A, int lda, const float* B, int ldb,
                   const float* bias, int M, int K, int N, Activation act);

// The index of the first largest of x[0..n) (greedy decoding, accuracy, attribution's target).
inline int ew_f32_argmax(const float* x, int n) { return static_cast<int>(std::max_element(x, x + n) - x); }

// ---- attention scores ------------------------------------------------------------
// S (Tq×Tk, row stride lds) = Q (Tq×dk, row stride ldq) · K (Tk×dk, row stride ldk)ᵀ,
// without forming Kᵀ.
void ew_f32_scores__scalar(float* S, int lds, const float* Q, int ldq, const float* K, int ldk,
                           int Tq, int Tk, int dk);
void ew_f32_scores(float* S, int lds, const float* Q, int ldq, const float* K, int ldk, int Tq,
                   int Tk, int dk);

// ---- softmax, as its pieces (XNNPACK: rmax → raddexpminusmax → vscale) ---------
float ew_f32_rmax__scalar(const float* x, int n);
float ew_f32_rmax(const float* x, int n);
// y[i] = exp(x[i] - max); returns Σ y[i]. -inf inputs give 0.
float ew_f32_raddexpminusmax__scalar(float* y, const float* x, int n, float max);
float ew_f32_raddexpminusmax(float* y, const float* x, int n, float max);
// y[i] = x[i] * s
void ew_f32_vscale__scalar(float* y, const float* x, int n, float s);
void ew_f32_vscale(float* y, const float* x, int n, float s);

// One attention row, fused: scaled[j] = s[j]*scale + mask[j] (mask may be null: 0),
// weights = softmax(scaled). Writes both (the trace records both) and the row's max
// and Σexp. A row whose every entry is -inf gives weights of 0 and *row_sum = 0
// (defined, never NaN).
void ew_f32_softmax_row__scalar(float* scaled, float* weights, float* row_max, float* row_sum,
                                const float* s, const float* mask, int n, float scale);
void ew_f32_softmax_row(float* scaled, float* weights, float* row_max, float* row_sum,
                        const float* s, const float* mask, int n, float scale);

// ---- LayerNorm -----------------------------------------------------------------
// For each of T rows of x (T×C): mean[t], var[t] (biased), and
// y = (x - mean)/sqrt(var + eps) * gamma + beta.
void ew_f32_layernorm__scalar(float* y, float* mean, float* var, const float* x,
                              const float* gamma, const float* beta, int T, int C, float eps);
void ew_f32_layernorm(float* y, float* mean, float* var, const float* x, const float* gamma,
                      const float* beta, int T, int C, float eps);

// ---- transposed matmuls (the backward pass: Xᵀ·dY, dY·Wᵀ) ---------------------------
// Both read their operands where they lie (row-major, any row stride): nothing is transposed
// or copied. `accumulate`: C += product (llm.c's gradient +=); otherwise C = product.
// C (M×N, ldc) (+)= A (M×K, lda) · B (N×K, ldb)ᵀ     e.g. dX = dY·Wᵀ, dA = dC·Vᵀ
void ew_f32_matmul_nt__scalar(float* C, int ldc, const float* A, int lda, const float* B, int ldb, int M, int K,
                              int N, bool accumulate);
void ew_f32_matmul_nt(float* C, int ldc, const float* A, int lda, const float* B, int ldb, int M, int K, int N,
                      bool accumulate);
// C (M×N, ldc) (+)= A (K×M, lda)ᵀ · B (K×N, ldb)     e.g. dW = Xᵀ·dY, dV = Aᵀ·dC
void ew_f32_matmul_tn__scalar(float* C, int ldc, const float* A, int lda, const float* B, int ldb, int M, int K,
                              int N, bool accumulate);
void ew_f32_matmul_tn(float* C, int ldc, const float* A, int lda, const float* B, int ldb, int M, int K, int N,
                      bool accumulate);

// ---- GELU for training: the activation and its derivative in one pass -------------------
// y[i] = GELU(x[i]) = x·Φ(x) and dydx[i] = Φ(x) + x·φ(x) (exact erf form; Φ, φ: the
// standard normal CDF and density). The scalar reference uses std::erf and std::exp; the
// SIMD kernel erf from Abramowitz & Stegun 7.1.26 (|error| ≤ 1.5e-7) sharing one exp.
void ew_f32_gelu_grad__scalar(float* y, float* dydx, const float* x, int n);
void ew_f32_gelu_grad(float* y, float* dydx, const float* x, int n);

// ---- 16-bit weights: B as F16 or BF16, widened in the kernel -----------------------------
// A checkpoint's F16/BF16 matrices stay 16-bit in memory (model.h, Param); these kernels read
// them where they lie and widen each value to float32 as they stage it. Widening is exact, and
// each kernel stages into the same blocks its float32 twin reads, so every result is bit for bit
// that of the float32 kernel on the widened B (tests/test_kernels_h16.cpp).
enum class Half { F16, BF16 };
// One 16-bit value as float32 (exact; F16 subnormals, ±inf and NaN included).
inline float ew_half_to_f32(std::uint16_t h, Half t) {
  std::uint32_t u;
  if (t == Half::BF16) {
    u = std::uint32_t{h} << 16;
  } else {
    const std::uint32_t sign = (std::uint32_t{h} & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
    if (e == 0) {
      float f = static_cast<float>(m) * (1.0f / 16777216.0f);  // m·2⁻²⁴, exact
      std::memcpy(&u, &f, 4);
      u |= sign;
    } else if (e == 31) {
      u = sign | 0x7F800000u | (m << 13);
    } else {
      u = sign | ((e + 112) << 23) | (m << 13);
    }
  }
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
// out[0..n) = the n values at in, widened (scalar reference and SIMD).
void ew_h16_widen__scalar(float* out, const std::uint16_t* in, std::size_t n, Half t);
void ew_h16_widen(float* out, const std::uint16_t* in, std::size_t n, Half t);
// The same panels holding 16-bit values (an F16/BF16 checkpoint's matmul weights: 2 bytes a
// weight, ew_f32_packed_floats(K, N) of them, padding 0), built and read as above and widened in
// registers by the products: ew_h16_gemv_packed is ew_h16_gemv's result (bias, then k = 0, 1, …),
// ew_h16_matmul_packed ew_f32_matmul_packed's on the widened weight, bit for bit.
void ew_h16_pack_b_rows(std::uint16_t* P, int K, int N, const std::uint16_t* rows, int ld, int k0, int nk);
void ew_h16_pack_bt_rows(std::uint16_t* P, int K, int N, const std::uint16_t* rows, int ld, int j0, int nj);
void ew_h16_unpack_b(const std::uint16_t* P, int K, int N, Half t, std::size_t first, std::size_t n, float* out);
void ew_h16_gemv_packed(float* y, const float* x, const std::uint16_t* P, int K, int N, Half t, const float* bias);
void ew_h16_matmul_packed(float* C, int ldc, const float* A, int lda, const std::uint16_t* P, int K, int N, Half t,
                          const float* bias, int M, Activation act, float* C_act = nullptr);
// C (M×N, ldc) = act(A (M×K, lda) · widen(B) (K×N, row stride ldb) + bias): ew_f32_matmul's twin.
void ew_h16_matmul__scalar(float* C, int ldc, const float* A, int lda, const std::uint16_t* B, int ldb, Half t,
                           const float* bias, int M, int K, int N, Activation act);
void ew_h16_matmul(float* C, int ldc, const float* A, int lda, const std::uint16_t* B, int ldb, Half t,
                   const float* bias, int M, int K, int N, Activation act);
// ---- one row: a decoded token (the key/value cache's rounds) --------------------------------
// y (N) = x (K) · B (K×N, row stride ldb) + bias (may be null), in the order of the scalar
// matmul (bias, then k = 0, 1, … added in turn to each y[j]). B is read once, row after row,
// straight from where it lies: the matmul's staging of B into panels costs a single row a second
// pass over every weight. The 16-bit twin widens B in registers. Threads split the columns.
void ew_f32_gemv__scalar(float* y, const float* x, const float* B, int ldb, const float* bias, int K, int N);
void ew_f32_gemv(float* y, const float* x, const float* B, int ldb, const float* bias, int K, int N);
void ew_h16_gemv__scalar(float* y, const float* x, const std::uint16_t* B, int ldb, Half t, const float* bias, int K,
                         int N);
void ew_h16_gemv(float* y, const float* x, const std::uint16_t* B, int ldb, Half t, const float* bias, int K, int N);
// C (M×N, ldc) (+)= A (M×K, lda) · widen(B) (N×K, ldb)ᵀ: ew_f32_matmul_nt's twin (dX = dY·Wᵀ with a
// 16-bit W). The recorded backward pass (trace/backward.cpp) does not call it: its rules sum in
// double over whole matrices, which it reads widened once per run (trace/back.h, Grads::view).
void ew_h16_matmul_nt__scalar(float* C, int ldc, const float* A, int lda, const std::uint16_t* B, int ldb, Half t,
                              int M, int K, int N, bool accumulate);
void ew_h16_matmul_nt(float* C, int ldc, const float* A, int lda, const std::uint16_t* B, int ldb, Half t, int M,
                      int K, int N, bool accumulate);
// S (Tq×Tk, lds) = Q (Tq×dk, ldq) · widen(K) (Tk×dk, ldk)ᵀ: ew_f32_scores' twin (logits against a
// 16-bit token table).
void ew_h16_scores__scalar(float* S, int lds, const float* Q, int ldq, const std::uint16_t* K, int ldk, Half t,
                           int Tq, int Tk, int dk);
void ew_h16_scores(float* S, int lds, const float* Q, int ldq, const std::uint16_t* K, int ldk, Half t, int Tq,
                   int Tk, int dk);

}  // namespace ew
