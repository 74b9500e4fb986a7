// test_kv_cache.cpp — generation through the key/value cache (trace/kv_cache.h) against a full
// recompute: each decoded row's logits equal the recorded forward pass's last row on the same
// tokens to 1e-6 of the logits' scale (issue 31: "every round's logits equal a full recompute's"),
// for a GPT-2-like model and for a rotary decoder with every option the modern checkpoints have
// (grouped-query attention, head_dim ≠ d/H, q/k norms, Gemma's (1 + w) norms and sandwich norms,
// √d embeddings, query_pre_attn_scalar, sliding-window layers with a local base, llama3 scaling,
// an untied head, SiLU/tanh-GELU gates). The cache holds KV heads, not query heads.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "io/safetensors.h"
#include "model/model.h"
#include "trace/forward.h"
#include "trace/generate.h"
#include "trace/intervene.h"
#include "trace/kv_cache.h"

using namespace ew;

namespace {

Model causal_model(bool rotary) {
  Model m;
  Config& c = m.config;
  c.d_model = 12;
  c.num_heads = 4;
  c.d_ff = 20;
  c.num_layers = 3;
  c.norm = NormOrder::Pre;
  c.causal = true;
  c.layer_norm_eps = 1e-3f;
  c.seed = 7;
  Arch& a = m.arch;
  a.model_type = rotary ? "llama" : "gpt2";
  a.lm_head = true;
  if (rotary) {
    c.positional = Positional::None;
    c.activation = Activation::GELUTanh;
    a.rms_norm = a.gated_ffn = a.rope = a.qk_norm = a.sandwich_norm = a.untied_head = true;
    a.norm_offset = 1.0f;
    a.kv_heads = 2;
    a.head_dim = 6;
    a.attn_bias = true;
    a.out_bias = a.ffn_bias = false;
    a.embed_scale = std::sqrt(12.0f);
    a.attn_scale = 0.3f;
    a.rope_theta = 500;
    a.rope_local_theta = 50;
    a.rope_scaling = "llama3";
    a.rope_factor = 4;
    a.rope_low = 1;
    a.rope_high = 3;
    a.rope_original = 16;
    a.sliding = {true, false, true};
    a.sliding_window = 3;
  } else {
    c.positional = Positional::Learned;
    c.activation = Activation::GELUTanh;
    a.embedding_ln = false;
  }
  for (int i = 0; i < 30; ++i) m.vocab.push_back("t" + std::to_string(i));
  m.tokens = GivenTokens{{}, {}, {}, "ids"};
  return m;
}

void set_ids(Model& m, const std::vector<int>& ids) {
  m.tokens->ids = ids;
  m.tokens->pieces.clear();
  for (int id : ids) m.tokens->pieces.push_back(m.vocab[static_cast<std::size_t>(id)]);
}

// The last row of a full recorded run's logits on `ids`.
std::vector<float> full_last_row(Model& m, const std::vector<int>& ids) {
  set_ids(m, ids);
  Trace t;
  run(m, t);
  const Step& z = t.at("logits");
  const int V = z.shape.back();
  return std::vector<float>(z.data.end() - V, z.data.end());
}

double worst_relative(const std::vector<float>& got, const std::vector<float>& want) {
  double scale = 0, err = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    scale = std::max(scale, std::fabs(static_cast<double>(want[i])));
    err = std::max(err, std::fabs(static_cast<double>(got[i]) - want[i]));
  }
  return err / scale;
}

void check_decoding(bool rotary) {
  Model m = causal_model(rotary);
  const std::vector<int> all = {3, 7, 1, 9, 4, 2, 8, 5, 6, 11, 0, 13};
  const std::size_t prompt = 5;
  full_last_row(m, all);  // every parameter, the position table long enough for every round
  set_ids(m, std::vector<int>(all.begin(), all.begin() + static_cast<long>(prompt)));
  Trace t;
  run(m, t);
  KvCache c = cache_from_trace(m, t);
  CHECK(c.len == static_cast<int>(prompt));
  // K/V heads, not query heads: KV·hd columns per row.
  const AttnGeom g = attn_geom(m);
  CHECK(c.k[0].size() == prompt * static_cast<std::size_t>(g.dkv()));
  std::vector<float> z;
  for (std::size_t n = prompt; n < all.size(); ++n) {
    decode_next(m, c, all[n], z);
    const std::vector<float> want = full_last_row(m, std::vector<int>(all.begin(), all.begin() + static_cast<long>(n) + 1));
    const double rel = worst_relative(z, want);
    INFO("rotary " << rotary << ", position " << n << ": worst |decoded − recomputed| / max|logit| = " << rel);
    CHECK(rel <= 1e-6);
  }
  CHECK(c.len == static_cast<int>(all.size()));
}

// Every matrix and table of m made 16-bit (values rounded as a BF16/F16 file holds them) and
// the same rounded values kept float32 in `wide`: the 16-bit kernels must give wide's numbers.
void to_half(Model& m, Model& wide, Dtype t) {
  for (Param& p : m.params) {
    if (p.rank() != 2) continue;
    HalfBuffer h(p.size());
    for (std::size_t i = 0; i < h.size(); ++i)
      h.data()[i] = t == Dtype::BF16 ? float_to_bf16(p.value.data()[i]) : float_to_half(p.value.data()[i]);
    p.half_shape = p.shape();
    p.half = std::move(h);
    p.dtype = t;
    p.value = xt::xarray<float>::from_shape({0});
    p.packed = PackedB();
  }
  m.pack_weights = false;
  m.user_embedding = true;  // the token table kept as it is (16-bit), not re-seeded by each run
  wide = m;
  for (Param& p : wide.params) p.make_f32();
}

// Decoding through the cache with 16-bit weights equals decoding with them widened, bit for bit.
void check_half_decoding(bool rotary, Dtype type) {
  Model m = causal_model(rotary), wide;
  const std::vector<int> all = {3, 7, 1, 9, 4, 2, 8, 5, 6};
  full_last_row(m, all);
  to_half(m, wide, type);
  std::size_t bytes = 0, values = 0;
  for (const Param& p : m.params)
    if (p.rank() == 2) bytes += p.bytes(), values += p.size();
  CHECK(bytes == 2 * values);
  const std::vector<int> prompt(all.begin(), all.begin() + 4);
  std::vector<KvCache> caches;
  for (Model* x : {&m, &wide}) {
    set_ids(*x, prompt);
    Trace t;
    run(*x, t);
    caches.push_back(cache_from_trace(*x, t));
  }
  std::vector<float> zh, zw;
  for (std::size_t n = prompt.size(); n < all.size(); ++n) {
    decode_next(m, caches[0], all[n], zh);
    decode_next(wide, caches[1], all[n], zw);
    CAPTURE(n);
    CHECK(zh == zw);
  }
  CHECK(full_last_row(m, all) == full_last_row(wide, all));  // the recorded forward pass too
}

}  // namespace

TEST_CASE("kv cache: each decoded row's logits equal a full recompute's (GPT-2-like)") { check_decoding(false); }

TEST_CASE("kv cache: each decoded row's logits equal a full recompute's (rotary decoder, every option)") {
  check_decoding(true);
}

TEST_CASE("kv cache: generation through the cache picks the tokens a full recompute picks, and the last trace shows the cache") {
  for (bool rotary : {false, true}) {
    Model a = causal_model(rotary), b = causal_model(rotary);
    const std::vector<int> prompt = {3, 7, 1, 9};
    full_last_row(a, {3, 7, 1, 9, 0, 0, 0, 0, 0, 0, 0});
    full_last_row(b, {3, 7, 1, 9, 0, 0, 0, 0, 0, 0, 0});
    set_ids(a, prompt);
    set_ids(b, prompt);
    Trace ta, tb;
    Interventions none;
    tb.interventions = &none;  // interventions: every round recorded, no cache
    std::vector<int> ids_a, ids_b;
    GenTiming timing;
    generate_causal(a, ta, 7, &ids_a, &timing);
    generate_causal(b, tb, 7, &ids_b);
    CHECK(ids_a == ids_b);
    CHECK(timing.prefill_ms > 0);
    CHECK(timing.decode_ms > 0);
    const Step& kc = ta.at("layer1.k_cache");
    CHECK(kc.kind == "kv_cache");
    const Step& k = ta.at(rotary ? "layer1.k_rot" : "layer1.k");
    REQUIRE(kc.size() == k.size());
    double worst = 0, scale = 0;
    for (std::size_t i = 0; i < k.size(); ++i) {
      worst = std::max(worst, std::fabs(static_cast<double>(kc.data[i]) - k.data[i]));
      scale = std::max(scale, std::fabs(static_cast<double>(k.data[i])));
    }
    CHECK(worst <= 1e-6 * scale);  // the cached rows are the recomputed ones, to float32 rounding
    CHECK(kc.title.find("reused") != std::string::npos);
    CHECK_FALSE(tb.find("layer1.k_cache"));
  }
}

// Streaming (issue 30 item 5): the per-round callback sees every round, in order, as the returned
// rounds hold it (token, probability, input), with its phase and the cache's rows and geometry;
// a run with the callback returns what a run without it returns (the same ids, rounds, timing
// fields filled, and the same final trace, value for value). An end token picked in a decode
// round leaves the cache as a step of the trace too: prompt + rounds − 1 rows.
TEST_CASE("kv cache: the per-round callback streams every round in order and changes no result") {
  for (bool rotary : {false, true}) {
    const std::vector<int> prompt = {3, 7, 1, 9};
    const int max_len = 6;
    Model a = causal_model(rotary), b = causal_model(rotary);
    full_last_row(a, {3, 7, 1, 9, 0, 0, 0, 0, 0, 0, 0});
    full_last_row(b, {3, 7, 1, 9, 0, 0, 0, 0, 0, 0, 0});
    set_ids(a, prompt);
    set_ids(b, prompt);
    Trace ta, tb;
    std::vector<int> ids_a, ids_b;
    GenTiming ma, mb;
    struct Seen {
      int round, id, cache_rows, prompt, layers, kv_heads, head_dim, heads;
      std::string token, input, phase;
      float prob;
      double ms;
      bool last;
    };
    std::vector<Seen> seen;
    const auto ra = generate_causal(a, ta, max_len, &ids_a, &ma, [&](const GenProgress& e) {
      REQUIRE(e.pick);
      seen.push_back({e.round, e.id, e.cache_rows, e.prompt, e.layers, e.kv_heads, e.head_dim, e.heads, e.pick->token, e.pick->decoder_input,
                      e.phase, e.pick->prob, e.ms, e.last});
      CHECK(e.max_len == max_len);
    });
    const auto rb = generate_causal(b, tb, max_len, &ids_b, &mb);
    INFO("rotary " << rotary);
    CHECK(ids_a == ids_b);
    REQUIRE(ra.size() == rb.size());
    REQUIRE(seen.size() == ra.size());
    const AttnGeom g = attn_geom(a);
    double decode_ms = 0;
    for (std::size_t k = 0; k < ra.size(); ++k) {
      CHECK(ra[k].token == rb[k].token);
      CHECK(ra[k].prob == rb[k].prob);
      CHECK(ra[k].decoder_input == rb[k].decoder_input);
      CHECK(seen[k].round == static_cast<int>(k));
      CHECK(seen[k].token == ra[k].token);
      CHECK(seen[k].prob == ra[k].prob);
      CHECK(seen[k].input == ra[k].decoder_input);
      CHECK(a.vocab[static_cast<std::size_t>(seen[k].id)] == ra[k].token);
      CHECK(seen[k].phase == (k == 0 ? "prefill" : "decode"));  // the last round too: reported before the record
      CHECK(seen[k].last == (k + 1 == ra.size()));
      CHECK(seen[k].prompt == 4);
      CHECK(seen[k].cache_rows == 4 + static_cast<int>(k));
      CHECK(seen[k].layers == 3);
      CHECK(seen[k].kv_heads == g.KV);
      CHECK(seen[k].head_dim == g.hd);
      CHECK(seen[k].heads == g.H);
      if (seen[k].phase == "decode") decode_ms += seen[k].ms;
    }
    CHECK(seen.front().ms == ma.prefill_ms);  // the callback's times are GenTiming's, not measured beside it
    CHECK(decode_ms == doctest::Approx(ma.decode_ms).epsilon(1e-12));
    CHECK(ma.record_ms > 0);  // the last round's input, recorded whole after it was reported
    CHECK(ma.decode_rounds == static_cast<int>(ra.size()) - 1);
    CHECK(ma.decode_rounds == mb.decode_rounds);
    REQUIRE(ta.size() == tb.size());
    for (std::size_t i = 0; i < ta.size(); ++i) {
      CHECK(ta[i].id == tb[i].id);
      CHECK(ta[i].data == tb[i].data);
    }
    // The final trace's cache has as many rows as the last round's callback said.
    CHECK(ta.at("layer0.k_cache").shape[0] == seen.back().cache_rows);
    CHECK(ta.at("layer0.k_cache").shape[1] == g.dkv());

    // An end token chosen in a decode round (the first round j ≥ 1 whose token is new): generation
    // stops there, and the kept trace (that round's input, recorded whole) still shows the cache
    // it read: prompt + j rows, as that round's callback said.
    int j = 1;
    while (j + 1 < max_len && std::find(ids_a.begin(), ids_a.begin() + j, ids_a[static_cast<std::size_t>(j)]) != ids_a.begin() + j) ++j;
    REQUIRE_MESSAGE(j + 1 < max_len, "every generated token repeats an earlier one: no decode round can end first");
    Model c = causal_model(rotary);
    full_last_row(c, {3, 7, 1, 9, 0, 0, 0, 0, 0, 0, 0});
    set_ids(c, prompt);
    c.arch.eos_id = ids_a[static_cast<std::size_t>(j)];
    Trace tc;
    std::vector<GenProgress> ends;
    const auto rc = generate_causal(c, tc, max_len, nullptr, nullptr, [&](const GenProgress& e) { ends.push_back(e); });
    REQUIRE(rc.size() == static_cast<std::size_t>(j + 1));
    REQUIRE(ends.size() == rc.size());
    CHECK(ends.back().last);
    CHECK(ends.back().end);
    CHECK_FALSE(ends.front().end);
    CHECK(std::string(ends.back().phase) == "decode");
    CHECK(ends.back().cache_rows == 4 + j);
    REQUIRE(tc.find("layer0.k_cache"));
    CHECK(tc.at("layer0.k_cache").shape[0] == 4 + j);
    const Step& kc = tc.at("layer2.v_cache");
    const Step& v = tc.at("layer2.v");
    double worst = 0, scale = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
      worst = std::max(worst, std::fabs(static_cast<double>(kc.data[i]) - v.data[i]));
      scale = std::max(scale, std::fabs(static_cast<double>(v.data[i])));
    }
    CHECK(worst <= 1e-6 * scale);
  }
}

TEST_CASE("kv cache: 16-bit weights (BF16, F16) decode exactly as the same weights widened to float32") {
  for (const bool rotary : {false, true})
    for (const Dtype t : {Dtype::BF16, Dtype::F16}) {
      CAPTURE(rotary);
      CAPTURE(t == Dtype::BF16);
      check_half_decoding(rotary, t);
    }
}
