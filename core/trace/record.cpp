// record.cpp — compute-and-record building blocks (see record.h).
#include "trace/record.h"

#include <algorithm>
#include <cmath>

#include "model/params.h"
#include "trace/intervene.h"

namespace ew {

Rec Rec::in(const char* block, int head) const {
  Rec r = *this;
  r.place.block = block;
  r.place.head = head;
  return r;
}

Dim dim(int size, const char* name, const char* labels) { return Dim{size, Axis{name, labels}}; }

Dims per_token(const Rec& r, int T) {
  Dims d;
  if (r.B > 1) d.push_back(dim(r.B, "batch", "batch"));
  d.push_back(dim(T, "token", r.tokens));
  return d;
}

Dims per_token(const Rec& r, int T, Dim last) {
  Dims d = per_token(r, T);
  d.push_back(std::move(last));
  return d;
}

Dims without_last(const Dims& dims) {
  if (dims.size() <= 1) return {dim(1, "sequence")};
  return Dims(dims.begin(), dims.end() - 1);
}

// ---- shared with the operation units (record.h) ----------------------------------------

std::size_t count(const Dims& dims) {
  std::size_t n = 1;
  for (const Dim& d : dims) n *= static_cast<std::size_t>(d.size);
  return n;
}
int last(const Dims& dims) { return dims.back().size; }
int rows(const Dims& dims) { return static_cast<int>(count(dims) / static_cast<std::size_t>(last(dims))); }

// A step of `role` at r.place (or grouped under `group`: a LayerNorm's or softmax's piece).
Step& add_step(Rec r, const std::string& role, const Dims& dims, const std::string& title, const std::string& formula,
               const std::string& kind, std::vector<std::string> inputs, const std::string& note,
               const std::string& group) {
  return r.trace.add(step_id(r.place, role, group), role, dims, r.place, title, formula, kind, std::move(inputs), note);
}

// The parameter `name` of the block at r.place.
const Param& param(const Rec& r, const std::string& name) { return r.model.at(param_id({r.place, "", name})); }

// A bias the architecture may leave out (Llama without attention_bias): nullptr when absent.
const Param* optional_param(const Rec& r, const std::string& name) {
  return r.model.find(param_id({r.place, "", name}));
}

// A linear step's inputs: X, W and (when there is one) b, in that order (backward.cpp's rule).
std::vector<std::string> linear_inputs(const Tensor& x, const Param& w, const Param* b) {
  std::vector<std::string> in{x.id, w.id};
  if (b) in.push_back(b->id);
  return in;
}

// An intervention edits step `id` in this run (trace/intervene.h).
bool touched(const Rec& r, const std::string& id) {
  return r.trace.interventions && r.trace.interventions->touches(id);
}

namespace {

Step& add_activation_step(Rec r, const std::string& role, const Dims& dims, const std::string& x_id, Activation act) {
  switch (act) {
    case Activation::GELU:
      return add_step(r, role, dims, "GELU activation",
                      "\\mathrm{GELU}(u) = u\\,\\Phi(u) = \\tfrac{1}{2}u\\left(1 + \\mathrm{erf}(u/\\sqrt{2})\\right)",
                      "activation", {x_id}, "Exact GELU with the error function (not the tanh approximation).");
    case Activation::GELUTanh:
      return add_step(r, role, dims, "GELU activation (tanh approximation, gelu_new)",
                      "\\mathrm{GELU}_{\\tanh}(u) = \\tfrac{1}{2}u\\left(1 + \\tanh\\!\\left(\\sqrt{2/\\pi}\\,(u + 0.044715\\,u^3)\\right)\\right)",
                      "activation", {x_id}, "GPT-2's gelu_new: the tanh approximation of GELU, not the exact erf form.");
    case Activation::Tanh:
      return add_step(r, role, dims, "tanh activation", "\\tanh(u)", "activation", {x_id},
                      "Squashes each value into (−1, 1).");
    case Activation::SiLU:
      return add_step(r, role, dims, "SiLU activation (the gate)", "\\mathrm{SiLU}(u) = u\\,\\sigma(u) = \\frac{u}{1 + e^{-u}}",
                      "activation", {x_id}, "Llama's gate: near 0 for negative u, near u for large positive u.");
    default:
      return add_step(r, role, dims, "ReLU activation", "\\mathrm{ReLU}(u) = \\max(0, u)", "activation", {x_id},
                      "Negative pre-activations become 0.");
  }
}


// LayerNorm in its pieces, for an edit of the mean or the variance: every row's mean, then
// (edited) every row's variance from it, then (edited) the normalised rows from both.
void layernorm_pieces(const Rec& r, float* y, float* mean, float* var, const float* x, const float* gamma,
                      const float* beta, int R, int C, const std::string& mean_id, const std::string& var_id) {
  for (int i = 0; i < R; ++i) {
    float s = 0;
    for (int c = 0; c < C; ++c) s += x[static_cast<std::size_t>(i) * C + c];
    mean[i] = s / static_cast<float>(C);
  }
  intervene(r.trace, mean_id);
  for (int i = 0; i < R; ++i) {
    float s = 0;
    for (int c = 0; c < C; ++c) {
      const float d = x[static_cast<std::size_t>(i) * C + c] - mean[i];
      s += d * d;
    }
    var[i] = s / static_cast<float>(C);
  }
  intervene(r.trace, var_id);
  const float eps = r.model.config.layer_norm_eps;
  for (int i = 0; i < R; ++i) {
    const float inv = 1.0f / std::sqrt(var[i] + eps);
    for (int c = 0; c < C; ++c) {
      const std::size_t k = static_cast<std::size_t>(i) * C + c;
      y[k] = (x[k] - mean[i]) * inv * gamma[c] + beta[c];
    }
  }
}

}  // namespace

Tensor rec_linear(Rec r, const std::string& role, const Dims& dims, const std::string& title,
                  const std::string& formula, const Tensor& x, const std::string& W, const std::string& b,
                  const std::string& note) {
  const Param& w = param(r, W);
  const Param* bias = optional_param(r, b);
  Step& s = add_step(r, role, dims, title, formula, "linear", linear_inputs(x, w, bias), note);
  float* y = s.data.data();
  const std::string id = s.id;
  param_matmul(y, last(dims), x.data, w, bias ? bias->f32() : nullptr, rows(dims), Activation::None);
  intervene(r.trace, id);
  return {id, y};
}

Tensor rec_linear_act(Rec r, const std::string& role, const std::string& act_role, const Dims& dims,
                      const std::string& title, const std::string& formula, const Tensor& x,
                      const std::string& W, const std::string& b, Activation act, const std::string& note) {
  const Param& w = param(r, W);
  const Param* bias = optional_param(r, b);
  const float* bv = bias ? bias->f32() : nullptr;
  Step& pre_step = add_step(r, role, dims, title, formula, "linear", linear_inputs(x, w, bias), note);
  const std::string pre_id = pre_step.id;  // the next add may move Step objects, never their data
  float* pre = pre_step.data.data();
  Step& act_step = add_activation_step(r, act_role, dims, pre_id, act);
  float* y = act_step.data.data();
  const std::string act_id = act_step.id;
  if (touched(r, pre_id)) {  // an edit of the pre-activation: the activation reads the edited values
    param_matmul(pre, last(dims), x.data, w, bv, rows(dims), Activation::None);
    intervene(r.trace, pre_id);
    ew_f32_activate(y, pre, static_cast<int>(count(dims)), act);
  } else {
    // One pass: bias and activation fused into the matmul's store; both results recorded.
    param_matmul(pre, last(dims), x.data, w, bv, rows(dims), act, y);
  }
  intervene(r.trace, act_id);
  return {act_id, y};
}

Tensor rec_add(Rec r, const std::string& role, const Dims& dims, const std::string& title,
               const std::string& formula, const Tensor& a, const Tensor& b, const std::string& note) {
  Step& s = add_step(r, role, dims, title, formula, "add", {a.id, b.id}, note);
  float* y = s.data.data();
  const std::size_t n = s.size();
  for (std::size_t i = 0; i < n; ++i) y[i] = a.data[i] + b.data[i];
  const std::string id = s.id;
  intervene(r.trace, id);
  return {id, y};
}

Tensor rec_copy(Rec r, const std::string& role, const Dims& dims, const std::string& title,
                const std::string& formula, const Tensor& x, const std::string& note) {
  Step& s = add_step(r, role, dims, title, formula, "copy", {x.id}, note);
  std::copy(x.data, x.data + s.size(), s.data.data());
  const std::string id = s.id;
  intervene(r.trace, id);
  return {id, s.data.data()};
}

Tensor rec_layernorm(Rec r, const std::string& role, const std::string& out_role, const Dims& dims,
                     const std::string& title, const Tensor& x, const ParamKey& norm,
                     const std::string& note) {
  const Param& gamma = r.model.at(param_id({norm.place, norm.norm, "gamma"}));
  const Param& beta = r.model.at(param_id({norm.place, norm.norm, "beta"}));
  const Dims stat = without_last(dims);
  const std::string mean_id = step_id(r.place, "mean", role), var_id = step_id(r.place, "var", role);
  float* mean = add_step(r, "mean", stat, "Mean of each row (" + title + ")", "\\mu_i = \\frac{1}{d}\\sum_{c} x_{ic}",
                         "mean", {x.id}, {}, role)
                    .data.data();
  float* var = add_step(r, "var", stat, "Variance of each row (" + title + ")",
                        "\\sigma^2_i = \\frac{1}{d}\\sum_{c} (x_{ic} - \\mu_i)^2", "var", {x.id, mean_id},
                        "Biased variance (divides by d), as LayerNorm uses.", role)
                   .data.data();
  Step& out = add_step(r, out_role.empty() ? role : out_role, dims, title,
                       "\\mathrm{LN}(x)_{ic} = \\frac{x_{ic} - \\mu_i}{\\sqrt{\\sigma^2_i + \\varepsilon}}\\,\\gamma_c + \\beta_c",
                       "layernorm", {x.id, mean_id, var_id, gamma.id, beta.id}, note);
  float* y = out.data.data();
  const std::string out_id = out.id;
  if (touched(r, mean_id) || touched(r, var_id)) {
    layernorm_pieces(r, y, mean, var, x.data, gamma.f32(), beta.f32(), rows(dims), last(dims), mean_id,
                     var_id);
  } else {
    ew_f32_layernorm(y, mean, var, x.data, gamma.f32(), beta.f32(), rows(dims), last(dims),
                     r.model.config.layer_norm_eps);
  }
  intervene(r.trace, out_id);
  return {out_id, y};
}

Tensor rec_softmax(Rec r, const std::string& role, const Dims& dims, const std::string& title, const Tensor& x,
                   const std::string& note) {
  const Dims stat = without_last(dims);
  const std::string max_id = step_id(r.place, "rowmax", role), sum_id = step_id(r.place, "rowsum", role);
  float* mx = add_step(r, "rowmax", stat, "Row maxima (" + title + ")", "m_i = \\max_j z_{ij}", "rowmax", {x.id},
                       "Subtracted before exp so that exp never overflows.", role)
                  .data.data();
  float* sum = add_step(r, "rowsum", stat, "Row sums of exp (" + title + ")", "s_i = \\sum_j e^{z_{ij} - m_i}", "rowsum",
                        {x.id, max_id}, {}, role)
                   .data.data();
  Step& out = add_step(r, role, dims, title, "p_{ij} = \\frac{e^{z_{ij} - m_i}}{s_i}", "softmax", {x.id, max_id, sum_id},
                       note);
  float* y = out.data.data();
  const std::string out_id = out.id;
  // Softmax as its three pieces: row max, exp(x - max) with its sum, scale by 1/sum. Each piece
  // over every row before the next when an edit targets the max or the sum.
  const int n = last(dims);
  const bool apart = touched(r, max_id) || touched(r, sum_id);
  for (int i = 0; i < rows(dims); ++i) mx[i] = ew_f32_rmax(x.data + static_cast<std::size_t>(i) * n, n);
  if (apart) intervene(r.trace, max_id);
  for (int i = 0; i < rows(dims); ++i)
    sum[i] = ew_f32_raddexpminusmax(y + static_cast<std::size_t>(i) * n, x.data + static_cast<std::size_t>(i) * n, n, mx[i]);
  if (apart) intervene(r.trace, sum_id);
  for (int i = 0; i < rows(dims); ++i) {
    float* yi = y + static_cast<std::size_t>(i) * n;
    ew_f32_vscale(yi, yi, n, 1.0f / sum[i]);
  }
  intervene(r.trace, out_id);
  return {out_id, y};
}

}  // namespace ew
