// generate.cpp — greedy decoding: the loop, and the recorded run per round (generate.h).
#include "trace/forward.h"
#include "trace/generate.h"

#include <algorithm>
#include <cmath>
#include <chrono>
#include <optional>
#include <tuple>

#include "trace/kv_cache.h"
#include "trace/record.h"

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

std::vector<GenRound> generate_greedy(Model& model, Trace& trace, int max_len, const GenCallback& on_round) {
  if (model.config.decoder_layers == 0) throw Error("generation needs a decoder (config.decoder_layers > 0)");
  if (max_len < 1) throw Error("generation needs a limit of at least one token");
  std::vector<GenRound> rounds;
  std::string so_far;  // the decoder input after <s>, as text (the ids of a seeded model's vocabulary are the run's)
  model.target_given = true;
  greedy_decode(1, max_len, [&](int round, const std::vector<std::vector<int>>&, const std::vector<bool>&,
                                std::vector<GreedyPick>& next) {
    const auto t0 = std::chrono::steady_clock::now();
    model.target = so_far;
    run(model, trace);
    const Step& p = trace.at("probs");  // [S, V]
    const int V = p.shape[1];
    const float* last = p.data.data() + static_cast<std::size_t>(p.shape[0] - 1) * V;
    const int best = static_cast<int>(std::max_element(last, last + V) - last);
    rounds.push_back({so_far, trace.text.vocab.at(static_cast<std::size_t>(best)), last[best]});
    next[0] = {best, rounds.back().token == "</s>"};
    if (on_round)  // GenProgress's fields in order (generate.h): round, limit, id, pick, ms, phase, last, end
      on_round({round, max_len, best, &rounds.back(),
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(), "full",
                next[0].end || round + 1 == max_len, next[0].end});
    if (!next[0].end) so_far += (so_far.empty() ? "" : " ") + rounds.back().token;
  });
  return rounds;
}

namespace {

// The most probable token of a row of logits and its probability (the softmax's, in double).
std::pair<int, float> best_of(const std::vector<float>& z) {
  const int best = static_cast<int>(std::max_element(z.begin(), z.end()) - z.begin());
  double sum = 0;
  for (float v : z) sum += std::exp(static_cast<double>(v) - z[static_cast<std::size_t>(best)]);
  return {best, static_cast<float>(1.0 / sum)};
}

// The cache as the last round's trace shows it: per layer, "K cache" and "V cache" [T, KV·hd]
// — rows 0 … T−2 as the cache held them (the prompt's run, then one row per decoded token) and
// row T−1 from this run — recorded after the run, at the layer's attention.
void rec_cache(Trace& t, const Model& m, const KvCache& c, int prompt) {
  const AttnGeom g = attn_geom(m);
  for (int i = 0; i < m.config.num_layers; ++i) {
    const std::string p = "layer" + std::to_string(i) + ".";
    for (const char* kv : {"k", "v"}) {
      const bool key = kv[0] == 'k';
      const std::string src = key && t.find(p + "k_rot") ? p + "k_rot" : p + kv;
      const Step& s = t.at(src);
      const int T = s.shape[s.shape.size() - 2];
      const std::vector<float> rows = key ? c.k[static_cast<std::size_t>(i)] : c.v[static_cast<std::size_t>(i)];
      const std::vector<float> last(s.data.end() - g.dkv(), s.data.end());
      const Place at{"encoder", i, "self_attention", -1};
      std::string note = "Rows 0–" + std::to_string(prompt - 1) + ": the prompt's run; ";
      if (prompt <= T - 2) note += "rows " + std::to_string(prompt) + "–" + std::to_string(T - 2) + ": one per generated token; ";
      note += "row " + std::to_string(T - 1) + ": new in this round. Each round computes one new row and reuses the rest.";
      Step& out = t.add(p + kv + "_cache", std::string(kv) + "_cache",
                        {dim(T, "token", "source"), dim(g.dkv(), "feature")}, at,
                        key ? "K cache: rows 0–" + std::to_string(T - 2) + " reused, row " + std::to_string(T - 1) + " new"
                            : "V cache: rows 0–" + std::to_string(T - 2) + " reused, row " + std::to_string(T - 1) + " new",
                        key ? "K_{\\text{cache}} = [K_{0..T-2} \\,;\\, k_{T-1}]" : "V_{\\text{cache}} = [V_{0..T-2} \\,;\\, v_{T-1}]",
                        "kv_cache", {src}, note);
      std::copy(rows.begin(), rows.begin() + std::min<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(rows.size()), static_cast<std::ptrdiff_t>(T - 1) * g.dkv()),
                out.data.begin());
      std::copy(last.begin(), last.end(), out.data.end() - g.dkv());
    }
  }
}

// The most probable token after the last position of a recorded run, and its probability.
std::pair<int, float> last_row_pick(const Trace& trace) {
  const Step& p = trace.at("probs");  // [T, V]
  const int V = p.shape[1];
  const float* last = p.data.data() + static_cast<std::size_t>(p.shape[0] - 1) * V;
  const int best = static_cast<int>(std::max_element(last, last + V) - last);
  return {best, last[best]};
}

}  // namespace

void take_recorded_pick(const Trace& trace, const std::vector<std::string>& vocab, bool end, GenRound& pick, int& best) {
  if (end) return;
  const auto [again, prob] = last_row_pick(trace);
  if (again != best) best = again, pick.token = vocab.at(static_cast<std::size_t>(again)), pick.prob = prob;
}

namespace {

// The last round, decoded through the cache, recorded whole for the walkthrough: the kept trace
// (with its cache steps). Its pick is the decoded one to 1e-6 of the logits' scale (test_kv_cache);
// should a near-tie still turn the other way, the round takes the recorded trace's pick, so the
// rounds and the trace the reader walks agree (an end token's round keeps its end).
void record_last(Model& model, Trace& trace, const KvCache& cache, int prompt, bool end, GenRound& pick, int& best,
                 GenTiming& timing) {
  const auto t1 = std::chrono::steady_clock::now();
  model.head_last_row_only = false;
  run(model, trace);
  if (cache.len == static_cast<int>(model.tokens->ids.size())) rec_cache(trace, model, cache, prompt);
  take_recorded_pick(trace, model.vocab, end, pick, best);
  timing.record_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count();
}

}  // namespace

std::vector<GenRound> generate_causal(Model& model, Trace& trace, int max_len, std::vector<int>* ids,
                                      GenTiming* timing, const GenCallback& on_round) {
  if (!model.arch.lm_head || !model.tokens) throw Error("generation needs a language-model head (GPT2LMHeadModel) and tokens");
  if (max_len < 1) throw Error("generation needs a limit of at least one token");
  std::vector<GenRound> rounds;
  std::vector<int> picked;
  GivenTokens& g = *model.tokens;
  struct WholeAfter {  // whatever happens, later runs of this model score every position
    Model& m;
    ~WholeAfter() { m.head_last_row_only = false; }
  } whole_after{model};
  // The prompt runs recorded (prefill); each later round decodes one row through the key/value
  // cache (kv_cache.h); after the last round, its input is recorded whole, with the cache as steps.
  // Interventions (the lab) need every round recorded: no cache then.
  const bool cached = !trace.interventions;
  const int prompt = static_cast<int>(g.ids.size());
  std::optional<KvCache> cache;
  std::vector<float> z;
  GenTiming own;  // the rounds are timed whether or not the caller asks (on_round reports each)
  if (!timing) timing = &own;
  const AttnGeom geom = attn_geom(model);
  using clock = std::chrono::steady_clock;
  const auto since = [](clock::time_point t0) { return std::chrono::duration<double, std::milli>(clock::now() - t0).count(); };
  for (int round = 0; round < max_len; ++round) {
    const bool final_round = round + 1 == max_len || static_cast<int>(g.ids.size()) >= model.config.max_tokens;
    const auto t0 = clock::now();
    int best;
    float prob;
    if (cache) {  // every round after the prompt's, the last one too: its token is streamed before the record
      decode_next(model, *cache, g.ids.back(), z);
      std::tie(best, prob) = best_of(z);
    } else {
      model.head_last_row_only = !final_round;
      run(model, trace);
      std::tie(best, prob) = last_row_pick(trace);
      if (cached && !final_round) cache = cache_from_trace(model, trace);
    }
    const double ms = since(t0);
    const bool decoded = round > 0 && cache;
    (round == 0 ? timing->prefill_ms : decoded ? timing->decode_ms : timing->record_ms) += ms;
    timing->decode_rounds += decoded;
    std::string input;
    for (const auto& piece : g.pieces) input += (input.empty() ? "" : " ") + piece;
    rounds.push_back({input, model.vocab.at(static_cast<std::size_t>(best)), prob});
    const bool end = best == model.arch.eos_id;
    if (on_round)  // the same fields, then the prompt and the cache: rows 0 … prompt+round−1 have their K and V
      on_round({round, max_len, best, &rounds.back(), ms, round == 0 ? "prefill" : decoded ? "decode" : "full",
                end || final_round, end, prompt, cache ? prompt + round : 0, model.config.num_layers, geom.KV, geom.hd,
                geom.H});
    if (end || final_round) {
      // The kept trace is this round's input, recorded whole, with the cache it read (after the
      // round was reported: the reader sees the last token before the walkthrough's record).
      if (decoded) record_last(model, trace, *cache, prompt, end, rounds.back(), best, *timing);
      if (!end) picked.push_back(best);  // the last round's input stays (its trace is the one kept)
      break;
    }
    picked.push_back(best);
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
