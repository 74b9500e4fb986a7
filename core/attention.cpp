// attention.cpp — multi-head attention with every intermediate recorded (attention.h).
#include "attention.h"

#include <algorithm>
#include <cmath>

namespace ew {

namespace {
std::vector<int> square(int B, int Tq, int Tk) {
  return B == 1 ? std::vector<int>{Tq, Tk} : std::vector<int>{B, Tq, Tk};
}
}  // namespace

const float* rec_attention(Rec r, const AttentionArgs& a) {
  const Config& c = r.model.config;
  const int B = r.B, d = c.d_model, H = c.num_heads, dk = c.d_k();
  const std::string& P = a.prefix;
  const bool cross = a.xkv != a.xq;
  const std::string src = cross ? "\\,(\\text{from the encoder output})" : "";

  const float* q = rec_linear(r, P + "q", batch_shape(B, a.Tq, d), "Queries Q (" + a.what + ")",
                              "Q = X W^{Q} + b^{Q}", a.xq, a.xq_id, B * a.Tq, P + "W_q", P + "b_q",
                              "All heads at once; head h uses columns h·d_k … (h+1)·d_k − 1.");
  const float* k = rec_linear(r, P + "k", batch_shape(B, a.Tk, d), "Keys K (" + a.what + ")",
                              "K = X W^{K} + b^{K}" + src, a.xkv, a.xkv_id, B * a.Tk, P + "W_k",
                              P + "b_k");
  const float* v = rec_linear(r, P + "v", batch_shape(B, a.Tk, d), "Values V (" + a.what + ")",
                              "V = X W^{V} + b^{V}" + src, a.xkv, a.xkv_id, B * a.Tk, P + "W_v",
                              P + "b_v");

  const float scale = c.scale ? 1.0f / std::sqrt(static_cast<float>(dk)) : 1.0f;
  const std::string dks = std::to_string(dk);
  std::vector<std::string> context_ids;
  std::vector<const float*> contexts;
  for (int h = 0; h < H; ++h) {
    const std::string hp = P + "head" + std::to_string(h) + ".";
    const std::string hs = " (head " + std::to_string(h) + ", " + a.what + ")";
    Step* st = &r.trace.add(hp + "scores", square(B, a.Tq, a.Tk), "Raw scores" + hs,
                            "S_h = Q_h K_h^{\\top}", "scores", {P + "q", P + "k"},
                            "Dot product of each query row with each key row, over this head's d_k = " + dks +
                                " columns.");
    st->head = h;
    float* scores = st->data.data();
    st = &r.trace.add(hp + "scaled", square(B, a.Tq, a.Tk), "Scaled and masked scores" + hs,
                      c.scale ? "\\tilde{S}_h = \\frac{S_h}{\\sqrt{d_k}} + M" : "\\tilde{S}_h = S_h + M",
                      "scale_mask", {hp + "scores", a.mask_id},
                      c.scale ? "Divided by √d_k = √" + dks + " so the softmax does not saturate; masked entries are −∞."
                              : "Scaling is off: scores enter the softmax as they are (compare with it on).");
    st->head = h;
    float* scaled = st->data.data();
    st = &r.trace.add(hp + "rowmax", batch_shape(B, a.Tq), "Row maxima" + hs,
                      "m_i = \\max_j \\tilde{S}_{h,ij}", "rowmax", {hp + "scaled"},
                      "Subtracted before exp, so exp never overflows.");
    st->head = h;
    float* rowmax = st->data.data();
    st = &r.trace.add(hp + "rowsum", batch_shape(B, a.Tq), "Row sums of exp" + hs,
                      "z_i = \\sum_j e^{\\tilde{S}_{h,ij} - m_i}", "rowsum", {hp + "scaled", hp + "rowmax"});
    st->head = h;
    float* rowsum = st->data.data();
    st = &r.trace.add(hp + "weights", square(B, a.Tq, a.Tk), "Attention weights" + hs,
                      "A_{h,ij} = \\mathrm{softmax}_j(\\tilde{S}_h)_{ij} = \\frac{e^{\\tilde{S}_{h,ij} - m_i}}{z_i}",
                      "softmax", {hp + "scaled", hp + "rowmax", hp + "rowsum"},
                      "Each row sums to 1: how much each query position draws from each key position.");
    st->head = h;
    float* weights = st->data.data();
    st = &r.trace.add(hp + "context", batch_shape(B, a.Tq, dk), "Weighted sum of values" + hs,
                      "C_h = A_h V_h", "context", {hp + "weights", P + "v"});
    st->head = h;
    float* context = st->data.data();
    context_ids.push_back(hp + "context");
    contexts.push_back(context);

    const std::size_t sq = static_cast<std::size_t>(a.Tq) * a.Tk;
    for (int b = 0; b < B; ++b) {
      const float* qb = q + (static_cast<std::size_t>(b) * a.Tq) * d + h * dk;
      const float* kb = k + (static_cast<std::size_t>(b) * a.Tk) * d + h * dk;
      const float* vb = v + (static_cast<std::size_t>(b) * a.Tk) * d + h * dk;
      float* sb = scores + b * sq;
      ew_f32_scores(sb, a.Tk, qb, d, kb, d, a.Tq, a.Tk, dk);
      for (int i = 0; i < a.Tq; ++i) {
        const std::size_t row = b * sq + static_cast<std::size_t>(i) * a.Tk;
        ew_f32_softmax_row(scaled + row, weights + row, rowmax + b * a.Tq + i, rowsum + b * a.Tq + i,
                           scores + row, a.mask + row, a.Tk, scale);
      }
      ew_f32_matmul(context + (static_cast<std::size_t>(b) * a.Tq) * dk, dk, weights + b * sq, a.Tk, vb, d,
                    nullptr, a.Tq, a.Tk, dk, Activation::None);
    }
  }

  float* concat = r.trace
                      .add(P + "concat", batch_shape(B, a.Tq, d), "Heads concatenated (" + a.what + ")",
                           "C = \\left[\\,C_0 \\;\\middle|\\; C_1 \\;\\middle|\\; \\cdots \\;\\middle|\\; C_{h-1}\\,\\right]",
                           "concat", context_ids)
                      .data.data();
  for (std::size_t row = 0; row < static_cast<std::size_t>(B) * a.Tq; ++row)
    for (int h = 0; h < H; ++h)
      std::copy(contexts[h] + row * dk, contexts[h] + (row + 1) * dk, concat + row * d + h * dk);

  return rec_linear(r, P + "attn_out", batch_shape(B, a.Tq, d), "Output projection W_o (" + a.what + ")",
                    "\\mathrm{MHA}(X) = C W^{O} + b^{O}", concat, P + "concat", B * a.Tq, P + "W_o", P + "b_o",
                    "Mixes the heads' results back into d_model columns.");
}

}  // namespace ew
