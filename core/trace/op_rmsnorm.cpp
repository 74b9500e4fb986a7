// op_rmsnorm.cpp — RMSNorm, one unit (ops.h): forward + record, and the backward rules of its
// two steps. Llama, Qwen and Gemma normalise by the root mean square alone: no mean is
// subtracted and there is no β. Gemma scales by (1 + γ) (Arch::norm_offset = 1), so a γ of 0
// is the identity scale; Llama and Qwen by γ.
//   rms_i = √(mean_c x_ic² + ε)          kind "rms"      [rows]
//   y_ic  = x_ic / rms_i · (offset + γ_c) kind "rmsnorm"  [rows, d]
// Sums run in double: the reference (PyTorch in float32 upcasts, ours float64) sees the same.
#include <cmath>

#include "trace/intervene.h"
#include "trace/ops.h"

namespace ew {

void rmsnorm_rows(float* y, float* rms, const float* x, const float* g, int n, int d, double eps, float offset) {
  for (int i = 0; i < n; ++i) {
    const float* xr = x + static_cast<std::size_t>(i) * d;
    double ss = 0;
    for (int c = 0; c < d; ++c) ss += static_cast<double>(xr[c]) * xr[c];
    rms[i] = static_cast<float>(std::sqrt(ss / d + eps));
    const double inv = 1.0 / rms[i];
    for (int c = 0; c < d; ++c)
      y[static_cast<std::size_t>(i) * d + c] = static_cast<float>(xr[c] * inv * (static_cast<double>(offset) + g[c]));
  }
}

Tensor rec_rmsnorm(Rec r, const std::string& role, const std::string& out_role, const Dims& dims,
                   const std::string& title, const Tensor& x, const ParamKey& norm, const std::string& note) {
  const Param& gamma = r.model.at(param_id({norm.place, norm.norm, "gamma"}));
  const float offset = r.model.arch.norm_offset;
  const double eps = r.model.config.layer_norm_eps;
  const int n = rows(dims), d = last(dims);
  const std::string rms_id = step_id(r.place, "rms", role);
  float* rms = add_step(r, "rms", without_last(dims), "Root mean square of each row (" + title + ")",
                        "\\mathrm{rms}_i = \\sqrt{\\tfrac{1}{d}\\textstyle\\sum_c x_{ic}^2 + \\varepsilon}", "rms", {x.id},
                        "No mean is subtracted: RMSNorm only rescales each row.", role)
                   .data.data();
  // The rms first (an intervention may edit it), then the scaled rows from the rms as recorded.
  for (int i = 0; i < n; ++i) {
    double ss = 0;
    for (int c = 0; c < d; ++c) ss += static_cast<double>(x.data[static_cast<std::size_t>(i) * d + c]) * x.data[static_cast<std::size_t>(i) * d + c];
    rms[i] = static_cast<float>(std::sqrt(ss / d + eps));
  }
  intervene(r.trace, rms_id);
  const std::string scale = offset != 0.0f ? "(1 + \\gamma_c)" : "\\gamma_c";
  Step& out = add_step(r, out_role.empty() ? role : out_role, dims, title,
                       "\\mathrm{RMSNorm}(x)_{ic} = \\frac{x_{ic}}{\\mathrm{rms}_i}\\," + scale, "rmsnorm",
                       {x.id, rms_id, gamma.id}, note);
  float* y = out.data.data();
  const std::string out_id = out.id;
  const float* g = gamma.f32();
  for (int i = 0; i < n; ++i) {
    const double inv = 1.0 / rms[i];
    for (int c = 0; c < d; ++c) {
      const std::size_t k = static_cast<std::size_t>(i) * d + c;
      y[k] = static_cast<float>(x.data[k] * inv * (static_cast<double>(offset) + g[c]));
    }
  }
  intervene(r.trace, out_id);
  return {out_id, y};
}

namespace {

// y = x · (o + γ) / rms: dx += dy·(o + γ)/rms, dγ += Σ_rows dy·x/rms, d rms += −Σ_c dy·x·(o + γ)/rms².
void back_rmsnorm(const Back& a) {
  // d from the step itself: q/k norms normalise each head's hd columns of a [T, H·hd] input
  const View x = a.G.view(a.in(0)), rms = a.G.view(a.in(1)), gamma = a.G.view(a.in(2));
  const int d = a.s.shape.back(), n = static_cast<int>(a.s.size()) / d;
  const double o = a.m.arch.norm_offset;
  float* dx = a.to(0, {a.in(1), a.in(2)});
  float* dr = a.to(1, {a.in(0), a.in(2)});
  float* dg = a.to(2, {a.in(0), a.in(1)});
  for (int i = 0; i < n; ++i) {
    const double inv = 1.0 / rms.data[i];
    double acc = 0;
    for (int c = 0; c < d; ++c) {
      const std::size_t k = static_cast<std::size_t>(i) * d + c;
      const double g = a.dy[k], w = o + gamma.data[c];
      if (dx) dx[k] += static_cast<float>(g * w * inv);
      if (dg) dg[c] += static_cast<float>(g * x.data[k] * inv);
      acc += g * x.data[k] * w;
    }
    if (dr) dr[i] += static_cast<float>(-acc * inv * inv);
  }
}

// rms = √(mean x² + ε): dx += d rms · x / (d · rms).
void back_rms(const Back& a) {
  const View x = a.G.view(a.in(0));
  const int n = static_cast<int>(a.s.size()), d = static_cast<int>(x.n) / n;  // one rms per row of d
  float* dx = a.to(0);
  if (!dx) return;
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < d; ++c) {
      const std::size_t k = static_cast<std::size_t>(i) * d + c;
      dx[k] += static_cast<float>(static_cast<double>(a.dy[i]) * x.data[k] / (static_cast<double>(d) * a.s.data[i]));
    }
}

}  // namespace

const std::vector<OpRule>& rmsnorm_rules() {
  static const std::vector<OpRule> r = {{"rmsnorm", back_rmsnorm}, {"rms", back_rms}};
  return r;
}

}  // namespace ew
