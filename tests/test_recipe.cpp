// test_recipe.cpp — the training options' table (core/train/recipe.h): every reader takes its
// ranges from the one table (the command line's text, the page's JSON, validate()), and the
// recipe a model file carries reads back as the same options.
#include <doctest/doctest.h>

#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/error.h"
#include "train/recipe.h"

namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ew::Error& e) {
    return e.what();
  }
  return "";
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
      CHECK(error_of([&] { ew::set_recipe_text(o, f, text.str()); }).rfind(std::string("--") + f.name + " must be", 0) == 0);
      CHECK(error_of([&] { ew::recipe_from_json({{f.name, bad}}); }).rfind(std::string(f.name) + " must be", 0) == 0);
    }
    ew::TrainOptions same;
    ew::set_recipe_text(same, f, text);  // a value in range is taken
    CHECK(ew::recipe_to_json(same) == ew::recipe_to_json(defaults));
  }
  // decoder_layers starts at 1 everywhere: the task decides whether there is a decoder.
  ew::TrainOptions o;
  CHECK(error_of([&] { ew::set_recipe_text(o, *ew::find_recipe_field("decoder_layers"), "0"); }) ==
        "--decoder_layers must be between 1 and 48, got 0");
  CHECK(error_of([&] { ew::recipe_from_json({{"decoder_layers", 0}}); }) == "decoder_layers must be between 1 and 48, got 0");
  o.decoder_layers = 0;
  CHECK(error_of([&] { ew::validate(o); }) == "decoder_layers must be between 1 and 48, got 0");
  CHECK(error_of([&] { ew::recipe_from_json({{"task", "sorting"}}); }).rfind("unknown task \"sorting\"", 0) == 0);
  CHECK(error_of([&] { ew::recipe_from_json({{"step", 10}}); }).rfind("unknown training option \"step\"", 0) == 0);
  CHECK(error_of([&] { ew::recipe_from_json({{"steps", 10.5}}); }) == "steps must be a whole number, got 10.5");
  CHECK(error_of([&] { ew::recipe_from_json({{"lr", "0.1"}}); }) == "lr must be a number, got the string \"0.1\"");
  CHECK(error_of([&] { ew::set_recipe_text(o, *ew::find_recipe_field("lr"), "0.1x"); }).rfind("--lr must be a number", 0) == 0);
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
