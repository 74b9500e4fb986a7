// streams.cpp — how many streams at once read memory fastest in wasm (issue 31: a decoded token is
// the time it takes to read its weights). A GPT-2-small token's one-row products and tied head,
// each read two ways, the numbers in registers as core/kernels/kernels_simd.cpp reads them:
//   gemv, 1 stream    ew_f32_pack_b's panels (NR columns over all K, contiguous), one panel at a
//                     time into NR/4 accumulators (gemv_streams<1>)
//   gemv, 2 streams   panel p together with panel p + h, half the matrix away (gemv_streams<2>)
//   head, 1 stream    one key row (768 floats) at a time into 4 accumulators (the vocabulary's
//                     50,257 rows, 154 MB)
//   head, 2 streams   key j together with key j + h, half the table away (scores_one_query)
// Every column and every key keeps its own accumulators and order, so both ways give the same
// numbers bit for bit; the run checks it. For NR = 16 (SIMD128's tile) and 12 (relaxed SIMD's).
// Prints ms and GB/s of weights read, 7 repetitions (the first is warm-up).
//   bash bench/layout/run.sh streams            (em++ -O3 -msimd128, then Node)
#include <wasm_simd128.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {
using vf = v128_t;
inline vf fma_(vf a, vf b, vf c) { return wasm_f32x4_add(wasm_f32x4_mul(a, b), c); }
double now_ms() { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

struct Matrix { int K, N; std::vector<float> P; };  // packed: [N/NR][K][NR]

template <int NR, int S>
void panels(float* y, const float* x, const Matrix& m, const int* ps) {
  constexpr int NV = NR / 4;
  vf acc[S][NV];
  const float* b[S];
  for (int s = 0; s < S; ++s) {
    for (int v = 0; v < NV; ++v) acc[s][v] = wasm_f32x4_splat(0.0f);
    b[s] = m.P.data() + static_cast<size_t>(ps[s]) * m.K * NR;
  }
#pragma clang loop unroll(disable)
  for (int k = 0; k < m.K; ++k) {
    const vf xk = wasm_f32x4_splat(x[k]);
    for (int s = 0; s < S; ++s) {
      for (int v = 0; v < NV; ++v) acc[s][v] = fma_(xk, wasm_v128_load(b[s] + v * 4), acc[s][v]);
      b[s] += NR;
    }
  }
  for (int s = 0; s < S; ++s)
    for (int v = 0; v < NV; ++v) wasm_v128_store(y + ps[s] * NR + v * 4, acc[s][v]);
}

template <int NR>
void gemv(float* y, const float* x, const Matrix& m, int streams) {
  const int np = m.N / NR;
  if (streams == 1) {
    for (int p = 0; p < np; ++p) panels<NR, 1>(y, x, m, &p);
    return;
  }
  const int h = (np + 1) / 2;
  for (int p = 0; p < h; ++p) {
    const int ps[2] = {p, p + h};
    if (ps[1] < np) panels<NR, 2>(y, x, m, ps);
    else panels<NR, 1>(y, x, m, ps);
  }
}

inline float hsum(vf a) {
  return wasm_f32x4_extract_lane(a, 0) + wasm_f32x4_extract_lane(a, 1) + wasm_f32x4_extract_lane(a, 2) +
         wasm_f32x4_extract_lane(a, 3);
}

template <int S>
void keys(float* s, const float* q, const float* E, int d, const int* js) {
  vf a[S][4];
  for (int t = 0; t < S; ++t)
    for (int u = 0; u < 4; ++u) a[t][u] = wasm_f32x4_splat(0.0f);
  for (int c = 0; c < d; c += 16)
    for (int u = 0; u < 4; ++u) {
      const vf qv = wasm_v128_load(q + c + 4 * u);
      for (int t = 0; t < S; ++t)
        a[t][u] = fma_(qv, wasm_v128_load(E + static_cast<size_t>(js[t]) * d + c + 4 * u), a[t][u]);
    }
  for (int t = 0; t < S; ++t)
    s[js[t]] = hsum(wasm_f32x4_add(wasm_f32x4_add(a[t][0], a[t][1]), wasm_f32x4_add(a[t][2], a[t][3])));
}

void head(float* s, const float* q, const float* E, int V, int d, int streams) {
  if (streams == 1) {
    for (int j = 0; j < V; ++j) keys<1>(s, q, E, d, &j);
    return;
  }
  const int h = (V + 1) / 2;
  for (int j = 0; j < h; ++j) {
    const int js[2] = {j, j + h};
    if (js[1] < V) keys<2>(s, q, E, d, js);
    else keys<1>(s, q, E, d, js);
  }
}

float value(size_t i) { return static_cast<float>((i * 2654435761u) >> 20) / 4096.0f - 0.5f; }

template <int NR>
void run_gemv(const std::vector<float>& x) {
  std::vector<Matrix> ms;  // GPT-2 small's 12 layers: c_attn, attn c_proj, c_fc, mlp c_proj
  double bytes = 0;
  for (int l = 0; l < 12; ++l)
    for (auto [K, N] : {std::pair{768, 2304}, {768, 768}, {768, 3072}, {3072, 768}}) {
      Matrix m{K, N, std::vector<float>(static_cast<size_t>(K) * N)};
      for (size_t i = 0; i < m.P.size(); ++i) m.P[i] = value(i + l);
      bytes += 4.0 * m.P.size();
      ms.push_back(std::move(m));
    }
  std::vector<float> y1(3072), y2(3072);
  for (int r = 0; r < 7; ++r) {
    double t[2];
    bool same = true;
    for (int streams : {1, 2}) {
      const double t0 = now_ms();
      for (const Matrix& m : ms) gemv<NR>(streams == 1 ? y1.data() : y2.data(), x.data(), m, streams);
      t[streams - 1] = now_ms() - t0;
    }
    for (const Matrix& m : ms) {  // the last matrix of each shape, compared in full
      gemv<NR>(y1.data(), x.data(), m, 1);
      gemv<NR>(y2.data(), x.data(), m, 2);
      same = same && std::equal(y1.begin(), y1.begin() + m.N, y2.begin());
    }
    std::printf("NR %2d gemv (%.0f MB): 1 stream %6.2f ms %5.1f GB/s | 2 streams %6.2f ms %5.1f GB/s | equal %s\n", NR,
                bytes / 1e6, t[0], bytes / t[0] / 1e6, t[1], bytes / t[1] / 1e6, same ? "yes" : "NO");
  }
}

void run_head(const std::vector<float>& q) {
  const int V = 50257, d = 768;
  std::vector<float> E(static_cast<size_t>(V) * d), s1(V), s2(V);
  for (size_t i = 0; i < E.size(); ++i) E[i] = value(i);
  const double bytes = 4.0 * E.size();
  for (int r = 0; r < 7; ++r) {
    double t[2];
    for (int streams : {1, 2}) {
      const double t0 = now_ms();
      head(streams == 1 ? s1.data() : s2.data(), q.data(), E.data(), V, d, streams);
      t[streams - 1] = now_ms() - t0;
    }
    std::printf("head (%.0f MB): 1 stream %6.2f ms %5.1f GB/s | 2 streams %6.2f ms %5.1f GB/s | equal %s\n", bytes / 1e6,
                t[0], bytes / t[0] / 1e6, t[1], bytes / t[1] / 1e6, s1 == s2 ? "yes" : "NO");
  }
}
}  // namespace

int main() {
  std::vector<float> x(3072);
  for (int i = 0; i < 3072; ++i) x[i] = 0.01f * static_cast<float>(i % 7);
  run_gemv<16>(x);
  run_gemv<12>(x);
  run_head(x);
  return 0;
}
