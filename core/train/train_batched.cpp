// train_batched.cpp — the batched forward and backward passes of the fast training path
// (train_batched.h), and the tokenisation of its minibatches. Layout: rows are [B,T] flattened
// (M = B·T), features last; a head h of q/k/v/ctx is columns h·d_k … (h+1)·d_k − 1 of its M×d
// buffer (no split or concat copy).
#include "train/train_batched.h"

#include <algorithm>
#include <cstdint>
#include <cmath>
#include <cstring>

#include "kernels/kernels.h"
#include "model/error.h"
#include "model/naming.h"
#include "model/positional.h"
#include "text/tokenizer.h"
#include "trace/generate.h"

namespace ew {

namespace {

struct NormIx { int g = -1, b = -1; };
struct AttnIx { int Wq, bq, Wk, bk, Wv, bv, Wo, bo; };
struct FfnIx { int W1, b1, W2, b2; };
struct LayerIx { NormIx ln1, ln2, ln3; AttnIx self{}, cross{}; FfnIx ffn{}; };

struct NormActs { float *y, *mean, *var; };           // y: M×d, mean/var: M
struct AttnActs { float *q, *k, *v, *att, *ctx; };     // q, ctx: Mq×d; k, v: Mk×d; att: B×H×Tq×Tk
struct LayerActs {
  NormActs ln1{}, ln2{}, ln3{};
  AttnActs self{}, cross{};
  float *r1 = nullptr, *r2 = nullptr, *pre = nullptr, *hid = nullptr, *dact = nullptr;  // r: M×d; the rest M×d_ff
};

}  // namespace

struct BatchedPass::Impl {
  // The model's shape.
  int d = 0, H = 0, dk = 0, F = 0, L = 0, Ld = 0, V = 0, labels = 0;
  float eps = 0, scale = 1;
  bool causal = false;
  bool mlm = false;  // the masked-word head (else a classifier or a decoder)
  Activation act = Activation::GELU;
  // Parameter indices (into Model::params, and so into the gradient offsets).
  int emb = -1;
  std::vector<LayerIx> enc_ix, dec_ix;
  NormIx final_ln, dec_final_ln;
  int cls_W = -1, cls_b = -1;
  // This step's parameter values and gradients, by index.
  std::vector<const float*> w;
  std::vector<float*> g;
  // Capacity (batch, source and decoder lengths, [MASK]s) and the buffers carved from `mem`.
  int Bc = 0, Tc = 0, Sc = 0, Kc = 0;
  std::vector<float> mem;
  std::vector<LayerActs> enc, dec;
  std::vector<float*> x, y;  // residual streams: x[l] enters encoder layer l (L+1), y[j] decoder layer j
  NormActs enc_out{}, dec_out{};
  float *logits = nullptr, *pe = nullptr;
  float* mlm_z = nullptr;  // Kc×d: the encoder's output rows at the [MASK]s, then their gradient
  float *dres = nullptr, *dres_d = nullptr, *dln = nullptr, *dq = nullptr, *dk_ = nullptr, *dv = nullptr,
        *dctx = nullptr, *dhid = nullptr, *denc = nullptr, *s_scores = nullptr, *s_scaled = nullptr;
  // What set_ablation switched off, by layer: heads as bit masks, feed-forward blocks (empty: none).
  std::vector<std::uint64_t> off_enc, off_self, off_cross;  // num_heads ≤ 64 (recipe.h)
  std::vector<char> off_enc_ffn, off_dec_ffn;
};

namespace {

using Impl = BatchedPass::Impl;

// ---- buffers --------------------------------------------------------------------------

struct Carver {
  float* base = nullptr;
  std::size_t n = 0;
  static float* take(void* self, std::size_t k) {
    auto* c = static_cast<Carver*>(self);
    float* p = c->base ? c->base + c->n : nullptr;
    c->n += k;
    return p;
  }
};

void layout_norm(NormActs& n, std::size_t M, std::size_t d, Carver& c) {
  n.y = Carver::take(&c, M * d);
  n.mean = Carver::take(&c, M);
  n.var = Carver::take(&c, M);
}

void layout_attn(AttnActs& a, std::size_t B, std::size_t Tq, std::size_t Tk, std::size_t d, std::size_t H, Carver& c) {
  a.q = Carver::take(&c, B * Tq * d);
  a.k = Carver::take(&c, B * Tk * d);
  a.v = Carver::take(&c, B * Tk * d);
  a.att = Carver::take(&c, B * H * Tq * Tk);
  a.ctx = Carver::take(&c, B * Tq * d);
}

// Every activation and scratch buffer for batches up to Bc × Tc (source) × Sc (decoder).
void layout(Impl& I) {
  const std::size_t B = I.Bc, T = I.Tc, S = I.Sc, d = I.d, F = I.F, H = I.H;
  const std::size_t Me = B * T, Md = B * S, Mx = std::max(Me, Md), Tx = std::max(T, S);
  Carver c;
  for (int pass = 0; pass < 2; ++pass) {
    c.n = 0;
    for (auto& p : I.x) p = Carver::take(&c, Me * d);
    for (auto& a : I.enc) {
      layout_norm(a.ln1, Me, d, c);
      layout_norm(a.ln2, Me, d, c);
      layout_attn(a.self, B, T, T, d, H, c);
      a.r1 = Carver::take(&c, Me * d);
      a.pre = Carver::take(&c, Me * F);
      a.hid = Carver::take(&c, Me * F);
      a.dact = Carver::take(&c, Me * F);
    }
    layout_norm(I.enc_out, Me, d, c);
    for (auto& p : I.y) p = Carver::take(&c, Md * d);
    for (auto& a : I.dec) {
      for (NormActs* n : {&a.ln1, &a.ln2, &a.ln3}) layout_norm(*n, Md, d, c);
      layout_attn(a.self, B, S, S, d, H, c);
      layout_attn(a.cross, B, S, T, d, H, c);
      a.r1 = Carver::take(&c, Md * d);
      a.r2 = Carver::take(&c, Md * d);
      a.pre = Carver::take(&c, Md * F);
      a.hid = Carver::take(&c, Md * F);
      a.dact = Carver::take(&c, Md * F);
    }
    layout_norm(I.dec_out, Md, d, c);
    const std::size_t K = I.Kc;
    I.logits = Carver::take(&c, I.Ld > 0 ? Md * I.V : I.mlm ? K * I.V : B * I.labels);
    I.mlm_z = Carver::take(&c, I.mlm ? K * d : 0);
    I.pe = Carver::take(&c, Tx * d);
    for (float** p : {&I.dres, &I.dln, &I.dq, &I.dk_, &I.dv, &I.dctx}) *p = Carver::take(&c, Mx * d);
    I.dres_d = Carver::take(&c, Md * d);
    I.denc = Carver::take(&c, Me * d);
    I.dhid = Carver::take(&c, Mx * F);
    I.s_scores = Carver::take(&c, Tx * Tx);
    I.s_scaled = Carver::take(&c, Tx);
    if (pass == 0) {
      I.mem.assign(c.n, 0.0f);
      c.base = I.mem.data();
    }
  }
  sinusoidal_positional(I.pe, static_cast<int>(Tx), I.d);
}

// ---- forward pieces -------------------------------------------------------------------

// out (M×N) = inp (M×K) · W (K×N) + b
void linear_forward(float* out, const float* inp, const float* W, const float* b, int M, int K, int N) {
  ew_f32_matmul(out, N, inp, K, W, N, b, M, K, N, Activation::None);
}

// x (B×T×d) = E[ids] + PE[t]
void embed(float* x, const float* E, const float* pe, const int* ids, int B, int T, int d) {
  for (int bt = 0; bt < B * T; ++bt) {
    const float* e = E + static_cast<std::size_t>(ids[bt]) * d;
    const float* p = pe + static_cast<std::size_t>(bt % T) * d;
    float* o = x + static_cast<std::size_t>(bt) * d;
    for (int c = 0; c < d; ++c) o[c] = e[c] + p[c];
  }
}

// The keys row i of example b may see: a prefix (padding at the end, causal below i).
inline int valid_keys(const int* kv_len, int b, int i, bool causal) {
  return causal ? std::min(kv_len[b], i + 1) : kv_len[b];
}

// A.ctx (B×Tq×d) = per head softmax(q_h·k_hᵀ·scale over the valid keys) · v_h; A.att keeps
// the weights (B×H×Tq×Tk, 0 on masked keys).
// Heads whose bit is set in `off` are switched off: their context columns are 0 (set_ablation).
void attention_forward(Impl& I, AttnActs& A, const int* kv_len, bool causal, int B, int Tq, int Tk, std::uint64_t off) {
  const int d = I.d, dk = I.dk;
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < I.H; ++h) {
      const std::size_t q0 = static_cast<std::size_t>(b) * Tq * d + h * dk, k0 = static_cast<std::size_t>(b) * Tk * d + h * dk;
      float* att = A.att + (static_cast<std::size_t>(b) * I.H + h) * Tq * Tk;
      ew_f32_scores(I.s_scores, Tk, A.q + q0, d, A.k + k0, d, Tq, Tk, dk);
      for (int i = 0; i < Tq; ++i) {
        const int n = valid_keys(kv_len, b, i, causal);
        float m, s;
        ew_f32_softmax_row(I.s_scaled, att + i * Tk, &m, &s, I.s_scores + i * Tk, nullptr, n, I.scale);
        std::fill(att + i * Tk + n, att + (i + 1) * Tk, 0.0f);
      }
      ew_f32_matmul(A.ctx + q0, d, att, Tk, A.v + k0, d, nullptr, Tq, Tk, dk, Activation::None);
      if (off >> h & 1u)
        for (int i = 0; i < Tq; ++i) std::fill_n(A.ctx + q0 + static_cast<std::size_t>(i) * d, dk, 0.0f);
    }
}

// The switched-off heads (bit h) or feed-forward block of layer l, from set_ablation's lists.
std::uint64_t heads_off(const std::vector<std::uint64_t>& off, int l) { return l < static_cast<int>(off.size()) ? off[l] : 0u; }
bool ffn_off(const std::vector<char>& off, int l) { return l < static_cast<int>(off.size()) && off[l]; }

// r = x + MHA(LN1(x), kv) with kv = LN1(x) (self) or the encoder output (cross).
void attn_block_forward(Impl& I, float* r, const float* x, NormActs& ln, NormIx lx, AttnActs& A, const AttnIx& ax,
                        const float* kv_src, const int* kv_len, bool causal, int B, int Tq, int Tk, std::uint64_t off = 0) {
  const int d = I.d, Mq = B * Tq, Mk = B * Tk;
  ew_f32_layernorm(ln.y, ln.mean, ln.var, x, I.w[lx.g], I.w[lx.b], Mq, d, I.eps);
  const float* kv = kv_src ? kv_src : ln.y;
  linear_forward(A.q, ln.y, I.w[ax.Wq], I.w[ax.bq], Mq, d, d);
  linear_forward(A.k, kv, I.w[ax.Wk], I.w[ax.bk], Mk, d, d);
  linear_forward(A.v, kv, I.w[ax.Wv], I.w[ax.bv], Mk, d, d);
  attention_forward(I, A, kv_len, causal, B, Tq, Tk, off);
  linear_forward(r, A.ctx, I.w[ax.Wo], I.w[ax.bo], Mq, d, d);
  for (std::size_t i = 0; i < static_cast<std::size_t>(Mq) * d; ++i) r[i] += x[i];
}

// y (n) = act(x) and dydx = act'(x), kept for the backward pass.
void activation_forward(float* y, float* dydx, const float* x, int n, Activation act) {
  if (act == Activation::GELU) return ew_f32_gelu_grad(y, dydx, x, n);
  for (int i = 0; i < n; ++i) {
    y[i] = ew_activation(x[i], act);
    dydx[i] = act == Activation::ReLU ? (x[i] > 0.0f ? 1.0f : 0.0f) : 1.0f;
  }
}

// out = x + act(LN(x)·W1 + b1)·W2 + b2
void ffn_block_forward(Impl& I, float* out, const float* x, NormActs& ln, NormIx lx, LayerActs& a, const FfnIx& f,
                       int M, bool off = false) {
  const int d = I.d, F = I.F;
  ew_f32_layernorm(ln.y, ln.mean, ln.var, x, I.w[lx.g], I.w[lx.b], M, d, I.eps);
  linear_forward(a.pre, ln.y, I.w[f.W1], I.w[f.b1], M, d, F);
  activation_forward(a.hid, a.dact, a.pre, M * F, I.act);
  if (off) std::fill_n(a.hid, static_cast<std::size_t>(M) * F, 0.0f);  // switched off (set_ablation)
  linear_forward(out, a.hid, I.w[f.W2], I.w[f.b2], M, F, d);
  for (std::size_t i = 0; i < static_cast<std::size_t>(M) * d; ++i) out[i] += x[i];
}

void encoder_forward(Impl& I, const TokenBatch& b) {
  const int M = b.B * b.T;
  embed(I.x[0], I.w[I.emb], I.pe, b.src.data(), b.B, b.T, I.d);
  for (int l = 0; l < I.L; ++l) {
    LayerActs& a = I.enc[l];
    const LayerIx& ix = I.enc_ix[l];
    attn_block_forward(I, a.r1, I.x[l], a.ln1, ix.ln1, a.self, ix.self, nullptr, b.src_len.data(), I.causal, b.B, b.T,
                       b.T, heads_off(I.off_enc, l));
    ffn_block_forward(I, I.x[l + 1], a.r1, a.ln2, ix.ln2, a, ix.ffn, M, ffn_off(I.off_enc_ffn, l));
  }
  ew_f32_layernorm(I.enc_out.y, I.enc_out.mean, I.enc_out.var, I.x[I.L], I.w[I.final_ln.g], I.w[I.final_ln.b], M,
                   I.d, I.eps);
}

void decoder_forward(Impl& I, const TokenBatch& b) {
  const int M = b.B * b.S;
  embed(I.y[0], I.w[I.emb], I.pe, b.dec_in.data(), b.B, b.S, I.d);
  for (int j = 0; j < I.Ld; ++j) {
    LayerActs& a = I.dec[j];
    const LayerIx& ix = I.dec_ix[j];
    attn_block_forward(I, a.r1, I.y[j], a.ln1, ix.ln1, a.self, ix.self, nullptr, b.dec_len.data(), true, b.B, b.S, b.S,
                       heads_off(I.off_self, j));
    attn_block_forward(I, a.r2, a.r1, a.ln2, ix.ln2, a.cross, ix.cross, I.enc_out.y, b.src_len.data(), false, b.B, b.S,
                       b.T, heads_off(I.off_cross, j));
    ffn_block_forward(I, I.y[j + 1], a.r2, a.ln3, ix.ln3, a, ix.ffn, M, ffn_off(I.off_dec_ffn, j));
  }
  ew_f32_layernorm(I.dec_out.y, I.dec_out.mean, I.dec_out.var, I.y[I.Ld], I.w[I.dec_final_ln.g],
                   I.w[I.dec_final_ln.b], M, I.d, I.eps);
  // Logits tied to the embedding table: (M×d)·(V×d)ᵀ.
  ew_f32_matmul_nt(I.logits, I.V, I.dec_out.y, I.d, I.w[I.emb], I.d, M, I.d, I.V, false);
}

// ---- the loss ---------------------------------------------------------------------------

// Row (n logits) → softmax in place; returns −log p[label] and leaves w·(p − onehot) in the
// row (dL/dlogits for a loss weighted w).
double softmax_xent_row(float* row, int n, int label, float w) {
  const float m = ew_f32_rmax(row, n);
  const float sum = ew_f32_raddexpminusmax(row, row, n, m);
  ew_f32_vscale(row, row, n, 1.0f / sum);
  const double loss = -std::log(static_cast<double>(row[label]));
  row[label] -= 1.0f;
  for (int j = 0; j < n; ++j) row[j] *= w;
  return loss;
}

// Mean over examples of each one's mean token cross-entropy; dL/dlogits left in I.logits.
double decoder_loss(Impl& I, const TokenBatch& b) {
  double total = 0;
  for (int e = 0; e < b.B; ++e) {
    const int n = b.dec_len[e];
    double loss = 0;
    for (int s = 0; s < b.S; ++s) {
      float* row = I.logits + (static_cast<std::size_t>(e) * b.S + s) * I.V;
      if (s >= n) {
        std::fill(row, row + I.V, 0.0f);
        continue;
      }
      loss += softmax_xent_row(row, I.V, b.dec_out[e * b.S + s], static_cast<float>(1.0 / (static_cast<double>(b.B) * n)));
    }
    total += loss / n;
  }
  return total / b.B;
}

double classifier_loss(Impl& I, const TokenBatch& b) {
  double total = 0;
  for (int e = 0; e < b.B; ++e) {
    const int y = b.label[e];
    if (y < 0 || y >= I.labels)
      throw Error("label " + std::to_string(y) + " is out of range: the model has " + std::to_string(I.labels) + " labels");
    total += softmax_xent_row(I.logits + static_cast<std::size_t>(e) * I.labels, I.labels, y, 1.0f / b.B);
  }
  return total / b.B;
}

// ---- backward pieces --------------------------------------------------------------------

// dinp (M×K) (+)= dout·Wᵀ; dW (K×N) += inpᵀ·dout; db (N) += Σ rows of dout.
void linear_backward(float* dinp, float* dW, float* db, const float* dout, const float* inp, const float* W, int M,
                     int K, int N, bool acc_dinp) {
  ew_f32_matmul_nt(dinp, K, dout, N, W, N, M, N, K, acc_dinp);
  ew_f32_matmul_tn(dW, N, inp, K, dout, N, K, M, N, true);
  for (int i = 0; i < M; ++i) {
    const float* r = dout + static_cast<std::size_t>(i) * N;
    for (int j = 0; j < N; ++j) db[j] += r[j];
  }
}

// dx (M×C) += dL/dx of y = LN(x)·γ + β given dy; dγ, dβ +=.
void layernorm_backward(float* dx, float* dg, float* db, const float* dy, const float* x, const float* g,
                        const NormActs& n, float eps, int M, int C) {
  for (int i = 0; i < M; ++i) {
    const float* xi = x + static_cast<std::size_t>(i) * C;
    const float* dyi = dy + static_cast<std::size_t>(i) * C;
    float* dxi = dx + static_cast<std::size_t>(i) * C;
    const float mean = n.mean[i], rstd = 1.0f / std::sqrt(n.var[i] + eps);
    float dmean = 0, dnorm_mean = 0;
    for (int c = 0; c < C; ++c) {
      const float dn = g[c] * dyi[c];
      dmean += dn;
      dnorm_mean += dn * (xi[c] - mean) * rstd;
    }
    dmean /= C;
    dnorm_mean /= C;
    for (int c = 0; c < C; ++c) {
      const float norm = (xi[c] - mean) * rstd;
      dg[c] += norm * dyi[c];
      db[c] += dyi[c];
      dxi[c] += rstd * (g[c] * dyi[c] - dmean - norm * dnorm_mean);
    }
  }
}

// Given dctx, writes dq (B×Tq×d) and dk, dv (B×Tk×d) of the attention (every column once).
void attention_backward(Impl& I, const AttnActs& A, int B, int Tq, int Tk) {
  const int d = I.d, dk = I.dk;
  float* dS = I.s_scores;  // Tq×Tk: dA, then dL/dscores in place
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < I.H; ++h) {
      const std::size_t q0 = static_cast<std::size_t>(b) * Tq * d + h * dk, k0 = static_cast<std::size_t>(b) * Tk * d + h * dk;
      const float* att = A.att + (static_cast<std::size_t>(b) * I.H + h) * Tq * Tk;
      ew_f32_matmul_nt(dS, Tk, I.dctx + q0, d, A.v + k0, d, Tq, dk, Tk, false);       // dA = dC·Vᵀ
      ew_f32_matmul_tn(I.dv + k0, d, att, Tk, I.dctx + q0, d, Tk, Tq, dk, false);   // dV = Aᵀ·dC
      for (int i = 0; i < Tq; ++i) {  // softmax: dS̃ = A ⊙ (dA − Σ A⊙dA), then ·scale
        float* r = dS + i * Tk;
        const float* a = att + i * Tk;
        float dot = 0;
        for (int j = 0; j < Tk; ++j) dot += a[j] * r[j];
        for (int j = 0; j < Tk; ++j) r[j] = I.scale * a[j] * (r[j] - dot);
      }
      ew_f32_matmul(I.dq + q0, d, dS, Tk, A.k + k0, d, nullptr, Tq, Tk, dk, Activation::None);  // dQ = dS·K
      ew_f32_matmul_tn(I.dk_ + k0, d, dS, Tk, A.q + q0, d, Tk, Tq, dk, false);                // dK = dSᵀ·Q
    }
}

// dres holds dL/dr of r = x + MHA(LN(x), kv); adds the block's share into it (→ dL/dx).
// A cross block's k/v gradients go into dkv_src (the encoder output's gradient), +=.
void attn_block_backward(Impl& I, float* dres, const float* x, const NormActs& ln, NormIx lx, const AttnActs& A,
                         const AttnIx& ax, const float* kv_src, float* dkv_src, int B, int Tq, int Tk) {
  const int d = I.d, Mq = B * Tq, Mk = B * Tk;
  linear_backward(I.dctx, I.g[ax.Wo], I.g[ax.bo], dres, A.ctx, I.w[ax.Wo], Mq, d, d, false);
  attention_backward(I, A, B, Tq, Tk);
  linear_backward(I.dln, I.g[ax.Wq], I.g[ax.bq], I.dq, ln.y, I.w[ax.Wq], Mq, d, d, false);
  const float* kv = kv_src ? kv_src : ln.y;
  float* dkv = kv_src ? dkv_src : I.dln;
  linear_backward(dkv, I.g[ax.Wk], I.g[ax.bk], I.dk_, kv, I.w[ax.Wk], Mk, d, d, true);
  linear_backward(dkv, I.g[ax.Wv], I.g[ax.bv], I.dv, kv, I.w[ax.Wv], Mk, d, d, true);
  layernorm_backward(dres, I.g[lx.g], I.g[lx.b], I.dln, x, I.w[lx.g], ln, I.eps, Mq, d);
}

// dres holds dL/dout of out = x + FFN(LN(x)); adds the block's share (→ dL/dx).
void ffn_block_backward(Impl& I, float* dres, const float* x, const NormActs& ln, NormIx lx, const LayerActs& a,
                        const FfnIx& f, int M) {
  const int d = I.d, F = I.F;
  linear_backward(I.dhid, I.g[f.W2], I.g[f.b2], dres, a.hid, I.w[f.W2], M, F, d, false);
  for (std::size_t i = 0; i < static_cast<std::size_t>(M) * F; ++i) I.dhid[i] *= a.dact[i];
  linear_backward(I.dln, I.g[f.W1], I.g[f.b1], I.dhid, ln.y, I.w[f.W1], M, d, F, false);
  layernorm_backward(dres, I.g[lx.g], I.g[lx.b], I.dln, x, I.w[lx.g], ln, I.eps, M, d);
}

// dE[ids[b,t]] += dx[b,t] for the unpadded positions.
void embed_backward(float* dE, const float* dx, const int* ids, const int* len, int B, int T, int d) {
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < len[b]; ++t) {
      const float* src = dx + (static_cast<std::size_t>(b) * T + t) * d;
      float* dst = dE + static_cast<std::size_t>(ids[b * T + t]) * d;
      for (int c = 0; c < d; ++c) dst[c] += src[c];
    }
}

// I.denc holds dL/d(encoder output); back through the final LN, the layers, the embedding.
void encoder_backward(Impl& I, const TokenBatch& b) {
  const int M = b.B * b.T, d = I.d;
  std::fill(I.dres, I.dres + static_cast<std::size_t>(M) * d, 0.0f);
  layernorm_backward(I.dres, I.g[I.final_ln.g], I.g[I.final_ln.b], I.denc, I.x[I.L], I.w[I.final_ln.g], I.enc_out,
                     I.eps, M, d);
  for (int l = I.L - 1; l >= 0; --l) {
    const LayerActs& a = I.enc[l];
    const LayerIx& ix = I.enc_ix[l];
    ffn_block_backward(I, I.dres, a.r1, a.ln2, ix.ln2, a, ix.ffn, M);
    attn_block_backward(I, I.dres, I.x[l], a.ln1, ix.ln1, a.self, ix.self, nullptr, nullptr, b.B, b.T, b.T);
  }
  embed_backward(I.g[I.emb], I.dres, b.src.data(), b.src_len.data(), b.B, b.T, d);
}

// I.logits holds dL/dlogits; back to the embedding table (tied) and into I.denc.
void decoder_backward(Impl& I, const TokenBatch& b) {
  const int M = b.B * b.S, d = I.d;
  ew_f32_matmul_tn(I.g[I.emb], d, I.logits, I.V, I.dec_out.y, d, I.V, M, d, true);  // dE += dlogitsᵀ·Z
  ew_f32_matmul(I.dln, d, I.logits, I.V, I.w[I.emb], d, nullptr, M, I.V, d, Activation::None);  // dZ = dlogits·E
  std::fill(I.dres_d, I.dres_d + static_cast<std::size_t>(M) * d, 0.0f);
  layernorm_backward(I.dres_d, I.g[I.dec_final_ln.g], I.g[I.dec_final_ln.b], I.dln, I.y[I.Ld], I.w[I.dec_final_ln.g],
                     I.dec_out, I.eps, M, d);
  std::fill(I.denc, I.denc + static_cast<std::size_t>(b.B) * b.T * d, 0.0f);
  for (int j = I.Ld - 1; j >= 0; --j) {
    const LayerActs& a = I.dec[j];
    const LayerIx& ix = I.dec_ix[j];
    ffn_block_backward(I, I.dres_d, a.r2, a.ln3, ix.ln3, a, ix.ffn, M);
    attn_block_backward(I, I.dres_d, a.r1, a.ln2, ix.ln2, a.cross, ix.cross, I.enc_out.y, I.denc, b.B, b.S, b.T);
    attn_block_backward(I, I.dres_d, I.y[j], a.ln1, ix.ln1, a.self, ix.self, nullptr, nullptr, b.B, b.S, b.S);
  }
  embed_backward(I.g[I.emb], I.dres_d, b.dec_in.data(), b.dec_len.data(), b.B, b.S, d);
}

// The classification head on each example's first output row: logits, and its backward
// into I.denc (zero elsewhere) after the loss has left dL/dlogits in I.logits.
void classifier_forward(Impl& I, const TokenBatch& b) {
  ew_f32_matmul(I.logits, I.labels, I.enc_out.y, b.T * I.d, I.w[I.cls_W], I.labels, I.w[I.cls_b], b.B, I.d, I.labels,
                Activation::None);
}

void classifier_backward(Impl& I, const TokenBatch& b) {
  const int d = I.d, n = I.labels, rows = b.T * d;
  std::fill(I.denc, I.denc + static_cast<std::size_t>(b.B) * rows, 0.0f);
  ew_f32_matmul_tn(I.g[I.cls_W], n, I.enc_out.y, rows, I.logits, n, d, b.B, n, true);
  for (int e = 0; e < b.B; ++e)
    for (int j = 0; j < n; ++j) I.g[I.cls_b][j] += I.logits[e * n + j];
  ew_f32_matmul_nt(I.denc, rows, I.logits, n, I.w[I.cls_W], n, b.B, n, d, false);
}

// The masked-word head on the [MASK] rows only (the others are never scored): Z (K×d) is
// gathered from the encoder output, logits (K×V) = Z·Eᵀ with the embedding table (tied, no
// bias). The recorded path scores every row; these are its [MASK] rows.
void mlm_forward(Impl& I, const TokenBatch& b) {
  const int K = static_cast<int>(b.mask_row.size()), d = I.d;
  for (int k = 0; k < K; ++k)
    std::copy_n(I.enc_out.y + static_cast<std::size_t>(b.mask_row[k]) * d, d, I.mlm_z + static_cast<std::size_t>(k) * d);
  ew_f32_matmul_nt(I.logits, I.V, I.mlm_z, d, I.w[I.emb], d, K, d, I.V, false);
}

// Mean over examples of each one's mean cross-entropy over its [MASK]s; dL/dlogits left in
// I.logits.
double mlm_loss(Impl& I, const TokenBatch& b) {
  double total = 0;
  for (std::size_t k = 0; k < b.mask_row.size(); ++k) {
    const int n = b.mask_count[b.mask_row[k] / b.T];
    const double w = 1.0 / (static_cast<double>(b.B) * n);
    if (b.mask_label[k] < 0) throw Error("a [MASK] has no right token to learn (Example::mask_targets)");
    total += softmax_xent_row(I.logits + k * I.V, I.V, b.mask_label[k], static_cast<float>(w)) / n;
  }
  return total / b.B;
}

// dE += dlogitsᵀ·Z; dZ = dlogits·E, scattered back to the [MASK] rows of I.denc (zero elsewhere).
void mlm_backward(Impl& I, const TokenBatch& b) {
  const int K = static_cast<int>(b.mask_row.size()), d = I.d;
  ew_f32_matmul_tn(I.g[I.emb], d, I.logits, I.V, I.mlm_z, d, I.V, K, d, true);
  ew_f32_matmul(I.mlm_z, d, I.logits, I.V, I.w[I.emb], d, nullptr, K, I.V, d, Activation::None);  // Z is no longer needed
  std::fill(I.denc, I.denc + static_cast<std::size_t>(b.B) * b.T * d, 0.0f);
  for (int k = 0; k < K; ++k)
    std::copy_n(I.mlm_z + static_cast<std::size_t>(k) * d, d, I.denc + static_cast<std::size_t>(b.mask_row[k]) * d);
}

// ---- binding to the model -----------------------------------------------------------------

// The index of the parameter at place and name `key` (its id made by model/naming.h).
int index_of(const Model& m, const ParamKey& key) {
  const std::string id = param_id(key);
  for (std::size_t k = 0; k < m.params.size(); ++k)
    if (m.params[k].id == id) return static_cast<int>(k);
  throw Error("internal: the batched training path found no parameter '" + id + "'");
}

NormIx norm_ix(const Model& m, const Place& at, const char* norm) {
  return {index_of(m, {at, norm, "gamma"}), index_of(m, {at, norm, "beta"})};
}

AttnIx attn_ix(const Model& m, const Place& at) {
  return {index_of(m, {at, "", "W_q"}), index_of(m, {at, "", "b_q"}), index_of(m, {at, "", "W_k"}),
          index_of(m, {at, "", "b_k"}), index_of(m, {at, "", "W_v"}), index_of(m, {at, "", "b_v"}),
          index_of(m, {at, "", "W_o"}), index_of(m, {at, "", "b_o"})};
}

FfnIx ffn_ix(const Model& m, const Place& at) {
  return {index_of(m, {at, "", "W_1"}), index_of(m, {at, "", "b_1"}), index_of(m, {at, "", "W_2"}),
          index_of(m, {at, "", "b_2"})};
}

void bind(Impl& I, const Model& m) {
  const Config& c = m.config;
  I.d = c.d_model; I.H = c.num_heads; I.dk = c.d_k(); I.F = c.d_ff;
  I.L = c.num_layers; I.Ld = c.decoder_layers; I.labels = c.num_labels;
  I.V = static_cast<int>(m.vocab.size());
  I.eps = c.layer_norm_eps;
  I.scale = c.scale ? 1.0f / std::sqrt(static_cast<float>(c.d_k())) : 1.0f;
  I.causal = c.causal;
  I.act = c.activation;
  I.emb = index_of(m, {{"input", -1, "embedding", -1}, "", "embedding_table"});
  for (int l = 0; l < I.L; ++l) {
    const Place an{"encoder", l, "add_norm", -1};
    I.enc_ix.push_back({norm_ix(m, an, "ln1"), norm_ix(m, an, "ln2"), {}, attn_ix(m, {"encoder", l, "self_attention", -1}),
                        {}, ffn_ix(m, {"encoder", l, "ffn", -1})});
  }
  I.final_ln = norm_ix(m, {"encoder", -1, "stack_output", -1}, "final_ln");
  for (int j = 0; j < I.Ld; ++j) {
    const Place an{"decoder", j, "add_norm", -1};
    I.dec_ix.push_back({norm_ix(m, an, "ln1"), norm_ix(m, an, "ln2"), norm_ix(m, an, "ln3"),
                        attn_ix(m, {"decoder", j, "self_attention", -1}), attn_ix(m, {"decoder", j, "cross_attention", -1}),
                        ffn_ix(m, {"decoder", j, "ffn", -1})});
  }
  if (I.Ld > 0) I.dec_final_ln = norm_ix(m, {"decoder", -1, "stack_output", -1}, "decoder_final_ln");
  if (I.labels > 0) {
    I.cls_W = index_of(m, {{"classifier", -1, "classifier", -1}, "", "W"});
    I.cls_b = index_of(m, {{"classifier", -1, "classifier", -1}, "", "b"});
  }
  I.enc.resize(I.L);
  I.dec.resize(I.Ld);
  I.x.resize(I.L + 1);
  I.y.resize(I.Ld + 1);
  I.w.resize(m.params.size());
  I.g.resize(m.params.size());
}

// Grows the buffers (an allocation) when this batch is larger than any before.
void ensure_capacity(Impl& I, const TokenBatch& b) {
  const int K = static_cast<int>(b.mask_row.size());
  if (b.B <= I.Bc && b.T <= I.Tc && b.S <= I.Sc && K <= I.Kc) return;
  I.Bc = std::max(I.Bc, b.B);
  I.Tc = std::max(I.Tc, b.T + 4);  // a little headroom: lengths vary from batch to batch
  I.Sc = std::max(I.Sc, b.S > 0 ? b.S + 4 : 0);
  I.Kc = std::max(I.Kc, K > 0 ? K + 2 * b.B : 0);
  layout(I);
}

}  // namespace

std::string batched_unsupported(const Model& m) {
  const Config& c = m.config;
  if (c.norm != NormOrder::Pre) return "post-norm layers";
  if (c.positional != Positional::Sinusoidal) return "positions other than sinusoidal";
  if (c.tokenizer == TokenizerKind::Bpe && m.merges.empty()) return "BPE merges learned from the text at run time";
  if (m.input) return "explicit input rows";
  if (m.vocab.empty() || !m.user_embedding) return "a model without its own vocabulary and embedding table";
  if ((c.num_labels > 0) + (c.decoder_layers > 0) + c.masked_lm != 1)
    return "a model that is not exactly one of classifier, encoder-decoder or masked-word model";
  if (c.masked_lm && std::find(m.vocab.begin(), m.vocab.end(), "[MASK]") == m.vocab.end())
    return "a masked-word model without [MASK] in its vocabulary";
  if (c.d_model % c.num_heads != 0) return "d_model not divisible by num_heads";
  return "";
}

BatchedPass::BatchedPass(const Model& m) : impl_(new Impl) {
  const std::string why = batched_unsupported(m);
  if (!why.empty()) {
    delete impl_;
    throw Error("the batched training path does not support " + why);
  }
  bind(*impl_, m);
  impl_->mlm = m.config.masked_lm;
  vocab_ = Vocab(m.vocab);
  pad_ = vocab_.pad();
  bos_ = vocab_.bos();
  eos_ = vocab_.eos();
  mask_ = vocab_.find("[MASK]");
  max_tokens_ = m.config.max_tokens;
  tokenizer_ = m.config.tokenizer;
  masked_lm_ = m.config.masked_lm;
  for (const auto& p : m.merges) bpe_.merges.push_back(BpeMerge{p, 0, {}, {}});
  for (const Param& p : m.params) {
    offsets_.push_back(num_grads_);
    num_grads_ += p.value.size();
  }
}

BatchedPass::~BatchedPass() { delete impl_; }

namespace {

bool is_ascii(std::string_view s) {
  for (unsigned char c : s)
    if (c >= 0x80) return false;
  return true;
}

// Python's str.isspace() on ASCII (tokenize_whitespace's definition there).
bool ascii_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f); }

// Calls f(token) for each whitespace-separated token of s; returns how many. ASCII text is
// split in place (no allocation); other text goes through tokenize_whitespace.
template <class F>
int for_each_token(std::string_view s, F&& f) {
  if (!is_ascii(s)) {
    validate_utf8(s);
    const std::vector<std::string> toks = tokenize_whitespace(s);
    for (const std::string& t : toks) f(std::string_view(t));
    return static_cast<int>(toks.size());
  }
  int n = 0;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && ascii_space(static_cast<unsigned char>(s[i]))) ++i;
    const std::size_t j0 = i;
    while (i < s.size() && !ascii_space(static_cast<unsigned char>(s[i]))) ++i;
    if (i > j0) {
      f(s.substr(j0, i - j0));
      ++n;
    }
  }
  return n;
}

// Calls f(token) for each character of s that is not white space (tokenize_chars): ASCII in
// place, other text through tokenize_chars.
template <class F>
void for_each_char(std::string_view s, F&& f) {
  if (!is_ascii(s)) {
    validate_utf8(s);
    for (const std::string& t : tokenize_chars(s)) f(std::string_view(t));
    return;
  }
  for (std::size_t i = 0; i < s.size(); ++i)
    if (!ascii_space(static_cast<unsigned char>(s[i]))) f(s.substr(i, 1));
}

}  // namespace

int BatchedPass::append_ids(std::string_view text, const char* what) {
  // As forward.cpp's tokenize reads text: with a masked-word head "[MASK]" is one token
  // wherever it stands, and the text between is tokenized as usual.
  const std::size_t start = ids_.size();
  const std::string_view mask = masked_lm_ ? "[MASK]" : "";
  std::size_t from = 0;
  for (;;) {
    const std::size_t at = mask.empty() ? std::string_view::npos : text.find(mask, from);
    const std::string_view piece = text.substr(from, at == std::string_view::npos ? std::string_view::npos : at - from);
    switch (tokenizer_) {
      case TokenizerKind::Whitespace:
        for_each_token(piece, [&](std::string_view tok) { ids_.push_back(vocab_.id(tok)); });
        break;
      case TokenizerKind::Regex:
        for (const std::string& tok : tokenize_regex(piece)) ids_.push_back(vocab_.id(tok));
        break;
      case TokenizerKind::Bpe: append_bpe_ids(piece); break;
      case TokenizerKind::Chars: for_each_char(piece, [&](std::string_view tok) { ids_.push_back(vocab_.id(tok)); }); break;
    }
    if (at == std::string_view::npos) break;
    ids_.push_back(mask_);
    from = at + mask.size();
  }
  const int n = static_cast<int>(ids_.size() - start);
  if (n > max_tokens_)
    throw Error(std::string("\"") + what + "\" has " + std::to_string(n) + " tokens; the limit (max_tokens) is " +
                std::to_string(max_tokens_));
  return n;
}

// BPE: the regex tokenizer's words, each read from bpe_ids_ (encode_bpe_words put it there).
void BatchedPass::append_bpe_ids(std::string_view piece) {
  for (const std::string& word : tokenize_regex(piece)) {
    const auto it = bpe_ids_.find(word);
    if (it == bpe_ids_.end()) throw Error("internal: the batched path did not encode \"" + word + "\"");
    ids_.insert(ids_.end(), it->second.begin(), it->second.end());
  }
}

// Splits the words of n examples not seen before with the model's merges, all in one call of
// bpe_encode (which prepares the merges on every call), into bpe_ids_: a training corpus
// repeats its words endlessly, so after the first steps there is nothing left to do.
void BatchedPass::encode_bpe_words(const Example* ex, int n) {
  std::vector<std::string> fresh;
  for (int e = 0; e < n; ++e)
    for (const std::string_view text : {std::string_view(ex[e].source), std::string_view(ex[e].target)})
      for (std::size_t from = 0; from <= text.size();) {
        const std::size_t at = masked_lm_ ? text.find("[MASK]", from) : std::string_view::npos;
        for (std::string& w : tokenize_regex(text.substr(from, at == std::string_view::npos ? at : at - from)))
          if (!bpe_ids_.count(w) && std::find(fresh.begin(), fresh.end(), w) == fresh.end()) fresh.push_back(std::move(w));
        if (at == std::string_view::npos) break;
        from = at + 6;  // past "[MASK]"
      }
  if (fresh.empty()) return;
  const std::vector<std::string> toks = bpe_encode(bpe_, fresh);
  std::size_t k = 0;
  for (const std::string& w : fresh) {  // a word's tokens end with the only one ending in </w>
    std::vector<int> ids;
    for (bool last = false; !last && k < toks.size(); ++k) {
      last = toks[k].size() >= 4 && toks[k].compare(toks[k].size() - 4, 4, "</w>") == 0;
      ids.push_back(vocab_.id(toks[k]));
    }
    bpe_ids_.emplace(w, std::move(ids));
  }
}

// The [MASK] rows of a masked-word model's batch, and the right token of each when given.
void BatchedPass::mask_rows(TokenBatch& out, const Example* ex, int n) const {
  out.mask_row.clear();
  out.mask_label.clear();
  out.mask_count.assign(n, 0);
  if (!masked_lm_) return;
  for (int e = 0; e < n; ++e) {
    for (int t = 0; t < out.src_len[e]; ++t)
      if (out.src[e * out.T + t] == mask_) out.mask_row.push_back(e * out.T + t), ++out.mask_count[e];
    const std::vector<std::string>& want = ex[e].mask_targets;
    if (!want.empty() && static_cast<int>(want.size()) != out.mask_count[e])
      throw Error("\"mask_targets\" has " + std::to_string(want.size()) + " tokens but the text has " +
                  std::to_string(out.mask_count[e]) + " [MASK]: give one target per [MASK], in order");
    for (int j = 0; j < out.mask_count[e]; ++j) out.mask_label.push_back(want.empty() ? -1 : vocab_.id(want[j]));
  }
}

void BatchedPass::encode(TokenBatch& out, const Example* ex, int n) {
  const bool dec = impl_->Ld > 0;
  // Room for the longest texts the model accepts, reserved once: no allocation while training.
  const std::size_t room = static_cast<std::size_t>(n) * (max_tokens_ + 1) * (dec ? 2 : 1);
  if (ids_.capacity() < room) ids_.reserve(room);
  if (ids_at_.capacity() < static_cast<std::size_t>(2 * n)) ids_at_.reserve(2 * n);
  ids_.clear();
  ids_at_.clear();
  if (tokenizer_ == TokenizerKind::Bpe) encode_bpe_words(ex, n);
  out.B = n;
  out.T = out.S = 0;
  out.src_len.resize(n);
  out.dec_len.resize(n);
  out.label.resize(n);
  for (int e = 0; e < n; ++e) {
    ids_at_.push_back(static_cast<int>(ids_.size()));
    out.src_len[e] = append_ids(ex[e].source, "text");
    if (out.src_len[e] == 0)
      throw Error(std::string("\"text\" has no tokens: the ") +
                  (tokenizer_ == TokenizerKind::Bpe ? "regex" : tokenizer_name(tokenizer_)) + " tokenizer found no words in it");
    out.T = std::max(out.T, out.src_len[e]);
    ids_at_.push_back(static_cast<int>(ids_.size()));
    out.dec_len[e] = dec ? append_ids(ex[e].target, "target") + 1 : 0;  // <s> + target, or target + </s>
    out.S = std::max(out.S, out.dec_len[e]);
    out.label[e] = ex[e].label;
  }
  if (dec && n > 0 && (bos_ < 0 || eos_ < 0))
    throw Error("the vocabulary has no <s> or </s>: a decoder cannot be trained on it");
  out.src.assign(static_cast<std::size_t>(n) * out.T, pad_);
  out.dec_in.assign(static_cast<std::size_t>(n) * out.S, pad_);
  out.dec_out.assign(static_cast<std::size_t>(n) * out.S, -1);
  for (int e = 0; e < n; ++e) {
    std::copy_n(ids_.data() + ids_at_[2 * e], out.src_len[e], out.src.data() + e * out.T);
    if (!dec) continue;
    const int* target = ids_.data() + ids_at_[2 * e + 1];
    int* in = out.dec_in.data() + e * out.S;
    int* next = out.dec_out.data() + e * out.S;
    const int len = out.dec_len[e] - 1;
    in[0] = bos_;
    for (int s = 0; s < len; ++s) next[s] = in[s + 1] = target[s];
    next[len] = eos_;
  }
  mask_rows(out, ex, n);
}

double BatchedPass::loss_and_grads(const Model& m, const TokenBatch& b, float* grads) {
  Impl& I = *impl_;
  if (m.params.size() != I.w.size()) throw Error("internal: the model's parameters changed under the batched path");
  for (std::size_t k = 0; k < m.params.size(); ++k) {
    I.w[k] = m.params[k].value.data();
    I.g[k] = grads + offsets_[k];
  }
  std::fill(grads, grads + num_grads_, 0.0f);
  ensure_capacity(I, b);
  encoder_forward(I, b);
  double loss;
  if (I.Ld > 0) {
    decoder_forward(I, b);
    loss = decoder_loss(I, b);
    decoder_backward(I, b);
  } else if (I.mlm) {
    mlm_forward(I, b);
    loss = mlm_loss(I, b);
    mlm_backward(I, b);
  } else {
    classifier_forward(I, b);
    loss = classifier_loss(I, b);
    classifier_backward(I, b);
  }
  encoder_backward(I, b);
  return loss;
}


void BatchedPass::set_ablation(const Ablation& a) {
  Impl& I = *impl_;
  I.off_enc.assign(I.L, 0), I.off_self.assign(I.Ld, 0), I.off_cross.assign(I.Ld, 0);
  I.off_enc_ffn.assign(I.L, 0), I.off_dec_ffn.assign(I.Ld, 0);
  for (const auto& [stack, layer, head] : a.heads) {
    std::vector<std::uint64_t>& off = stack == 0 ? I.off_enc : stack == 1 ? I.off_self : I.off_cross;
    if (stack < 0 || stack > 2 || layer < 0 || layer >= static_cast<int>(off.size()) || head < 0 || head >= I.H || head >= 64)
      throw Error("internal: no head " + std::to_string(head) + " in layer " + std::to_string(layer) + " of stack " + std::to_string(stack));
    off[layer] |= std::uint64_t{1} << head;
  }
  for (const auto& [stack, layer] : a.ffn) {
    std::vector<char>& off = stack == 0 ? I.off_enc_ffn : I.off_dec_ffn;
    if (stack < 0 || stack > 1 || layer < 0 || layer >= static_cast<int>(off.size()))
      throw Error("internal: no feed-forward block in layer " + std::to_string(layer) + " of stack " + std::to_string(stack));
    off[layer] = 1;
  }
}

void BatchedPass::predict(const Model& m, const Example* ex, int n, int max_len, std::vector<std::vector<int>>& out) {
  Impl& I = *impl_;
  for (std::size_t k = 0; k < m.params.size(); ++k) I.w[k] = m.params[k].value.data();
  std::vector<Example> sources(ex, ex + n);
  for (Example& e : sources) e.target.clear(), e.mask_targets.clear();
  TokenBatch& b = pred_;
  encode(b, sources.data(), n);
  out.assign(n, {});
  if (I.Ld == 0) {  // one forward pass: a label per example, or a token per [MASK]
    ensure_capacity(I, b);
    encoder_forward(I, b);
    if (I.mlm) {
      mlm_forward(I, b);
      for (std::size_t k = 0; k < b.mask_row.size(); ++k) out[b.mask_row[k] / b.T].push_back(ew_f32_argmax(I.logits + k * I.V, I.V));
    } else {
      classifier_forward(I, b);
      for (int e = 0; e < n; ++e) out[e].push_back(ew_f32_argmax(I.logits + static_cast<std::size_t>(e) * I.labels, I.labels));
    }
    return;
  }
  b.S = max_len + 1;
  ensure_capacity(I, b);
  encoder_forward(I, b);
  // Each round runs the decoder on <s> + the tokens so far of every example (padded alike).
  out = greedy_decode(n, max_len, [&](int round, const std::vector<std::vector<int>>& so_far,
                                      const std::vector<bool>& done, std::vector<GreedyPick>& next) {
    const int s = round + 1;
    b.S = s;
    b.dec_in.assign(static_cast<std::size_t>(n) * s, pad_);
    b.dec_len.assign(n, s);
    for (int e = 0; e < n; ++e) {
      b.dec_in[static_cast<std::size_t>(e) * s] = bos_;
      std::copy(so_far[e].begin(), so_far[e].end(), b.dec_in.begin() + e * s + 1);
    }
    decoder_forward(I, b);
    for (int e = 0; e < n; ++e) {
      if (done[e]) continue;
      const int tok = ew_f32_argmax(I.logits + (static_cast<std::size_t>(e) * s + s - 1) * I.V, I.V);
      next[e] = {tok, tok == eos_};
    }
  });
}

}  // namespace ew
