// presets.h — built-in model files that reproduce the seed tutorials with their own
// numbers (and the page's default). Each preset is a model file (model_file.h) with a
// name, a title, a description a reader sees, and the seed it comes from.
#pragma once
#include <string>
#include <vector>

namespace ew {

struct Preset {
  std::string name, title, description, source;
  std::string model_json;
};

const std::vector<Preset>& presets();
const Preset* find_preset(const std::string& name);  // nullptr when unknown

}  // namespace ew
