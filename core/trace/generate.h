// generate.h — greedy decoding for encoder–decoder models, shared by the CLI (--generate) and
// the wasm engine (the page's "Generate"): run the decoder on "<s>" + what it has produced so
// far, take the most probable token of the last position, append it, run again, until </s>
// or a limit. Each round is kept (its decoder input, the chosen token and its probability),
// so a reader can revisit any of them by running the model with that round's decoder input.
//
// Deliberately left out: sampling, beam search (greedy is what the seeds describe).
#pragma once
#include <string>
#include <vector>

#include "model/model.h"
#include "trace/trace.h"

namespace ew {

struct GenRound {
  std::string decoder_input;  // the tokens after <s> the decoder read this round (space-separated)
  std::string token;          // argmax of the last row of probs
  float prob = 0.0f;          // its probability
};

// Decodes at most max_len tokens; returns every round, the last one ending in </s> unless the
// limit stopped it. model.target is left as the last round's decoder input and `trace` as the
// last round's trace. Throws ew::Error when the model has no decoder.
std::vector<GenRound> generate_greedy(Model& model, Trace& trace, int max_len = 32);

// The generated tokens of those rounds (without </s>).
std::vector<std::string> generated_tokens(const std::vector<GenRound>& rounds);

}  // namespace ew
