// attention.h — multi-head scaled dot-product attention, recorded step by step:
// Q/K/V projections, then per head the raw scores Q_h K_hᵀ, scaling and mask, the softmax
// pieces and the weighted sum; then the concatenation and the output projection W_o.
// Serves the encoder's self-attention and the decoder's masked self- and cross-attention.
#pragma once
#include <string>

#include "trace/record.h"

namespace ew {

// One side of an attention block: the tensor its rows come from, its length, and whose
// tokens label those rows ("source" or "target").
struct AttnInput {
  Tensor x;  // B×T×d
  int T;
  const char* tokens;
};

struct AttentionArgs {
  AttnInput q;         // the stream the queries come from
  AttnInput kv;        // keys and values (the same stream for self-attention)
  Tensor mask;         // B×Tq×Tk additive mask (0 or -inf)
  std::string what;    // for titles: "self-attention", "masked self-attention", ...
  Tensor rope = {};    // rotary angles (ops.h) for q and k; id "": no rotation
};

// The modern decoders' attention (Arch) adds: q/k biases or none, an RMSNorm over each head's q
// and k (q_norm, k_norm), the rotation of q and k (q_rot, k_rot), and grouped-query heads: K
// and V have KV heads of hd columns, and query head h reads K/V head attn_geom(m).kv_head(h).
// Records the block's steps at r.place (its block set by the caller: their ids and the
// parameters' are made from it, "layer0." or "decoder1.cross."); returns the B×Tq×d output of
// W_o (role "attn_out").
Tensor rec_attention(Rec r, const AttentionArgs& a);

}  // namespace ew
