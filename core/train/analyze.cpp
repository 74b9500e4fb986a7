// analyze.cpp — held-out accuracy and attention measurements (analyze.h).
#include "trace/forward.h"
#include "train/analyze.h"

#include <algorithm>
#include <cmath>

#include "kernels/kernels.h"
#include "model/error.h"
#include "text/tokenizer.h"
#include "trace/generate.h"
#include "train/masked_words.h"

namespace ew {


std::vector<std::string> right_tokens(const Task& task, const Example& ex) {
  if (task.classifier) return {task.labels.at(ex.label)};
  if (task.masked_lm) return ex.mask_targets;
  return task.tokenizer == TokenizerKind::Regex ? tokenize_regex(ex.target) : tokenize_whitespace(ex.target);
}

std::pair<int, int> answer_score(const Task& task, const std::vector<std::string>& got, const Example& ex) {
  const std::vector<std::string> want = right_tokens(task, ex);
  if (!task.masked_lm) return {got == want ? 1 : 0, 1};
  int right = 0;
  for (std::size_t j = 0; j < want.size() && j < got.size(); ++j) right += got[j] == want[j];
  return {right, static_cast<int>(want.size())};
}

bool right_answer(Model& m, Trace& trace, const Task& task, const Example& ex) {
  return predict(m, trace, task, ex.source) == right_tokens(task, ex);
}

double held_out_accuracy(Model& m, Trace& trace, const Task& task, std::uint64_t seed, int n) {
  long right = 0, of = 0;
  for (int i = 0; i < n; ++i) {
    const Example ex = task.sample(seed, static_cast<std::uint64_t>(i), Split::HeldOut);
    const auto [r, k] = answer_score(task, predict(m, trace, task, ex.source), ex);
    right += r, of += k;
  }
  return of ? static_cast<double>(right) / of : 0.0;
}

namespace {

// Adds one weights step [S,T] (or [T,T]) to its head's statistics; `align` for cross-attention.
void add_head(HeadStats& h, const Step& w, const Step& masked, const std::vector<int>* align) {
  const int rows = w.shape[0], cols = w.shape[1];
  for (int i = 0; i < rows; ++i) {
    const float* a = w.data.data() + static_cast<std::size_t>(i) * cols;
    const float* s = masked.data.data() + static_cast<std::size_t>(i) * cols;
    int n = 0;
    double H = 0;
    for (int j = 0; j < cols; ++j) {
      n += std::isfinite(s[j]) ? 1 : 0;
      if (a[j] > 0) H -= a[j] * std::log(static_cast<double>(a[j]));
    }
    if (n > 1) h.entropy += H / std::log(static_cast<double>(n)), ++h.rows;
    if (align && i < static_cast<int>(align->size()) && (*align)[i] >= 0) {
      h.aligned += ew_f32_argmax(a, cols) == (*align)[i] ? 1 : 0;
      ++h.aligned_rows;
    }
  }
}

// Every head of the last run, in trace order, updated with this example.
void add_heads(std::vector<HeadStats>& heads, const Trace& trace, const Example& ex) {
  std::size_t k = 0;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const Step& w = trace[i];
    if (w.kind != "softmax" || w.place.head < 0 || w.shape.size() != 2) continue;
    if (k == heads.size()) {
      heads.push_back({w.place});
      if (w.place.block == "cross_attention") heads.back().aligned = 0;
    }
    const bool cross = w.place.block == "cross_attention";
    add_head(heads[k++], w, trace.at(w.inputs.at(0)), cross ? &ex.align : nullptr);
  }
}

}  // namespace

std::vector<std::string> predict(Model& m, Trace& trace, const Task& task, const std::string& source, int max_len) {
  m.text = source;
  m.label = -1;
  m.mask_targets.clear();
  if (task.decoder()) return generated_tokens(generate_greedy(m, trace, max_len));
  m.target_given = false;
  m.target.clear();
  run(m, trace);
  std::vector<std::string> out;
  if (task.masked_lm) {
    for (const auto& fills : mask_fills(trace, 1)) out.push_back(fills.at(0).first);
    return out;
  }
  const Step& p = trace.at("cls.probs");
  return {task.labels.at(ew_f32_argmax(p.data.data(), static_cast<int>(p.data.size())))};
}

Analysis analyze(Model& m, const Task& task, std::uint64_t seed, int n, bool accuracy,
                 const std::function<void(int)>& progress) {
  if (task.classifier != (m.config.num_labels > 0) || task.classifier == (m.config.decoder_layers > 0))
    throw Error("this model does not fit task \"" + task.name + "\": " +
                (task.classifier ? "it needs a classification head and no decoder" : "it needs a decoder"));
  if (task.classifier && m.config.num_labels != static_cast<int>(task.labels.size()))
    throw Error("task \"" + task.name + "\" has " + std::to_string(task.labels.size()) + " labels, the model " +
                std::to_string(m.config.num_labels));
  Analysis a;
  Trace trace;
  int right = 0;
  for (int i = 0; i < n; ++i) {
    const Example ex = task.sample(seed, static_cast<std::uint64_t>(i), Split::HeldOut);
    if (accuracy) right += right_answer(m, trace, task, ex) ? 1 : 0;
    m.text = ex.source;
    m.target = task.classifier ? "" : ex.target;
    m.target_given = !task.classifier;
    run(m, trace);
    add_heads(a.heads, trace, ex);
    if (progress) progress(i + 1);
  }
  for (HeadStats& h : a.heads) {
    if (h.rows) h.entropy /= static_cast<double>(h.rows);
    if (h.aligned_rows) h.aligned /= static_cast<double>(h.aligned_rows);
  }
  a.examples = n;
  if (accuracy) a.accuracy = n ? static_cast<double>(right) / n : 0.0;
  return a;
}

Model seeded_copy(const Model& m) {
  Model s = m;
  s.params.clear();
  s.given_params = 0;
  s.user_embedding = false;
  return s;
}

}  // namespace ew
