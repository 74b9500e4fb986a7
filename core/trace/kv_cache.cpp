// kv_cache.cpp — prefill from a recorded run, then one row per new token (kv_cache.h).
#include "trace/kv_cache.h"

#include <limits>

#include "model/error.h"
#include "model/naming.h"
#include "model/params.h"
#include "trace/ops.h"

namespace ew {

namespace {

// One layer's parameters by name (W_q of {encoder, i, self_attention}, gamma of ln1, ...).
struct LayerParams {
  const Model& m;
  int i;
  const Param& w(const char* block, const std::string& name) const { return m.at(param_id({{"encoder", i, block, -1}, "", name})); }
  const float* b(const char* block, const std::string& name) const {
    const Param* p = m.find(param_id({{"encoder", i, block, -1}, "", name}));
    return p ? p->f32() : nullptr;
  }
  const float* norm(const char* block, const char* norm, const char* name) const {
    return m.at(param_id({{"encoder", i, block, -1}, norm, name})).f32();
  }
};

// The norm every block of the model uses, on n rows of d: LayerNorm (GPT-2) or RMSNorm.
void norm_rows(const Model& m, float* y, const float* x, const float* gamma, const float* beta, int n, int d) {
  std::vector<float> s1(static_cast<std::size_t>(n)), s2(static_cast<std::size_t>(n));
  if (m.arch.rms_norm)
    rmsnorm_rows(y, s1.data(), x, gamma, n, d, m.config.layer_norm_eps, m.arch.norm_offset);
  else
    ew_f32_layernorm(y, s1.data(), s2.data(), x, gamma, beta, n, d, m.config.layer_norm_eps);
}

// y = x · W + b for one row.
std::vector<float> linear(const Param& W, const float* bias, const float* x) {
  std::vector<float> y(W.dim(1));
  param_matmul(y.data(), static_cast<int>(y.size()), x, W, bias, 1, Activation::None);
  return y;
}

// Attention of the new row's q over the cached rows of layer `i` (its own k, v appended already).
std::vector<float> attend(const Model& m, const KvCache& c, int i, const float* q) {
  const AttnGeom g = attn_geom(m);
  const int Tk = c.len + 1, pos = c.len;
  const bool sliding = i < static_cast<int>(m.arch.sliding.size()) && m.arch.sliding[static_cast<std::size_t>(i)];
  std::vector<float> mask(static_cast<std::size_t>(Tk), 0.0f), scores(mask.size()), scaled(mask.size()), w(mask.size());
  for (int j = 0; j < Tk; ++j)
    if (sliding && pos - j >= m.arch.sliding_window) mask[static_cast<std::size_t>(j)] = -std::numeric_limits<float>::infinity();
  std::vector<float> concat(static_cast<std::size_t>(g.dq()));
  const float* K = c.k[static_cast<std::size_t>(i)].data();
  const float* V = c.v[static_cast<std::size_t>(i)].data();
  for (int h = 0; h < g.H; ++h) {
    const int kv = g.kv_head(h) * g.hd;
    float mx = 0, sum = 0;
    ew_f32_scores(scores.data(), Tk, q + h * g.hd, g.dq(), K + kv, g.dkv(), 1, Tk, g.hd);
    ew_f32_softmax_row(scaled.data(), w.data(), &mx, &sum, scores.data(), mask.data(), Tk, g.scale);
    ew_f32_matmul(concat.data() + h * g.hd, g.hd, w.data(), Tk, V + kv, g.dkv(), nullptr, 1, Tk, g.hd, Activation::None);
  }
  return concat;
}

// q, k, v of the new row x (already normalised) at position c.len: biases, q/k norms, rotation.
void qkv(const Model& m, const LayerParams& L, const float* n1, int pos, std::vector<float>& q, std::vector<float>& k,
         std::vector<float>& v) {
  const AttnGeom g = attn_geom(m);
  const Arch& a = m.arch;
  q = linear(L.w("self_attention", "W_q"), L.b("self_attention", "b_q"), n1);
  k = linear(L.w("self_attention", "W_k"), L.b("self_attention", "b_k"), n1);
  v = linear(L.w("self_attention", "W_v"), L.b("self_attention", "b_v"), n1);
  if (a.qk_norm) {
    std::vector<float> rms(static_cast<std::size_t>(g.H));
    rmsnorm_rows(q.data(), rms.data(), q.data(), L.norm("self_attention", "q_norm", "gamma"), g.H, g.hd, m.config.layer_norm_eps, a.norm_offset);
    rmsnorm_rows(k.data(), rms.data(), k.data(), L.norm("self_attention", "k_norm", "gamma"), g.KV, g.hd, m.config.layer_norm_eps, a.norm_offset);
  }
  if (!a.rope) return;
  const bool sliding = L.i < static_cast<int>(a.sliding.size()) && a.sliding[static_cast<std::size_t>(L.i)];
  const bool local = sliding && a.rope_local_theta > 0;
  std::vector<float> th(static_cast<std::size_t>(g.hd / 2));
  rope_angle_row(th.data(), a, g.hd, local ? a.rope_local_theta : a.rope_theta, !local, pos);
  rope_rows(q.data(), q.data(), th.data(), 1, 1, g.dq(), g.hd);
  rope_rows(k.data(), k.data(), th.data(), 1, 1, g.dkv(), g.hd);
}

// The feed-forward network of one normalised row: gated (act(gate) ⊙ up, W_down) or GPT-2's.
std::vector<float> ffn(const Model& m, const LayerParams& L, const float* n2) {
  const int ff = m.config.d_ff;
  std::vector<float> pre(static_cast<std::size_t>(ff)), act(pre.size());
  if (m.arch.gated_ffn) {
    param_matmul(pre.data(), ff, n2, L.w("ffn", "W_gate"), L.b("ffn", "b_gate"), 1, m.config.activation, act.data());
    const std::vector<float> up = linear(L.w("ffn", "W_up"), L.b("ffn", "b_up"), n2);
    for (int j = 0; j < ff; ++j) act[static_cast<std::size_t>(j)] *= up[static_cast<std::size_t>(j)];
    return linear(L.w("ffn", "W_down"), L.b("ffn", "b_down"), act.data());
  }
  param_matmul(pre.data(), ff, n2, L.w("ffn", "W_1"), L.b("ffn", "b_1"), 1, m.config.activation, act.data());
  return linear(L.w("ffn", "W_2"), L.b("ffn", "b_2"), act.data());
}

void add_into(std::vector<float>& x, const std::vector<float>& y) {
  for (std::size_t j = 0; j < x.size(); ++j) x[j] += y[j];
}

// One layer of the new row x (d values), appending its k and v to the layer's cache.
void layer(const Model& m, KvCache& c, int i, std::vector<float>& x) {
  const int d = m.config.d_model;
  const LayerParams L{m, i};
  const bool rms = m.arch.rms_norm;
  const auto norm = [&](const char* name, const char* ln, const std::vector<float>& in) {
    std::vector<float> y(static_cast<std::size_t>(d));
    norm_rows(m, y.data(), in.data(), L.norm("add_norm", rms ? name : ln, "gamma"), rms ? nullptr : L.norm("add_norm", ln, "beta"), 1, d);
    return y;
  };
  const std::vector<float> n1 = norm("attn_norm", "ln1", x);
  std::vector<float> q, k, v;
  qkv(m, L, n1.data(), c.len, q, k, v);
  auto& K = c.k[static_cast<std::size_t>(i)];
  auto& V = c.v[static_cast<std::size_t>(i)];
  K.insert(K.end(), k.begin(), k.end());
  V.insert(V.end(), v.begin(), v.end());
  std::vector<float> att = linear(L.w("self_attention", "W_o"), L.b("self_attention", "b_o"), attend(m, c, i, q.data()).data());
  if (m.arch.sandwich_norm) att = norm("post_attn_norm", "", att);
  add_into(x, att);
  std::vector<float> f = ffn(m, L, norm("ffn_norm", "ln2", x).data());
  if (m.arch.sandwich_norm) f = norm("post_ffn_norm", "", f);
  add_into(x, f);
}

void require_causal(const Model& m) {
  if (!m.arch.lm_head || m.config.decoder_layers > 0 || m.config.norm != NormOrder::Pre)
    throw Error("the key/value cache serves causal language models (GPT-2, Llama, Qwen, Gemma 3)");
}

}  // namespace

KvCache cache_from_trace(const Model& m, const Trace& t) {
  require_causal(m);
  KvCache c;
  const int L = m.config.num_layers;
  c.k.resize(static_cast<std::size_t>(L));
  c.v.resize(static_cast<std::size_t>(L));
  for (int i = 0; i < L; ++i) {
    const std::string p = "layer" + std::to_string(i) + ".";
    const Step* k = t.find(p + "k_rot");
    if (!k) k = &t.at(p + "k");
    const Step& v = t.at(p + "v");
    c.k[static_cast<std::size_t>(i)] = k->data;
    c.v[static_cast<std::size_t>(i)] = v.data;
    c.len = k->shape[k->shape.size() - 2];
  }
  return c;
}

void decode_next(const Model& m, KvCache& c, int id, std::vector<float>& logits) {
  require_causal(m);
  const int d = m.config.d_model;
  if (c.len + 1 > m.config.max_tokens)
    throw Error("generation reached the model's limit of " + std::to_string(m.config.max_tokens) + " tokens (max_tokens)");
  const Param& E = m.at("embedding_table");
  const int V = static_cast<int>(E.dim(0));
  if (id < 0 || id >= V) throw Error("token id " + std::to_string(id) + " is outside the vocabulary");
  std::vector<float> x(static_cast<std::size_t>(d));
  E.widen(static_cast<std::size_t>(id) * d, d, x.data());
  if (m.arch.embed_scale > 0)
    for (float& e : x) e *= m.arch.embed_scale;
  if (m.config.positional == Positional::Learned) {
    std::vector<float> P(static_cast<std::size_t>(d));
    m.at("position_table").widen(static_cast<std::size_t>(c.len) * d, d, P.data());
    for (int j = 0; j < d; ++j) x[static_cast<std::size_t>(j)] += P[static_cast<std::size_t>(j)];
  }
  for (int i = 0; i < m.config.num_layers; ++i) layer(m, c, i, x);
  ++c.len;
  std::vector<float> out(static_cast<std::size_t>(d));
  const Place so{"encoder", -1, "stack_output", -1};
  const char* fin = m.arch.rms_norm ? "final_norm" : "final_ln";
  norm_rows(m, out.data(), x.data(), m.at(param_id({so, fin, "gamma"})).f32(),
            m.arch.rms_norm ? nullptr : m.at(param_id({so, fin, "beta"})).f32(), 1, d);
  const Param& head = m.at(m.arch.untied_head ? "lm_head" : "embedding_table");
  const int rows = static_cast<int>(head.dim(0));
  logits.assign(static_cast<std::size_t>(rows), 0.0f);
  param_scores(logits.data(), rows, out.data(), d, head, 1, 0, rows);
}

}  // namespace ew
