// layers.cpp — encoder and decoder layers composed from attention.h and record.h: each
// reads as the flat list of its sub-steps, in forward order.
#include "trace/layers.h"

#include "trace/attention.h"

namespace ew {

namespace {

// Position-wise feed-forward network: U = X W_1 + b_1, FFN(X) = act(U) W_2 + b_2.
Tensor rec_ffn(Rec r, const std::string& P, const Tensor& x, int T) {
  const Config& c = r.model.config;
  const Rec f = r.in("ffn");
  const Tensor hidden = rec_linear_act(f, P + "ffn_pre", P + "ffn_hidden", per_token(r, T, dim(c.d_ff, "hidden")),
                                       "Feed-forward: first linear layer", "U = X W_1 + b_1", x, P + "W_1", P + "b_1",
                                       c.activation,
                                       "Each position separately, widened to d_ff = " + std::to_string(c.d_ff) + ".");
  return rec_linear(f, P + "ffn_out", per_token(r, T, dim(c.d_model, "feature")), "Feed-forward: second linear layer",
                    std::string("\\mathrm{FFN}(X) = ") +
                        (c.activation == Activation::GELU ? "\\mathrm{GELU}" : "\\max(0, \\cdot)") +
                        "(X W_1 + b_1)\\, W_2 + b_2",
                    hidden, P + "W_2", P + "b_2", "Back to d_model columns.");
}

Tensor self_attention(Rec r, const std::string& prefix, const Tensor& x, int T, const Tensor& mask,
                      const std::string& what) {
  return rec_attention(r.in("self_attention"), {prefix, {x, T, r.tokens}, {x, T, r.tokens}, mask, what});
}

Tensor cross_attention(Rec r, const std::string& prefix, const Tensor& y, int S, const Tensor& enc, int T,
                       const Tensor& mask) {
  return rec_attention(r.in("cross_attention"), {prefix, {y, S, "target"}, {enc, T, "source"}, mask, "cross-attention"});
}

}  // namespace

Tensor rec_encoder_layer(Rec r, int i, const Tensor& x, int T, const Tensor& mask) {
  const Config& c = r.model.config;
  r.place = {"encoder", i, "", -1};
  const std::string P = "layer" + std::to_string(i) + ".";
  const Dims rows = per_token(r, T, dim(c.d_model, "feature"));
  const Rec an = r.in("add_norm");
  const std::string what = c.causal ? "masked self-attention" : "self-attention";

  if (c.norm == NormOrder::Post) {
    const Tensor att = self_attention(r, P, x, T, mask, what);
    const Tensor r1 = rec_add(an, P + "residual1", rows, "Residual: input + attention", "R_1 = X + \\mathrm{MHA}(X)", x,
                              att, "The residual connection keeps the input's information.");
    const Tensor o = rec_layernorm(an, P + "ln1", {}, rows, "Add & norm 1", r1, P + "ln1",
                                   "O = LayerNorm(X + MHA(X)): post-norm, as in the original Transformer.");
    const Tensor f = rec_ffn(r, P, o, T);
    const Tensor r2 = rec_add(an, P + "residual2", rows, "Residual: O + feed-forward", "R_2 = O + \\mathrm{FFN}(O)", o, f);
    return rec_layernorm(an, P + "ln2", P + "output", rows, "Add & norm 2: layer output", r2,
                         P + "ln2", "LayerNorm(O + FFN(O)): this layer's output.");
  }
  // Pre-norm (seed 004): normalise first, add the raw residual after.
  const Tensor n1 = rec_layernorm(an, P + "ln1", {}, rows, "LayerNorm before attention", x, P + "ln1",
                                  "Pre-norm: the sub-layer sees a normalised input.");
  const Tensor att = self_attention(r, P, n1, T, mask, what);
  const Tensor r1 = rec_add(an, P + "residual1", rows, "Residual: input + attention",
                            "R_1 = X + \\mathrm{MHA}(\\mathrm{LN}_1(X))", x, att);
  const Tensor n2 = rec_layernorm(an, P + "ln2", {}, rows, "LayerNorm before the feed-forward", r1, P + "ln2");
  const Tensor f = rec_ffn(r, P, n2, T);
  const Tensor r2 = rec_add(an, P + "residual2", rows, "Residual: R_1 + feed-forward",
                            "R_2 = R_1 + \\mathrm{FFN}(\\mathrm{LN}_2(R_1))", r1, f);
  return rec_copy(r.in("layer_output"), P + "output", rows, "Layer output", "X^{(\\ell+1)} = R_2", r2,
                  "Pre-norm layers add without normalising; the next layer normalises its input.");
}

Tensor rec_decoder_layer(Rec r, int j, const Tensor& y, int S, const Tensor& enc, int T, const Tensor& self_mask,
                         const Tensor& cross_mask) {
  const Config& c = r.model.config;
  r.place = {"decoder", j, "", -1};
  const std::string P = "decoder" + std::to_string(j) + ".";
  const Dims rows = per_token(r, S, dim(c.d_model, "feature"));
  const Rec an = r.in("add_norm");

  if (c.norm == NormOrder::Post) {
    const Tensor sa = self_attention(r, P + "self.", y, S, self_mask, "masked self-attention");
    const Tensor r1 = rec_add(an, P + "residual1", rows, "Residual: input + masked self-attention",
                              "R_1 = Y + \\mathrm{MaskedMHA}(Y)", y, sa);
    const Tensor n1 = rec_layernorm(an, P + "ln1", {}, rows, "Add & norm 1", r1, P + "ln1");
    const Tensor ca = cross_attention(r, P + "cross.", n1, S, enc, T, cross_mask);
    const Tensor r2 = rec_add(an, P + "residual2", rows, "Residual: + cross-attention",
                              "R_2 = O_1 + \\mathrm{MHA}(O_1, H, H)", n1, ca);
    const Tensor n2 = rec_layernorm(an, P + "ln2", {}, rows, "Add & norm 2", r2, P + "ln2");
    const Tensor f = rec_ffn(r, P, n2, S);
    const Tensor r3 = rec_add(an, P + "residual3", rows, "Residual: + feed-forward", "R_3 = O_2 + \\mathrm{FFN}(O_2)", n2, f);
    return rec_layernorm(an, P + "ln3", P + "output", rows, "Add & norm 3: decoder layer output", r3,
                         P + "ln3");
  }
  const Tensor n1 = rec_layernorm(an, P + "ln1", {}, rows, "LayerNorm before masked self-attention", y, P + "ln1");
  const Tensor sa = self_attention(r, P + "self.", n1, S, self_mask, "masked self-attention");
  const Tensor r1 = rec_add(an, P + "residual1", rows, "Residual: input + masked self-attention",
                            "R_1 = Y + \\mathrm{MaskedMHA}(\\mathrm{LN}_1(Y))", y, sa);
  const Tensor n2 = rec_layernorm(an, P + "ln2", {}, rows, "LayerNorm before cross-attention", r1, P + "ln2");
  const Tensor ca = cross_attention(r, P + "cross.", n2, S, enc, T, cross_mask);
  const Tensor r2 = rec_add(an, P + "residual2", rows, "Residual: + cross-attention",
                            "R_2 = R_1 + \\mathrm{MHA}(\\mathrm{LN}_2(R_1), H, H)", r1, ca);
  const Tensor n3 = rec_layernorm(an, P + "ln3", {}, rows, "LayerNorm before the feed-forward", r2, P + "ln3");
  const Tensor f = rec_ffn(r, P, n3, S);
  const Tensor r3 = rec_add(an, P + "residual3", rows, "Residual: + feed-forward",
                            "R_3 = R_2 + \\mathrm{FFN}(\\mathrm{LN}_3(R_2))", r2, f);
  return rec_copy(r.in("layer_output"), P + "output", rows, "Decoder layer output", "Y^{(\\ell+1)} = R_3", r3);
}

}  // namespace ew
