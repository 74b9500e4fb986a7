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

std::vector<GenRound> generate_causal(Model& model, Trace& trace, int max_len, std::vector<int>* ids) {
  if (!model.arch.lm_head || !model.tokens) throw Error("generation needs a language-model head (GPT2LMHeadModel) and tokens");
  if (max_len < 1) throw Error("generation needs a limit of at least one token");
  std::vector<GenRound> rounds;
  std::vector<int> picked;
  GivenTokens& g = *model.tokens;
  struct WholeAfter {  // whatever happens, later runs of this model score every position
    Model& m;
    ~WholeAfter() { m.head_last_row_only = false; }
  } whole_after{model};
  for (int round = 0; round < max_len; ++round) {
    // Only the last round's trace is kept: the rounds before it score the last position alone
    // (the same numbers there, bit for bit); a round that ends early on <|endoftext|> runs again whole.
    const bool final_round = round + 1 == max_len || static_cast<int>(g.ids.size()) >= model.config.max_tokens;
    model.head_last_row_only = !final_round;
    run(model, trace);
    const Step& p = trace.at("probs");  // [T, V]
    const int V = p.shape[1];
    const float* last = p.data.data() + static_cast<std::size_t>(p.shape[0] - 1) * V;
    const int best = static_cast<int>(std::max_element(last, last + V) - last);
    std::string input;
    for (const auto& piece : g.pieces) input += (input.empty() ? "" : " ") + piece;
    rounds.push_back({input, model.vocab.at(static_cast<std::size_t>(best)), last[best]});
    if (best == model.arch.eos_id) {
      if (!final_round) {
        model.head_last_row_only = false;
        run(model, trace);
      }
      break;
    }
    picked.push_back(best);
    // The last round's input stays (its trace is the one kept); so does a full position table.
    if (final_round) break;
    g.ids.push_back(best);
    g.pieces.push_back(rounds.back().token);
    if (!g.type_ids.empty()) g.type_ids.push_back(g.type_ids.back());
  }
  if (ids) *ids = picked;
  return rounds;
}

std::vector<std::string> generated_tokens(const std::vector<GenRound>& rounds) {
  std::vector<std::string> out;
  for (const GenRound& r : rounds)
    if (r.token != "</s>" && r.token != "<|endoftext|>") out.push_back(r.token);
  return out;
}

}  // namespace ew
