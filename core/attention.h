// attention.h — multi-head scaled dot-product attention, recorded step by step:
// Q/K/V projections, then per head the raw scores Q_h K_hᵀ, scaling and mask, the softmax
// pieces and the weighted sum; then the concatenation and the output projection W_o.
// Serves the encoder's self-attention and the decoder's masked self- and cross-attention.
#pragma once
#include <string>

#include "record.h"

namespace ew {

struct AttentionArgs {
  std::string prefix;   // step and parameter prefix: "layer0.", "decoder1.cross."
  const float* xq;      // B×Tq×d: the stream the queries come from
  std::string xq_id;
  int Tq;
  const float* xkv;     // B×Tk×d: keys and values (== xq for self-attention)
  std::string xkv_id;
  int Tk;
  const float* mask;    // B×Tq×Tk additive mask (0 or -inf)
  std::string mask_id;
  std::string what;     // for titles: "self-attention", "masked self-attention", ...
};

// Returns the B×Tq×d output of W_o (step `<prefix>attn_out`).
const float* rec_attention(Rec r, const AttentionArgs& a);

}  // namespace ew
