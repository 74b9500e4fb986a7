// naming.h — the one place where ids are made from structure (docs/trace.md). A parameter is
// known by its place and its name — "W_k" of {decoder, layer 0, cross_attention} — and a step
// by its place and its role — "weights" of {encoder, layer 1, self_attention, head 0}; their
// ids ("decoder0.cross.W_k", "layer1.head0.weights") are made here and nowhere else, and
// nothing takes an id apart again: readers get the place, name and role as fields.
//
// Deliberately left out: ids of the steps outside the layers and heads ("embedding",
// "decoder_input", "logits") are names, not compositions, and are written where they are
// recorded; a gradient step's id is "grad." + the id of the tensor it is the gradient of.
#pragma once
#include <string>

#include "model/place.h"

namespace ew {

// What identifies a parameter: its place (head −1), the LayerNorm it belongs to ("ln2",
// "embedding_ln", "final_ln", "decoder_final_ln"; "" for any other parameter) and its name
// within them ("W_q", "b_1", "gamma", "W", "embedding_table", …).
struct ParamKey {
  Place place;
  std::string norm;
  std::string name;
};

// The prefix every id inside `place` starts with: "layer1." (an encoder layer), "decoder0."
// (a decoder layer's add & norm and feed-forward), "decoder0.self." / "decoder0.cross." (its
// attention blocks), "cls." (the classifier), "mlm." (the masked-word head), then "head2." for
// a per-head place; "" elsewhere. The logit lens of a layer (block "lens") is "lens." + the
// layer's prefix ("lens.layer1."), a logit attribution (block "attribution") "attr.".
std::string block_prefix(const Place& place);

// The id of a step of `role` at `place` ("layer1.head0." + "weights"); with a `group` (the
// LayerNorm or softmax whose piece the step is) "layer1." + "ln2" + "." + "mean".
std::string step_id(const Place& place, const std::string& role, const std::string& group = "");

// The id of a parameter: "decoder0.cross.W_k", "layer1.ln2.gamma", "cls.b", "embedding_table".
std::string param_id(const ParamKey& key);

}  // namespace ew
