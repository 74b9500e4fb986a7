// layers.h — one encoder layer and one decoder layer, post-norm (seeds 000/001, the
// original Transformer) or pre-norm (seed 004), every sub-step recorded.
#pragma once
#include <string>

#include "trace/record.h"

namespace ew {

// x: B×T×d. Records layer{i}.* at place {encoder, i}; returns layer{i}.output.
Tensor rec_encoder_layer(Rec r, int i, const Tensor& x, int T, const Tensor& mask);

// y: 1×S×d decoder stream; enc: the 1×T×d encoder output of the first sentence. Records
// decoder{j}.* at place {decoder, j}; returns decoder{j}.output.
Tensor rec_decoder_layer(Rec r, int j, const Tensor& y, int S, const Tensor& enc, int T, const Tensor& self_mask,
                         const Tensor& cross_mask);

// A modern decoder's layer (Llama, Qwen, Gemma 3: Arch::rms_norm), pre-norm with RMSNorm:
// X + Attn(RMSNorm(X)), then + FFN(RMSNorm(·)) with the gated feed-forward network; Gemma 3 also
// normalises each sublayer's output before adding it (its post-attention and post-feed-forward
// norms). `rope`: the angles this layer rotates q and k by (Gemma 3: its local or global base).
Tensor rec_modern_layer(Rec r, int i, const Tensor& x, int T, const Tensor& mask, const Tensor& rope);

}  // namespace ew
