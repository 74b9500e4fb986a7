// sweep.cpp — ablation and patching sweeps (sweep.h).
#include "session/sweep.h"

#include <algorithm>
#include <array>

#include "model/error.h"
#include "model/naming.h"
#include "session/means.h"
#include "trace/forward.h"
#include "train/analyze.h"
#include "train/train.h"
#include "train/train_batched.h"

namespace ew {

using nlohmann::json;

namespace {

// A run of `model` on the first held-out example: the registry the ablations resolve against.
Trace registry(Model& m, const Task& task, std::uint64_t seed) {
  const Example ex = task.sample(seed, 0, Split::HeldOut);
  m.text = ex.source;
  if (task.decoder()) m.target = ex.target, m.target_given = true;
  Trace t;
  run(m, t);
  return t;
}

double accuracy_with(const Model& model, const Task& task, const std::vector<std::string>& ablate, AblateMode mode,
                     const ColumnMeans* means, std::uint64_t seed, int n) {
  Model m = model;
  const Trace reg = registry(m, task, seed);
  InterventionSpec spec;
  spec.ablate = ablate;
  spec.ablate_mode = mode;
  const Interventions iv = resolve_interventions(spec, reg, m, nullptr, means);
  Trace t;
  t.interventions = &iv;
  return held_out_accuracy(m, t, task, seed, n);
}

// The specs that switch off a whole feed-forward block: every unit of its ffn_hidden step.
std::vector<std::string> all_units(const Step& hidden) {
  std::vector<std::string> out;
  for (int j = 0; j < hidden.shape.back(); ++j) out.push_back(hidden.id + "[" + std::to_string(j) + "]");
  return out;
}

}  // namespace

double ablated_accuracy(const Model& model, const Task& task, const std::vector<std::string>& ablate, AblateMode mode,
                        std::uint64_t seed, int n) {
  const ColumnMeans means = mode == AblateMode::Mean ? held_out_means(model, task, 100) : ColumnMeans{};
  return accuracy_with(model, task, ablate, mode, &means, seed, n);
}

namespace {

// The batched pass's name for a head's context step or a feed-forward block's hidden step.
std::array<int, 3> batched_head(const Place& p) {
  return {p.section == "encoder" ? 0 : p.block == "cross_attention" ? 2 : 1, p.layer, p.head};
}
std::array<int, 2> batched_ffn(const Place& p) { return {p.section == "encoder" ? 0 : 1, p.layer}; }

// Zero ablations on the batched path (train_batched.h): every example of a chunk at once, the
// same switched-off columns as the recorded path's interventions, the same answers.
json batched_ablation_sweep(const Model& model, const Task& task, const Trace& reg, std::uint64_t seed, int n) {
  BatchedPass pass(model);
  const auto accuracy = [&](const BatchedPass::Ablation& a) {
    pass.set_ablation(a);
    return batched_accuracy(pass, model, task, seed, n);
  };
  json rows = json::array();
  for (const auto& [head, ctx] : head_context_steps(reg))
    rows.push_back({{"ablate", head}, {"accuracy", accuracy({{batched_head(reg.at(ctx).place)}, {}})}});
  for (const std::string& id : ffn_hidden_steps(reg))
    rows.push_back({{"ablate", step_id(reg.at(id).place, "ffn")}, {"accuracy", accuracy({{}, {batched_ffn(reg.at(id).place)}})}});
  return {{"task", task.name}, {"n", n}, {"mode", "zero"}, {"accuracy", accuracy({})}, {"ablations", rows}, {"path", "batched"}};
}

}  // namespace

json ablation_sweep(const Model& model, const Task& task, AblateMode mode, std::uint64_t seed, int n, SweepPath path) {
  Model m = model;
  const Trace reg = registry(m, task, seed);
  if (path != SweepPath::Recorded && mode == AblateMode::Zero && batched_unsupported(model).empty())
    return batched_ablation_sweep(model, task, reg, seed, n);
  const ColumnMeans means = mode == AblateMode::Mean ? held_out_means(model, task, 100) : ColumnMeans{};
  json rows = json::array();
  for (const auto& [head, ctx] : head_context_steps(reg))
    rows.push_back({{"ablate", head}, {"accuracy", accuracy_with(model, task, {head}, mode, &means, seed, n)}});
  for (const std::string& id : ffn_hidden_steps(reg)) {
    const Step& s = reg.at(id);
    rows.push_back({{"ablate", step_id(s.place, "ffn")},
                    {"accuracy", accuracy_with(model, task, all_units(s), mode, &means, seed, n)}});
  }
  Trace t;
  return {{"task", task.name}, {"n", n}, {"mode", mode == AblateMode::Mean ? "mean" : "zero"},
          {"accuracy", held_out_accuracy(m, t, task, seed, n)}, {"ablations", rows}, {"path", "recorded"}};
}

namespace {

// What the sweep compares: the output row where the answers first differ and both answers.
struct Answer {
  std::string logits;
  std::size_t row = 0, width = 0;
  int text = 0, donor = 0;
  double ld(const Trace& t) const {
    const float* z = t.at(logits).data.data() + row * width;
    return static_cast<double>(z[donor]) - z[text];
  }
};

Answer find_answer(const Model& m, const Trace& a, const Trace& b) {
  Answer ans;
  ans.logits = m.config.decoder_layers > 0 ? "logits" : m.config.num_labels > 0 ? "cls.logits" : "mlm.logits";
  if (!a.find(ans.logits)) throw Error("a patching sweep needs a head whose answers it compares");
  if (a.text.vocab != b.text.vocab)
    throw Error("a patching sweep compares the two runs' logits, which needs a model with its own vocabulary "
                "(a trained preset): this model's vocabulary is built from each text");
  const Step& za = a.at(ans.logits);
  const Step& zb = b.at(ans.logits);
  if (za.shape != zb.shape) throw Error("the two sentences do not line up: their outputs have different shapes");
  ans.width = za.shape.back();
  for (ans.row = 0; ans.row < za.size() / ans.width; ++ans.row) {
    const float* ra = za.data.data() + ans.row * ans.width;
    const float* rb = zb.data.data() + ans.row * ans.width;
    ans.text = static_cast<int>(std::max_element(ra, ra + ans.width) - ra);
    ans.donor = static_cast<int>(std::max_element(rb, rb + ans.width) - rb);
    if (ans.text != ans.donor) return ans;
  }
  throw Error("the two sentences get the same answers: there is no logit difference to restore");
}

}  // namespace

json patch_sweep(const Model& model, const std::string& text, const std::string& patch_from) {
  Model a = model, b = model;
  a.text = text, b.text = patch_from;
  a.text2.clear(), b.text2.clear();
  Trace ta, tb;
  run(a, ta);
  run(b, tb);
  const Answer ans = find_answer(a, ta, tb);
  const double ld_a = ans.ld(ta), ld_b = ans.ld(tb);
  // The share of the logit difference restored by patching `spec` from the donor.
  const auto restored = [&](const PatchSpec& p) {
    InterventionSpec spec;
    spec.patch_from = patch_from;
    spec.patch = {p};
    const Interventions iv = resolve_interventions(spec, ta, a, &tb, nullptr);
    Trace t;
    t.interventions = &iv;
    run(a, t);
    return (ans.ld(t) - ld_a) / (ld_b - ld_a);
  };
  json residual = json::array(), heads = json::array(), head_ids = json::array();
  for (std::size_t i = 0; i < ta.size(); ++i) {
    const Step& s = ta[i];
    const bool stream = s.id == "input" || s.id == "decoder_input" || (s.role == "output" && s.place.layer >= 0);
    if (!stream) continue;
    json row = json::array();
    for (int p = 0; p < s.shape[s.shape.size() - 2]; ++p) row.push_back(restored({s.id, {p}}));
    residual.push_back({{"step", s.id}, {"restored", row}});
  }
  for (const auto& [head, ctx] : head_context_steps(ta)) {
    head_ids.push_back(head);
    heads.push_back(restored({ctx, {}}));
  }
  const std::vector<std::string>& names = ta.text.vocab.empty() || ans.logits == "cls.logits" ? a.label_names : ta.text.vocab;
  const auto name = [&](int i) { return i < static_cast<int>(names.size()) ? names[i] : std::to_string(i); };
  return {{"text", text}, {"patch_from", patch_from}, {"row", ans.row}, {"answer", name(ans.text)},
          {"donor_answer", name(ans.donor)}, {"logit_diff", {{"text", ld_a}, {"donor", ld_b}}},
          {"source_tokens", ta.text.source_tokens.at(0)}, {"target_tokens", ta.text.target_tokens},
          {"residual", residual}, {"heads", {{"heads", head_ids}, {"restored", heads}}}};
}

namespace {

std::string sweep_text(const json& spec, const char* key) {
  const json& v = spec.at(key);
  if (!v.is_string()) throw Error(std::string("sweep: \"") + key + "\" must be a string");
  return v.get<std::string>();
}

int sweep_int(const json& spec, const char* key, int lo, int hi) {
  const json& v = spec.at(key);
  if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > hi)
    throw Error(std::string("sweep: \"") + key + "\" must be a whole number from " + std::to_string(lo) + " to " +
                std::to_string(hi));
  return static_cast<int>(v.get<long long>());
}

}  // namespace

json sweep_from_json(const Model& model, const json& spec) {
  if (!spec.is_object()) throw Error("sweep: expected an object such as {\"kind\": \"ablate\"}");
  const std::string kind = spec.contains("kind") ? sweep_text(spec, "kind") : "";
  const std::vector<std::string> keys = kind == "patch" ? std::vector<std::string>{"kind", "patch_from", "text"}
                                                        : std::vector<std::string>{"kind", "task", "mode", "seed", "n"};
  if (kind != "patch" && kind != "ablate") throw Error("sweep: \"kind\" is \"ablate\" or \"patch\", got \"" + kind + "\"");
  for (const auto& [k, v] : spec.items())
    if (std::find(keys.begin(), keys.end(), k) == keys.end()) throw Error("sweep: unknown key \"" + k + "\" for kind " + kind);
  if (kind == "patch") {
    if (!spec.contains("patch_from")) throw Error("sweep: a patching sweep needs \"patch_from\" (the donor sentence)");
    return patch_sweep(model, spec.contains("text") ? sweep_text(spec, "text") : model.text, sweep_text(spec, "patch_from"));
  }
  const Task* task = spec.contains("task") ? &find_task(sweep_text(spec, "task")) : shipped_task(model);
  if (!task) throw Error("sweep: this model is not a shipped trained model, so name the task (\"task\")");
  const std::string mode = spec.contains("mode") ? sweep_text(spec, "mode") : "zero";
  if (mode != "zero" && mode != "mean") throw Error("sweep: \"mode\" is \"zero\" or \"mean\", got \"" + mode + "\"");
  const int seed = spec.contains("seed") ? sweep_int(spec, "seed", 0, 1 << 30) : 1;
  const int n = spec.contains("n") ? sweep_int(spec, "n", 1, 10000) : 200;
  return ablation_sweep(model, *task, mode == "mean" ? AblateMode::Mean : AblateMode::Zero, static_cast<std::uint64_t>(seed), n);
}

}  // namespace ew
