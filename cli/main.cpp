// main.cpp — the encoder-walkthrough command: runs a model file (or a built-in preset)
// and prints the walkthrough the way the seed notebooks do (each step's title, formula,
// shape and values with "..." elision), or the whole trace as JSON with --json; `train` and
// `analyze` are in train.cpp and masked.cpp.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <string>

#include "commands.h"
#include "io/model_file.h"
#include "io/presets.h"
#include "io/trace_json.h"
#include "kernels/kernels.h"
#include "model/config_schema.h"
#include "model/error.h"
#include "trace/backward.h"
#include "trace/forward.h"
#include "trace/generate.h"

namespace {

const char* kUsage =
    "usage: encoder-walkthrough [--model FILE.json | --preset NAME] [--json] [--edge N]\n"
    "       encoder-walkthrough --list-presets | --config-schema\n"
    "       encoder-walkthrough train --task NAME ... (train --help)\n"
    "       encoder-walkthrough analyze --task NAME (--preset NAME | --model FILE) ... (analyze --help)\n"
    "\n"
    "Runs a Transformer encoder(-decoder) forward pass and prints every step.\n"
    "  --model FILE   a model file (docs/model-file.md); default: the 'default' preset\n"
    "  --preset NAME  a built-in preset (see --list-presets)\n"
    "  --json         print the whole trace as JSON (docs/trace.md)\n"
    "  --backward     also the loss and every gradient dL/dX (needs a classifier label or a decoder)\n"
    "  --text TEXT    the sentence to run (replaces the preset's or model file's)\n"
    "  --generate     decode greedily, one token per run, until </s> (at most 32 tokens); the\n"
    "                 walkthrough (or JSON, with \"generated\") is that of the last round\n"
    "  --edge N       values shown at each edge of a row/column before '...' (default 3)\n"
    "  --config-schema  print the configuration fields (name, type, default, range, values) as JSON\n";


// A classifier's answer for the first sentence: {"label", "labels", "probs"}.
nlohmann::json prediction(const ew::Model& model, const ew::Trace& trace) {
  const ew::Step& p = trace.at("cls.probs");
  const int n = model.config.num_labels;
  std::vector<std::string> names = model.label_names;
  for (int i = static_cast<int>(names.size()); i < n; ++i) names.push_back("label " + std::to_string(i));
  const int best = static_cast<int>(std::max_element(p.data.begin(), p.data.begin() + n) - p.data.begin());
  return {{"label", names[best]}, {"labels", names}, {"probs", std::vector<float>(p.data.begin(), p.data.begin() + n)}};
}


}  // namespace

// Does the command line say --task NAME?
bool task_is(int argc, char** argv, const char* name) {
  for (int i = 2; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--task" && std::string(argv[i + 1]) == name) return true;
  return false;
}

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "train")
    return task_is(argc, argv, "masked-words") ? masked_train_main(argc, argv) : train_main(argc, argv);
  if (argc > 1 && std::string(argv[1]) == "analyze")
    return task_is(argc, argv, "masked-words") ? masked_analyze_main(argc, argv) : analyze_main(argc, argv);
  std::string model_path, preset_name;
  bool json = false, backward = false, generate = false;
  std::string text;
  bool text_given = false;
  int edge = 3;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* flag) -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "encoder-walkthrough: " << flag << " needs a value\n" << kUsage;
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--model") {
      model_path = value("--model");
    } else if (a == "--preset") {
      preset_name = value("--preset");
    } else if (a == "--json") {
      json = true;
    } else if (a == "--backward") {
      backward = true;
    } else if (a == "--generate") {
      generate = true;
    } else if (a == "--text") {
      text = value("--text");
      text_given = true;
    } else if (a == "--edge") {
      const std::string v = value("--edge");
      char* end = nullptr;
      const long n = std::strtol(v.c_str(), &end, 10);
      if (!end || *end || n < 1 || n > 1000) {
        std::cerr << "encoder-walkthrough: --edge must be a whole number from 1 to 1000, got \"" << v << "\"\n";
        return 2;
      }
      edge = static_cast<int>(n);
    } else if (a == "--list-presets") {
      for (const ew::Preset& p : ew::presets()) std::cout << p.name << "\t" << p.title << "\n";
      return 0;
    } else if (a == "--config-schema") {
      std::cout << ew::config_schema_json() << "\n";
      return 0;
    } else if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    } else {
      std::cerr << "encoder-walkthrough: unknown argument \"" << a << "\"\n" << kUsage;
      return 2;
    }
  }
  if (!model_path.empty() && !preset_name.empty()) {
    std::cerr << "encoder-walkthrough: give --model or --preset, not both\n";
    return 2;
  }
  try {
    ew::Model model;
    if (!model_path.empty()) {
      model = ew::model_from_file(model_path);
    } else {
      const ew::Preset* p = ew::find_preset(preset_name.empty() ? "default" : preset_name);
      if (!p) throw ew::Error("unknown preset \"" + preset_name + "\" (see --list-presets)");
      model = ew::model_from_string(p->model_json);
    }
    if (text_given) model.text = text;
    ew::Trace trace;
    std::vector<std::string> generated;
    std::vector<ew::GenRound> rounds;
    if (generate) {
      if (model.config.decoder_layers == 0) throw ew::Error("--generate needs a decoder (config.decoder_layers > 0)");
      rounds = ew::generate_greedy(model, trace);
      generated = ew::generated_tokens(rounds);
    } else {
      ew::run(model, trace);
    }
    if (backward) ew::run_backward(model, trace);
    nlohmann::json extra = nlohmann::json::object();
    if (generate) extra["generated"] = generated;
    for (const ew::GenRound& r : rounds)  // each round: what the decoder read, what it chose
      extra["rounds"].push_back({{"decoder_input", r.decoder_input}, {"token", r.token}, {"prob", r.prob}});
    if (model.config.num_labels > 0) extra["prediction"] = prediction(model, trace);
    if (model.config.masked_lm) extra["fills"] = masked_fills_json(trace);
    if (json) {
      std::string out = ew::trace_json(trace, model);
      out.pop_back();  // the closing brace: the extra keys go inside
      for (auto it = extra.begin(); it != extra.end(); ++it) out += ",\"" + it.key() + "\":" + it.value().dump();
      std::cout << out << "}\n";
    } else {
      print_walkthrough(trace, model, edge);
      if (generate) {
        std::cout << "\nGenerated:";
        for (const auto& tok : generated) std::cout << " " << tok;
        std::cout << "\n";
      }
      if (extra.contains("prediction")) {
        const auto& p = extra["prediction"];
        std::cout << "\nPrediction: " << p["label"].get<std::string>() << "  (";
        for (std::size_t i = 0; i < p["probs"].size(); ++i)
          std::cout << (i ? ", " : "") << p["labels"][i].get<std::string>() << " " << p["probs"][i].get<double>();
        std::cout << ")\n";
      }
      if (extra.contains("fills")) print_masked_fills(extra["fills"]);
    }
  } catch (const std::exception& e) {
    std::cerr << "encoder-walkthrough: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
