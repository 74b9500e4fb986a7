// record.cpp — compute-and-record building blocks (see record.h).
#include "record.h"

#include <algorithm>
#include <cmath>

namespace ew {

std::vector<int> batch_shape(int B, int T, int n) {
  return B == 1 ? std::vector<int>{T, n} : std::vector<int>{B, T, n};
}
std::vector<int> batch_shape(int B, int T) {
  return B == 1 ? std::vector<int>{T} : std::vector<int>{B, T};
}

float* rec_linear(Rec r, const std::string& id, std::vector<int> shape, const std::string& title,
                  const std::string& formula, const float* x, const std::string& x_id, int rows,
                  const std::string& W_id, const std::string& b_id, const std::string& note) {
  const Param& W = r.model.at(W_id);
  const Param& b = r.model.at(b_id);
  const int in = static_cast<int>(W.value.shape()[0]);
  const int out = static_cast<int>(W.value.shape()[1]);
  float* y = r.trace.add(id, std::move(shape), title, formula, "linear", {x_id, W_id, b_id}, note).data.data();
  ew_f32_matmul_packed(y, out, x, in, W.packed, b.value.data(), rows, Activation::None);
  return y;
}

float* rec_add(Rec r, const std::string& id, std::vector<int> shape, const std::string& title,
               const std::string& formula, const float* a, const std::string& a_id, const float* b,
               const std::string& b_id, const std::string& note) {
  Step& s = r.trace.add(id, std::move(shape), title, formula, "add", {a_id, b_id}, note);
  float* y = s.data.data();
  const std::size_t n = s.size();
  for (std::size_t i = 0; i < n; ++i) y[i] = a[i] + b[i];
  return y;
}

float* rec_copy(Rec r, const std::string& id, std::vector<int> shape, const std::string& title,
                const std::string& formula, const float* x, const std::string& x_id,
                const std::string& note) {
  Step& s = r.trace.add(id, std::move(shape), title, formula, "copy", {x_id}, note);
  std::copy(x, x + s.size(), s.data.data());
  return s.data.data();
}

float* rec_layernorm(Rec r, const std::string& id, const std::string& out_id, std::vector<int> shape,
                     std::vector<int> stat_shape, const std::string& title, const float* x,
                     const std::string& x_id, int rows, int d, const std::string& param,
                     const std::string& note) {
  const std::string gamma_id = param + ".gamma", beta_id = param + ".beta";
  const Param& gamma = r.model.at(gamma_id);
  const Param& beta = r.model.at(beta_id);
  float* mean = r.trace
                    .add(id + ".mean", stat_shape, "Mean of each row (" + title + ")",
                         "\\mu_i = \\frac{1}{d}\\sum_{c} x_{ic}", "mean", {x_id})
                    .data.data();
  float* var = r.trace
                   .add(id + ".var", stat_shape, "Variance of each row (" + title + ")",
                        "\\sigma^2_i = \\frac{1}{d}\\sum_{c} (x_{ic} - \\mu_i)^2", "var", {x_id, id + ".mean"},
                        "Biased variance (divides by d), as LayerNorm uses.")
                   .data.data();
  float* y = r.trace
                 .add(out_id.empty() ? id : out_id, std::move(shape), title,
                      "\\mathrm{LN}(x)_{ic} = \\frac{x_{ic} - \\mu_i}{\\sqrt{\\sigma^2_i + \\varepsilon}}\\,\\gamma_c + \\beta_c",
                      "layernorm", {x_id, id + ".mean", id + ".var", gamma_id, beta_id}, note)
                 .data.data();
  ew_f32_layernorm(y, mean, var, x, gamma.value.data(), beta.value.data(), rows, d,
                   r.model.config.layer_norm_eps);
  return y;
}

namespace {
Step& add_activation_step(Rec r, const std::string& id, std::vector<int> shape, const std::string& x_id,
                          Activation act) {
  const bool gelu = act == Activation::GELU;
  return r.trace.add(id, std::move(shape), gelu ? "GELU activation" : "ReLU activation",
                     gelu ? "\\mathrm{GELU}(h) = h\\,\\Phi(h) = \\tfrac{1}{2}h\\left(1 + \\mathrm{erf}(h/\\sqrt{2})\\right)"
                          : "\\mathrm{ReLU}(h) = \\max(0, h)",
                     "activation", {x_id},
                     gelu ? "Exact GELU with the error function (not the tanh approximation)."
                          : "Negative pre-activations become 0.");
}
}  // namespace

float* rec_activation(Rec r, const std::string& id, std::vector<int> shape, const float* x,
                      const std::string& x_id, std::size_t n, Activation act) {
  float* y = add_activation_step(r, id, std::move(shape), x_id, act).data.data();
  for (std::size_t i = 0; i < n; ++i) y[i] = ew_activation(x[i], act);
  return y;
}

float* rec_linear_act(Rec r, const std::string& id, const std::string& act_id, std::vector<int> shape,
                      const std::string& title, const std::string& formula, const float* x,
                      const std::string& x_id, int rows, const std::string& W_id, const std::string& b_id,
                      Activation act, const std::string& note) {
  const Param& W = r.model.at(W_id);
  const Param& b = r.model.at(b_id);
  const int in = static_cast<int>(W.value.shape()[0]);
  const int out = static_cast<int>(W.value.shape()[1]);
  float* pre = r.trace.add(id, shape, title, formula, "linear", {x_id, W_id, b_id}, note).data.data();
  float* y = add_activation_step(r, act_id, std::move(shape), id, act).data.data();
  // One pass: bias and activation fused into the matmul's store; both results recorded.
  ew_f32_matmul_packed(pre, out, x, in, W.packed, b.value.data(), rows, act, y);
  return y;
}

float* rec_softmax(Rec r, const std::string& id, std::vector<int> shape, std::vector<int> stat_shape,
                   const std::string& title, const float* x, const std::string& x_id, int rows, int n,
                   const std::string& note) {
  float* mx = r.trace
                  .add(id + ".rowmax", stat_shape, "Row maxima (" + title + ")", "m_i = \\max_j z_{ij}",
                       "rowmax", {x_id}, "Subtracted before exp so that exp never overflows.")
                  .data.data();
  float* sum = r.trace
                   .add(id + ".rowsum", stat_shape, "Row sums of exp (" + title + ")",
                        "s_i = \\sum_j e^{z_{ij} - m_i}", "rowsum", {x_id, id + ".rowmax"})
                   .data.data();
  float* y = r.trace
                 .add(id, std::move(shape), title, "p_{ij} = \\frac{e^{z_{ij} - m_i}}{s_i}", "softmax",
                      {x_id, id + ".rowmax", id + ".rowsum"}, note)
                 .data.data();
  // Softmax as its three pieces: row max, exp(x - max) with its sum, scale by 1/sum.
  for (int i = 0; i < rows; ++i) {
    const float* xi = x + static_cast<std::size_t>(i) * n;
    float* yi = y + static_cast<std::size_t>(i) * n;
    mx[i] = ew_f32_rmax(xi, n);
    sum[i] = ew_f32_raddexpminusmax(yi, xi, n, mx[i]);
    ew_f32_vscale(yi, yi, n, 1.0f / sum[i]);
  }
  return y;
}

}  // namespace ew
