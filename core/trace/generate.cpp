// generate.cpp — greedy decoding, one recorded run per round (generate.h).
#include "trace/forward.h"
#include "trace/generate.h"

#include <algorithm>

#include "model/error.h"

namespace ew {

std::vector<GenRound> generate_greedy(Model& model, Trace& trace, int max_len) {
  if (model.config.decoder_layers == 0) throw Error("generation needs a decoder (config.decoder_layers > 0)");
  if (max_len < 1) throw Error("generation needs a limit of at least one token");
  std::vector<GenRound> rounds;
  std::string so_far;
  model.target_given = true;
  for (int round = 0; round < max_len; ++round) {
    model.target = so_far;
    run(model, trace);
    const Step& p = trace.at("probs");  // [S, V]
    const int V = p.shape[1];
    const float* last = p.data.data() + static_cast<std::size_t>(p.shape[0] - 1) * V;
    const int best = static_cast<int>(std::max_element(last, last + V) - last);
    rounds.push_back({so_far, trace.text.vocab.at(static_cast<std::size_t>(best)), last[best]});
    if (rounds.back().token == "</s>") break;
    so_far += (so_far.empty() ? "" : " ") + rounds.back().token;
  }
  return rounds;
}

std::vector<std::string> generated_tokens(const std::vector<GenRound>& rounds) {
  std::vector<std::string> out;
  for (const GenRound& r : rounds)
    if (r.token != "</s>") out.push_back(r.token);
  return out;
}

}  // namespace ew
