// session.h — one place for everything a run can ask: the model read from its source (with the
// seeded parameters kept when only the text changed), the forward trace, greedy generation
// with its rounds, the backward pass, the classifier's prediction, the masked-word fills,
// timings, and the result as one JSON document. The CLI (cli/main.cpp) and the wasm Engine
// (wasm/bindings.cpp) only convert their input into a ModelSource and RunOptions and the
// document into their output.
//
//   ew::Session s;
//   s.run({ew::ModelSource::Kind::Json, model_json}, ew::run_options_from_json(options));
//   nlohmann::ordered_json doc = ew::session_json(s, {});  // the trace's keys, then the report's
//
// Seams for what comes next. A model comes from a ModelSource: a checkpoint directory is one
// more Kind, read in read_model (session.cpp). What a run asks for is RunOptions, read from JSON
// in run_options_from_json only (interventions, a donor run, the logit lens and attribution
// are fields there: Session::intervened_forward runs them). What a run answers besides its trace is report(), a JSON object each
// stage of run() writes its own keys into ("generated", "rounds", "prediction", "fills",
// "next_tokens", "backward_error", "baseline_prediction", "attribution", "attribution_error"),
// which session_json writes after the trace's keys, in name order.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/checkpoint.h"
#include "io/trace_json.h"
#include "model/model.h"
#include "trace/generate.h"
#include "trace/intervene.h"
#include "trace/trace.h"

namespace ew {

// Where the model of a run comes from.
struct ModelSource {
  enum class Kind {
    Json,    // value: a model file's JSON text (docs/model-file.md)
    File,    // value: the path of a model file ("weights" may name a file beside it)
    Preset,  // value: a built-in preset's name ("" for "default")
    Checkpoint,  // value: a Hugging Face checkpoint's directory (io/checkpoint.h); "": the one
                 // the session holds (load_checkpoint: files a page handed over as bytes)
  };
  Kind kind = Kind::Json;
  std::string value;
  std::optional<std::string> text;  // replaces the model's text (the CLI's --text)
  std::optional<std::string> text2;  // a checkpoint's second sentence (BERT: segment B)
  std::optional<std::vector<int>> ids;  // a checkpoint's token ids, instead of tokenizing text
};

// What a run asks for besides the forward pass.
struct RunOptions {
  bool backward = false;      // the loss and every gradient; if the backward pass refuses the
                              // model, "backward_error" says why and the forward trace stays
  bool generate = false;      // greedy decoding, when the model has a decoder or an LM head
                              // ("generated", "rounds"; a checkpoint also "generated_ids")
  int max_len = 32;           // at most this many tokens generated
  bool user_weights = false;  // configuration and parameters from set_user_weights' file
  bool prediction = false;    // a classifier's answer ("prediction")
  bool fills = false;         // a masked-word head's top 5 for each [MASK] ("fills")
  // Interventions (trace/intervene.h): ablations, cell sets, a donor sentence and patches. The
  // run is then the forward pass with them applied; "baseline_prediction" holds the answers of
  // the same run without them.
  InterventionSpec intervene;
  std::string mean_task;      // mean ablation's task ("": the shipped model's own)
  bool lens = false;          // lens.<layer>.* steps (trace/lens.h)
  bool attribute = false;     // attr.* steps and "attribution" (trace/attribution.h); for a
                              // model that does not decompose, "attribution_error" says why
  // The backward pass's target where the model brings none (a checkpoint), as a model file's
  // "label" and "mask_targets" give it: a classifier's label (a name of its labels or an
  // index) and the true tokens at the [MASK]s, in order. A GPT-2 LM head needs none.
  std::optional<std::string> label;
  std::vector<std::string> mask_targets;
  // Sees each generation round as it ends (generate.h's GenProgress): the wasm Engine streams
  // them to the page. Not from JSON; it changes no result.
  GenCallback on_round;
};

// {"backward", "generate", "max_len", "user_weights", "prediction", "fills", "lens",
// "attribute", "ablate": [id…], "ablate_mode": "zero"|"mean", "mean_task", "set": {cell: number},
// "patch_from": text, "patch": ["ID@p,q"…], "label": name or index, "mask_targets": [token…]},
// each optional; null reads as {}. An unknown key, a
// value of the wrong type or a spec the parser refuses is an ew::Error naming it.
RunOptions run_options_from_json(const nlohmann::json& j);

// What the document holds besides the trace's keys and the report.
struct DocumentOptions {
  JsonOptions trace;     // step data, params, param data (io/trace_json.h)
  bool timings = false;  // "ms" (forward or generation), "setup_ms" (of it: drawing and packing
                         // seeded weights), "backward_ms" (when the backward pass was asked for)
};

class Session {
 public:
  // Reads the model (not yet run) and returns it; throws ew::Error. When the last run
  // succeeded and this model draws the same seeded parameters, they are kept instead of drawn
  // again (reuse_seeded_params: only the text changed).
  const Model& load(const ModelSource& source, const RunOptions& options);
  // Runs the loaded model: the forward pass (or generation), the backward pass, then the
  // answers into report(). Throws ew::Error (a backward error is reported, not thrown).
  void run(const RunOptions& options);
  // load, then run.
  void run(const ModelSource& source, const RunOptions& options);
  // The forward pass again on the last model run (benchmarks); milliseconds, −1 if none.
  double rerun();

  // Keeps a safetensors file as the weights of runs with user_weights; returns its
  // {"config", "vocab", "labels"}. A file the reader refuses is its ew::Error (nothing kept).
  nlohmann::json set_user_weights(std::string bytes);
  const std::string& user_weights() const { return user_weights_; }

  // A checkpoint's files (bytes by standard name) become the checkpoint the session holds: runs
  // of ModelSource{Kind::Checkpoint, ""} use it, re-tokenizing their text, never reading the
  // weights again. The previous checkpoint is released first (one set of weights in memory).
  // Returns {name, model_type, architecture, params, bytes, file_bytes, num_layers, d_model,
  // num_heads, vocab_size, notes}; name is config.json's "_name_or_path" or `name`. Throws the
  // core's ew::Error naming the file and key (nothing held then).
  nlohmann::json load_checkpoint(CheckpointFiles&& files, const std::string& name);
  // A buffer of `size` bytes for the checkpoint file of that standard name (config.json,
  // model.safetensors, tokenizer.json, vocab.txt, vocab.json, merges.txt,
  // tokenizer_config.json), which a caller fills in place (the wasm heap: no second copy);
  // load_staged_checkpoint consumes them. An unknown name is an ew::Error.
  struct StagedBuffer {
    std::uint8_t* data;
    std::size_t size;
  };
  StagedBuffer stage_checkpoint_file(const std::string& file, std::size_t size);
  StagedBuffer stage_checkpoint_file_view(const std::string& file);  // the staged buffer again
  nlohmann::json load_staged_checkpoint(const std::string& name);
  void clear_staged_checkpoint() { staged_ = CheckpointFiles{}; }
  const nlohmann::json& checkpoint_info() const { return checkpoint_info_; }

  bool ok() const { return ok_; }  // the last run succeeded
  const Model& model() const { return model_; }  // the last model run (its parameters)
  const Trace& trace() const { return trace_; }
  const nlohmann::json& report() const { return report_; }
  double ms() const { return ms_; }
  double backward_ms() const { return backward_ms_; }
  bool backward_asked() const { return backward_asked_; }

 private:
  Model read_model(const ModelSource& source, const RunOptions& options) const;
  void forward(Model& model, const RunOptions& options);
  void backward(Model& model);
  void intervened_forward(Model& model, const RunOptions& options);
  nlohmann::json answers(const Model& model, const RunOptions& options) const;
  const ColumnMeans& means(const Model& model, const RunOptions& options);
  void restore(nlohmann::json report);  // the last good run's trace and report, after a failed run
  // session_checkpoint.cpp: the held checkpoint's model with the source's tokens (next_), its
  // weights moved (not copied) from wherever they are now; and back when a run fails.
  void load_checkpoint_model(const ModelSource& source);
  void reclaim_checkpoint_params();
  void return_checkpoint_params(Model& failed);  // a failed run's weights back where they live
  void note_checkpoint_cells(const Model& model, const Interventions& iv);  // cells about to be set
  void undo_checkpoint_cells(std::vector<Param>& params);
  void release_checkpoint();

  Model model_, next_;  // the last model run (good_: it succeeded); the one loaded for the next run
  RunOptions options_;  // what the last good run asked for
  bool good_ = false;
  Trace trace_;
  bool ok_ = false, next_ready_ = false;
  std::string user_weights_;
  nlohmann::json report_ = nlohmann::json::object();
  double ms_ = 0, backward_ms_ = 0;
  bool backward_asked_ = false;
  bool params_set_ = false;  // the last run set parameter cells: its weights are not reused
  std::map<std::string, ColumnMeans> means_;  // mean ablation's means by task and weights
  // The checkpoint held across runs: its model (weights here between runs, in model_ after a
  // good run that used them: *_from_checkpoint_) and tokenizer; the directory it came from
  // ("" for bytes); cells an intervention set in those weights, with their original values.
  std::unique_ptr<Checkpoint> checkpoint_;
  std::string checkpoint_dir_;
  nlohmann::json checkpoint_info_;
  bool model_from_checkpoint_ = false, next_from_checkpoint_ = false, running_from_checkpoint_ = false;
  std::vector<std::pair<std::pair<std::string, std::size_t>, float>> checkpoint_dirty_;
  CheckpointFiles staged_;
};

// The last run as one document: the trace's keys (io/trace_json.h), then the report's, then
// the timings when asked for. The CLI's --json and the Engine's reply are this.
nlohmann::ordered_json session_json(const Session& session, const DocumentOptions& options);

}  // namespace ew
