// train_bindings.cpp — the Embind surface of training in the page's Worker: Module.TrainSession,
// Module.tasksJson() and Module.recipeSchemaJson() (the training options' table, for the form;
// core/train/recipe.h). bindings.cpp binds the engine. Converts and forwards, no model logic.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/safetensors.h"
#include "model/error.h"
#include "reply.h"
#include "trace/forward.h"
#include "trace/generate.h"
#include "train/recipe.h"
#include "train/tasks.h"
#include "train/train.h"

namespace {

using emscripten::val;
using ew_wasm::error_reply;

// Training in the page's Worker (issue 10): ew::Trainer behind calls that never throw (each
// returns JSON with "ok" or "error"), driven in chunks of steps so the Worker stays responsive.
class TrainSession {
 public:
  std::string start(const std::string& options_json) {
    return guard([&] {
      nlohmann::json j = nlohmann::json::parse(options_json);
      // The page's run settings travel in the same object (train-panel.js): not the recipe.
      if (j.is_object())
        for (const char* k : {"evalN", "finalEvalN", "stopAt"}) j.erase(k);
      const ew::TrainOptions o = ew::recipe_from_json(j);
      trainer_ = std::make_unique<ew::Trainer>(o);
      options_ = o;
      const ew::Task& t = trainer_->task();
      return nlohmann::json{{"classifier", t.classifier}, {"labels", t.labels},
                            {"example", t.sample(o.seed, 0, ew::Split::HeldOut).source}};
    });
  }
  // n optimizer steps; {loss: the mean of their batch losses, steps: done so far}.
  std::string steps(int n) {
    return guard([&] {
      need();
      double sum = 0;
      for (int i = 0; i < n && trainer_->steps_done() < options_.steps; ++i) sum += trainer_->step();
      return nlohmann::json{{"loss", n ? sum / n : 0.0}, {"steps", trainer_->steps_done()}};
    });
  }
  std::string evaluate(int n) {
    return guard([&] {
      need();
      return nlohmann::json{{"accuracy", trainer_->evaluate(n)}, {"n", n}};
    });
  }
  // The model as it is now on one input: its answer and its attention weights (the decoder's
  // cross-attention, else the encoder's self-attention), every layer and head.
  std::string sample(const std::string& text) {
    return guard([&] {
      need();
      ew::Model m = trainer_->model();
      m.text = text;
      m.label = -1;
      ew::Trace tr;
      nlohmann::json out;
      if (m.config.decoder_layers > 0) {
        out["generated"] = ew::generated_tokens(ew::generate_greedy(m, tr, 16));
      } else {
        m.target_given = false;
        ew::run(m, tr);
      }
      out["source"] = tr.text.source_tokens.at(0);
      out["target"] = tr.text.target_tokens;
      out["heads"] = nlohmann::json::array();
      const std::string block = m.config.decoder_layers > 0 ? "cross_attention" : "self_attention";
      for (std::size_t i = 0; i < tr.size(); ++i) {
        const ew::Step& s = tr[i];
        if (s.kind != "softmax" || s.place.head < 0 || s.place.block != block) continue;
        if (m.config.decoder_layers > 0 && s.place.section != "decoder") continue;
        const int cols = s.shape.back(), rows = static_cast<int>(s.size() / cols);
        out["heads"].push_back({{"layer", s.place.layer}, {"head", s.place.head}, {"rows", rows}, {"cols", cols},
                                {"data", std::vector<float>(s.data.begin(), s.data.begin() + rows * cols)}});
      }
      if (m.config.num_labels > 0) {
        const ew::Step& p = tr.at("cls.probs");
        out["probs"] = std::vector<float>(p.data.begin(), p.data.begin() + m.config.num_labels);
      }
      return out;
    });
  }
  // The trained model as safetensors (F32, its recipe in the metadata), kept until the next
  // call; a view of its bytes.
  val safetensors() {
    if (!trainer_) return val::null();
    ew::SafeTensors st = ew::model_to_safetensors(trainer_->model());
    for (const auto& [k, v] : ew::recipe_metadata(options_)) st.metadata[k] = v;
    const auto bytes = ew::write_safetensors(st);
    bytes_.assign(bytes.begin(), bytes.end());
    return val(emscripten::typed_memory_view(bytes_.size(), bytes_.data()));
  }

 private:
  template <class F>
  std::string guard(F f) {
    try {
      nlohmann::json r = f();
      r["ok"] = true;
      return r.dump();
    } catch (const std::exception& e) {
      return error_reply(e);
    }
  }
  void need() const {
    if (!trainer_) throw ew::Error("no training has been started");
  }
  std::unique_ptr<ew::Trainer> trainer_;
  ew::TrainOptions options_;
  std::vector<std::uint8_t> bytes_;
};

// The training tasks (tasks.h): [{name, description, classifier, labels}].
std::string tasks_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const ew::Task& t : ew::tasks())
    out.push_back({{"name", t.name}, {"description", t.description}, {"classifier", t.classifier}, {"labels", t.labels}});
  return out.dump();
}

}  // namespace

EMSCRIPTEN_BINDINGS(encoder_walkthrough_training) {
  emscripten::class_<TrainSession>("TrainSession")
      .constructor<>()
      .function("start", &TrainSession::start)
      .function("steps", &TrainSession::steps)
      .function("evaluate", &TrainSession::evaluate)
      .function("sample", &TrainSession::sample)
      .function("safetensors", &TrainSession::safetensors);
  emscripten::function("tasksJson", &tasks_json);
  emscripten::function("recipeSchemaJson", &ew::recipe_schema_json);
}
