// answers.h — what a run answers besides its trace, read from the trace the run recorded and
// written as JSON the CLI prints and the page shows: a classifier's prediction, a masked-word
// head's fills, the rounds of greedy generation, the tokens a trained vocabulary lacks. One function each, used by the session for
// every caller (the CLI and the wasm Engine once kept a copy each).
#pragma once
#include <vector>

#include <nlohmann/json.hpp>

#include "model/model.h"
#include "trace/generate.h"
#include "trace/trace.h"

namespace ew {

// A classifier's answer for the first sentence: {"label", "labels", "probs"} from cls.probs
// (labels without names are "label 0", "label 1", ...).
nlohmann::json prediction_json(const Model& model, const Trace& trace);

// The top 5 fills of each [MASK], in order: [[{"token", "p"}, ...], ...] from mlm.probs.
nlohmann::json fills_json(const Trace& trace);

// The tokens of the sentence(s) outside a trained vocabulary (one with <unk> or [UNK]), each
// once in order of appearance, and the token they are read as: {"tokens", "as", "vocab_size"}
// (the page's note under the sentence says the same, web/js/page/provenance.js); null when
// every token is known or the vocabulary has no unknown token (built from the text).
nlohmann::json unknown_json(const Trace& trace);

// Each round of a generation: [{"decoder_input", "token", "prob"}, ...].
nlohmann::json rounds_json(const std::vector<GenRound>& rounds);

}  // namespace ew
