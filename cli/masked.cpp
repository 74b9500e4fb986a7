// masked.cpp — the CLI's masked-words measurements (core/train/masked_words.h): held-out
// top-1/top-5 beside the unigram baseline after `train --task masked-words` and for `analyze
// --task masked-words`. Training itself, and both commands' flags, are train.cpp's; the fills
// of each [MASK] after a walkthrough come from the session (core/session/answers.h, print.cpp).
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "model/error.h"
#include "train/masked_words.h"

namespace {

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


void report_masked(ew::Model& m, const ew::MaskedWordsTask& task, std::uint64_t seed, int n) {
  std::cout << "vocabulary: " << m.vocab.size() << " tokens (" << m.merges.size() << " merges)" << std::endl;
  if (n > 0) print_score(ew::score_masked(m, task, seed, n, progress(n)));  // --eval 0: none
}

int masked_analyze(const AnalyzeArgs& a) {
  try {
    ew::Model m = analysis_model(a);
    const ew::MaskedWordsTask task(ew::read_masked_corpus(a.corpus), m);
    const std::uint64_t n = std::min<std::uint64_t>(static_cast<std::uint64_t>(a.n), task.task().held_out_size);
    std::cout << "analyze masked-words: " << (a.model_path.empty() ? "preset " + a.preset : a.model_path) << ", " << n
              << " held-out sentences (seed " << a.seed << ")" << std::endl;
    const ew::MaskedScore s = ew::score_masked(m, task, a.seed, a.n, progress(a.n));
    print_score(s);
    if (a.beat_unigram && !(s.top1 > s.unigram_top1 && s.top5 > s.unigram_top5)) {
      std::cerr << "encoder-walkthrough analyze: the model does not beat the unigram baseline\n";
      return 1;
    }
    const bool top1 = meets("top-1", s.top1, a.require), top5 = meets("top-5", s.top5, a.require_top5);
    if (!top1 || !top5) return 1;
  } catch (const std::exception& e) {
    std::cerr << "encoder-walkthrough analyze: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
