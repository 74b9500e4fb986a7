// native_bench.cpp — Google Benchmark programs for the core's kernels (core/kernels/kernels.h)
// and one whole encoder layer through ew::run, the same call the CLI and the page make.
//
//   build/native-release/bench/ew_native_bench [--benchmark_filter=...] [--benchmark_format=json]
//
// Names: <op>/<impl>/<shape>, e.g. "matmul/packed/128x512x2048". Every benchmark sets the
// counter "flops" (floating-point operations per iteration) so a reader can compute GFLOP/s;
// bench/run.sh does, and prints one table with the WebAssembly results.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/model_file.h"
#include "kernels/kernels.h"
#include "kernels/pool.h"
#include "model/model.h"
#include "model/random.h"
#include "trace/forward.h"
#include "trace/trace.h"

namespace {

std::vector<float> seeded(const char* name, std::size_t n, float scale = 1.0f) {
  std::vector<float> v(n);
  const auto s = ew::seeded_stream(1, name);
  for (std::size_t i = 0; i < n; ++i) v[i] = ew::seeded_uniform(s, i) * scale;
  return v;
}

void set_flops(benchmark::State& state, double flops) {
  state.counters["flops"] = flops;
  // Rate: FLOP per second of wall-clock time; Google Benchmark prints it as e.g. "12.3G/s".
  state.counters["FLOPS"] = benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate);
}

// ---- matmul -----------------------------------------------------------------------------
void BM_matmul_packed(benchmark::State& state, int M, int K, int N) {
  const auto A = seeded("A", static_cast<std::size_t>(M) * K), B = seeded("B", static_cast<std::size_t>(K) * N);
  std::vector<float> C(static_cast<std::size_t>(M) * N);
  ew::PackedB packed;
  ew::ew_f32_pack_b(&packed, B.data(), K, N);  // once, as when a model is built
  for (auto _ : state) {
    ew::ew_f32_matmul_packed(C.data(), N, A.data(), K, packed, nullptr, M, ew::Activation::None);
    benchmark::DoNotOptimize(C.data());
    benchmark::ClobberMemory();
  }
  set_flops(state, 2.0 * M * K * N);
}

void BM_matmul_scalar(benchmark::State& state, int M, int K, int N) {
  const auto A = seeded("A", static_cast<std::size_t>(M) * K), B = seeded("B", static_cast<std::size_t>(K) * N);
  std::vector<float> C(static_cast<std::size_t>(M) * N);
  for (auto _ : state) {
    ew::ew_f32_matmul__scalar(C.data(), N, A.data(), K, B.data(), N, nullptr, M, K, N, ew::Activation::None);
    benchmark::DoNotOptimize(C.data());
    benchmark::ClobberMemory();
  }
  set_flops(state, 2.0 * M * K * N);
}

// ---- attention scores: one head, S = Q·Kᵀ (T×dk each, inside a T×d row block) ------------
void BM_scores(benchmark::State& state, bool scalar, int T, int d, int dk) {
  const auto Q = seeded("Q", static_cast<std::size_t>(T) * d), K = seeded("K", static_cast<std::size_t>(T) * d);
  std::vector<float> S(static_cast<std::size_t>(T) * T);
  for (auto _ : state) {
    if (scalar)
      ew::ew_f32_scores__scalar(S.data(), T, Q.data(), d, K.data(), d, T, T, dk);
    else
      ew::ew_f32_scores(S.data(), T, Q.data(), d, K.data(), d, T, T, dk);
    benchmark::DoNotOptimize(S.data());
    benchmark::ClobberMemory();
  }
  set_flops(state, 2.0 * T * T * dk);
}

// ---- softmax: T rows of n scores (scale, max, exp-sum, normalise) ---------------------------
void BM_softmax_rows(benchmark::State& state, bool scalar, int T, int n) {
  const auto s = seeded("S", static_cast<std::size_t>(T) * n, 4.0f);
  std::vector<float> scaled(s.size()), w(s.size());
  float mx = 0, sum = 0;
  const float scale = 1.0f / std::sqrt(64.0f);
  for (auto _ : state) {
    for (int t = 0; t < T; ++t) {
      const std::size_t o = static_cast<std::size_t>(t) * n;
      if (scalar)
        ew::ew_f32_softmax_row__scalar(&scaled[o], &w[o], &mx, &sum, &s[o], nullptr, n, scale);
      else
        ew::ew_f32_softmax_row(&scaled[o], &w[o], &mx, &sum, &s[o], nullptr, n, scale);
    }
    benchmark::DoNotOptimize(w.data());
    benchmark::ClobberMemory();
  }
  // ~5 operations per element (scale, max, sub, exp, divide): a rough count for GFLOP/s.
  set_flops(state, 5.0 * T * n);
}

// ---- LayerNorm over T rows of C ----------------------------------------------------------
void BM_layernorm(benchmark::State& state, bool scalar, int T, int C) {
  const auto x = seeded("x", static_cast<std::size_t>(T) * C, 3.0f);
  const std::vector<float> gamma(C, 1.0f), beta(C, 0.0f);
  std::vector<float> y(x.size()), mean(T), var(T);
  for (auto _ : state) {
    if (scalar)
      ew::ew_f32_layernorm__scalar(y.data(), mean.data(), var.data(), x.data(), gamma.data(), beta.data(), T, C, 1e-5f);
    else
      ew::ew_f32_layernorm(y.data(), mean.data(), var.data(), x.data(), gamma.data(), beta.data(), T, C, 1e-5f);
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  set_flops(state, 8.0 * T * C);  // mean, variance, normalise, scale and shift: rough
}

// ---- one whole post-norm encoder layer through ew::run (records the full trace) -----------
// Model file: explicit "input" rows (T×d, seeded), one layer, weights seeded by the core.
std::string layer_model_json(int T, int d, int h, int ff) {
  nlohmann::json cfg = {{"d_model", d},   {"num_heads", h},      {"d_ff", ff},     {"num_layers", 1},
                        {"norm", "post"}, {"activation", "relu"}, {"scale", true}, {"positional", "none"},
                        {"seed", 66}};
  const auto x = seeded("bench.input", static_cast<std::size_t>(T) * d);
  nlohmann::json rows = nlohmann::json::array();
  for (int t = 0; t < T; ++t)
    rows.push_back(std::vector<float>(x.begin() + static_cast<std::ptrdiff_t>(t) * d,
                                      x.begin() + static_cast<std::ptrdiff_t>(t + 1) * d));
  return nlohmann::json{{"config", cfg}, {"input", rows}}.dump();
}

double layer_flops(double T, double d, double ff) {
  // Q, K, V, W_o projections; Q·Kᵀ and weights·V over all heads; the two FFN matmuls.
  return 8.0 * T * d * d + 4.0 * T * T * d + 4.0 * T * d * ff;
}

void BM_encoder_layer(benchmark::State& state, int T, int d, int h, int ff) {
  ew::Model model = ew::model_from_string(layer_model_json(T, d, h, ff));
  ew::Trace trace;
  ew::run(model, trace);  // first run: allocates the trace's buffers (the page's load())
  for (auto _ : state) {
    ew::run(model, trace);  // the page's rerun(): same model, buffers reused
    benchmark::DoNotOptimize(trace.size());
    benchmark::ClobberMemory();
  }
  set_flops(state, layer_flops(T, d, ff));
}

// threads_vs_one (issue 21): the same layer with the kernels' pool at `n` threads
// (core/kernels/pool.h); the ratio of the 1- and n-thread times is the speed-up.
void BM_encoder_layer_threads(benchmark::State& state, int T, int d, int h, int ff, int n) {
  ew::set_threads(n);
  BM_encoder_layer(state, T, d, h, ff);
  ew::set_threads(1);
}

std::string dims(std::initializer_list<int> v) {
  std::string s;
  for (int x : v) s += (s.empty() ? "" : "x") + std::to_string(x);
  return s;
}

void register_all() {
  using benchmark::RegisterBenchmark;
  const auto ms = benchmark::kMillisecond;
  for (auto [M, K, N] : {std::tuple{128, 512, 2048}, std::tuple{128, 768, 3072}}) {
    RegisterBenchmark(("matmul/packed/" + dims({M, K, N})).c_str(), BM_matmul_packed, M, K, N)->Unit(ms);
    RegisterBenchmark(("matmul/scalar/" + dims({M, K, N})).c_str(), BM_matmul_scalar, M, K, N)->Unit(ms);
  }
  for (auto [T, d, dk] : {std::tuple{128, 512, 64}}) {
    RegisterBenchmark(("scores/simd/" + dims({T, T, dk})).c_str(), BM_scores, false, T, d, dk)->Unit(ms);
    RegisterBenchmark(("scores/scalar/" + dims({T, T, dk})).c_str(), BM_scores, true, T, d, dk)->Unit(ms);
  }
  for (auto [T, n] : {std::tuple{128, 128}}) {
    RegisterBenchmark(("softmax_rows/simd/" + dims({T, n})).c_str(), BM_softmax_rows, false, T, n)->Unit(ms);
    RegisterBenchmark(("softmax_rows/scalar/" + dims({T, n})).c_str(), BM_softmax_rows, true, T, n)->Unit(ms);
  }
  for (auto [T, C] : {std::tuple{128, 512}, std::tuple{128, 768}}) {
    RegisterBenchmark(("layernorm/simd/" + dims({T, C})).c_str(), BM_layernorm, false, T, C)->Unit(ms);
    RegisterBenchmark(("layernorm/scalar/" + dims({T, C})).c_str(), BM_layernorm, true, T, C)->Unit(ms);
  }
  for (auto [T, d, h, ff] : {std::tuple{128, 512, 8, 2048}, std::tuple{128, 768, 12, 3072}})
    RegisterBenchmark(("encoder_layer/ew_run/" + dims({T, d, h, ff})).c_str(), BM_encoder_layer, T, d, h, ff)->Unit(ms);
  for (int n : {1, 2})
    RegisterBenchmark(("encoder_layer/threads_" + std::to_string(n) + "/128x768x12x3072").c_str(),
                      BM_encoder_layer_threads, 128, 768, 12, 3072, n)->Unit(ms)->UseRealTime();
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::AddCustomContext("ew_kernel_isa", ew::kernel_isa());
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
