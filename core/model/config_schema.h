// config_schema.h — the one table of configuration fields (ew::Config): name, type,
// default, range or enum values and a one-line description. Parsing a model file's
// "config", validating a Config, writing it back as JSON and the settings form of the page
// (which receives config_schema_json() through the Worker) are all driven by this table, so
// a limit or an enum name is written exactly once. Defaults are Config's own initialisers.
//
// Deliberately not here: rules between fields (num_heads must divide d_model), which stay
// as code in validate_config().
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/model.h"

namespace ew {

enum class FieldType { Int, Float, Bool, Enum, UInt64 };

// Where a field lives in Config.
using ConfigMember = std::variant<int Config::*, float Config::*, bool Config::*, std::uint64_t Config::*,
                                  NormOrder Config::*, Activation Config::*, Positional Config::*,
                                  TokenizerKind Config::*>;

struct ConfigField {
  const char* name;  // the model file's config key, the page's URL key
  FieldType type;
  ConfigMember member;
  const char* description;
  double min = 0, max = 0;    // Int, Float (inclusive unless exclusive_min)
  bool exclusive_min = false;
  std::vector<std::pair<const char*, int>> values;  // Enum: name -> the enum's value
};

// Every field, in the order of the page's form.
const std::vector<ConfigField>& config_fields();
const ConfigField* find_config_field(const std::string& name);

// Reads a model file's "config" object into `c` (keys it omits keep their values), with
// errors naming the JSON path ("config.d_model must be between 1 and 4096, got 0"); then
// validate_config.
void parse_config(Config& c, const nlohmann::json& j);
// Checks every field's range and the rules between fields; throws ew::Error naming them.
void validate_config(const Config& c);
// The configuration as the model file writes it: every field, enum names as strings.
nlohmann::json config_to_json(const Config& c);
// The table itself as JSON for the page: [{"name","type","default","min","max",
// "exclusive_min","values","description"}] (docs/model-file.md, "The config schema").
std::string config_schema_json();

}  // namespace ew
