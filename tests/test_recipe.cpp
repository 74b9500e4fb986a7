// test_recipe.cpp — the training options' table (core/train/recipe.h): every reader takes its
// ranges from the one table (the command line's text, the page's JSON, validate()), the
// recipe a model file carries reads back as the same options, and — the tie the table exists
// for — the arguments scripts/train-models.sh gives each shipped model are exactly the recipe
// in that model's models/*.safetensors __metadata__ and the training command its preset
// quotes. The tie is checked on the real script and files, and shown to fail on a script whose
// recipe was changed without retraining.
#include <doctest/doctest.h>

#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/builtin_models.h"
#include "io/presets.h"
#include "io/safetensors.h"
#include "model/error.h"
#include "train/recipe.h"

namespace {

std::string recipe_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ew::Error& e) {
    return e.what();
  }
  return "";
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in, "cannot read " << path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::map<std::string, std::string> file_metadata(const std::string& name) {
  const std::string bytes = read_text(std::string(EW_SOURCE_DIR) + "/models/" + name + ".safetensors");
  return ew::read_safetensors(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()).metadata;
}

// Each `train NAME --flag value ...` call of scripts/train-models.sh (continuation lines
// joined): NAME → the options its recipe flags give (the run's own flags are skipped).
std::map<std::string, ew::TrainOptions> script_recipes(const std::string& script) {
  std::string joined;
  for (std::size_t i = 0; i < script.size(); ++i) {
    if (script[i] == '\\' && i + 1 < script.size() && script[i + 1] == '\n') ++i;
    else joined += script[i];
  }
  std::map<std::string, ew::TrainOptions> out;
  std::istringstream lines(joined);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string x; words >> x;) w.push_back(x);
    if (w.size() < 2 || w[0] != "train") continue;
    ew::TrainOptions o;
    for (std::size_t i = 2; i + 1 < w.size(); i += 2) {
      REQUIRE_MESSAGE(w[i].rfind("--", 0) == 0, "train " << w[1] << ": \"" << w[i] << "\" is not a flag");
      if (const ew::RecipeField* f = ew::find_recipe_field(w[i].substr(2))) ew::set_recipe_text(o, *f, w[i + 1]);
    }
    out[w[1]] = o;
  }
  return out;
}

// What disagrees between the script's recipes, the files' metadata and the presets.
std::vector<std::string> tie_problems(const std::string& script,
                                      const std::function<std::map<std::string, std::string>(const std::string&)>& meta_of) {
  std::vector<std::string> problems;
  const auto recipes = script_recipes(script);
  for (const ew::BuiltinModel& b : ew::builtin_models())
    if (!recipes.count(b.name)) problems.push_back(std::string("no `train ") + b.name + "` in the script");
  for (const auto& [name, o] : recipes) {
    const auto meta = meta_of(name);
    const std::string want_recipe = ew::recipe_to_json(o).dump(), want_command = ew::recipe_command(o);
    if (!meta.count("recipe") || nlohmann::json::parse(meta.at("recipe")).dump() != want_recipe)
      problems.push_back(name + ": the file's recipe " + (meta.count("recipe") ? meta.at("recipe") : "(none)") +
                         " is not the script's " + want_recipe);
    if (!meta.count("training") || meta.at("training") != want_command)
      problems.push_back(name + ": the file's training command differs from the script's: " + want_command);
    const ew::Preset* p = ew::find_preset("trained-" + name);
    if (!p || p->training != want_command) problems.push_back(name + ": preset trained-" + name + " quotes another command");
  }
  return problems;
}

}  // namespace

TEST_CASE("recipe table: defaults in range; the command line, the JSON reader and validate() refuse the same values") {
  const ew::TrainOptions defaults;
  const nlohmann::json schema = nlohmann::json::parse(ew::recipe_schema_json());
  REQUIRE(schema.size() == ew::recipe_fields().size());
  for (std::size_t k = 0; k < ew::recipe_fields().size(); ++k) {
    const ew::RecipeField& f = ew::recipe_fields()[k];
    INFO(f.name);
    CHECK(schema[k]["name"] == f.name);
    const nlohmann::json& d = schema[k]["default"];
    const std::string text = ew::recipe_value_text(defaults, f);
    if (d.is_number()) CHECK(d.get<double>() == nlohmann::json::parse(text).get<double>());
    else CHECK((d.is_string() ? d.get<std::string>() : d.dump()) == text);
    if (f.type != ew::RecipeType::Int && f.type != ew::RecipeType::Float && f.type != ew::RecipeType::Seed) continue;
    CHECK(schema[k]["min"].get<double>() == f.min);
    CHECK(schema[k]["max"].get<double>() == f.max);
    const double def = nlohmann::json::parse(text).get<double>();
    CHECK((def >= f.min && def <= f.max));
    const double step = f.type == ew::RecipeType::Float ? f.max * 1e-3 : 1;
    for (double bad : {f.max + step, f.exclusive_min ? f.min : f.min - step}) {
      std::ostringstream text;
      text.precision(17);
      text << bad;
      ew::TrainOptions o;
      CHECK(recipe_error_of([&] { ew::set_recipe_text(o, f, text.str()); }).rfind(std::string("--") + f.name + " must be", 0) == 0);
      CHECK(recipe_error_of([&] { ew::recipe_from_json({{f.name, bad}}); }).rfind(std::string(f.name) + " must be", 0) == 0);
    }
    ew::TrainOptions same;
    ew::set_recipe_text(same, f, text);  // a value in range is taken
    CHECK(ew::recipe_to_json(same) == ew::recipe_to_json(defaults));
  }
  // decoder_layers starts at 1 everywhere: the task decides whether there is a decoder.
  ew::TrainOptions o;
  CHECK(recipe_error_of([&] { ew::set_recipe_text(o, *ew::find_recipe_field("decoder_layers"), "0"); }) ==
        "--decoder_layers must be between 1 and 48, got 0");
  CHECK(recipe_error_of([&] { ew::recipe_from_json({{"decoder_layers", 0}}); }) == "decoder_layers must be between 1 and 48, got 0");
  o.decoder_layers = 0;
  CHECK(recipe_error_of([&] { ew::validate(o); }) == "decoder_layers must be between 1 and 48, got 0");
  CHECK(recipe_error_of([&] { ew::recipe_from_json({{"task", "sorting"}}); }).rfind("unknown task \"sorting\"", 0) == 0);
  CHECK(recipe_error_of([&] { ew::recipe_from_json({{"step", 10}}); }).rfind("unknown training option \"step\"", 0) == 0);
  CHECK(recipe_error_of([&] { ew::recipe_from_json({{"steps", 10.5}}); }) == "steps must be a whole number, got 10.5");
  CHECK(recipe_error_of([&] { ew::recipe_from_json({{"lr", "0.1"}}); }) == "lr must be a number, got the string \"0.1\"");
  CHECK(recipe_error_of([&] { ew::set_recipe_text(o, *ew::find_recipe_field("lr"), "0.1x"); }).rfind("--lr must be a number", 0) == 0);
}

TEST_CASE("recipe: the metadata's recipe and training command read back as the same options") {
  ew::TrainOptions o;
  o.task = "dates";
  o.steps = 1234;
  o.lr = 0.0015;
  o.seed = 9007199254740991ull;  // the largest seed the table takes (a JavaScript number holds it exactly)
  o.batched = false;
  o.warmup = 7;
  const auto meta = ew::recipe_metadata(o);
  const ew::TrainOptions back = ew::recipe_from_json(nlohmann::json::parse(meta.at("recipe")));
  CHECK(ew::recipe_to_json(back) == ew::recipe_to_json(o));
  CHECK(back.seed == o.seed);
  CHECK(meta.at("training") ==
        "--task dates --seed 9007199254740991 --steps 1234 --batch 32 --lr 0.0015 --d_model 32 --num_heads 4 "
        "--d_ff 64 --num_layers 1 --decoder_layers 1 --warmup 7 --batched false");
  ew::TrainOptions parsed;
  std::istringstream words(meta.at("training"));
  for (std::string flag, value; words >> flag >> value;) ew::set_recipe_text(parsed, *ew::find_recipe_field(flag.substr(2)), value);
  CHECK(ew::recipe_to_json(parsed) == ew::recipe_to_json(o));
  // Fields that do not apply to the task are left out: no decoder for brackets, merges only for masked-words.
  o.task = "brackets";
  CHECK(ew::recipe_to_json(o).count("decoder_layers") == 0);
  CHECK(ew::recipe_to_json(o).count("merges") == 0);
  o.task = "masked-words";
  CHECK(ew::recipe_command(o).rfind("--task masked-words --merges 2000 --seed", 0) == 0);
}

TEST_CASE("scripts/train-models.sh, the shipped models' metadata and the presets agree on every recipe") {
  const std::string script = read_text(std::string(EW_SOURCE_DIR) + "/scripts/train-models.sh");
  REQUIRE(script_recipes(script).size() == ew::builtin_models().size());
  std::string problems;
  for (const std::string& p : tie_problems(script, file_metadata)) problems += p + "\n";
  CHECK_MESSAGE(problems.empty(), problems);
  // The check can fail: a recipe changed in the script without retraining, or a preset whose
  // model file says nothing, is caught.
  std::string changed = script;
  const std::size_t at = changed.find("--steps 4000");
  REQUIRE(at != std::string::npos);
  changed.replace(at, 12, "--steps 4001");
  CHECK(tie_problems(changed, file_metadata).size() >= 2);
  CHECK(!tie_problems(script, [](const std::string&) { return std::map<std::string, std::string>{}; }).empty());
}
