// gemv_layout.cpp — where a decoded token's time could go (issue 31, item 2: weights kept in the
// kernels' panel layout). One decoded token's one-row products y = x·B + 0 over every layer's
// matmul weights of a model (more bytes than the caches hold, so each weight comes from memory, as
// in decoding), in wasm SIMD128, two layouts of the same numbers:
//   rows    B row-major [K][N] as a checkpoint's weight lies today, streamed eight rows a pass into
//           y — the algorithm of core/kernels/kernels_simd.cpp's gemv_columns (ew_f32_gemv), copied
//   panels  B in ew_f32_pack_b's layout, [N/16][K][16]: 16-column panels over all K, read as one
//           stream into 4 accumulators held in registers (a proposal: no such kernel in core/)
// Both give each y[j] its terms in the same order (k = 0, 1, …), so their results are equal bit
// for bit; the run checks it. Prints GB/s of weights read, per model and layout, 5 repetitions.
//   bash bench/layout/run.sh     (em++ -O3 -msimd128, then Node)
#include <wasm_simd128.h>
#include <emscripten.h>
#include <chrono>
#include <cstdio>
#include <vector>
#include <cstdlib>
#include <algorithm>
typedef v128_t vf;
static inline vf fma_(vf a, vf b, vf c) { return wasm_f32x4_add(wasm_f32x4_mul(a, b), c); }
void gemv_rows(float* y, const float* x, const float* B, int K, int N) {
  for (int j = 0; j < N; ++j) y[j] = 0;
  const int R = 8;
  for (int k = 0; k + R <= K; k += R) {
    vf xs[R];
    for (int r = 0; r < R; ++r) xs[r] = wasm_f32x4_splat(x[k + r]);
    const float* b = B + (size_t)k * N;
    for (int j = 0; j < N; j += 4) {
      vf a = wasm_v128_load(y + j);
      for (int r = 0; r < R; ++r) a = fma_(xs[r], wasm_v128_load(b + (size_t)r * N + j), a);
      wasm_v128_store(y + j, a);
    }
  }
}
void gemv_panels(float* y, const float* x, const float* P, int K, int N) {
  for (int p = 0; p < N / 16; ++p) {
    const float* b = P + (size_t)p * K * 16;
    vf a0 = wasm_f32x4_splat(0), a1 = a0, a2 = a0, a3 = a0;
    for (int k = 0; k < K; ++k) {
      const vf xk = wasm_f32x4_splat(x[k]);
      a0 = fma_(xk, wasm_v128_load(b), a0);
      a1 = fma_(xk, wasm_v128_load(b + 4), a1);
      a2 = fma_(xk, wasm_v128_load(b + 8), a2);
      a3 = fma_(xk, wasm_v128_load(b + 12), a3);
      b += 16;
    }
    wasm_v128_store(y + p * 16, a0); wasm_v128_store(y + p * 16 + 4, a1);
    wasm_v128_store(y + p * 16 + 8, a2); wasm_v128_store(y + p * 16 + 12, a3);
  }
}
struct S { int K, N; };
static void run(const char* name, const std::vector<S>& shapes) {
  std::vector<std::vector<float>> W, Pn;
  size_t bytes = 0;
  for (auto s : shapes) {
    std::vector<float> w((size_t)s.K * s.N);
    for (auto& v : w) v = (rand() % 1000) / 1000.0f - 0.5f;
    std::vector<float> p(w.size());
    for (int pp = 0; pp < s.N / 16; ++pp) for (int k = 0; k < s.K; ++k) for (int c = 0; c < 16; ++c) p[((size_t)pp * s.K + k) * 16 + c] = w[(size_t)k * s.N + pp * 16 + c];
    bytes += w.size() * 4; W.push_back(std::move(w)); Pn.push_back(std::move(p));
  }
  int most = 0;
  for (auto s : shapes) most = std::max(most, std::max(s.K, s.N));
  std::vector<float> x(most), y(most), y2(most);
  for (auto& v : x) v = (rand() % 1000) / 1000.0f;
  for (int rep = 0; rep < 5; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    for (size_t i = 0; i < shapes.size(); ++i) gemv_rows(y.data(), x.data(), W[i].data(), shapes[i].K, shapes[i].N);
    auto t1 = std::chrono::steady_clock::now();
    for (size_t i = 0; i < shapes.size(); ++i) gemv_panels(y2.data(), x.data(), Pn[i].data(), shapes[i].K, shapes[i].N);
    auto t2 = std::chrono::steady_clock::now();
    double a = std::chrono::duration<double, std::milli>(t1 - t0).count(), b = std::chrono::duration<double, std::milli>(t2 - t1).count();
    bool same = true;
    for (size_t j = 0; j < (size_t)shapes.back().N; ++j) same = same && y[j] == y2[j];
    printf("%s, %zu MB of weights: rows %.2f ms (%.1f GB/s), panels %.2f ms (%.1f GB/s); the last product's y equal bit for bit: %s\n",
           name, bytes >> 20, a, bytes / a / 1e6, b, bytes / b / 1e6, same ? "yes" : "NO");
  }
}
int main() {
  std::vector<S> smollm, gpt2;  // the matmul weights of one decoded token (the head left out)
  for (int l = 0; l < 30; ++l)  // SmolLM2-135M: q, k, v, o, gate, up, down
    for (S s : {S{576, 576}, S{576, 192}, S{576, 192}, S{576, 576}, S{576, 1536}, S{576, 1536}, S{1536, 576}}) smollm.push_back(s);
  for (int l = 0; l < 12; ++l)  // GPT-2 small: c_attn, c_proj, c_fc, mlp c_proj
    for (S s : {S{768, 2304}, S{768, 768}, S{768, 3072}, S{3072, 768}}) gpt2.push_back(s);
  run("SmolLM2-135M-sized", smollm);
  run("GPT-2-small-sized", gpt2);
}
