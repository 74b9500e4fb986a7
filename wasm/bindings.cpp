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
//   e.runWith(modelJson, optionsJson) -> load() plus {backward, generate, max_len, user_weights}
//   e.setUserWeights(bytes) / e.userWeights() -> a safetensors file a reader loaded or trained
//   Module.tasksJson(), new Module.TrainSession(): training in the Worker (train_bindings.cpp)
//   e.delete()
//   Module.presetsJson(), Module.configSchemaJson() (config_schema.h), Module.kernelIsa(), new Module.MatmulBench(M, K, N),
//   Module.heapBytesInUse() (C++ heap in use, for the leak test)
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/model_file.h"
#include "io/presets.h"
#include "io/safetensors.h"
#include "io/trace_json.h"
#include "kernels/kernels.h"
#include "model/config_schema.h"
#include "model/error.h"
#include "model/model.h"
#include "model/params.h"
#include "model/random.h"
#include "trace/backward.h"
#include "trace/forward.h"
#include "trace/generate.h"

#include "reply.h"

namespace {

using emscripten::val;
using ew_wasm::error_reply;


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
      return error_reply(e);
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

  // ---- trained models: generation, the backward pass, weights a reader loads (issue 10) ----
  // load() with options {backward, generate, max_len, user_weights} (all optional): generate
  // decodes greedily when the model has a decoder (rounds in the reply), backward appends the loss and grad steps,
  // user_weights takes the configuration and parameters from setUserWeights' file. Adds
  // "generated", "rounds", "prediction" (a classifier), "backward_ms" to the metadata.
  std::string runWith(const std::string& model_json, const std::string& options_json) {
    try {
      const nlohmann::json o = nlohmann::json::parse(options_json);
      const bool user = o.value("user_weights", false);
      if (user && user_weights_.empty()) throw ew::Error("no weights have been loaded");
      ew::Model model = user ? ew::model_with_weight_bytes(nlohmann::json::parse(model_json), user_weights_)
                             : ew::model_from_string(model_json);
      if (loaded_ && !user) ew::reuse_seeded_params(model, model_);
      loaded_ = false;
      nlohmann::json extra = nlohmann::json::object();
      const auto t0 = std::chrono::steady_clock::now();
      if (o.value("generate", false) && model.config.decoder_layers > 0) {
        const auto rounds = ew::generate_greedy(model, trace_, o.value("max_len", 32));
        extra["generated"] = ew::generated_tokens(rounds);
        extra["rounds"] = nlohmann::json::array();
        for (const ew::GenRound& r : rounds)
          extra["rounds"].push_back({{"decoder_input", r.decoder_input}, {"token", r.token}, {"prob", r.prob}});
      } else {
        ew::run(model, trace_);
      }
      const auto t1 = std::chrono::steady_clock::now();
      if (o.value("backward", false)) {
        // A model the backward pass refuses (nothing to predict, a gradient that overflows)
        // still shows its forward pass, with the reason in "backward_error".
        try {
          ew::run_backward(model, trace_);
        } catch (const ew::Error& e) {
          extra["backward_error"] = e.what();
          ew::run(model, trace_);  // drops any gradient steps recorded before the error
        }
      }
      const auto t2 = std::chrono::steady_clock::now();
      model_ = std::move(model);
      loaded_ = true;
      if (model_.config.num_labels > 0) extra["prediction"] = prediction();
      extra["backward_ms"] = std::chrono::duration<double, std::milli>(t2 - t1).count();
      extra["ms"] = std::chrono::duration<double, std::milli>(t1 - t0).count();
      extra["setup_ms"] = trace_.setup_ms;
      extra["ok"] = true;
      std::string meta = ew::trace_json(trace_, model_, {false, true, false});
      meta.pop_back();
      for (auto it = extra.begin(); it != extra.end(); ++it) meta += ",\"" + it.key() + "\":" + it.value().dump();
      return meta + "}";
    } catch (const std::exception& e) {
      loaded_ = false;
      return error_reply(e);
    }
  }

  // Keeps a safetensors file (bytes from a file picker, a drop or training) as the weights
  // runWith({user_weights: true}) uses, if the core reads it; else the core's message.
  std::string setUserWeights(const std::string& bytes) {
    try {
      const ew::Model w = ew::model_from_safetensors(
          ew::read_safetensors(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
      user_weights_ = bytes;
      return nlohmann::json{{"ok", true}, {"config", ew::config_to_json(w.config)},
                            {"vocab", w.vocab}, {"labels", w.label_names}}.dump();
    } catch (const std::exception& e) {
      return error_reply(e);
    }
  }
  val userWeights() const {
    return val(emscripten::typed_memory_view(user_weights_.size(), reinterpret_cast<const std::uint8_t*>(user_weights_.data())));
  }

 private:
  // A classifier's answer for the first sentence: {label, labels, probs} (as the CLI's).
  nlohmann::json prediction() const {
    const ew::Step& p = trace_.at("cls.probs");
    const int n = model_.config.num_labels;
    std::vector<std::string> names = model_.label_names;
    for (int i = static_cast<int>(names.size()); i < n; ++i) names.push_back("label " + std::to_string(i));
    const int best = static_cast<int>(std::max_element(p.data.begin(), p.data.begin() + n) - p.data.begin());
    return {{"label", names[best]}, {"labels", names}, {"probs", std::vector<float>(p.data.begin(), p.data.begin() + n)}};
  }

  ew::Model model_;
  ew::Trace trace_;
  bool loaded_ = false;
  std::string user_weights_;
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
                   {"model", nlohmann::json::parse(p.model_json)}, {"step", p.step}, {"batch", p.batch}, {"training", p.training}});
  return out.dump();
}

std::string kernel_isa() { return ew::kernel_isa(); }

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
      .function("paramData", &Engine::paramData)
      .function("runWith", &Engine::runWith)
      .function("setUserWeights", &Engine::setUserWeights)
      .function("userWeights", &Engine::userWeights);
  emscripten::class_<MatmulBench>("MatmulBench")
      .constructor<int, int, int>()
      .function("run", &MatmulBench::run)
      .function("checksum", &MatmulBench::checksum);
  emscripten::function("presetsJson", &presets_json);
  emscripten::function("configSchemaJson", &ew::config_schema_json);
  emscripten::function("kernelIsa", &kernel_isa);
  emscripten::function("heapBytesInUse", &heap_bytes_in_use);
}
