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
#include "train/masked_words.h"
#include "train/train_batched.h"

namespace ew {

Model initial_model(const TrainOptions& o, const Task& task) {
  Model m;
  Config& c = m.config;
  c.d_model = o.d_model;
  c.num_heads = o.num_heads;
  c.d_ff = o.d_ff;
  c.num_layers = o.num_layers;
  c.decoder_layers = task.decoder() ? o.decoder_layers : 0;
  c.num_labels = task.classifier ? static_cast<int>(task.labels.size()) : 0;
  c.masked_lm = task.masked_lm;
  c.norm = NormOrder::Pre;
  c.activation = Activation::GELU;
  c.tokenizer = task.tokenizer;
  if (task.max_tokens > 0) c.max_tokens = task.max_tokens;
  c.seed = o.seed;
  validate_config(c);
  m.vocab = task.vocab;
  m.merges = task.merges;
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

AdamWConfig adamw_config(const TrainOptions& o) {
  AdamWConfig a;
  a.lr = o.lr;
  a.weight_decay = o.weight_decay;
  a.warmup_steps = std::min(o.warmup, o.steps);
  a.total_steps = o.steps;
  a.min_lr_ratio = 0.1;
  a.clip_norm = o.clip_norm;
  return a;
}

namespace {

void set_example(Model& m, const Task& task, const Example& ex) {
  m.text = ex.source;
  m.target = ex.target;
  m.target_given = task.decoder();
  m.label = ex.label;
  m.mask_targets = ex.mask_targets;
}

// The task of o.task among the generated ones (masked-words needs its corpus: the second
// constructor).
const Task& generated_task(const TrainOptions& o) {
  validate(o);
  if (o.task == kMaskedWordsTask)
    throw Error("task \"masked-words\" learns from a corpus of sentences that only the command line reads: "
                "encoder-walkthrough train --task masked-words --corpus DIR");
  return find_task(o.task);
}

const Task& checked(const TrainOptions& o, const Task& task) {
  validate(o);
  if (o.task != task.name) throw Error("internal: training options for task \"" + o.task + "\" given task \"" + task.name + "\"");
  return task;
}

}  // namespace

Trainer::Trainer(const TrainOptions& o) : Trainer(o, generated_task(o)) {}

Trainer::Trainer(const TrainOptions& o, const Task& task)
    : o_(o), task_(checked(o, task)), model_(initial_model(o, task_)), opt_(adamw_config(o)) {
  set_example(model_, task_, task_.sample(o_.seed, 0, Split::Train));
  run(model_, trace_);  // creates every parameter
  for (Param& p : model_.params) p.make_f32();  // the optimizer updates float32 numbers in place
  std::size_t n = 0;
  for (const Param& p : model_.params) n += p.value.size();
  grads_.assign(n, 0.0f);
  n = 0;
  for (Param& p : model_.params) {
    param_slot_.emplace(p.id, slots_.size());
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
    // The separate steps' loss gradient, as when dates.safetensors was trained (backward.h).
    run_backward(model_, trace_, /*activations=*/false, /*fused_loss=*/false);
    loss += trace_.at("loss").data[0];
    // Each parameter's gradient step names it (Step::of).
    for (std::size_t s = 0; s < trace_.size(); ++s) {
      const Step& g = trace_[s];
      if (g.kind != "grad") continue;
      const auto k = param_slot_.find(g.of);
      if (k == param_slot_.end()) continue;
      for (std::size_t i = 0; i < g.size(); ++i) slots_[k->second].grad[i] += g.data[i] / static_cast<float>(o_.batch);
    }
  }
  return loss / o_.batch;
}

double Trainer::batched_gradients() {
  for (Example& e : examples_) e = task_.sample(o_.seed, drawn_++, Split::Train);
  pass_->encode(*batch_, examples_.data(), o_.batch);
  return pass_->loss_and_grads(model_, *batch_, grads_.data());
}

double Trainer::step() {
  double loss = 0;
  try {
    loss = pass_ ? batched_gradients() : recorded_gradients();
  } catch (const Error& e) {  // the recorded path's loss at a right answer of probability 0
    throw Error("training stopped at step " + std::to_string(opt_.steps_taken() + 1) + ": " + e.what());
  }
  for (std::size_t k = 0; k < slots_.size(); ++k) slots_[k].value = model_.params[k].value.data();
  const AdamWStepInfo info = opt_.step(slots_);
  const std::string at = "training stopped at step " + std::to_string(info.t) + ": ";
  if (!std::isfinite(info.grad_norm)) throw Error(at + "the gradient of " + first_not_finite(true) + " is not finite");
  for (Param& p : model_.params) p.packed.data.clear();  // repacked by the next run
  if (!std::isfinite(loss))
    throw Error(at + "the loss is not finite (a right answer's probability underflowed to 0: is the learning rate too large?)");
  const std::string param = first_not_finite(false);
  if (!param.empty())
    throw Error(at + "the update made " + param + " not finite (it overflowed float32: is the learning rate too large?)");
  return loss;
}

// The id of the first parameter whose gradient (or value) holds a non-finite number, or "".
std::string Trainer::first_not_finite(bool gradient) const {
  for (std::size_t k = 0; k < slots_.size(); ++k) {
    const float* v = gradient ? slots_[k].grad : model_.params[k].value.data();
    for (std::size_t i = 0; i < slots_[k].n; ++i)
      if (!std::isfinite(v[i])) return model_.params[k].id;
  }
  return "";
}

std::vector<std::string> Trainer::predict(const std::string& source, int max_len) {
  return ew::predict(model_, trace_, task_, source, max_len);
}

double Trainer::evaluate(int n) { return pass_ ? evaluate_batched(n) : evaluate_recorded(n); }

// One example at a time through the recorded forward pass (analyze.h), token by token as the
// task's tokenizer reads the target.
double Trainer::evaluate_recorded(int n) { return held_out_accuracy(model_, trace_, task_, o_.seed, held_out(n)); }

// The held-out examples an evaluation of n can have (a corpus has only so many).
int Trainer::held_out(int n) const {
  return task_.held_out_size > 0 ? static_cast<int>(std::min<std::uint64_t>(static_cast<std::uint64_t>(n), task_.held_out_size)) : n;
}

// The same predictions through the batched path.
double Trainer::evaluate_batched(int n) { return batched_accuracy(*pass_, model_, task_, o_.seed, held_out(n)); }

double batched_accuracy(BatchedPass& pass, const Model& m, const Task& task, std::uint64_t seed, int n) {
  long right = 0, of = 0;
  std::vector<Example> chunk;
  std::vector<std::vector<int>> got;
  std::vector<std::string> answer;
  for (int i0 = 0; i0 < n; i0 += 64) {
    chunk.clear();
    for (int i = i0; i < std::min(n, i0 + 64); ++i) chunk.push_back(task.sample(seed, static_cast<std::uint64_t>(i), Split::HeldOut));
    pass.predict(m, chunk.data(), static_cast<int>(chunk.size()), 12, got);
    for (std::size_t e = 0; e < chunk.size(); ++e) {
      answer.clear();
      for (int id : got[e])
        answer.push_back(task.classifier ? task.labels.at(static_cast<std::size_t>(id)) : m.vocab.at(static_cast<std::size_t>(id)));
      const auto [r, k] = answer_score(task, answer, chunk[e]);
      right += r, of += k;
    }
  }
  return of ? static_cast<double>(right) / of : 0.0;
}

}  // namespace ew
