// analyze.h — what a model does on a task's held-out examples (tasks.h): exact-match accuracy
// (greedy decoding until </s>, or the most probable label), and what its attention heads do,
// measured on the teacher-forced run of each example (the decoder reads <s> + the right
// answer, so row i of a cross-attention matrix is the query that produces target token i):
//  - every head's normalised entropy: the mean over query rows of H/log n, H = −Σ a log a over
//    the row's n unmasked keys (rows with a single key are skipped: log 1 = 0). 1 is uniform;
//  - every cross-attention head's alignment: the share of target tokens that have a source
//    token (Example::align ≥ 0) whose largest weight in the row falls on that source token.
// Heads are found by the trace's structure (kind "softmax", a place with a head), never by ids.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "model/model.h"
#include "trace/trace.h"
#include "train/tasks.h"

namespace ew {

struct HeadStats {
  Place place;           // section, layer, block (self_attention, cross_attention), head
  double entropy = 0;    // mean over rows (all examples) of H/log n
  long rows = 0;         // rows averaged
  double aligned = -1;   // cross-attention: share of aligned target tokens (else -1)
  long aligned_rows = 0; // target tokens with a source token
};

struct Analysis {
  int examples = 0;
  double accuracy = -1;  // exact match over the examples (-1: not measured)
  std::vector<HeadStats> heads;
};

// The model's answer for `source`: greedy decoding (at most max_len tokens, until </s>;
// trace/generate.h), the predicted label's name, or the most probable token of each [MASK].
// The trace is left as the last run's.
std::vector<std::string> predict(Model& m, Trace& trace, const Task& task, const std::string& source, int max_len = 16);

// The right answer to ex as predict() gives answers: the target token by token as the task's
// tokenizer reads it ("2026-11-23" is 2026 11 23), the label's name, or the [MASK]s' tokens.
std::vector<std::string> right_tokens(const Task& task, const Example& ex);
// How much of an answer is right, as {right, out of}: a whole answer (1 of 1 when it equals
// the right one, else 0 of 1) or, for a masked-word task, each [MASK] on its own (top-1).
std::pair<int, int> answer_score(const Task& task, const std::vector<std::string>& got, const Example& ex);

// Is the model's answer to ex.source exactly right (every token, the label, every [MASK])?
bool right_answer(Model& m, Trace& trace, const Task& task, const Example& ex);
// The share of right answers (answer_score) over the first n held-out examples of `task`
// drawn with `seed`: exact match, or top-1 over the [MASK]s of a masked-word task.
double held_out_accuracy(Model& m, Trace& trace, const Task& task, std::uint64_t seed, int n);

// Accuracy and head statistics over the first n held-out examples of `task` drawn with
// `seed` (held out whatever the seed). Throws ew::Error when the model does not fit the task (a classifier for a decoder task…).
// `progress` (may be empty) is called after each example with how many are done.
Analysis analyze(Model& m, const Task& task, std::uint64_t seed, int n, bool accuracy = true,
                 const std::function<void(int)>& progress = {});

// The same architecture with every parameter seeded from config.seed, as the page shows an
// untrained model (the trained weights dropped).
Model seeded_copy(const Model& m);

}  // namespace ew
