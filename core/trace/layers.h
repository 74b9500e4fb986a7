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

}  // namespace ew
