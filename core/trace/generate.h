// generate.h — greedy decoding for encoder–decoder models: run the decoder on "<s>" + what it
// has produced so far, take the most probable token of the last position, append it, run
// again, until </s> or a limit. The loop is written once (greedy_decode), whatever runs the
// decoder; generate_greedy runs it on the recorded forward pass for the CLI (--generate), the
// wasm engine (the page's "Generate") and training's held-out answers (train/analyze.h),
// and the batched training path runs it on whole minibatches (train/train_batched.h).
// generate_greedy keeps each round (its decoder input, the chosen token and its
// probability), so a reader can revisit any of them by running the model with that round's
// decoder input.
//
// Deliberately left out: sampling, beam search (greedy is what the seeds describe).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "model/model.h"
#include "trace/trace.h"

namespace ew {

// One sequence's choice in a round: its most probable next token, and whether that is </s>.
struct GreedyPick {
  int token = -1;
  bool end = false;
};

// Runs the decoder once for round r on <s> + so_far[e] of every sequence, and sets next[e]
// for each sequence that is not done (n = so_far.size()).
using GreedyStep = std::function<void(int round, const std::vector<std::vector<int>>& so_far,
                                      const std::vector<bool>& done, std::vector<GreedyPick>& next)>;

// Greedy decoding of n sequences at once: at most max_len rounds; a sequence is done once it
// picks </s> (not appended). Returns each sequence's tokens.
std::vector<std::vector<int>> greedy_decode(int n, int max_len, const GreedyStep& step);

struct GenRound {
  std::string decoder_input;  // the tokens after <s> the decoder read this round (space-separated)
  std::string token;          // argmax of the last row of probs
  float prob = 0.0f;          // its probability
};

// After the last round is recorded whole (its pick was decoded through the key/value cache): the
// recorded trace's pick replaces the decoded one if a near-tie turned the other way, so the rounds
// and the trace the reader walks agree — best, pick.token and pick.prob from the last row of
// "probs". An end token's round (end) keeps its end.
void take_recorded_pick(const Trace& trace, const std::vector<std::string>& vocab, bool end, GenRound& pick, int& best);

// A round as it ends, for a caller that shows generation as it happens (the page streams it
// token by token). The same numbers the returned rounds and GenTiming hold: `ms` is the time
// this round added to its GenTiming field. Nothing is recomputed for it.
struct GenProgress {
  int round = 0;                     // 0-based; round k chose the (k+1)-th token
  int max_len = 0;                   // the limit of rounds asked for
  int id = -1;                       // the chosen token's id
  const GenRound* pick = nullptr;    // its text, probability and the round's input
  double ms = 0;                     // this round's milliseconds
  const char* phase = "";            // "prefill" (the prompt's recorded run), "decode" (one row
                                     // through the cache; the last round too, reported before its
                                     // input is recorded whole), "full" (a recorded run of the whole
                                     // input, no cache)
  bool last = false;                 // generation ends with this round (the limit or the end token)
  bool end = false;                  // the chosen token is the end token (</s>, arch.eos_id): not appended
  int prompt = 0;                    // the prompt's tokens (0: an encoder–decoder's round)
  int cache_rows = 0;                // K/V rows computed once this round ends (positions 0 … prompt+round−1); 0: no cache
  int layers = 0, kv_heads = 0, head_dim = 0;  // the cache's geometry (attn_geom): per row, per layer, KV·hd numbers for K and as many for V
  int heads = 0;                     // the query heads (H ≥ kv_heads: grouped-query attention shares K/V heads)
};
using GenCallback = std::function<void(const GenProgress&)>;

// Decodes at most max_len tokens; returns every round, the last one ending in </s> unless the
// limit stopped it. model.target is left as the last round's decoder input and `trace` as the
// last round's trace. Throws ew::Error when the model has no decoder.
// `on_round` (when given) sees every round as it ends, in order (phase "full").
std::vector<GenRound> generate_greedy(Model& model, Trace& trace, int max_len = 32, const GenCallback& on_round = {});

// Greedy generation of a causal language model (model.arch.lm_head, GPT-2) from model.tokens:
// each round runs the model, takes the most probable token after the last position, and
// appends it, until arch.eos_id (<|endoftext|>, not appended), max_len rounds or max_tokens.
// model.tokens and `trace` are left as the last round's input and trace; `ids` (when given)
// receives the generated ids. Throws ew::Error when the model has no LM head or tokens.
// The prompt's round is a recorded run (prefill); each later round decodes one row through the
// key/value cache (kv_cache.h); after the last round is reported, its input is recorded whole,
// with the cache as steps "layer{i}.k_cache" / ".v_cache" (kind "kv_cache"). `timing` (when given)
// receives the prefill's, the decode rounds' and that record's milliseconds apart. `on_round`
// (when given) sees every round as it ends, in order, before the next one starts; it changes no result.
struct GenTiming {
  double prefill_ms = 0;  // the prompt's run (round 0)
  double decode_ms = 0;   // the rounds through the cache, one row each
  int decode_rounds = 0;
  double record_ms = 0;   // the last round's input recorded whole (the trace the reader sees),
                          // after the round; also the rounds after the prompt's when there is no
                          // cache (interventions)
};
std::vector<GenRound> generate_causal(Model& model, Trace& trace, int max_len, std::vector<int>* ids = nullptr,
                                      GenTiming* timing = nullptr, const GenCallback& on_round = {});

// The generated tokens of those rounds (without </s> or <|endoftext|>).
std::vector<std::string> generated_tokens(const std::vector<GenRound>& rounds);

}  // namespace ew
