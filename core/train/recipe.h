// recipe.h — the one table of training options (TrainOptions): name, type, range, default
// and a line of help, like config_schema.h for the model's configuration. Everything that
// reads or writes a training recipe is driven by it, so a limit or a default is written once:
//  - validate(): every field's range (and the task's name);
//  - the command line: `encoder-walkthrough train --NAME VALUE` for every field (cli/train.cpp
//    builds its flags and its usage from the table; numbers through parse_number);
//  - the page: TrainSession.start's JSON (recipe_from_json) and the training form's schema
//    (recipe_schema_json, Module.recipeSchemaJson());
//  - a trained model's file: `train --out` writes the recipe into the safetensors
//    __metadata__ ("recipe": recipe_to_json; "training": recipe_command), and the shipped
//    presets read their provenance from there (io/presets.cpp).
// Defaults are TrainOptions' own initialisers.
//
// Deliberately not here: how a run is watched (--eval, --eval-every, --out), which is not part
// of what a model is trained with, and the corpus directory of masked-words (where the files
// are, not what is in them).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace ew {

struct TrainOptions {
  std::string task = "number-words";
  int merges = 2000;  // masked-words: BPE merges learned on the training sentences
  std::uint64_t seed = 1;
  int steps = 1500;
  int batch = 32;
  double lr = 3e-3;
  int d_model = 32, num_heads = 4, d_ff = 64, num_layers = 1, decoder_layers = 1;
  int warmup = 100;
  double weight_decay = 0.01;
  double clip_norm = 1.0;
  bool batched = true;  // the batched path when it supports the model (else the recorded one)
};

enum class RecipeType { Choice, Int, Float, Seed, Bool };

// Where a field lives in TrainOptions.
using RecipeMember = std::variant<std::string TrainOptions::*, int TrainOptions::*, double TrainOptions::*,
                                  std::uint64_t TrainOptions::*, bool TrainOptions::*>;

// Which tasks a field means something for (it is still range-checked for every task).
enum class RecipeScope { All, Decoder, Masked };

struct RecipeField {
  const char* name;  // the flag (--name), the JSON key
  RecipeType type;
  RecipeMember member;
  const char* help;
  double min = 0, max = 0;  // Int, Float, Seed (inclusive unless exclusive_min)
  bool exclusive_min = false;
  std::vector<std::string> values;  // Choice: the allowed values
  RecipeScope scope = RecipeScope::All;
  // Written in a model's training command even at its default (the others only when changed).
  bool in_command = true;
};

// Every field, in the order of the training command.
const std::vector<RecipeField>& recipe_fields();
const RecipeField* find_recipe_field(std::string_view name);
// Does the field mean something for this task? (decoder_layers: encoder–decoder tasks only;
// merges: masked-words only.)
bool recipe_applies(const RecipeField& f, const std::string& task);

// The one number parser of training options and the CLI's flags: the whole of `text` as a
// finite number (a whole one when `whole`) from lo to hi, else ew::Error naming `name`.
double parse_number(std::string_view text, const std::string& name, bool whole, double lo, double hi);

// Sets one field from command-line text ("0.003", "true"): ew::Error naming "--name".
void set_recipe_text(TrainOptions& o, const RecipeField& f, const std::string& text);
// TrainOptions from a JSON object of fields (keys it omits keep their defaults); ew::Error
// naming the key for an unknown key, a wrong type or a value out of range; then validate().
TrainOptions recipe_from_json(const nlohmann::json& j);
// Every field that applies to o.task, as JSON (the "recipe" of a model file's metadata).
nlohmann::json recipe_to_json(const TrainOptions& o);
// A field's value as the command line writes it ("0.003", "dates", "false"), and its range
// in words ("1 to 10000000", "greater than 0, at most 1", or the choices).
std::string recipe_value_text(const TrainOptions& o, const RecipeField& f);
std::string recipe_range_text(const RecipeField& f);
// The arguments of `encoder-walkthrough train` that reproduce o: every applicable field in
// table order, those with in_command even at their default ("--task dates --seed 1 ...").
std::string recipe_command(const TrainOptions& o);
// What `train --out` writes into a model file's __metadata__: "recipe" (recipe_to_json, as
// JSON text) and "training" (recipe_command), which the shipped presets quote (io/presets.cpp).
std::map<std::string, std::string> recipe_metadata(const TrainOptions& o);
// The table as JSON for the page's training form: [{"name","type","default","min","max",
// "exclusive_min","values","scope","help"}] (docs/training.md, "The recipe table").
std::string recipe_schema_json();

// Throws ew::Error naming the field when a value is out of its range or the task is unknown.
void validate(const TrainOptions& o);

}  // namespace ew
