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
#include <vector>

#include "model/model.h"
#include "trace/trace.h"
#include "train/optim.h"
#include "train/tasks.h"

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
  bool batched = true;  // the batched path when it supports the model (else the recorded one)
};

// Throws ew::Error naming the option when a value is zero, negative or absurd.
void validate(const TrainOptions& o);

// The model training starts from: pre-norm, GELU, whitespace tokens over the task's
// vocabulary, a seeded token table scaled to a small norm, sinusoidal positions.
Model initial_model(const TrainOptions& o, const Task& task);

class BatchedPass;
struct TokenBatch;

class Trainer {
 public:
  explicit Trainer(const TrainOptions& o);
  ~Trainer();
  // One optimizer step over a minibatch; returns the batch's mean loss. Throws ew::Error
  // naming the step when the loss or a gradient stops being finite.
  double step();
  // Exact-match accuracy over the first n held-out examples (never seen in training):
  // batched greedy decoding on the batched path, else predict() per example.
  double evaluate(int n);
  double evaluate_recorded(int n);  // always predict() per example (the tests compare the two)
  // Greedy decoding (at most max_len tokens, until </s>) or the predicted label's name.
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
};

}  // namespace ew
