// bindings.cpp — the Embind surface of the core for JavaScript: converts and forwards,
// no model logic (whisper.cpp's emscripten.cpp, sql.js's api.js).
//
//   const e = new Module.Engine();
//   const meta = JSON.parse(e.run(modelJson, optionsJson));
//       // options {backward, generate, max_len, user_weights, prediction, fills} ("{}": the
//       // forward pass alone; core/session/session.h); the reply: {ok, ms, setup_ms,
//       // steps: [...metadata], params, generated?, rounds?, prediction?, backward_error?,
//       // backward_ms?, ...} or {ok: false, error, code?, params?}
//   e.stepData(i)   -> Float32Array view of step i's values (wasm memory: valid until the
//                      next run/rerun; copy it to keep it)
//   e.paramData(i)  -> Float32Array view of parameter i (a widened copy when it is 16-bit)
//   e.sweep(specJson) -> JSON: an ablation or patching sweep of the last model run
//                      (core/session/sweep.h, sweep_from_json), or {ok: false, error}
//   e.rerun()       -> runs the forward pass again on the last model run (benchmarks)
//   e.setUserWeights(bytes) / e.userWeights() -> a safetensors file a reader loaded or trained
//   e.stageCheckpointFile(name, size) -> a Uint8Array view of a buffer in the wasm heap for the
//                      checkpoint file of that standard name; JS fills it in place (take the
//                      view again after any other call: memory growth detaches it);
//                      e.stagedView(name) the same buffer again
//   e.loadCheckpoint(name) -> consumes the staged files: {ok, name, model_type, architecture,
//                      params, bytes, …} or {ok: false, error}; e.clearCheckpointFiles()
//   e.runCheckpoint(text, text2, optionsJson) -> run()'s reply for the loaded checkpoint
//   e.onRound(fn | null) -> fn(roundJson) is called as each generation round of the next
//                      run/runCheckpoint ends (generate.h's GenProgress: {round, max_len, id,
//                      token, prob, input, ms, phase, last, end, prompt, cache_rows,
//                      layers, kv_heads, head_dim, heads}); null: none
//   Module.tasksJson(), new Module.TrainSession(): training in the Worker (train_bindings.cpp)
//   e.delete()
//   Module.presetsJson(), Module.configSchemaJson() (config_schema.h), Module.kernelIsa(), new Module.MatmulBench(M, K, N),
//   Module.setThreads(n) -> the thread count now (clamped; 1 unless built with pthreads), Module.threads(),
//   Module.heapBytesInUse() (C++ heap in use, for the leak test), Module.wasmMemoryBytes() (the
//   wasm memory's size: its peak, as it never shrinks)
//   Module.builtinModelLoaded(name) -> whether "builtin:<name>" has its bytes (the page's builds
//   fetch models/<name>.safetensors first: core/io/builtin_models.h);
//   Module.loadBuiltinModel(name, Uint8Array) -> "" or why not (an unknown name)
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <malloc.h>

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/builtin_models.h"
#include "io/presets.h"
#include "kernels/kernels.h"
#include "kernels/pool.h"
#include "model/config_schema.h"
#include "model/error.h"
#include "model/random.h"
#include "session/session.h"
#include "session/sweep.h"

#include "reply.h"

namespace {

using emscripten::val;
using ew_wasm::error_reply;


// The walkthrough's engine: one session (core/session/session.h), its JSON in and out.
class Engine {
 public:
  // Runs a model file with run options ({backward, generate, max_len, user_weights,
  // prediction, fills}, all optional: session.h) and returns the session's document without
  // data, with {"ok": true} and the timings; or {ok: false, error, code?, params?}.
  std::string run(const std::string& model_json, const std::string& options_json) {
    try {
      ew::RunOptions o = ew::run_options_from_json(nlohmann::json::parse(options_json));
      o.on_round = round_callback();
      session_.run({ew::ModelSource::Kind::Json, model_json, std::nullopt, std::nullopt, std::nullopt}, o);
      nlohmann::ordered_json meta = ew::session_json(session_, kMetadata);
      meta["ok"] = true;
      return meta.dump();
    } catch (const std::exception& e) {
      return error_reply(e);
    }
  }

  // A sweep of the last model run (sweep_from_json); its table with {"ok": true}, or the error.
  std::string sweep(const std::string& spec_json) {
    try {
      if (!session_.ok()) throw ew::Error("sweep: no model has run yet");
      nlohmann::json out = ew::sweep_from_json(session_.model(), nlohmann::json::parse(spec_json));
      out["ok"] = true;
      return out.dump();
    } catch (const std::exception& e) {
      return error_reply(e);
    }
  }

  // The checkpoint the page opened (session.h: load_checkpoint), with this text (and text2).
  std::string runCheckpoint(const std::string& text, const std::string& text2, const std::string& options_json) {
    try {
      ew::RunOptions o = ew::run_options_from_json(nlohmann::json::parse(options_json));
      o.on_round = round_callback();
      session_.run({ew::ModelSource::Kind::Checkpoint, "", text, text2.empty() ? std::nullopt : std::optional<std::string>(text2),
                    std::nullopt}, o);
      nlohmann::ordered_json meta = ew::session_json(session_, kMetadata);
      meta["ok"] = true;
      return meta.dump();
    } catch (const std::exception& e) {
      return error_reply(e);
    }
  }
  // A Uint8Array view of a staged file's buffer; null: not a checkpoint file's name, or no
  // memory for it.
  val stageCheckpointFile(const std::string& name, double size) {
    return staged([&] { return session_.stage_checkpoint_file(name, static_cast<std::size_t>(size)); });
  }
  val stagedView(const std::string& name) {
    return staged([&] { return session_.stage_checkpoint_file_view(name); });
  }
  std::string loadCheckpoint(const std::string& name) {
    try {
      nlohmann::json reply = session_.load_staged_checkpoint(name);
      reply["ok"] = true;
      return reply.dump();
    } catch (const std::exception& e) {
      return error_reply(e);
    }
  }
  void clearCheckpointFiles() { session_.clear_staged_checkpoint(); }

  // A JavaScript function that sees each generation round as it ends (the Worker posts it to
  // the page), or null.
  void onRound(val fn) { on_round_ = fn; }

  // The forward pass again, same model and text; returns milliseconds (−1: nothing run).
  double rerun() { return session_.rerun(); }

  int stepCount() const { return static_cast<int>(session_.trace().size()); }
  val stepData(int i) const {
    if (i < 0 || i >= stepCount()) return val::null();
    const ew::Step& s = session_.trace()[static_cast<std::size_t>(i)];
    return val(emscripten::typed_memory_view(s.data.size(), s.data.data()));
  }
  int paramCount() const { return static_cast<int>(session_.model().params.size()); }
  val paramData(int i) const {
    if (i < 0 || i >= paramCount()) return val::null();
    const ew::Param& p = session_.model().params[static_cast<std::size_t>(i)];
    if (p.has_f32()) return val(emscripten::typed_memory_view(p.size(), p.f32()));
    // A 16-bit or packed-only parameter (a checkpoint's matrix): a Float32Array of its own, read out a
    // chunk at a time (no whole float32 copy in wasm memory).
    val out = val::global("Float32Array").new_(p.size());
    std::vector<float> chunk(std::min<std::size_t>(p.size(), 1 << 16));
    for (std::size_t at = 0; at < p.size(); at += chunk.size()) {
      const std::size_t n = std::min(chunk.size(), p.size() - at);
      p.widen(at, n, chunk.data());
      out.call<void>("set", val(emscripten::typed_memory_view(n, chunk.data())), at);
    }
    return out;
  }

  // Keeps a safetensors file (bytes from a file picker, a drop or training) as the weights
  // run(…, {user_weights: true}) uses, if the core reads it; else the core's message.
  std::string setUserWeights(const std::string& bytes) {
    try {
      nlohmann::json reply = session_.set_user_weights(bytes);
      reply["ok"] = true;
      return reply.dump();
    } catch (const std::exception& e) {
      return error_reply(e);
    }
  }
  val userWeights() const {
    const std::string& w = session_.user_weights();
    return val(emscripten::typed_memory_view(w.size(), reinterpret_cast<const std::uint8_t*>(w.data())));
  }

 private:
  // The page's step index: metadata of every step and parameter, no values (views carry them).
  static constexpr ew::DocumentOptions kMetadata{{false, true, false}, true};

  template <class F>
  static val staged(F buffer) {
    try {
      const ew::Session::StagedBuffer b = buffer();
      return val(emscripten::typed_memory_view(b.size, b.data));
    } catch (const std::exception&) {
      return val::null();
    }
  }

  // on_round_ as a GenCallback: each round as JSON (none when no function is set).
  ew::GenCallback round_callback() const {
    if (!on_round_.isNull() && !on_round_.isUndefined() && on_round_.typeOf().as<std::string>() == "function")
      return [fn = on_round_](const ew::GenProgress& e) {
        const nlohmann::json j = {{"round", e.round},   {"max_len", e.max_len},       {"id", e.id},
                                  {"token", e.pick->token}, {"prob", e.pick->prob},   {"input", e.pick->decoder_input},
                                  {"ms", e.ms},         {"phase", e.phase},           {"last", e.last},  {"end", e.end},
                                  {"prompt", e.prompt}, {"cache_rows", e.cache_rows}, {"layers", e.layers},
                                  {"kv_heads", e.kv_heads}, {"head_dim", e.head_dim}, {"heads", e.heads}};
        fn(j.dump());
      };
    return {};
  }

  ew::Session session_;
  val on_round_ = val::null();
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
// The kernels' thread count (core/kernels/pool.h): 1 except in the pthreads module.
int set_threads(int n) {
  ew::set_threads(n);
  return ew::threads();
}
int threads() { return ew::threads(); }

bool builtin_model_loaded(const std::string& name) {
  for (const ew::BuiltinModel& b : ew::builtin_models())
    if (name == b.name) return b.data != nullptr;
  return false;
}
// Embind passes a Uint8Array as std::string bytes.
std::string load_builtin_model(const std::string& name, const std::string& bytes) {
  try {
    ew::load_builtin_model(name, bytes);
    return "";
  } catch (const std::exception& e) {
    return e.what();
  }
}

// that thousands of recomputes leak nothing.
// (mallinfo's fields are int: read as unsigned, the count holds up to the 4 GiB the heap can reach)
double heap_bytes_in_use() { return static_cast<double>(static_cast<unsigned>(mallinfo().uordblks)); }
// The wasm memory's size: it never shrinks, so this is the peak the heap grew to.
double wasm_memory_bytes() { return static_cast<double>(__builtin_wasm_memory_size(0)) * 65536.0; }

}  // namespace

EMSCRIPTEN_BINDINGS(encoder_walkthrough) {
  emscripten::class_<Engine>("Engine")
      .constructor<>()
      .function("run", &Engine::run)
      .function("rerun", &Engine::rerun)
      .function("sweep", &Engine::sweep)
      .function("stepCount", &Engine::stepCount)
      .function("stepData", &Engine::stepData)
      .function("paramCount", &Engine::paramCount)
      .function("paramData", &Engine::paramData)
      .function("setUserWeights", &Engine::setUserWeights)
      .function("userWeights", &Engine::userWeights)
      .function("runCheckpoint", &Engine::runCheckpoint)
      .function("stageCheckpointFile", &Engine::stageCheckpointFile)
      .function("stagedView", &Engine::stagedView)
      .function("loadCheckpoint", &Engine::loadCheckpoint)
      .function("clearCheckpointFiles", &Engine::clearCheckpointFiles)
      .function("onRound", &Engine::onRound);
  emscripten::class_<MatmulBench>("MatmulBench")
      .constructor<int, int, int>()
      .function("run", &MatmulBench::run)
      .function("checksum", &MatmulBench::checksum);
  emscripten::function("presetsJson", &presets_json);
  emscripten::function("configSchemaJson", &ew::config_schema_json);
  emscripten::function("kernelIsa", &kernel_isa);
  emscripten::function("builtinModelLoaded", &builtin_model_loaded);
  emscripten::function("loadBuiltinModel", &load_builtin_model);
  emscripten::function("setThreads", &set_threads);
  emscripten::function("threads", &threads);
  emscripten::function("heapBytesInUse", &heap_bytes_in_use);
  emscripten::function("wasmMemoryBytes", &wasm_memory_bytes);
}
