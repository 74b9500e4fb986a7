// generate.cpp — greedy decoding: the loop, and the recorded run per round (generate.h).
#include "trace/forward.h"
#include "trace/generate.h"

#include <algorithm>

#include "model/error.h"

namespace ew {

std::vector<std::vector<int>> greedy_decode(int n, int max_len, const GreedyStep& step) {
  std::vector<std::vector<int>> out(n);
  std::vector<bool> done(n, false);
  std::vector<GreedyPick> next(n);
  for (int round = 0, left = n; round < max_len && left > 0; ++round) {
    step(round, out, done, next);
    for (int e = 0; e < n; ++e) {
      if (done[e]) continue;
      if (next[e].end) {
        done[e] = true;
        --left;
      } else {
        out[e].push_back(next[e].token);
      }
    }
  }
  return out;
}

std::vector<GenRound> generate_greedy(Model& model, Trace& trace, int max_len) {
  if (model.config.decoder_layers == 0) throw Error("generation needs a decoder (config.decoder_layers > 0)");
  if (max_len < 1) throw Error("generation needs a limit of at least one token");
  std::vector<GenRound> rounds;
  std::string so_far;  // the decoder input after <s>, as text (the ids of a seeded model's vocabulary are the run's)
  model.target_given = true;
  greedy_decode(1, max_len, [&](int, const std::vector<std::vector<int>>&, const std::vector<bool>&,
                                std::vector<GreedyPick>& next) {
    model.target = so_far;
    run(model, trace);
    const Step& p = trace.at("probs");  // [S, V]
    const int V = p.shape[1];
    const float* last = p.data.data() + static_cast<std::size_t>(p.shape[0] - 1) * V;
    const int best = static_cast<int>(std::max_element(last, last + V) - last);
    rounds.push_back({so_far, trace.text.vocab.at(static_cast<std::size_t>(best)), last[best]});
    next[0] = {best, rounds.back().token == "</s>"};
    if (!next[0].end) so_far += (so_far.empty() ? "" : " ") + rounds.back().token;
  });
  return rounds;
}

std::vector<std::string> generated_tokens(const std::vector<GenRound>& rounds) {
  std::vector<std::string> out;
  for (const GenRound& r : rounds)
    if (r.token != "</s>") out.push_back(r.token);
  return out;
}

}  // namespace ew
