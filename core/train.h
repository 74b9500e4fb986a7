// train.h — training a model on a task (tasks.h) with the backward pass (backward.h) and
// AdamW (optim.h): minibatches of examples drawn from the task's training split, the mean
// gradient over the batch, one optimizer step; held-out exact-match accuracy by greedy
// decoding (encoder–decoder) or the most probable label (classifier). Deterministic for a
// given seed: the same options give the same weights on every run and platform whose float
// arithmetic matches (native builds of one compiler; wasm).
//
// Deliberately simple for now: each example of a batch runs through the recorded forward and
// backward pass on its own (the trace is the computation), and nothing is batched inside
// the kernels.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "model.h"
#include "optim.h"
#include "tasks.h"
#include "trace.h"

namespace ew {

struct TrainOptions {
  std::string task = "number-words";
  int steps = 1500;
  int batch = 32;
  double lr = 3e-3;
  std::uint64_t seed = 1;
  int d_model = 32, num_heads = 4, d_ff = 64, num_layers = 1, decoder_layers = 1;
  int warmup = 100;
  double weight_decay = 0.01;
  double clip_norm = 1.0;
};

// Throws ew::Error naming the option when a value is zero, negative or absurd.
void validate(const TrainOptions& o);

class Trainer {
 public:
  explicit Trainer(const TrainOptions& o);
  // One optimizer step over a minibatch; returns the batch's mean loss. Throws ew::Error
  // naming the step when the loss or a gradient stops being finite.
  double step();
  // Exact-match accuracy over the first n held-out examples (never seen in training).
  double evaluate(int n);
  // Greedy decoding (at most max_len tokens, until </s>) or the predicted label's name.
  std::vector<std::string> predict(const std::string& source, int max_len = 12);
  int steps_done() const { return opt_.steps_taken(); }
  Model& model() { return model_; }
  const Task& task() const { return task_; }

 private:
  TrainOptions o_;
  const Task& task_;
  Model model_;
  Trace trace_;
  AdamW opt_;
  std::vector<std::vector<float>> grads_;  // per parameter, in model_.params order
  std::uint64_t drawn_ = 0;                // training examples drawn so far
};

}  // namespace ew
