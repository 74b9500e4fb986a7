// train_batched_probe.cpp — a test-only program for check_batched_gradients.py: builds a random
// model of the kind training uses (train.h's initial_model, every parameter then drawn at
// random), draws a padded minibatch of a task's training examples, runs the batched training
// path (core/train/train_batched.h) once, and prints as JSON the configuration, the parameters, the
// batch's token ids and lengths, the loss and every parameter's gradient.
//   train_batched_probe TASK D_MODEL HEADS LAYERS CAUSAL(0/1) ACT(relu/gelu) BATCH SEED
// Any error is printed as {"error": "..."} with exit code 1.
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/random.h"
#include "trace/forward.h"
#include "train/train.h"
#include "train/train_batched.h"

int main(int argc, char** argv) {
  using nlohmann::json;
  try {
    if (argc != 9) throw std::runtime_error("usage: train_batched_probe TASK D_MODEL HEADS LAYERS CAUSAL ACT BATCH SEED");
    ew::TrainOptions o;
    o.task = argv[1];
    o.d_model = std::atoi(argv[2]);
    o.num_heads = std::atoi(argv[3]);
    o.num_layers = o.decoder_layers = std::atoi(argv[4]);
    o.d_ff = 12;
    o.seed = static_cast<std::uint64_t>(std::atoll(argv[8]));
    const int B = std::atoi(argv[7]);
    const ew::Task& task = ew::find_task(o.task);
    ew::Model m = ew::initial_model(o, task);
    m.config.causal = std::string(argv[5]) == "1";
    m.config.activation = std::string(argv[6]) == "relu" ? ew::Activation::ReLU : ew::Activation::GELU;
    std::vector<ew::Example> batch;
    for (int i = 0; i < B; ++i) batch.push_back(task.sample(o.seed, 7 + i, ew::Split::Train));
    m.text = batch[0].source;
    m.target_given = !task.classifier;
    ew::Trace t;
    ew::run(m, t);  // creates every parameter
    json params = json::array();
    for (ew::Param& p : m.params) {
      const auto s = ew::seeded_stream(o.seed, "probe:" + p.id);
      float* v = p.value.data();
      for (std::size_t i = 0; i < p.value.size(); ++i)
        v[i] = 0.5f * ew::seeded_uniform(s, i) + (p.id.find("gamma") != std::string::npos ? 1.0f : 0.0f);
      params.push_back({{"id", p.id},
                        {"shape", std::vector<std::size_t>(p.value.shape().begin(), p.value.shape().end())},
                        {"data", std::vector<float>(v, v + p.value.size())}});
    }
    ew::BatchedPass pass(m);
    ew::TokenBatch tb;
    pass.encode(tb, batch.data(), B);
    std::vector<float> g(pass.num_grads());
    const double loss = pass.loss_and_grads(m, tb, g.data());
    json grads;
    for (std::size_t k = 0; k < m.params.size(); ++k)
      grads[m.params[k].id] = std::vector<float>(g.begin() + pass.offset(k), g.begin() + pass.offset(k) + m.params[k].value.size());
    const ew::Config& c = m.config;
    std::cout << json{{"config", {{"d_model", c.d_model}, {"num_heads", c.num_heads}, {"d_ff", c.d_ff},
                                  {"num_layers", c.num_layers}, {"decoder_layers", c.decoder_layers},
                                  {"num_labels", c.num_labels}, {"causal", c.causal}, {"scale", c.scale},
                                  {"layer_norm_eps", c.layer_norm_eps}, {"activation", argv[6]}}},
                      {"params", params},
                      {"batch", {{"B", tb.B}, {"T", tb.T}, {"S", tb.S}, {"src", tb.src}, {"src_len", tb.src_len},
                                 {"dec_in", tb.dec_in}, {"dec_out", tb.dec_out}, {"dec_len", tb.dec_len},
                                 {"label", tb.label}}},
                      {"loss", loss},
                      {"grads", grads}}
                     .dump()
              << "\n";
  } catch (const std::exception& e) {
    std::cout << nlohmann::json{{"error", e.what()}}.dump() << "\n";
    return 1;
  }
  return 0;
}
