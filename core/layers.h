// layers.h — one encoder layer and one decoder layer, post-norm (seeds 000/001, the
// original Transformer) or pre-norm (seed 004), every sub-step recorded.
#pragma once
#include <string>

#include "record.h"

namespace ew {

// x: B×T×d (step x_id). Returns layer{i}.output.
const float* rec_encoder_layer(Rec r, int i, const float* x, const std::string& x_id, int T,
                               const float* mask, const std::string& mask_id);

// y: 1×S×d decoder stream (step y_id); enc: 1×T×d encoder output of the first sentence.
// Returns decoder{j}.output.
const float* rec_decoder_layer(Rec r, int j, const float* y, const std::string& y_id, int S,
                               const float* enc, const std::string& enc_id, int T,
                               const float* self_mask, const float* cross_mask);

}  // namespace ew
