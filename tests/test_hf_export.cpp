// test_hf_export.cpp — io/hf_export.h in memory: a model BERT computes exactly, written as BERT's
// files and loaded back by the checkpoint loader (io/checkpoint.h), runs into the same steps with
// bit-equal values (plus BERT's token-type lookup of one zero row); the file's header is padded so
// the data starts 8-byte aligned and its linear weights lie [out, in]; every preset is refused
// with its reasons. Runs natively, under the sanitizers and in wasm (no files touched).
// reference_export_hf (tests/reference/check_export.py) checks the CLI, NumPy and PyTorch side.
#include <doctest/doctest.h>

#include <algorithm>

#include <cstring>
#include <map>
#include <string>

#include "io/checkpoint.h"
#include "io/hf_export.h"
#include "io/model_file.h"
#include "io/presets.h"
#include "io/safetensors.h"
#include "model/error.h"
#include "trace/forward.h"
#include "trace/trace.h"

namespace {

const char* kFits = R"({"config": {"d_model": 6, "num_heads": 2, "d_ff": 10, "num_layers": 2, "norm": "post",
  "activation": "gelu", "layer_norm_eps": 1e-6, "positional": "learned", "tokenizer": "whitespace", "seed": 9,
  "max_tokens": 20}, "text": "one two three two one , done"})";

ew::Checkpoint load_export(const ew::HfExport& e) {
  ew::CheckpointFiles f;
  f.config_json = e.config_json;
  f.safetensors = ew::HeapBytes(e.safetensors.size());
  std::copy(e.safetensors.begin(), e.safetensors.end(), f.safetensors.data());
  f.tokenizer.tokenizer_json = e.tokenizer_json;
  return ew::load_checkpoint(std::move(f));
}

std::map<std::string, std::vector<float>> steps_of(ew::Model& m) {
  ew::Trace t;
  ew::run(m, t);
  std::map<std::string, std::vector<float>> out;
  for (std::size_t i = 0; i < t.size(); ++i) out[t[i].id] = t[i].data;
  return out;
}

}  // namespace

TEST_CASE("a model BERT computes exactly comes back from its checkpoint with every step bit-equal") {
  ew::Model own = ew::model_from_string(kFits);
  const ew::HfExport e = ew::export_hf(own);
  ew::Checkpoint c = load_export(e);
  CHECK(c.model.arch.architecture == "BertModel");
  c.model.text = own.text;
  c.model.tokens = ew::checkpoint_tokens(c, own.text, "", nullptr);
  const auto a = steps_of(own), b = steps_of(c.model);
  for (const auto& step : a) {  // not structured bindings: INFO captures them (clang 14, C++17)
    const std::string& id = step.first;
    INFO(id);
    REQUIRE(b.count(id) == 1);
    CHECK(b.at(id) == step.second);
  }
  for (const auto& step : b)
    if (!a.count(step.first)) {
      const std::string& id = step.first;
      INFO(id);
      CHECK((id == "token_type_ids" || id == "token_type_embedding"));
      for (float v : step.second) CHECK(v == 0.0f);
    }
}

TEST_CASE("the exported file: data 8-byte aligned, nn.Linear weights [out, in], positions for max_tokens") {
  ew::Model own = ew::model_from_string(kFits);
  const ew::HfExport e = ew::export_hf(own);
  std::uint64_t n = 0;
  std::memcpy(&n, e.safetensors.data(), 8);
  CHECK((8 + n) % 8 == 0);
  const ew::SafeTensors st = ew::read_safetensors(e.safetensors.data(), e.safetensors.size());
  std::map<std::string, const ew::NamedTensor*> by;
  for (const auto& t : st.tensors) by[t.name] = &t;
  REQUIRE(by.count("encoder.layer.0.intermediate.dense.weight"));
  const auto& W1 = *by["encoder.layer.0.intermediate.dense.weight"];
  CHECK(W1.shape == std::vector<std::size_t>{10, 6});
  ew::Trace t;
  ew::run(own, t);
  const auto& ours = own.at("layer0.W_1").value;  // 6 × 10
  for (std::size_t i = 0; i < 6; ++i)
    for (std::size_t o = 0; o < 10; ++o) CHECK(W1.data[o * 6 + i] == ours(i, o));
  CHECK(by["embeddings.position_embeddings.weight"]->shape == std::vector<std::size_t>{20, 6});
  CHECK(by["embeddings.token_type_embeddings.weight"]->shape == std::vector<std::size_t>{1, 6});
}

TEST_CASE("every preset is refused with the reasons BERT cannot express it") {
  for (const ew::Preset& p : ew::presets()) {
    INFO(p.name);
    CHECK_THROWS_WITH_AS(ew::export_hf(ew::model_from_string(p.model_json)), doctest::Contains("does not fit BERT"),
                         ew::Error);
    CHECK_FALSE(ew::hf_export_misfits(ew::model_from_string(p.model_json)).empty());
  }
  ew::Model pre = ew::model_from_string(kFits);
  pre.config.norm = ew::NormOrder::Pre;
  CHECK_THROWS_WITH_AS(ew::export_hf(pre), doctest::Contains("pre-norm"), ew::Error);
}
