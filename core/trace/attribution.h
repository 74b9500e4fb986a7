// attribution.h — exact direct logit attribution for pre-norm models (issue 20, item 2;
// docs/trace.md, "Logit attribution"): the predicted logit split into the stream's input,
// every head of every attention block, every feed-forward block and every output bias, with
// the final LayerNorm's 1/σ frozen (attr.scale) and its centring applied inside each part, so
// the parts (attr.parts) sum to the logit. Parts are found by the trace's roles and places,
// and named by model/naming.h (a head "layer0.head1", a block "layer0.ffn", a bias its
// parameter's id), never by taking ids apart.
// The modern decoders (Llama, Qwen, Gemma 3: docs/decoders.md) end in an RMSNorm: no mean, no β,
// Gemma's (1 + γ); each part goes through it with its 1/rms frozen at the run's value (attr.scale),
// and then the parts are exact. A query head's part is its context through its own rows of W_o
// (grouped-query attention shares K/V, not W_o's rows); with Gemma's sandwich norms a block's
// part is its post-norm's output ("layer0.attn", "layer0.ffn"), and the embedding part is the
// scaled embedding (the "input" step).
#pragma once
#include <nlohmann/json.hpp>

#include "model/model.h"
#include "trace/trace.h"

namespace ew {

// Appends attr.parts and attr.scale for the predicted token of the decoder's last position (a
// decoder), else the predicted label of the first sentence (a classifier), else the first
// [MASK]'s most probable token; the part names go to trace.text.attr_parts. Returns
// {"target", "position", "logit", "sum"}: what is attributed, the model's own logit and the
// parts' sum, "norm" ("layernorm" | "rmsnorm") and "frozen" (the 1/σ or 1/rms used). Throws
// ew::Error for a post-norm model (saying why), a model without a head, and a run whose stream
// or logit an intervention made other than the sum of the parts (a patched layer output): the
// parts must sum to the stream and to the logit within 1e-4 of their scale, else no number.
nlohmann::json rec_attribution(Trace& trace, const Model& model);

}  // namespace ew
