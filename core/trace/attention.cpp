// attention.cpp — multi-head attention with every intermediate recorded (attention.h).
#include "trace/attention.h"

#include <algorithm>
#include <cmath>

namespace ew {

namespace {

// [batch,] query, key: a score, weight or mask matrix of one head.
Dims square(const Rec& r, const AttentionArgs& a) {
  Dims d;
  if (r.B > 1) d.push_back(dim(r.B, "batch", "batch"));
  d.push_back(dim(a.q.T, "query", a.q.tokens));
  d.push_back(dim(a.kv.T, "key", a.kv.tokens));
  return d;
}

// Rows of the stream `in`: [batch,] token (labelled with in.tokens), last.
Dims rows_of(const Rec& r, const AttnInput& in, Dim last) {
  Rec s = r;
  s.tokens = in.tokens;
  return per_token(s, in.T, std::move(last));
}

struct HeadSteps {
  float *scores, *scaled, *rowmax, *rowsum, *weights, *context;
};

// Records the six steps of head h (buffers to be filled by run_head).
HeadSteps record_head(Rec r, const AttentionArgs& a, int h) {
  const Config& c = r.model.config;
  const int dk = c.d_k();
  const std::string& P = a.prefix;
  const std::string hp = P + "head" + std::to_string(h) + ".";
  const std::string hs = " (head " + std::to_string(h) + ", " + a.what + ")";
  const std::string dks = std::to_string(dk);
  const Dims sq = square(r, a);
  const Dims row = without_last(sq);  // [batch,] query
  Rec rh = r.in(r.place.block.c_str(), h);
  Trace& t = r.trace;
  HeadSteps s;
  s.scores = t.add(hp + "scores", sq, rh.place, "Raw scores" + hs, "S_h = Q_h K_h^{\\top}", "scores", {P + "q", P + "k"},
                   "Dot product of each query row with each key row, over this head's d_k = " + dks + " columns.")
                 .data.data();
  s.scaled = t.add(hp + "scaled", sq, rh.place, "Scaled and masked scores" + hs,
                   c.scale ? "\\tilde{S}_h = \\frac{S_h}{\\sqrt{d_k}} + M" : "\\tilde{S}_h = S_h + M", "scale_mask",
                   {hp + "scores", a.mask.id},
                   c.scale ? "Divided by √d_k = √" + dks + " so the softmax does not saturate; masked entries are −∞."
                           : "Scaling is off: scores enter the softmax as they are (compare with it on).")
                 .data.data();
  s.rowmax = t.add(hp + "rowmax", row, rh.place, "Row maxima" + hs, "m_i = \\max_j \\tilde{S}_{h,ij}", "rowmax",
                   {hp + "scaled"}, "Subtracted before exp, so exp never overflows.")
                 .data.data();
  s.rowsum = t.add(hp + "rowsum", row, rh.place, "Row sums of exp" + hs, "s_i = \\sum_j e^{\\tilde{S}_{h,ij} - m_i}",
                   "rowsum", {hp + "scaled", hp + "rowmax"})
                 .data.data();
  s.weights = t.add(hp + "weights", sq, rh.place, "Attention weights" + hs,
                    "A_{h,ij} = \\mathrm{softmax}_j(\\tilde{S}_h)_{ij} = \\frac{e^{\\tilde{S}_{h,ij} - m_i}}{s_i}",
                    "softmax", {hp + "scaled", hp + "rowmax", hp + "rowsum"},
                    "Each row sums to 1: how much each query position draws from each key position.")
                  .data.data();
  s.context = t.add(hp + "context", rows_of(r, a.q, dim(dk, "head_feature")), rh.place, "Weighted sum of values" + hs,
                    "C_h = A_h V_h", "context", {hp + "weights", P + "v"})
                  .data.data();
  return s;
}

// Scores, scaled + masked scores with the softmax pieces, and the weighted sum of head h.
void run_head(const Rec& r, const AttentionArgs& a, int h, const float* q, const float* k, const float* v,
              const HeadSteps& s) {
  const Config& c = r.model.config;
  const int d = c.d_model, dk = c.d_k(), Tq = a.q.T, Tk = a.kv.T;
  const float scale = c.scale ? 1.0f / std::sqrt(static_cast<float>(dk)) : 1.0f;
  const std::size_t sq = static_cast<std::size_t>(Tq) * Tk;
  for (int b = 0; b < r.B; ++b) {
    const float* qb = q + (static_cast<std::size_t>(b) * Tq) * d + h * dk;
    const float* kb = k + (static_cast<std::size_t>(b) * Tk) * d + h * dk;
    const float* vb = v + (static_cast<std::size_t>(b) * Tk) * d + h * dk;
    ew_f32_scores(s.scores + b * sq, Tk, qb, d, kb, d, Tq, Tk, dk);
    for (int i = 0; i < Tq; ++i) {
      const std::size_t row = b * sq + static_cast<std::size_t>(i) * Tk;
      ew_f32_softmax_row(s.scaled + row, s.weights + row, s.rowmax + b * Tq + i, s.rowsum + b * Tq + i,
                         s.scores + row, a.mask.data + row, Tk, scale);
    }
    ew_f32_matmul(s.context + (static_cast<std::size_t>(b) * Tq) * dk, dk, s.weights + b * sq, Tk, vb, d, nullptr,
                  Tq, Tk, dk, Activation::None);
  }
}

}  // namespace

Tensor rec_attention(Rec r, const AttentionArgs& a) {
  const Config& c = r.model.config;
  const int d = c.d_model, H = c.num_heads, dk = c.d_k();
  const std::string& P = a.prefix;
  const bool cross = a.kv.x.id != a.q.x.id;
  // One letter per stream: X the encoder's rows, Y the decoder's, H the encoder output
  // that cross-attention's keys and values read.
  const std::string xq = a.q.tokens == std::string("target") ? "Y" : "X", xkv = cross ? "H" : xq;
  const Dim feat = dim(d, "feature");

  const Tensor q = rec_linear(r, P + "q", rows_of(r, a.q, feat), "Queries Q (" + a.what + ")", "Q = " + xq + " W^{Q} + b^{Q}",
                              a.q.x, P + "W_q", P + "b_q",
                              "All heads at once; head h uses columns h·d_k … (h+1)·d_k − 1.");
  const Tensor k = rec_linear(r, P + "k", rows_of(r, a.kv, feat), "Keys K (" + a.what + ")",
                              "K = " + xkv + " W^{K} + b^{K}", a.kv.x, P + "W_k", P + "b_k");
  const Tensor v = rec_linear(r, P + "v", rows_of(r, a.kv, feat), "Values V (" + a.what + ")",
                              "V = " + xkv + " W^{V} + b^{V}", a.kv.x, P + "W_v", P + "b_v");

  std::vector<std::string> context_ids;
  std::vector<const float*> contexts;
  for (int h = 0; h < H; ++h) {
    const HeadSteps s = record_head(r, a, h);
    run_head(r, a, h, q.data, k.data, v.data, s);
    context_ids.push_back(P + "head" + std::to_string(h) + ".context");
    contexts.push_back(s.context);
  }

  float* concat = r.trace
                      .add(P + "concat", rows_of(r, a.q, feat), r.place, "Heads concatenated (" + a.what + ")",
                           "C = \\left[\\,C_0 \\;\\middle|\\; C_1 \\;\\middle|\\; \\cdots \\;\\middle|\\; C_{h-1}\\,\\right]",
                           "concat", context_ids)
                      .data.data();
  for (std::size_t row = 0; row < static_cast<std::size_t>(r.B) * a.q.T; ++row)
    for (int h = 0; h < H; ++h)
      std::copy(contexts[h] + row * dk, contexts[h] + (row + 1) * dk, concat + row * d + h * dk);

  return rec_linear(r, P + "attn_out", rows_of(r, a.q, feat), "Output projection W_o (" + a.what + ")",
                    "\\mathrm{MHA}(" + (cross ? xq + ", H, H" : xq) + ") = C W^{O} + b^{O}", {P + "concat", concat}, P + "W_o", P + "b_o",
                    "Mixes the heads' results back into d_model columns.");
}

}  // namespace ew
