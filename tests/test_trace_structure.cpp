// test_trace_structure.cpp — every step and parameter carries its structure (trace.h):
// one axis per dimension with a documented name and label source, a place with a documented
// section and block, and labels that fit the run (a "source" axis is as long as the padded
// source, a "vocab" axis as the vocabulary). Over every preset and a few extra shapes.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "check.h"

namespace {

const std::set<std::string> kAxisNames = {"batch",  "token",    "query", "key", "feature", "head_feature", "hidden",
                                          "vocab",  "label",    "position", "in", "out",   "sequence"};
const std::set<std::string> kLabels = {"", "source", "target", "vocab", "labels", "batch"};
const std::set<std::string> kSections = {"input", "encoder", "classifier", "decoder", "output", "masked_lm"};
const std::set<std::string> kBlocks = {"tokens",         "embedding", "positional",   "mask",
                                       "self_attention", "cross_attention", "add_norm", "ffn",
                                       "layer_output",   "stack_output", "classifier", "projection", "softmax"};

void check_structure(const std::string& what, const std::vector<int>& shape, const std::vector<ew::Axis>& axes,
                     const ew::Place& place, const ew::Trace& t) {
  INFO(what);
  REQUIRE(axes.size() == shape.size());
  int T = 0;
  for (const auto& toks : t.text.source_tokens) T = std::max(T, static_cast<int>(toks.size()));
  for (std::size_t i = 0; i < axes.size(); ++i) {
    CHECK(kAxisNames.count(axes[i].name));
    CHECK(kLabels.count(axes[i].labels));
    if (axes[i].labels == "source") CHECK(shape[i] == T);
    if (axes[i].labels == "target") CHECK(shape[i] == static_cast<int>(t.text.target_tokens.size()));
    if (axes[i].labels == "vocab") CHECK(shape[i] == static_cast<int>(t.text.vocab.size()));
    if (axes[i].labels == "batch") CHECK(shape[i] == static_cast<int>(t.text.source_tokens.size()));
  }
  CHECK(kSections.count(place.section));
  CHECK(kBlocks.count(place.block));
}

void check_run(const std::string& name, const ew::Trace& t, const ew::Model& m) {
  for (std::size_t i = 0; i < t.size(); ++i) {
    const ew::Step& s = t[i];
    check_structure(name + " step " + s.id, s.shape, s.axes, s.place, t);
    CHECK(s.head == s.place.head);
  }
  for (const ew::Param& p : m.params) {
    std::vector<int> shape(p.value.shape().begin(), p.value.shape().end());
    if (p.id == "embedding_table") shape[0] = static_cast<int>(t.text.vocab.size());  // a table may be longer
    if (p.id == "position_table") continue;  // rows are positions, not this text's tokens
    check_structure(name + " param " + p.id, shape, p.axes, p.place, t);
  }
}

}  // namespace

TEST_CASE("every step and parameter of every preset has axes and a place") {
  for (const ew::Preset& p : ew::presets()) {
    ew::Model m;
    const ew::Trace t = ewtest::run_preset(p.name, &m);
    check_run(p.name, t, m);
  }
}

// A preset opens on the step its tutorial prints: the step must exist, and its batch item too.
TEST_CASE("every preset's opening step and batch item exist in its trace") {
  int with_step = 0;
  for (const ew::Preset& p : ew::presets()) {
    INFO(p.name);
    const ew::Trace t = ewtest::run_preset(p.name);
    CHECK(p.batch >= 0);
    CHECK(p.batch < static_cast<int>(t.text.source_tokens.size()));
    if (p.step.empty()) continue;
    ++with_step;
    CHECK(t.find(p.step) != nullptr);
  }
  CHECK(with_step == static_cast<int>(ew::presets().size()) - 1);  // all but the page's default
  CHECK(ew::find_preset("padding-batch")->batch == 1);             // the padded sentence
  CHECK(ew::find_preset("seed001-attention-3x3")->step == "layer0.head0.weights");
}

// One symbol per quantity: the decoder's stream is Y, the encoder output H, logits z.
TEST_CASE("formulas name the decoder input Y, the encoder output H and cross-attention's keys from H") {
  const ew::Trace t = ewtest::run_preset("default");
  CHECK(t.at("decoder_input").formula == "Y = Y^{\\text{tok}} + PE");
  CHECK(t.at("decoder_input").title == "Decoder input: embedding + position");
  CHECK(t.at("input").formula == "X = X^{\\text{tok}} + PE");
  CHECK(t.at("decoder0.cross.k").formula == "K = H W^{K} + b^{K}");
  CHECK(t.at("decoder0.cross.q").formula == "Q = Y W^{Q} + b^{Q}");
  CHECK(t.at("decoder0.self.v").formula == "V = Y W^{V} + b^{V}");
  CHECK(t.at("output").formula == "H = X^{(1)}");
  CHECK(t.at("logits").formula == "z = Z E^{\\top}");
  for (std::size_t i = 0; i < t.size(); ++i) {
    INFO(t[i].id);
    CHECK(t[i].formula.find("from the encoder") == std::string::npos);
    if (t[i].role == "rowsum") CHECK(t[i].formula.rfind("s_i = ", 0) == 0);
    if (t[i].role == "weights") CHECK(t[i].formula.find("{s_i}") != std::string::npos);
  }
}

TEST_CASE("axes and places of a pre-norm batch with a classifier and a decoder") {
  ew::Model m;
  const ew::Trace t = ewtest::run_json(
      R"({"config": {"d_model": 8, "num_heads": 2, "d_ff": 16, "num_layers": 2, "decoder_layers": 2, "norm": "pre",
          "num_labels": 3, "positional": "learned"}, "text": "the frost was hard", "text2": "snow"})",
      &m);
  check_run("pre-norm batch", t, m);
  const ew::Step& w = t.at("layer1.head1.weights");
  REQUIRE(w.axes.size() == 3);
  CHECK(w.axes[0].name == "batch");
  CHECK(w.axes[1].name == "query");
  CHECK(w.axes[2].labels == "source");
  CHECK(w.place.section == "encoder");
  CHECK(w.place.layer == 1);
  CHECK(w.place.block == "self_attention");
  CHECK(w.place.head == 1);
  const ew::Step& x = t.at("decoder1.cross.head0.weights");
  CHECK(x.axes[0].labels == "target");
  CHECK(x.axes[1].labels == "source");
  CHECK(x.place.block == "cross_attention");
  CHECK(t.at("decoder1.cross.k").axes[0].labels == "source");
  CHECK(t.at("final_ln.mean").place.block == "stack_output");
  CHECK(t.at("output").kind == "layernorm");
  CHECK(t.at("decoder_output").inputs.at(0) == "decoder1.output");
  CHECK(t.at("cls.probs").axes.back().labels == "labels");
}
