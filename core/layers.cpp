// layers.cpp — encoder and decoder layers composed from attention.h and record.h.
#include "layers.h"

#include "attention.h"

namespace ew {

namespace {

// Position-wise feed-forward network: H = f W_1 + b_1, act(H), F = act(H) W_2 + b_2.
const float* rec_ffn(Rec r, const std::string& P, const float* f, const std::string& f_id, int T) {
  const Config& c = r.model.config;
  const int B = r.B, d = c.d_model, ff = c.d_ff;
  const float* hidden = rec_linear_act(r, P + "ffn_pre", P + "ffn_hidden", batch_shape(B, T, ff),
                                      "Feed-forward: first linear layer", "H = X W_1 + b_1", f, f_id, B * T,
                                      P + "W_1", P + "b_1", c.activation,
                                      "Each position separately, widened to d_ff = " + std::to_string(ff) + ".");
  return rec_linear(r, P + "ffn_out", batch_shape(B, T, d), "Feed-forward: second linear layer",
                    std::string("\\mathrm{FFN}(X) = ") +
                        (c.activation == Activation::GELU ? "\\mathrm{GELU}" : "\\max(0, \\cdot)") +
                        "(X W_1 + b_1)\\, W_2 + b_2",
                    hidden, P + "ffn_hidden", B * T, P + "W_2", P + "b_2", "Back to d_model columns.");
}

}  // namespace

const float* rec_encoder_layer(Rec r, int i, const float* x, const std::string& x_id, int T,
                               const float* mask, const std::string& mask_id) {
  const Config& c = r.model.config;
  const int B = r.B, d = c.d_model, rows = B * T;
  const std::string P = "layer" + std::to_string(i) + ".";
  const auto shape = batch_shape(B, T, d);
  const auto stat = batch_shape(B, T);
  const std::string what = c.causal ? "masked self-attention" : "self-attention";

  if (c.norm == NormOrder::Post) {
    const float* att = rec_attention(r, {P, x, x_id, T, x, x_id, T, mask, mask_id, what});
    const float* r1 = rec_add(r, P + "residual1", shape, "Residual: input + attention", "R_1 = X + \\mathrm{MHA}(X)",
                              x, x_id, att, P + "attn_out", "The residual connection keeps the input's information.");
    const float* o = rec_layernorm(r, P + "ln1", {}, shape, stat, "Add & norm 1", r1, P + "residual1", rows, d,
                                   P + "ln1", "O = LayerNorm(X + MHA(X)): post-norm, as in the original Transformer.");
    const float* f = rec_ffn(r, P, o, P + "ln1", T);
    const float* r2 = rec_add(r, P + "residual2", shape, "Residual: O + feed-forward", "R_2 = O + \\mathrm{FFN}(O)",
                              o, P + "ln1", f, P + "ffn_out");
    return rec_layernorm(r, P + "ln2", P + "output", shape, stat, "Add & norm 2: layer output", r2,
                         P + "residual2", rows, d, P + "ln2", "LayerNorm(O + FFN(O)): this layer's output.");
  }
  // Pre-norm (seed 004): normalise first, add the raw residual after.
  const float* n1 = rec_layernorm(r, P + "ln1", {}, shape, stat, "LayerNorm before attention", x, x_id, rows, d,
                                  P + "ln1", "Pre-norm: the sub-layer sees a normalised input.");
  const float* att = rec_attention(r, {P, n1, P + "ln1", T, n1, P + "ln1", T, mask, mask_id, what});
  const float* r1 = rec_add(r, P + "residual1", shape, "Residual: input + attention",
                            "R_1 = X + \\mathrm{MHA}(\\mathrm{LN}_1(X))", x, x_id, att, P + "attn_out");
  const float* n2 = rec_layernorm(r, P + "ln2", {}, shape, stat, "LayerNorm before the feed-forward", r1,
                                  P + "residual1", rows, d, P + "ln2");
  const float* f = rec_ffn(r, P, n2, P + "ln2", T);
  const float* r2 = rec_add(r, P + "residual2", shape, "Residual: R_1 + feed-forward",
                            "R_2 = R_1 + \\mathrm{FFN}(\\mathrm{LN}_2(R_1))", r1, P + "residual1", f, P + "ffn_out");
  return rec_copy(r, P + "output", shape, "Layer output", "X^{(\\ell+1)} = R_2", r2, P + "residual2",
                  "Pre-norm layers add without normalising; the next layer normalises its input.");
}

const float* rec_decoder_layer(Rec r, int j, const float* y, const std::string& y_id, int S,
                               const float* enc, const std::string& enc_id, int T,
                               const float* self_mask, const float* cross_mask) {
  const Config& c = r.model.config;
  const int d = c.d_model, rows = S;
  const std::string P = "decoder" + std::to_string(j) + ".";
  const auto shape = batch_shape(1, S, d);
  const auto stat = batch_shape(1, S);

  if (c.norm == NormOrder::Post) {
    const float* sa = rec_attention(r, {P + "self.", y, y_id, S, y, y_id, S, self_mask, "decoder_mask",
                                        "masked self-attention"});
    const float* r1 = rec_add(r, P + "residual1", shape, "Residual: input + masked self-attention",
                              "R_1 = Y + \\mathrm{MaskedMHA}(Y)", y, y_id, sa, P + "self.attn_out");
    const float* n1 = rec_layernorm(r, P + "ln1", {}, shape, stat, "Add & norm 1", r1, P + "residual1", rows, d, P + "ln1");
    const float* ca = rec_attention(r, {P + "cross.", n1, P + "ln1", S, enc, enc_id, T, cross_mask, "cross_mask",
                                        "cross-attention"});
    const float* r2 = rec_add(r, P + "residual2", shape, "Residual: + cross-attention",
                              "R_2 = O_1 + \\mathrm{MHA}(O_1, E, E)", n1, P + "ln1", ca, P + "cross.attn_out");
    const float* n2 = rec_layernorm(r, P + "ln2", {}, shape, stat, "Add & norm 2", r2, P + "residual2", rows, d, P + "ln2");
    const float* f = rec_ffn(r, P, n2, P + "ln2", S);
    const float* r3 = rec_add(r, P + "residual3", shape, "Residual: + feed-forward", "R_3 = O_2 + \\mathrm{FFN}(O_2)",
                              n2, P + "ln2", f, P + "ffn_out");
    return rec_layernorm(r, P + "ln3", P + "output", shape, stat, "Add & norm 3: decoder layer output", r3,
                         P + "residual3", rows, d, P + "ln3");
  }
  const float* n1 = rec_layernorm(r, P + "ln1", {}, shape, stat, "LayerNorm before masked self-attention", y, y_id,
                                  rows, d, P + "ln1");
  const float* sa = rec_attention(r, {P + "self.", n1, P + "ln1", S, n1, P + "ln1", S, self_mask, "decoder_mask",
                                      "masked self-attention"});
  const float* r1 = rec_add(r, P + "residual1", shape, "Residual: input + masked self-attention",
                            "R_1 = Y + \\mathrm{MaskedMHA}(\\mathrm{LN}_1(Y))", y, y_id, sa, P + "self.attn_out");
  const float* n2 = rec_layernorm(r, P + "ln2", {}, shape, stat, "LayerNorm before cross-attention", r1,
                                  P + "residual1", rows, d, P + "ln2");
  const float* ca = rec_attention(r, {P + "cross.", n2, P + "ln2", S, enc, enc_id, T, cross_mask, "cross_mask",
                                      "cross-attention"});
  const float* r2 = rec_add(r, P + "residual2", shape, "Residual: + cross-attention",
                            "R_2 = R_1 + \\mathrm{MHA}(\\mathrm{LN}_2(R_1), E, E)", r1, P + "residual1", ca,
                            P + "cross.attn_out");
  const float* n3 = rec_layernorm(r, P + "ln3", {}, shape, stat, "LayerNorm before the feed-forward", r2,
                                  P + "residual2", rows, d, P + "ln3");
  const float* f = rec_ffn(r, P, n3, P + "ln3", S);
  const float* r3 = rec_add(r, P + "residual3", shape, "Residual: + feed-forward",
                            "R_3 = R_2 + \\mathrm{FFN}(\\mathrm{LN}_3(R_2))", r2, P + "residual2", f, P + "ffn_out");
  return rec_copy(r, P + "output", shape, "Decoder layer output", "Y^{(\\ell+1)} = R_3", r3, P + "residual3");
}

}  // namespace ew
