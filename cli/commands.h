// commands.h — the command line's pieces, one file each: the walkthrough printed as the seed
// notebooks print (print.cpp), training and analysis of the shipped tasks (train.cpp), the
// masked-word task's commands (masked.cpp), a model written as a Hugging Face checkpoint
// (export.cpp); main.cpp runs the walkthrough and dispatches to them.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/model.h"
#include "trace/trace.h"
#include "train/masked_words.h"

// print.cpp: every step's title, formula, shape and values with "..." elision; then what the
// run answered besides (a session's report: generated tokens, the prediction, the fills).
void print_walkthrough(const ew::Trace& trace, const ew::Model& model, int edge);
void print_answers(const nlohmann::json& report);

// train.cpp: `encoder-walkthrough train` and `analyze`, for every task.
int train_main(int argc, char** argv);
int analyze_main(int argc, char** argv);

// export.cpp: `encoder-walkthrough export --hf DIR`, a model as a Hugging Face checkpoint.
int export_main(int argc, char** argv);

// train.cpp: the one flag parser of `train` and `analyze`: --name VALUE, or a switch when
// `value` is false. `set` gets the value and throws ew::Error when it is wrong; the message
// and the usage are printed and the command exits with 2.
struct Flag {
  std::string name;  // without the dashes
  bool value = true;
  std::function<void(const std::string&)> set;
  std::string help;
};
void parse_flags(int argc, char** argv, const std::vector<Flag>& flags, const char* cmd, const std::string& usage);

// `analyze`'s arguments, for every task, and the model they name (a preset or a file).
struct AnalyzeArgs {
  std::string task, preset, model_path, corpus = "build/corpus";
  int n = 1000;
  std::uint64_t seed = 1;
  double require = -1;        // exit 1 below this accuracy (masked-words: top-1; -1: no requirement)
  double require_top5 = -1;   // masked-words: exit 1 below this top-5 (-1: no requirement)
  bool beat_unigram = false;  // masked-words: exit 1 unless above the unigram baseline
  // What-if tables (core/session/sweep.h), printed as JSON: accuracy with these ablations, an
  // ablation sweep over every head and FFN block, a patching sweep of `text` from `patch_from`.
  std::vector<std::string> ablate;
  bool mean = false, ablate_sweep = false, patch_sweep = false;
  std::string text, patch_from;
  bool seeded = false;        // measure the same architecture with seeded weights instead (the
                              // control that shows a gate can fail)
};
ew::Model analysis_model(const AnalyzeArgs& a);
// Prints "accuracy X is below the required Y" and returns false when `got` < `required` (≥ 0).
bool meets(const char* what, double got, double required);

// masked.cpp: masked-words' measurements (top-1/top-5 beside the unigram baseline), after
// training and for `analyze`.
void report_masked(ew::Model& m, const ew::MaskedWordsTask& task, std::uint64_t seed, int n);
int masked_analyze(const AnalyzeArgs& a);
