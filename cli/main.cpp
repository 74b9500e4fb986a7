// main.cpp — the encoder-walkthrough command: runs a model file (or a built-in preset)
// and prints the walkthrough the way the seed notebooks do (each step's title, formula,
// shape and values with "..." elision), or the whole trace as JSON with --json.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>

#include "analyze.h"
#include "backward.h"
#include "config_schema.h"
#include "error.h"
#include "generate.h"
#include "kernels.h"
#include "model.h"
#include "model_file.h"
#include "presets.h"
#include "safetensors.h"
#include "trace_json.h"
#include "train.h"

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

// Numpy-style number: 8 significant digits.
std::string num(float v) {
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.8g", static_cast<double>(v));
  return buf;
}

void print_row(const float* row, int n, int edge) {
  std::cout << "[";
  for (int j = 0; j < n; ++j) {
    if (n > 2 * edge && j == edge) {
      std::cout << " ...";
      j = n - edge - 1;
      continue;
    }
    std::cout << (j ? " " : "") << num(row[j]);
  }
  std::cout << "]";
}

void print_matrix(const float* data, int rows, int cols, int edge, const std::string& indent) {
  std::cout << indent << "[";
  for (int i = 0; i < rows; ++i) {
    if (rows > 2 * edge && i == edge) {
      std::cout << "\n" << indent << " ...";
      i = rows - edge - 1;
      continue;
    }
    if (i) std::cout << "\n" << indent << " ";
    print_row(data + static_cast<std::size_t>(i) * cols, cols, edge);
  }
  std::cout << "]\n";
}

void print_step(const ew::Step& s, int edge) {
  std::string shape = "(";
  for (std::size_t i = 0; i < s.shape.size(); ++i) shape += (i ? ", " : "") + std::to_string(s.shape[i]);
  shape += s.shape.size() == 1 ? ",)" : ")";
  std::cout << "\n== " << s.title << "  [" << s.id << "]\n";
  std::cout << "   " << s.formula << "\n";
  if (!s.note.empty()) std::cout << "   " << s.note << "\n";
  std::cout << "   shape: " << shape;
  if (!s.inputs.empty()) {
    std::cout << "   from:";
    for (const auto& in : s.inputs) std::cout << " " << in;
  }
  std::cout << "\n";
  if (s.shape.size() == 1) {
    std::cout << "   ";
    print_row(s.data.data(), s.shape[0], edge);
    std::cout << "\n";
  } else if (s.shape.size() == 2) {
    print_matrix(s.data.data(), s.shape[0], s.shape[1], edge, "   ");
  } else {
    const int rows = s.shape[1], cols = s.shape[2];
    for (int b = 0; b < s.shape[0]; ++b) {
      std::cout << "   batch item " << b << ":\n";
      print_matrix(s.data.data() + static_cast<std::size_t>(b) * rows * cols, rows, cols, edge, "   ");
    }
  }
}

void print_walkthrough(const ew::Trace& trace, const ew::Model& model, int edge) {
  const ew::TextInfo& t = trace.text;
  const ew::Config& c = model.config;
  std::cout << "Encoder walkthrough: d_model=" << c.d_model << ", heads=" << c.num_heads << ", d_ff=" << c.d_ff
            << ", layers=" << c.num_layers << (c.decoder_layers ? ", decoder layers=" + std::to_string(c.decoder_layers) : "")
            << " (kernels: " << ew::kernel_isa() << ")\n";
  if (t.tokenizer == "bpe") {
    if (!t.bpe.merges.empty() && t.bpe.merges[0].vocab_before.empty())
      std::cout << "BPE: the model's " << t.bpe.merges.size() << " learned merges, applied in order\n";
    for (const ew::BpeMerge& m : t.bpe.merges) {
      if (m.vocab_before.empty()) continue;
      std::cout << "-----\nmost frequent pair: ('" << m.pair.first << "', '" << m.pair.second << "') x" << m.count << "\n";
      std::cout << "vocab before merge:";
      for (const auto& [w, f] : m.vocab_before) std::cout << " ('" << w << "', " << f << ")";
      std::cout << "\nvocab after merge:";
      for (const auto& [w, f] : m.vocab_after) std::cout << " ('" << w << "', " << f << ")";
      std::cout << "\n";
    }
  }
  for (std::size_t b = 0; b < t.source_tokens.size(); ++b) {
    std::cout << (b ? "Second sentence tokens: [" : "Our input tokens are: [");
    for (std::size_t i = 0; i < t.source_tokens[b].size(); ++i)
      std::cout << (i ? ", " : "") << "'" << t.source_tokens[b][i] << "'";
    std::cout << "] with length: " << t.source_tokens[b].size() << "\n";
    if (b < t.skipped.size() && !t.skipped[b].empty()) {  // what the regex dropped, and why
      std::cout << "Skipped:";
      for (const ew::SkippedSpan& sp : t.skipped[b]) std::cout << " '" << sp.text << "' (at " << sp.start << ")";
      std::cout << ": " << ew::kRegexSkipReason << "\n";
    }
  }
  if (!t.target_tokens.empty()) {
    std::cout << "Decoder input tokens: [";
    for (std::size_t i = 0; i < t.target_tokens.size(); ++i) std::cout << (i ? ", " : "") << "'" << t.target_tokens[i] << "'";
    std::cout << "]\n";
  }
  for (std::size_t i = 0; i < trace.size(); ++i) print_step(trace[i], edge);
}

// A classifier's answer for the first sentence: {"label", "labels", "probs"}.
nlohmann::json prediction(const ew::Model& model, const ew::Trace& trace) {
  const ew::Step& p = trace.at("cls.probs");
  const int n = model.config.num_labels;
  std::vector<std::string> names = model.label_names;
  for (int i = static_cast<int>(names.size()); i < n; ++i) names.push_back("label " + std::to_string(i));
  const int best = static_cast<int>(std::max_element(p.data.begin(), p.data.begin() + n) - p.data.begin());
  return {{"label", names[best]}, {"labels", names}, {"probs", std::vector<float>(p.data.begin(), p.data.begin() + n)}};
}

// A whole number or a decimal for --name, or exit 2 with a message naming it.
double number_arg(const std::string& name, const std::string& v, bool whole, const char* cmd = "train") {
  char* end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  if (v.empty() || !end || *end || !std::isfinite(x) || (whole && x != std::floor(x))) {
    std::cerr << "encoder-walkthrough " << cmd << ": " << name << " must be " << (whole ? "a whole number" : "a number")
              << ", got \"" << v << "\"\n";
    std::exit(2);
  }
  return x;
}

const char* kTrainUsage =
    "usage: encoder-walkthrough train --task NAME [--steps N] [--batch B] [--lr X] [--seed S]\n"
    "         [--d_model D] [--num_heads H] [--d_ff F] [--num_layers L] [--decoder_layers L]\n"
    "         [--warmup N] [--eval N] [--eval-every N] [--out FILE.json | FILE.safetensors [--float16]]\n"
    "Trains a model on a task (number-words, brackets, dates) with AdamW and prints step, loss, held-out\n"
    "accuracy and steps/s; --out writes the trained model as a model file (--model FILE.json), or its\n"
    "weights as safetensors (config, vocabulary and labels in __metadata__), used by a model file\n"
    "{\"weights\": \"FILE.safetensors\", \"text\": ...}.\n";

int train_main(int argc, char** argv) {
  ew::TrainOptions o;
  int eval_n = 200, eval_every = 250;
  std::string out;
  bool half = false;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::cout << kTrainUsage;
      return 0;
    }
    if (a == "--float16") {
      half = true;
      continue;
    }
    if (i + 1 >= argc) {
      std::cerr << "encoder-walkthrough train: " << (a.rfind("--", 0) == 0 ? a + " needs a value" : "unknown argument \"" + a + "\"")
                << "\n" << kTrainUsage;
      return 2;
    }
    const std::string v = argv[++i];
    auto whole = [&](int lo, int hi) {
      const double x = number_arg(a, v, true);
      if (x < lo || x > hi) {
        std::cerr << "encoder-walkthrough train: " << a << " must be between " << lo << " and " << hi << ", got " << v << "\n";
        std::exit(2);
      }
      return static_cast<int>(x);
    };
    if (a == "--task") o.task = v;
    else if (a == "--steps") o.steps = whole(1, 10000000);
    else if (a == "--batch") o.batch = whole(1, 4096);
    else if (a == "--lr") o.lr = number_arg(a, v, false);
    else if (a == "--seed") o.seed = static_cast<std::uint64_t>(whole(0, 2000000000));
    else if (a == "--d_model") o.d_model = whole(1, 4096);
    else if (a == "--num_heads") o.num_heads = whole(1, 64);
    else if (a == "--d_ff") o.d_ff = whole(1, 16384);
    else if (a == "--num_layers") o.num_layers = whole(0, 48);
    else if (a == "--decoder_layers") o.decoder_layers = whole(1, 48);
    else if (a == "--warmup") o.warmup = whole(0, 10000000);
    else if (a == "--eval") eval_n = whole(0, 100000);
    else if (a == "--eval-every") eval_every = whole(1, 10000000);
    else if (a == "--out") out = v;
    else {
      std::cerr << "encoder-walkthrough train: unknown option \"" << a << "\"\n" << kTrainUsage;
      return 2;
    }
  }
  try {
    ew::Trainer t(o);
    const bool tty = isatty(1);
    std::cout << "training " << o.task << ": d_model " << o.d_model << ", " << o.num_heads << " heads, d_ff " << o.d_ff
              << ", " << o.num_layers << " encoder layer(s)" << (t.task().classifier ? "" : ", " + std::to_string(o.decoder_layers) + " decoder layer(s)")
              << "; " << o.steps << " steps of " << o.batch << " examples, lr " << o.lr << ", seed " << o.seed << std::endl;
    const auto t0 = std::chrono::steady_clock::now();
    double loss = 0;
    for (int s = 1; s <= o.steps; ++s) {
      loss = t.step();
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const bool report = s % eval_every == 0 || s == o.steps;
      if (tty && !report)
        std::cout << "\r  step " << s << "/" << o.steps << "  loss " << loss << "  " << static_cast<int>(s / secs) << " steps/s   " << std::flush;
      if (report) {
        const double acc = t.evaluate(eval_n);
        std::cout << (tty ? "\r" : "") << "  step " << s << "/" << o.steps << "  loss " << loss << "  held-out exact match "
                  << 100.0 * acc << "% (" << eval_n << ")  " << s / secs << " steps/s  " << secs << " s" << std::endl;
      }
    }
    const ew::Example ex = t.task().sample(o.seed, 0, ew::Split::HeldOut);
    std::string got;
    for (const auto& tok : t.predict(ex.source)) got += (got.empty() ? "" : " ") + tok;
    std::cout << "example (held out): \"" << ex.source << "\" -> " << got << "\n";
    if (!out.empty()) {
      ew::Model& m = t.model();
      m.text = ex.source;
      std::ofstream f(out, std::ios::binary);
      if (out.size() > 12 && out.compare(out.size() - 12, 12, ".safetensors") == 0) {
        const auto bytes = ew::write_safetensors(ew::model_to_safetensors(m), half ? ew::DiskType::F16 : ew::DiskType::F32);
        f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
      } else {
        nlohmann::json doc = ew::model_to_json(m);
        if (!t.task().classifier) doc["target"] = "";
        f << doc.dump() << "\n";
      }
      if (!f) throw ew::Error("cannot write \"" + out + "\"");
      std::cout << "wrote " << out << "\n";
    }
  } catch (const std::exception& e) {
    std::cerr << "encoder-walkthrough train: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

const char* kAnalyzeUsage =
    "usage: encoder-walkthrough analyze --task NAME (--preset NAME | --model FILE) [--n N] [--seed S]\n"
    "         [--require ACC]\n"
    "Runs a model on the first N (default 1000) held-out examples of a task (drawn with seed S,\n"
    "default 1) and prints its exact-match accuracy, then per attention head the normalised\n"
    "entropy (mean over rows of H/log n; 1 = uniform) of the model and of the same architecture\n"
    "with seeded weights, and per cross-attention head the share of output tokens whose largest\n"
    "weight falls on the source token that produces them (docs/training.md).\n"
    "  --require ACC  exit 1 when the accuracy is below ACC (a fraction, e.g. 0.98)\n";

// "decoder layer 0, cross-attention head 1", from the step's place.
std::string head_name(const ew::Place& p) {
  std::string block = p.block == "cross_attention" ? "cross-attention" : "self-attention";
  return p.section + " layer " + std::to_string(p.layer) + ", " + block + " head " + std::to_string(p.head);
}

std::string percent(double share) {
  if (share < 0) return "-";
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * share);
  return buf;
}

void print_analysis(const ew::Analysis& trained, const ew::Analysis& seeded) {
  std::cout << "held-out exact match: " << percent(trained.accuracy) << " ("
            << static_cast<long>(trained.accuracy * trained.examples + 0.5) << "/" << trained.examples << ")\n";
  std::cout << "attention over the teacher-forced runs (entropy: mean of H/log n over rows, 1 = uniform;\n"
            << "aligned: share of output tokens whose largest weight is on the source token producing them)\n";
  std::printf("  %-44s %16s %16s %16s %16s\n", "head", "entropy trained", "entropy seeded", "aligned trained",
              "aligned seeded");
  for (std::size_t k = 0; k < trained.heads.size(); ++k) {
    const ew::HeadStats& t = trained.heads[k];
    const ew::HeadStats* s = k < seeded.heads.size() ? &seeded.heads[k] : nullptr;
    std::printf("  %-44s %16.3f %16.3f %16s %16s\n", head_name(t.place).c_str(), t.entropy, s ? s->entropy : 0.0,
                percent(t.aligned).c_str(), s ? percent(s->aligned).c_str() : "-");
  }
  std::fflush(stdout);
}

int analyze_main(int argc, char** argv) {
  std::string task_name, preset_name, model_path;
  int n = 1000;
  std::uint64_t seed = 1;
  double require = -1, seed_value = 1;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::cout << kAnalyzeUsage;
      return 0;
    }
    if (i + 1 >= argc) {
      std::cerr << "encoder-walkthrough analyze: " << (a.rfind("--", 0) == 0 ? a + " needs a value" : "unknown argument \"" + a + "\"")
                << "\n" << kAnalyzeUsage;
      return 2;
    }
    const std::string v = argv[++i];
    if (a == "--task") task_name = v;
    else if (a == "--preset") preset_name = v;
    else if (a == "--model") model_path = v;
    else if (a == "--n") n = static_cast<int>(std::clamp(number_arg(a, v, true, "analyze"), 0.0, 1e6));
    else if (a == "--seed") seed_value = number_arg(a, v, true, "analyze");
    else if (a == "--require") require = number_arg(a, v, false, "analyze");
    else {
      std::cerr << "encoder-walkthrough analyze: unknown option \"" << a << "\"\n" << kAnalyzeUsage;
      return 2;
    }
  }
  if (task_name.empty() || preset_name.empty() == model_path.empty() || n < 1 || n > 100000 || require > 1 ||
      seed_value < 0 || seed_value > 2e9) {
    std::cerr << "encoder-walkthrough analyze: give --task, and one of --preset or --model; --n from 1 to 100000; "
                 "--seed from 0 to 2000000000; --require at most 1\n" << kAnalyzeUsage;
    return 2;
  }
  seed = static_cast<std::uint64_t>(seed_value);
  try {
    const ew::Task& task = ew::find_task(task_name);
    ew::Model model;
    if (!model_path.empty()) {
      model = ew::model_from_file(model_path);
    } else {
      const ew::Preset* p = ew::find_preset(preset_name);
      if (!p) throw ew::Error("unknown preset \"" + preset_name + "\" (see --list-presets)");
      model = ew::model_from_string(p->model_json);
    }
    std::cout << "analyze " << task.name << ": " << (model_path.empty() ? "preset " + preset_name : model_path) << ", "
              << n << " held-out examples (seed " << seed << ")" << std::endl;
    ew::Model seeded_model = ew::seeded_copy(model);
    // Progress on a terminal: examples done of both passes (trained, then seeded).
    const bool tty = isatty(2);
    auto shown = [&](int base) {
      return [&, base](int done) {
        if (tty && (done % 50 == 0 || done == n)) std::cerr << "\r  example " << base + done << "/" << 2 * n << std::flush;
      };
    };
    const ew::Analysis trained = ew::analyze(model, task, seed, n, true, shown(0));
    const ew::Analysis seeded = ew::analyze(seeded_model, task, seed, n, /*accuracy=*/false, shown(n));
    if (tty) std::cerr << "\r" << std::string(30, ' ') << "\r";
    print_analysis(trained, seeded);
    if (require >= 0 && trained.accuracy < require) {
      std::cerr << "encoder-walkthrough analyze: accuracy " << percent(trained.accuracy) << " is below the required "
                << percent(require) << "\n";
      return 1;
    }
  } catch (const std::exception& e) {
    std::cerr << "encoder-walkthrough analyze: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace

// cli/masked.cpp: the masked-words task's commands and the [MASK] fills.
int masked_train_main(int argc, char** argv);
int masked_analyze_main(int argc, char** argv);
nlohmann::json masked_fills_json(const ew::Trace& trace);
void print_masked_fills(const nlohmann::json& fills);

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
