// recipe.cpp — the training options' table and everything it drives (recipe.h).
#include "train/recipe.h"

#include <cmath>
#include <cstdlib>
#include <set>

#include "model/error.h"
#include "train/masked_words.h"
#include "train/tasks.h"

namespace ew {

using nlohmann::json;

namespace {

// 2^53 − 1: the largest seed a JavaScript number holds exactly, so the page, the CLI and a
// model file's JSON all accept the same seeds.
constexpr double kMaxSeed = 9007199254740991.0;

template <class M>
RecipeField field(const char* name, RecipeType type, M TrainOptions::*member, const char* help, double lo = 0,
                  double hi = 0, RecipeScope scope = RecipeScope::All, bool in_command = true) {
  return RecipeField{name, type, member, help, lo, hi, false, {}, scope, in_command};
}

std::vector<std::string> task_names() {
  std::vector<std::string> names;
  for (const Task& t : tasks()) names.push_back(t.name);
  names.push_back(kMaskedWordsTask);
  return names;
}

}  // namespace

// Ranges: the model's sizes are config_schema's, except decoder_layers, which starts at 1
// here: the task decides whether there is a decoder (an encoder–decoder task needs one; a
// classifier and masked-words get none whatever this says), so 0 would only build a model
// that cannot do its task. Steps, batch and warmup are bounded to keep a typo from running
// for days; lr above 1 never trains.
const std::vector<RecipeField>& recipe_fields() {
  using T = RecipeType;
  using S = RecipeScope;
  static const std::vector<RecipeField> fields = [] {
    std::vector<RecipeField> f = {
        field("task", T::Choice, &TrainOptions::task, "what to train on"),
        field("merges", T::Int, &TrainOptions::merges, "BPE merges learned on the training sentences", 0, 10000,
              S::Masked),
        field("seed", T::Seed, &TrainOptions::seed, "seeds the initial weights and the order of the examples", 0,
              kMaxSeed),
        field("steps", T::Int, &TrainOptions::steps, "optimizer steps", 1, 1e7),
        field("batch", T::Int, &TrainOptions::batch, "examples per step", 1, 4096),
        field("lr", T::Float, &TrainOptions::lr, "peak learning rate of AdamW", 0, 1),
        field("d_model", T::Int, &TrainOptions::d_model, "width of every token vector", 1, 4096),
        field("num_heads", T::Int, &TrainOptions::num_heads, "attention heads; each works on d_model / num_heads columns", 1, 64),
        field("d_ff", T::Int, &TrainOptions::d_ff, "width of the feed-forward network's hidden layer", 1, 16384),
        field("num_layers", T::Int, &TrainOptions::num_layers, "encoder layers", 0, 48),
        field("decoder_layers", T::Int, &TrainOptions::decoder_layers, "decoder layers", 1, 48, S::Decoder),
        field("warmup", T::Int, &TrainOptions::warmup,
              "steps over which the learning rate rises linearly to lr (then it falls linearly to lr/10)", 0, 1e7,
              S::All, false),
        field("weight_decay", T::Float, &TrainOptions::weight_decay, "AdamW's decoupled weight decay of the matrices",
              0, 1, S::All, false),
        field("clip_norm", T::Float, &TrainOptions::clip_norm, "the gradients' global norm is clipped to this (0: off)",
              0, 1e6, S::All, false),
        field("batched", T::Bool, &TrainOptions::batched,
              "the batched path when it supports the model (false: every example through the recorded passes)", 0, 0,
              S::All, false),
    };
    f[0].values = task_names();
    f[5].exclusive_min = true;  // lr
    return f;
  }();
  return fields;
}

const RecipeField* find_recipe_field(std::string_view name) {
  for (const RecipeField& f : recipe_fields())
    if (name == f.name) return &f;
  return nullptr;
}

bool recipe_applies(const RecipeField& f, const std::string& task) {
  const bool masked = task == kMaskedWordsTask;
  switch (f.scope) {
    case RecipeScope::All: return true;
    case RecipeScope::Masked: return masked;
    case RecipeScope::Decoder:
      if (masked) return false;
      for (const Task& t : tasks())
        if (t.name == task) return t.decoder();
      return false;
  }
  return true;
}

namespace {

// Whole numbers without a decimal point; others as the shortest text that reads back as the
// same double ("0.003", not "0.003000").
std::string num(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e16) return std::to_string(static_cast<long long>(v));
  return json(v).dump();
}

std::string range_text(const RecipeField& f) {
  return (f.exclusive_min ? "greater than " + num(f.min) + " and at most " : "between " + num(f.min) + " and ") +
         num(f.max);
}

void check_range(const RecipeField& f, const std::string& who, double v) {
  const bool low = f.exclusive_min ? !(v > f.min) : !(v >= f.min);
  if (!low && v <= f.max) return;
  throw Error(who + " must be " + range_text(f) + ", got " + num(v),
              f.exclusive_min ? "config_range_open" : "config_range",
              {{"field", f.name}, {"min", num(f.min)}, {"max", num(f.max)}, {"got", num(v)}});
}

std::string choices(const RecipeField& f) {
  std::string s;
  for (const std::string& v : f.values) s += (s.empty() ? "" : ", ") + v;
  return s;
}

// The value of a field as JSON.
json get(const TrainOptions& o, const RecipeField& f) {
  return std::visit([&](auto member) -> json { return o.*member; }, f.member);
}

// Stores a number already checked against the field's range.
void put_number(TrainOptions& o, const RecipeField& f, double v) {
  std::visit(
      [&](auto member) {
        using V = std::decay_t<decltype(o.*member)>;
        if constexpr (std::is_arithmetic_v<V> && !std::is_same_v<V, bool>) o.*member = static_cast<V>(v);
      },
      f.member);
}

// "unknown task \"sorting\" (tasks: number-words, ...)" unless v is one of the field's values.
void check_choice(const RecipeField& f, const std::string& v) {
  for (const std::string& x : f.values)
    if (x == v) return;
  throw Error("unknown " + std::string(f.name) + " \"" + v.substr(0, 40) + "\" (" + f.name + "s: " + choices(f) + ")");
}

void put_choice(TrainOptions& o, const RecipeField& f, const std::string& v) {
  check_choice(f, v);
  o.*std::get<std::string TrainOptions::*>(f.member) = v;
}

std::string describe(const json& v) {
  if (v.is_string()) return "the string " + json(v.get<std::string>().substr(0, 40)).dump();
  if (v.is_number()) return "the number " + v.dump();
  return v.is_boolean() ? "a boolean" : v.is_null() ? "null" : v.is_array() ? "an array" : "an object";
}

void set_json(TrainOptions& o, const RecipeField& f, const json& v) {
  const std::string who = f.name;
  switch (f.type) {
    case RecipeType::Choice:
      if (!v.is_string()) throw Error(who + " must be a string, got " + describe(v));
      return put_choice(o, f, v.get<std::string>());
    case RecipeType::Bool:
      if (!v.is_boolean()) throw Error(who + " must be true or false, got " + describe(v));
      o.*std::get<bool TrainOptions::*>(f.member) = v.get<bool>();
      return;
    default: {
      if (!v.is_number()) throw Error(who + " must be a number, got " + describe(v));
      const double x = v.get<double>();
      if (f.type != RecipeType::Float && x != std::floor(x)) throw Error(who + " must be a whole number, got " + v.dump());
      check_range(f, who, x);
      put_number(o, f, x);
    }
  }
}

}  // namespace

double parse_number(std::string_view text, const std::string& name, bool whole, double lo, double hi) {
  const std::string s(text);
  char* end = nullptr;
  const double x = std::strtod(s.c_str(), &end);
  const bool ok = !s.empty() && end && *end == '\0' && std::isfinite(x) && (!whole || x == std::floor(x));
  if (!ok)
    throw Error(name + " must be " + (whole ? "a whole number" : "a number") + " from " + num(lo) + " to " + num(hi) +
                ", got \"" + s.substr(0, 40) + "\"");
  if (x < lo || x > hi) throw Error(name + " must be between " + num(lo) + " and " + num(hi) + ", got " + s);
  return x;
}

void set_recipe_text(TrainOptions& o, const RecipeField& f, const std::string& text) {
  const std::string who = std::string("--") + f.name;
  switch (f.type) {
    case RecipeType::Choice: return put_choice(o, f, text);
    case RecipeType::Bool:
      if (text != "true" && text != "false") throw Error(who + " must be true or false, got \"" + text.substr(0, 40) + "\"");
      o.*std::get<bool TrainOptions::*>(f.member) = text == "true";
      return;
    default: {
      const double x = parse_number(text, who, f.type != RecipeType::Float, f.min, f.max);
      check_range(f, who, x);  // the open end of lr
      put_number(o, f, x);
    }
  }
}

TrainOptions recipe_from_json(const json& j) {
  if (!j.is_object()) throw Error("the training options must be a JSON object, got " + describe(j));
  TrainOptions o;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const RecipeField* f = find_recipe_field(it.key());
    if (!f) {
      std::string names;
      for (const RecipeField& g : recipe_fields()) names += (names.empty() ? "" : ", ") + std::string(g.name);
      throw Error("unknown training option \"" + it.key().substr(0, 40) + "\" (options: " + names + ")");
    }
    set_json(o, *f, it.value());
  }
  validate(o);
  return o;
}

json recipe_to_json(const TrainOptions& o) {
  json out = json::object();
  for (const RecipeField& f : recipe_fields())
    if (recipe_applies(f, o.task)) out[f.name] = get(o, f);
  return out;
}

std::string recipe_value_text(const TrainOptions& o, const RecipeField& f) {
  const json v = get(o, f);
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_unsigned()) return std::to_string(v.get<std::uint64_t>());
  return v.is_number() ? num(v.get<double>()) : v.dump();
}

std::string recipe_range_text(const RecipeField& f) {
  switch (f.type) {
    case RecipeType::Choice: return choices(f);
    case RecipeType::Bool: return "true or false";
    default: return f.exclusive_min ? "greater than " + num(f.min) + ", at most " + num(f.max) : num(f.min) + " to " + num(f.max);
  }
}

std::string recipe_command(const TrainOptions& o) {
  const TrainOptions defaults;
  std::string out;
  for (const RecipeField& f : recipe_fields()) {
    if (!recipe_applies(f, o.task)) continue;
    if (!f.in_command && get(o, f) == get(defaults, f)) continue;
    out += (out.empty() ? "--" : " --") + std::string(f.name) + " " + recipe_value_text(o, f);
  }
  return out;
}

std::map<std::string, std::string> recipe_metadata(const TrainOptions& o) {
  return {{"recipe", recipe_to_json(o).dump()}, {"training", recipe_command(o)}};
}

std::string recipe_schema_json() {
  static const char* kTypes[] = {"choice", "int", "float", "seed", "bool"};
  static const char* kScopes[] = {"all", "decoder", "masked-words"};
  const TrainOptions defaults;
  json out = json::array();
  for (const RecipeField& f : recipe_fields()) {
    json e = {{"name", f.name},
              {"type", kTypes[static_cast<int>(f.type)]},
              {"default", get(defaults, f)},
              {"scope", kScopes[static_cast<int>(f.scope)]},
              {"help", f.help}};
    if (f.type == RecipeType::Choice) e["values"] = f.values;
    if (f.type == RecipeType::Float) {
      e["min"] = f.min;
      e["max"] = f.max;
      e["exclusive_min"] = f.exclusive_min;
    } else if (f.type == RecipeType::Int || f.type == RecipeType::Seed) {
      e["min"] = static_cast<long long>(f.min);
      e["max"] = static_cast<long long>(f.max);
    }
    out.push_back(e);
  }
  return out.dump();
}

void validate(const TrainOptions& o) {
  for (const RecipeField& f : recipe_fields()) {
    const json v = get(o, f);
    if (f.type == RecipeType::Choice) {
      check_choice(f, v.get<std::string>());
    } else if (v.is_number()) {
      check_range(f, f.name, v.get<double>());
    }
  }
}

}  // namespace ew
