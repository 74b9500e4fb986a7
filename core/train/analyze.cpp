// analyze.cpp — held-out accuracy and attention measurements (analyze.h).
#include "trace/forward.h"
#include "train/analyze.h"

#include <algorithm>
#include <cmath>

#include "model/error.h"
#include "model/tokenizer.h"

namespace ew {

namespace {

std::string joined(const std::vector<std::string>& toks) {
  std::string s;
  for (const auto& t : toks) s += (s.empty() ? "" : " ") + t;
  return s;
}

// Index of the most probable entry of a row of n.
int argmax(const float* row, int n) { return static_cast<int>(std::max_element(row, row + n) - row); }

}  // namespace

bool right_answer(Model& m, Trace& trace, const Task& task, const Example& ex) {
  const std::vector<std::string> got = predict(m, trace, task, ex.source);
  if (task.classifier) return got.at(0) == task.labels.at(ex.label);
  // Token by token, as the task's tokenizer reads the target ("2026-11-23" is 2026 11 23).
  return got == (task.tokenizer == TokenizerKind::Regex ? tokenize_regex(ex.target) : tokenize_whitespace(ex.target));
}

double held_out_accuracy(Model& m, Trace& trace, const Task& task, std::uint64_t seed, int n) {
  int right = 0;
  for (int i = 0; i < n; ++i)
    right += right_answer(m, trace, task, task.sample(seed, static_cast<std::uint64_t>(i), Split::HeldOut)) ? 1 : 0;
  return n ? static_cast<double>(right) / n : 0.0;
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
      h.aligned += argmax(a, cols) == (*align)[i] ? 1 : 0;
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
  if (task.classifier) {
    m.target_given = false;
    m.target.clear();
    run(m, trace);
    const Step& p = trace.at("cls.probs");
    return {task.labels.at(argmax(p.data.data(), static_cast<int>(p.data.size())))};
  }
  std::vector<std::string> out;
  m.target_given = true;
  for (int k = 0; k < max_len; ++k) {
    m.target = joined(out);
    run(m, trace);
    const Step& p = trace.at("probs");
    const int V = p.shape[1];
    const std::string tok = trace.text.vocab[argmax(p.data.data() + static_cast<std::size_t>(p.shape[0] - 1) * V, V)];
    if (tok == "</s>") break;
    out.push_back(tok);
  }
  return out;
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
