// train.cpp — `encoder-walkthrough train` (a model on one of the tasks, with AdamW, reporting
// loss and held-out accuracy; --out writes a model file, or safetensors with the recipe in its
// metadata) and `analyze` (a model's held-out accuracy and per-head attention statistics
// against the same architecture seeded), for every task (masked-words' own measurements are
// in masked.cpp). Both read their flags with one parser; train's recipe flags, their ranges
// and their help come from the recipe table (core/train/recipe.h).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "commands.h"
#include "io/model_file.h"
#include "io/presets.h"
#include "io/safetensors.h"
#include "model/error.h"
#include "session/sweep.h"
#include "train/analyze.h"
#include "train/masked_words.h"
#include "train/train.h"

void parse_flags(int argc, char** argv, const std::vector<Flag>& flags, const char* cmd, const std::string& usage) {
  auto fail = [&](const std::string& why, bool show_usage) {
    std::cerr << "encoder-walkthrough " << cmd << ": " << why << "\n" << (show_usage ? usage : "");
    std::exit(2);
  };
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::cout << usage;
      std::exit(0);
    }
    const Flag* f = nullptr;
    for (const Flag& g : flags)
      if (a == "--" + g.name) f = &g;
    if (!f) fail(a.rfind("--", 0) == 0 ? "unknown option \"" + a + "\"" : "unknown argument \"" + a + "\"", true);
    if (f->value && i + 1 >= argc) fail(a + " needs a value", true);
    try {
      f->set(f->value ? argv[++i] : "");
    } catch (const ew::Error& e) {
      fail(e.what(), false);
    }
  }
}

namespace {

// A whole number for --name from lo to hi (parse_number, the recipe's number parser).
int whole(const std::string& name, const std::string& v, int lo, int hi) {
  return static_cast<int>(ew::parse_number(v, name, true, lo, hi));
}

std::string usage_of(const std::vector<Flag>& flags) {
  std::string out;
  for (const Flag& f : flags) {
    std::string flag = "  --" + f.name + (f.value ? " X" : "");
    flag.resize(std::max<std::size_t>(flag.size() + 1, 22), ' ');
    out += flag + f.help + "\n";
  }
  return out;
}

// A recipe field's help line: what it is, its range and default, and the tasks it is for.
std::string recipe_help(const ew::RecipeField& f) {
  std::string s = std::string(f.help) + " (" + ew::recipe_range_text(f) + "; default " +
                  ew::recipe_value_text(ew::TrainOptions{}, f);
  if (f.scope == ew::RecipeScope::Decoder) s += "; encoder-decoder tasks";
  if (f.scope == ew::RecipeScope::Masked) s += "; masked-words";
  return s + ")";
}

// How a training run is watched and saved (not part of the recipe).
struct TrainRun {
  ew::TrainOptions o;
  int eval_n = -1;  // -1: 200, or 500 sentences for masked-words
  int eval_every = 250;
  std::string out, corpus = "build/corpus";
  bool half = false;
};

std::vector<Flag> recipe_flags(TrainRun& r) {
  std::vector<Flag> flags;
  for (const ew::RecipeField& f : ew::recipe_fields())
    flags.push_back({f.name, true, [&r, &f](const std::string& v) { ew::set_recipe_text(r.o, f, v); }, recipe_help(f)});
  return flags;
}

std::vector<Flag> run_flags(TrainRun& r) {
  return {
      {"eval", true, [&r](const std::string& v) { r.eval_n = whole("--eval", v, 0, 100000); },
       "held-out examples each evaluation reads (default 200; masked-words: 500 sentences)"},
      {"eval-every", true, [&r](const std::string& v) { r.eval_every = whole("--eval-every", v, 1, 10000000); },
       "steps between evaluations (default 250)"},
      {"out", true, [&r](const std::string& v) { r.out = v; },
       "write the model: FILE.json (a model file) or FILE.safetensors (weights; config, vocabulary, labels and the "
       "recipe in __metadata__)"},
      {"float16", false, [&r](const std::string&) { r.half = true; }, "--out's safetensors in float16"},
      {"corpus", true, [&r](const std::string& v) { r.corpus = v; },
       "masked-words: the directory of sotu-train.txt and sotu-heldout.txt (default build/corpus)"},
  };
}

std::string train_usage() {
  TrainRun r;
  return "usage: encoder-walkthrough train --task NAME [--FLAG X ...]\n"
         "Trains a model on a task with AdamW and prints step, loss, held-out accuracy and steps/s; --out writes\n"
         "the trained model as a model file (--model FILE.json), or its weights as safetensors, used by a model\n"
         "file {\"weights\": \"FILE.safetensors\", \"text\": ...}.\nThe recipe (docs/training.md):\n" +
         usage_of(recipe_flags(r)) + "The run:\n" + usage_of(run_flags(r));
}

void print_header(const ew::Trainer& t, const ew::TrainOptions& o) {
  std::cout << "training " << o.task << ": d_model " << o.d_model << ", " << o.num_heads << " heads, d_ff " << o.d_ff
            << ", " << o.num_layers << " encoder layer(s)"
            << (t.task().decoder() ? ", " + std::to_string(o.decoder_layers) + " decoder layer(s)" : "") << "; "
            << o.steps << " steps of " << o.batch << " examples, lr " << o.lr << ", seed " << o.seed << std::endl;
  std::cout << "  path: " << t.path() << std::endl;
}

// The steps, with loss and held-out accuracy every eval_every steps (and a progress line on a terminal).
void train_loop(ew::Trainer& t, const TrainRun& r) {
  const bool tty = isatty(1);
  const char* metric = t.task().masked_lm ? "top-1" : "exact match";
  const auto t0 = std::chrono::steady_clock::now();
  for (int s = 1; s <= r.o.steps; ++s) {
    const double loss = t.step();
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const bool report = s % r.eval_every == 0 || s == r.o.steps;
    if (tty && !report)
      std::cout << "\r  step " << s << "/" << r.o.steps << "  loss " << loss << "  " << static_cast<int>(s / secs)
                << " steps/s   " << std::flush;
    if (report) {
      const double acc = t.evaluate(r.eval_n);
      std::cout << (tty ? "\r" : "") << "  step " << s << "/" << r.o.steps << "  loss " << loss << "  held-out "
                << metric << " " << 100.0 * acc << "% (" << r.eval_n << ")  " << s / secs << " steps/s  " << secs
                << " s" << std::endl;
    }
  }
}

// --out: safetensors (the recipe in its metadata; float16 with --float16) or a model file.
void write_model(const TrainRun& r, ew::Model& m, bool decoder) {
  std::ofstream f(r.out, std::ios::binary);
  if (r.out.size() > 12 && r.out.compare(r.out.size() - 12, 12, ".safetensors") == 0) {
    ew::SafeTensors st = ew::model_to_safetensors(m);
    for (const auto& [k, v] : ew::recipe_metadata(r.o)) st.metadata[k] = v;
    const auto bytes = ew::write_safetensors(st, r.half ? ew::DiskType::F16 : ew::DiskType::F32);
    f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  } else {
    nlohmann::json doc = ew::model_to_json(m);
    if (decoder) doc["target"] = "";
    f << doc.dump() << "\n";
  }
  if (!f) throw ew::Error("cannot write \"" + r.out + "\"");
  std::cout << "wrote " << r.out << "\n";
}

// masked-words' task, from its corpus: the vocabulary is learned here.
std::unique_ptr<ew::MaskedWordsTask> masked_task(const TrainRun& r) {
  const auto t0 = std::chrono::steady_clock::now();
  auto task = std::make_unique<ew::MaskedWordsTask>(ew::read_masked_corpus(r.corpus), r.o.merges);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "corpus " << r.corpus << ": " << task->corpus().train.size() << " training sentences, "
            << task->corpus().heldout.size() << " held out; " << r.o.merges << " BPE merges learned, vocabulary "
            << task->task().vocab.size() << " tokens (" << secs << " s)" << std::endl;
  return task;
}

}  // namespace

int train_main(int argc, char** argv) {
  TrainRun r;
  std::vector<Flag> flags = recipe_flags(r);
  for (Flag& f : run_flags(r)) flags.push_back(std::move(f));
  parse_flags(argc, argv, flags, "train", train_usage());
  try {
    ew::validate(r.o);
    const bool masked = r.o.task == ew::kMaskedWordsTask;
    if (r.eval_n < 0) r.eval_n = masked ? 500 : 200;
    const std::unique_ptr<ew::MaskedWordsTask> corpus_task = masked ? masked_task(r) : nullptr;
    const auto trainer = corpus_task ? std::make_unique<ew::Trainer>(r.o, corpus_task->task())
                                     : std::make_unique<ew::Trainer>(r.o);
    ew::Trainer& t = *trainer;
    print_header(t, r.o);
    train_loop(t, r);
    const ew::Example ex = t.task().sample(r.o.seed, 0, ew::Split::HeldOut);
    std::string got;
    for (const auto& tok : t.predict(ex.source)) got += (got.empty() ? "" : " ") + tok;
    std::cout << "example (held out): \"" << ex.source << "\" -> " << got << "\n";
    ew::Model& m = t.model();
    m.text = ex.source;
    if (corpus_task) report_masked(m, *corpus_task, r.o.seed, r.eval_n);
    if (!r.out.empty()) write_model(r, m, t.task().decoder());
  } catch (const std::exception& e) {
    std::cerr << "encoder-walkthrough train: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

namespace {

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

ew::Model analysis_model(const AnalyzeArgs& a) {
  ew::Model m;
  if (!a.model_path.empty()) {
    m = ew::model_from_file(a.model_path);
  } else {
    const ew::Preset* p = ew::find_preset(a.preset);
    if (!p) throw ew::Error("unknown preset \"" + a.preset + "\" (see --list-presets)");
    m = ew::model_from_string(p->model_json);
  }
  return a.seeded ? ew::seeded_copy(m) : m;
}

bool meets(const char* what, double got, double required) {
  if (required < 0 || got >= required) return true;
  std::cerr << "encoder-walkthrough analyze: " << what << " " << percent(got) << " is below the required "
            << percent(required) << "\n";
  return false;
}

namespace {

std::vector<Flag> analyze_flags(AnalyzeArgs& a) {
  const ew::RecipeField& seed = *ew::find_recipe_field("seed");
  return {
      {"task", true, [&a](const std::string& v) { a.task = v; }, "the task whose held-out examples are read"},
      {"preset", true, [&a](const std::string& v) { a.preset = v; }, "a preset's model (see --list-presets)"},
      {"model", true, [&a](const std::string& v) { a.model_path = v; }, "a model file"},
      {"n", true, [&a](const std::string& v) { a.n = whole("--n", v, 1, 100000); }, "held-out examples (default 1000)"},
      {"seed", true,
       [&a, &seed](const std::string& v) { a.seed = static_cast<std::uint64_t>(ew::parse_number(v, "--seed", true, seed.min, seed.max)); },
       "the seed the held-out examples are drawn with (default 1)"},
      {"require", true, [&a](const std::string& v) { a.require = ew::parse_number(v, "--require", false, 0, 1); },
       "exit 1 when the accuracy (masked-words: top-1) is below this fraction (e.g. 0.99)"},
      {"require-top5", true, [&a](const std::string& v) { a.require_top5 = ew::parse_number(v, "--require-top5", false, 0, 1); },
       "masked-words: exit 1 when top-5 is below this fraction"},
      {"seeded", false, [&a](const std::string&) { a.seeded = true; },
       "measure the same architecture with seeded (untrained) weights instead: a gate's control"},
      {"corpus", true, [&a](const std::string& v) { a.corpus = v; }, "masked-words: the corpus directory (default build/corpus)"},
      {"beat-unigram", false, [&a](const std::string&) { a.beat_unigram = true; },
       "masked-words: exit 1 unless top-1 and top-5 are both above the unigram baseline's"},
      {"ablate", true, [&a](const std::string& v) { a.ablate.push_back(v); },
       "accuracy with this head or unit switched off (repeatable; JSON)"},
      {"ablate-mode", true,
       [&a](const std::string& v) {
         if (v != "zero" && v != "mean") throw ew::Error("--ablate-mode is zero or mean, got \"" + v + "\"");
         a.mean = v == "mean";
       },
       "zero (default) or mean: its mean over 100 held-out inputs"},
      {"ablate-sweep", false, [&a](const std::string&) { a.ablate_sweep = true; },
       "accuracy with each head and each FFN block switched off in turn (JSON)"},
      {"patch-sweep", false, [&a](const std::string&) { a.patch_sweep = true; },
       "share of the logit difference restored by patching each layer x position and each head (JSON; no --task)"},
      {"text", true, [&a](const std::string& v) { a.text = v; }, "--patch-sweep: the sentence patched into"},
      {"patch-from", true, [&a](const std::string& v) { a.patch_from = v; }, "--patch-sweep: the donor sentence"},
  };
}

std::string analyze_usage() {
  AnalyzeArgs a;
  return "usage: encoder-walkthrough analyze --task NAME (--preset NAME | --model FILE) [--FLAG X ...]\n"
         "Runs a model on the first N held-out examples of a task and prints its exact-match accuracy, then per\n"
         "attention head the normalised entropy (mean over rows of H/log n; 1 = uniform) of the model and of the\n"
         "same architecture with seeded weights, and per cross-attention head the share of output tokens whose\n"
         "largest weight falls on the source token that produces them (docs/training.md). masked-words: top-1 and\n"
         "top-5 on the masks of N held-out sentences beside a unigram baseline.\n" +
         usage_of(analyze_flags(a));
}

// analyze's what-if tables (core/session/sweep.h) as JSON.
int what_if(const AnalyzeArgs& a, const std::string& usage) {
  if (a.preset.empty() == a.model_path.empty() || (a.patch_sweep ? a.text.empty() || a.patch_from.empty() : a.task.empty())) {
    std::cerr << "encoder-walkthrough analyze: give one of --preset or --model, and --task (ablations) or --text and "
                 "--patch-from (--patch-sweep)\n" << usage;
    return 2;
  }
  try {
    const ew::Model model = analysis_model(a);
    const ew::AblateMode mode = a.mean ? ew::AblateMode::Mean : ew::AblateMode::Zero;
    nlohmann::json out;
    if (a.patch_sweep) {
      out = ew::patch_sweep(model, a.text, a.patch_from);
    } else if (a.ablate_sweep) {
      out = ew::ablation_sweep(model, ew::find_task(a.task), mode, a.seed, a.n);
    } else {
      const ew::Task& task = ew::find_task(a.task);
      ew::Model m = model;
      ew::Trace t;
      out = {{"task", task.name}, {"n", a.n}, {"mode", a.mean ? "mean" : "zero"}, {"ablate", a.ablate},
             {"accuracy", ew::held_out_accuracy(m, t, task, a.seed, a.n)},
             {"ablated_accuracy", ew::ablated_accuracy(model, task, a.ablate, mode, a.seed, a.n)}};
    }
    std::cout << out.dump(1) << "\n";
  } catch (const std::exception& e) {
    std::cerr << "encoder-walkthrough analyze: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace

int analyze_main(int argc, char** argv) {
  AnalyzeArgs a;
  const std::string usage = analyze_usage();
  parse_flags(argc, argv, analyze_flags(a), "analyze", usage);
  if (a.patch_sweep || a.ablate_sweep || !a.ablate.empty()) return what_if(a, usage);
  if (a.task.empty() || a.preset.empty() == a.model_path.empty()) {
    std::cerr << "encoder-walkthrough analyze: give --task, and one of --preset or --model\n" << usage;
    return 2;
  }
  if (a.task == ew::kMaskedWordsTask) return masked_analyze(a);
  try {
    const ew::Task& task = ew::find_task(a.task);
    ew::Model model = analysis_model(a);
    std::cout << "analyze " << task.name << ": " << (a.model_path.empty() ? "preset " + a.preset : a.model_path) << ", "
              << a.n << " held-out examples (seed " << a.seed << ")" << std::endl;
    ew::Model seeded_model = ew::seeded_copy(model);
    // Progress on a terminal: examples done of both passes (trained, then seeded).
    const bool tty = isatty(2);
    const int n = a.n;
    auto shown = [&](int base) {
      return [&, base](int done) {
        if (tty && (done % 50 == 0 || done == n)) std::cerr << "\r  example " << base + done << "/" << 2 * n << std::flush;
      };
    };
    const ew::Analysis trained = ew::analyze(model, task, a.seed, n, true, shown(0));
    const ew::Analysis seeded = ew::analyze(seeded_model, task, a.seed, n, /*accuracy=*/false, shown(n));
    if (tty) std::cerr << "\r" << std::string(30, ' ') << "\r";
    print_analysis(trained, seeded);
    if (!meets("accuracy", trained.accuracy, a.require)) return 1;
  } catch (const std::exception& e) {
    std::cerr << "encoder-walkthrough analyze: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
