// record.h — small building blocks of the forward pass that compute one operation with
// the kernels AND record it as a trace step: linear layers, element-wise adds, LayerNorm
// with its statistics, activations, copies, softmax. The layer files compose these; they
// never compute a value without recording it, and never record a value they did not use.
//
// Inputs and results are Tensors — a step's (or parameter's) id together with its values —
// so an input can never be recorded under another step's id. Each step gets its axes from
// the Dims it is recorded with and its place from the Rec it is recorded through.
//
// Data pointers stay valid for the rest of the run (a Step's buffer is never reallocated
// while the run is under way); references to Step objects do not, so none are kept.
#pragma once
#include <string>
#include <vector>

#include "model/model.h"
#include "model/naming.h"
#include "trace/trace.h"

namespace ew {

// A named tensor of this run: a trace step's or a parameter's id and its row-major values.
struct Tensor {
  std::string id;
  const float* data = nullptr;
};

// The recorder's context: where steps go, the model they come from, the batch size of the
// tensors being recorded, whose tokens label this stream's token axis ("source" or
// "target"), and the place in the architecture of the steps being recorded.
struct Rec {
  Trace& trace;
  const Model& model;
  int B;
  const char* tokens = "source";
  Place place;

  // The same context for another block (layer and section unchanged) or head.
  Rec in(const char* block, int head = -1) const;
};

// ---- dimensions with their axes --------------------------------------------------------
Dim dim(int size, const char* name, const char* labels = "");
// [batch,] token, <last>: a per-token tensor of this stream ([T, n] or [B, T, n]).
Dims per_token(const Rec& r, int T, Dim last);
// [batch,] token: a per-token scalar.
Dims per_token(const Rec& r, int T);
// The dims of a row statistic (mean, variance, max, sum) of a tensor: all but the last;
// a single row keeps one dimension of size 1 ("sequence").
Dims without_last(const Dims& dims);

// ---- compute and record ----------------------------------------------------------------
// Each records its step at r.place under the role its caller gives, with the id naming.h
// makes of them (step_id: "layer0." + "ffn_pre"); parameters are named within r.place ("W_1":
// the W_1 of that block, param_id), so the recorder binds them by place and name.

// Y = X · W + b over every row of `dims` (W: in×out packed parameter `W`). Kind "linear".
Tensor rec_linear(Rec r, const std::string& role, const Dims& dims, const std::string& title,
                  const std::string& formula, const Tensor& x, const std::string& W, const std::string& b,
                  const std::string& note = {});

// rec_linear then the activation, in one fused kernel pass: records `role` (the
// pre-activation X·W + b) and `act_role` (act of it); returns the activation.
Tensor rec_linear_act(Rec r, const std::string& role, const std::string& act_role, const Dims& dims,
                      const std::string& title, const std::string& formula, const Tensor& x,
                      const std::string& W, const std::string& b, Activation act, const std::string& note = {});

// Y = A + B element-wise (kind "add").
Tensor rec_add(Rec r, const std::string& role, const Dims& dims, const std::string& title,
               const std::string& formula, const Tensor& a, const Tensor& b, const std::string& note = {});

// A copy that names a result (kind "copy"): e.g. "layer0.output" of a pre-norm layer.
Tensor rec_copy(Rec r, const std::string& role, const Dims& dims, const std::string& title,
                const std::string& formula, const Tensor& x, const std::string& note = {});

// LayerNorm over the last dimension: records its statistics (roles "mean" and "var", ids
// grouped under `role`: "layer0.ln1.mean") and the result under `out_role` (or `role` when
// out_role is empty), with the parameters "gamma" and "beta" of `norm` (its place and name).
Tensor rec_layernorm(Rec r, const std::string& role, const std::string& out_role, const Dims& dims,
                     const std::string& title, const Tensor& x, const ParamKey& norm,
                     const std::string& note = {});

// Row softmax over the last dimension, with its pieces (roles "rowmax" and "rowsum", ids
// grouped under `role`: "cls.probs.rowmax").
Tensor rec_softmax(Rec r, const std::string& role, const Dims& dims, const std::string& title, const Tensor& x,
                   const std::string& note = {});

// ---- for the operation units (ops.h) ---------------------------------------------------------
std::size_t count(const Dims& dims);
int last(const Dims& dims);
int rows(const Dims& dims);
// A step of `role` at r.place (or grouped under `group`: a norm's or softmax's piece).
Step& add_step(Rec r, const std::string& role, const Dims& dims, const std::string& title, const std::string& formula,
               const std::string& kind, std::vector<std::string> inputs, const std::string& note = {},
               const std::string& group = {});
const Param& param(const Rec& r, const std::string& name);          // the block's parameter `name`
const Param* optional_param(const Rec& r, const std::string& name); // nullptr when the model has none
std::vector<std::string> linear_inputs(const Tensor& x, const Param& w, const Param* b);
bool touched(const Rec& r, const std::string& id);  // an intervention edits step `id` in this run

}  // namespace ew
