// test_seeds.cpp — the seed tutorials' printed numbers, reproduced through the real forward
// pass from the presets that carry the seeds' own values (core/io/presets.cpp).
// Tolerances: 1e-6 relative where the seed's inputs are exact (small integers, one-decimal
// numbers); where the seed printed its inputs rounded, the tolerance follows from that
// rounding and is stated at the check.
#include "check.h"

using ewtest::close_row;

TEST_CASE("seed 001: softmax([1, 2, 3]) as an attention row") {
  // d_model = 1, X = [[1],[2],[3]], W_q = W_k = [[1]]: scores row 0 = 1·[1, 2, 3].
  const ew::Trace t = ewtest::run_json(R"({"config": {"d_model": 1, "num_heads": 1, "d_ff": 4, "positional": "none",
      "scale": false}, "input": [[1], [2], [3]], "layers": [{"W_q": [[1]], "W_k": [[1]]}]})");
  CHECK(close_row(t, "layer0.head0.scores", 0, {1, 2, 3}, 1e-6));
  CHECK(close_row(t, "layer0.head0.weights", 0, {0.09003057, 0.24472847, 0.66524096}, 1e-6));
}

TEST_CASE("seed 001: the 3x3 attention example (weights and output)") {
  const ew::Trace t = ewtest::run_preset("seed001-attention-3x3");
  CHECK(close_row(t, "layer0.head0.scores", 0, {2, 0, 2}, 1e-6));
  CHECK(close_row(t, "layer0.head0.weights", 0, {0.46831053, 0.06337894, 0.46831053}, 1e-6));
  CHECK(close_row(t, "layer0.head0.weights", 1, {0.4223188, 0.4223188, 0.1553624}, 1e-6));
  CHECK(close_row(t, "layer0.head0.weights", 2, {0.57611688, 0.21194156, 0.21194156}, 1e-6));
  CHECK(close_row(t, "layer0.head0.context", 0, {4., 5., 6.}, 1e-6));
  CHECK(close_row(t, "layer0.head0.context", 1, {3.19913082, 4.19913082, 5.19913082}, 1e-6));
  CHECK(close_row(t, "layer0.head0.context", 2, {2.90747402, 3.90747402, 4.90747402}, 1e-6));
}

TEST_CASE("seed 001: Q, K, V of 'Despite', 'the', 'heavy' and the three dot products") {
  const ew::Trace t = ewtest::run_preset("seed001-despite");
  const std::vector<std::string> want_tokens = {"Despite", "the",   "heavy", "rain",    ",",  "the",         "children",
                                                "played",  "happily", "in",  "the",     "park", ",",         "unaware",
                                                "of",      "the",   "approaching", "storm", "."};
  CHECK(t.text.source_tokens.at(0) == want_tokens);
  CHECK(close_row(t, "layer0.q", 0, {0.27, 0.63, 0.99, 1.35}, 1e-6));
  CHECK(close_row(t, "layer0.k", 0, {1.26, 0.9, 0.54, 0.18}, 1e-6));
  CHECK(close_row(t, "layer0.v", 0, {0.07, -0.27, 0.47, -0.67}, 1e-6, 1e-7));
  CHECK(close_row(t, "layer0.q", 1, {0.14, 0.3, 0.46, 0.62}, 1e-6));
  CHECK(close_row(t, "layer0.k", 1, {0.54, 0.38, 0.22, 0.06}, 1e-6));
  CHECK(close_row(t, "layer0.v", 1, {-0.18, 0.34, -0.5, 0.66}, 1e-6));
  CHECK(close_row(t, "layer0.q", 2, {0.24, 0.56, 0.88, 1.2}, 1e-6));
  CHECK(close_row(t, "layer0.k", 2, {1.12, 0.8, 0.48, 0.16}, 1e-6));
  CHECK(close_row(t, "layer0.v", 2, {-0.24, 0.72, -1.2, 1.68}, 1e-6));
  // Dot(Q_Despite, K_Despite) = 1.6848, with "the" = 0.684, with "heavy" = 1.4976.
  CHECK(close_row(t, "layer0.head0.scores", 0, {1.6848, 0.684, 1.4976}, 1e-6));
}

TEST_CASE("seed 001: BPE merges and final vocabulary for low, lowest, newer, wider") {
  const ew::Trace t = ewtest::run_preset("seed001-bpe");
  const auto& merges = t.text.bpe.merges;
  REQUIRE(merges.size() == 5);
  const std::vector<std::pair<std::string, std::string>> want = {
      {"l", "o"}, {"lo", "w"}, {"e", "r"}, {"er", "</w>"}, {"low", "</w>"}};
  for (std::size_t i = 0; i < 5; ++i) CHECK(merges[i].pair == want[i]);
  using V = std::vector<std::pair<std::string, long>>;
  CHECK(merges[0].vocab_before == V{{"l o w </w>", 1}, {"l o w e s t </w>", 1}, {"n e w e r </w>", 1}, {"w i d e r </w>", 1}});
  CHECK(merges[2].vocab_after == V{{"low </w>", 1}, {"low e s t </w>", 1}, {"n e w er </w>", 1}, {"w i d er </w>", 1}});
  CHECK(t.text.bpe.final_vocab == V{{"low</w>", 1}, {"low e s t </w>", 1}, {"n e w er</w>", 1}, {"w i d er</w>", 1}});
}

TEST_CASE("seed 000: its printed scaled scores give its printed softmax") {
  // The scores are printed to 8 decimals and the softmax to 8 significant digits: 1e-6.
  const ew::Trace t = ewtest::run_preset("seed000-softmax");
  CHECK(close_row(t, "layer0.head0.weights", 0, {0.25064936, 0.24955489, 0.24989569, 0.24990009}, 1e-6));
  CHECK(close_row(t, "layer0.head0.weights", 1, {0.2500455, 0.24997151, 0.24992326, 0.25005966}, 1e-6));
  CHECK(close_row(t, "layer0.head0.weights", 2, {0.24958809, 0.25107023, 0.24939394, 0.24994774}, 1e-6));
  CHECK(close_row(t, "layer0.head0.weights", 3, {0.24991307, 0.25033805, 0.24967806, 0.2500708}, 1e-6));
}

TEST_CASE("seed 002: causal-mask softmax rows from its printed q and k") {
  // q and k are printed to 4 decimals (error ≤ 5e-5 each); over 10 terms of |q|,|k| ≲ 3 the
  // scaled scores move by ≤ 10·2·3·5e-5/√10 ≈ 1e-3 at worst, typically ~1e-4, and the weights
  // are printed to 4 decimals (±5e-5). Allowed: 2e-4 absolute.
  const ew::Trace t = ewtest::run_preset("seed002-causal");
  CHECK(close_row(t, "layer0.head0.scaled", 1, {0.1440, 1.7981}, 0, 2e-4));
  CHECK(close_row(t, "layer0.head0.weights", 0, {1.0, 0, 0, 0, 0}, 0, 1e-7));
  CHECK(close_row(t, "layer0.head0.weights", 1, {0.1606, 0.8394, 0, 0, 0}, 0, 2e-4));
  CHECK(close_row(t, "layer0.head0.weights", 2, {0.2814, 0.2604, 0.4582, 0, 0}, 0, 2e-4));
  CHECK(close_row(t, "layer0.head0.weights", 3, {0.4101, 0.0907, 0.1385, 0.3607, 0}, 0, 2e-4));
  // Row 4 and the outputs use the reconstructed k₄ and v (scripts/reconstruct_seed002.py).
  CHECK(close_row(t, "layer0.head0.weights", 4, {0.1129, 0.2866, 0.1104, 0.1608, 0.3294}, 0, 2e-4));
  CHECK(close_row(t, "layer0.head0.context", 4, {0.5721, 0.3924, -0.0542, -0.1984, 0.5691, -0.4914, 0.4664, -0.1302, 0.4292, -0.6773},
                  0, 3e-4));
  const ew::Step& m = t.at("attention_mask");
  CHECK(std::isinf(m.data[1]));
  CHECK(m.data[5] == 0.0f);
}

TEST_CASE("seed 003: y2 by hand") {
  // Inputs printed at float32 precision: 1e-5 relative (floored at 1e-5 of the largest |y|).
  const ew::Trace t = ewtest::run_preset("seed003-y2");
  CHECK(close_row(t, "layer0.head0.scores", 1, {-6.288555, -1.5252657, -13.573791, -1.7212026}, 1e-5, 1e-5 * 13.6));
  CHECK(close_row(t, "layer0.head0.weights", 1, {0.00466374, 0.5462668}, 1e-5));
  CHECK(close_row(t, "layer0.head0.context", 1, {0.11782318, 0.39491105, -2.4440105, 0.5687822}, 1e-5, 1e-5 * 2.45));
}
