// optim.h — the optimizer of the training command: AdamW (decoupled weight decay, as
// torch.optim.AdamW), a linear warm-up then linear decay of the learning rate, and clipping
// of the global gradient norm (as torch.nn.utils.clip_grad_norm_). It updates parameters in
// place from gradients it is handed; it knows nothing about models, so the same code updates
// a Transformer's weights and the test's plain vectors.
//
// One step, for every parameter p with gradient g (after clipping), t counted from 1:
//   p ← p − lr_t·λ·p                        (decay; only where the slot asks for it)
//   m ← β₁m + (1 − β₁)g,  v ← β₂v + (1 − β₂)g²
//   p ← p − lr_t · (m / (1 − β₁ᵗ)) / (√(v / (1 − β₂ᵗ)) + ε)
// Deliberately left out: AMSGrad, per-group hyper-parameters beyond the decay flag.
#pragma once
#include <cstddef>
#include <vector>

namespace ew {

struct AdamWConfig {
  // Hyper-parameters are doubles, as in PyTorch; the per-element arithmetic is float32 with
  // each scalar rounded once to float32, in torch.optim.AdamW's order (so the two agree to a
  // few float32 roundings after many steps).
  double lr = 1e-3;            // peak learning rate
  double beta1 = 0.9;
  double beta2 = 0.999;
  double eps = 1e-8;
  double weight_decay = 0.01;  // λ, applied to slots with decay = true
  int warmup_steps = 0;        // lr rises linearly to `lr` over these steps
  int total_steps = 0;         // then falls linearly to min_lr_ratio·lr at this step; 0: constant
  double min_lr_ratio = 0.0;
  double clip_norm = 1.0;      // clip the global gradient norm to this; 0: no clipping
};

// Throws ew::Error naming the field when a hyper-parameter is zero, negative, non-finite or
// absurd (e.g. lr > 10, β ≥ 1).
void validate(const AdamWConfig& c);

// The learning rate of step t (t = 1, 2, …):
//   t ≤ warmup:  lr·t/warmup
//   else:        lr·(r + (1 − r)·(total − t)/(total − warmup)), r = min_lr_ratio (t ≤ total)
double scheduled_lr(const AdamWConfig& c, int t);

// One parameter tensor and its gradient (n floats each), and whether weight decay applies
// (matrices: yes; biases, LayerNorm γ/β: no, as is usual).
struct ParamSlot {
  float* value;
  float* grad;  // scaled in place by clipping
  std::size_t n;
  bool decay;
};

struct AdamWStepInfo {
  int t = 0;              // the step just taken
  double lr = 0.0;        // its learning rate
  double grad_norm = 0;   // global L2 norm of the gradients before clipping
  float clip_scale = 1;   // factor the gradients were multiplied by (1: not clipped)
};

// AdamW's state: first and second moments per slot, the step count. The slots' order and
// sizes must stay the same from step to step (checked).
class AdamW {
 public:
  explicit AdamW(AdamWConfig c);
  AdamWStepInfo step(const std::vector<ParamSlot>& slots);
  const AdamWConfig& config() const { return c_; }
  int steps_taken() const { return t_; }
  const std::vector<float>& m(std::size_t slot) const { return m_[slot]; }
  const std::vector<float>& v(std::size_t slot) const { return v_[slot]; }

 private:
  AdamWConfig c_;
  int t_ = 0;
  std::vector<std::vector<float>> m_, v_;
};

// Global L2 norm of all gradients (in double), and clip_grad_norm_'s scaling: when the norm
// exceeds max_norm, every gradient is multiplied by max_norm / (norm + 1e-6). Returns the norm.
double clip_grad_norm(const std::vector<ParamSlot>& slots, double max_norm, float* scale_out);

}  // namespace ew
