// test_masked_words.cpp — the masked-word head's model-file rules and messages, its fills, the
// BPE merges a model carries (model file and safetensors), and the masked-words task's
// deterministic masking and a short training run on a tiny corpus.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "io/model_file.h"
#include "io/safetensors.h"
#include "model/error.h"
#include "trace/backward.h"
#include "trace/forward.h"
#include "train/masked_words.h"

namespace {

std::string masked_error_of(const std::string& json) {
  try {
    ew::Model m = ew::model_from_string(json);
    ew::Trace t;
    ew::run(m, t);
    ew::run_backward(m, t);
  } catch (const ew::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("masked-word head: [MASK] is one token; fills are the top rows of mlm.probs") {
  ew::Model m = ew::model_from_string(R"({"config":{"masked_lm":true},"text":"the cat,[MASK] on the [MASK]."})");
  ew::Trace t;
  ew::run(m, t);
  const std::vector<std::string> want{"the", "cat", ",", "[MASK]", "on", "the", "[MASK]", "."};
  CHECK(t.text.source_tokens[0] == want);
  const auto fills = ew::mask_fills(t, 5);
  REQUIRE(fills.size() == 2);
  const ew::Step& p = t.at("mlm.probs");
  const int V = p.shape.back();
  for (int k = 0; k < 2; ++k) {
    const float* row = p.data.data() + (k == 0 ? 3 : 6) * V;
    float best = 0, sum = 0;
    for (int v = 0; v < V; ++v) best = std::max(best, row[v]), sum += row[v];
    CHECK(sum == doctest::Approx(1.0).epsilon(1e-5));
    CHECK(fills[k][0].second == best);
    for (std::size_t j = 1; j < fills[k].size(); ++j) CHECK(fills[k][j].second <= fills[k][j - 1].second);
  }
}

TEST_CASE("masked-word head: clear messages for inconsistent model files") {
  CHECK(masked_error_of(R"({"config":{"masked_lm":true},"text":"a [MASK] b","mask_targets":["x","y"]})") ==
        "\"mask_targets\" has 2 tokens but the text has 1 [MASK]: give one target per [MASK], in order");
  CHECK(masked_error_of(R"({"text":"a b","mask_targets":["x"]})") ==
        "\"mask_targets\" needs the masked-word head: set config.masked_lm to true");
  CHECK(masked_error_of(R"({"config":{"masked_lm":true,"decoder_layers":1},"text":"a [MASK]"})").find("encoder-only") !=
        std::string::npos);
  CHECK(masked_error_of(R"({"config":{"masked_lm":true,"tokenizer":"bpe"},"text":"a","merges":["ab"]})") ==
        "merges[0] must be two symbols separated by one space (\"l o\"), got \"ab\"");
  CHECK(masked_error_of(R"({"config":{"masked_lm":true},"text":"a [MASK]"})").find("needs something to predict") !=
        std::string::npos);  // no mask_targets: no loss
  CHECK(masked_error_of(R"({"config":{"masked_lm":true},"text":"a [MASK]","mask_targets":["a"]})").empty());
  // A fixed vocabulary (a file's, a checkpoint's): a target outside it is refused, never scored as <unk>.
  const std::string fixed = R"({"config":{"masked_lm":true},"vocab":["<pad>","<unk>","[MASK]","a","b"],"text":"a [MASK]",)";
  CHECK(masked_error_of(fixed + R"("mask_targets":["cats"]})") ==
        "the [MASK] target \"cats\" is not one token of the model's vocabulary: give a token it holds whole");
  CHECK(masked_error_of(fixed + R"("mask_targets":["b"]})").empty());
}

TEST_CASE("BPE merges travel with the model: model file and safetensors") {
  ew::Model m = ew::model_from_string(
      R"({"config":{"tokenizer":"bpe","masked_lm":true},"text":"lowest [MASK]","merges":["l o","lo w","e s","es t","est </w>"]})");
  ew::Trace t;
  ew::run(m, t);
  CHECK(t.text.source_tokens[0] == std::vector<std::string>{"low", "est</w>", "[MASK]"});
  const auto bytes = ew::write_safetensors(ew::model_to_safetensors(m));
  const ew::Model back = ew::model_from_safetensors(ew::read_safetensors(bytes.data(), bytes.size()));
  CHECK(back.merges == m.merges);
  CHECK(back.config.masked_lm);
}

TEST_CASE("masked-words: deterministic masks of single-token words, and a short training run") {
  ew::MaskedCorpus corpus;
  for (int i = 0; i < 40; ++i)
    corpus.train.push_back(i % 2 ? "the people of the united states ." : "we the people , in order to form a union .");
  corpus.heldout = {"the union of the people .", "zzz qqq"};
  ew::TrainOptions o;
  o.task = "masked-words";
  o.merges = 60, o.steps = 30, o.batch = 4, o.d_model = 8, o.num_heads = 2, o.d_ff = 16, o.num_layers = 1, o.lr = 0.01;
  ew::Model m = ew::train_masked_words(o, corpus);
  CHECK(m.vocab[4] == "[MASK]");
  CHECK(m.merges.size() == ew::bpe_learn(ew::tokenize_regex(corpus.train[0] + " " + corpus.train[1]), 60).merges.size());
  const ew::MaskableWords w = ew::maskable_words(m, corpus);
  CHECK(w.token.at("the") == "the</w>");
  CHECK(w.token.count("zzz") == 0);  // not one token of the vocabulary
  ew::Example a, b;
  REQUIRE(ew::masked_example(a, corpus.heldout[0], w, 1, 0));
  REQUIRE(ew::masked_example(b, corpus.heldout[0], w, 1, 0));
  CHECK(a.source == b.source);
  CHECK(!a.mask_targets.empty());
  std::size_t masks = 0;
  for (std::size_t at = a.source.find("[MASK]"); at != std::string::npos; at = a.source.find("[MASK]", at + 1)) ++masks;
  CHECK(masks == a.mask_targets.size());
  CHECK_FALSE(ew::masked_example(a, corpus.heldout[1], w, 1, 1));
  const ew::MaskedScore s = ew::score_masked(m, corpus, 1, 10);
  CHECK(s.masks >= 1);
  CHECK(s.top1 <= s.top5);
  CHECK(s.unigram_top1 <= s.unigram_top5);
}
