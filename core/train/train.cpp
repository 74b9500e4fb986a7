// train.cpp — the training loop (train.h).
#include "trace/forward.h"
#include "train/train.h"

#include <algorithm>
#include <cmath>

#include "model/config_schema.h"
#include "model/error.h"
#include "model/params.h"
#include "trace/backward.h"
#include "train/analyze.h"
#include "train/train_batched.h"

namespace ew {

void validate(const TrainOptions& o) {
  auto range = [](const char* name, double v, double lo, double hi) {
    if (!(v >= lo && v <= hi))
      throw Error(std::string("--") + name + " must be between " + std::to_string(lo) + " and " + std::to_string(hi) +
                  ", got " + std::to_string(v));
  };
  find_task(o.task);
  range("steps", o.steps, 1, 1e7);
  range("batch", o.batch, 1, 4096);
  if (!(o.lr > 0 && o.lr <= 1)) throw Error("--lr must be greater than 0 and at most 1, got " + std::to_string(o.lr));
  range("warmup", o.warmup, 0, 1e7);
}

Model initial_model(const TrainOptions& o, const Task& task) {
  Model m;
  Config& c = m.config;
  c.d_model = o.d_model;
  c.num_heads = o.num_heads;
  c.d_ff = o.d_ff;
  c.num_layers = o.num_layers;
  c.decoder_layers = task.classifier ? 0 : o.decoder_layers;
  c.num_labels = task.classifier ? static_cast<int>(task.labels.size()) : 0;
  c.norm = NormOrder::Pre;
  c.activation = Activation::GELU;
  c.tokenizer = task.tokenizer;
  c.seed = o.seed;
  validate_config(c);
  m.vocab = task.vocab;
  m.label_names = task.labels;
  // The token table is a parameter like any other: seeded rows, scaled to a small norm.
  Param E{"embedding_table", xt::xarray<float>::from_shape({task.vocab.size(), static_cast<std::size_t>(c.d_model)}), {}, {}, {}};
  for (std::size_t i = 0; i < task.vocab.size(); ++i) {
    float* row = E.value.data() + i * c.d_model;
    seeded_embedding_row(row, o.seed, task.vocab[i], c.d_model);
    for (int k = 0; k < c.d_model; ++k) row[k] *= 0.1f;
  }
  m.params.push_back(std::move(E));
  m.user_embedding = true;
  return m;
}

namespace {

AdamWConfig optimizer(const TrainOptions& o) {
  AdamWConfig a;
  a.lr = o.lr;
  a.weight_decay = o.weight_decay;
  a.warmup_steps = std::min(o.warmup, o.steps);
  a.total_steps = o.steps;
  a.min_lr_ratio = 0.1;
  a.clip_norm = o.clip_norm;
  return a;
}

void set_example(Model& m, const Task& task, const Example& ex) {
  m.text = ex.source;
  m.target = ex.target;
  m.target_given = !task.classifier;
  m.label = ex.label;
}

}  // namespace

Trainer::Trainer(const TrainOptions& o)
    : o_(o), task_((validate(o), find_task(o.task))), model_(initial_model(o, task_)), opt_(optimizer(o)) {
  set_example(model_, task_, task_.sample(o_.seed, 0, Split::Train));
  run(model_, trace_);  // creates every parameter
  std::size_t n = 0;
  for (const Param& p : model_.params) n += p.value.size();
  grads_.assign(n, 0.0f);
  n = 0;
  for (Param& p : model_.params) {
    slots_.push_back({p.value.data(), grads_.data() + n, p.value.size(), p.value.dimension() == 2});
    n += p.value.size();
  }
  const std::string why = batched_unsupported(model_);
  if (o_.batched && why.empty()) {
    pass_ = std::make_unique<BatchedPass>(model_);
    batch_ = std::make_unique<TokenBatch>();
    examples_.resize(o_.batch);
    path_ = "batched";
  } else {
    path_ = "recorded (" + (o_.batched ? "the batched path does not support " + why : std::string("asked for")) + ")";
  }
}

Trainer::~Trainer() = default;

double Trainer::recorded_gradients() {
  std::fill(grads_.begin(), grads_.end(), 0.0f);
  double loss = 0;
  for (int b = 0; b < o_.batch; ++b) {
    set_example(model_, task_, task_.sample(o_.seed, drawn_++, Split::Train));
    run(model_, trace_);
    run_backward(model_, trace_, /*activations=*/false);
    loss += trace_.at("loss").data[0];
    for (std::size_t k = 0; k < model_.params.size(); ++k)
      if (const Step* g = trace_.find("grad." + model_.params[k].id))
        for (std::size_t i = 0; i < g->size(); ++i) slots_[k].grad[i] += g->data[i] / static_cast<float>(o_.batch);
  }
  return loss / o_.batch;
}

double Trainer::batched_gradients() {
  for (Example& e : examples_) e = task_.sample(o_.seed, drawn_++, Split::Train);
  pass_->encode(*batch_, examples_.data(), o_.batch);
  return pass_->loss_and_grads(model_, *batch_, grads_.data());
}

double Trainer::step() {
  const double loss = pass_ ? batched_gradients() : recorded_gradients();
  for (std::size_t k = 0; k < slots_.size(); ++k) slots_[k].value = model_.params[k].value.data();
  const AdamWStepInfo info = opt_.step(slots_);
  if (!std::isfinite(info.grad_norm))
    throw Error("training stopped at step " + std::to_string(info.t) + ": the gradient is not finite");
  for (Param& p : model_.params) p.packed.data.clear();  // repacked by the next run
  if (!std::isfinite(loss)) throw Error("training stopped at step " + std::to_string(info.t) + ": the loss is not finite");
  return loss;
}

std::vector<std::string> Trainer::predict(const std::string& source, int max_len) {
  return ew::predict(model_, trace_, task_, source, max_len);
}

double Trainer::evaluate(int n) { return pass_ ? evaluate_batched(n) : evaluate_recorded(n); }

// One example at a time through the recorded forward pass (analyze.h), token by token as the
// task's tokenizer reads the target.
double Trainer::evaluate_recorded(int n) { return held_out_accuracy(model_, trace_, task_, o_.seed, n); }

// The same predictions through the batched path, 64 held-out examples at a time.
double Trainer::evaluate_batched(int n) {
  int right = 0;
  std::vector<Example> chunk;
  std::vector<std::vector<int>> got;
  for (int i0 = 0; i0 < n; i0 += 64) {
    chunk.clear();
    for (int i = i0; i < std::min(n, i0 + 64); ++i)
      chunk.push_back(task_.sample(o_.seed, static_cast<std::uint64_t>(i), Split::HeldOut));
    pass_->predict(model_, chunk.data(), static_cast<int>(chunk.size()), 12, got);
    for (std::size_t e = 0; e < chunk.size(); ++e) {
      if (task_.classifier) {
        right += got[e].at(0) == chunk[e].label;
        continue;
      }
      std::string s;
      for (int id : got[e]) s += (s.empty() ? "" : " ") + model_.vocab.at(static_cast<std::size_t>(id));
      right += s == chunk[e].target;
    }
  }
  return n ? static_cast<double>(right) / n : 0.0;
}

}  // namespace ew
