// attention.cpp — multi-head attention with every intermediate recorded (attention.h).
#include "trace/attention.h"

#include <algorithm>
#include <cmath>

#include "trace/intervene.h"
#include "trace/ops.h"

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
  std::string context_id;
};

// Records the six steps of head h (buffers to be filled by run_head) from the block's q, k, v.
HeadSteps record_head(Rec r, const AttentionArgs& a, int h, const std::string& q, const std::string& k,
                      const std::string& v) {
  const Config& c = r.model.config;
  const AttnGeom g = attn_geom(r.model);
  const int dk = g.hd;
  const std::string hs = " (head " + std::to_string(h) + ", " + a.what + ")";
  const std::string kvs = g.KV < g.H ? " It reads K/V head " + std::to_string(g.kv_head(h)) + " of " + std::to_string(g.KV) +
                                           ", shared by query heads " + std::to_string(g.kv_head(h) * (g.H / g.KV)) + "–" +
                                           std::to_string((g.kv_head(h) + 1) * (g.H / g.KV) - 1) + " (grouped-query attention)."
                                     : "";
  const std::string dks = std::to_string(dk);
  const Dims sq = square(r, a);
  const Dims row = without_last(sq);  // [batch,] query
  const Place at{r.place.section, r.place.layer, r.place.block, h};
  const auto id = [&](const char* role) { return step_id(at, role); };
  const auto add = [&](const char* role, const Dims& dims, const std::string& title, const std::string& formula,
                       const char* kind, std::vector<std::string> inputs, const std::string& note = {}) {
    return r.trace.add(id(role), role, dims, at, title, formula, kind, std::move(inputs), note).data.data();
  };
  HeadSteps s;
  s.scores = add("scores", sq, "Raw scores" + hs, "S_h = Q_h K_h^{\\top}", "scores", {q, k},
                 "Dot product of each query row with each key row, over this head's d_k = " + dks + " columns." + kvs);
  const float qs = r.model.arch.attn_scale;
  s.scaled = add("scaled", sq, "Scaled and masked scores" + hs,
                 qs > 0 ? "\\tilde{S}_h = S_h / \\sqrt{s_q} + M"
                 : c.scale ? "\\tilde{S}_h = \\frac{S_h}{\\sqrt{d_k}} + M" : "\\tilde{S}_h = S_h + M", "scale_mask",
                 {id("scores"), a.mask.id},
                 qs > 0 ? "Divided by √s_q = " + std::to_string(1.0f / qs) + " (query_pre_attn_scalar s_q, not √d_k); masked entries are −∞."
                 : c.scale ? "Divided by √d_k = √" + dks + " so the softmax does not saturate; masked entries are −∞."
                         : "Scaling is off: scores enter the softmax as they are (compare with it on).");
  s.rowmax = add("rowmax", row, "Row maxima" + hs, "m_i = \\max_j \\tilde{S}_{h,ij}", "rowmax", {id("scaled")},
                 "Subtracted before exp, so exp never overflows.");
  s.rowsum = add("rowsum", row, "Row sums of exp" + hs, "s_i = \\sum_j e^{\\tilde{S}_{h,ij} - m_i}", "rowsum",
                 {id("scaled"), id("rowmax")});
  s.weights = add("weights", sq, "Attention weights" + hs,
                  "A_{h,ij} = \\mathrm{softmax}_j(\\tilde{S}_h)_{ij} = \\frac{e^{\\tilde{S}_{h,ij} - m_i}}{s_i}", "softmax",
                  {id("scaled"), id("rowmax"), id("rowsum")},
                  "Each row sums to 1: how much each query position draws from each key position.");
  s.context = add("context", rows_of(r, a.q, dim(dk, "head_feature")), "Weighted sum of values" + hs, "C_h = A_h V_h",
                  "context", {id("weights"), v});
  s.context_id = id("context");
  return s;
}

// An intervention edits this head's step of `role` in this run (trace/intervene.h).
bool touched(const Rec& r, const Place& at, const char* role) {
  return r.trace.interventions && r.trace.interventions->touches(step_id(at, role));
}

// The softmax of head h's scores in its pieces, each over every row before the next, for an
// edit of the scores, scaled scores, row maxima or row sums: each piece reads the edited one.
void softmax_pieces(const Rec& r, const Place& at, int rows, int Tk, float scale, const float* mask, const HeadSteps& s) {
  const std::size_t n = static_cast<std::size_t>(rows) * Tk;
  intervene(r.trace, step_id(at, "scores"));
  for (std::size_t i = 0; i < n; ++i) s.scaled[i] = s.scores[i] * scale + mask[i];
  intervene(r.trace, step_id(at, "scaled"));
  for (int i = 0; i < rows; ++i) s.rowmax[i] = ew_f32_rmax(s.scaled + static_cast<std::size_t>(i) * Tk, Tk);
  intervene(r.trace, step_id(at, "rowmax"));
  for (int i = 0; i < rows; ++i) {
    const std::size_t row = static_cast<std::size_t>(i) * Tk;
    // A row whose every key is masked has weights 0 and sum 0, as the fused kernel defines it.
    s.rowsum[i] = std::isinf(s.rowmax[i]) ? 0.0f : ew_f32_raddexpminusmax(s.weights + row, s.scaled + row, Tk, s.rowmax[i]);
    if (std::isinf(s.rowmax[i])) std::fill(s.weights + row, s.weights + row + Tk, 0.0f);
  }
  intervene(r.trace, step_id(at, "rowsum"));
  for (int i = 0; i < rows; ++i) {
    float* w = s.weights + static_cast<std::size_t>(i) * Tk;
    if (s.rowsum[i] != 0.0f) ew_f32_vscale(w, w, Tk, 1.0f / s.rowsum[i]);
  }
}

// Scores, scaled + masked scores with the softmax pieces, and the weighted sum of head h.
void run_head(const Rec& r, const AttentionArgs& a, int h, const float* q, const float* k, const float* v,
              const HeadSteps& s) {
  const AttnGeom g = attn_geom(r.model);
  const int dq = g.dq(), dkv = g.dkv(), dk = g.hd, hk = g.kv_head(h), Tq = a.q.T, Tk = a.kv.T;
  const float scale = g.scale;
  const std::size_t sq = static_cast<std::size_t>(Tq) * Tk;
  const Place at{r.place.section, r.place.layer, r.place.block, h};
  const bool apart = touched(r, at, "scores") || touched(r, at, "scaled") || touched(r, at, "rowmax") ||
                     touched(r, at, "rowsum");
  for (int b = 0; b < r.B; ++b) {
    const float* qb = q + (static_cast<std::size_t>(b) * Tq) * dq + h * dk;
    const float* kb = k + (static_cast<std::size_t>(b) * Tk) * dkv + hk * dk;
    ew_f32_scores(s.scores + b * sq, Tk, qb, dq, kb, dkv, Tq, Tk, dk);
    if (apart) continue;
    for (int i = 0; i < Tq; ++i) {
      const std::size_t row = b * sq + static_cast<std::size_t>(i) * Tk;
      ew_f32_softmax_row(s.scaled + row, s.weights + row, s.rowmax + b * Tq + i, s.rowsum + b * Tq + i,
                         s.scores + row, a.mask.data + row, Tk, scale);
    }
  }
  if (apart) softmax_pieces(r, at, r.B * Tq, Tk, scale, a.mask.data, s);
  intervene(r.trace, step_id(at, "weights"));
  for (int b = 0; b < r.B; ++b) {
    const float* vb = v + (static_cast<std::size_t>(b) * Tk) * dkv + hk * dk;
    ew_f32_matmul(s.context + (static_cast<std::size_t>(b) * Tq) * dk, dk, s.weights + b * sq, Tk, vb, dkv, nullptr,
                  Tq, Tk, dk, Activation::None);
  }
  intervene(r.trace, s.context_id);
}

// q or k of a modern decoder: the RMSNorm over each head's columns (q_norm, k_norm), then the
// rotation (q_rot, k_rot); each only where the model has it.
Tensor norm_and_rotate(const Rec& r, const AttentionArgs& a, const AttnInput& in, const Tensor& x, const char* which,
                       int heads) {
  const AttnGeom g = attn_geom(r.model);
  const std::string W = which;  // "q" or "k"
  Tensor y = x;
  if (r.model.arch.qk_norm) {
    Rec s = r;
    s.tokens = in.tokens;
    Dims per_head = per_token(s, in.T, dim(heads, "head"));
    per_head.push_back(dim(g.hd, "head_feature"));
    y = rec_rmsnorm(r, W + "_norm", "", per_head, W + "-norm: RMSNorm over each head's " + W + " (" + a.what + ")", y,
                    {r.place, W + "_norm", {}}, "Keeps each head's " + W + " at a steady scale before the rotation.");
  }
  if (a.rope.id.empty()) return y;
  return rec_rope(r, W + "_rot", rows_of(r, in, dim(heads * g.hd, "feature")),
                  (W == "q" ? "Queries" : "Keys") + std::string(" rotated by position (") + a.what + ")", y, a.rope, g.hd);
}

}  // namespace

Tensor rec_attention(Rec r, const AttentionArgs& a) {
  const Config& c = r.model.config;
  const AttnGeom g = attn_geom(r.model);
  const int d = c.d_model, H = g.H, dk = g.hd, dq = g.dq(), dkv = g.dkv();
  const bool cross = a.kv.x.id != a.q.x.id;
  // One letter per stream: X the encoder's rows, Y the decoder's, H the encoder output
  // that cross-attention's keys and values read.
  const std::string xq = a.q.tokens == std::string("target") ? "Y" : "X", xkv = cross ? "H" : xq;
  const Dim feat = dim(d, "feature");
  const bool gqa = g.KV < g.H;

  const Tensor q0 = rec_linear(r, "q", rows_of(r, a.q, dim(dq, "feature")), "Queries Q (" + a.what + ")",
                               "Q = " + xq + " W^{Q} + b^{Q}", a.q.x, "W_q", "b_q",
                               "All heads at once; head h uses columns h·d_k … (h+1)·d_k − 1.");
  const Tensor k0 = rec_linear(r, "k", rows_of(r, a.kv, dim(dkv, "feature")), "Keys K (" + a.what + ")",
                               "K = " + xkv + " W^{K} + b^{K}", a.kv.x, "W_k", "b_k",
                               gqa ? std::to_string(g.KV) + " key heads for " + std::to_string(H) + " query heads: each serves " +
                                         std::to_string(H / g.KV) + " of them (grouped-query attention)."
                                   : "");
  const Tensor v = rec_linear(r, "v", rows_of(r, a.kv, dim(dkv, "feature")), "Values V (" + a.what + ")",
                              "V = " + xkv + " W^{V} + b^{V}", a.kv.x, "W_v", "b_v");
  const Tensor q = norm_and_rotate(r, a, a.q, q0, "q", H);
  const Tensor k = norm_and_rotate(r, a, a.kv, k0, "k", g.KV);

  std::vector<std::string> context_ids;
  std::vector<const float*> contexts;
  for (int h = 0; h < H; ++h) {
    const HeadSteps s = record_head(r, a, h, q.id, k.id, v.id);
    run_head(r, a, h, q.data, k.data, v.data, s);
    context_ids.push_back(s.context_id);
    contexts.push_back(s.context);
  }

  float* concat = r.trace
                      .add(step_id(r.place, "concat"), "concat", rows_of(r, a.q, dim(dq, "feature")), r.place,
                           "Heads concatenated (" + a.what + ")",
                           "C = \\left[\\,C_0 \\;\\middle|\\; C_1 \\;\\middle|\\; \\cdots \\;\\middle|\\; C_{h-1}\\,\\right]",
                           "concat", context_ids)
                      .data.data();
  for (std::size_t row = 0; row < static_cast<std::size_t>(r.B) * a.q.T; ++row)
    for (int h = 0; h < H; ++h)
      std::copy(contexts[h] + row * dk, contexts[h] + (row + 1) * dk, concat + row * dq + h * dk);
  intervene(r.trace, step_id(r.place, "concat"));

  return rec_linear(r, "attn_out", rows_of(r, a.q, feat), "Output projection W_o (" + a.what + ")",
                    "\\mathrm{MHA}(" + (cross ? xq + ", H, H" : xq) + ") = C W^{O} + b^{O}",
                    {step_id(r.place, "concat"), concat}, "W_o", "b_o", "Mixes the heads' results back into d_model columns.");
}

}  // namespace ew
