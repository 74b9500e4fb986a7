// test_naming.cpp — structure recorded, not re-parsed (model/naming.h, trace.h): each step's
// role is the one its recorder gives, and it is the role the trace used to take apart from the
// id (the text after the id's last dot; "grad" for a gradient) — for every step of every
// preset, forward and backward, and of a few extra shapes; every id is the one naming.h makes
// from the step's place and role, or from the parameter's place, norm and name, and those
// agree with the ids docs/trace.md documents; the model file puts each parameter where its
// place and name say.
#include <doctest/doctest.h>

#include <string>

#include "check.h"
#include "io/model_file.h"
#include "model/error.h"
#include "model/naming.h"
#include "trace/backward.h"

namespace {

// The role as the trace derived it before it was recorded: the text after the id's last dot.
std::string role_from_id(const ew::Step& s) {
  if (s.kind == "grad") return "grad";
  return s.id.substr(s.id.rfind('.') + 1);  // npos + 1 == 0: the whole id
}

// Every step's role as before, and its id the one naming.h makes from place and role (a
// LayerNorm's or softmax's pieces grouped under the step they belong to).
int check_roles(const std::string& what, const ew::Trace& t) {
  for (std::size_t i = 0; i < t.size(); ++i) {
    const ew::Step& s = t[i];
    INFO(what << ": step " << s.id);
    CHECK(s.role == role_from_id(s));
    if (s.kind == "grad" || s.kind == "loss" || s.id == ew::step_id(s.place, s.role)) continue;
    // Else a piece of a LayerNorm or softmax, grouped: "layer0." + "ln1" + "." + "mean".
    const std::string prefix = ew::block_prefix(s.place), tail = "." + s.role;
    CHECK((s.role == "mean" || s.role == "var" || s.role == "rowmax" || s.role == "rowsum"));
    CHECK(s.id.compare(0, prefix.size(), prefix) == 0);
    CHECK(s.id.size() > prefix.size() + tail.size());
    CHECK(s.id.compare(s.id.size() - tail.size(), tail.size(), tail) == 0);
  }
  return static_cast<int>(t.size());
}

// A model through the forward pass, and (when it has something to predict) the backward pass.
int run_both(const std::string& what, ew::Model m) {
  ew::Trace t;
  ew::run(m, t);
  int n = check_roles(what, t);
  try {
    ew::run_backward(m, t);
    n += check_roles(what + " (backward)", t);
  } catch (const ew::Error&) {
    // nothing to predict: the forward pass alone
  }
  for (const ew::Param& p : m.params) {
    INFO(what << ": parameter " << p.id);
    CHECK(p.id == ew::param_id(p.key()));
    CHECK(!p.name.empty());
  }
  return n;
}

}  // namespace

TEST_CASE("naming: every step of every preset has the role it had, and its id is made from place and role") {
  int steps = 0;
  for (const ew::Preset& p : ew::presets()) steps += run_both(p.name, ew::model_from_string(p.model_json));
  // Shapes the presets leave out: learned positions in the decoder's stream, a classifier in
  // a padded batch, a masked-word head with a second sentence.
  steps += run_both("learned positions, decoder, text2",
                    ew::model_from_json({{"config", {{"d_model", 8}, {"num_heads", 2}, {"positional", "learned"},
                                                     {"decoder_layers", 2}, {"norm", "pre"}}},
                                         {"text", "snow had fallen"}, {"text2", "snow on snow"}}));
  steps += run_both("classifier in a batch",
                    ew::model_from_json({{"config", {{"d_model", 8}, {"num_heads", 2}, {"num_labels", 3}}},
                                         {"text", "a b c"}, {"text2", "d e"}, {"label", 1}, {"label2", 2}}));
  steps += run_both("masked words, text2",
                    ew::model_from_json({{"config", {{"d_model", 8}, {"num_heads", 2}, {"masked_lm", true}}},
                                         {"text", "the [MASK] sat"}, {"text2", "a [MASK]"},
                                         {"mask_targets", {"cat", "dog"}}}));
  CHECK(steps > 2000);
}

TEST_CASE("naming: the ids docs/trace.md documents, from place, norm and name") {
  using ew::param_id;
  using ew::step_id;
  CHECK(param_id({{"decoder", 0, "cross_attention", -1}, "", "W_k"}) == "decoder0.cross.W_k");
  CHECK(param_id({{"decoder", 1, "self_attention", -1}, "", "b_o"}) == "decoder1.self.b_o");
  CHECK(param_id({{"decoder", 1, "ffn", -1}, "", "W_1"}) == "decoder1.W_1");
  CHECK(param_id({{"encoder", 2, "self_attention", -1}, "", "W_q"}) == "layer2.W_q");
  CHECK(param_id({{"encoder", 0, "add_norm", -1}, "ln2", "gamma"}) == "layer0.ln2.gamma");
  CHECK(param_id({{"decoder", 0, "add_norm", -1}, "ln3", "beta"}) == "decoder0.ln3.beta");
  CHECK(param_id({{"encoder", -1, "stack_output", -1}, "final_ln", "gamma"}) == "final_ln.gamma");
  CHECK(param_id({{"decoder", -1, "stack_output", -1}, "decoder_final_ln", "beta"}) == "decoder_final_ln.beta");
  CHECK(param_id({{"input", -1, "embedding", -1}, "embedding_ln", "gamma"}) == "embedding_ln.gamma");
  CHECK(param_id({{"input", -1, "embedding", -1}, "", "embedding_table"}) == "embedding_table");
  CHECK(param_id({{"classifier", -1, "classifier", -1}, "", "W"}) == "cls.W");
  // A parameter belongs to its block, never to one head.
  CHECK(param_id({{"encoder", 1, "self_attention", 3}, "", "W_v"}) == "layer1.W_v");
  CHECK(step_id({"encoder", 1, "self_attention", 0}, "weights") == "layer1.head0.weights");
  CHECK(step_id({"decoder", 0, "cross_attention", 2}, "context") == "decoder0.cross.head2.context");
  CHECK(step_id({"decoder", 0, "cross_attention", -1}, "concat") == "decoder0.cross.concat");
  CHECK(step_id({"encoder", 0, "add_norm", -1}, "mean", "ln1") == "layer0.ln1.mean");
  CHECK(step_id({"classifier", -1, "classifier", -1}, "rowsum", "probs") == "cls.probs.rowsum");
  CHECK(step_id({"masked_lm", -1, "softmax", -1}, "probs") == "mlm.probs");
  CHECK(step_id({"output", -1, "softmax", -1}, "probs") == "probs");
  CHECK(step_id({"decoder", -1, "embedding", -1}, "target_embedding") == "target_embedding");
}

TEST_CASE("naming: the model file puts each parameter where its place and name say, and reads it back") {
  ew::Model m = ew::model_from_json({{"config", {{"d_model", 4}, {"num_heads", 2}, {"d_ff", 6}, {"decoder_layers", 1},
                                                 {"num_layers", 2}, {"norm", "pre"}, {"positional", "learned"},
                                                 {"num_labels", 2}}},
                                     {"text", "a b c"}});
  ew::Trace t;
  ew::run(m, t);
  const nlohmann::json doc = ew::model_to_json(m);
  const auto& cross_wk = m.at("decoder0.cross.W_k");
  CHECK(doc["decoder"][0]["cross"]["W_k"][1][2].get<float>() == cross_wk.value(1, 2));
  CHECK(doc["layers"][1]["ln2"]["beta"].size() == 4);
  CHECK(doc["layers"][1]["W_2"].size() == 6);
  CHECK(doc["decoder_final_ln"]["gamma"][0].get<float>() == 1.0f);
  CHECK(doc["embedding_ln"]["beta"].size() == 4);
  CHECK(doc["classifier"]["W"].size() == 4);
  CHECK(doc["position_table"].size() == m.at("position_table").value.shape()[0]);
  // Read back: every parameter the file holds binds to the same place, name and values.
  ew::Model back = ew::model_from_json(doc);
  ew::Trace t2;
  ew::run(back, t2);
  REQUIRE(back.params.size() == m.params.size());
  for (std::size_t i = 0; i < m.params.size(); ++i) {
    INFO(m.params[i].id);
    CHECK(back.params[i].id == m.params[i].id);
    CHECK(back.params[i].name == m.params[i].name);
    CHECK(back.params[i].place.block == m.params[i].place.block);
    if (m.params[i].id != "embedding_table") CHECK(back.params[i].value == m.params[i].value);
  }
  CHECK(back.given_params == static_cast<int>(m.params.size()) - 1);  // all but the seeded token table
}
