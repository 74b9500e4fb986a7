// lens.cpp — the logit lens and direct logit attribution (lens.h).
#include "trace/lens.h"

#include <algorithm>
#include <cmath>

#include "model/error.h"
#include "model/naming.h"
#include "model/params.h"
#include "trace/ops.h"
#include "trace/record.h"

namespace ew {

namespace {

// A layer's output step: where it is and its values (data pointers outlive later adds).
struct LayerOut {
  std::string id;
  Place place;
  const float* data;
  int T;
};

std::vector<LayerOut> layer_outputs(const Trace& t) {
  std::vector<LayerOut> out;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const Step& s = t[i];
    if (s.role == "output" && s.place.layer >= 0 && s.kind != "grad")
      out.push_back({s.id, s.place, s.data.data(), s.shape[s.shape.size() - 2]});
  }
  return out;
}

// The final LayerNorm of a stack ("final_ln" of the encoder, "decoder_final_ln"): its key.
ParamKey final_ln(const std::string& section) {
  return {{section, -1, "stack_output", -1}, section == "decoder" ? "decoder_final_ln" : "final_ln", ""};
}

// The classifier on the first token of each sentence of `h` ([B,] T, d): pooled, logits.
Tensor lens_classifier(Rec r, const Tensor& h, int T) {
  const Config& c = r.model.config;
  const int d = c.d_model, L = c.num_labels;
  Dims pooled_dims, label_dims;
  if (r.B > 1) pooled_dims.push_back(dim(r.B, "batch", "batch"));
  label_dims = pooled_dims;
  pooled_dims.push_back(dim(d, "feature"));
  label_dims.push_back(dim(L, "label", "labels"));
  Step& ps = r.trace.add(step_id(r.place, "pooled"), "pooled", pooled_dims, r.place, "Lens: first token's row",
                         "h = H^{(\\ell)}_{0}", "pool", {h.id});
  const std::string pooled_id = ps.id;
  float* pooled = ps.data.data();
  for (int b = 0; b < r.B; ++b) std::copy_n(h.data + static_cast<std::size_t>(b) * T * d, d, pooled + b * d);
  std::string h_id = pooled_id;
  if (r.model.arch.pooler != Activation::None) {  // BERT's pooler, DistilBERT's pre-classifier
    const Place at{"classifier", -1, "pooler", -1};
    const Param& Wp = r.model.at(param_id({at, "", "W_p"}));
    const Param& bp = r.model.at(param_id({at, "", "b_p"}));
    Step& pre = r.trace.add(step_id(r.place, "pooler_pre"), "pooler_pre", pooled_dims, r.place, "Lens: pooler's dense layer",
                            "u = h W^{p} + b^{p}", "linear", {pooled_id, Wp.id, bp.id},
                            "The model's own pooler applied to this layer's first token.");
    const std::string pre_id = pre.id;
    float* u = pre.data.data();
    Step& act = r.trace.add(step_id(r.place, "pooler"), "pooler", pooled_dims, r.place, "Lens: pooler's activation",
                            "p = \\mathrm{act}(u)", "activation", {pre_id});
    param_matmul(u, d, pooled, Wp, bp.f32(), r.B, r.model.arch.pooler, act.data.data());
    pooled = act.data.data();
    h_id = act.id;
  }
  const Param& W = r.model.at("cls.W");
  const Param& bias = r.model.at("cls.b");
  Step& ls = r.trace.add(step_id(r.place, "logits"), "logits", label_dims, r.place, "Lens: classifier logits",
                         "z^{(\\ell)} = h W^{\\text{cls}} + b^{\\text{cls}}", "linear", {h_id, W.id, bias.id},
                         "The model's own classifier applied to this layer's first token.");
  param_matmul(ls.data.data(), L, pooled, W, bias.f32(), r.B, Activation::None);
  return {ls.id, ls.data.data()};
}

// A checkpoint's masked-LM transform (BERT, DistilBERT: dense, activation, LayerNorm) on `h`,
// with the head's own parameters, recorded at the lens's place.
Tensor lens_mlm_transform(Rec r, const Tensor& h, int T) {
  const Config& c = r.model.config;
  const int d = c.d_model;
  const Place head{"masked_lm", -1, "transform", -1};
  const Param& W = r.model.at(param_id({head, "", "W_t"}));
  const Param& b = r.model.at(param_id({head, "", "b_t"}));
  const Dims rows = per_token(r, T, dim(d, "feature"));
  Step& pre = r.trace.add(step_id(r.place, "transform_pre"), "transform_pre", rows, r.place, "Lens: masked-LM head's dense layer",
                          "U = H^{(\\ell)} W^{t} + b^{t}", "linear", {h.id, W.id, b.id},
                          "The masked-LM head's own layer applied to this layer's output.");
  const std::string pre_id = pre.id;
  float* u = pre.data.data();
  Step& act = r.trace.add(step_id(r.place, "transform_act"), "transform_act", rows, r.place, "Lens: activation",
                          "A = \\mathrm{act}(U)", "activation", {pre_id});
  param_matmul(u, d, h.data, W, b.f32(), r.B * T, c.activation, act.data.data());
  return rec_layernorm(r, "transform_ln", "", rows, "Lens: masked-LM head's LayerNorm", {act.id, act.data.data()},
                       {head, "transform_ln", {}}, "The head's own LayerNorm (γ, β).");
}

// Every row of `h` against the token table (the masked-word head, the decoder's projection, a
// causal LM's head), plus the masked-LM head's bias where it has one.
Tensor lens_vocab(Rec r, const Tensor& h, int T) {
  const int d = r.model.config.d_model, V = static_cast<int>(r.trace.text.vocab.size());
  const Param& E = r.model.at(r.model.arch.untied_head ? "lm_head" : "embedding_table");
  const Param* bias = r.model.arch.mlm_transform ? &r.model.at(param_id({{"masked_lm", -1, "projection", -1}, "", "b"})) : nullptr;
  std::vector<std::string> inputs{h.id, E.id};
  if (bias) inputs.push_back(bias->id);
  Step& ls = r.trace.add(step_id(r.place, "logits"), "logits", per_token(r, T, dim(V, "vocab", "vocab")), r.place,
                         "Lens: logits over the vocabulary",
                         bias ? "z^{(\\ell)} = U^{(\\ell)} E^{\\top} + b" : "z^{(\\ell)} = H^{(\\ell)} E^{\\top}", "logits",
                         inputs, "The model's own tied output projection applied to this layer's output.");
  param_scores(ls.data.data(), V, h.data, d, E, r.B * T, 0, V);
  if (bias)
    for (std::size_t i = 0; i < static_cast<std::size_t>(r.B) * T; ++i)
      for (int v = 0; v < V; ++v) ls.data[i * V + v] += bias->f32()[v];
  return {ls.id, ls.data.data()};
}

void lens_layer(Trace& t, const Model& m, const LayerOut& o) {
  const Config& c = m.config;
  const bool dec = o.place.section == "decoder";
  const int B = dec ? 1 : static_cast<int>(std::max<std::size_t>(1, t.text.source_tokens.size()));
  Rec r{t, m, B, dec ? "target" : "source", {o.place.section, o.place.layer, "lens", -1}};
  Tensor h{o.id, o.data};
  if (m.arch.rms_norm) {  // Llama, Qwen, Gemma: the final RMSNorm
    const ParamKey ln{{"encoder", -1, "stack_output", -1}, "final_norm", ""};
    h = rec_rmsnorm(r, ln.norm, "", per_token(r, o.T, dim(c.d_model, "feature")), "Lens: final RMSNorm", h, ln,
                    "The stack's own final RMSNorm (γ) applied to this layer's output.");
  } else if (c.norm == NormOrder::Pre) {
    const ParamKey ln = final_ln(o.place.section);
    h = rec_layernorm(r, ln.norm, "", per_token(r, o.T, dim(c.d_model, "feature")), "Lens: final LayerNorm", h, ln,
                      "The stack's own final LayerNorm (γ, β) applied to this layer's output.");
  }
  if (!dec && c.num_labels == 0 && c.masked_lm && m.arch.mlm_transform) h = lens_mlm_transform(r, h, o.T);
  const Tensor logits = !dec && c.num_labels > 0 ? lens_classifier(r, h, o.T) : lens_vocab(r, h, o.T);
  Dims dims;
  for (std::size_t a = 0; a < t.at(logits.id).shape.size(); ++a)
    dims.push_back({t.at(logits.id).shape[a], t.at(logits.id).axes[a]});
  rec_softmax(r, "probs", dims, "Lens: probabilities", logits, "What the model would answer if it stopped here.");
}

}  // namespace

void rec_lens(Trace& trace, const Model& model) {
  const Config& c = model.config;
  int n = 0;
  for (const LayerOut& o : layer_outputs(trace)) {
    if (o.place.section == "encoder" && c.num_labels == 0 && !c.masked_lm && !model.arch.lm_head) continue;
    lens_layer(trace, model, o);
    ++n;
  }
  if (!n)
    throw Error("the logit lens reads layers through the model's own head, and this model has none for its layers "
                "(no classifier, masked-word head, language-model head or decoder)");
}

}  // namespace ew
