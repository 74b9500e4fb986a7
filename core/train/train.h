// train.h — training a model on a task (tasks.h) with the backward pass (backward.h) and
// AdamW (optim.h): minibatches of examples drawn from the task's training split, the mean
// gradient over the batch, one optimizer step; held-out exact-match accuracy by greedy
// decoding (encoder–decoder) or the most probable label (classifier). Deterministic for a
// given seed: the same options give the same weights on every run and platform whose float
// arithmetic matches (native builds of one compiler; wasm).
//
// Two paths compute a step's gradient: the batched path (train_batched.h: one flat forward
// and backward pass over the padded minibatch, no recording, no allocation once warm), used
// whenever it supports the model; and the recorded path (each example through run() and
// run_backward() on its own, the trace being the computation), used otherwise or when
// TrainOptions::batched is false. Both give the same gradient to float32 rounding
// (tests/test_train_batched.cpp).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/model.h"
#include "trace/trace.h"
#include "train/optim.h"
#include "train/recipe.h"
#include "train/tasks.h"

namespace ew {

// The model training starts from: pre-norm, GELU, the task's tokenizer, vocabulary (and BPE
// merges), labels and head, a seeded token table scaled to a small norm, sinusoidal positions.
Model initial_model(const TrainOptions& o, const Task& task);

// AdamW as training uses it: o's lr, decay and clipping; linear warm-up over o.warmup steps
// (at most all of them), then linear decay to lr/10 at o.steps.
AdamWConfig adamw_config(const TrainOptions& o);

class BatchedPass;

// Exact match (answer_score, analyze.h) over held-out examples 0 … n−1 of `task` (seed), predicted
// by `pass` with m's weights 64 at a time — the same examples and answers as held_out_accuracy's
// recorded path (tests/test_train_batched.cpp).
double batched_accuracy(BatchedPass& pass, const Model& m, const Task& task, std::uint64_t seed, int n);
struct TokenBatch;

class Trainer {
 public:
  // Trains on the generated task o.task (tasks.h); ew::Error for masked-words, whose Task
  // comes from its corpus (masked_words.h) and is given with the second form.
  explicit Trainer(const TrainOptions& o);
  // Trains on `task` (o.task must name it), which must outlive the Trainer.
  Trainer(const TrainOptions& o, const Task& task);
  ~Trainer();
  // One optimizer step over a minibatch; returns the batch's mean loss. Throws ew::Error
  // naming the step when the loss or a gradient stops being finite.
  double step();
  // Accuracy over the first n held-out examples (never seen in training): exact match, or
  // top-1 over the [MASK]s of a masked-word task (analyze.h, answer_score); batched
  // prediction on the batched path, else predict() per example.
  double evaluate(int n);
  double evaluate_recorded(int n);  // always predict() per example (the tests compare the two)
  // Greedy decoding (at most max_len tokens, until </s>), the predicted label's name, or the
  // most probable token of each [MASK].
  std::vector<std::string> predict(const std::string& source, int max_len = 12);
  int steps_done() const { return opt_.steps_taken(); }
  Model& model() { return model_; }
  const Task& task() const { return task_; }
  // "batched", or "recorded (why the batched path does not apply)".
  const std::string& path() const { return path_; }

 private:
  TrainOptions o_;
  const Task& task_;
  Model model_;
  std::unordered_map<std::string, std::size_t> param_slot_;  // a parameter's id → its index (slots_)
  Trace trace_;
  AdamW opt_;
  std::vector<float> grads_;               // every parameter's gradient, in model_.params order
  std::vector<ParamSlot> slots_;           // AdamW's view of params and grads_
  std::uint64_t drawn_ = 0;                // training examples drawn so far
  std::string path_;
  std::unique_ptr<BatchedPass> pass_;      // null: the recorded path
  std::unique_ptr<TokenBatch> batch_;
  std::vector<Example> examples_;          // this step's minibatch

  double recorded_gradients();  // mean loss; mean gradient into grads_
  double batched_gradients();
  double evaluate_batched(int n);
  int held_out(int n) const;
  std::string first_not_finite(bool gradient) const;  // a parameter's id, or ""
};

}  // namespace ew
