// kernels_simd.cpp — the fast kernels behind the un-suffixed names of kernels.h, written
// once over simd.h's vector type (WebAssembly SIMD128, AVX2+FMA or SSE2 natively), and
// the compile-time dispatch: without SIMD (EW_SCALAR=ON, or no known ISA) every
// un-suffixed kernel forwards to its scalar reference in kernels_scalar.cpp.
//
// matmul: cache-blocked over K (KC rows of B stay in L1 while every row block of A passes),
// register-tiled MR rows × NV vectors (natively 4 × 2 AVX2 vectors; in WebAssembly 2 × 4 =
// 2×16 floats, and 3 × 3 = 3×12 in the relaxed-SIMD build, chosen by measurement under V8's
// TurboFan: V8 on x64 allocates 15 xmm registers; 4×8, 2×16 and 3×12 fit, 6×8 and 4×12
// spill — see docs/benchmarks.md), B packed once into NR-wide zero-padded panels; bias and activation
// fused into the last K block's store. An unpacked B is staged a group of panels at a time
// in a per-thread buffer (grown once, then reused). Large matmuls split their panels over pool.h's threads.
// Under Emscripten this file is compiled by clang-19 (cmake/wasm_kernels.cmake), once plain
// and once with relaxed SIMD (vfma fused).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <vector>

#include "kernels/kernels.h"
#include "kernels/pool.h"
#include "kernels/simd.h"

namespace ew {

#if EW_SIMD
using namespace ew::simd;

const char* kernel_isa() { return EW_ISA_NAME; }

namespace {

// Tiles measured under TurboFan (docs/benchmarks.md): WebAssembly SIMD128 2×16 (3×12 spills
// without FMA: it needs a temporary per product), relaxed SIMD 3×12, native AVX2 4×16.
#if defined(__wasm_relaxed_simd__)
#define EW_MM_DEFAULT_MR 3
#define EW_MM_DEFAULT_NV 3
#elif EW_VW == 4
#define EW_MM_DEFAULT_MR 2
#define EW_MM_DEFAULT_NV 4
#else
#define EW_MM_DEFAULT_MR 4
#define EW_MM_DEFAULT_NV 2
#endif
#ifndef EW_MM_MR
#define EW_MM_MR EW_MM_DEFAULT_MR
#endif
#ifndef EW_MM_NV
#define EW_MM_NV EW_MM_DEFAULT_NV
#endif
constexpr int MR = EW_MM_MR;      // rows of A per register tile
constexpr int NV = EW_MM_NV;      // vectors of C per tile row
constexpr int NR = NV * EW_VW;    // columns of B per register tile
#ifndef EW_MM_KC
#define EW_MM_KC (EW_VW == 4 ? 512 : 256)
#endif
constexpr int KC = EW_MM_KC;     // K block: KC×NR floats of B (16 KiB) stay in L1 (512: +4% in wasm)

inline int panels(int N) { return (N + NR - 1) / NR; }

// The K block of A, repacked MR rows interleaved (ap[k·MR + r]) so the tile reads its four
// broadcasts at fixed offsets from one pointer. Kept across calls: it grows to the
// largest M·KC seen and is then reused (no allocation in steady state).
std::vector<float>& a_scratch() {
  static thread_local std::vector<float> buf;
  return buf;
}

void pack_a(float* ap, const float* A, int lda, int M, int k0, int kc) {
  for (int i0 = 0; i0 < M; i0 += MR) {
    float* dst = ap + static_cast<std::size_t>(i0) * kc;
    for (int r = 0; r < MR; ++r) {
      if (i0 + r < M) {
        const float* src = A + static_cast<std::size_t>(i0 + r) * lda + k0;
        for (int k = 0; k < kc; ++k) dst[k * MR + r] = src[k];
      } else {
        for (int k = 0; k < kc; ++k) dst[k * MR + r] = 0.0f;
      }
    }
  }
}

// C tile (R×nv, nv ≤ NR) (+)= Ap (kc×MR interleaved, rows ≥ R ignored) · Bp (kc×NR packed).
// `first`: start from 0 instead of C; `last`: add bias, apply act and write C (and, with
// C2, C = pre-activation and C2 = act(C)). Ragged tiles (nv < NR) go through `tmp`.
template <int R>
inline void tile(int kc, const float* __restrict ap, const float* __restrict bp, float* c, int ldc, int nv,
                 bool first, bool last, const float* bias, Activation act, float* c2) {
  vf acc[R][NV];
  alignas(64) float tmp[NR];
  const bool full = nv == NR;
  auto load_row = [&](const float* src, vf* dst) {  // NR floats (nv valid, rest 0)
    const float* from = src;
    if (!full) {
      std::memset(tmp, 0, sizeof tmp);
      std::memcpy(tmp, src, sizeof(float) * nv);
      from = tmp;
    }
    for (int v = 0; v < NV; ++v) dst[v] = vload(from + v * EW_VW);
  };
  auto store_row = [&](float* dst, const vf* src) {
    float* to = full ? dst : tmp;
    for (int v = 0; v < NV; ++v) vstore(to + v * EW_VW, src[v]);
    if (!full) std::memcpy(dst, tmp, sizeof(float) * nv);
  };
  for (int r = 0; r < R; ++r) {
    if (first) {
      for (int v = 0; v < NV; ++v) acc[r][v] = vzero();
    } else {
      load_row(c + r * ldc, acc[r]);
    }
  }
  // WebAssembly: not unrolled — V8's TurboFan unrolls itself and keeps the 4×2 tile in
  // registers only for the plain loop (measured: unroll ×4 ≈ 0.7× the speed under
  // TurboFan). Native GCC: unrolled ×4 (measured: 66 vs 39 GFLOP/s at 128×512×2048, AVX2).
#if defined(__wasm__)
#pragma clang loop unroll(disable)
#elif defined(__clang__)
#pragma clang loop unroll_count(4)
#elif defined(__GNUC__)
#pragma GCC unroll 4
#endif
  for (int k = 0; k < kc; ++k) {
    vf b[NV];
    for (int v = 0; v < NV; ++v) b[v] = vload(bp + v * EW_VW);
    for (int r = 0; r < R; ++r) {
      // A broadcast straight from memory (v128.load32_splat → vbroadcastss): measured
      // 32 vs 29 GFLOP/s for one v128 load of the 4 packed values + 4 lane shuffles.
      const vf ar = vsplat(ap[r]);
      for (int v = 0; v < NV; ++v) acc[r][v] = vfma(ar, b[v], acc[r][v]);
    }
    ap += MR;
    bp += NR;
  }
  if (!last) {
    for (int r = 0; r < R; ++r) store_row(c + r * ldc, acc[r]);
    return;
  }
  vf bv[NV];
  if (bias) {
    load_row(bias, bv);
  } else {
    for (int v = 0; v < NV; ++v) bv[v] = vzero();
  }
  for (int r = 0; r < R; ++r) {
    for (int v = 0; v < NV; ++v) acc[r][v] = vadd(acc[r][v], bv[v]);
    float* out = c + r * ldc;  // where the activation lands
    if (c2) {                  // C keeps the pre-activation
      store_row(out, acc[r]);
      out = c2 + r * ldc;
    }
    if (act == Activation::ReLU)
      for (int v = 0; v < NV; ++v) acc[r][v] = vmax(acc[r][v], vzero());
    store_row(out, acc[r]);
    if (act != Activation::None && act != Activation::ReLU)  // GELU, GELUTanh, Tanh, SiLU
      ew_f32_activate(out, out, nv, act);
  }
}

// Rows i0.. of one K block of one panel: full MR-row tiles, then one tile of the rest.
template <int R>
inline void rest_tile(int rest, int kc, const float* ap, const float* bp, float* c, int ldc, int nv, bool first,
                      bool last, const float* bias, Activation act, float* c2) {
  if constexpr (R > 0) {
    if (rest == R) {
      tile<R>(kc, ap, bp, c, ldc, nv, first, last, bias, act, c2);
    } else {
      rest_tile<R - 1>(rest, kc, ap, bp, c, ldc, nv, first, last, bias, act, c2);
    }
  }
}

inline void panel_rows(int M, int kc, const float* ap, const float* bp, float* C, int ldc, int nv, bool first,
                       bool last, const float* bias, Activation act, float* C2) {
  int i = 0;
  for (; i + MR <= M; i += MR)
    tile<MR>(kc, ap + static_cast<std::size_t>(i) * kc, bp, C + static_cast<std::size_t>(i) * ldc, ldc, nv, first,
             last, bias, act, C2 ? C2 + static_cast<std::size_t>(i) * ldc : nullptr);
  if (i < M)
    rest_tile<MR - 1>(M - i, kc, ap + static_cast<std::size_t>(i) * kc, bp, C + static_cast<std::size_t>(i) * ldc,
                      ldc, nv, first, last, bias, act, C2 ? C2 + static_cast<std::size_t>(i) * ldc : nullptr);
}

// Where a group of panels' packed kc×NR blocks are: panel g0's at `data`, each next one
// `stride` floats further (a packed B keeps K×NR per panel; a staged group, kc×NR).
struct PanelBlocks {
  const float* data;
  std::size_t stride;
};

// Panels handled together per K block: an unpacked B is staged a group at a time, each of
// its K rows read as one run of kPanelGroup·NR floats (see ew_f32_matmul).
#ifndef EW_MM_GROUP
#define EW_MM_GROUP 8
#endif
constexpr int kPanelGroup = EW_MM_GROUP;

// One thread's share of the driver: panels [p0, p1) of B, K blocks outermost (pack that block
// of A once, into this thread's scratch), then those panels in groups (`group(g0, g1, k0, kc)`
// gives their packed kc×NR blocks), then register tiles down the rows.
template <class GroupFn>
void gemm_panels(float* C, int ldc, const float* A, int lda, int M, int K, int N, const float* bias, Activation act,
                 float* C_act, const GroupFn& group, int p0, int p1) {
  const int nkb = std::max(1, (K + KC - 1) / KC);
  std::vector<float>& scratch = a_scratch();
  const std::size_t need = static_cast<std::size_t>((M + MR - 1) / MR) * MR * std::min(std::max(K, 1), KC);
  if (scratch.size() < need) scratch.resize(need);
  for (int kb = 0; kb < nkb; ++kb) {
    const int k0 = kb * KC, kc = std::min(KC, K - k0);
    pack_a(scratch.data(), A, lda, M, k0, kc);
    for (int g0 = p0; g0 < p1; g0 += kPanelGroup) {
      const int g1 = std::min(p1, g0 + kPanelGroup);
      const PanelBlocks blocks = group(g0, g1, k0, kc);
      for (int p = g0; p < g1; ++p)
        panel_rows(M, kc, scratch.data(), blocks.data + (p - g0) * blocks.stride, C + p * NR, ldc,
                   std::min(NR, N - p * NR), kb == 0, kb == nkb - 1, bias ? bias + p * NR : nullptr, act,
                   C_act ? C_act + p * NR : nullptr);
    }
  }
}

// Below this many flops a matmul stays on one thread (waking the pool costs tens of µs).
constexpr double kMinParallelFlops = 1 << 21;

// The shared driver. With more than one thread (pool.h) the panels — column blocks of C —
// are split into contiguous ranges, one per thread; each element of C is still computed by
// the same tile over the same K blocks in the same order, so results are bit-identical to
// one thread's (tests/test_threads.cpp). Only A's packing is repeated per thread.
template <class GroupFn>
void gemm(float* C, int ldc, const float* A, int lda, int M, int K, int N, const float* bias, Activation act,
          float* C_act, const GroupFn& group) {
  if (M <= 0 || N <= 0) return;
  const int np = panels(N);
  const int nt = 2.0 * M * K * N < kMinParallelFlops ? 1 : std::min(threads(), np);
  if (nt <= 1) {
    gemm_panels(C, ldc, A, lda, M, K, N, bias, act, C_act, group, 0, np);
    return;
  }
  parallel_for(nt, [&](int t) {
    gemm_panels(C, ldc, A, lda, M, K, N, bias, act, C_act, group, np * t / nt, np * (t + 1) / nt);
  });
}

}  // namespace

void ew_f32_pack_b(PackedB* out, const float* B, int K, int N) {
  out->K = K;
  out->N = N;
  out->data.assign(static_cast<std::size_t>(panels(N)) * K * NR, 0.0f);
  for (int p = 0; p < panels(N); ++p) {
    const int j0 = p * NR, nv = std::min(NR, N - j0);
    float* dst = out->data.data() + static_cast<std::size_t>(p) * K * NR;
    for (int k = 0; k < K; ++k)
      std::memcpy(dst + static_cast<std::size_t>(k) * NR, B + static_cast<std::size_t>(k) * N + j0, sizeof(float) * nv);
  }
}

void ew_f32_matmul_packed(float* C, int ldc, const float* A, int lda, const PackedB& B, const float* bias,
                          int M, Activation act, float* C_act) {
  const float* data = B.data.data();
  const int K = B.K;
  gemm(C, ldc, A, lda, M, K, B.N, bias, act, C_act,
       [&](int g0, int, int k0, int) {
         return PanelBlocks{data + (static_cast<std::size_t>(g0) * K + k0) * NR, static_cast<std::size_t>(K) * NR};
       });
}

std::size_t ew_f32_packed_floats(int K, int N) { return static_cast<std::size_t>(panels(N)) * K * NR; }
std::size_t ew_packed_index(int K, int, int k, int j) { return (static_cast<std::size_t>(j / NR) * K + k) * NR + j % NR; }

namespace {
// S panels of a one-row product with a packed B, read together: panel ps[s]'s K×NR floats are
// one contiguous stream, read once into NV register accumulators (no store of y between rows).
// Each y[j] starts at its bias and receives x[k]·B[k][j] for k = 0, 1, … in turn — the
// instruction sequence gemv_columns gives it, so the result is ew_f32_gemv's on the unpacked B,
// bit for bit (for N a multiple of EW_VW; its scalar tail columns are vector lanes here), whatever
// panels are read together.
template <int S, class T, class Load>
void gemv_streams(float* y, const float* x, const T* P, int K, int N, const float* bias, const int* ps, const Load& load) {
  alignas(64) float tmp[NR];
  vf acc[S][NV];
  const T* b[S];
  for (int s = 0; s < S; ++s) {
    const int j0 = ps[s] * NR, nv = std::min(NR, N - j0);
    for (int j = 0; j < NR; ++j) tmp[j] = bias && j < nv ? bias[j0 + j] : 0.0f;
    for (int v = 0; v < NV; ++v) acc[s][v] = vload(tmp + v * EW_VW);
    b[s] = P + static_cast<std::size_t>(ps[s]) * K * NR;
  }
#if defined(__wasm__)
#pragma clang loop unroll(disable)
#endif
  for (int k = 0; k < K; ++k) {
    const vf xk = vsplat(x[k]);
    for (int s = 0; s < S; ++s) {
      for (int v = 0; v < NV; ++v) acc[s][v] = vfma(xk, load(b[s] + v * EW_VW), acc[s][v]);
      b[s] += NR;
    }
  }
  for (int s = 0; s < S; ++s) {
    const int j0 = ps[s] * NR, nv = std::min(NR, N - j0);
    if (nv == NR) {
      for (int v = 0; v < NV; ++v) vstore(y + j0 + v * EW_VW, acc[s][v]);
    } else {
      for (int v = 0; v < NV; ++v) vstore(tmp + v * EW_VW, acc[s][v]);
      std::memcpy(y + j0, tmp, sizeof(float) * nv);
    }
  }
}

// Panels [p0, p1): panel p read together with panel p + h, half the range away. Two streams far
// apart are what this machine's prefetchers keep ahead of best: GPT-2's matrices in wasm at
// ~33 GB/s against one stream's ~28 (bash bench/layout/run.sh streams); the numbers are unchanged.
template <class T, class Load>
void gemv_panels(float* y, const float* x, const T* P, int K, int N, const float* bias, int p0, int p1, const Load& load) {
  const int h = (p1 - p0 + 1) / 2;
  for (int p = p0; p < p0 + h; ++p) {
    const int ps[2] = {p, p + h};
    if (ps[1] < p1) gemv_streams<2>(y, x, P, K, N, bias, ps, load);
    else gemv_streams<1>(y, x, P, K, N, bias, ps, load);
  }
}

template <class T, class Load>
void gemv_packed(float* y, const float* x, const T* P, int K, int N, const float* bias, const Load& load) {
  const int np = panels(N);
  const int nt = 2.0 * K * N < kMinParallelFlops ? 1 : std::min(threads(), np);
  if (nt <= 1) return gemv_panels(y, x, P, K, N, bias, 0, np, load);
  parallel_for(nt, [&](int t) { gemv_panels(y, x, P, K, N, bias, np * t / nt, np * (t + 1) / nt, load); });
}
}  // namespace

void ew_f32_gemv_packed(float* y, const float* x, const PackedB& B, const float* bias) {
  gemv_packed(y, x, B.data.data(), B.K, B.N, bias, [](const float* p) { return vload(p); });
}

void ew_h16_gemv_packed(float* y, const float* x, const std::uint16_t* P, int K, int N, Half t, const float* bias) {
  if (t == Half::BF16) gemv_packed(y, x, P, K, N, bias, [](const std::uint16_t* p) { return vload_bf16(p); });
  else gemv_packed(y, x, P, K, N, bias, [](const std::uint16_t* p) { return vload_f16_finite(p); });
}

void ew_h16_matmul_packed(float* C, int ldc, const float* A, int lda, const std::uint16_t* P, int K, int N, Half t,
                          const float* bias, int M, Activation act, float* C_act) {
  // Each K block of a group of panels widened into a per-thread buffer just before its panels run:
  // the panels' kc×NR blocks are contiguous, so this is one widening pass, no gathering. The tiles
  // see the blocks ew_f32_matmul_packed would on the widened weight: its result, bit for bit.
  const bool bf = t == Half::BF16;
  gemm(C, ldc, A, lda, M, K, N, bias, act, C_act, [&](int g0, int g1, int k0, int kc) {
    static thread_local std::vector<float> stage;
    const std::size_t need = static_cast<std::size_t>(kPanelGroup) * KC * NR;
    if (stage.size() < need) stage.resize(need);
    for (int p = g0; p < g1; ++p) {
      const std::uint16_t* src = P + (static_cast<std::size_t>(p) * K + k0) * NR;
      float* d = stage.data() + static_cast<std::size_t>(p - g0) * kc * NR;
      for (int i = 0; i < kc * NR; i += EW_VW) vstore(d + i, bf ? vload_bf16(src + i) : vload_f16_finite(src + i));
    }
    return PanelBlocks{stage.data(), static_cast<std::size_t>(kc) * NR};
  });
}

namespace {
// Panels [g0, g1) of rows k0..k0+kc of a row-major B, packed as ew_f32_pack_b would (zero-padded
// last panel) into `dst`, kc×NR floats per panel. Row by row: each row of the group is one
// contiguous run of (g1−g0)·NR floats, so a weight read in place (a checkpoint's, whose rows are
// 3,072 floats apart) streams through memory instead of touching a new page every NR floats.
void stage_panels(float* dst, const float* B, int ldb, int N, int k0, int kc, int g0, int g1) {
  for (int k = 0; k < kc; ++k) {
    const float* src = B + static_cast<std::size_t>(k0 + k) * ldb;
    for (int p = g0; p < g1; ++p) {
      const int j0 = p * NR, nv = std::min(NR, N - j0);
      float* d = dst + (static_cast<std::size_t>(p - g0) * kc + k) * NR;
      if (nv == NR) {  // vector moves: a memcpy call per 48 bytes was a third of GPT-2's time in wasm
        for (int v = 0; v < NV; ++v) vstore(d + v * EW_VW, vload(src + j0 + v * EW_VW));
      } else {
        std::memcpy(d, src + j0, sizeof(float) * nv);
        std::memset(d + nv, 0, sizeof(float) * (NR - nv));
      }
    }
  }
}
}  // namespace

void ew_f32_matmul(float* C, int ldc, const float* A, int lda, const float* B, int ldb, const float* bias,
                   int M, int K, int N, Activation act) {
  // B is not packed (attention weights · V_h, which change every call; a checkpoint's weights,
  // read in place): each K block of a group of panels is staged into a per-thread buffer just
  // before its panels run (K·N copies against 2·M·K·N flops). The tiles see the same packed
  // blocks as ew_f32_matmul_packed's, so results are bit-identical to it.
  gemm(C, ldc, A, lda, M, K, N, bias, act, nullptr, [&](int g0, int g1, int k0, int kc) {
    static thread_local std::vector<float> stage;
    const std::size_t need = static_cast<std::size_t>(kPanelGroup) * KC * NR;
    if (stage.size() < need) stage.resize(need);
    stage_panels(stage.data(), B, ldb, N, k0, kc, g0, g1);
    return PanelBlocks{stage.data(), static_cast<std::size_t>(kc) * NR};
  });
}

void ew_h16_widen(float* out, const std::uint16_t* in, std::size_t n, Half t) {
  std::size_t i = 0;
  if (t == Half::BF16) {
    for (; i + EW_VW <= n; i += EW_VW) vstore(out + i, vload_bf16(in + i));
  } else {
    for (; i + EW_VW <= n; i += EW_VW) vstore(out + i, vload_f16(in + i));
  }
  for (; i < n; ++i) out[i] = ew_half_to_f32(in[i], t);
}

namespace {
// stage_panels for a 16-bit B: the same packed blocks, each value widened as it is moved.
void stage_panels_h16(float* dst, const std::uint16_t* B, int ldb, Half t, int N, int k0, int kc, int g0, int g1) {
  const bool bf = t == Half::BF16;
  for (int k = 0; k < kc; ++k) {
    const std::uint16_t* src = B + static_cast<std::size_t>(k0 + k) * ldb;
    for (int p = g0; p < g1; ++p) {
      const int j0 = p * NR, nv = std::min(NR, N - j0);
      float* d = dst + (static_cast<std::size_t>(p - g0) * kc + k) * NR;
      if (nv == NR) {
        for (int v = 0; v < NV; ++v)
          vstore(d + v * EW_VW, bf ? vload_bf16(src + j0 + v * EW_VW) : vload_f16_finite(src + j0 + v * EW_VW));
      } else {
        for (int j = 0; j < nv; ++j) d[j] = ew_half_to_f32(src[j0 + j], t);
        std::memset(d + nv, 0, sizeof(float) * (NR - nv));
      }
    }
  }
}
}  // namespace

void ew_h16_matmul(float* C, int ldc, const float* A, int lda, const std::uint16_t* B, int ldb, Half t,
                   const float* bias, int M, int K, int N, Activation act) {
  // ew_f32_matmul with 16-bit staging: the tiles see the same float blocks, so C is bit for bit
  // ew_f32_matmul's on the widened B, while the weight itself is read at 2 bytes a value.
  gemm(C, ldc, A, lda, M, K, N, bias, act, nullptr, [&](int g0, int g1, int k0, int kc) {
    static thread_local std::vector<float> stage;
    const std::size_t need = static_cast<std::size_t>(kPanelGroup) * KC * NR;
    if (stage.size() < need) stage.resize(need);
    stage_panels_h16(stage.data(), B, ldb, t, N, k0, kc, g0, g1);
    return PanelBlocks{stage.data(), static_cast<std::size_t>(kc) * NR};
  });
}

namespace {
// Columns [j0, j1) of a one-row product (ew_f32_gemv): B's rows streamed in the order they lie in
// memory, eight at a time, into y (which stays in L1 for every layer's width). Each y[j] receives
// its terms in the scalar reference's order, k = 0, 1, …. Measured in wasm on 600 MB of weights
// (more than the last-level cache): eight rows a pass 15 GB/s, four 12, a strip of columns walked
// down all K rows (the first version: a stride of one row, which the prefetchers follow badly) 6.6.
// T is float or uint16_t; load widens EW_VW values of a row to floats, scalar one value.
template <class T, class Load, class Scalar>
void gemv_columns(float* y, const float* x, int K, const float* bias, int j0, int j1, const T* B, int ldb,
                  const Load& load, const Scalar& scalar) {
  const int jv = j0 + (j1 - j0) / EW_VW * EW_VW;  // [j0, jv) in vectors, [jv, j1) one by one
  for (int j = j0; j < j1; ++j) y[j] = bias ? bias[j] : 0.0f;
  constexpr int R = 8;
  int k = 0;
  for (; k + R <= K; k += R) {
    vf xs[R];
    for (int r = 0; r < R; ++r) xs[r] = vsplat(x[k + r]);
    const T* b = B + static_cast<std::size_t>(k) * ldb;
    for (int j = j0; j < jv; j += EW_VW) {
      vf a = vload(y + j);
      for (int r = 0; r < R; ++r) a = vfma(xs[r], load(b + static_cast<std::size_t>(r) * ldb + j), a);
      vstore(y + j, a);
    }
    for (int j = jv; j < j1; ++j)
      for (int r = 0; r < R; ++r) y[j] += x[k + r] * scalar(b[static_cast<std::size_t>(r) * ldb + j]);
  }
  for (; k < K; ++k) {
    const vf xk = vsplat(x[k]);
    const T* b = B + static_cast<std::size_t>(k) * ldb;
    for (int j = j0; j < jv; j += EW_VW) vstore(y + j, vfma(xk, load(b + j), vload(y + j)));
    for (int j = jv; j < j1; ++j) y[j] += x[k] * scalar(b[j]);
  }
}

// Splits the columns over the pool (whole 4·EW_VW-column groups per thread; each y[j] is computed
// the same way whatever the count).
template <class T, class Load, class Scalar>
void gemv(float* y, const float* x, int K, int N, const float* bias, const T* B, int ldb, const Load& load,
          const Scalar& scalar) {
  constexpr int W = 4 * EW_VW;
  const int groups = (N + W - 1) / W;
  const int nt = 2.0 * K * N < kMinParallelFlops ? 1 : std::min(threads(), groups);
  if (nt <= 1) return gemv_columns(y, x, K, bias, 0, N, B, ldb, load, scalar);
  parallel_for(nt, [&](int t) {
    gemv_columns(y, x, K, bias, std::min(N, groups * t / nt * W), std::min(N, groups * (t + 1) / nt * W), B, ldb,
                 load, scalar);
  });
}
}  // namespace

void ew_f32_gemv(float* y, const float* x, const float* B, int ldb, const float* bias, int K, int N) {
  gemv(y, x, K, N, bias, B, ldb, [](const float* p) { return vload(p); }, [](float v) { return v; });
}

void ew_h16_gemv(float* y, const float* x, const std::uint16_t* B, int ldb, Half t, const float* bias, int K, int N) {
  if (t == Half::BF16)
    gemv(y, x, K, N, bias, B, ldb, [](const std::uint16_t* p) { return vload_bf16(p); },
         [](std::uint16_t v) { return ew_half_to_f32(v, Half::BF16); });
  else
    gemv(y, x, K, N, bias, B, ldb, [](const std::uint16_t* p) { return vload_f16_finite(p); },
         [](std::uint16_t v) { return ew_half_to_f32(v, Half::F16); });
}

namespace {
// Scores of one query row against Tk key rows (a decoded token's head over the vocabulary, its
// attention over the cache): each key's row read as one stream into four vector accumulators,
// two keys half the table apart at a time. Measured in wasm SIMD128 on a 49,152 × 576 table
// (SmolLM2's tied head, 113 MB, from memory): one key at a time 3.5 ms, 32 GB/s; 8 neighbouring
// keys at a time, as scores_block reads them, 7.3–8.4 ms (13–15 GB/s), 4 neighbours 7.1, 2
// neighbours × 2 accumulators 6.4 — neighbours' short rows are not streams a prefetcher follows;
// two far-apart keys are (scores_one_query). Each S[j]: vector c into
// accumulator c mod 4, then (a0 + a1) + (a2 + a3), the horizontal sum, the tail — a different
// order from scores_block's, so equal to the two-query path's number within rounding, not bit for
// bit (test_kernels), and the same whatever the block or thread split.
// Σ q[c]·k[c] over c = from … to−1 in order: the scalar tail of a score (dk % EW_VW values), one
// function for every path so that each compiles it alike (a 16-bit key's tail widened first).
inline float dot_tail(const float* q, const float* k, int from, int to) {
  float s = 0.0f;
  for (int c = from; c < to; ++c) s += q[c] * k[c];
  return s;
}

// T is float or uint16_t (a 16-bit table, widened in registers by `load`: the same numbers as on
// the widened table, bit for bit).
template <class T, class Load, class Tail>
void scores_one_query(float* s, const float* q, const T* K, int ldk, int Tk, int dv, const Load& load, const Tail& tail) {
  // Key j read together with key j + h, half the keys away: two streams far apart (GPT-2's head,
  // 154 MB, in wasm at 34–39 GB/s against one stream's 29–35; bench/layout/streams.cpp). Each key keeps
  // its own accumulators and order, so S[j] is the same number whichever key it is read beside.
  constexpr int U = 4;
  const int du = dv / (U * EW_VW) * (U * EW_VW), h = (Tk + 1) / 2;
  for (int j = 0; j < h; ++j) {
    const bool two = j + h < Tk;
    const T* k0 = K + static_cast<std::size_t>(j) * ldk;
    const T* k1 = two ? k0 + static_cast<std::size_t>(h) * ldk : k0;
    vf a[U], b[U];
    for (int u = 0; u < U; ++u) a[u] = b[u] = vzero();
    int c = 0;
    for (; c < du; c += U * EW_VW)
      for (int u = 0; u < U; ++u) {
        const vf qv = vload(q + c + u * EW_VW);
        a[u] = vfma(qv, load(k0 + c + u * EW_VW), a[u]);
        b[u] = vfma(qv, load(k1 + c + u * EW_VW), b[u]);
      }
    for (; c < dv; c += EW_VW) {
      const vf qv = vload(q + c);
      a[0] = vfma(qv, load(k0 + c), a[0]);
      b[0] = vfma(qv, load(k1 + c), b[0]);
    }
    s[j] = vhsum(vadd(vadd(a[0], a[1]), vadd(a[2], a[3]))) + tail(q, k0);
    if (two) s[j + h] = vhsum(vadd(vadd(b[0], b[1]), vadd(b[2], b[3]))) + tail(q, k1);
  }
}

// One query against Tk keys (a decoded token's head over the vocabulary, its attention over the
// cache): there is nothing for key blocks to reuse, so each thread's range of keys goes to
// scores_one_query whole — its two streams half the range apart, not half a block.
template <class T, class Load, class Tail>
void one_query_scores(float* S, const float* q, const T* K, int ldk, int Tk, int dk, const Load& load, const Tail& tail) {
  const int dv = dk - dk % EW_VW;
  auto keys = [&](int j0, int j1) {
    scores_one_query(S + j0, q, K + static_cast<std::size_t>(j0) * ldk, ldk, j1 - j0, dv, load, tail);
  };
  const int nt = 2.0 * Tk * dk < kMinParallelFlops ? 1 : std::min(threads(), std::max(1, Tk / 64));
  if (nt <= 1) return keys(0, Tk);
  parallel_for(nt, [&](int t) {
    keys(static_cast<int>(static_cast<long long>(Tk) * t / nt), static_cast<int>(static_cast<long long>(Tk) * (t + 1) / nt));
  });
}

void scores_block(float* S, int lds, const float* Q, int ldq, const float* K, int ldk, int Tq, int Tk,
                  int dk) {
  // Dot products of query rows with key rows, 2 queries × 4 keys at a time (8 vector
  // accumulators), reduced horizontally at the end; the dk % EW_VW tail is scalar.
  const int dv = dk - dk % EW_VW;
  auto tail = [&](const float* q, const float* k) { return dot_tail(q, k, dv, dk); };
  int i = 0;
  for (; i < Tq; i += 2) {
    const int qi = std::min(2, Tq - i);
    if (qi == 1) {  // one query (a decoded token's head over the vocabulary): no second row's work
      scores_one_query(S + static_cast<std::size_t>(i) * lds, Q + static_cast<std::size_t>(i) * ldq, K, ldk, Tk, dv,
                       [](const float* p) { return vload(p); }, tail);
      break;
    }
    const float* q0 = Q + static_cast<std::size_t>(i) * ldq;
    const float* q1 = qi == 2 ? q0 + ldq : q0;
    float* s0 = S + static_cast<std::size_t>(i) * lds;
    float* s1 = qi == 2 ? s0 + lds : nullptr;
    int j = 0;
    for (; j + 4 <= Tk; j += 4) {
      const float* k0 = K + static_cast<std::size_t>(j) * ldk;
      const float *k1 = k0 + ldk, *k2 = k1 + ldk, *k3 = k2 + ldk;
      vf a00 = vzero(), a01 = vzero(), a02 = vzero(), a03 = vzero();
      vf a10 = vzero(), a11 = vzero(), a12 = vzero(), a13 = vzero();
      for (int c = 0; c < dv; c += EW_VW) {
        const vf x0 = vload(q0 + c), x1 = vload(q1 + c);
        const vf y0 = vload(k0 + c), y1 = vload(k1 + c), y2 = vload(k2 + c), y3 = vload(k3 + c);
        a00 = vfma(x0, y0, a00); a01 = vfma(x0, y1, a01); a02 = vfma(x0, y2, a02); a03 = vfma(x0, y3, a03);
        a10 = vfma(x1, y0, a10); a11 = vfma(x1, y1, a11); a12 = vfma(x1, y2, a12); a13 = vfma(x1, y3, a13);
      }
      s0[j] = vhsum(a00) + tail(q0, k0);
      s0[j + 1] = vhsum(a01) + tail(q0, k1);
      s0[j + 2] = vhsum(a02) + tail(q0, k2);
      s0[j + 3] = vhsum(a03) + tail(q0, k3);
      if (s1) {
        s1[j] = vhsum(a10) + tail(q1, k0);
        s1[j + 1] = vhsum(a11) + tail(q1, k1);
        s1[j + 2] = vhsum(a12) + tail(q1, k2);
        s1[j + 3] = vhsum(a13) + tail(q1, k3);
      }
    }
    for (; j < Tk; ++j) {
      const float* k0 = K + static_cast<std::size_t>(j) * ldk;
      vf a0 = vzero(), a1 = vzero();
      for (int c = 0; c < dv; c += EW_VW) {
        const vf y = vload(k0 + c);
        a0 = vfma(vload(q0 + c), y, a0);
        a1 = vfma(vload(q1 + c), y, a1);
      }
      s0[j] = vhsum(a0) + tail(q0, k0);
      if (s1) s1[j] = vhsum(a1) + tail(q1, k0);
    }
  }
}

}  // namespace

void ew_f32_scores(float* S, int lds, const float* Q, int ldq, const float* K, int ldk, int Tq, int Tk,
                   int dk) {
  // Keys in blocks of ~32 KiB, every query against one block before the next: a vocabulary
  // of 30,522 keys (a tied LM head) is read from memory once instead of once per 2 queries
  // (6x faster at 128 x 768 x 30,522). Each S[i][j] is the same instruction sequence as
  // without blocks (the block is a multiple of 4 keys), so results are bit-identical. With more
  // than one thread (pool.h), each thread takes a contiguous range of the blocks. One query has
  // no second to share a block with: its keys go to one_query_scores.
  if (Tq == 1) {
    const int dv = dk - dk % EW_VW;
    return one_query_scores(S, Q, K, ldk, Tk, dk, [](const float* p) { return vload(p); },
                            [&](const float* q, const float* k) { return dot_tail(q, k, dv, dk); });
  }
  const int block = std::max(4, (8192 / std::max(dk, 1)) / 4 * 4);
  const int nb = (Tk + block - 1) / block;
  auto blocks = [&](int b0, int b1) {
    for (int b = b0; b < b1; ++b) {
      const int j0 = b * block;
      scores_block(S + j0, lds, Q, ldq, K + static_cast<std::size_t>(j0) * ldk, ldk, Tq, std::min(block, Tk - j0), dk);
    }
  };
  const int nt = 2.0 * Tq * Tk * dk < kMinParallelFlops ? 1 : std::min(threads(), nb);
  if (nt <= 1) {
    blocks(0, nb);
    return;
  }
  parallel_for(nt, [&](int t) { blocks(nb * t / nt, nb * (t + 1) / nt); });
}

float ew_f32_rmax(const float* x, int n) {
  float m = -std::numeric_limits<float>::infinity();
  int i = 0;
  if (n >= EW_VW) {
    vf vm = vload(x);
    for (i = EW_VW; i + EW_VW <= n; i += EW_VW) vm = vmax(vm, vload(x + i));
    m = vhmax(vm);
  }
  for (; i < n; ++i) m = x[i] > m ? x[i] : m;
  return m;
}

float ew_f32_raddexpminusmax(float* y, const float* x, int n, float max) {
  if (std::isinf(max) && max < 0) {  // every entry is -inf
    for (int i = 0; i < n; ++i) y[i] = 0.0f;
    return 0.0f;
  }
  const vf vmx = vsplat(max);
  vf vs = vzero();
  int i = 0;
  for (; i + EW_VW <= n; i += EW_VW) {
    const vf e = vexp(vsub(vload(x + i), vmx));
    vstore(y + i, e);
    vs = vadd(vs, e);
  }
  float sum = vhsum(vs);
  if (i < n) {  // tail through a padded vector: the same exp as the body
    alignas(64) float t[EW_VW];
    for (int l = 0; l < EW_VW; ++l) t[l] = i + l < n ? x[i + l] - max : -std::numeric_limits<float>::infinity();
    vstore(t, vexp(vload(t)));
    for (int l = 0; i + l < n; ++l) {
      y[i + l] = t[l];
      sum += t[l];
    }
  }
  return sum;
}

void ew_f32_vscale(float* y, const float* x, int n, float s) {
  const vf vsc = vsplat(s);
  int i = 0;
  for (; i + EW_VW <= n; i += EW_VW) vstore(y + i, vmul(vload(x + i), vsc));
  for (; i < n; ++i) y[i] = x[i] * s;
}

void ew_f32_softmax_row(float* scaled, float* weights, float* row_max, float* row_sum, const float* s,
                        const float* mask, int n, float scale) {
  const vf vsc = vsplat(scale);
  int i = 0;
  for (; i + EW_VW <= n; i += EW_VW) {
    vf z = vmul(vload(s + i), vsc);
    if (mask) z = vadd(z, vload(mask + i));
    vstore(scaled + i, z);
  }
  for (; i < n; ++i) scaled[i] = s[i] * scale + (mask ? mask[i] : 0.0f);
  const float m = ew_f32_rmax(scaled, n);
  const float sum = ew_f32_raddexpminusmax(weights, scaled, n, m);
  if (sum > 0.0f) ew_f32_vscale(weights, weights, n, 1.0f / sum);
  *row_max = m;
  *row_sum = sum;
}

void ew_f32_layernorm(float* y, float* mean, float* var, const float* x, const float* gamma,
                      const float* beta, int T, int C, float eps) {
  // One pass for the statistics: shifted sums Σ(x−x₀) and Σ(x−x₀)² (x₀ = the row's first
  // value keeps the subtraction s2 − s1²/C well conditioned when |mean| ≫ std).
  for (int t = 0; t < T; ++t) {
    const float* xt = x + static_cast<std::size_t>(t) * C;
    float* yt = y + static_cast<std::size_t>(t) * C;
    const float x0 = C > 0 ? xt[0] : 0.0f;
    const vf vx0 = vsplat(x0);
    vf s1v = vzero(), s2v = vzero();
    int c = 0;
    for (; c + EW_VW <= C; c += EW_VW) {
      const vf d = vsub(vload(xt + c), vx0);
      s1v = vadd(s1v, d);
      s2v = vfma(d, d, s2v);
    }
    float s1 = vhsum(s1v), s2 = vhsum(s2v);
    for (; c < C; ++c) {
      const float d = xt[c] - x0;
      s1 += d;
      s2 += d * d;
    }
    const float m1 = s1 / static_cast<float>(C);
    const float v = std::max(0.0f, s2 / static_cast<float>(C) - m1 * m1);
    const float mu = x0 + m1;
    const float inv = 1.0f / std::sqrt(v + eps);
    const vf vmu = vsplat(mu), vinv = vsplat(inv);
    for (c = 0; c + EW_VW <= C; c += EW_VW) {
      const vf n = vmul(vsub(vload(xt + c), vmu), vinv);
      vstore(yt + c, vfma(n, vload(gamma + c), vload(beta + c)));
    }
    for (; c < C; ++c) yt[c] = (xt[c] - mu) * inv * gamma[c] + beta[c];
    mean[t] = mu;
    var[t] = v;
  }
}

EW_UNFUSED void ew_f32_activate(float* y, const float* x, int n, Activation act) {
  EW_UNFUSED_BODY
  // GELUTanh and Tanh in lanes (vtanh), each lane the scalar ew_activation's operations in its
  // order: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x·x·x))), left to right as C groups it.
  int i = 0;
  if (act == Activation::GELUTanh) {
    const vf c = vsplat(0.044715f), s = vsplat(0.79788456080286536f), half = vsplat(0.5f), one = vsplat(1.0f);
    for (; i + EW_VW <= n; i += EW_VW) {
      const vf v = vload(x + i);
      const vf inner = vmul(s, vadd(v, vmul(vmul(vmul(c, v), v), v)));
      vstore(y + i, vmul(vmul(half, v), vadd(one, vtanh(inner))));
    }
  } else if (act == Activation::Tanh) {
    for (; i + EW_VW <= n; i += EW_VW) vstore(y + i, vtanh(vload(x + i)));
  }
  for (; i < n; ++i) y[i] = ew_activation(x[i], act);
}

#else  // no SIMD in this build: the references are the kernels

void ew_f32_activate(float* y, const float* x, int n, Activation act) { ew_f32_activate__scalar(y, x, n, act); }

const char* kernel_isa() { return "scalar"; }

void ew_f32_pack_b(PackedB* out, const float* B, int K, int N) {
  out->K = K;
  out->N = N;
  out->data.assign(B, B + static_cast<std::size_t>(K) * N);
}
std::size_t ew_f32_packed_floats(int K, int N) { return static_cast<std::size_t>(K) * N; }
std::size_t ew_packed_index(int, int N, int k, int j) { return static_cast<std::size_t>(k) * N + j; }
void ew_f32_gemv_packed(float* y, const float* x, const PackedB& B, const float* bias) {
  ew_f32_gemv__scalar(y, x, B.data.data(), B.N, bias, B.K, B.N);
}
void ew_h16_gemv_packed(float* y, const float* x, const std::uint16_t* P, int K, int N, Half t, const float* bias) {
  ew_h16_gemv__scalar(y, x, P, N, t, bias, K, N);
}
void ew_h16_matmul_packed(float* C, int ldc, const float* A, int lda, const std::uint16_t* P, int K, int N, Half t,
                          const float* bias, int M, Activation act, float* C_act) {
  ew_h16_matmul__scalar(C, ldc, A, lda, P, N, t, bias, M, K, N, C_act ? Activation::None : act);
  if (C_act)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        C_act[static_cast<std::size_t>(i) * ldc + j] = ew_activation(C[static_cast<std::size_t>(i) * ldc + j], act);
}
void ew_f32_matmul_packed(float* C, int ldc, const float* A, int lda, const PackedB& B, const float* bias,
                          int M, Activation act, float* C_act) {
  ew_f32_matmul__scalar(C, ldc, A, lda, B.data.data(), B.N, bias, M, B.K, B.N,
                        C_act ? Activation::None : act);
  if (C_act)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < B.N; ++j)
        C_act[static_cast<std::size_t>(i) * ldc + j] = ew_activation(C[static_cast<std::size_t>(i) * ldc + j], act);
}
void ew_f32_matmul(float* C, int ldc, const float* A, int lda, const float* B, int ldb, const float* bias,
                   int M, int K, int N, Activation act) {
  ew_f32_matmul__scalar(C, ldc, A, lda, B, ldb, bias, M, K, N, act);
}
void ew_h16_widen(float* out, const std::uint16_t* in, std::size_t n, Half t) { ew_h16_widen__scalar(out, in, n, t); }
void ew_h16_matmul(float* C, int ldc, const float* A, int lda, const std::uint16_t* B, int ldb, Half t,
                   const float* bias, int M, int K, int N, Activation act) {
  ew_h16_matmul__scalar(C, ldc, A, lda, B, ldb, t, bias, M, K, N, act);
}
void ew_f32_gemv(float* y, const float* x, const float* B, int ldb, const float* bias, int K, int N) {
  ew_f32_gemv__scalar(y, x, B, ldb, bias, K, N);
}
void ew_h16_gemv(float* y, const float* x, const std::uint16_t* B, int ldb, Half t, const float* bias, int K, int N) {
  ew_h16_gemv__scalar(y, x, B, ldb, t, bias, K, N);
}
void ew_f32_scores(float* S, int lds, const float* Q, int ldq, const float* K, int ldk, int Tq, int Tk,
                   int dk) {
  ew_f32_scores__scalar(S, lds, Q, ldq, K, ldk, Tq, Tk, dk);
}
float ew_f32_rmax(const float* x, int n) { return ew_f32_rmax__scalar(x, n); }
float ew_f32_raddexpminusmax(float* y, const float* x, int n, float max) {
  return ew_f32_raddexpminusmax__scalar(y, x, n, max);
}
void ew_f32_vscale(float* y, const float* x, int n, float s) { ew_f32_vscale__scalar(y, x, n, s); }
void ew_f32_softmax_row(float* scaled, float* weights, float* row_max, float* row_sum, const float* s,
                        const float* mask, int n, float scale) {
  ew_f32_softmax_row__scalar(scaled, weights, row_max, row_sum, s, mask, n, scale);
}
void ew_f32_layernorm(float* y, float* mean, float* var, const float* x, const float* gamma,
                      const float* beta, int T, int C, float eps) {
  ew_f32_layernorm__scalar(y, mean, var, x, gamma, beta, T, C, eps);
}

#endif

// ---- packed weights built and read piece by piece (either layout, through ew_packed_index) ----
namespace {
template <class T>
void pack_rows(T* P, int K, int N, const T* rows, int ld, int k0, int nk) {
  for (int k = 0; k < nk; ++k) {
    const T* src = rows + static_cast<std::size_t>(k) * ld;
    for (int j = 0; j < N; ++j) P[ew_packed_index(K, N, k0 + k, j)] = src[j];
  }
}
template <class T>
void pack_cols(T* P, int K, int N, const T* rows, int ld, int j0, int nj) {
  for (int j = 0; j < nj; ++j) {
    const T* src = rows + static_cast<std::size_t>(j) * ld;
    for (int k = 0; k < K; ++k) P[ew_packed_index(K, N, k, j0 + j)] = src[k];
  }
}
template <class T, class Widen>
void unpack(const T* P, int K, int N, std::size_t first, std::size_t n, float* out, const Widen& widen) {
  if (N <= 0) return;
  const std::size_t n_cols = static_cast<std::size_t>(N);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t at = first + i;
    out[i] = widen(P[ew_packed_index(K, N, static_cast<int>(at / n_cols), static_cast<int>(at % n_cols))]);
  }
}
}  // namespace

void ew_f32_pack_b_init(PackedB* out, int K, int N) {
  out->K = K;
  out->N = N;
  out->data.assign(ew_f32_packed_floats(K, N), 0.0f);
}
void ew_f32_pack_b_rows(PackedB* out, const float* rows, int ld, int k0, int nk) {
  pack_rows(out->data.data(), out->K, out->N, rows, ld, k0, nk);
}
void ew_f32_pack_bt_rows(PackedB* out, const float* rows, int ld, int j0, int nj) {
  pack_cols(out->data.data(), out->K, out->N, rows, ld, j0, nj);
}
void ew_f32_unpack_b(const PackedB& B, std::size_t first, std::size_t n, float* out) {
  unpack(B.data.data(), B.K, B.N, first, n, out, [](float v) { return v; });
}
void ew_f32_packed_set(PackedB* B, std::size_t i, float v) {
  const std::size_t N = static_cast<std::size_t>(B->N);
  B->data[ew_packed_index(B->K, B->N, static_cast<int>(i / N), static_cast<int>(i % N))] = v;
}
void ew_h16_pack_b_rows(std::uint16_t* P, int K, int N, const std::uint16_t* rows, int ld, int k0, int nk) {
  pack_rows(P, K, N, rows, ld, k0, nk);
}
void ew_h16_pack_bt_rows(std::uint16_t* P, int K, int N, const std::uint16_t* rows, int ld, int j0, int nj) {
  pack_cols(P, K, N, rows, ld, j0, nj);
}
void ew_h16_unpack_b(const std::uint16_t* P, int K, int N, Half t, std::size_t first, std::size_t n, float* out) {
  unpack(P, K, N, first, n, out, [t](std::uint16_t v) { return ew_half_to_f32(v, t); });
}

// ---- transposed matmuls (kernels.h): appended here, separate from the matmul above --------
#if EW_SIMD
namespace {

// out[j] (+)= (Σ lanes of a_j) + tail[j], j = 0…3: four horizontal sums at once (a 4×4
// transpose and adds instead of four separate reductions).
#if defined(__wasm_simd128__)
inline void hsum4_store(float* out, v128_t a0, v128_t a1, v128_t a2, v128_t a3, const float* tail, bool accumulate) {
  const v128_t u = wasm_f32x4_add(wasm_i32x4_shuffle(a0, a1, 0, 4, 1, 5), wasm_i32x4_shuffle(a0, a1, 2, 6, 3, 7));
  const v128_t w = wasm_f32x4_add(wasm_i32x4_shuffle(a2, a3, 0, 4, 1, 5), wasm_i32x4_shuffle(a2, a3, 2, 6, 3, 7));
  v128_t r = wasm_f32x4_add(wasm_i32x4_shuffle(u, w, 0, 1, 4, 5), wasm_i32x4_shuffle(u, w, 2, 3, 6, 7));
  r = wasm_f32x4_add(r, wasm_v128_load(tail));
  if (accumulate) r = wasm_f32x4_add(r, wasm_v128_load(out));
  wasm_v128_store(out, r);
}
#else
inline void hsum4_store_128(float* out, __m128 a0, __m128 a1, __m128 a2, __m128 a3, const float* tail, bool accumulate) {
  _MM_TRANSPOSE4_PS(a0, a1, a2, a3);
  __m128 r = _mm_add_ps(_mm_add_ps(a0, a1), _mm_add_ps(a2, a3));
  r = _mm_add_ps(r, _mm_loadu_ps(tail));
  if (accumulate) r = _mm_add_ps(r, _mm_loadu_ps(out));
  _mm_storeu_ps(out, r);
}
#if defined(__AVX2__) && defined(__FMA__)
inline __m128 halves(__m256 a) { return _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1)); }
inline void hsum4_store(float* out, __m256 a0, __m256 a1, __m256 a2, __m256 a3, const float* tail, bool accumulate) {
  hsum4_store_128(out, halves(a0), halves(a1), halves(a2), halves(a3), tail, accumulate);
}
#else
inline void hsum4_store(float* out, __m128 a0, __m128 a1, __m128 a2, __m128 a3, const float* tail, bool accumulate) {
  hsum4_store_128(out, a0, a1, a2, a3, tail, accumulate);
}
#endif
#endif

// nt tile: R rows of A × J rows of B, dot products over K in vectors (R·J accumulators,
// at most 2×4 = 8: fits V8's registers), reduced horizontally (four at once when J = 4);
// the K % EW_VW tail is scalar.
template <int R, int J>
inline void nt_tile(float* C, int ldc, const float* A, int lda, const float* B, int ldb, int K, bool accumulate) {
  using namespace ew::simd;
  const int kv = K - K % EW_VW;
  vf acc[R][J];
  for (int r = 0; r < R; ++r)
    for (int j = 0; j < J; ++j) acc[r][j] = vzero();
  for (int k = 0; k < kv; k += EW_VW) {
    vf b[J];
    for (int j = 0; j < J; ++j) b[j] = vload(B + static_cast<std::size_t>(j) * ldb + k);
    for (int r = 0; r < R; ++r) {
      const vf a = vload(A + static_cast<std::size_t>(r) * lda + k);
      for (int j = 0; j < J; ++j) acc[r][j] = vfma(a, b[j], acc[r][j]);
    }
  }
  if constexpr (J == 4) {
    for (int r = 0; r < R; ++r) {
      const float* a = A + static_cast<std::size_t>(r) * lda;
      float tail[4] = {0.0f, 0.0f, 0.0f, 0.0f};
      for (int j = 0; j < 4; ++j)
        for (int k = kv; k < K; ++k) tail[j] += a[k] * B[static_cast<std::size_t>(j) * ldb + k];
      hsum4_store(C + static_cast<std::size_t>(r) * ldc, acc[r][0], acc[r][1], acc[r][2], acc[r][3], tail, accumulate);
    }
    return;
  }
  for (int r = 0; r < R; ++r)
    for (int j = 0; j < J; ++j) {
      const float* a = A + static_cast<std::size_t>(r) * lda;
      const float* b = B + static_cast<std::size_t>(j) * ldb;
      float s = vhsum(acc[r][j]);
      for (int k = kv; k < K; ++k) s += a[k] * b[k];
      float& c = C[static_cast<std::size_t>(r) * ldc + j];
      c = accumulate ? c + s : s;
    }
}

template <int R>
inline void nt_rows(float* C, int ldc, const float* A, int lda, const float* B, int ldb, int K, int N, bool acc) {
  int j = 0;
  for (; j + 4 <= N; j += 4) nt_tile<R, 4>(C + j, ldc, A, lda, B + static_cast<std::size_t>(j) * ldb, ldb, K, acc);
  for (; j < N; ++j) nt_tile<R, 1>(C + j, ldc, A, lda, B + static_cast<std::size_t>(j) * ldb, ldb, K, acc);
}

// tn tile: R rows × V vectors of C, summed over K as rank-1 updates: R broadcasts of A's
// row k (A[k, i0..i0+R)) times V vectors of B's row k (R·V ≤ 8 accumulators).
template <int R, int V>
inline void tn_tile(float* C, int ldc, const float* A, int lda, const float* B, int ldb, int K, bool accumulate) {
  using namespace ew::simd;
  vf acc[R][V];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v)
      acc[r][v] = accumulate ? vload(C + static_cast<std::size_t>(r) * ldc + v * EW_VW) : vzero();
  for (int k = 0; k < K; ++k) {
    const float* a = A + static_cast<std::size_t>(k) * lda;
    const float* b = B + static_cast<std::size_t>(k) * ldb;
    vf bv[V];
    for (int v = 0; v < V; ++v) bv[v] = vload(b + v * EW_VW);
    for (int r = 0; r < R; ++r) {
      const vf ar = vsplat(a[r]);
      for (int v = 0; v < V; ++v) acc[r][v] = vfma(ar, bv[v], acc[r][v]);
    }
  }
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v) vstore(C + static_cast<std::size_t>(r) * ldc + v * EW_VW, acc[r][v]);
}

template <int V>
inline void tn_cols(float* C, int ldc, const float* A, int lda, const float* B, int ldb, int M, int K, bool acc) {
  int i = 0;
  for (; i + 4 <= M; i += 4) tn_tile<4, V>(C + static_cast<std::size_t>(i) * ldc, ldc, A + i, lda, B, ldb, K, acc);
  for (; i < M; ++i) tn_tile<1, V>(C + static_cast<std::size_t>(i) * ldc, ldc, A + i, lda, B, ldb, K, acc);
}

// Division, |a| and copysign, per ISA (simd.h has none of them).
#if defined(__wasm_simd128__)
inline ew::simd::vf vdiv(ew::simd::vf a, ew::simd::vf b) { return wasm_f32x4_div(a, b); }
inline ew::simd::vf vabs(ew::simd::vf a) { return wasm_f32x4_abs(a); }
inline ew::simd::vf vsign_of(ew::simd::vf a) { return wasm_v128_and(a, wasm_f32x4_splat(-0.0f)); }
inline ew::simd::vf vor(ew::simd::vf a, ew::simd::vf b) { return wasm_v128_or(a, b); }
#elif defined(__AVX2__) && defined(__FMA__)
inline __m256 vdiv(__m256 a, __m256 b) { return _mm256_div_ps(a, b); }
inline __m256 vabs(__m256 a) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a); }
inline __m256 vsign_of(__m256 a) { return _mm256_and_ps(a, _mm256_set1_ps(-0.0f)); }
inline __m256 vor(__m256 a, __m256 b) { return _mm256_or_ps(a, b); }
#else
inline __m128 vdiv(__m128 a, __m128 b) { return _mm_div_ps(a, b); }
inline __m128 vabs(__m128 a) { return _mm_andnot_ps(_mm_set1_ps(-0.0f), a); }
inline __m128 vsign_of(__m128 a) { return _mm_and_ps(a, _mm_set1_ps(-0.0f)); }
inline __m128 vor(__m128 a, __m128 b) { return _mm_or_ps(a, b); }
#endif

// GELU and its derivative for one vector: z = x/√2, erf(|z|) = 1 − t·P(t)·e^{−z²} with
// t = 1/(1 + p|z|) (A&S 7.1.26), and φ(x) = e^{−z²}/√(2π) reuses the same exp.
inline void gelu_grad_v(float* y, float* dydx, const float* x) {
  using namespace ew::simd;
  const vf v = vload(x);
  const vf az = vabs(vmul(v, vsplat(0.70710678118654752f)));
  const vf t = vdiv(vsplat(1.0f), vfma(az, vsplat(0.3275911f), vsplat(1.0f)));
  vf p = vsplat(1.061405429f);
  p = vfma(p, t, vsplat(-1.453152027f));
  p = vfma(p, t, vsplat(1.421413741f));
  p = vfma(p, t, vsplat(-0.284496736f));
  p = vfma(p, t, vsplat(0.254829592f));
  const vf e = vexp(vmul(vmul(az, az), vsplat(-1.0f)));
  const vf erf_abs = vsub(vsplat(1.0f), vmul(vmul(p, t), e));
  const vf cdf = vmul(vsplat(0.5f), vadd(vsplat(1.0f), vor(erf_abs, vsign_of(v))));
  vstore(y, vmul(v, cdf));
  vstore(dydx, vfma(vmul(v, vsplat(0.39894228040143268f)), e, cdf));
}

}  // namespace

void ew_f32_gelu_grad(float* y, float* dydx, const float* x, int n) {
  using ew::simd::EW_VW;
  int i = 0;
  for (; i + EW_VW <= n; i += EW_VW) gelu_grad_v(y + i, dydx + i, x + i);
  if (i < n) {  // the tail through a padded vector, so every element gets the same arithmetic
    alignas(32) float xs[EW_VW] = {}, ys[EW_VW], ds[EW_VW];
    for (int k = i; k < n; ++k) xs[k - i] = x[k];
    gelu_grad_v(ys, ds, xs);
    for (int k = i; k < n; ++k) y[k] = ys[k - i], dydx[k] = ds[k - i];
  }
}

void ew_f32_matmul_nt(float* C, int ldc, const float* A, int lda, const float* B, int ldb, int M, int K, int N,
                      bool accumulate) {
  int i = 0;
  for (; i + 2 <= M; i += 2)
    nt_rows<2>(C + static_cast<std::size_t>(i) * ldc, ldc, A + static_cast<std::size_t>(i) * lda, lda, B, ldb, K, N,
               accumulate);
  if (i < M)
    nt_rows<1>(C + static_cast<std::size_t>(i) * ldc, ldc, A + static_cast<std::size_t>(i) * lda, lda, B, ldb, K, N,
               accumulate);
}

void ew_f32_matmul_tn(float* C, int ldc, const float* A, int lda, const float* B, int ldb, int M, int K, int N,
                      bool accumulate) {
  using ew::simd::EW_VW;
  int j = 0;
  for (; j + 2 * EW_VW <= N; j += 2 * EW_VW) tn_cols<2>(C + j, ldc, A, lda, B + j, ldb, M, K, accumulate);
  for (; j + EW_VW <= N; j += EW_VW) tn_cols<1>(C + j, ldc, A, lda, B + j, ldb, M, K, accumulate);
  if (j < N) ew_f32_matmul_tn__scalar(C + j, ldc, A, lda, B + j, ldb, M, K, N - j, accumulate);
}

#else  // no SIMD: the references are the kernels

void ew_f32_gelu_grad(float* y, float* dydx, const float* x, int n) { ew_f32_gelu_grad__scalar(y, dydx, x, n); }
void ew_f32_matmul_nt(float* C, int ldc, const float* A, int lda, const float* B, int ldb, int M, int K, int N,
                      bool accumulate) {
  ew_f32_matmul_nt__scalar(C, ldc, A, lda, B, ldb, M, K, N, accumulate);
}
void ew_f32_matmul_tn(float* C, int ldc, const float* A, int lda, const float* B, int ldb, int M, int K, int N,
                      bool accumulate) {
  ew_f32_matmul_tn__scalar(C, ldc, A, lda, B, ldb, M, K, N, accumulate);
}

#endif

// ---- 16-bit B for the transposed product and the scores: B's rows widened a block at a time
// into a per-thread buffer, then the float32 kernel on the block. Both float32 kernels compute
// each output from one row of B in groups of 4 rows, so blocks of a multiple of 4 rows give the
// same instruction sequence per output: bit for bit the float32 kernel on the widened B.
namespace {
std::vector<float>& h16_rows_buffer() {
  static thread_local std::vector<float> buf;
  return buf;
}
// Rows r0..r0+n of B (row stride ldb, K values used per row) widened into buf (n×K).
const float* widen_rows(const std::uint16_t* B, int ldb, Half t, int r0, int n, int K) {
  std::vector<float>& buf = h16_rows_buffer();
  const std::size_t need = static_cast<std::size_t>(n) * K;
  if (buf.size() < need) buf.resize(need);
  for (int r = 0; r < n; ++r)
    ew_h16_widen(buf.data() + static_cast<std::size_t>(r) * K, B + static_cast<std::size_t>(r0 + r) * ldb, static_cast<std::size_t>(K), t);
  return buf.data();
}
int h16_block_rows(int K) { return std::max(4, (16384 / std::max(K, 1)) / 4 * 4); }  // ≈ 64 KiB of floats
}  // namespace

void ew_h16_matmul_nt(float* C, int ldc, const float* A, int lda, const std::uint16_t* B, int ldb, Half t, int M,
                      int K, int N, bool accumulate) {
  const int block = h16_block_rows(K);
  for (int j0 = 0; j0 < N; j0 += block) {
    const int n = std::min(block, N - j0);
    ew_f32_matmul_nt(C + j0, ldc, A, lda, widen_rows(B, ldb, t, j0, n, K), K, M, K, n, accumulate);
  }
}

void ew_h16_scores(float* S, int lds, const float* Q, int ldq, const std::uint16_t* K, int ldk, Half t, int Tq,
                   int Tk, int dk) {
#if EW_SIMD
  if (Tq == 1) {  // a decoded token's head: each key's 16-bit row widened in registers (no widened copy)
    const int dv = dk - dk % EW_VW;
    auto tail = [&](const float* q, const std::uint16_t* k) {
      float w[EW_VW];  // the key's last dk − dv values, widened (fewer than EW_VW)
      for (int c = dv; c < dk; ++c) w[c - dv] = ew_half_to_f32(k[c], t);
      return dot_tail(q + dv, w, 0, dk - dv);
    };
    if (t == Half::BF16)
      return one_query_scores(S, Q, K, ldk, Tk, dk, [](const std::uint16_t* p) { return vload_bf16(p); }, tail);
    return one_query_scores(S, Q, K, ldk, Tk, dk, [](const std::uint16_t* p) { return vload_f16_finite(p); }, tail);
  }
#endif
  // With more than one thread (pool.h) each takes a contiguous range of the blocks (the float32
  // kernel inside a task runs serially).
  const int block = h16_block_rows(dk);
  const int nb = (Tk + block - 1) / block;
  auto blocks = [&](int b0, int b1) {
    for (int b = b0; b < b1; ++b) {
      const int j0 = b * block, n = std::min(block, Tk - j0);
      ew_f32_scores(S + j0, lds, Q, ldq, widen_rows(K, ldk, t, j0, n, dk), dk, Tq, n, dk);
    }
  };
  const int nt = 2.0 * Tq * Tk * dk < static_cast<double>(1 << 21) ? 1 : std::min(threads(), nb);
  if (nt <= 1) {
    blocks(0, nb);
    return;
  }
  parallel_for(nt, [&](int th) { blocks(nb * th / nt, nb * (th + 1) / nt); });
}

}  // namespace ew
