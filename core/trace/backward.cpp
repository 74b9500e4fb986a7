// backward.cpp — the loss and reverse-mode gradients over a recorded trace (backward.h).
// One rule per step kind (the kinds of docs/trace.md), each the derivative of exactly what the
// forward recorded: softmax, its row max and row sum, LayerNorm and its mean and variance are
// differentiated as the separate steps they are, as autograd would see them — except that the
// softmax the loss reads gets dL/dz = w·(p − onehot) in one term (back_softmax_loss), which
// keeps its digits at a confident answer.
#include "trace/backward.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <unordered_map>

#include "model/error.h"
#include "text/vocab.h"
#include "trace/back.h"
#include "trace/ops.h"

namespace ew {

namespace {

// ---- one rule per kind ------------------------------------------------------------------

// Y = X·W + b: dX += dY·Wᵀ, dW += Xᵀ·dY, db += Σ_rows dY (no operand is transposed or copied).
void back_linear(const Back& a) {
  const View x = a.G.view(a.in(0)), w = a.G.view(a.in(1));
  const int in = w.shape[0], out = w.shape[1], rows = static_cast<int>(a.s.size() / out);
  if (float* dx = a.to(0, {a.in(1)}))
    for (int r = 0; r < rows; ++r)
      for (int k = 0; k < in; ++k) {
        double acc = 0;
        for (int o = 0; o < out; ++o) acc += static_cast<double>(a.dy[r * out + o]) * w.data[k * out + o];
        dx[r * in + k] += static_cast<float>(acc);
      }
  float* dw = a.to(1, {a.in(0)});
  float* db = a.s.inputs.size() > 2 ? a.to(2) : nullptr;  // a linear layer without a bias has two inputs
  for (int r = 0; r < rows; ++r)
    for (int o = 0; o < out; ++o) {
      const float g = a.dy[r * out + o];
      if (db) db[o] += g;
      if (dw)
        for (int k = 0; k < in; ++k) dw[k * out + o] += x.data[r * in + k] * g;
    }
}

// Y = A + B (+ C: BERT's token types) (B and C may repeat per batch item: the positional
// rows): each gets dY.
void back_add(const Back& a) {
  for (std::size_t k = 0; k < a.s.inputs.size(); ++k) {
    float* d = a.to(k);
    if (!d) continue;
    const std::size_t n = a.G.view(a.in(k)).n;
    for (std::size_t i = 0; i < a.s.size(); ++i) d[i % n] += a.dy[i];
  }
}

void back_copy(const Back& a) {
  if (float* d = a.to(0))
    for (std::size_t i = 0; i < a.s.size(); ++i) d[i] += a.dy[i];
}

// h_b = Y[b, 0, :]: the first token of each sentence.
void back_pool(const Back& a) {
  const View x = a.G.view(a.in(0));
  float* d = a.to(0);
  if (!d) return;
  const int dm = x.last(), T = x.shape[x.shape.size() - 2], B = static_cast<int>(a.s.size()) / dm;
  for (int b = 0; b < B; ++b)
    for (int c = 0; c < dm; ++c) d[static_cast<std::size_t>(b) * T * dm + c] += a.dy[b * dm + c];
}

// y = (x − μ)·r·γ + β with r = (σ² + ε)^(−1/2): the direct partials; μ and σ² get theirs
// here and pass them on to x in their own steps (back_mean, back_var).
void back_layernorm(const Back& a) {
  const View x = a.G.view(a.in(0)), mu = a.G.view(a.in(1)), var = a.G.view(a.in(2));
  const View gamma = a.G.view(a.in(3));
  const int d = x.last(), rows = static_cast<int>(a.s.size()) / d;
  const double eps = a.m.config.layer_norm_eps;
  float* dx = a.to(0, {a.in(3)});
  float* dmu = a.to(1, {a.in(3)});
  float* dvar = a.to(2, {a.in(0), a.in(1), a.in(3)});
  float* dg = a.to(3, {a.in(0), a.in(1), a.in(2)});
  float* db = a.to(4);
  for (int r = 0; r < rows; ++r) {
    const double rstd = 1.0 / std::sqrt(var.data[r] + eps);
    double sm = 0, sv = 0;
    for (int c = 0; c < d; ++c) {
      const double g = a.dy[r * d + c], xc = x.data[r * d + c] - mu.data[r];
      if (dx) dx[r * d + c] += static_cast<float>(g * gamma.data[c] * rstd);
      if (dg) dg[c] += static_cast<float>(g * xc * rstd);
      if (db) db[c] += static_cast<float>(g);
      sm += g * gamma.data[c];
      sv += g * gamma.data[c] * xc;
    }
    if (dmu) dmu[r] += static_cast<float>(-sm * rstd);
    if (dvar) dvar[r] += static_cast<float>(-0.5 * sv * rstd * rstd * rstd);
  }
}

// σ² = (1/d) Σ (x − μ)²: dx += dσ²·2(x − μ)/d, dμ += dσ²·(−2/d) Σ (x − μ).
void back_var(const Back& a) {
  const View x = a.G.view(a.in(0)), mu = a.G.view(a.in(1));
  const int d = x.last(), rows = x.rows();
  float* dx = a.to(0, {a.in(1)});
  float* dmu = a.to(1, {a.in(0)});
  for (int r = 0; r < rows && r < static_cast<int>(a.s.size()); ++r) {
    double sum = 0;
    for (int c = 0; c < d; ++c) {
      const double xc = x.data[r * d + c] - mu.data[r];
      if (dx) dx[r * d + c] += static_cast<float>(a.dy[r] * 2.0 * xc / d);
      sum += xc;
    }
    if (dmu) dmu[r] += static_cast<float>(a.dy[r] * -2.0 * sum / d);
  }
}

// μ = (1/d) Σ x: dx += dμ/d.
void back_mean(const Back& a) {
  const View x = a.G.view(a.in(0));
  const int d = x.last();
  if (float* dx = a.to(0))
    for (std::size_t r = 0; r < a.s.size(); ++r)
      for (int c = 0; c < d; ++c) dx[r * d + c] += a.dy[r] / static_cast<float>(d);
}

// p = exp(z − m)/s with m and s held fixed: dz += g·p, dm −= Σ g·p, ds −= Σ g·p / s.
void back_softmax(const Back& a) {
  const View sum = a.G.view(a.in(2));
  const int n = static_cast<int>(a.s.shape.back()), rows = static_cast<int>(a.s.size()) / n;
  const float* p = a.s.data.data();
  float* dz = a.to(0);
  float* dm = a.to(1, {a.s.id});
  float* ds = a.to(2, {a.s.id, a.in(2)});
  for (int r = 0; r < rows; ++r) {
    double gp = 0;
    for (int j = 0; j < n; ++j) {
      const double t = static_cast<double>(a.dy[r * n + j]) * p[r * n + j];
      if (dz) dz[r * n + j] += static_cast<float>(t);
      gp += t;
    }
    if (dm) dm[r] += static_cast<float>(-gp);
    if (ds) ds[r] += static_cast<float>(-gp / sum.data[r]);
  }
}

// The labels the loss read from one probability step, and each row's weight in the loss (1/N).
struct LossRows {
  std::vector<int> labels;  // −1: a row without a label
  double weight = 0;
};

// The softmax the cross-entropy loss reads, differentiated with the loss as one function of z:
// dL/dz_j = w·(p_j − [j = y]), with p_y − 1 computed as −Σ_{j≠y} p_j. Through the separate
// steps (g·p = −w, then s's and m's terms, w·p_y) it is −w + w·p_y, which at a confident answer
// (p_y ≈ 1) cancels in float32: the page's recompute and the native pass kept only 3–4 digits.
// dm and ds are still recorded (their own gradients), but their terms in dz are folded here.
void back_softmax_loss(const Back& a, const LossRows& rows) {
  const int n = static_cast<int>(a.s.shape.back());
  const float* p = a.s.data.data();
  float* dm = a.to(1, {a.s.id});
  float* ds = a.to(2, {a.s.id, a.in(2)});
  float* dz = a.to(0);
  const View sum = a.G.view(a.in(2));
  for (std::size_t r = 0; r < rows.labels.size(); ++r) {
    const int y = rows.labels[r];
    if (y < 0) continue;
    const float* pr = p + r * n;
    double rest = 0;  // Σ_{j≠y} p_j = 1 − p_y without the cancellation
    for (int j = 0; j < n; ++j)
      if (j != y) rest += pr[j];
    if (dz) {
      for (int j = 0; j < n; ++j)
        if (j != y) dz[r * n + j] += static_cast<float>(rows.weight * pr[j]);
      dz[r * n + y] += static_cast<float>(-rows.weight * rest);
    }
    const double gp = static_cast<double>(a.dy[r * n + y]) * pr[y];  // as back_softmax: Σ g·p
    if (dm) dm[r] += static_cast<float>(-gp);
    if (ds) ds[r] += static_cast<float>(-gp / sum.data[r]);
  }
}

// m = max_j x: the row's (first) maximum gets dm.
void back_rowmax(const Back& a) {
  const View x = a.G.view(a.in(0));
  const int n = x.last();
  float* dx = a.to(0);
  if (!dx) return;
  for (std::size_t r = 0; r < a.s.size(); ++r) {
    int arg = 0;
    for (int j = 1; j < n; ++j)
      if (x.data[r * n + j] > x.data[r * n + arg]) arg = j;
    dx[r * n + arg] += a.dy[r];
  }
}

// s = Σ exp(x − m): dx += ds·exp(x − m), dm −= ds·s.
void back_rowsum(const Back& a) {
  const View x = a.G.view(a.in(0)), m = a.G.view(a.in(1));
  const int n = x.last();
  float* dx = a.to(0, {a.in(1)});
  float* dm = a.to(1, {a.s.id});
  for (std::size_t r = 0; r < a.s.size(); ++r) {
    if (dx)
      for (int j = 0; j < n; ++j) {
        const float v = x.data[r * n + j];
        if (v != -std::numeric_limits<float>::infinity()) dx[r * n + j] += a.dy[r] * std::exp(v - m.data[r]);
      }
    if (dm) dm[r] += -a.dy[r] * a.s.data[r];
  }
}

// S̃ = S/√d_k + M: dS += dS̃/√d_k where the mask allows (a masked entry never reaches the loss).
void back_scale_mask(const Back& a) {
  const View mask = a.G.view(a.in(1));
  const float scale = attn_geom(a.m).scale;
  if (float* ds = a.to(0))
    for (std::size_t i = 0; i < a.s.size(); ++i)
      if (mask.data[i] == 0.0f) ds[i] += a.dy[i] * scale;
}

// Dimensions of a head step [B?, Tq, X] and its head's columns in the d-wide Q/K/V.
// A head's step: batch, query rows, its last dimension; head h's columns in Q (stride dq) and
// the columns of the K/V head it reads (stride dkv: grouped-query attention, model.h AttnGeom).
struct HeadDims {
  int B, Tq, X, dk, dq, q0, dkv, kv0;
};
HeadDims head_dims(const Back& a) {
  const auto& sh = a.s.shape;
  const int B = sh.size() == 3 ? sh[0] : 1;
  const AttnGeom g = attn_geom(a.m);
  return {B, sh[sh.size() - 2], sh.back(), g.hd, g.dq(), a.s.head * g.hd, g.dkv(), g.kv_head(a.s.head) * g.hd};
}

// S_h = Q_h K_hᵀ: dQ_h += dS·K_h, dK_h += dSᵀ·Q_h.
void back_scores(const Back& a) {
  const HeadDims h = head_dims(a);
  const View q = a.G.view(a.in(0)), k = a.G.view(a.in(1));
  float* dq = a.to(0, {a.in(1)});
  float* dk = a.to(1, {a.in(0)});
  const int Tk = h.X;
  for (int b = 0; b < h.B; ++b)
    for (int i = 0; i < h.Tq; ++i)
      for (int j = 0; j < Tk; ++j) {
        const float g = a.dy[(static_cast<std::size_t>(b) * h.Tq + i) * Tk + j];
        if (g == 0.0f) continue;
        const std::size_t qi = (static_cast<std::size_t>(b) * h.Tq + i) * h.dq + h.q0;
        const std::size_t kj = (static_cast<std::size_t>(b) * Tk + j) * h.dkv + h.kv0;
        for (int t = 0; t < h.dk; ++t) {
          if (dq) dq[qi + t] += g * k.data[kj + t];
          if (dk) dk[kj + t] += g * q.data[qi + t];
        }
      }
}

// C_h = A·V_h: dA += dC·V_hᵀ, dV_h += Aᵀ·dC.
void back_context(const Back& a) {
  const HeadDims h = head_dims(a);
  const View w = a.G.view(a.in(0)), v = a.G.view(a.in(1));
  const int Tk = w.shape.back();
  float* dw = a.to(0, {a.in(1)});
  float* dv = a.to(1, {a.in(0)});
  for (int b = 0; b < h.B; ++b)
    for (int i = 0; i < h.Tq; ++i)
      for (int j = 0; j < Tk; ++j) {
        const std::size_t wij = (static_cast<std::size_t>(b) * h.Tq + i) * Tk + j;
        const std::size_t vj = (static_cast<std::size_t>(b) * Tk + j) * h.dkv + h.kv0;
        const float* g = a.dy + (static_cast<std::size_t>(b) * h.Tq + i) * h.dk;
        double acc = 0;
        for (int t = 0; t < h.dk; ++t) {
          acc += static_cast<double>(g[t]) * v.data[vj + t];
          if (dv) dv[vj + t] += w.data[wij] * g[t];
        }
        if (dw) dw[wij] += static_cast<float>(acc);
      }
}

// C = [C_0 | C_1 | …]: each head gets its columns back.
void back_concat(const Back& a) {
  const AttnGeom g = attn_geom(a.m);
  const int d = g.dq(), dk = g.hd;
  const std::size_t rows = a.s.size() / d;
  for (std::size_t h = 0; h < a.s.inputs.size(); ++h) {
    float* dc = a.to(h);
    if (!dc) continue;
    for (std::size_t r = 0; r < rows; ++r)
      for (int t = 0; t < dk; ++t) dc[r * dk + t] += a.dy[r * d + h * dk + t];
  }
}

constexpr double kInvSqrt2Pi = 0.39894228040143267794;  // 1/√(2π)
constexpr double kSqrt2OverPi = 0.79788456080286535588;  // √(2/π)

// The function an activation step applies: the pooler's own (BERT: tanh, DistilBERT's
// pre-classifier: ReLU), every other the model's (feed-forward, masked-LM transform).
Activation step_activation(const Back& a) {
  return a.s.role == "pooler" ? a.m.arch.pooler : a.m.config.activation;
}

// dy/dx of one activation at x (y its output).
double activation_slope(Activation act, double x, double y) {
  switch (act) {
    case Activation::GELU:  // Φ(x) + x·φ(x)
      return 0.5 * (1.0 + std::erf(x / std::sqrt(2.0))) + x * std::exp(-0.5 * x * x) * kInvSqrt2Pi;
    case Activation::GELUTanh: {  // ½(1 + tanh u) + ½x(1 − tanh² u)·u', u = √(2/π)(x + 0.044715x³)
      const double th = std::tanh(kSqrt2OverPi * (x + 0.044715 * x * x * x));
      return 0.5 * (1.0 + th) + 0.5 * x * (1.0 - th * th) * kSqrt2OverPi * (1.0 + 3.0 * 0.044715 * x * x);
    }
    case Activation::Tanh:
      return 1.0 - y * y;
    case Activation::SiLU: {  // σ(x)·(1 + x·(1 − σ(x)))
      const double sg = 1.0 / (1.0 + std::exp(-x));
      return sg * (1.0 + x * (1.0 - sg));
    }
    default:
      return x > 0 ? 1.0 : 0.0;
  }
}

// ReLU: dx = dy·[x > 0]; exact GELU: dx = dy·(Φ(x) + x·φ(x)); gelu_new and tanh: their slopes.
void back_activation(const Back& a) {
  const View x = a.G.view(a.in(0));
  const Activation act = step_activation(a);
  if (float* dx = a.to(0, {a.in(0)}))
    for (std::size_t i = 0; i < a.s.size(); ++i)
      dx[i] += static_cast<float>(a.dy[i] * activation_slope(act, x.data[i], a.s.data[i]));
}

// X_t = E[id_t] (or P_t = E_pos[t]): the table's row gets dX_t.
void back_lookup(const Back& a) {
  const int d = a.s.shape.back(), rows = static_cast<int>(a.s.size()) / d;
  const bool tokens = a.s.inputs.size() >= 2;
  const View ids = tokens ? a.G.view(a.in(0)) : View{};
  float* dt = a.to(tokens ? 1 : 0, tokens ? std::vector<std::string>{a.in(0)} : std::vector<std::string>{});
  if (!dt) return;
  for (int r = 0; r < rows; ++r) {
    const int row = tokens ? static_cast<int>(ids.data[r]) : r;
    for (int c = 0; c < d; ++c) dt[static_cast<std::size_t>(row) * d + c] += a.dy[r * d + c];
  }
}

// L = Z·Eᵀ (+ b: a checkpoint's masked-LM decoder bias) (the tied output projection):
// dZ += dL·E, dE += dLᵀ·Z, db += Σ_rows dL. The table's gradient also gets the lookup's term.
void back_logits(const Back& a) {
  const View z = a.G.view(a.in(0)), e = a.G.view(a.in(1));
  const int S = z.rows(), d = z.last(), V = a.s.shape.back();
  float* dz = a.to(0, {a.in(1)});
  float* de = a.to(1, {a.in(0)});
  float* db = a.s.inputs.size() > 2 ? a.to(2) : nullptr;
  for (int t = 0; t < S; ++t)
    for (int v = 0; v < V; ++v) {
      const float g = a.dy[t * V + v];
      if (db) db[v] += g;
      if (g == 0.0f) continue;
      for (int k = 0; k < d; ++k) {
        if (dz) dz[t * d + k] += g * e.data[v * d + k];
        if (de) de[v * d + k] += g * z.data[t * d + k];
      }
    }
}

using Rule = void (*)(const Back&);
const std::unordered_map<std::string, Rule>& rules() {
  static const std::unordered_map<std::string, Rule> r = [] {
    std::unordered_map<std::string, Rule> all = {
      {"linear", back_linear},   {"add", back_add},         {"copy", back_copy},       {"pool", back_pool},
      {"layernorm", back_layernorm}, {"var", back_var},     {"mean", back_mean},       {"softmax", back_softmax},
      {"rowmax", back_rowmax},   {"rowsum", back_rowsum},   {"scale_mask", back_scale_mask},
      {"scores", back_scores},   {"context", back_context}, {"concat", back_concat},
      {"activation", back_activation}, {"lookup", back_lookup}, {"logits", back_logits}};
    for (const OpRule& u : op_rules()) all.emplace(u.kind, u.backward);  // the modern decoders' units (ops.h)
    return all;
  }();
  return r;
}

// ---- the loss ---------------------------------------------------------------------------

// −(1/N) Σ log p[row, label_row] over the rows with a label; seeds dL/dp and keeps the rows
// for back_softmax_loss. A confident right answer's −log p_y is −log1p(−Σ_{j≠y} p_j): log of a
// float32 p_y ≈ 1 would keep only the digits of its rounding.
void cross_entropy(const Step& probs, const std::vector<int>& labels, double weight, Grads& G, double& loss,
                   std::unordered_map<std::string, LossRows>& seeded) {
  const int n = probs.shape.back();
  float* dp = G.of(probs.id, {"loss"});
  for (std::size_t r = 0; r < labels.size(); ++r) {
    if (labels[r] < 0) continue;
    const float p = probs.data[r * n + labels[r]];
    if (!(p > 0.0f))
      throw Error("the loss is not finite: " + probs.id + "[" + std::to_string(r) + ", " + std::to_string(labels[r]) +
                  "] (the probability of the right answer) is 0");
    double rest = 0;
    for (int j = 0; j < n; ++j)
      if (j != labels[r]) rest += probs.data[r * n + j];
    loss += (p > 0.5f ? -std::log1p(-rest) : -std::log(static_cast<double>(p))) * weight;
    dp[r * n + labels[r]] += static_cast<float>(-weight / p);
  }
  seeded[probs.id] = {labels, weight};
}

// Masked-word head: one label per (sentence, position) row of mlm.probs, the next of
// m.mask_targets at each [MASK], −1 elsewhere (padding rows included).
std::vector<int> mask_labels(const Model& m, const Trace& t) {
  const auto& src = t.text.source_tokens;
  std::size_t T = 0, next = 0;
  for (const auto& toks : src) T = std::max(T, toks.size());
  std::vector<int> labels(src.size() * T, -1);
  const Vocab vocab(t.text.vocab);
  for (std::size_t b = 0; b < src.size(); ++b)
    for (std::size_t i = 0; i < src[b].size(); ++i)
      if (src[b][i] == "[MASK]") labels[b * T + i] = vocab.id(m.mask_targets.at(next++));
  return labels;
}

double seed_loss(const Model& m, const Trace& t, Grads& G, std::unordered_map<std::string, LossRows>& seeded) {
  double loss = 0;
  bool any = false;
  if (m.config.masked_lm && !m.mask_targets.empty()) {
    const std::vector<int> labels = mask_labels(m, t);
    cross_entropy(t.at("mlm.probs"), labels, 1.0 / m.mask_targets.size(), G, loss, seeded);
    any = true;
  }
  if (m.config.num_labels > 0 && (m.label >= 0 || m.label2 >= 0)) {
    std::vector<int> labels{m.label};
    if (t.text.source_tokens.size() > 1) labels.push_back(m.label2);
    int n = 0;
    for (int l : labels) n += l >= 0;
    cross_entropy(t.at("cls.probs"), labels, 1.0 / n, G, loss, seeded);
    any = true;
  }
  if (m.arch.lm_head) {  // GPT-2: position t predicts the text's token t+1 (HF's shifted labels)
    const Step& ids = t.at("token_ids");
    std::vector<int> labels(ids.size(), -1);
    for (std::size_t i = 0; i + 1 < ids.size(); ++i) labels[i] = static_cast<int>(ids.data[i + 1]);
    if (labels.size() < 2) throw Error("the backward pass of a language model needs at least two tokens (the next one is the target)");
    cross_entropy(t.at("probs"), labels, 1.0 / (labels.size() - 1), G, loss, seeded);
    any = true;
  }
  if (m.config.decoder_layers > 0) {
    // Position t predicts the decoder input's token t+1; the last position predicts </s>.
    const auto& tgt = t.text.target_tokens;
    const Vocab vocab(t.text.vocab);
    std::vector<int> labels;
    for (std::size_t i = 1; i < tgt.size(); ++i) labels.push_back(vocab.id(tgt[i]));
    labels.push_back(vocab.id("</s>"));
    cross_entropy(t.at("probs"), labels, 1.0 / labels.size(), G, loss, seeded);
    any = true;
  }
  if (!any)
    throw Error("the backward pass needs something to predict: a classifier with \"label\" (config.num_labels > 0) "
                "or a decoder (config.decoder_layers > 0) or a masked-word head with \"mask_targets\" (config.masked_lm) or a "
                "language-model head (GPT2LMHeadModel)" +
                std::string(m.arch.model_type.empty() ? "" : "; a checkpoint's label and [MASK] targets are the run options "
                                                             "\"label\" and \"mask_targets\" (CLI --label, --mask-targets)"));
  return loss;
}

// ---- recording ----------------------------------------------------------------------------

std::string tex_id(const std::string& id) {
  std::string out;
  for (char c : id) out += c == '_' ? std::string("\\_") : std::string(1, c);
  return out;
}

void record_grad(Trace& t, Grads& G, const std::string& id, const std::vector<float>& g, const std::vector<int>& shape,
                 const std::vector<Axis>& axes, Place place, const std::string& title) {
  const std::string of = id;  // `id` may live in the trace, which t.add() can reallocate
  // A gradient that overflows is recorded as it is: the session's overflow scan names the
  // first such step (session.cpp), the trainer stops on a non-finite gradient norm.
  Dims dims;
  for (std::size_t k = 0; k < shape.size(); ++k) dims.push_back({shape[k], k < axes.size() ? axes[k] : Axis{}});
  place.section = "backward";
  const std::vector<std::string> from = G.from(id);
  Step& s = t.add("grad." + id, "grad", dims, place, "Gradient of the loss with respect to " + title,
                  "\\frac{\\partial L}{\\partial\\, \\text{" + tex_id(id) + "}}", "grad", from,
                  from.size() > 2 ? "Summed over every step this tensor feeds." : "");
  s.of = of;
  std::copy(g.begin(), g.end(), s.data.begin());
}

}  // namespace

void run_backward(const Model& m, Trace& t, bool activations, bool fused_loss) {
  Grads G(t, m);
  for (const Param& p : m.params) G.set_live(p.id);
  const std::size_t n = t.size();
  for (std::size_t i = 0; i < n; ++i) {  // a step is live if a parameter (or given input) reaches it
    const Step& s = t[i];
    bool live = s.kind == "given";
    for (const auto& in : s.inputs) live = live || G.live(in);
    if (live) G.set_live(s.id);
  }
  std::unordered_map<std::string, LossRows> seeded;  // probability step → the loss's rows
  const double loss = seed_loss(m, t, G, seeded);
  std::set<std::string> folded;  // row max and sum steps of the softmaxes the loss reads
  if (!fused_loss) seeded.clear();
  for (const auto& [id, rows] : seeded)
    if (const Step* p = t.find(id)) folded.insert(p->inputs.begin() + 1, p->inputs.end());
  for (std::size_t i = n; i-- > 0;) {
    const Step& s = t[i];
    const auto* g = G.find(s.id);
    if (!g) continue;
    const Back b{s, g->data(), G, m, folded.count(s.id) > 0};
    auto loss_rows = seeded.find(s.id);
    auto rule = rules().find(s.kind);
    if (s.kind == "softmax" && loss_rows != seeded.end())
      back_softmax_loss(b, loss_rows->second);
    else if (rule != rules().end())
      rule->second(b);
  }

  std::vector<std::string> loss_from;  // the probability steps the loss read
  for (const char* id : {"cls.probs", "mlm.probs", "probs"})
    if (G.find(id)) loss_from.push_back(id);
  Step& L = t.add("loss", "loss", Dims{{1, Axis{"sequence", ""}}}, Place{"loss", -1, "loss", -1}, "Loss (cross-entropy)",
                  "L = -\\frac{1}{N}\\sum_{i} \\log p_{i,\\,y_i}", "loss",
                  loss_from,
                  "The mean of −log(probability of the right answer).");
  L.data[0] = static_cast<float>(loss);
  if (!std::isfinite(L.data[0])) throw Error("the loss is not finite");
  for (std::size_t i = n; activations && i-- > 0;) {
    const Step& s = t[i];
    if (const auto* g = G.find(s.id)) {
      const std::vector<int> shape = s.shape;
      const std::vector<Axis> axes = s.axes;
      const Place place = s.place;
      const std::string title = s.title;
      record_grad(t, G, s.id, *g, shape, axes, place, title);
    }
  }
  for (const Param& p : m.params)
    if (const auto* g = G.find(p.id))
      record_grad(t, G, p.id, *g, [&] { const auto s = p.shape(); return std::vector<int>(s.begin(), s.end()); }(), p.axes, p.place,
                  "the parameter " + p.id);
}

}  // namespace ew
