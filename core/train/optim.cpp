// optim.cpp — AdamW, its learning-rate schedule and gradient clipping (optim.h).
#include "train/optim.h"

#include <cmath>
#include <string>

#include "model/error.h"

namespace ew {

namespace {
void check(bool ok, const std::string& what) {
  if (!ok) throw Error(what);
}
}  // namespace

void validate(const AdamWConfig& c) {
  check(std::isfinite(c.lr) && c.lr > 0.0 && c.lr <= 10.0,
        "learning rate (lr) must be greater than 0 and at most 10, got " + std::to_string(c.lr));
  check(std::isfinite(c.beta1) && c.beta1 >= 0.0 && c.beta1 < 1.0, "beta1 must be in [0, 1), got " + std::to_string(c.beta1));
  check(std::isfinite(c.beta2) && c.beta2 >= 0.0 && c.beta2 < 1.0, "beta2 must be in [0, 1), got " + std::to_string(c.beta2));
  check(std::isfinite(c.eps) && c.eps > 0.0 && c.eps <= 1.0, "eps must be in (0, 1], got " + std::to_string(c.eps));
  check(std::isfinite(c.weight_decay) && c.weight_decay >= 0.0 && c.weight_decay <= 1.0,
        "weight_decay must be in [0, 1], got " + std::to_string(c.weight_decay));
  check(c.warmup_steps >= 0, "warmup_steps must not be negative, got " + std::to_string(c.warmup_steps));
  check(c.total_steps >= 0, "total_steps must not be negative, got " + std::to_string(c.total_steps));
  check(c.total_steps == 0 || c.warmup_steps <= c.total_steps,
        "warmup_steps (" + std::to_string(c.warmup_steps) + ") must not exceed total_steps (" +
            std::to_string(c.total_steps) + ")");
  check(std::isfinite(c.min_lr_ratio) && c.min_lr_ratio >= 0.0 && c.min_lr_ratio <= 1.0,
        "min_lr_ratio must be in [0, 1], got " + std::to_string(c.min_lr_ratio));
  check(std::isfinite(c.clip_norm) && c.clip_norm >= 0.0, "clip_norm must be 0 (off) or positive, got " + std::to_string(c.clip_norm));
}

double scheduled_lr(const AdamWConfig& c, int t) {
  if (c.warmup_steps > 0 && t <= c.warmup_steps) return c.lr * t / c.warmup_steps;
  if (c.total_steps <= 0 || c.total_steps == c.warmup_steps) return c.lr;
  const int left = t >= c.total_steps ? 0 : c.total_steps - t;
  const double frac = static_cast<double>(left) / (c.total_steps - c.warmup_steps);
  return c.lr * (c.min_lr_ratio + (1.0 - c.min_lr_ratio) * frac);
}

double clip_grad_norm(const std::vector<ParamSlot>& slots, double max_norm, float* scale_out) {
  double sq = 0.0;
  for (const ParamSlot& s : slots)
    for (std::size_t i = 0; i < s.n; ++i) sq += static_cast<double>(s.grad[i]) * s.grad[i];
  const double norm = std::sqrt(sq);
  float scale = 1.0f;
  if (max_norm > 0.0 && norm > max_norm) {
    scale = static_cast<float>(max_norm / (norm + 1e-6));
    for (const ParamSlot& s : slots)
      for (std::size_t i = 0; i < s.n; ++i) s.grad[i] *= scale;
  }
  if (scale_out) *scale_out = scale;
  return norm;
}

AdamW::AdamW(AdamWConfig c) : c_(c) { validate(c_); }

AdamWStepInfo AdamW::step(const std::vector<ParamSlot>& slots) {
  if (m_.empty()) {
    for (const ParamSlot& s : slots) {
      m_.emplace_back(s.n, 0.0f);
      v_.emplace_back(s.n, 0.0f);
    }
  }
  if (slots.size() != m_.size()) throw Error("AdamW: the parameter list changed between steps");
  AdamWStepInfo info;
  info.grad_norm = clip_grad_norm(slots, c_.clip_norm, &info.clip_scale);
  info.t = ++t_;
  info.lr = scheduled_lr(c_, t_);
  // Scalars formed in double, rounded once to float32 (torch's _single_tensor_adamw).
  const double bc1 = 1.0 - std::pow(c_.beta1, t_);
  const double bc2_sqrt = std::sqrt(1.0 - std::pow(c_.beta2, t_));
  const float b1 = static_cast<float>(c_.beta1), one_minus_b1 = static_cast<float>(1.0 - c_.beta1);
  const float b2 = static_cast<float>(c_.beta2), one_minus_b2 = static_cast<float>(1.0 - c_.beta2);
  const float neg_step = static_cast<float>(-info.lr / bc1);
  const float bc2s = static_cast<float>(bc2_sqrt), eps = static_cast<float>(c_.eps);
  for (std::size_t k = 0; k < slots.size(); ++k) {
    const ParamSlot& s = slots[k];
    if (s.n != m_[k].size())  // (the message is built only on failure: a step allocates nothing)
      throw Error("AdamW: parameter " + std::to_string(k) + " changed size between steps");
    float* m = m_[k].data();
    float* v = v_[k].data();
    const float decay = static_cast<float>(1.0 - info.lr * (s.decay ? c_.weight_decay : 0.0));
    for (std::size_t i = 0; i < s.n; ++i) {
      const float g = s.grad[i];
      const float p = s.value[i] * decay;
      m[i] = m[i] * b1 + one_minus_b1 * g;
      v[i] = v[i] * b2 + one_minus_b2 * (g * g);
      const float denom = std::sqrt(v[i]) / bc2s + eps;
      s.value[i] = p + neg_step * (m[i] / denom);
    }
  }
  return info;
}

}  // namespace ew
