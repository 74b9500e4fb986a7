// session.cpp — one run and everything it can ask for (session.h).
#include "session/session.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "io/checkpoint.h"
#include "io/model_file.h"
#include "io/presets.h"
#include "io/safetensors.h"
#include "model/config_schema.h"
#include "model/error.h"
#include "model/params.h"
#include "session/answers.h"
#include "session/means.h"
#include "trace/attribution.h"
#include "trace/backward.h"
#include "trace/forward.h"
#include "trace/generate.h"
#include "trace/lens.h"

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
                            {"fills", &RunOptions::fills},           {"lens", &RunOptions::lens},
                            {"attribute", &RunOptions::attribute}};

std::string shown(const json& v) {
  const std::string s = v.dump();
  return s.size() > 40 ? s.substr(0, 40) + "…" : s;
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::vector<std::string> strings(const std::string& key, const json& v) {
  if (!v.is_array()) throw Error("the run option \"" + key + "\" must be a list of strings, got " + shown(v));
  std::vector<std::string> out;
  for (const json& x : v) {
    if (!x.is_string()) throw Error("the run option \"" + key + "\" must be a list of strings, got " + shown(x));
    out.push_back(x.get<std::string>());
  }
  return out;
}

std::string text(const std::string& key, const json& v) {
  if (!v.is_string()) throw Error("the run option \"" + key + "\" must be a string, got " + shown(v));
  return v.get<std::string>();
}

// The intervention keys of the run options (trace/intervene.h); false: not one of them.
bool intervention_option(RunOptions& o, const std::string& key, const json& v) {
  InterventionSpec& iv = o.intervene;
  if (key == "ablate") {
    iv.ablate = strings(key, v);
  } else if (key == "ablate_mode") {
    const std::string m = text(key, v);
    if (m != "zero" && m != "mean") throw Error("the run option \"ablate_mode\" is \"zero\" or \"mean\", got " + shown(v));
    iv.ablate_mode = m == "mean" ? AblateMode::Mean : AblateMode::Zero;
  } else if (key == "mean_task") {
    o.mean_task = text(key, v);
  } else if (key == "set") {
    if (!v.is_object()) throw Error("the run option \"set\" must be an object {\"ID[r,c]\": number}, got " + shown(v));
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (!it.value().is_number()) throw Error("\"set\": the value of \"" + it.key() + "\" must be a number, got " + shown(it.value()));
      iv.set.push_back(make_set(it.key(), it.value().get<double>()));
    }
  } else if (key == "patch_from") {
    iv.patch_from = text(key, v);
  } else if (key == "patch") {
    for (const std::string& p : strings(key, v)) iv.patch.push_back(parse_patch(p));
  } else if (key == "label") {
    if (!v.is_string() && !v.is_number_integer())
      throw Error("the run option \"label\" must be a label's name or index, got " + shown(v));
    o.label = v.is_string() ? v.get<std::string>() : std::to_string(v.get<long long>());
  } else if (key == "mask_targets") {
    o.mask_targets = strings(key, v);
  } else {
    return false;
  }
  return true;
}

// The run's backward target (RunOptions::label, mask_targets) into the model: the label by
// name, else as an index of config.num_labels.
void apply_targets(Model& m, const RunOptions& o) {
  if (!o.mask_targets.empty()) m.mask_targets = o.mask_targets;
  if (!o.label) return;
  const int n = m.config.num_labels;
  if (n == 0) throw Error("the run option \"label\" needs a classifier (config.num_labels is 0)");
  const std::string& l = *o.label;
  for (std::size_t i = 0; i < m.label_names.size(); ++i)
    if (m.label_names[i] == l) return void(m.label = static_cast<int>(i));
  const bool digits = !l.empty() && l.size() < 6 && std::all_of(l.begin(), l.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!digits || std::stoi(l) >= n)
    throw Error("the run option \"label\" is \"" + l.substr(0, 40) + "\": neither one of the labels nor an index below " +
                std::to_string(n));
  m.label = std::stoi(l);
}

// "[r, c]" of flat index i in a tensor of this shape.
std::string index_of(std::size_t i, const std::vector<int>& shape) {
  std::string out;
  for (std::size_t k = shape.size(); k-- > 0;) {
    const auto n = static_cast<std::size_t>(std::max(shape[k], 1));
    out = std::to_string(i % n) + (out.empty() ? "" : ", ") + out;
    i /= n;
  }
  return "[" + out + "]";
}

bool has_neg_inf(const Step& s) {
  for (float v : s.data)
    if (v == -INFINITY) return true;
  return false;
}

// The overflow scan: the first step, in the order the passes computed them, that holds a
// non-finite value although its inputs are finite, stops the run with that step's name. −∞ is
// a value only where a mask puts it: in a mask step, and in a step that reads one (the scaled
// scores S/√d_k + M); anywhere else, and NaN or +∞ anywhere, is float32 running out of range.
// One pass over the trace's values after the run: a few percent of the forward pass.
void check_finite(const Trace& t) {
  std::unordered_map<std::string_view, bool> masked;  // step id → holds a mask's −∞
  for (std::size_t k = 0; k < t.size(); ++k) {
    const Step& s = t[k];
    bool reads_mask = s.kind == "mask";
    for (const std::string& in : s.inputs) {  // a gradient is never −∞ by a mask
      auto it = masked.find(in);
      reads_mask = reads_mask || (it != masked.end() && it->second);
    }
    reads_mask = reads_mask && s.kind != "grad";
    for (std::size_t i = 0; i < s.data.size(); ++i) {
      const float v = s.data[i];
      if (std::isfinite(v) || (v == -INFINITY && reads_mask)) continue;
      const std::string value = std::isnan(v) ? "NaN" : v > 0 ? "+inf" : "-inf", at = index_of(i, s.shape);
      throw Error("overflow: step " + s.id + " (" + s.title + ") produced " + value + " at " + at +
                      " from finite inputs: its numbers exceed float32's range (about ±3.4e38), so the run stops there",
                  "overflow", {{"step", s.id}, {"title", s.title}, {"value", value}, {"at", at}});
    }
    masked[s.id] = reads_mask && has_neg_inf(s);
  }
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
    if (intervention_option(o, key, v)) continue;
    const Switch* s = nullptr;
    std::string names = "max_len, ablate, ablate_mode, mean_task, set, patch_from, patch, label, mask_targets";
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
    throw Error("internal: a checkpoint is loaded by load_checkpoint_model");
  } else {
    const Preset* p = find_preset(source.value.empty() ? "default" : source.value);
    if (!p) throw Error("unknown preset \"" + source.value + "\" (see --list-presets)");
    m = model_from_string(p->model_json);
  }
  if (source.text) m.text = *source.text;
  return m;
}

const Model& Session::load(const ModelSource& source, const RunOptions& options) {
  const bool reuse = ok_ && !options.user_weights && !params_set_;
  reclaim_checkpoint_params();
  ok_ = next_ready_ = false;
  if (source.kind == ModelSource::Kind::Checkpoint && !options.user_weights) {
    load_checkpoint_model(source);  // session_checkpoint.cpp: the held weights, moved
    return next_;
  }
  next_ = read_model(source, options);
  if (reuse) reuse_seeded_params(next_, model_);  // only the text changed: keep the weights
  next_ready_ = true;
  return next_;
}

// The forward pass, or greedy generation (a model with a decoder) whose trace is its last round's.
void Session::forward(Model& model, const RunOptions& options) {
  if (options.generate && model.arch.lm_head) {
    std::vector<int> ids;
    GenTiming timing;
    const std::vector<GenRound> rounds = generate_causal(model, trace_, options.max_len, &ids, &timing, options.on_round);
    report_["generated"] = generated_tokens(rounds);
    report_["generated_ids"] = ids;
    // A checkpoint's tokens as its tokenizer decodes them (GPT-2's "Ġmat" is " mat").
    if (running_from_checkpoint_ && checkpoint_ && checkpoint_->tokenizer.can_encode())
      report_["generated_text"] = checkpoint_->tokenizer.decode(ids);
    // The prompt's run (prefill) and the rounds through the key/value cache (decode) apart.
    report_["timing"] = {{"prefill_ms", timing.prefill_ms}, {"decode_ms", timing.decode_ms},
                         {"decode_rounds", timing.decode_rounds}, {"record_ms", timing.record_ms}};
    report_["rounds"] = rounds_json(rounds);
  } else if (options.generate && model.config.decoder_layers > 0) {
    const std::vector<GenRound> rounds = generate_greedy(model, trace_, options.max_len, options.on_round);
    report_["generated"] = generated_tokens(rounds);
    report_["rounds"] = rounds_json(rounds);
  } else {
    ew::run(model, trace_);
  }
}

// The backward pass. A model it refuses (nothing to predict, the right answer's probability 0)
// still shows its forward pass, with the reason in "backward_error"; a gradient that overflows
// stops the run (check_finite).
void Session::backward(Model& model) {
  try {
    run_backward(model, trace_);
  } catch (const Error& e) {
    if (e.code == "overflow") throw;
    report_["backward_error"] = e.what();
    ew::run(model, trace_);  // drops any gradient steps recorded before the error
  }
}

void Session::run(const RunOptions& options) {
  if (!next_ready_) throw Error("internal: the session has no model loaded to run");
  next_ready_ = false;
  Model model = std::move(next_);
  const bool from_checkpoint = running_from_checkpoint_ = std::exchange(next_from_checkpoint_, false);
  json last_report = std::exchange(report_, json::object());
  backward_asked_ = options.backward;
  params_set_ = false;
  const bool intervene = !options.intervene.empty();
  if (intervene && options.backward)
    throw Error("the backward pass and interventions do not go together: run the intervention without --backward");
  const auto t0 = std::chrono::steady_clock::now();
  try {
    apply_targets(model, options);
    if (intervene) intervened_forward(model, options);
    else forward(model, options);
    ms_ = ms_since(t0);
    check_finite(trace_);
    const auto t1 = std::chrono::steady_clock::now();
    if (options.backward) backward(model);
    backward_ms_ = ms_since(t1);
    if (options.backward) check_finite(trace_);
  } catch (const Error& e) {
    if (from_checkpoint) return_checkpoint_params(model);
    if (good_) restore(std::move(last_report));  // an overflow, a refused intervention: the trace may be half this run's
    throw;
  } catch (...) {
    if (from_checkpoint) return_checkpoint_params(model);
    throw;
  }
  if (options.lens) rec_lens(trace_, model);
  if (options.attribute) {
    try {
      report_["attribution"] = rec_attribution(trace_, model);
    } catch (const Error& e) {
      report_["attribution_error"] = e.what();
    }
  }
  if (model_from_checkpoint_ && !from_checkpoint && checkpoint_) {  // the held weights go home, not away
    undo_checkpoint_cells(model_.params);
    checkpoint_->model.params = std::move(model_.params);
  }
  model_ = std::move(model);
  model_from_checkpoint_ = from_checkpoint;
  options_ = options;
  options_.on_round = nullptr;  // a later restore() or rerun() streams nothing to a caller gone by then
  good_ = true;
  ok_ = true;
  const json answered = answers(model_, options);
  for (auto it = answered.begin(); it != answered.end(); ++it) report_[it.key()] = it.value();
  if (!model_.arch.model_type.empty())
    report_["checkpoint"] = {{"model_type", model_.arch.model_type}, {"architecture", model_.arch.architecture},
                             {"notes", model_.arch.notes},
                             // what the page's explanations multiply the scores by (0: 1/√head_dim)
                             {"attn_scale", static_cast<double>(model_.arch.attn_scale)},
                             {"sliding_window", model_.arch.sliding_window},
                             // the embeddings' factor as the engine applies it (Gemma: √d in the file's dtype)
                             {"embed_scale", static_cast<double>(model_.arch.embed_scale)}};
  if (json unknown = unknown_json(trace_); !unknown.is_null()) report_["unknown"] = std::move(unknown);
}

// A run's answers: the prediction, the fills, and (with interventions, for a decoder that is
// not generating) each position's most probable next token.
json Session::answers(const Model& m, const RunOptions& options) const {
  json out = json::object();
  if (options.prediction && m.config.num_labels > 0) out["prediction"] = prediction_json(m, trace_);
  if (options.fills && m.config.masked_lm) out["fills"] = fills_json(trace_);
  if (!options.intervene.empty() && m.config.decoder_layers > 0 && !options.generate) {
    const Step& p = trace_.at("probs");
    const int V = p.shape[1];
    json next = json::array();
    for (int i = 0; i < p.shape[0]; ++i) {
      const float* row = p.data.data() + static_cast<std::size_t>(i) * V;
      next.push_back(trace_.text.vocab[std::max_element(row, row + V) - row]);
    }
    out["next_tokens"] = next;
  }
  return out;
}

const ColumnMeans& Session::means(const Model& model, const RunOptions& options) {
  const Task* task = options.mean_task.empty() ? shipped_task(model) : &find_task(options.mean_task);
  if (!task)
    throw Error("mean ablation replaces a unit by its mean over a task's held-out inputs: this model is not one of the "
                "shipped trained models, so name the task (mean_task, --ablate-task)");
  const std::string key = task->name + "\n" + model.weights;
  if (model.weights.empty() || !means_.count(key)) means_[key] = held_out_means(model, *task, 100);
  return means_[key];
}

// The run with interventions: first without them (the baseline's answers, and the trace whose
// steps the specs resolve against), then the donor sentence when patching, then with them.
void Session::intervened_forward(Model& model, const RunOptions& options) {
  const InterventionSpec& spec = options.intervene;
  if (options.generate && (spec.patch_from || !spec.patch.empty()))
    throw Error("patching and generation do not go together: the decoder's length changes every round");
  RunOptions quiet = options;  // the baseline's rounds are not the ones shown: only the intervened run streams
  quiet.on_round = nullptr;
  forward(model, quiet);
  json baseline = answers(model, options);
  for (const char* key : {"generated"})
    if (report_.contains(key)) baseline[key] = report_[key];
  report_ = json::object();
  Trace donor;
  if (spec.patch_from) {
    Model d = model;
    d.text = *spec.patch_from;
    // A checkpoint's model carries its tokens (its own tokenizer's): re-tokenize the donor, or
    // the donor run would repeat this run's tokens and every patch would change nothing.
    if (running_from_checkpoint_ && checkpoint_) d.tokens = checkpoint_tokens(*checkpoint_, d.text, d.text2, nullptr);
    ew::run(d, donor);
  }
  const ColumnMeans* column_means = spec.ablate_mode == AblateMode::Mean && !spec.ablate.empty() ? &means(model, options) : nullptr;
  const Interventions iv = resolve_interventions(spec, trace_, model, spec.patch_from ? &donor : nullptr, column_means);
  if (options.generate)
    for (const auto& [id, edits] : iv.edits)
      for (const Edit& e : edits)
        if (e.kind == Edit::Kind::Set && trace_.at(id).place.section != "encoder" && trace_.at(id).place.section != "input")
          throw Error("with generation, set cells of encoder steps or of parameters: \"" + id + "\" changes length every round");
  params_set_ = !iv.params.empty();
  if (running_from_checkpoint_) note_checkpoint_cells(model, iv);
  struct Detach {  // the trace never keeps a pointer to these interventions past this run
    Trace& t;
    ~Detach() { t.interventions = nullptr; }
  } detach{trace_};
  trace_.interventions = &iv;
  forward(model, options);
  for (std::size_t i = 0; i < trace_.size(); ++i)
    for (float v : trace_[i].data)
      if (std::isnan(v) || (std::isinf(v) && v > 0))
        throw Error("with these interventions step \"" + trace_[i].id + "\" is not finite (NaN or +inf): a set value "
                    "breaks the arithmetic after it (e.g. a negative variance or a zero row sum)");
  report_["baseline_prediction"] = baseline;
}

// After a failed run (an overflow, an intervention refused once the baseline had run): the last
// good run's trace and report again, with its interventions, lens and attribution (computed
// again: runs are deterministic), so the steps a caller has not fetched yet are still that run's
// (the page keeps showing it), never the failed one's.
void Session::restore(json report) {
  Model copy;
  Model& m = model_from_checkpoint_ ? model_ : (copy = model_);  // a checkpoint's weights are held, not copied
  if (!options_.intervene.empty())
    intervened_forward(m, options_);
  else
    forward(m, options_);
  if (options_.backward) backward(m);
  if (options_.lens) rec_lens(trace_, m);
  if (options_.attribute) {
    try {
      rec_attribution(trace_, m);
    } catch (const Error&) {  // the restored report says why ("attribution_error")
    }
  }
  report_ = std::move(report);
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
