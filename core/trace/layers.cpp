// layers.cpp — encoder and decoder layers composed from attention.h and record.h: each
// reads as the flat list of its sub-steps, in forward order.
#include "trace/layers.h"

#include "trace/attention.h"
#include "trace/ops.h"

namespace ew {

namespace {

// Position-wise feed-forward network: U = X W_1 + b_1, FFN(X) = act(U) W_2 + b_2.
Tensor rec_ffn(Rec r, const Tensor& x, int T) {
  const Config& c = r.model.config;
  const Rec f = r.in("ffn");
  const Tensor hidden = rec_linear_act(f, "ffn_pre", "ffn_hidden", per_token(r, T, dim(c.d_ff, "hidden")),
                                       "Feed-forward: first linear layer", "U = X W_1 + b_1", x, "W_1", "b_1",
                                       c.activation,
                                       "Each position separately, widened to d_ff = " + std::to_string(c.d_ff) + ".");
  return rec_linear(f, "ffn_out", per_token(r, T, dim(c.d_model, "feature")), "Feed-forward: second linear layer",
                    std::string("\\mathrm{FFN}(X) = ") +
                        (c.activation == Activation::GELU       ? "\\mathrm{GELU}"
                         : c.activation == Activation::GELUTanh ? "\\mathrm{GELU}_{\\tanh}"
                                                                : "\\max(0, \\cdot)") +
                        "(X W_1 + b_1)\\, W_2 + b_2",
                    hidden, "W_2", "b_2", "Back to d_model columns.");
}

Tensor self_attention(Rec r, const Tensor& x, int T, const Tensor& mask, const std::string& what) {
  return rec_attention(r.in("self_attention"), {{x, T, r.tokens}, {x, T, r.tokens}, mask, what});
}

Tensor cross_attention(Rec r, const Tensor& y, int S, const Tensor& enc, int T, const Tensor& mask) {
  return rec_attention(r.in("cross_attention"), {{y, S, "target"}, {enc, T, "source"}, mask, "cross-attention"});
}

// A LayerNorm of this layer's add & norm block: `role` names it and its parameters.
Tensor norm(const Rec& an, const char* role, const char* out_role, const Dims& rows, const std::string& title,
            const Tensor& x, const std::string& note = {}) {
  return rec_layernorm(an, role, out_role, rows, title, x, {an.place, role, {}}, note);
}

}  // namespace

Tensor rec_encoder_layer(Rec r, int i, const Tensor& x, int T, const Tensor& mask) {
  const Config& c = r.model.config;
  r.place = {"encoder", i, "", -1};
  const Dims rows = per_token(r, T, dim(c.d_model, "feature"));
  const Rec an = r.in("add_norm");
  const std::string what = c.causal ? "masked self-attention" : "self-attention";

  if (c.norm == NormOrder::Post) {
    const Tensor att = self_attention(r, x, T, mask, what);
    const Tensor r1 = rec_add(an, "residual1", rows, "Residual: input + attention", "R_1 = X + \\mathrm{MHA}(X)", x,
                              att, "The residual connection keeps the input's information.");
    const Tensor o = norm(an, "ln1", "", rows, "Add & norm 1", r1,
                          "O = LayerNorm(X + MHA(X)): post-norm, as in the original Transformer.");
    const Tensor f = rec_ffn(r, o, T);
    const Tensor r2 = rec_add(an, "residual2", rows, "Residual: O + feed-forward", "R_2 = O + \\mathrm{FFN}(O)", o, f);
    return norm(an, "ln2", "output", rows, "Add & norm 2: layer output", r2, "LayerNorm(O + FFN(O)): this layer's output.");
  }
  // Pre-norm (seed 004): normalise first, add the raw residual after.
  const Tensor n1 = norm(an, "ln1", "", rows, "LayerNorm before attention", x,
                        "Pre-norm: the sub-layer sees a normalised input.");
  const Tensor att = self_attention(r, n1, T, mask, what);
  const Tensor r1 = rec_add(an, "residual1", rows, "Residual: input + attention",
                            "R_1 = X + \\mathrm{MHA}(\\mathrm{LN}_1(X))", x, att);
  const Tensor n2 = norm(an, "ln2", "", rows, "LayerNorm before the feed-forward", r1);
  const Tensor f = rec_ffn(r, n2, T);
  const Tensor r2 = rec_add(an, "residual2", rows, "Residual: R_1 + feed-forward",
                            "R_2 = R_1 + \\mathrm{FFN}(\\mathrm{LN}_2(R_1))", r1, f);
  return rec_copy(r.in("layer_output"), "output", rows, "Layer output", "X^{(\\ell+1)} = R_2", r2,
                  "Pre-norm layers add without normalising; the next layer normalises its input.");
}

Tensor rec_decoder_layer(Rec r, int j, const Tensor& y, int S, const Tensor& enc, int T, const Tensor& self_mask,
                         const Tensor& cross_mask) {
  const Config& c = r.model.config;
  r.place = {"decoder", j, "", -1};
  const Dims rows = per_token(r, S, dim(c.d_model, "feature"));
  const Rec an = r.in("add_norm");

  if (c.norm == NormOrder::Post) {
    const Tensor sa = self_attention(r, y, S, self_mask, "masked self-attention");
    const Tensor r1 = rec_add(an, "residual1", rows, "Residual: input + masked self-attention",
                              "R_1 = Y + \\mathrm{MaskedMHA}(Y)", y, sa);
    const Tensor n1 = norm(an, "ln1", "", rows, "Add & norm 1", r1);
    const Tensor ca = cross_attention(r, n1, S, enc, T, cross_mask);
    const Tensor r2 = rec_add(an, "residual2", rows, "Residual: + cross-attention",
                              "R_2 = O_1 + \\mathrm{MHA}(O_1, H, H)", n1, ca);
    const Tensor n2 = norm(an, "ln2", "", rows, "Add & norm 2", r2);
    const Tensor f = rec_ffn(r, n2, S);
    const Tensor r3 = rec_add(an, "residual3", rows, "Residual: + feed-forward", "R_3 = O_2 + \\mathrm{FFN}(O_2)", n2, f);
    return norm(an, "ln3", "output", rows, "Add & norm 3: decoder layer output", r3);
  }
  const Tensor n1 = norm(an, "ln1", "", rows, "LayerNorm before masked self-attention", y);
  const Tensor sa = self_attention(r, n1, S, self_mask, "masked self-attention");
  const Tensor r1 = rec_add(an, "residual1", rows, "Residual: input + masked self-attention",
                            "R_1 = Y + \\mathrm{MaskedMHA}(\\mathrm{LN}_1(Y))", y, sa);
  const Tensor n2 = norm(an, "ln2", "", rows, "LayerNorm before cross-attention", r1);
  const Tensor ca = cross_attention(r, n2, S, enc, T, cross_mask);
  const Tensor r2 = rec_add(an, "residual2", rows, "Residual: + cross-attention",
                            "R_2 = R_1 + \\mathrm{MHA}(\\mathrm{LN}_2(R_1), H, H)", r1, ca);
  const Tensor n3 = norm(an, "ln3", "", rows, "LayerNorm before the feed-forward", r2);
  const Tensor f = rec_ffn(r, n3, S);
  const Tensor r3 = rec_add(an, "residual3", rows, "Residual: + feed-forward",
                            "R_3 = R_2 + \\mathrm{FFN}(\\mathrm{LN}_3(R_2))", r2, f);
  return rec_copy(r.in("layer_output"), "output", rows, "Decoder layer output", "Y^{(\\ell+1)} = R_3", r3);
}

Tensor rec_modern_layer(Rec r, int i, const Tensor& x, int T, const Tensor& mask, const Tensor& rope) {
  const Config& c = r.model.config;
  const Arch& a = r.model.arch;
  r.place = {"encoder", i, "", -1};
  const Dims rows = per_token(r, T, dim(c.d_model, "feature"));
  const Rec an = r.in("add_norm");
  const auto rms = [&](const char* role, const std::string& title, const Tensor& in, const std::string& note = {}) {
    return rec_rmsnorm(an, role, "", rows, title, in, {an.place, role, {}}, note);
  };
  const bool sliding = i < static_cast<int>(a.sliding.size()) && a.sliding[static_cast<std::size_t>(i)];
  const std::string what = sliding ? "sliding-window self-attention" : "masked self-attention";
  const Tensor n1 = rms("attn_norm", "RMSNorm before attention", x, "Pre-norm: the attention sees a normalised input.");
  Tensor att = rec_attention(r.in("self_attention"), {{n1, T, r.tokens}, {n1, T, r.tokens}, mask, what, rope});
  if (a.sandwich_norm)
    att = rms("post_attn_norm", "RMSNorm after attention", att, "Gemma normalises the attention's output before adding it.");
  const Tensor r1 = rec_add(an, "residual1", rows, "Residual: input + attention", "R_1 = X + \\mathrm{Attn}(\\mathrm{RMSNorm}(X))",
                            x, att);
  const Tensor n2 = rms("ffn_norm", "RMSNorm before the feed-forward", r1);
  Tensor f = rec_gated_ffn(r, n2, T);
  if (a.sandwich_norm)
    f = rms("post_ffn_norm", "RMSNorm after the feed-forward", f, "Gemma normalises the feed-forward's output too.");
  const Tensor r2 = rec_add(an, "residual2", rows, "Residual: R_1 + feed-forward",
                            "R_2 = R_1 + \\mathrm{FFN}(\\mathrm{RMSNorm}(R_1))", r1, f);
  return rec_copy(r.in("layer_output"), "output", rows, "Decoder layer output", "X^{(\\ell+1)} = R_2", r2,
                  "Pre-norm layers add without normalising; the next layer normalises its input.");
}

}  // namespace ew
