// presets.h — built-in model files that reproduce the tutorials with their own numbers
// (and the page's default). Each preset is a model file (model_file.h) with a name, a
// title, a description a reader sees, the tutorial it comes from (by title), and where it
// opens: the step whose numbers the tutorial prints (and, in a batch, which sentence).
#pragma once
#include <string>
#include <vector>

namespace ew {

struct Preset {
  std::string name, title, description, source;
  std::string model_json;
  std::string step;  // id of the step the tutorial prints ("" : the first step)
  int batch = 0;     // the batch item (sentence) that step shows
  // A shipped model's `encoder-walkthrough train` arguments, read from its file's
  // __metadata__ "training" ("": none; core/train/recipe.h writes it).
  std::string training;
};

const std::vector<Preset>& presets();
const Preset* find_preset(const std::string& name);  // nullptr when unknown

}  // namespace ew
