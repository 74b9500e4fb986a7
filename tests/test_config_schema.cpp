// test_config_schema.cpp — the one table of config fields (config_schema.h): its defaults
// are Config's, every field round-trips through the model file's JSON, ranges and enum
// names are enforced with messages naming the key, the seed takes the full uint64 range as a
// number or a string of digits, and the exported schema says what the table says.
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "model/config_schema.h"
#include "model/error.h"

namespace {

std::string schema_error_of(const nlohmann::json& cfg) {
  ew::Config c;
  try {
    ew::parse_config(c, cfg);
  } catch (const ew::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the schema's defaults are Config's and every field round-trips") {
  const ew::Config defaults;
  const nlohmann::json j = ew::config_to_json(defaults);
  CHECK(j.size() == ew::config_fields().size());
  ew::Config c;
  c.d_model = 64;
  c.norm = ew::NormOrder::Pre;
  c.activation = ew::Activation::GELU;
  c.positional = ew::Positional::None;
  c.tokenizer = ew::TokenizerKind::Bpe;
  c.causal = true;
  c.seed = 18446744073709551615ull;
  c.layer_norm_eps = 1e-12f;
  ew::Config back;
  ew::parse_config(back, ew::config_to_json(c));
  CHECK(ew::config_to_json(back) == ew::config_to_json(c));
  const nlohmann::json schema = nlohmann::json::parse(ew::config_schema_json());
  REQUIRE(schema.size() == ew::config_fields().size());
  for (const auto& f : schema) {
    INFO(f.dump());
    const std::string name = f["name"];
    if (f["type"] == "uint64")
      CHECK(f["default"] == std::to_string(j[name].get<std::uint64_t>()));
    else
      CHECK(f["default"] == j[name]);
  }
}

TEST_CASE("ranges and enum names come from the table, in messages that name the key") {
  for (const ew::ConfigField& f : ew::config_fields()) {
    if (f.type != ew::FieldType::Int) continue;
    INFO(std::string(f.name));
    nlohmann::json at_max = {{f.name, f.max}};
    if (std::string(f.name) == "num_heads") at_max["d_model"] = 4096;  // 64 heads must divide d_model
    CHECK(schema_error_of(at_max) == "");
    CHECK(schema_error_of({{f.name, f.max + 1}}).rfind(std::string(f.name) + " must be between", 0) == 0);
    CHECK(schema_error_of({{f.name, f.min - 1}}).find("must be between") != std::string::npos);
  }
  CHECK(schema_error_of({{"norm", "sideways"}}).find("\"post\", \"pre\"") != std::string::npos);
  CHECK(schema_error_of({{"layer_norm_eps", 0}}).find("greater than 0") != std::string::npos);
  CHECK(schema_error_of({{"layer_norm_eps", 1.5}}).find("at most 1") != std::string::npos);
  CHECK(schema_error_of({{"d_model", 8}, {"num_heads", 3}}).find("must divide") != std::string::npos);
  CHECK(schema_error_of({{"colour", 1}}).find("unknown key \"colour\"") != std::string::npos);
}

// The page shows these from its catalog: each carries a code and the values its message needs.
TEST_CASE("config errors carry a code and params, and no internal prefix") {
  auto caught = [](const nlohmann::json& cfg) {
    ew::Config c;
    try {
      ew::parse_config(c, cfg);
    } catch (const ew::Error& e) {
      return e;
    }
    return ew::Error("");
  };
  const ew::Error heads = caught({{"d_model", 10}, {"num_heads", 3}});
  CHECK(std::string(heads.what()).rfind("The number of heads (3) must divide d_model (10)", 0) == 0);
  CHECK(heads.code == "config_heads_divide");
  CHECK(heads.params == ew::ErrorParams{{"heads", "3"}, {"d_model", "10"}});
  const ew::Error range = caught({{"d_ff", 0}});
  CHECK(range.code == "config_range");
  CHECK(range.params == ew::ErrorParams{{"field", "d_ff"}, {"min", "1"}, {"max", "16384"}, {"got", "0"}});
  CHECK(caught({{"layer_norm_eps", 0}}).code == "config_range_open");
  CHECK(caught({{"norm", "middle"}}).code == "config_choice");
  CHECK(caught({{"causal", 1}}).code == "config_bool");
  CHECK(caught({{"d_model", 8.5}}).code == "config_integer");
  CHECK(caught({{"colour", 1}}).code == "config_unknown");
  for (const char* bad : {"d_model", "num_heads"})
    CHECK(std::string(caught({{bad, -1}}).what()).find("config.") == std::string::npos);
}

TEST_CASE("the seed is any uint64, as a number or a decimal string") {
  ew::Config c;
  ew::parse_config(c, {{"seed", "18446744073709551615"}});
  CHECK(c.seed == 18446744073709551615ull);
  ew::parse_config(c, {{"seed", 18446744073709551615ull}});
  CHECK(c.seed == 18446744073709551615ull);
  ew::parse_config(c, {{"seed", "0"}});
  CHECK(c.seed == 0);
  CHECK(schema_error_of({{"seed", "18446744073709551616"}}).rfind("seed must be", 0) != std::string::npos);
  CHECK(schema_error_of({{"seed", "12a"}}).rfind("seed must be", 0) != std::string::npos);
  CHECK(schema_error_of({{"seed", -1}}).rfind("seed must be", 0) != std::string::npos);
  CHECK(schema_error_of({{"seed", ""}}).rfind("seed must be", 0) != std::string::npos);
}
