// train_bench_bindings.cpp — Module.TrainBench, for the training benchmark only
// (bench/node/train_bench.mjs; linked into the Node flavor of the module, not the page's):
// one training step of the batched path (train_batched.h: forward, backward, AdamW with
// clipping at a constant learning rate) on a fixed minibatch of a task, with the weights and the batch
// exposed so that TensorFlow.js can run the same model on the same numbers. Converts and
// forwards; the page's own Trainer binding is elsewhere.
//
//   const b = new Module.TrainBench(task, d_model, heads, d_ff, layers, decoder_layers, batch, seed, lr);
//   b.paramsJson()  -> [{id, shape}] in the gradient's order;  b.paramData(i) -> Float32Array view
//   b.batchJson()   -> {B, T, S, src, src_len, dec_in, dec_out, dec_len}
//   b.loss()        -> the batch's loss with the current weights (no update)
//   b.step()        -> one optimizer step; returns the loss before it
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "trace/forward.h"
#include "train/optim.h"
#include "train/train.h"
#include "train/train_batched.h"

namespace {

class TrainBench {
 public:
  TrainBench(std::string task, int d_model, int heads, int d_ff, int layers, int decoder_layers, int batch, int seed,
             double lr) {
    ew::TrainOptions o;
    o.task = std::move(task);
    o.d_model = d_model;
    o.num_heads = heads;
    o.d_ff = d_ff;
    o.num_layers = layers;
    o.decoder_layers = decoder_layers;
    o.seed = static_cast<std::uint64_t>(seed);
    const ew::Task& t = ew::find_task(o.task);
    model_ = ew::initial_model(o, t);
    std::vector<ew::Example> ex;
    for (int i = 0; i < batch; ++i) ex.push_back(t.sample(o.seed, static_cast<std::uint64_t>(i), ew::Split::Train));
    model_.text = ex[0].source;
    model_.target_given = !t.classifier;
    ew::Trace trace;
    ew::run(model_, trace);  // creates every parameter
    pass_ = std::make_unique<ew::BatchedPass>(model_);
    pass_->encode(batch_, ex.data(), batch);
    grads_.assign(pass_->num_grads(), 0.0f);
    for (std::size_t k = 0; k < model_.params.size(); ++k) {
      ew::Param& p = model_.params[k];
      slots_.push_back({p.value.data(), grads_.data() + pass_->offset(k), p.value.size(), p.value.dimension() == 2});
    }
    o.lr = lr;
    ew::AdamWConfig c = ew::adamw_config(o);
    c.warmup_steps = c.total_steps = 0;  // a constant learning rate, as the TensorFlow.js side uses
    opt_ = std::make_unique<ew::AdamW>(c);
  }
  double loss() { return pass_->loss_and_grads(model_, batch_, grads_.data()); }
  double step() {
    const double l = loss();
    opt_->step(slots_);
    return l;
  }
  std::string params_json() const {
    nlohmann::json out = nlohmann::json::array();
    for (const ew::Param& p : model_.params)
      out.push_back({{"id", p.id}, {"shape", std::vector<std::size_t>(p.value.shape().begin(), p.value.shape().end())}});
    return out.dump();
  }
  emscripten::val param_data(int i) {
    ew::Param& p = model_.params.at(static_cast<std::size_t>(i));
    return emscripten::val(emscripten::typed_memory_view(p.value.size(), p.value.data()));
  }
  std::string batch_json() const {
    const ew::TokenBatch& b = batch_;
    return nlohmann::json{{"B", b.B}, {"T", b.T}, {"S", b.S}, {"src", b.src}, {"src_len", b.src_len},
                          {"dec_in", b.dec_in}, {"dec_out", b.dec_out}, {"dec_len", b.dec_len}, {"label", b.label}}
        .dump();
  }

 private:
  ew::Model model_;
  std::unique_ptr<ew::BatchedPass> pass_;
  ew::TokenBatch batch_;
  std::vector<float> grads_;
  std::vector<ew::ParamSlot> slots_;
  std::unique_ptr<ew::AdamW> opt_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(encoder_walkthrough_train_bench) {
  emscripten::class_<TrainBench>("TrainBench")
      .constructor<std::string, int, int, int, int, int, int, int, double>()
      .function("loss", &TrainBench::loss)
      .function("step", &TrainBench::step)
      .function("paramsJson", &TrainBench::params_json)
      .function("paramData", &TrainBench::param_data)
      .function("batchJson", &TrainBench::batch_json);
}
