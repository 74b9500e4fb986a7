// test_intervene.cpp — the intervention specs (core/trace/intervene.h) as the CLI and the page
// write them, and the messages a wrong one gets: the one parser (cells, sets, patches), ids
// resolved through the trace's registry (a head by its place, a unit by its step's role),
// cells out of range, non-finite values, a donor whose lengths do not line up, unknown run
// options; and what a run with interventions reports (marks, the baseline beside the answer).
// The numbers of intervened runs are checked against PyTorch in tests/reference/check_hooks.py.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "model/error.h"
#include "session/session.h"
#include "session/sweep.h"
#include "trace/intervene.h"

namespace {

using Json = nlohmann::json;

// The message ew::Error gives for `f`, or "" when it throws nothing.
template <class F>
std::string message(F f) {
  try {
    f();
  } catch (const ew::Error& e) {
    return e.what();
  }
  return "";
}

ew::Session run_default(const Json& options) {
  ew::Session s;
  s.run({ew::ModelSource::Kind::Preset, "default", std::nullopt, std::nullopt, std::nullopt}, ew::run_options_from_json(options));
  return s;
}

}  // namespace

TEST_CASE("the spec parser: cells, sets and patches") {
  const ew::CellRef c = ew::parse_cell("layer0.W_q[1, 2]");
  CHECK(c.id == "layer0.W_q");
  CHECK(c.index == std::vector<int>{1, 2});
  CHECK(ew::parse_cell("decoder0.cross.head1").index.empty());
  CHECK(ew::parse_cell("x[0,1,2]").index.size() == 3);

  const ew::SetSpec s = ew::parse_set("layer0.head1.weights[2,0]=-1.5e-1");
  CHECK(s.cell.id == "layer0.head1.weights");
  CHECK(s.value == doctest::Approx(-0.15));

  const ew::PatchSpec p = ew::parse_patch("layer0.output@1,3");
  CHECK(p.id == "layer0.output");
  CHECK(p.positions == std::vector<int>{1, 3});
  CHECK(ew::parse_patch("layer0.output").positions.empty());
}

TEST_CASE("the spec parser's messages") {
  CHECK(message([] { ew::parse_cell("layer0.W_q[1,x]"); }).find("whole numbers") != std::string::npos);
  CHECK(message([] { ew::parse_cell("layer0.W_q[1,2"); }).find("ending with ]") != std::string::npos);
  CHECK(message([] { ew::parse_cell("layer0.W_q[-1,2]"); }).find("whole numbers ≥ 0") != std::string::npos);
  CHECK(message([] { ew::parse_cell("[1]"); }).find("does not start with a step or parameter id") != std::string::npos);
  CHECK(message([] { ew::parse_set("layer0.W_q[1,2]"); }).find("ID[r,c]=VALUE") != std::string::npos);
  CHECK(message([] { ew::parse_set("layer0.W_q[1,2]=big"); }).find("must be a number, got \"big\"") != std::string::npos);
  CHECK(message([] { ew::parse_set("layer0.W_q[1,2]=inf"); }).find("finite") != std::string::npos);
  CHECK(message([] { ew::parse_set("layer0.W_q[1,2]=nan"); }).find("finite") != std::string::npos);
  CHECK(message([] { ew::parse_set("layer0.W_q[1,2]=1e39"); }).find("finite") != std::string::npos);
  CHECK(message([] { ew::parse_set("layer0.W_q=1"); }).find("say which cell") != std::string::npos);
  CHECK(message([] { ew::parse_patch("layer0.output@1,,2"); }).find("the positions after @") != std::string::npos);
}

TEST_CASE("ids resolve through the trace's registry, with clear messages") {
  // Heads are found by their context step's place, units by the ffn_hidden step's role.
  CHECK(message([] { run_default({{"ablate", {"layer0.head1", "decoder0.cross.head0", "decoder0.ffn_hidden[31]"}}}); }) == "");
  CHECK(message([] { run_default({{"ablate", {"layer0.head7"}}}); }).find("give a head (this model's: decoder0.cross.head0") !=
        std::string::npos);
  CHECK(message([] { run_default({{"ablate", {"layer0.ffn_hidden[32]"}}}); }).find("has 32 hidden units (0 to 31)") !=
        std::string::npos);
  CHECK(message([] { run_default({{"ablate", {"layer0.q"}}}); }).find("cannot ablate \"layer0.q\"") != std::string::npos);
  CHECK(message([] { run_default({{"set", {{"layer0.W_q[8,0]", 1.0}}}}); }) ==
        "\"layer0.W_q\" has shape [8, 8]: index 8 is out of range for axis 0 (in) of size 8");
  CHECK(message([] { run_default({{"set", {{"layer0.W_q[1]", 1.0}}}}); }).find("a cell needs 2 index(es), got 1") !=
        std::string::npos);
  CHECK(message([] { run_default({{"set", {{"layer9.W_q[0,0]", 1.0}}}}); }) ==
        "cannot set \"layer9.W_q\": this model has no step or parameter of that id");
  CHECK(message([] { run_default({{"set", {{"token_ids[0]", 1.0}}}}); }).find("token ids are not values") != std::string::npos);
  CHECK(message([] { run_default({{"patch_from", "in the bleak"}, {"patch", {"layer0.output"}}}); }).find(
            "has shape [4, 8] in this run but [3, 8] in the donor's") != std::string::npos);
  CHECK(message([] { run_default({{"patch_from", "a b c d"}, {"patch", {"layer0.output@4"}}}); }).find(
            "its token axis has 4 positions") != std::string::npos);
  CHECK(message([] { run_default({{"patch", {"layer0.output"}}}); }) == "patching needs a donor sentence (patch_from)");
  CHECK(message([] { run_default({{"ablate_mode", "mean"}, {"ablate", {"layer0.head0"}}}); }).find("name the task") !=
        std::string::npos);
  CHECK(message([] { run_default({{"ablate_mode", "half"}}); }).find("\"zero\" or \"mean\"") != std::string::npos);
  CHECK(message([] { run_default({{"set", {{"layer0.W_q[0,0]", "1"}}}}); }).find("must be a number") != std::string::npos);
  // A set that breaks the arithmetic after it is refused, not shown as NaN.
  CHECK(message([] { run_default({{"set", {{"layer0.ln1.var[0]", -1.0}}}}); }).find("is not finite") != std::string::npos);
}

TEST_CASE("a run with interventions: marks, the baseline, zeros where a head was switched off") {
  const ew::Session s = run_default({{"ablate", {"layer0.head1"}}, {"set", {{"layer0.W_q[1,2]", 0.5}}}});
  const nlohmann::ordered_json doc = ew::session_json(s, {});
  int marked = 0;
  for (const auto& step : doc["steps"]) marked += step.value("intervened", false);
  CHECK(marked == 1);  // the ablated context; the parameter is marked among the params
  for (const auto& p : doc["params"]) CHECK(p.value("intervened", false) == (p["id"] == "layer0.W_q"));
  for (float v : s.trace().at("layer0.head1.context").data) CHECK(v == 0.0f);
  CHECK(s.trace().at("layer0.head1.context").intervened);
  CHECK(s.model().at("layer0.W_q").value(1, 2) == 0.5f);
  CHECK(s.report()["baseline_prediction"].contains("next_tokens"));
  CHECK(s.report().contains("next_tokens"));
  // The next run without interventions draws the seeded weights afresh (the set is gone).
  ew::Session t = run_default(Json::object());
  CHECK(t.model().at("layer0.W_q").value(1, 2) != 0.5f);
}

TEST_CASE("a refused intervention leaves the session holding the last good run, interventions and all") {
  ew::Session s;
  const ew::ModelSource source{ew::ModelSource::Kind::Preset, "default", std::nullopt, std::nullopt, std::nullopt};
  s.run(source, ew::run_options_from_json({{"ablate", {"layer0.head1"}}, {"lens", true}}));
  std::vector<std::pair<std::string, std::vector<float>>> before;
  for (std::size_t k = 0; k < s.trace().size(); ++k) before.emplace_back(s.trace()[k].id, s.trace()[k].data);
  const nlohmann::json report = s.report();
  // The id resolves against the baseline run, which has run by then: the trace was replaced.
  const std::string e = message([&] { s.run(source, ew::run_options_from_json({{"ablate", {"layer0.head9"}}})); });
  CHECK(e.find("layer0.head9") != std::string::npos);
  REQUIRE(s.trace().size() == before.size());
  bool same = true;
  for (std::size_t k = 0; k < before.size(); ++k) same = same && s.trace()[k].id == before[k].first && s.trace()[k].data == before[k].second;
  CHECK(same);
  for (float v : s.trace().at("layer0.head1.context").data) CHECK(v == 0.0f);
  CHECK(s.report() == report);
}

TEST_CASE("attribution of a post-norm model says why it does not decompose") {
  const ew::Session s = run_default({{"attribute", true}});
  CHECK(s.report()["attribution_error"].get<std::string>().find("needs a pre-norm model") != std::string::npos);
}

TEST_CASE("a sweep asked for as data (the page's sweep()): the same table, and messages for a wrong spec") {
  ew::Session s;
  s.run({ew::ModelSource::Kind::Preset, "trained-number-words", std::nullopt, std::nullopt, std::nullopt}, ew::RunOptions{});
  const std::string donor = "six hundred ninety three thousand four hundred twenty five";
  const Json direct = ew::patch_sweep(s.model(), s.model().text, donor);
  CHECK(ew::sweep_from_json(s.model(), Json{{"kind", "patch"}, {"patch_from", donor}}) == direct);
  const Json ab = ew::sweep_from_json(s.model(), Json{{"kind", "ablate"}, {"n", 5}});
  CHECK(ab == ew::ablation_sweep(s.model(), ew::find_task("number-words"), ew::AblateMode::Zero, 1, 5));
  CHECK(message([&] { ew::sweep_from_json(s.model(), Json{{"kind", "both"}}); }).find("\"kind\" is \"ablate\" or \"patch\"") != std::string::npos);
  CHECK(message([&] { ew::sweep_from_json(s.model(), Json{{"kind", "patch"}}); }).find("needs \"patch_from\"") != std::string::npos);
  CHECK(message([&] { ew::sweep_from_json(s.model(), Json{{"kind", "ablate"}, {"donor", "x"}}); }).find("unknown key \"donor\"") != std::string::npos);
  CHECK(message([&] { ew::sweep_from_json(s.model(), Json{{"kind", "ablate"}, {"n", 0}}); }).find("\"n\" must be a whole number from 1") != std::string::npos);
  ew::Session d = run_default(Json::object());
  CHECK(message([&] { ew::sweep_from_json(d.model(), Json{{"kind", "ablate"}}); }).find("name the task") != std::string::npos);
}

TEST_CASE("the ablation sweep on the batched path gives the recorded path's table, row for row") {
  // Under ASan+UBSan (EW_TEST_SANITIZED, a Debug build: 48 examples took 130 s there) 16 examples.
#ifdef EW_TEST_SANITIZED
  const int n = 16;
#else
  const int n = 48;
#endif
  for (const std::string task : {"number-words", "dates", "brackets"}) {
    CAPTURE(task);
    ew::Session s;
    s.run({ew::ModelSource::Kind::Preset, "trained-" + task, std::nullopt, std::nullopt, std::nullopt}, ew::RunOptions{});
    const Json fast = ew::ablation_sweep(s.model(), ew::find_task(task), ew::AblateMode::Zero, 11, n);
    const Json slow = ew::ablation_sweep(s.model(), ew::find_task(task), ew::AblateMode::Zero, 11, n, ew::SweepPath::Recorded);
    CHECK(fast["path"] == "batched");
    CHECK(slow["path"] == "recorded");
    CHECK(fast["accuracy"] == slow["accuracy"]);
    REQUIRE(fast["ablations"].size() == slow["ablations"].size());
    for (std::size_t i = 0; i < slow["ablations"].size(); ++i) CHECK(fast["ablations"][i] == slow["ablations"][i]);
    // Something was switched off: some head or block matters to a trained model.
    bool mattered = false;
    for (const Json& row : slow["ablations"]) mattered = mattered || row["accuracy"] != slow["accuracy"];
    CHECK(mattered);
  }
}
