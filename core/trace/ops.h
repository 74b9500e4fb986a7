// ops.h — the operations the modern decoders add (Llama, Qwen, Gemma 3), each one unit in one
// file: the rec_* function that computes and records it, and the backward rule of every step
// kind it records, side by side.
//   op_rmsnorm.cpp   RMSNorm: the root mean square of each row (kind "rms"), then x / rms · (o + γ) ("rmsnorm")
//   op_rope.cpp      rotary positions: each (position, pair)'s angle ("rope_angles"), the rotation ("rope")
//   op_gated.cpp     the gated feed-forward network's product act(gate) ⊙ up ("mul"), and a constant
//                    factor ("scale": Gemma's √d on the embeddings)
// backward.cpp finds each unit's rules through op_rules() (one table, ops.cpp); the page's
// explainer, note, notation and catalog entries of each kind are named in the same table's
// comments (web/js/view/kinds/, web/js/view/notes/, web/js/lib/i18n/).
#pragma once
#include <string>
#include <vector>

#include "trace/back.h"
#include "trace/record.h"

namespace ew {

// ---- RMSNorm (op_rmsnorm.cpp) --------------------------------------------------------------
// y_ic = x_ic / rms_i · (offset + γ_c), rms_i = √(mean_c x_ic² + ε): records `<role>.rms` and the
// result under out_role (or role), with the parameter "gamma" of `norm`. dims: [..., d].
Tensor rec_rmsnorm(Rec r, const std::string& role, const std::string& out_role, const Dims& dims,
                   const std::string& title, const Tensor& x, const ParamKey& norm, const std::string& note = {});

// The arithmetic alone, for rows the trace does not record (the KV cache's new row): y and rms
// of n rows of d, exactly as rec_rmsnorm computes them.
void rmsnorm_rows(float* y, float* rms, const float* x, const float* gamma, int n, int d, double eps, float offset);

// ---- rotary positions (op_rope.cpp) --------------------------------------------------------
// The angle of every (position, pair): θ_{t,i} = t · ω_i, ω_i = base^(−2i/hd) (then scaled:
// Arch::rope_scaling). [T, hd/2]; recorded once per base at the input, read by every layer.
Tensor rec_rope_angles(Rec r, const std::string& id, int T, int hd, double base, bool scaled);
// x: [.., T, n·hd] (n heads of hd columns, as the projection lays them out) rotated pair by
// pair (i, i + hd/2) by the angles of its position: the rotate-half layout of Hugging Face's code.
Tensor rec_rope(Rec r, const std::string& role, const Dims& dims, const std::string& title, const Tensor& x,
                const Tensor& angles, int hd);

// The arithmetic alone: position t's angles (hd/2 of them) as rec_rope_angles records them, and
// n rows of cols = heads·hd rotated by one row of angles each (angles + (i % T)·hd/2).
void rope_angle_row(float* out, const Arch& a, int hd, double base, bool scaled, int t);
void rope_rows(float* y, const float* x, const float* angles, int n, int T, int cols, int hd);

// ---- gated feed-forward network and constant factors (op_gated.cpp) -------------------------
// FFN(X) = (act(X W_gate + b_gate) ⊙ (X W_up + b_up)) W_down + b_down: SwiGLU (SiLU) or GeGLU.
Tensor rec_gated_ffn(Rec r, const Tensor& x, int T);
// Y = c · X (kind "scale"): Gemma's embedding scale.
Tensor rec_scale(Rec r, const std::string& role, const Dims& dims, const std::string& title,
                 const std::string& formula, const Tensor& x, float c, const std::string& note = {});

// ---- the rules -------------------------------------------------------------------------------
struct OpRule {
  const char* kind;
  void (*backward)(const Back&);
};
const std::vector<OpRule>& rmsnorm_rules();
const std::vector<OpRule>& rope_rules();
const std::vector<OpRule>& gated_rules();
// Every unit's rules: the one list backward.cpp adds to its own.
std::vector<OpRule> op_rules();

}  // namespace ew
