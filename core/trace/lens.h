// lens.h — the logit lens (issue 20, item 2; docs/trace.md, "Logit lens"), recorded as more
// steps of the trace: each layer's output through the final LayerNorm (pre-norm models, with
// the final LayerNorm's own γ/β; post-norm layers already end normalised) and the head — the
// classifier on the first token, the masked-word head or the decoder's tied projection — as
// lens.<layer>.logits and lens.<layer>.probs (trace/attribution.h splits the predicted logit
// itself into parts). Layers are found by the trace's roles and places, never by ids.
#pragma once
#include <string>

#include "model/model.h"
#include "trace/trace.h"

namespace ew {

// Appends the lens steps of every layer whose stack has a head: encoder layers when the model
// has a classifier or a masked-word head (the classifier when it has both) or a causal LM's
// head (GPT-2), decoder layers when it has a decoder. A checkpoint's head is applied whole
// (BERT's pooler, the masked-LM transform and its bias), so the last layer's lens is the
// model's own output. Throws ew::Error when no layer has one.
void rec_lens(Trace& trace, const Model& model);

}  // namespace ew
