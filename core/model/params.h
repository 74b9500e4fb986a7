// params.h — the parameter inventory of a model: which parameters a configuration
// needs, with their ids and shapes, and the defaults for those a model file leaves out
// (seeded-random weights, zero biases, γ = 1, β = 0). Also packs every matmul weight once.
#pragma once
#include <string>
#include <vector>

#include "model/model.h"

namespace ew {

// Ensures every parameter the configuration needs exists with the right shape, in
// canonical order: user-supplied ones are checked (ew::Error naming the id, expected and
// actual shape), missing ones are created. `vocab_size` and `positions` size the
// embedding and position tables. Matmul weights are packed for the SIMD kernels.
// A tensor's shape as messages print it: "[4, 8]".
std::string shape_str(const std::vector<std::size_t>& shape);

void ensure_params(Model& model, int vocab_size, int positions);

// A cache for interactive use: moves into `next` (parsed, not yet run) those seeded
// parameters of `prev` (already run) that `next` would draw identically — same seed, same
// id and shape, and neither model supplies weights of its own. Tables (embedding, position)
// are left out: their rows depend on the text. Changes no number; it only skips drawing and
// packing again when only the sentence changed (≈24 ms at d_model 512 in wasm).
void reuse_seeded_params(Model& next, Model& prev);

// The seeded row of the embedding table for `token` (d values in [-1, 1)).
void seeded_embedding_row(float* out /*d*/, std::uint64_t seed, const std::string& token, int d);

// Helpers shared by the forward pass.

// Y (rows × out, row stride ldy) = X (rows × in) · W + bias, then `act`; with y_act, Y keeps the
// pre-activation and y_act gets act(Y). W (in × out) packed when the model packs its weights,
// else read in place: the same numbers either way.
void param_matmul(float* y, int ldy, const float* x, const Param& W, const float* bias, int rows, Activation act,
                  float* y_act = nullptr);

// S (rows × n, row stride lds) = X (rows × d, row stride ldx) · E[first … first+n)ᵀ: scores against
// the rows of a table E (V × d), e.g. logits against a tied token table; 16-bit tables are read as
// they are (kernels.h, ew_h16_scores: the same numbers as on the widened table).
void param_scores(float* s, int lds, const float* x, int ldx, const Param& E, int rows, int first, int n);

}  // namespace ew
