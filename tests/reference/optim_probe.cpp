// optim_probe.cpp — a test-only program that drives ew::AdamW (core/train/optim.h) for
// check_optim.py: reads {"config": {...}, "params": [{"value": [...], "decay": bool}],
// "grads": [[[...] per param] per step]} on stdin and prints, per step, the learning rate,
// the gradient norm, the clip scale and every parameter's values after the step, as JSON.
// Any ew::Error is printed as {"error": "..."} with exit code 1.
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/error.h"
#include "train/optim.h"

int main() {
  using nlohmann::json;
  try {
    const json in = json::parse(std::string(std::istreambuf_iterator<char>(std::cin), {}));
    const json& c = in.at("config");
    ew::AdamWConfig cfg;
    cfg.lr = c.at("lr").get<double>();
    cfg.beta1 = c.at("beta1").get<double>();
    cfg.beta2 = c.at("beta2").get<double>();
    cfg.eps = c.at("eps").get<double>();
    cfg.weight_decay = c.at("weight_decay").get<double>();
    cfg.warmup_steps = c.at("warmup_steps").get<int>();
    cfg.total_steps = c.at("total_steps").get<int>();
    cfg.min_lr_ratio = c.at("min_lr_ratio").get<double>();
    cfg.clip_norm = c.at("clip_norm").get<double>();
    ew::AdamW opt(cfg);

    std::vector<std::vector<float>> values, grads;
    std::vector<bool> decay;
    for (const json& p : in.at("params")) {
      values.push_back(p.at("value").get<std::vector<float>>());
      decay.push_back(p.at("decay").get<bool>());
    }
    json out = json::array();
    for (const json& step : in.at("grads")) {
      grads.clear();
      std::vector<ew::ParamSlot> slots;
      for (std::size_t k = 0; k < values.size(); ++k) grads.push_back(step.at(k).get<std::vector<float>>());
      for (std::size_t k = 0; k < values.size(); ++k)
        slots.push_back({values[k].data(), grads[k].data(), values[k].size(), decay[k]});
      const ew::AdamWStepInfo info = opt.step(slots);
      out.push_back({{"t", info.t}, {"lr", info.lr}, {"grad_norm", info.grad_norm},
                     {"clip_scale", info.clip_scale}, {"params", values}});
    }
    std::cout << out.dump() << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cout << json{{"error", e.what()}}.dump() << "\n";
    return 1;
  }
}
