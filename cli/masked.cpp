// masked.cpp — the CLI's masked-words commands (core/train/masked_words.h): `train --task
// masked-words` (learn the BPE vocabulary, train, report held-out top-1/top-5 beside the
// unigram baseline, write the model) and `analyze --task masked-words` (the fills of each
// [MASK] after a walkthrough come from the session: core/session/answers.h, print.cpp).
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "io/model_file.h"
#include "io/presets.h"
#include "io/safetensors.h"
#include "model/error.h"
#include "train/masked_words.h"

namespace {

const char* kMaskedUsage =
    "usage: encoder-walkthrough train --task masked-words [--corpus DIR] [--merges N] [--steps N] [--batch B]\n"
    "         [--lr X] [--seed S] [--d_model D] [--num_heads H] [--d_ff F] [--num_layers L] [--warmup N]\n"
    "         [--eval N] [--out FILE.safetensors [--float16]]\n"
    "       encoder-walkthrough analyze --task masked-words (--preset NAME | --model FILE) [--corpus DIR] [--n N] [--seed S]\n"
    "         [--beat-unigram]   (exit 1 unless top-1 and top-5 are both above the unigram baseline's)\n"
    "Masked-word prediction on DIR/sotu-train.txt (default build/corpus; node scripts/extract-corpus.mjs\n"
    "writes it): learns N BPE merges (default 2000) on the training sentences, trains an encoder with\n"
    "the masked-word head, and reports top-1/top-5 on the masks of N held-out sentences beside a\n"
    "unigram baseline (always the most frequent training words).\n";

[[noreturn]] void usage_error(const std::string& what) {
  std::cerr << "encoder-walkthrough: " << what << "\n" << kMaskedUsage;
  std::exit(2);
}

int whole(const std::string& flag, const std::string& v, int lo, int hi) {
  char* end = nullptr;
  const long x = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || !end || *end || x < lo || x > hi)
    usage_error(flag + " must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got \"" + v + "\"");
  return static_cast<int>(x);
}

std::string pct(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f%%", 100.0 * x);
  return b;
}

void print_score(const ew::MaskedScore& s) {
  std::cout << "held-out masked words: " << s.masks << "; model top-1 " << pct(s.top1) << ", top-5 " << pct(s.top5)
            << "; unigram baseline top-1 " << pct(s.unigram_top1) << ", top-5 " << pct(s.unigram_top5) << std::endl;
}

std::function<void(int)> progress(int n) {
  return [n](int done) {
    if (isatty(2) && (done % 50 == 0 || done == n)) std::cerr << "\r  held-out sentence " << done << "/" << n << std::flush;
    if (isatty(2) && done == n) std::cerr << "\n";
  };
}

}  // namespace

int masked_train_main(int argc, char** argv) {
  ew::MaskedOptions o;
  int eval_n = 500;
  std::string out;
  bool half = false;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") return std::cout << kMaskedUsage, 0;
    if (a == "--float16") { half = true; continue; }
    if (i + 1 >= argc) usage_error(a + " needs a value");
    const std::string v = argv[++i];
    if (a == "--task") continue;
    else if (a == "--corpus") o.corpus_dir = v;
    else if (a == "--merges") o.merges = whole(a, v, 0, 10000);
    else if (a == "--steps") o.steps = whole(a, v, 1, 10000000);
    else if (a == "--batch") o.batch = whole(a, v, 1, 4096);
    else if (a == "--lr") o.lr = std::strtod(v.c_str(), nullptr);
    else if (a == "--seed") o.seed = static_cast<std::uint64_t>(whole(a, v, 0, 2000000000));
    else if (a == "--d_model") o.d_model = whole(a, v, 1, 4096);
    else if (a == "--num_heads") o.num_heads = whole(a, v, 1, 64);
    else if (a == "--d_ff") o.d_ff = whole(a, v, 1, 16384);
    else if (a == "--num_layers") o.num_layers = whole(a, v, 0, 48);
    else if (a == "--warmup") o.warmup = whole(a, v, 0, 10000000);
    else if (a == "--eval") eval_n = whole(a, v, 1, 100000);
    else if (a == "--out") out = v;
    else usage_error("unknown option \"" + a + "\"");
  }
  if (!(o.lr > 0 && o.lr <= 1)) usage_error("--lr must be greater than 0 and at most 1");
  if (!out.empty() && (out.size() < 12 || out.compare(out.size() - 12, 12, ".safetensors") != 0))
    usage_error("--out must name a .safetensors file");
  try {
    const ew::MaskedCorpus corpus = ew::read_masked_corpus(o.corpus_dir);
    std::cout << "training masked-words: " << corpus.train.size() << " training sentences, " << o.merges
              << " BPE merges; d_model " << o.d_model << ", " << o.num_heads << " heads, d_ff " << o.d_ff << ", "
              << o.num_layers << " layer(s); " << o.steps << " steps of " << o.batch << ", lr " << o.lr << ", seed "
              << o.seed << std::endl;
    const auto t0 = std::chrono::steady_clock::now();
    double avg = 0;
    ew::Model m = ew::train_masked_words(o, corpus, [&](int step, double loss) {
      avg = step == 1 ? loss : 0.98 * avg + 0.02 * loss;
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (step % 50 == 0 || step == o.steps)
        std::cout << "  step " << step << "/" << o.steps << "  loss (running mean) " << avg << "  " << secs << " s" << std::endl;
    });
    std::cout << "vocabulary: " << m.vocab.size() << " tokens (" << m.merges.size() << " merges)" << std::endl;
    print_score(ew::score_masked(m, corpus, o.seed, eval_n, progress(eval_n)));
    if (!out.empty()) {
      const auto bytes = ew::write_safetensors(ew::model_to_safetensors(m), half ? ew::DiskType::F16 : ew::DiskType::F32);
      std::ofstream f(out, std::ios::binary);
      f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
      if (!f) throw ew::Error("cannot write \"" + out + "\"");
      std::cout << "wrote " << out << " (" << bytes.size() << " bytes)\n";
    }
  } catch (const std::exception& e) {
    std::cerr << "encoder-walkthrough train: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

int masked_analyze_main(int argc, char** argv) {
  std::string preset, path, dir = "build/corpus";
  int n = 1000;
  std::uint64_t seed = 1;
  bool beat = false;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") return std::cout << kMaskedUsage, 0;
    if (a == "--beat-unigram") { beat = true; continue; }
    if (i + 1 >= argc) usage_error(a + " needs a value");
    const std::string v = argv[++i];
    if (a == "--task") continue;
    else if (a == "--preset") preset = v;
    else if (a == "--model") path = v;
    else if (a == "--corpus") dir = v;
    else if (a == "--n") n = whole(a, v, 1, 100000);
    else if (a == "--seed") seed = static_cast<std::uint64_t>(whole(a, v, 0, 2000000000));
    else usage_error("unknown option \"" + a + "\"");
  }
  if (preset.empty() == path.empty()) usage_error("give one of --preset or --model");
  try {
    ew::Model m;
    if (!path.empty()) {
      m = ew::model_from_file(path);
    } else {
      const ew::Preset* p = ew::find_preset(preset);
      if (!p) throw ew::Error("unknown preset \"" + preset + "\" (see --list-presets)");
      m = ew::model_from_string(p->model_json);
    }
    const ew::MaskedCorpus corpus = ew::read_masked_corpus(dir);
    std::cout << "analyze masked-words: " << (path.empty() ? "preset " + preset : path) << ", " << n
              << " held-out sentences (seed " << seed << ")" << std::endl;
    const ew::MaskedScore s = ew::score_masked(m, corpus, seed, n, progress(n));
    print_score(s);
    if (beat && !(s.top1 > s.unigram_top1 && s.top5 > s.unigram_top5)) {
      std::cerr << "encoder-walkthrough analyze: the model does not beat the unigram baseline\n";
      return 1;
    }
  } catch (const std::exception& e) {
    std::cerr << "encoder-walkthrough analyze: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
