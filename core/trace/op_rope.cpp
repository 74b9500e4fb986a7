// op_rope.cpp — rotary positions, one unit (ops.h): the angles, the rotation, and the rotation's
// backward rule. Llama, Qwen and Gemma add no position vectors to the embeddings; instead q and
// k of every head are rotated, pair by pair, by an angle that grows with the position, so that
// q_i · k_j depends on i − j. Hugging Face's layout ("rotate half"): pair p of a head is its
// columns p and p + hd/2 (not 2p and 2p + 1, the interleaved layout of the paper and of llama.cpp).
//   θ_{t,p} = t · ω_p, ω_p = base^(−2p/hd) (llama3 / linear scaling: rope_inv_freq)  kind "rope_angles" [T, hd/2]
//   y_p = x_p cos θ − x_{p+hd/2} sin θ,  y_{p+hd/2} = x_{p+hd/2} cos θ + x_p sin θ     kind "rope"
#include <cmath>

#include "trace/intervene.h"
#include "trace/ops.h"

namespace ew {

namespace {

constexpr double kPi = 3.14159265358979323846;

// ω_p for p < hd/2, with the checkpoint's rope_scaling: "linear" divides every frequency by the
// factor; "llama3" divides the low frequencies (wavelength > original / low) by it, keeps the
// high ones (wavelength < original / high) and blends those between (Llama 3.1's rule).
std::vector<double> rope_inv_freq(const Arch& a, int hd, double base, bool scaled) {
  std::vector<double> w(static_cast<std::size_t>(hd / 2));
  for (int p = 0; p < hd / 2; ++p) {
    // float32, as the reference implementations compute it (torch.arange(...).float() / dim)
    const float expo = static_cast<float>(2 * p) / static_cast<float>(hd);
    w[static_cast<std::size_t>(p)] = static_cast<float>(1.0 / std::pow(base, static_cast<double>(expo)));
  }
  if (!scaled || a.rope_scaling.empty()) return w;
  for (double& f : w) {
    if (a.rope_scaling == "linear") {
      f /= a.rope_factor;
      continue;
    }
    const double wavelen = 2 * kPi / f, low_wl = a.rope_original / a.rope_low, high_wl = a.rope_original / a.rope_high;
    if (wavelen > low_wl) {
      f /= a.rope_factor;
    } else if (wavelen >= high_wl) {
      const double smooth = (a.rope_original / wavelen - a.rope_low) / (a.rope_high - a.rope_low);
      f = (1 - smooth) * f / a.rope_factor + smooth * f;
    }
  }
  return w;
}

}  // namespace

void rope_angle_row(float* out, const Arch& a, int hd, double base, bool scaled, int t) {
  const std::vector<double> w = rope_inv_freq(a, hd, base, scaled);
  for (int p = 0; p < hd / 2; ++p)
    out[p] = static_cast<float>(static_cast<float>(t) * static_cast<float>(w[static_cast<std::size_t>(p)]));
}

void rope_rows(float* y, const float* x, const float* angles, int n, int T, int cols, int hd) {
  const int half = hd / 2;
  for (int i = 0; i < n; ++i) {
    const float* th = angles + static_cast<std::size_t>(i % T) * half;
    for (int h0 = 0; h0 < cols; h0 += hd) {
      const float* xr = x + static_cast<std::size_t>(i) * cols + h0;
      float* yr = y + static_cast<std::size_t>(i) * cols + h0;
      for (int p = 0; p < half; ++p) {  // both read before either is written: y may be x
        const double c = std::cos(static_cast<double>(th[p])), sn = std::sin(static_cast<double>(th[p]));
        const double a = xr[p], b = xr[p + half];
        yr[p] = static_cast<float>(a * c - b * sn);
        yr[p + half] = static_cast<float>(b * c + a * sn);
      }
    }
  }
}

Tensor rec_rope_angles(Rec r, const std::string& id, int T, int hd, double base, bool scaled) {
  const Arch& a = r.model.arch;
  std::string formula = "\\theta_{t,p} = t\\,\\omega_p,\\quad \\omega_p = " + std::string(scaled && a.rope_scaling == "linear" ? "\\tfrac{1}{s}\\," : "") +
                        "b^{-2p/d_h}";
  std::string note = "Position t turns pair p by t·ω_p: the first pairs turn fast, the last ones slowly (base b = " +
                     std::to_string(static_cast<long long>(base)) + ").";
  if (scaled && a.rope_scaling == "llama3") note += " Llama 3 stretches the slow frequencies by its rope_scaling factor.";
  float* th = r.trace.add(id, "rope_angles", {dim(T, "position"), dim(hd / 2, "pair")}, r.in("positional").place,
                          "Rotary angles (position × frequency)", formula, "rope_angles", {}, note)
                  .data.data();
  for (int t = 0; t < T; ++t) rope_angle_row(th + static_cast<std::size_t>(t) * (hd / 2), a, hd, base, scaled, t);
  intervene(r.trace, id);
  return {id, th};
}

Tensor rec_rope(Rec r, const std::string& role, const Dims& dims, const std::string& title, const Tensor& x,
                const Tensor& angles, int hd) {
  Step& s = add_step(r, role, dims, title,
                     "\\begin{pmatrix} y_p \\\\ y_{p+d_h/2} \\end{pmatrix} = \\begin{pmatrix} \\cos\\theta_{t,p} & -\\sin\\theta_{t,p} "
                     "\\\\ \\sin\\theta_{t,p} & \\cos\\theta_{t,p} \\end{pmatrix} \\begin{pmatrix} x_p \\\\ x_{p+d_h/2} \\end{pmatrix}",
                     "rope", {x.id, angles.id}, "Each head's columns p and p + d_h/2 turned by their position's angle.");
  float* y = s.data.data();
  const std::string id = s.id;
  rope_rows(y, x.data, angles.data, rows(dims), dims[dims.size() - 2].size, last(dims), hd);
  intervene(r.trace, id);
  return {id, y};
}

namespace {

// The rotation's transpose turns the gradient back: dx_p += dy_p cos + dy_{p+h} sin,
// dx_{p+h} += dy_{p+h} cos − dy_p sin. The angles are constants (no gradient).
void back_rope(const Back& a) {
  float* dx = a.to(0);
  if (!dx) return;
  const View th = a.G.view(a.in(1));
  const int half = th.last(), hd = 2 * half, T = th.rows(), cols = a.s.shape.back();
  const int n = static_cast<int>(a.s.size()) / cols;
  for (int i = 0; i < n; ++i)
    for (int h0 = 0; h0 < cols; h0 += hd)
      for (int p = 0; p < half; ++p) {
        const double t = th.data[static_cast<std::size_t>(i % T) * half + p], c = std::cos(t), sn = std::sin(t);
        const std::size_t k = static_cast<std::size_t>(i) * cols + h0 + p;
        dx[k] += static_cast<float>(a.dy[k] * c + a.dy[k + half] * sn);
        dx[k + half] += static_cast<float>(a.dy[k + half] * c - a.dy[k] * sn);
      }
}

}  // namespace

const std::vector<OpRule>& rope_rules() {
  static const std::vector<OpRule> r = {{"rope", back_rope}};
  return r;
}

}  // namespace ew
