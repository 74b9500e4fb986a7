// session.cpp — one run and everything it can ask for (session.h).
#include "session/session.h"

#include <chrono>

#include "io/checkpoint.h"
#include "io/model_file.h"
#include "io/presets.h"
#include "io/safetensors.h"
#include "model/config_schema.h"
#include "model/error.h"
#include "model/params.h"
#include "session/answers.h"
#include "trace/backward.h"
#include "trace/forward.h"
#include "trace/generate.h"

namespace ew {

using nlohmann::json;

namespace {

// The run options that are switches, by their JSON name.
struct Switch {
  const char* name;
  bool RunOptions::*field;
};
const Switch kSwitches[] = {{"backward", &RunOptions::backward},         {"generate", &RunOptions::generate},
                            {"user_weights", &RunOptions::user_weights}, {"prediction", &RunOptions::prediction},
                            {"fills", &RunOptions::fills}};

std::string shown(const json& v) {
  const std::string s = v.dump();
  return s.size() > 40 ? s.substr(0, 40) + "…" : s;
}

// A checkpoint directory's model with the run's tokens (its tokenizer's, or the ids given).
Model checkpoint_model(const ModelSource& source) {
  if (source.text2 && source.ids) throw Error("give a second sentence as text (--text2) or everything as --ids, not both");
  Checkpoint c = load_checkpoint(read_checkpoint_dir(source.value));
  c.model.text = source.text.value_or(source.ids ? "" : "Hello world.");
  c.model.text2 = source.text2.value_or("");
  c.model.tokens = checkpoint_tokens(c, c.model.text, c.model.text2, source.ids ? &*source.ids : nullptr);
  return std::move(c.model);
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

RunOptions run_options_from_json(const json& j) {
  RunOptions o;
  if (j.is_null()) return o;
  if (!j.is_object()) throw Error("the run options must be a JSON object, got " + shown(j));
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& key = it.key();
    const json& v = it.value();
    if (key == "max_len") {
      if (!v.is_number_integer() || v.get<long long>() < 1 || v.get<long long>() > 100000)
        throw Error("the run option \"max_len\" must be a whole number from 1 to 100000, got " + shown(v));
      o.max_len = v.get<int>();
      continue;
    }
    const Switch* s = nullptr;
    std::string names = "max_len";
    for (const Switch& x : kSwitches) {
      if (key == x.name) s = &x;
      names += std::string(", ") + x.name;
    }
    if (!s) throw Error("unknown run option \"" + key + "\" (allowed: " + names + ")");
    if (!v.is_boolean()) throw Error("the run option \"" + key + "\" must be true or false, got " + shown(v));
    o.*(s->field) = v.get<bool>();
  }
  return o;
}

Model Session::read_model(const ModelSource& source, const RunOptions& options) const {
  Model m;
  if (options.user_weights) {
    if (source.kind != ModelSource::Kind::Json) throw Error("user weights go with a model file given as JSON");
    if (user_weights_.empty()) throw Error("no weights have been loaded");
    m = model_with_weight_bytes(model_file_json(source.value), user_weights_);
  } else if (source.kind == ModelSource::Kind::Json) {
    m = model_from_string(source.value);
  } else if (source.kind == ModelSource::Kind::File) {
    m = model_from_file(source.value);
  } else if (source.kind == ModelSource::Kind::Checkpoint) {
    return checkpoint_model(source);
  } else {
    const Preset* p = find_preset(source.value.empty() ? "default" : source.value);
    if (!p) throw Error("unknown preset \"" + source.value + "\" (see --list-presets)");
    m = model_from_string(p->model_json);
  }
  if (source.text) m.text = *source.text;
  return m;
}

const Model& Session::load(const ModelSource& source, const RunOptions& options) {
  const bool reuse = ok_ && !options.user_weights;
  ok_ = next_ready_ = false;
  next_ = read_model(source, options);
  if (reuse) reuse_seeded_params(next_, model_);  // only the text changed: keep the weights
  next_ready_ = true;
  return next_;
}

// The forward pass, or greedy generation (a model with a decoder) whose trace is its last round's.
void Session::forward(Model& model, const RunOptions& options) {
  if (options.generate && model.arch.lm_head) {
    std::vector<int> ids;
    const std::vector<GenRound> rounds = generate_causal(model, trace_, options.max_len, &ids);
    report_["generated"] = generated_tokens(rounds);
    report_["generated_ids"] = ids;
    report_["rounds"] = rounds_json(rounds);
  } else if (options.generate && model.config.decoder_layers > 0) {
    const std::vector<GenRound> rounds = generate_greedy(model, trace_, options.max_len);
    report_["generated"] = generated_tokens(rounds);
    report_["rounds"] = rounds_json(rounds);
  } else {
    ew::run(model, trace_);
  }
}

// The backward pass. A model it refuses (nothing to predict, a gradient that overflows) still
// shows its forward pass, with the reason in "backward_error".
void Session::backward(Model& model) {
  try {
    run_backward(model, trace_);
  } catch (const Error& e) {
    report_["backward_error"] = e.what();
    ew::run(model, trace_);  // drops any gradient steps recorded before the error
  }
}

void Session::run(const RunOptions& options) {
  if (!next_ready_) throw Error("internal: the session has no model loaded to run");
  next_ready_ = false;
  Model model = std::move(next_);
  report_ = json::object();
  backward_asked_ = options.backward;
  const auto t0 = std::chrono::steady_clock::now();
  forward(model, options);
  ms_ = ms_since(t0);
  const auto t1 = std::chrono::steady_clock::now();
  if (options.backward) backward(model);
  backward_ms_ = ms_since(t1);
  model_ = std::move(model);
  ok_ = true;
  if (options.prediction && model_.config.num_labels > 0) report_["prediction"] = prediction_json(model_, trace_);
  if (options.fills && model_.config.masked_lm) report_["fills"] = fills_json(trace_);
  if (!model_.arch.model_type.empty())
    report_["checkpoint"] = {{"model_type", model_.arch.model_type}, {"architecture", model_.arch.architecture},
                             {"notes", model_.arch.notes}};
}

void Session::run(const ModelSource& source, const RunOptions& options) {
  load(source, options);
  run(options);
}

double Session::rerun() {
  if (!ok_) return -1.0;
  const auto t0 = std::chrono::steady_clock::now();
  ew::run(model_, trace_);
  return ms_since(t0);
}

json Session::set_user_weights(std::string bytes) {
  const Model w = model_from_safetensors(
      read_safetensors(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
  user_weights_ = std::move(bytes);
  return {{"config", config_to_json(w.config)}, {"vocab", w.vocab}, {"labels", w.label_names}};
}

nlohmann::ordered_json session_json(const Session& session, const DocumentOptions& options) {
  nlohmann::ordered_json doc = trace_json(session.trace(), session.model(), options.trace);
  for (auto it = session.report().begin(); it != session.report().end(); ++it) doc[it.key()] = it.value();
  if (options.timings) {
    doc["ms"] = session.ms();
    doc["setup_ms"] = session.trace().setup_ms;
    if (session.backward_asked()) doc["backward_ms"] = session.backward_ms();
  }
  return doc;
}

}  // namespace ew
