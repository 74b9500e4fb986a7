// op_gated.cpp — the gated feed-forward network and a constant factor, one unit each (ops.h).
// Llama and Qwen's SwiGLU and Gemma's GeGLU widen each row twice: a gate, passed through the
// activation (SiLU or tanh-GELU), multiplies the "up" projection element by element, and W_down
// brings the product back to d_model columns. Gemma also multiplies its token embeddings by √d.
//   G = X W_gate + b_gate, A = act(G)  (linear + activation: record.h)
//   U = X W_up + b_up                  (linear)
//   Z = A ⊙ U                          kind "mul"
//   FFN(X) = Z W_down + b_down         (linear)
//   Y = c · X                          kind "scale"
#include "trace/intervene.h"
#include "trace/ops.h"

namespace ew {

namespace {

const char* act_tex(Activation a) {
  switch (a) {
    case Activation::SiLU: return "\\mathrm{SiLU}";
    case Activation::GELUTanh: return "\\mathrm{GELU}_{\\tanh}";
    case Activation::GELU: return "\\mathrm{GELU}";
    default: return "\\mathrm{act}";
  }
}

}  // namespace

Tensor rec_gated_ffn(Rec r, const Tensor& x, int T) {
  const Config& c = r.model.config;
  const Rec f = r.in("ffn");
  const Dims wide = per_token(r, T, dim(c.d_ff, "hidden"));
  const std::string act = act_tex(c.activation);
  const Tensor gate = rec_linear_act(f, "ffn_gate", "ffn_gate_act", wide, "Feed-forward: gate", "G = X W_{\\text{gate}}", x,
                                     "W_gate", "b_gate", c.activation,
                                     "The gate: its activation decides how much of each hidden unit passes.");
  const Tensor up = rec_linear(f, "ffn_up", wide, "Feed-forward: up projection", "U = X W_{\\text{up}}", x, "W_up", "b_up",
                               "The values the gate lets through, widened to d_ff = " + std::to_string(c.d_ff) + ".");
  Step& z = add_step(f, "ffn_hidden", wide, "Feed-forward: gate × up", "Z = " + act + "(G) \\odot U", "mul",
                     {gate.id, up.id}, "Element by element: a hidden unit is open where its gate is large.");
  float* zd = z.data.data();
  const std::string z_id = z.id;
  const std::size_t n = count(wide);
  for (std::size_t i = 0; i < n; ++i) zd[i] = gate.data[i] * up.data[i];
  intervene(r.trace, z_id);
  return rec_linear(f, "ffn_out", per_token(r, T, dim(c.d_model, "feature")), "Feed-forward: down projection",
                    "\\mathrm{FFN}(X) = \\left(" + act + "(X W_{\\text{gate}}) \\odot X W_{\\text{up}}\\right) W_{\\text{down}}",
                    {z_id, zd}, "W_down", "b_down", "Back to d_model columns.");
}

Tensor rec_scale(Rec r, const std::string& role, const Dims& dims, const std::string& title, const std::string& formula,
                 const Tensor& x, float c, const std::string& note) {
  Step& s = add_step(r, role, dims, title, formula, "scale", {x.id}, note);
  float* y = s.data.data();
  const std::string id = s.id;
  const std::size_t n = count(dims);
  for (std::size_t i = 0; i < n; ++i) y[i] = x.data[i] * c;
  intervene(r.trace, id);
  return {id, y};
}

namespace {

// Z = A ⊙ U: dA += dZ ⊙ U, dU += dZ ⊙ A.
void back_mul(const Back& a) {
  const View x = a.G.view(a.in(0)), y = a.G.view(a.in(1));
  float* dx = a.to(0, {a.in(1)});
  float* dy = a.to(1, {a.in(0)});
  for (std::size_t i = 0; i < a.s.size(); ++i) {
    if (dx) dx[i] += a.dy[i] * y.data[i];
    if (dy) dy[i] += a.dy[i] * x.data[i];
  }
}

// Y = c·X: dX += c·dY; c is the one factor the model defines (Gemma's √d: Arch::embed_scale).
void back_scale(const Back& a) {
  float* dx = a.to(0);
  if (!dx) return;
  const float c = a.m.arch.embed_scale;
  for (std::size_t i = 0; i < a.s.size(); ++i) dx[i] += c * a.dy[i];
}

}  // namespace

const std::vector<OpRule>& gated_rules() {
  static const std::vector<OpRule> r = {{"mul", back_mul}, {"scale", back_scale}};
  return r;
}

}  // namespace ew
