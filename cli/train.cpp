// train.cpp — `encoder-walkthrough train` (a model on one of the tasks, with AdamW, reporting
// loss and held-out accuracy; --out writes a model file or safetensors) and `analyze` (a model's
// held-out accuracy and per-head attention statistics against the same architecture seeded).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include "commands.h"
#include "io/model_file.h"
#include "io/presets.h"
#include "io/safetensors.h"
#include "model/error.h"
#include "train/analyze.h"
#include "train/train.h"

namespace {

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

}  // namespace

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

namespace {

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

}  // namespace

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

