// test_properties.cpp — properties every forward pass must have, over several
// configurations: softmax rows sum to 1, LayerNorm standardises, causal weights vanish
// above the diagonal, padding keys get no weight, a head equals single-head attention on
// its slice (checked with xtensor), permutation equivariance without positions, and the
// trace's buffers are reused across runs.
#include <algorithm>
#include <numeric>

#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xsort.hpp>
#include <xtensor/xview.hpp>

#include "trace/forward.h"
#include "check.h"

namespace {

std::string cfg(const std::string& extra) {
  return R"({"config": {"d_model": 12, "num_heads": 3, "d_ff": 20, "num_layers": 2, "seed": 7)" + extra +
         R"(}, "text": "the quick brown fox jumps over the lazy dog", "text2": "a short one"})";
}

xt::xarray<float> step(const ew::Trace& t, const std::string& id) {
  const ew::Step& s = t.at(id);
  std::vector<std::size_t> shape(s.shape.begin(), s.shape.end());
  return xt::adapt(s.data, shape);
}

}  // namespace

TEST_CASE("softmax rows sum to 1 and LayerNorm standardises, in every layer and configuration") {
  for (const std::string extra : {"", R"(, "norm": "pre", "activation": "gelu")", R"(, "causal": true, "positional": "learned")",
                                  R"(, "scale": false, "positional": "none", "decoder_layers": 2)"}) {
    CAPTURE(extra);
    const ew::Trace t = ewtest::run_json(cfg(extra));
    int softmaxes = 0, norms = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
      const ew::Step& s = t[i];
      if (s.kind == "softmax") {
        ++softmaxes;
        xt::xarray<float> w = step(t, s.id);
        xt::xarray<float> sums = xt::sum(w, {w.dimension() - 1});
        CHECK_MESSAGE(xt::allclose(sums, 1.0f, 0.0, 1e-6), s.id);
        CHECK(xt::all(w >= 0.0f));
      }
      if (s.kind == "layernorm") {
        ++norms;
        // γ = 1, β = 0 (defaults): each row has mean 0 and variance σ²/(σ² + ε) ≈ 1.
        xt::xarray<float> y = step(t, s.id);
        const std::size_t d = y.shape().back();
        auto rows = xt::reshape_view(y, {y.size() / d, d});
        xt::xarray<double> mean = xt::mean(xt::cast<double>(rows), {1});
        xt::xarray<double> var = xt::mean(xt::square(xt::cast<double>(rows) - xt::view(mean, xt::all(), xt::newaxis())), {1});
        CHECK_MESSAGE(xt::allclose(mean, 0.0, 0.0, 1e-6), s.id);
        xt::xarray<float> sigma2 = step(t, s.inputs[2]);  // the recorded variance
        xt::xarray<double> expect = xt::cast<double>(sigma2) / (xt::cast<double>(sigma2) + 1e-5);
        CHECK_MESSAGE(xt::allclose(var, xt::reshape_view(expect, {var.size()}), 1e-4, 1e-6), s.id);
      }
    }
    CHECK(softmaxes >= 6);
    CHECK(norms >= 4);
  }
}

TEST_CASE("causal weights are 0 above the diagonal; padding keys get no weight") {
  const ew::Trace t = ewtest::run_json(cfg(R"(, "causal": true)"));
  const std::size_t T = t.text.source_tokens[0].size(), T2 = t.text.source_tokens[1].size();
  REQUIRE(T2 < T);
  for (int l = 0; l < 2; ++l)
    for (int h = 0; h < 3; ++h) {
      const std::string id = "layer" + std::to_string(l) + ".head" + std::to_string(h) + ".weights";
      xt::xarray<float> w = step(t, id);  // [2, T, T]
      REQUIRE(w.dimension() == 3);
      for (std::size_t b = 0; b < 2; ++b)
        for (std::size_t i = 0; i < T; ++i)
          for (std::size_t j = 0; j < T; ++j) {
            const bool masked = j > i || (b == 1 && j >= T2);
            if (masked) CHECK_MESSAGE(w(b, i, j) == 0.0f, id << " [" << b << "," << i << "," << j << "]");
          }
    }
}

TEST_CASE("each head equals single-head attention on its slice of Q, K, V") {
  const ew::Trace t = ewtest::run_json(cfg(R"(, "causal": true)"));
  xt::xarray<float> q = step(t, "layer0.q"), k = step(t, "layer0.k"), v = step(t, "layer0.v");
  xt::xarray<float> mask = step(t, "attention_mask");
  const std::size_t dk = 4, T = q.shape()[1];
  for (std::size_t h = 0; h < 3; ++h) {
    xt::xarray<float> ctx = step(t, "layer0.head" + std::to_string(h) + ".context");
    for (std::size_t b = 0; b < 2; ++b) {
      auto qh = xt::view(q, b, xt::all(), xt::range(h * dk, (h + 1) * dk));
      auto kh = xt::view(k, b, xt::all(), xt::range(h * dk, (h + 1) * dk));
      auto vh = xt::view(v, b, xt::all(), xt::range(h * dk, (h + 1) * dk));
      // Single-head attention written out with xtensor, in double.
      xt::xarray<double> s = xt::zeros<double>({T, T});
      for (std::size_t i = 0; i < T; ++i)
        for (std::size_t j = 0; j < T; ++j)
          s(i, j) = xt::sum(xt::cast<double>(xt::view(qh, i, xt::all())) * xt::cast<double>(xt::view(kh, j, xt::all())))() /
                        std::sqrt(4.0) + mask(b, i, j);
      xt::xarray<double> e = xt::exp(s - xt::view(xt::amax(s, {1}), xt::all(), xt::newaxis()));
      xt::xarray<double> a = e / xt::view(xt::sum(e, {1}), xt::all(), xt::newaxis());
      xt::xarray<double> want = xt::zeros<double>({T, dk});
      for (std::size_t i = 0; i < T; ++i)
        for (std::size_t c = 0; c < dk; ++c)
          want(i, c) = xt::sum(xt::view(a, i, xt::all()) * xt::cast<double>(xt::view(vh, xt::all(), c)))();
      xt::xarray<double> got = xt::cast<double>(xt::view(ctx, b));
      CHECK_MESSAGE(xt::allclose(got, want, 1e-5, 1e-6), "head " << h << " batch " << b);
    }
  }
}

TEST_CASE("without positional encoding, permuting the tokens permutes the encoder output") {
  const std::string base = R"({"config": {"d_model": 8, "num_heads": 2, "d_ff": 16, "num_layers": 2, "positional": "none", "seed": 3}, "input": )";
  const std::vector<std::vector<float>> rows = {{0.1f, -0.2f, 0.3f, 0.4f, 0.5f, -0.6f, 0.7f, 0.8f},
                                                {1.0f, 0.9f, -0.8f, 0.7f, 0.6f, 0.5f, 0.4f, -0.3f},
                                                {-0.5f, 0.25f, 0.0f, 0.75f, -1.0f, 0.5f, 0.3f, 0.1f},
                                                {0.2f, 0.2f, 0.2f, -0.2f, 0.9f, 0.1f, -0.4f, 0.6f}};
  const std::vector<int> perm = {2, 0, 3, 1};
  auto to_json = [](const std::vector<std::vector<float>>& r) {
    std::string s = "[";
    for (std::size_t i = 0; i < r.size(); ++i) {
      s += i ? ",[" : "[";
      for (std::size_t j = 0; j < r[i].size(); ++j) s += (j ? "," : "") + std::to_string(r[i][j]);
      s += "]";
    }
    return s + "]";
  };
  std::vector<std::vector<float>> permuted;
  for (int p : perm) permuted.push_back(rows[p]);
  xt::xarray<float> y = step(ewtest::run_json(base + to_json(rows) + "}"), "output");
  xt::xarray<float> yp = step(ewtest::run_json(base + to_json(permuted) + "}"), "output");
  for (std::size_t i = 0; i < perm.size(); ++i)
    CHECK(xt::allclose(xt::view(yp, i), xt::view(y, perm[i]), 1e-5, 1e-6));
}

TEST_CASE("a rerun reuses the trace's buffers and reproduces the values exactly") {
  ew::Model m = ew::model_from_string(cfg(R"(, "decoder_layers": 1)"));
  ew::Trace t;
  ew::run(m, t);
  std::vector<const float*> where;
  std::vector<std::vector<float>> values;
  for (std::size_t i = 0; i < t.size(); ++i) {
    where.push_back(t[i].data.data());
    values.push_back(t[i].data);
  }
  ew::run(m, t);
  REQUIRE(t.size() == where.size());
  for (std::size_t i = 0; i < t.size(); ++i) {
    CHECK_MESSAGE(t[i].data.data() == where[i], t[i].id);
    CHECK_MESSAGE(t[i].data == values[i], t[i].id);
  }
}

TEST_CASE("the trace has the fixed step ids, in forward order") {
  const ew::Trace t = ewtest::run_json(cfg(R"(, "decoder_layers": 1, "num_labels": 3)"));
  const std::vector<std::string> ids = {"token_ids", "embedding", "positional", "input", "attention_mask",
                                        "layer0.q", "layer0.k", "layer0.v", "layer0.head0.scores", "layer0.head0.scaled",
                                        "layer0.head0.weights", "layer0.head0.context", "layer0.head2.context",
                                        "layer0.concat", "layer0.attn_out", "layer0.ln1", "layer0.ffn_hidden",
                                        "layer0.ffn_out", "layer0.output", "layer1.output", "output", "cls.probs",
                                        "decoder_input", "decoder0.self.head0.weights", "decoder0.cross.head0.weights",
                                        "decoder0.output", "logits", "probs"};
  std::size_t last = 0;
  for (const auto& id : ids) {
    std::size_t at = t.size();
    for (std::size_t i = 0; i < t.size(); ++i)
      if (t[i].id == id) at = i;
    CHECK_MESSAGE(at < t.size(), "missing step " << id);
    CHECK_MESSAGE(at >= last, id << " out of order");
    last = at;
  }
  // Cross-attention scores are rectangular: S target rows × T source columns.
  const ew::Step& x = t.at("decoder0.cross.head0.scores");
  CHECK(x.shape == std::vector<int>{static_cast<int>(t.text.target_tokens.size()),
                                    static_cast<int>(t.text.source_tokens[0].size())});
  // Seed 001's decoder forgot the encoder output: ours feeds it to K and V.
  CHECK(t.at("decoder0.cross.k").inputs.at(0) == "output");
}

TEST_CASE("a token's seeded embedding row does not depend on the sentence") {
  // The same word gets the same embedding row in different sentences.
  const ew::Trace a = ewtest::run_json(R"({"config": {"seed": 5}, "text": "bleak midwinter"})");
  const ew::Trace b = ewtest::run_json(R"({"config": {"seed": 5}, "text": "a bleak cold midwinter"})");
  const float* ra = a.at("embedding").data.data();
  const float* rb = b.at("embedding").data.data() + 8;  // "bleak" is token 1 in b
  CHECK(std::equal(ra, ra + 8, rb));
  // A different seed gives a different row.
  const ew::Trace c = ewtest::run_json(R"({"config": {"seed": 6}, "text": "bleak midwinter"})");
  CHECK_FALSE(std::equal(ra, ra + 8, c.at("embedding").data.data()));
}
