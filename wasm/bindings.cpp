// bindings.cpp — the Embind surface of the core for JavaScript: converts and forwards,
// no model logic (whisper.cpp's emscripten.cpp, sql.js's api.js).
//
//   const e = new Module.Engine();
//   const meta = JSON.parse(e.load(modelJson));  // {ok, ms, setup_ms, steps: [...metadata], params, ...}
//                                                // or {ok:false, error}
//   e.stepData(i)   -> Float32Array view of step i's values (wasm memory: valid until the
//                      next load/rerun; copy it to keep it)
//   e.paramData(i)  -> Float32Array view of parameter i
//   e.rerun()       -> runs the forward pass again on the loaded model (benchmarks)
//   e.delete()
//   Module.presetsJson(), Module.configSchemaJson() (config_schema.h), Module.kernelIsa(), new Module.MatmulBench(M, K, N),
//   Module.heapBytesInUse() (C++ heap in use, for the leak test)
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <malloc.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config_schema.h"
#include "error.h"
#include "kernels.h"
#include "model.h"
#include "model_file.h"
#include "params.h"
#include "presets.h"
#include "random.h"
#include "trace_json.h"

namespace {

using emscripten::val;

class Engine {
 public:
  // Parses the model file, runs it, returns the trace's metadata as JSON (no data).
  std::string load(const std::string& model_json) {
    try {
      ew::Model model = ew::model_from_string(model_json);
      if (loaded_) ew::reuse_seeded_params(model, model_);  // only the text changed: keep weights
      loaded_ = false;
      const auto t0 = std::chrono::steady_clock::now();
      ew::run(model, trace_);
      const auto t1 = std::chrono::steady_clock::now();
      model_ = std::move(model);
      loaded_ = true;
      const double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
      std::string meta = ew::trace_json(trace_, model_, {false, true, false});
      meta.pop_back();
      // ms: the whole run; setup_ms: the part of it that drew and packed seeded weights.
      return meta + ",\"ok\":true,\"ms\":" + std::to_string(ms) + ",\"setup_ms\":" +
             std::to_string(trace_.setup_ms) + "}";
    } catch (const std::exception& e) {
      loaded_ = false;
      return nlohmann::json{{"ok", false}, {"error", e.what()}}.dump();
    }
  }

  // The forward pass again, same model and text; returns milliseconds.
  double rerun() {
    if (!loaded_) return -1.0;
    const auto t0 = std::chrono::steady_clock::now();
    ew::run(model_, trace_);
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }

  int stepCount() const { return static_cast<int>(trace_.size()); }
  val stepData(int i) const {
    if (i < 0 || i >= stepCount()) return val::null();
    const ew::Step& s = trace_[static_cast<std::size_t>(i)];
    return val(emscripten::typed_memory_view(s.data.size(), s.data.data()));
  }
  int paramCount() const { return static_cast<int>(model_.params.size()); }
  val paramData(int i) const {
    if (i < 0 || i >= paramCount()) return val::null();
    const ew::Param& p = model_.params[static_cast<std::size_t>(i)];
    return val(emscripten::typed_memory_view(p.value.size(), p.value.data()));
  }

 private:
  ew::Model model_;
  ew::Trace trace_;
  bool loaded_ = false;
};

// One packed matmul C (M×N) = A (M×K) · B (K×N), seeded data, for the benchmarks.
class MatmulBench {
 public:
  MatmulBench(int M, int K, int N) : M_(M), K_(K), N_(N), A_(static_cast<std::size_t>(M) * K), C_(static_cast<std::size_t>(M) * N) {
    std::vector<float> B(static_cast<std::size_t>(K) * N);
    const auto sa = ew::seeded_stream(1, "bench.A"), sb = ew::seeded_stream(1, "bench.B");
    for (std::size_t i = 0; i < A_.size(); ++i) A_[i] = ew::seeded_uniform(sa, i);
    for (std::size_t i = 0; i < B.size(); ++i) B[i] = ew::seeded_uniform(sb, i);
    ew::ew_f32_pack_b(&packed_, B.data(), K, N);
  }
  void run() { ew::ew_f32_matmul_packed(C_.data(), N_, A_.data(), K_, packed_, nullptr, M_, ew::Activation::None); }
  double checksum() const {
    double s = 0;
    for (float v : C_) s += v;
    return s;
  }

 private:
  int M_, K_, N_;
  std::vector<float> A_, C_;
  ew::PackedB packed_;
};

std::string presets_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const ew::Preset& p : ew::presets())
    out.push_back({{"name", p.name}, {"title", p.title}, {"description", p.description}, {"source", p.source},
                   {"model", nlohmann::json::parse(p.model_json)}});
  return out.dump();
}

std::string kernel_isa() { return ew::kernel_isa(); }

// Bytes the C++ heap has handed out and not taken back (dlmalloc's mallinfo): for the test
// that thousands of recomputes leak nothing.
double heap_bytes_in_use() { return static_cast<double>(mallinfo().uordblks); }

}  // namespace

EMSCRIPTEN_BINDINGS(encoder_walkthrough) {
  emscripten::class_<Engine>("Engine")
      .constructor<>()
      .function("load", &Engine::load)
      .function("rerun", &Engine::rerun)
      .function("stepCount", &Engine::stepCount)
      .function("stepData", &Engine::stepData)
      .function("paramCount", &Engine::paramCount)
      .function("paramData", &Engine::paramData);
  emscripten::class_<MatmulBench>("MatmulBench")
      .constructor<int, int, int>()
      .function("run", &MatmulBench::run)
      .function("checksum", &MatmulBench::checksum);
  emscripten::function("presetsJson", &presets_json);
  emscripten::function("configSchemaJson", &ew::config_schema_json);
  emscripten::function("kernelIsa", &kernel_isa);
  emscripten::function("heapBytesInUse", &heap_bytes_in_use);
}
