// attribution.h — exact direct logit attribution for pre-norm models (issue 20, item 2;
// docs/trace.md, "Logit attribution"): the predicted logit split into the stream's input,
// every head of every attention block, every feed-forward block and every output bias, with
// the final LayerNorm's 1/σ frozen (attr.scale) and its centring applied inside each part, so
// the parts (attr.parts) sum to the logit. Parts are found by the trace's roles and places,
// and named by model/naming.h (a head "layer0.head1", a block "layer0.ffn", a bias its
// parameter's id), never by taking ids apart.
#pragma once
#include <nlohmann/json.hpp>

#include "model/model.h"
#include "trace/trace.h"

namespace ew {

// Appends attr.parts and attr.scale for the predicted token of the decoder's last position (a
// decoder), else the predicted label of the first sentence (a classifier), else the first
// [MASK]'s most probable token; the part names go to trace.text.attr_parts. Returns
// {"target", "position", "logit", "sum"}: what is attributed, the model's own logit and the
// parts' sum. Throws ew::Error for a post-norm model (saying why) and a model without a head.
nlohmann::json rec_attribution(Trace& trace, const Model& model);

}  // namespace ew
