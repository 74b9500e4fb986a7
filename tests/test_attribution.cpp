// test_attribution.cpp — logit attribution (trace/attribution.h) on a rotary decoder with the
// modern checkpoints' options (RMSNorm with Gemma's 1 + w, grouped-query attention with head_dim
// ≠ d/H, q/k norms, √d embeddings, an untied head; with and without sandwich norms): the parts'
// names, each block's parts summing to what the block's own step added to the stream (so a query
// head's part uses its own rows of W_o, not its K/V group's), the frozen 1/rms, and the refusal
// of a run whose attributed row a patch replaced. The numbers are checked against PyTorch forward
// hooks on real checkpoint layouts in tests/reference/check_decoder_hooks.py.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "model/error.h"
#include "model/model.h"
#include "trace/attribution.h"
#include "trace/forward.h"
#include "trace/intervene.h"

using namespace ew;

namespace {

Model rotary_model(bool sandwich) {
  Model m;
  Config& c = m.config;
  c.d_model = 12;
  c.num_heads = 4;
  c.d_ff = 20;
  c.num_layers = 2;
  c.norm = NormOrder::Pre;
  c.causal = true;
  c.layer_norm_eps = 2e-3f;
  c.seed = 11;
  c.positional = Positional::None;
  c.activation = sandwich ? Activation::GELUTanh : Activation::SiLU;
  Arch& a = m.arch;
  a.model_type = sandwich ? "gemma3_text" : "llama";
  a.lm_head = true;
  a.rms_norm = a.gated_ffn = a.rope = a.qk_norm = a.untied_head = true;
  a.sandwich_norm = sandwich;
  a.norm_offset = sandwich ? 1.0f : 0.0f;
  a.kv_heads = 2;
  a.head_dim = 5;
  a.attn_bias = true;
  a.out_bias = a.ffn_bias = !sandwich;
  if (sandwich) a.embed_scale = std::sqrt(12.0f);
  a.rope_theta = 700;
  a.sliding = {false, false};
  for (int i = 0; i < 25; ++i) m.vocab.push_back("t" + std::to_string(i));
  m.tokens = GivenTokens{{}, {}, {}, "ids"};
  return m;
}

void set_ids(Model& m, const std::vector<int>& ids) {
  m.tokens->ids = ids;
  m.tokens->pieces.clear();
  for (int id : ids) m.tokens->pieces.push_back(m.vocab[static_cast<std::size_t>(id)]);
}

const std::vector<int> kIds = {3, 7, 1, 9, 4, 2};

// Row `r` of step `id` through the final RMSNorm with the attribution's frozen 1/rms, against the
// target token's head row: what one part of the stream contributes to the logit.
double through_norm(const Trace& t, const Model& m, const std::string& id, int r, int tok) {
  const int d = m.config.d_model;
  const float* x = t.at(id).data.data() + static_cast<std::size_t>(r) * d;
  const float* g = m.at("final_norm.gamma").value.data();
  const float* w = m.at("lm_head").value.data() + static_cast<std::size_t>(tok) * d;
  double z = 0;
  for (int j = 0; j < d; ++j) z += static_cast<double>(x[j]) * (m.arch.norm_offset + g[j]) * w[j];
  return z * t.at("attr.scale").data[0];
}

}  // namespace

TEST_CASE("attribution on a rotary decoder: each block's parts add up to what its step added, names, frozen 1/rms") {
  for (const bool sandwich : {false, true}) {
    INFO("sandwich norms " << sandwich);
    Model m = rotary_model(sandwich);
    set_ids(m, kIds);
    Trace t;
    run(m, t);
    const nlohmann::json rep = rec_attribution(t, m);
    const int T = static_cast<int>(kIds.size()), V = static_cast<int>(m.vocab.size());
    CHECK(rep["norm"] == "rmsnorm");
    CHECK(rep["position"] == T - 1);
    const double logit = rep["logit"], sum = rep["sum"];
    CHECK(std::fabs(sum - logit) <= 1e-5 * std::fabs(logit));
    // the frozen scale is the final norm's own 1/rms at the last row
    CHECK(t.at("attr.scale").data[0] == doctest::Approx(1.0 / t.at("final_norm.rms").data[T - 1]).epsilon(1e-6));
    const std::vector<float>& z = t.at("logits").data;
    const int tok = static_cast<int>(std::max_element(z.end() - V, z.end()) - (z.end() - V));

    const std::vector<std::string>& names = t.text.attr_parts;
    const std::vector<float>& parts = t.at("attr.parts").data;
    REQUIRE(names.size() == parts.size());
    const auto part = [&](const std::string& n) {
      const auto at = std::find(names.begin(), names.end(), n);
      REQUIRE_MESSAGE(at != names.end(), "no part " << n);
      return static_cast<double>(parts[static_cast<std::size_t>(at - names.begin())]);
    };
    const double tol = 1e-5 * (std::fabs(logit) + 1);
    CHECK(names.front() == "input");  // Gemma: the scaled embedding (the "input" step is after the √d)
    CHECK(std::fabs(part("input") - through_norm(t, m, "input", T - 1, tok)) <= tol);
    for (int i = 0; i < m.config.num_layers; ++i) {
      const std::string L = "layer" + std::to_string(i) + ".";
      if (sandwich) {  // one part per block: its post-norm's output
        CHECK(std::fabs(part(L + "attn") - through_norm(t, m, L + "post_attn_norm", T - 1, tok)) <= tol);
        CHECK(std::fabs(part(L + "ffn") - through_norm(t, m, L + "post_ffn_norm", T - 1, tok)) <= tol);
        CHECK(std::find(names.begin(), names.end(), L + "head0") == names.end());
      } else {  // the four query heads (two per K/V head) and the bias add up to the o_proj step
        double heads = part(L + "b_o");
        for (int h = 0; h < 4; ++h) heads += part(L + "head" + std::to_string(h));
        CHECK(std::fabs(heads - through_norm(t, m, L + "attn_out", T - 1, tok)) <= tol);
        CHECK(std::fabs(part(L + "ffn") + part(L + "b_down") - through_norm(t, m, L + "ffn_out", T - 1, tok)) <= tol);
      }
    }
  }
}

TEST_CASE("attribution refuses a run whose attributed row a patch replaced, and keeps an earlier row's patch exact") {
  Model m = rotary_model(false);
  set_ids(m, {5, 8, 2, 6, 1, 0});
  Trace donor;
  run(m, donor);
  set_ids(m, kIds);
  Trace clean;
  run(m, clean);
  const auto patched = [&](int row) {
    InterventionSpec spec;
    spec.patch_from = "donor";
    spec.patch.push_back({"layer1.output", {row}});
    const Interventions iv = resolve_interventions(spec, clean, m, &donor, nullptr);
    Trace t;
    t.interventions = &iv;
    run(m, t);
    t.interventions = nullptr;
    try {
      rec_attribution(t, m);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(patched(2).empty());
  const std::string why = patched(5);
  CHECK(why.find("needs the residual stream to be the sum of the blocks' outputs") != std::string::npos);
  CHECK(why.find("layer1.output") != std::string::npos);
}
