// params.cpp — parameter inventory (each parameter by place and name), shape checks, seeded
// defaults and packing.
#include "model/params.h"

#include <algorithm>
#include <cmath>

#include "model/error.h"
#include "model/random.h"

namespace ew {

namespace {

enum class Init { Weight, Zeros, Ones, Table };

struct Spec {
  ParamKey key;
  std::string id;  // param_id(key)
  std::vector<std::size_t> shape;
  Init init;
  bool packed;  // a matmul weight
  std::vector<Axis> axes;
};

const std::vector<Axis> kMatrix = {{"in", ""}, {"out", ""}};
const std::vector<Axis> kBias = {{"out", ""}};
const std::vector<Axis> kNorm = {{"feature", ""}};

void add(std::vector<Spec>& out, const Place& at, const std::string& norm, const std::string& name,
         std::vector<std::size_t> shape, Init init, const std::vector<Axis>& axes) {
  ParamKey key{at, norm, name};
  std::string id = param_id(key);
  out.push_back({std::move(key), std::move(id), std::move(shape), init, init == Init::Weight, axes});
}

void attention_specs(std::vector<Spec>& out, std::size_t d, const Place& at) {
  for (const char* m : {"q", "k", "v", "o"}) {
    add(out, at, "", std::string("W_") + m, {d, d}, Init::Weight, kMatrix);
    add(out, at, "", std::string("b_") + m, {d}, Init::Zeros, kBias);
  }
}

void ffn_specs(std::vector<Spec>& out, std::size_t d, std::size_t ff, const Place& at) {
  add(out, at, "", "W_1", {d, ff}, Init::Weight, kMatrix);
  add(out, at, "", "b_1", {ff}, Init::Zeros, kBias);
  add(out, at, "", "W_2", {ff, d}, Init::Weight, kMatrix);
  add(out, at, "", "b_2", {d}, Init::Zeros, kBias);
}

void norm_specs(std::vector<Spec>& out, const std::string& norm, std::size_t d, const Place& at) {
  add(out, at, norm, "gamma", {d}, Init::Ones, kNorm);
  add(out, at, norm, "beta", {d}, Init::Zeros, kNorm);
}

void layer_specs(std::vector<Spec>& s, const Config& c, const char* section, int i) {
  const auto d = static_cast<std::size_t>(c.d_model);
  const bool dec = std::string(section) == "decoder";
  attention_specs(s, d, {section, i, "self_attention", -1});
  if (dec) attention_specs(s, d, {section, i, "cross_attention", -1});
  ffn_specs(s, d, static_cast<std::size_t>(c.d_ff), {section, i, "ffn", -1});
  for (const char* ln : {"ln1", "ln2", "ln3"}) {
    if (!dec && std::string(ln) == "ln3") break;
    norm_specs(s, ln, d, {section, i, "add_norm", -1});
  }
}

// RMSNorm: γ alone (initialised to 1, or to 0 where the model scales by 1 + γ).
void rms_specs(std::vector<Spec>& out, const std::string& norm, std::size_t d, const Place& at, const Arch& a) {
  add(out, at, norm, "gamma", {d}, a.norm_offset != 0.0f ? Init::Zeros : Init::Ones, kNorm);
}

// A modern decoder's layer (Arch: rms_norm): grouped-query attention of H·hd query and KV·hd
// key/value columns, optional biases and q/k norms, a gated feed-forward network, and the
// norms around them (Gemma 3's four).
void modern_layer_specs(std::vector<Spec>& s, const Config& c, const Arch& a, int i, const AttnGeom& g) {
  const auto d = static_cast<std::size_t>(c.d_model), ff = static_cast<std::size_t>(c.d_ff);
  const auto dq = static_cast<std::size_t>(g.dq()), dkv = static_cast<std::size_t>(g.dkv());
  const Place att{"encoder", i, "self_attention", -1}, ffn{"encoder", i, "ffn", -1}, an{"encoder", i, "add_norm", -1};
  rms_specs(s, "attn_norm", d, an, a);
  const std::pair<const char*, std::size_t> proj[] = {{"q", dq}, {"k", dkv}, {"v", dkv}};
  for (const auto& [m, n] : proj) {
    add(s, att, "", std::string("W_") + m, {d, n}, Init::Weight, kMatrix);
    if (a.attn_bias) add(s, att, "", std::string("b_") + m, {n}, Init::Zeros, kBias);
  }
  if (a.qk_norm)
    for (const char* n : {"q_norm", "k_norm"}) rms_specs(s, n, static_cast<std::size_t>(g.hd), att, a);
  add(s, att, "", "W_o", {dq, d}, Init::Weight, kMatrix);
  if (a.out_bias) add(s, att, "", "b_o", {d}, Init::Zeros, kBias);
  if (a.sandwich_norm) rms_specs(s, "post_attn_norm", d, an, a);
  rms_specs(s, "ffn_norm", d, an, a);
  for (const char* m : {"gate", "up"}) {
    add(s, ffn, "", std::string("W_") + m, {d, ff}, Init::Weight, kMatrix);
    if (a.ffn_bias) add(s, ffn, "", std::string("b_") + m, {ff}, Init::Zeros, kBias);
  }
  add(s, ffn, "", "W_down", {ff, d}, Init::Weight, kMatrix);
  if (a.ffn_bias) add(s, ffn, "", "b_down", {d}, Init::Zeros, kBias);
  if (a.sandwich_norm) rms_specs(s, "post_ffn_norm", d, an, a);
}

std::vector<Spec> modern_inventory(const Config& c, const Arch& a, int vocab_size, const AttnGeom& g) {
  const auto d = static_cast<std::size_t>(c.d_model), V = static_cast<std::size_t>(vocab_size);
  std::vector<Spec> s;
  add(s, {"input", -1, "embedding", -1}, "", "embedding_table", {V, d}, Init::Table, {{"vocab", "vocab"}, {"feature", ""}});
  for (int i = 0; i < c.num_layers; ++i) modern_layer_specs(s, c, a, i, g);
  rms_specs(s, "final_norm", d, {"encoder", -1, "stack_output", -1}, a);
  if (a.untied_head)
    add(s, {"output", -1, "projection", -1}, "", "lm_head", {V, d}, Init::Table, {{"vocab", "vocab"}, {"feature", ""}});
  return s;
}

// What a checkpoint's architecture adds (model.h, Arch): segment table, the masked-word
// head's transform and decoder bias, the classifier's pooler.
void arch_specs(std::vector<Spec>& s, const Config& c, const Arch& a, int vocab_size) {
  const auto d = static_cast<std::size_t>(c.d_model);
  if (a.type_vocab_size > 0)
    add(s, {"input", -1, "embedding", -1}, "", "token_type_table", {static_cast<std::size_t>(a.type_vocab_size), d},
        Init::Table, {{"segment", ""}, {"feature", ""}});
  if (c.masked_lm && a.mlm_transform) {
    const Place at{"masked_lm", -1, "transform", -1};
    add(s, at, "", "W_t", {d, d}, Init::Weight, kMatrix);
    add(s, at, "", "b_t", {d}, Init::Zeros, kBias);
    norm_specs(s, "transform_ln", d, at);
    add(s, {"masked_lm", -1, "projection", -1}, "", "b", {static_cast<std::size_t>(vocab_size)}, Init::Zeros,
        {{"vocab", "vocab"}});
  }
  if (c.num_labels > 0 && a.pooler != Activation::None) {
    const Place at{"classifier", -1, "pooler", -1};
    add(s, at, "", "W_p", {d, d}, Init::Weight, kMatrix);
    add(s, at, "", "b_p", {d}, Init::Zeros, kBias);
  }
}

std::vector<Spec> inventory(const Model& m, int vocab_size, int positions) {
  const Config& c = m.config;
  const Arch& a = m.arch;
  if (a.rms_norm) return modern_inventory(c, a, vocab_size, attn_geom(m));
  const auto d = static_cast<std::size_t>(c.d_model);
  const auto labels = static_cast<std::size_t>(c.num_labels);
  const bool pre = c.norm == NormOrder::Pre;
  std::vector<Spec> s;
  add(s, {"input", -1, "embedding", -1}, "", "embedding_table", {static_cast<std::size_t>(vocab_size), d}, Init::Table,
      {{"vocab", "vocab"}, {"feature", ""}});
  if (c.positional == Positional::Learned) {
    add(s, {"input", -1, "positional", -1}, "", "position_table", {static_cast<std::size_t>(positions), d}, Init::Table,
        {{"position", ""}, {"feature", ""}});
    if (a.embedding_ln) norm_specs(s, "embedding_ln", d, {"input", -1, "embedding", -1});
  }
  for (int i = 0; i < c.num_layers; ++i) layer_specs(s, c, "encoder", i);
  if (pre) norm_specs(s, "final_ln", d, {"encoder", -1, "stack_output", -1});
  for (int j = 0; j < c.decoder_layers; ++j) layer_specs(s, c, "decoder", j);
  if (pre && c.decoder_layers > 0) norm_specs(s, "decoder_final_ln", d, {"decoder", -1, "stack_output", -1});
  arch_specs(s, c, a, vocab_size);
  if (c.num_labels > 0) {
    const Place at{"classifier", -1, "classifier", -1};
    add(s, at, "", "W", {d, labels}, Init::Weight, {{"in", ""}, {"label", "labels"}});
    add(s, at, "", "b", {labels}, Init::Zeros, {{"label", "labels"}});
  }
  return s;
}

void fill_default(Param& p, const Spec& spec, std::uint64_t seed) {
  p.value = xt::xarray<float>::from_shape(spec.shape);
  float* v = p.value.data();
  const std::size_t n = p.value.size();
  switch (spec.init) {
    case Init::Zeros: std::fill(v, v + n, 0.0f); break;
    case Init::Ones: std::fill(v, v + n, 1.0f); break;
    case Init::Weight: {
      const float limit = glorot_limit(static_cast<int>(spec.shape[0]), static_cast<int>(spec.shape[1]));
      const std::uint64_t stream = seeded_stream(seed, spec.id);
      for (std::size_t i = 0; i < n; ++i) v[i] = seeded_uniform(stream, i) * limit;
      break;
    }
    case Init::Table: {
      const std::uint64_t stream = seeded_stream(seed, spec.id);
      for (std::size_t i = 0; i < n; ++i) v[i] = seeded_uniform(stream, i);
      break;
    }
  }
}

}  // namespace

void seeded_embedding_row(float* out, std::uint64_t seed, const std::string& token, int d) {
  const std::uint64_t stream = seeded_stream(seed, "embedding:" + token);
  for (int c = 0; c < d; ++c) out[c] = seeded_uniform(stream, static_cast<std::uint64_t>(c));
}

void ensure_params(Model& model, int vocab_size, int positions) {
  const Config& c = model.config;
  std::vector<Param> ordered;
  const std::vector<Spec> specs = inventory(model, vocab_size, positions);
  ordered.reserve(specs.size());
  for (const Spec& spec : specs) {
    // A given parameter's id was made from its place and name by param_id, as spec.id was
    // (model files, weights files), so equal ids are equal keys.
    auto it = std::find_if(model.params.begin(), model.params.end(),
                           [&](const Param& p) { return p.id == spec.id; });
    Param p;
    if (it != model.params.end()) {
      p = std::move(*it);
      it->id.clear();  // taken: not a leftover
      std::vector<std::size_t> actual = p.shape();
      bool ok = actual == spec.shape;
      // Tables may have more rows than this text needs.
      if (!ok && (spec.init == Init::Table) && actual.size() == 2 && actual[1] == spec.shape[1] &&
          actual[0] >= spec.shape[0])
        ok = true;
      if (!ok) {
        throw Error("parameter '" + spec.id + "' has shape " + shape_str(actual) + ", expected " +
                    shape_str(spec.shape));
      }
    } else {
      p.id = spec.id;
      fill_default(p, spec, c.seed);
    }
    if (spec.packed && model.pack_weights && p.packed.data.empty()) {
      p.make_f32();  // a packing model keeps float32 weights
      ew_f32_pack_b(&p.packed, p.value.data(), static_cast<int>(spec.shape[0]),
                    static_cast<int>(spec.shape[1]));
    }
    p.axes = spec.axes;
    p.place = spec.key.place;  // every parameter knows its place and name from here on
    p.norm = spec.key.norm;
    p.name = spec.key.name;
    ordered.push_back(std::move(p));
  }
  // Anything left over is a parameter this configuration does not use.
  for (const Param& p : model.params) {
    if (!p.id.empty() && std::none_of(specs.begin(), specs.end(), [&](const Spec& s) { return s.id == p.id; }))
      throw Error("parameter '" + p.id + "' is not used by this configuration");
  }
  model.params = std::move(ordered);
}

void param_matmul(float* y, int ldy, const float* x, const Param& W, const float* bias, int rows, Activation act,
                  float* y_act) {
  const int in = static_cast<int>(W.dim(0)), out = static_cast<int>(W.dim(1));
  // A decoded token's product (one row) reads the weight once, as it lies: panels (a checkpoint's
  // packed weight, 16-bit or not) each as one stream, a row-major weight row after row. More rows:
  // the packed kernels on panels (no staging but a 16-bit block's widening), else the staged ones.
  const bool one_row = rows == 1;
  const bool half_panels = W.is_half() && W.half_packed;
  if (half_panels && !one_row) {
    ew_h16_matmul_packed(y, ldy, x, in, W.half.data(), in, out, W.half_type(), bias, rows, act, y_act);
    return;
  }
  if (!W.packed.data.empty() && !(one_row && W.packed_only())) {
    ew_f32_matmul_packed(y, ldy, x, in, W.packed, bias, rows, act, y_act);
    return;
  }
  const Activation fused = y_act || one_row ? Activation::None : act;
  if (half_panels) ew_h16_gemv_packed(y, x, W.half.data(), in, out, W.half_type(), bias);
  else if (one_row && W.packed_only()) ew_f32_gemv_packed(y, x, W.packed, bias);
  else if (one_row && W.is_half()) ew_h16_gemv(y, x, W.half.data(), out, W.half_type(), bias, in, out);
  else if (one_row) ew_f32_gemv(y, x, W.value.data(), out, bias, in, out);
  else if (W.is_half()) ew_h16_matmul(y, ldy, x, in, W.half.data(), out, W.half_type(), bias, rows, in, out, fused);
  else ew_f32_matmul(y, ldy, x, in, W.value.data(), out, bias, rows, in, out, fused);
  if (fused == act && !y_act) return;
  // the activation of each stored pre-activation (into y_act, else in place), as the packed kernel's store
  float* z = y_act ? y_act : y;
  for (int i = 0; i < rows; ++i)
    ew_f32_activate(z + static_cast<std::size_t>(i) * ldy, y + static_cast<std::size_t>(i) * ldy, out, act);
}

void param_scores(float* s, int lds, const float* x, int ldx, const Param& E, int rows, int first, int n) {
  if (E.half_packed || E.packed_only()) throw Error("internal: '" + E.id + "' is a packed matmul weight, not a table");
  const int d = static_cast<int>(E.dim(1));
  const std::size_t at = static_cast<std::size_t>(first) * d;
  if (E.is_half()) ew_h16_scores(s, lds, x, ldx, E.half.data() + at, d, E.half_type(), rows, n, d);
  else ew_f32_scores(s, lds, x, ldx, E.f32() + at, d, rows, n, d);
}

void reuse_seeded_params(Model& next, Model& prev) {
  if (next.given_params || prev.given_params || next.config.seed != prev.config.seed) return;
  for (const Spec& spec : inventory(next, 1, 1)) {
    if (spec.init == Init::Table) continue;
    auto it = std::find_if(prev.params.begin(), prev.params.end(), [&](const Param& p) { return p.id == spec.id; });
    if (it == prev.params.end()) continue;
    const std::vector<std::size_t> shape = it->shape();
    if (shape != spec.shape || (spec.packed && it->packed.data.empty())) continue;
    next.params.push_back(std::move(*it));
    prev.params.erase(it);
  }
}

AttnGeom attn_geom(const Model& m) {
  const Config& c = m.config;
  const int H = c.num_heads, hd = m.arch.head_dim > 0 ? m.arch.head_dim : c.d_k();
  const float scale = m.arch.attn_scale > 0 ? m.arch.attn_scale : c.scale ? 1.0f / std::sqrt(static_cast<float>(hd)) : 1.0f;
  return {H, m.arch.kv_heads > 0 ? m.arch.kv_heads : H, hd, scale};
}

std::vector<std::size_t> Param::shape() const {
  if (is_half()) return half_shape;
  if (packed_only()) return {static_cast<std::size_t>(packed.K), static_cast<std::size_t>(packed.N)};
  if (is_adopted()) return adopted_shape;
  return std::vector<std::size_t>(value.shape().begin(), value.shape().end());
}

std::size_t Param::size() const {
  if (is_half()) return half_packed ? half_shape[0] * half_shape[1] : half.size();
  if (packed_only()) return static_cast<std::size_t>(packed.K) * static_cast<std::size_t>(packed.N);
  if (is_adopted()) return adopted.size();
  return value.size();
}

float Param::at(std::size_t i) const {
  if (is_half() && !half_packed) return ew_half_to_f32(half.data()[i], half_type());
  if (is_half()) {
    float v = 0.0f;
    ew_h16_unpack_b(half.data(), half_k(), half_n(), half_type(), i, 1, &v);
    return v;
  }
  if (!packed_only()) return f32()[i];
  float v = 0.0f;
  ew_f32_unpack_b(packed, i, 1, &v);
  return v;
}

void Param::widen(std::size_t first, std::size_t n, float* out) const {
  if (is_half() && half_packed) ew_h16_unpack_b(half.data(), half_k(), half_n(), half_type(), first, n, out);
  else if (is_half()) ew_h16_widen(out, half.data() + first, n, half_type());
  else if (packed_only()) ew_f32_unpack_b(packed, first, n, out);
  else std::copy(f32() + first, f32() + first + n, out);
}

const float* Param::f32() const {
  if (is_half()) throw Error("parameter '" + id + "' is 16-bit: it has no float32 numbers to read in place");
  if (packed_only()) throw Error("parameter '" + id + "' is kept packed: it has no row-major numbers to read in place");
  return is_adopted() ? adopted.data() : value.data();
}

Widened Param::widened() const {
  if (has_f32()) return Widened(f32(), {});
  std::vector<float> w(size());
  widen(0, w.size(), w.data());
  return Widened(nullptr, std::move(w));
}

void Param::set(std::size_t i, float v) {
  if (is_half()) make_f32();  // the edit is a float32 value, which 16 bits may not hold (widening is exact)
  const bool only = packed_only();
  if (!packed.data.empty()) ew_f32_packed_set(&packed, i, v);
  if (!only) (is_adopted() ? adopted.data() : value.data())[i] = v;
}

void Param::make_f32() {
  if (is_half() && half_packed) {  // the panels widened in place of the 16-bit ones: packed only, float32
    packed.K = half_k();
    packed.N = half_n();
    packed.data.resize(half.size());
    ew_h16_widen(packed.data.data(), half.data(), half.size(), half_type());
    value = xt::xarray<float>::from_shape({0});
    dtype = Dtype::F32;
    half = HalfBuffer();
    half_shape.clear();
    half_packed = false;
    return;
  }
  if (is_adopted()) {  // an adopted table into `value` (training's optimizer updates `value`)
    xt::xarray<float> rows = xt::xarray<float>::from_shape(adopted_shape);
    std::copy(adopted.data(), adopted.data() + adopted.size(), rows.data());
    value = std::move(rows);
    adopted = FloatBuffer();
    adopted_shape.clear();
    return;
  }
  if (packed_only()) {  // row-major float32 beside the panels (the packed copy stays current: set())
    xt::xarray<float> rows = xt::xarray<float>::from_shape(shape());
    ew_f32_unpack_b(packed, 0, rows.size(), rows.data());
    value = std::move(rows);
    return;
  }
  if (!is_half()) return;
  value = xt::xarray<float>::from_shape(half_shape);
  ew_h16_widen(value.data(), half.data(), half.size(), half_type());
  dtype = Dtype::F32;
  half = HalfBuffer();
  half_shape.clear();
}

const Param* Model::find(const std::string& id) const {
  for (const Param& p : params)
    if (p.id == id) return &p;
  return nullptr;
}

const Param& Model::at(const std::string& id) const {
  const Param* p = find(id);
  if (!p) throw Error("internal: model has no parameter '" + id + "'");
  return *p;
}

Param& Model::at(const std::string& id) {
  return const_cast<Param&>(static_cast<const Model&>(*this).at(id));
}

std::string shape_str(const std::vector<std::size_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

}  // namespace ew
