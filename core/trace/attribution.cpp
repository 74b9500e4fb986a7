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

// How far the parts may be from what the run computed (relative to their scale): float32 steps
// summed in double.
constexpr double kAttrTolerance = 1e-4;

// What is attributed: a stream (section), a row of its per-token steps, the head's direction
// w (d values) and bias, and the model's own logit.
struct Target {
  std::string section, name;
  int row = 0;
  std::vector<double> w;
  double bias = 0, logit = 0;
  std::string bias_part;  // the head's bias parameter ("cls.b"), "" when it has none
};

// ---- the weights read here (one place), through Param's accessor: a 16-bit checkpoint's matrices
// are widened a row at a time (model.h); vectors (a norm's γ and β, a bias [n]) are float32.
// The token table and an untied lm_head are [V, d]; matmul weights in × out (W_o [H·hd, d],
// W_2 / W_down [ff, d]).
const float* vector_of(const Model& m, const std::string& id) { return m.at(id).f32(); }
// Row r of a d-column matrix, widened.
std::vector<float> weight_row(const Model& m, const std::string& id, std::size_t r, int d) {
  std::vector<float> row(static_cast<std::size_t>(d));
  m.at(id).widen(r * static_cast<std::size_t>(d), static_cast<std::size_t>(d), row.data());
  return row;
}

// The output direction of token `tok`: its row of the head (an untied lm_head, else the table).
std::vector<double> head_row(const Model& m, int tok) {
  const std::vector<float> E = weight_row(m, m.arch.untied_head ? "lm_head" : "embedding_table", static_cast<std::size_t>(tok), m.config.d_model);
  return std::vector<double>(E.begin(), E.end());
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
    g.w = head_row(m, tok);
    g.logit = t.at("logits").data[static_cast<std::size_t>(g.row) * V + tok];
  } else if (m.arch.lm_head) {  // a causal LM (GPT-2, Llama, Qwen, Gemma): the last position's next token
    const Step& p = t.at("probs");
    g.section = "encoder";
    g.row = p.shape[p.shape.size() - 2] - 1;
    const int tok = ew_f32_argmax(p.data.data() + static_cast<std::size_t>(g.row) * V, V);
    g.name = t.text.vocab[tok];
    g.w = head_row(m, tok);
    g.logit = t.at("logits").data[static_cast<std::size_t>(g.row) * V + tok];
  } else if (c.num_labels > 0) {  // the first sentence's label, read from its first token
    const int L = c.num_labels;
    const int label = ew_f32_argmax(t.at("cls.probs").data.data(), L);
    g.section = "encoder";
    g.row = 0;
    g.name = label < static_cast<int>(m.label_names.size()) ? m.label_names[label] : "label " + std::to_string(label);
    const Param& W = m.at("cls.W");
    for (int k = 0; k < d; ++k) g.w.push_back(W.at(static_cast<std::size_t>(k) * L + label));
    g.bias = vector_of(m, "cls.b")[label];
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
    g.w = head_row(m, tok);
    g.logit = t.at("mlm.logits").data[static_cast<std::size_t>(g.row) * V + tok];
  } else {
    throw Error("logit attribution needs a head whose logit it splits: a decoder, a classifier or a masked-word head");
  }
  return g;
}

// The parts of the residual stream at the target's row: name → d values. Each block's part is
// what it added to the stream: a head's context through its own rows of W_o (with grouped-query
// attention too: query head h owns rows h·hd … h·hd + hd − 1, whatever K/V head it read), an
// output bias, the feed-forward's hidden units through W_2 / W_down; with Gemma's sandwich norms
// a block adds its post-norm's output, which is nonlinear in the heads, so the block is one part.
std::vector<std::pair<std::string, std::vector<double>>> stream_parts(const Trace& t, const Model& m, const Target& g) {
  const int d = m.config.d_model;
  const bool sandwich = m.arch.sandwich_norm;
  std::vector<std::pair<std::string, std::vector<double>>> parts;
  const std::string in_id = g.section == "decoder" ? "decoder_input" : "input";
  const auto row_of = [&](const Step& s) {
    const float* v = s.data.data() + static_cast<std::size_t>(g.row) * d;
    return std::vector<double>(v, v + d);
  };
  parts.push_back({in_id, row_of(t.at(in_id))});
  // row · W (rows [r0, r0 + n) of a d-column weight): one part.
  const auto through = [&](const float* row, int n, const std::string& W_id, int r0) {
    std::vector<double> v(d, 0.0);
    for (int k = 0; k < n; ++k) {
      const std::vector<float> w = weight_row(m, W_id, static_cast<std::size_t>(r0 + k), d);
      for (int j = 0; j < d; ++j) v[j] += static_cast<double>(row[k]) * w[j];
    }
    return v;
  };
  const auto bias = [&](const std::string& id) {
    const float* b = vector_of(m, id);
    parts.push_back({id, std::vector<double>(b, b + d)});
  };
  for (std::size_t i = 0; i < t.size(); ++i) {
    const Step& s = t[i];
    if (s.place.section != g.section || s.place.layer < 0 || s.kind == "grad") continue;
    Place block = s.place;
    block.head = -1;
    const bool gated = m.arch.gated_ffn;
    if (sandwich) {  // Gemma: the post-norms' outputs are what the blocks add
      if (s.kind != "rmsnorm" || (s.role != "post_attn_norm" && s.role != "post_ffn_norm")) continue;
      Place layer = block;
      layer.block = "";
      parts.push_back({step_id(layer, s.role == "post_attn_norm" ? "attn" : "ffn"), row_of(s)});
    } else if (s.role == "context" && s.place.head >= 0) {
      const int dk = s.shape.back();
      const std::string head = block_prefix(s.place);
      parts.push_back({head.substr(0, head.size() - 1),
                       through(s.data.data() + static_cast<std::size_t>(g.row) * dk, dk, param_id({block, "", "W_o"}),
                               s.place.head * dk)});
    } else if (s.role == "attn_out") {
      if (m.arch.out_bias || !m.arch.rms_norm) bias(param_id({block, "", "b_o"}));
    } else if (s.role == "ffn_out") {
      if (m.arch.ffn_bias || !m.arch.rms_norm) bias(param_id({block, "", gated ? "b_down" : "b_2"}));
    } else if (s.role == "ffn_hidden") {
      const int ff = s.shape.back();
      parts.push_back({step_id(block, "ffn"), through(s.data.data() + static_cast<std::size_t>(g.row) * ff, ff,
                                                      param_id({block, "", gated ? "W_down" : "W_2"}), 0)});
    }
  }
  return parts;
}

// The final norm of the target's stack as attribution freezes it: its recorded statistic (the
// LayerNorm's var, the RMSNorm's rms) at the target's row and what it multiplies each column by.
struct FinalNorm {
  bool rms = false;
  std::string stat_id, gamma_id, beta_id;  // beta_id "" for RMSNorm
  double inv = 0;                          // 1/σ or 1/rms, frozen
  std::vector<double> scale;               // γ_j, or (1 + γ_j) with Gemma's offset
};

FinalNorm final_norm(const Trace& t, const Model& m, const Target& g) {
  const Config& c = m.config;
  const int d = c.d_model;
  const Place stack{g.section, -1, "stack_output", -1};
  FinalNorm f;
  f.rms = m.arch.rms_norm;
  const std::string norm = f.rms ? "final_norm" : g.section == "decoder" ? "decoder_final_ln" : "final_ln";
  f.stat_id = step_id(stack, f.rms ? "rms" : "var", norm);
  f.gamma_id = param_id({stack, norm, "gamma"});
  if (!f.rms) f.beta_id = param_id({stack, norm, "beta"});
  const double stat = t.at(f.stat_id).data[g.row];
  f.inv = f.rms ? 1.0 / stat : 1.0 / std::sqrt(stat + c.layer_norm_eps);
  const float* gamma = vector_of(m, f.gamma_id);
  const double offset = f.rms ? m.arch.norm_offset : 0.0;
  for (int j = 0; j < d; ++j) f.scale.push_back(offset + gamma[j]);
  return f;
}

}  // namespace

nlohmann::json rec_attribution(Trace& t, const Model& m) {
  const Config& c = m.config;
  if (c.norm != NormOrder::Pre && !m.arch.rms_norm)
    throw Error("logit attribution splits the logit into a sum of parts, which needs a pre-norm model: in this "
                "post-norm model every layer ends in a LayerNorm that divides the whole residual stream by its own σ, "
                "so no layer's output is a sum of the earlier parts");
  const Target g = find_target(t, m);
  const int d = c.d_model;
  const FinalNorm fn = final_norm(t, m, g);
  const auto parts_of = stream_parts(t, m, g);

  // Exact only if the stream the final norm read is the sum of the parts: a patch or a set on the
  // stream itself (a layer's output, a residual sum) breaks that, and no split is then honest.
  const Step& stream = t.at(t.at(fn.stat_id).inputs.at(0));
  const float* x = stream.data.data() + static_cast<std::size_t>(g.row) * d;
  double worst = 0, xmax = 0;
  for (int j = 0; j < d; ++j) {
    double sum = 0;
    for (const auto& p : parts_of) sum += p.second[j];
    worst = std::max(worst, std::abs(sum - x[j]));
    xmax = std::max(xmax, std::abs(static_cast<double>(x[j])));
  }
  if (worst > kAttrTolerance * std::max(xmax, 1e-30))
    throw Error("logit attribution needs the residual stream to be the sum of the blocks' outputs, but at position " +
                std::to_string(g.row) + " " + stream.id + " differs from that sum by " + std::to_string(worst) +
                " (an intervention edited the stream itself, e.g. a patch of a layer's output): no split of the logit "
                "would be exact");

  std::vector<std::string> names;
  std::vector<double> values;
  for (const auto& [name, v] : parts_of) {
    double mean = 0, z = 0;
    if (!fn.rms)
      for (double e : v) mean += e / d;
    for (int j = 0; j < d; ++j) z += (v[j] - mean) * fn.scale[j] * g.w[j];
    names.push_back(name);
    values.push_back(z * fn.inv);
  }
  if (!fn.rms) {
    const float* beta = vector_of(m, fn.beta_id);
    double b = 0;
    for (int j = 0; j < d; ++j) b += static_cast<double>(beta[j]) * g.w[j];
    names.push_back(fn.beta_id);
    values.push_back(b);
  }
  if (!g.bias_part.empty()) names.push_back(g.bias_part), values.push_back(g.bias);
  double sum = 0, mag = std::abs(g.logit);
  for (double v : values) sum += v, mag += std::abs(v);
  if (std::abs(sum - g.logit) > kAttrTolerance * std::max(mag, 1e-30))
    throw Error("logit attribution's parts sum to " + std::to_string(sum) + " but the model's logit of “" + g.name +
                "” is " + std::to_string(g.logit) +
                ": something after the stream (an intervention on the final norm's output or the logits) changed it, "
                "so no split would be exact");

  const Place at{"output", -1, "attribution", -1};
  const int P = static_cast<int>(names.size());
  const std::string gamma_in = fn.gamma_id;
  Step& parts = t.add(step_id(at, "parts"), "parts", {dim(P, "part", "parts")}, at,
                      "Direct logit attribution of “" + g.name + "”",
                      fn.rms ? (m.arch.norm_offset != 0.0f ? "z = \\sum_p \\frac{x_p\\,(1 + \\gamma)}{\\mathrm{rms}} \\cdot w"
                                                           : "z = \\sum_p \\frac{x_p\\,\\gamma}{\\mathrm{rms}} \\cdot w")
                             : "z = \\sum_p \\frac{(x_p - \\bar{x}_p)\\,\\gamma}{\\sigma} \\cdot w + \\beta \\cdot w + b",
                      "attr_parts", {fn.stat_id, gamma_in},
                      fn.rms ? "Each part through the final RMSNorm with its 1/rms frozen at this run's value (RMSNorm has no "
                               "mean and no β); the parts sum to the logit."
                             : "Each part's centred contribution through the final LayerNorm with its 1/σ frozen; the parts "
                               "sum to the logit.");
  std::transform(values.begin(), values.end(), parts.data.begin(), [](double v) { return static_cast<float>(v); });
  Step& scale = t.add(step_id(at, "scale"), "scale", {dim(1, "sequence")}, at,
                      fn.rms ? "Final RMSNorm's 1/rms (frozen)" : "Final LayerNorm's 1/σ (frozen)",
                      fn.rms ? "1/\\mathrm{rms} = 1/\\sqrt{\\overline{x^2} + \\varepsilon}"
                             : "1/\\sigma = 1/\\sqrt{\\sigma^2 + \\varepsilon}",
                      "attr_scale", {fn.stat_id});
  scale.data[0] = static_cast<float>(fn.inv);
  t.text.attr_parts = names;
  return {{"target", g.name}, {"position", g.row}, {"logit", g.logit}, {"sum", sum},
          {"norm", fn.rms ? "rmsnorm" : "layernorm"}, {"frozen", fn.inv}};
}

}  // namespace ew
