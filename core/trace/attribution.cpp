// attribution.cpp — direct logit attribution (attribution.h).
#include "trace/attribution.h"

#include <algorithm>
#include <cmath>

#include "kernels/kernels.h"
#include "model/error.h"
#include "model/naming.h"
#include "trace/record.h"

namespace ew {

namespace {

// What is attributed: a stream (section), a row of its per-token steps, the head's direction
// w (d values) and bias, and the model's own logit.
struct Target {
  std::string section, name;
  int row = 0;
  std::vector<double> w;
  double bias = 0, logit = 0;
  std::string bias_part;  // the head's bias parameter ("cls.b"), "" when it has none
};

std::vector<double> table_row(const Model& m, int tok) {
  const int d = m.config.d_model;
  std::vector<float> row(static_cast<std::size_t>(d));
  m.at("embedding_table").widen(static_cast<std::size_t>(tok) * d, d, row.data());
  return std::vector<double>(row.begin(), row.end());
}

Target find_target(const Trace& t, const Model& m) {
  const Config& c = m.config;
  const int d = c.d_model, V = static_cast<int>(t.text.vocab.size());
  Target g;
  if (c.decoder_layers > 0) {  // the decoder's last position: the token it predicts next
    const Step& p = t.at("probs");
    g.section = "decoder";
    g.row = p.shape[0] - 1;
    const int tok = ew_f32_argmax(p.data.data() + static_cast<std::size_t>(g.row) * V, V);
    g.name = t.text.vocab[tok];
    g.w = table_row(m, tok);
    g.logit = t.at("logits").data[static_cast<std::size_t>(g.row) * V + tok];
  } else if (c.num_labels > 0) {  // the first sentence's label, read from its first token
    const int L = c.num_labels;
    const int label = ew_f32_argmax(t.at("cls.probs").data.data(), L);
    g.section = "encoder";
    g.row = 0;
    g.name = label < static_cast<int>(m.label_names.size()) ? m.label_names[label] : "label " + std::to_string(label);
    const Param& W = m.at("cls.W");
    for (int k = 0; k < d; ++k) g.w.push_back(W.at(static_cast<std::size_t>(k) * L + label));
    g.bias = m.at("cls.b").at(label);
    g.bias_part = "cls.b";
    g.logit = t.at("cls.logits").data[label];
  } else if (c.masked_lm) {  // the first [MASK] of the first sentence
    const auto& toks = t.text.source_tokens.at(0);
    const auto at = std::find(toks.begin(), toks.end(), "[MASK]");
    if (at == toks.end()) throw Error("logit attribution of a masked-word model needs a [MASK] in the text");
    g.section = "encoder";
    g.row = static_cast<int>(at - toks.begin());
    const int tok = ew_f32_argmax(t.at("mlm.probs").data.data() + static_cast<std::size_t>(g.row) * V, V);
    g.name = t.text.vocab[tok];
    g.w = table_row(m, tok);
    g.logit = t.at("mlm.logits").data[static_cast<std::size_t>(g.row) * V + tok];
  } else {
    throw Error("logit attribution needs a head whose logit it splits: a decoder, a classifier or a masked-word head");
  }
  return g;
}

// The parts of the residual stream at the target's row: name → d values.
std::vector<std::pair<std::string, std::vector<double>>> stream_parts(const Trace& t, const Model& m, const Target& g) {
  const int d = m.config.d_model, dk = m.config.d_k();
  std::vector<std::pair<std::string, std::vector<double>>> parts;
  const float* in = t.at(g.section == "decoder" ? "decoder_input" : "input").data.data() + static_cast<std::size_t>(g.row) * d;
  parts.push_back({g.section == "decoder" ? "decoder_input" : "input", std::vector<double>(in, in + d)});
  // row · W (rows [r0, r0 + n) of a d-column weight): one part.
  const auto through = [&](const float* row, int n, const Param& W, int r0) {
    std::vector<double> v(d, 0.0);
    std::vector<float> w(static_cast<std::size_t>(d));
    for (int k = 0; k < n; ++k) {
      W.widen(static_cast<std::size_t>(r0 + k) * d, d, w.data());
      for (int j = 0; j < d; ++j) v[j] += static_cast<double>(row[k]) * w[j];
    }
    return v;
  };
  for (std::size_t i = 0; i < t.size(); ++i) {
    const Step& s = t[i];
    if (s.place.section != g.section || s.place.layer < 0 || s.kind == "grad") continue;
    Place block = s.place;
    block.head = -1;
    if (s.role == "context" && s.place.head >= 0) {
      const std::string head = block_prefix(s.place);
      const Param& Wo = m.at(param_id({block, "", "W_o"}));
      parts.push_back({head.substr(0, head.size() - 1),
                       through(s.data.data() + static_cast<std::size_t>(g.row) * dk, dk, Wo, s.place.head * dk)});
    } else if (s.role == "attn_out" || s.role == "ffn_out") {
      const Param& b = m.at(param_id({block, "", s.role == "attn_out" ? "b_o" : "b_2"}));
      parts.push_back({b.id, std::vector<double>(b.f32(), b.f32() + d)});
    } else if (s.role == "ffn_hidden") {
      const int ff = s.shape.back();
      const Param& W2 = m.at(param_id({block, "", "W_2"}));
      parts.push_back({step_id(block, "ffn"), through(s.data.data() + static_cast<std::size_t>(g.row) * ff, ff, W2, 0)});
    }
  }
  return parts;
}

}  // namespace

nlohmann::json rec_attribution(Trace& t, const Model& m) {
  const Config& c = m.config;
  if (c.norm != NormOrder::Pre)
    throw Error("logit attribution splits the logit into a sum of parts, which needs a pre-norm model: in this "
                "post-norm model every layer ends in a LayerNorm that divides the whole residual stream by its own σ, "
                "so no layer's output is a sum of the earlier parts");
  const Target g = find_target(t, m);
  const int d = c.d_model;
  const ParamKey ln{{g.section, -1, "stack_output", -1}, g.section == "decoder" ? "decoder_final_ln" : "final_ln", ""};
  const Place stack{g.section, -1, "stack_output", -1};
  const std::string var_id = step_id(stack, "var", ln.norm);
  const double inv_sigma = 1.0 / std::sqrt(static_cast<double>(t.at(var_id).data[g.row]) + c.layer_norm_eps);
  const float* gamma = m.at(param_id({ln.place, ln.norm, "gamma"})).f32();
  const Param& beta = m.at(param_id({ln.place, ln.norm, "beta"}));

  std::vector<std::string> names;
  std::vector<double> values;
  for (const auto& [name, v] : stream_parts(t, m, g)) {
    double mean = 0, x = 0;
    for (double e : v) mean += e / d;
    for (int j = 0; j < d; ++j) x += (v[j] - mean) * gamma[j] * g.w[j];
    names.push_back(name);
    values.push_back(x * inv_sigma);
  }
  double b = 0;
  for (int j = 0; j < d; ++j) b += static_cast<double>(beta.f32()[j]) * g.w[j];
  names.push_back(beta.id);
  values.push_back(b);
  if (!g.bias_part.empty()) names.push_back(g.bias_part), values.push_back(g.bias);

  const Place at{"output", -1, "attribution", -1};
  const int P = static_cast<int>(names.size());
  Step& parts = t.add(step_id(at, "parts"), "parts", {dim(P, "part", "parts")}, at,
                      "Direct logit attribution of “" + g.name + "”",
                      "z = \\sum_p \\frac{(x_p - \\bar{x}_p)\\,\\gamma}{\\sigma} \\cdot w + \\beta \\cdot w + b",
                      "attr_parts", {var_id, param_id({ln.place, ln.norm, "gamma"})},
                      "Each part's centred contribution through the final LayerNorm with its 1/σ frozen; the parts sum to the logit.");
  std::transform(values.begin(), values.end(), parts.data.begin(), [](double v) { return static_cast<float>(v); });
  Step& scale = t.add(step_id(at, "scale"), "scale", {dim(1, "sequence")}, at, "Final LayerNorm's 1/σ (frozen)",
                      "1/\\sigma = 1/\\sqrt{\\sigma^2 + \\varepsilon}", "attr_scale", {var_id});
  scale.data[0] = static_cast<float>(inv_sigma);
  t.text.attr_parts = names;
  double sum = 0;
  for (double v : values) sum += v;
  return {{"target", g.name}, {"position", g.row}, {"logit", g.logit}, {"sum", sum}};
}

}  // namespace ew
