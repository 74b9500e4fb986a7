// record.h — small building blocks of the forward pass that compute one operation with
// the kernels AND record it as a trace step: linear layers, element-wise adds, LayerNorm
// with its statistics, activations, copies. The layer files compose these; they never
// compute a value without recording it, and never record a value they did not use.
//
// Every function returns a pointer into the new step's buffer. Pointers stay valid for
// the rest of the run (a Step's buffer is never reallocated while the run is under way);
// references to Step objects do not, so none are kept.
#pragma once
#include <string>
#include <vector>

#include "model.h"
#include "trace.h"

namespace ew {

// Shape of a per-token tensor: [T, n] for one sentence, [B, T, n] for a batch.
std::vector<int> batch_shape(int B, int T, int n);
// Shape of a per-token scalar: [T] or [B, T].
std::vector<int> batch_shape(int B, int T);

struct Rec {
  Trace& trace;
  const Model& model;
  int B;  // batch size of the tensors being recorded
};

// Y (rows×out) = X (rows×in) · W + b, W a packed parameter. Records kind "linear".
float* rec_linear(Rec r, const std::string& id, std::vector<int> shape, const std::string& title,
                  const std::string& formula, const float* x, const std::string& x_id, int rows,
                  const std::string& W_id, const std::string& b_id, const std::string& note = {});

// Y = A + B element-wise (kind "add").
float* rec_add(Rec r, const std::string& id, std::vector<int> shape, const std::string& title,
               const std::string& formula, const float* a, const std::string& a_id, const float* b,
               const std::string& b_id, const std::string& note = {});

// A copy that names a result (kind "copy"): "output" is the last layer's output.
float* rec_copy(Rec r, const std::string& id, std::vector<int> shape, const std::string& title,
                const std::string& formula, const float* x, const std::string& x_id,
                const std::string& note = {});

// LayerNorm of `rows` rows of width d: records `<id>.mean`, `<id>.var` and `<id>` itself
// (or `out_id` when given, e.g. "layer0.output"). gamma/beta from parameters
// `<param>.gamma`, `<param>.beta`.
float* rec_layernorm(Rec r, const std::string& id, const std::string& out_id, std::vector<int> shape,
                     std::vector<int> stat_shape, const std::string& title, const float* x,
                     const std::string& x_id, int rows, int d, const std::string& param,
                     const std::string& note = {});

// ReLU or exact GELU, element-wise (kind "activation").
// rec_linear followed by rec_activation in one fused kernel pass: records `id` (the
// pre-activation X·W + b) and `act_id` (act of it); returns the activation's data.
float* rec_linear_act(Rec r, const std::string& id, const std::string& act_id, std::vector<int> shape,
                      const std::string& title, const std::string& formula, const float* x,
                      const std::string& x_id, int rows, const std::string& W_id, const std::string& b_id,
                      Activation act, const std::string& note = "");
float* rec_activation(Rec r, const std::string& id, std::vector<int> shape, const float* x,
                      const std::string& x_id, std::size_t n, Activation act);

// Row softmax of `rows` rows of width n with its pieces `<id>.rowmax`, `<id>.rowsum`.
float* rec_softmax(Rec r, const std::string& id, std::vector<int> shape, std::vector<int> stat_shape,
                   const std::string& title, const float* x, const std::string& x_id, int rows, int n,
                   const std::string& note = {});

}  // namespace ew
