// simd.h — the few vector operations the SIMD kernels need, over one register type `vf`
// of EW_VW float lanes, chosen at compile time (ggml's "simd mappings", XNNPACK's per-ISA
// microkernels written once):
//   WebAssembly SIMD128 (Emscripten, -msimd128)   vf = v128_t,  4 lanes
//     + relaxed SIMD (clang-19, -mrelaxed-simd)    the same, vfma fused (f32x4.relaxed_madd)
//   x86 AVX2 + FMA (-march with both)              vf = __m256,  8 lanes
//   x86 SSE2 (+ FMA when present)                  vf = __m128,  4 lanes
// EW_SIMD is 0 when none applies or the build asks for scalar kernels (EW_SCALAR);
// then nothing below is defined and kernels_simd.cpp falls back to the references.
// Internal to core/: included only by kernels_*.cpp.
#pragma once
#include <cstdint>

// EW_UNFUSED marks a function in which the compiler fuses no a·b + c of its own accord (by
// default GCC does wherever the target has FMA, clang within one expression): ew_tanhf and its
// SIMD lanes (vtanh) must round every product and sum alike to agree bit for bit. With clang, a
// function so marked starts its body with EW_UNFUSED_BODY.
#if defined(__clang__)
#define EW_UNFUSED
#define EW_UNFUSED_BODY _Pragma("clang fp contract(off)")
#elif defined(__GNUC__)
#define EW_UNFUSED __attribute__((optimize("fp-contract=off")))
#define EW_UNFUSED_BODY
#else
#define EW_UNFUSED
#define EW_UNFUSED_BODY
#endif

#if defined(EW_SCALAR)
#define EW_SIMD 0
#elif defined(__wasm_simd128__) && defined(__wasm_relaxed_simd__)
#define EW_SIMD 1
#define EW_ISA_NAME "wasmrelaxed"
#include <wasm_simd128.h>
#elif defined(__wasm_simd128__)
#define EW_SIMD 1
#define EW_ISA_NAME "wasmsimd"
#include <wasm_simd128.h>
#elif defined(__AVX2__) && defined(__FMA__)
#define EW_SIMD 1
#define EW_ISA_NAME "avx2"
#include <immintrin.h>
#elif defined(__SSE2__)
#define EW_SIMD 1
#define EW_ISA_NAME "sse2"
#include <immintrin.h>
#else
#define EW_SIMD 0
#endif

#if EW_SIMD
namespace ew::simd {

#if defined(__wasm_simd128__)
constexpr int EW_VW = 4;
using vf = v128_t;
using vi = v128_t;
inline vf vload(const float* p) { return wasm_v128_load(p); }
inline void vstore(float* p, vf v) { wasm_v128_store(p, v); }
inline vf vsplat(float x) { return wasm_f32x4_splat(x); }
inline vf vzero() { return wasm_f32x4_splat(0.0f); }
inline vf vadd(vf a, vf b) { return wasm_f32x4_add(a, b); }
inline vf vsub(vf a, vf b) { return wasm_f32x4_sub(a, b); }
inline vf vmul(vf a, vf b) { return wasm_f32x4_mul(a, b); }
#if defined(__wasm_relaxed_simd__)
// a·b + c, fused where the CPU has FMA (x64 FMA3, arm64) and unfused elsewhere: relaxed
// SIMD leaves the choice to the engine, so results may differ from mul+add in the last bit.
inline vf vfma(vf a, vf b, vf c) { return wasm_f32x4_relaxed_madd(a, b, c); }
#else
inline vf vfma(vf a, vf b, vf c) { return wasm_f32x4_add(wasm_f32x4_mul(a, b), c); }  // a·b + c
#endif
inline vf vmax(vf a, vf b) { return wasm_f32x4_pmax(a, b); }
inline vf vmin(vf a, vf b) { return wasm_f32x4_pmin(a, b); }
inline vf vround(vf a) { return wasm_f32x4_nearest(a); }
inline vi vcvt_i(vf a) { return wasm_i32x4_trunc_sat_f32x4(a); }  // a already integral
inline vi vshl23(vi a) { return wasm_i32x4_shl(a, 23); }
inline vi viadd(vi a, int b) { return wasm_i32x4_add(a, wasm_i32x4_splat(b)); }
inline vf vas_f(vi a) { return a; }
// For vtanh: division, bitwise logic on float lanes, masks (all ones where true) and selects.
inline vf vdiv(vf a, vf b) { return wasm_f32x4_div(a, b); }
inline vf vand(vf a, vf b) { return wasm_v128_and(a, b); }
inline vf vxor(vf a, vf b) { return wasm_v128_xor(a, b); }
inline vf vbits_gt(vf a, unsigned c) { return wasm_i32x4_gt(a, wasm_i32x4_splat(static_cast<int>(c))); }  // as int32
inline vf vlt(vf a, vf b) { return wasm_f32x4_lt(a, b); }
inline vf veq(vf a, vf b) { return wasm_f32x4_eq(a, b); }
inline vf vsel(vf m, vf a, vf b) { return wasm_v128_bitselect(a, b, m); }  // m ? a : b
inline vi vtrunc_i(vf a) { return wasm_i32x4_trunc_sat_f32x4(a); }        // C's float → int
inline vf vcvt_f(vi a) { return wasm_f32x4_convert_i32x4(a); }
inline vf vmask(unsigned bits) { return wasm_i32x4_splat(static_cast<int>(bits)); }
// EW_VW 16-bit values widened to float32, exactly (kernels.h, ew_half_to_f32). F16: the 15 bits
// below the sign shifted into float32's place and scaled by 2¹¹² (exact for normals and
// subnormals alike), ±inf/NaN (≥ 2¹⁶ after scaling) given float32's all-ones exponent.
inline vf vload_bf16(const std::uint16_t* p) { return wasm_i32x4_shl(wasm_u32x4_load16x4(p), 16); }
inline vf vload_f16(const std::uint16_t* p) {
  const v128_t h = wasm_u32x4_load16x4(p);
  const v128_t sign = wasm_i32x4_shl(wasm_v128_and(h, wasm_i32x4_splat(0x8000)), 16);
  const v128_t f = wasm_f32x4_mul(wasm_i32x4_shl(wasm_v128_and(h, wasm_i32x4_splat(0x7FFF)), 13), wasm_f32x4_splat(0x1p112f));
  const v128_t inf = wasm_v128_and(wasm_f32x4_ge(f, wasm_f32x4_splat(65536.0f)), wasm_i32x4_splat(0x7F800000));
  return wasm_v128_or(wasm_v128_or(f, inf), sign);
}
// A finite F16 value — every weight and table the loader keeps (it refuses ±inf and NaN,
// io/checkpoint.cpp) — in four operations instead of ten: sign-extended and shifted so that
// exponent and mantissa sit in float32's place and the sign on top, the sign's copies between
// them masked off, scaled by 2¹¹². Exactly vload_f16 for every finite value (test_kernels_h16:
// all 63,488 of them); ±inf and NaN come out finite, so only the products read through it.
inline vf vload_f16_finite(const std::uint16_t* p) {
  const v128_t s = wasm_i32x4_shl(wasm_i32x4_load16x4(p), 13);
  return wasm_f32x4_mul(wasm_v128_and(s, wasm_i32x4_splat(static_cast<int>(0x8FFFFFFFu))), wasm_f32x4_splat(0x1p112f));
}
inline vf vlt_zero_select(vf x, float lo, vf y) {  // x < lo ? 0 : y
  return wasm_v128_andnot(y, wasm_f32x4_lt(x, wasm_f32x4_splat(lo)));
}
inline float vhsum(vf v) {
  return (wasm_f32x4_extract_lane(v, 0) + wasm_f32x4_extract_lane(v, 1)) +
         (wasm_f32x4_extract_lane(v, 2) + wasm_f32x4_extract_lane(v, 3));
}
inline float vhmax(vf v) {
  vf m = wasm_f32x4_pmax(v, wasm_i32x4_shuffle(v, v, 2, 3, 0, 1));
  m = wasm_f32x4_pmax(m, wasm_i32x4_shuffle(m, m, 1, 0, 3, 2));
  return wasm_f32x4_extract_lane(m, 0);
}

#elif defined(__AVX2__) && defined(__FMA__)
constexpr int EW_VW = 8;
using vf = __m256;
using vi = __m256i;
inline vf vload(const float* p) { return _mm256_loadu_ps(p); }
inline void vstore(float* p, vf v) { _mm256_storeu_ps(p, v); }
inline vf vsplat(float x) { return _mm256_set1_ps(x); }
inline vf vzero() { return _mm256_setzero_ps(); }
inline vf vadd(vf a, vf b) { return _mm256_add_ps(a, b); }
inline vf vsub(vf a, vf b) { return _mm256_sub_ps(a, b); }
inline vf vmul(vf a, vf b) { return _mm256_mul_ps(a, b); }
inline vf vfma(vf a, vf b, vf c) { return _mm256_fmadd_ps(a, b, c); }
inline vf vmax(vf a, vf b) { return _mm256_max_ps(a, b); }
inline vf vmin(vf a, vf b) { return _mm256_min_ps(a, b); }
inline vf vround(vf a) { return _mm256_round_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
inline vi vcvt_i(vf a) { return _mm256_cvtps_epi32(a); }
inline vi vshl23(vi a) { return _mm256_slli_epi32(a, 23); }
inline vi viadd(vi a, int b) { return _mm256_add_epi32(a, _mm256_set1_epi32(b)); }
inline vf vas_f(vi a) { return _mm256_castsi256_ps(a); }
inline vf vdiv(vf a, vf b) { return _mm256_div_ps(a, b); }
inline vf vand(vf a, vf b) { return _mm256_and_ps(a, b); }
inline vf vxor(vf a, vf b) { return _mm256_xor_ps(a, b); }
inline vf vbits_gt(vf a, unsigned c) {
  return _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_castps_si256(a), _mm256_set1_epi32(static_cast<int>(c))));
}
inline vf vlt(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
inline vf veq(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_EQ_OQ); }
inline vf vsel(vf m, vf a, vf b) { return _mm256_blendv_ps(b, a, m); }
inline vi vtrunc_i(vf a) { return _mm256_cvttps_epi32(a); }
inline vf vcvt_f(vi a) { return _mm256_cvtepi32_ps(a); }
inline vf vmask(unsigned bits) { return _mm256_castsi256_ps(_mm256_set1_epi32(static_cast<int>(bits))); }
inline vf vload_bf16(const std::uint16_t* p) {
  return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))), 16));
}
inline vf vload_f16(const std::uint16_t* p) {
  const __m256i h = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  const __m256i sign = _mm256_slli_epi32(_mm256_and_si256(h, _mm256_set1_epi32(0x8000)), 16);
  const __m256 f = _mm256_mul_ps(_mm256_castsi256_ps(_mm256_slli_epi32(_mm256_and_si256(h, _mm256_set1_epi32(0x7FFF)), 13)),
                                 _mm256_set1_ps(0x1p112f));
  const __m256 inf = _mm256_and_ps(_mm256_cmp_ps(f, _mm256_set1_ps(65536.0f), _CMP_GE_OQ),
                                   _mm256_castsi256_ps(_mm256_set1_epi32(0x7F800000)));
  return _mm256_or_ps(_mm256_or_ps(f, inf), _mm256_castsi256_ps(sign));
}
inline vf vload_f16_finite(const std::uint16_t* p) {  // as the wasm one's
  const __m256i s = _mm256_slli_epi32(_mm256_cvtepi16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))), 13);
  return _mm256_mul_ps(_mm256_castsi256_ps(_mm256_and_si256(s, _mm256_set1_epi32(static_cast<int>(0x8FFFFFFFu)))),
                       _mm256_set1_ps(0x1p112f));
}
inline vf vlt_zero_select(vf x, float lo, vf y) {
  return _mm256_andnot_ps(_mm256_cmp_ps(x, _mm256_set1_ps(lo), _CMP_LT_OQ), y);
}
inline float vhsum(vf v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
  return _mm_cvtss_f32(s);
}
inline float vhmax(vf v) {
  __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  m = _mm_max_ps(m, _mm_movehl_ps(m, m));
  m = _mm_max_ss(m, _mm_shuffle_ps(m, m, 1));
  return _mm_cvtss_f32(m);
}

#else  // SSE2
constexpr int EW_VW = 4;
using vf = __m128;
using vi = __m128i;
inline vf vload(const float* p) { return _mm_loadu_ps(p); }
inline void vstore(float* p, vf v) { _mm_storeu_ps(p, v); }
inline vf vsplat(float x) { return _mm_set1_ps(x); }
inline vf vzero() { return _mm_setzero_ps(); }
inline vf vadd(vf a, vf b) { return _mm_add_ps(a, b); }
inline vf vsub(vf a, vf b) { return _mm_sub_ps(a, b); }
inline vf vmul(vf a, vf b) { return _mm_mul_ps(a, b); }
#if defined(__FMA__)
inline vf vfma(vf a, vf b, vf c) { return _mm_fmadd_ps(a, b, c); }
#else
inline vf vfma(vf a, vf b, vf c) { return _mm_add_ps(_mm_mul_ps(a, b), c); }
#endif
inline vf vmax(vf a, vf b) { return _mm_max_ps(a, b); }
inline vf vmin(vf a, vf b) { return _mm_min_ps(a, b); }
inline vi vcvt_i(vf a) { return _mm_cvtps_epi32(a); }  // rounds to nearest (MXCSR default)
inline vf vround(vf a) { return _mm_cvtepi32_ps(_mm_cvtps_epi32(a)); }
inline vi vshl23(vi a) { return _mm_slli_epi32(a, 23); }
inline vi viadd(vi a, int b) { return _mm_add_epi32(a, _mm_set1_epi32(b)); }
inline vf vas_f(vi a) { return _mm_castsi128_ps(a); }
inline vf vdiv(vf a, vf b) { return _mm_div_ps(a, b); }
inline vf vand(vf a, vf b) { return _mm_and_ps(a, b); }
inline vf vxor(vf a, vf b) { return _mm_xor_ps(a, b); }
inline vf vbits_gt(vf a, unsigned c) {
  return _mm_castsi128_ps(_mm_cmpgt_epi32(_mm_castps_si128(a), _mm_set1_epi32(static_cast<int>(c))));
}
inline vf vlt(vf a, vf b) { return _mm_cmplt_ps(a, b); }
inline vf veq(vf a, vf b) { return _mm_cmpeq_ps(a, b); }
inline vf vsel(vf m, vf a, vf b) { return _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b)); }
inline vi vtrunc_i(vf a) { return _mm_cvttps_epi32(a); }
inline vf vcvt_f(vi a) { return _mm_cvtepi32_ps(a); }
inline vf vmask(unsigned bits) { return _mm_castsi128_ps(_mm_set1_epi32(static_cast<int>(bits))); }
inline __m128i vload_u16x4(const std::uint16_t* p) {  // zero-extended to 32 bits
  return _mm_unpacklo_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)), _mm_setzero_si128());
}
inline vf vload_bf16(const std::uint16_t* p) { return _mm_castsi128_ps(_mm_slli_epi32(vload_u16x4(p), 16)); }
inline vf vload_f16(const std::uint16_t* p) {
  const __m128i h = vload_u16x4(p);
  const __m128i sign = _mm_slli_epi32(_mm_and_si128(h, _mm_set1_epi32(0x8000)), 16);
  const __m128 f = _mm_mul_ps(_mm_castsi128_ps(_mm_slli_epi32(_mm_and_si128(h, _mm_set1_epi32(0x7FFF)), 13)),
                              _mm_set1_ps(0x1p112f));
  const __m128 inf = _mm_and_ps(_mm_cmpge_ps(f, _mm_set1_ps(65536.0f)), _mm_castsi128_ps(_mm_set1_epi32(0x7F800000)));
  return _mm_or_ps(_mm_or_ps(f, inf), _mm_castsi128_ps(sign));
}
inline vf vload_f16_finite(const std::uint16_t* p) {  // as the wasm one's: h in the top half, shifted down arithmetically
  const __m128i s = _mm_srai_epi32(_mm_unpacklo_epi16(_mm_setzero_si128(), _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))), 3);
  return _mm_mul_ps(_mm_castsi128_ps(_mm_and_si128(s, _mm_set1_epi32(static_cast<int>(0x8FFFFFFFu)))), _mm_set1_ps(0x1p112f));
}
inline vf vlt_zero_select(vf x, float lo, vf y) { return _mm_andnot_ps(_mm_cmplt_ps(x, _mm_set1_ps(lo)), y); }
inline float vhsum(vf v) {
  __m128 s = _mm_add_ps(v, _mm_movehl_ps(v, v));
  s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
  return _mm_cvtss_f32(s);
}
inline float vhmax(vf v) {
  __m128 m = _mm_max_ps(v, _mm_movehl_ps(v, v));
  m = _mm_max_ss(m, _mm_shuffle_ps(m, m, 1));
  return _mm_cvtss_f32(m);
}
#endif

// exp(x) for x <= 0 (softmax after max subtraction; also correct up to x ≈ 88).
// Cephes expf: x = n·ln2 + r, |r| ≤ ln2/2, degree-6 polynomial for e^r, 2^n built in the
// exponent bits. Relative error ≈ 1e-7 (tests: against std::exp). Below -87.33 (where
// e^x is no longer a normal float) the result is 0, so -inf gives exactly 0.
inline vf vexp(vf x) {
  constexpr float kLo = -87.33654f;
  const vf xc = vmax(vmin(x, vsplat(88.0f)), vsplat(kLo));
  const vf n = vround(vmul(xc, vsplat(1.44269504088896341f)));
  vf r = vfma(n, vsplat(-0.693359375f), xc);
  r = vfma(n, vsplat(2.12194440e-4f), r);
  vf p = vsplat(1.9875691500e-4f);
  p = vfma(p, r, vsplat(1.3981999507e-3f));
  p = vfma(p, r, vsplat(8.3334519073e-3f));
  p = vfma(p, r, vsplat(4.1665795894e-2f));
  p = vfma(p, r, vsplat(1.6666665459e-1f));
  p = vfma(p, r, vsplat(5.0000001201e-1f));
  const vf y = vadd(vfma(vmul(p, r), r, r), vsplat(1.0f));
  const vf scale = vas_f(vshl23(viadd(vcvt_i(n), 127)));
  return vlt_zero_select(x, kLo, vmul(y, scale));
}

// e^z − 1 for the arguments vtanh gives it (z in [−0.52, 20]: 2|x| or −2|x|), lane by lane as
// kernels_scalar.cpp's expm1_f computes it: every branch of that function that such a z can take
// computed in full, each lane's own selected; the same float operations in the same order (no
// vfma: a fused product would round differently). Other lanes get numbers vtanh discards.
EW_UNFUSED inline vf vexpm1_for_tanh(vf z) {
  EW_UNFUSED_BODY
  const vf kLn2Hi = vsplat(6.9313812256e-01f), kLn2Lo = vsplat(9.0580006145e-06f);
  const vf one = vsplat(1.0f), half = vsplat(0.5f);
  const vf hz = vand(z, vmask(0x7fffffffu)), neg = vlt(z, vzero());
  // (a float compare of non-negative floats orders them as their bits: vmask(b) is the float of bits b)
  const vf reduce = vbits_gt(hz, 0x3eb17218u), mid = vlt(hz, vmask(0x3f851592u));
  // k: ±1 between ln2/2 and 1.5·ln2, (int)(z/ln2 ± 0.5) above, 0 below; t·ln2_hi with t = ±1
  // is ±ln2_hi exactly, so one formula serves expm1_f's two reductions
  const vf kbig = vcvt_f(vtrunc_i(vadd(vmul(vsplat(1.4426950216e+00f), z), vsel(neg, vsplat(-0.5f), half))));
  const vf k = vsel(reduce, vsel(mid, vsel(neg, vsplat(-1.0f), one), kbig), vzero());
  const vf hi = vsub(z, vmul(k, kLn2Hi)), lo = vmul(k, kLn2Lo);
  const vf xr = vsel(reduce, vsub(hi, lo), z);
  const vf c = vsub(vsub(hi, xr), lo);
  const vf hfx = vmul(half, xr), hxs = vmul(xr, hfx);
  const vf r1 = vadd(one, vmul(hxs, vadd(vsplat(-3.3333212137e-2f), vmul(hxs, vsplat(1.5807170421e-3f)))));
  const vf t = vsub(vsplat(3.0f), vmul(r1, hfx));
  const vf e = vmul(hxs, vdiv(vsub(r1, t), vsub(vsplat(6.0f), vmul(xr, t))));
  const vf k0 = vsub(xr, vsub(vmul(xr, e), hxs));
  const vf ek = vsub(vsub(vmul(xr, vsub(e, c)), c), hxs);
  const vf km1 = vsub(vmul(half, vsub(xr, ek)), half);
  const vf k1 = vsel(vlt(xr, vsplat(-0.25f)), vmul(vsplat(-2.0f), vsub(ek, vadd(xr, half))),
                     vadd(one, vmul(vsplat(2.0f), vsub(xr, ek))));
  const vf twopk = vas_f(vshl23(viadd(vtrunc_i(k), 127))), u = vdiv(one, twopk);  // 2^k, 2^-k (exact)
  const vf kn = vmul(vsel(vlt(k, vsplat(23.0f)), vadd(vsub(xr, ek), vsub(one, u)), vadd(vsub(vsub(xr, ek), u), one)), twopk);
  const vf r = vsel(veq(k, vzero()), k0, vsel(veq(k, vsplat(-1.0f)), km1, vsel(veq(k, one), k1, kn)));
  return vsel(vlt(hz, vmask(0x33000000u)), z, r);  // |z| < 2^-25: z
}

// tanh(x) lane by lane as ew_tanhf computes it (musl's tanhf), bit for bit: by |x|, 1 + 0/|x|
// above 10 (1, or NaN), 1 − 2/(e^{2|x|} + 1) above log(3)/2, its other forms below, |x| itself
// for subnormals; the sign put back last.
EW_UNFUSED inline vf vtanh(vf x) {
  EW_UNFUSED_BODY
  const vf sign = vand(x, vmask(0x80000000u)), a = vand(x, vmask(0x7fffffffu)), two = vsplat(2.0f);
  const vf big = vbits_gt(a, 0x3e82c578u);  // |x| > log(5/3)/2
  const vf e = vexpm1_for_tanh(vsel(big, vmul(two, a), vmul(vsplat(-2.0f), a)));
  const vf ep2 = vadd(e, two);
  const vf t = vsel(vbits_gt(a, 0x41200000u), vadd(vsplat(1.0f), vdiv(vzero(), a)),
               vsel(vbits_gt(a, 0x3f0c9f54u), vsub(vsplat(1.0f), vdiv(two, ep2)),
               vsel(big, vdiv(e, ep2),
               vsel(vbits_gt(a, 0x007fffffu), vdiv(vxor(e, vmask(0x80000000u)), ep2), a))));
  return vxor(t, sign);
}

}  // namespace ew::simd
#endif
