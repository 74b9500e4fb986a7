// config_schema.cpp — the configuration table and everything it drives (config_schema.h).
#include "model/config_schema.h"

#include <cmath>
#include <limits>
#include <set>
#include <sstream>

#include "model/error.h"

namespace ew {

using nlohmann::json;

namespace {

constexpr double kU64Max = 18446744073709551615.0;

}  // namespace

namespace {

template <class M>
ConfigField field(const char* name, FieldType type, M Config::*member, const char* description, double lo = 0,
                  double hi = 0, bool exclusive_min = false) {
  return ConfigField{name, type, member, description, lo, hi, exclusive_min, {}};
}

template <class M>
ConfigField choice(const char* name, M Config::*member, const char* description,
                   std::vector<std::pair<const char*, M>> options) {
  ConfigField f = field(name, FieldType::Enum, member, description);
  for (const auto& [n, v] : options) f.values.emplace_back(n, static_cast<int>(v));
  return f;
}

}  // namespace

const std::vector<ConfigField>& config_fields() {
  using T = FieldType;
  static const std::vector<ConfigField> fields = {
      field("d_model", T::Int, &Config::d_model, "width of every token vector", 1, 4096),
      field("num_heads", T::Int, &Config::num_heads, "attention heads; each works on d_model / num_heads columns", 1, 64),
      field("d_ff", T::Int, &Config::d_ff, "width of the feed-forward network's hidden layer", 1, 16384),
      field("num_layers", T::Int, &Config::num_layers, "encoder layers", 0, 48),
      field("decoder_layers", T::Int, &Config::decoder_layers, "decoder layers (0: encoder only)", 0, 48),
      choice("norm", &Config::norm, "where LayerNorm goes: after each sub-layer (post) or before it (pre)",
             {{"post", NormOrder::Post}, {"pre", NormOrder::Pre}}),
      choice("activation", &Config::activation, "the feed-forward network's non-linearity",
             {{"relu", Activation::ReLU}, {"gelu", Activation::GELU}, {"gelu_new", Activation::GELUTanh}}),
      field("layer_norm_eps", T::Float, &Config::layer_norm_eps, "epsilon added to the variance in LayerNorm", 0, 1, true),
      field("causal", T::Bool, &Config::causal, "mask future positions in the encoder's self-attention"),
      choice("positional", &Config::positional, "how token order enters the model",
             {{"sinusoidal", Positional::Sinusoidal}, {"learned", Positional::Learned}, {"none", Positional::None}}),
      field("scale", T::Bool, &Config::scale, "divide attention scores by the square root of d_k"),
      field("seed", T::UInt64, &Config::seed, "seeds every weight the model file leaves out", 0, kU64Max),
      choice("tokenizer", &Config::tokenizer, "how text becomes tokens",
             {{"regex", TokenizerKind::Regex}, {"whitespace", TokenizerKind::Whitespace}, {"bpe", TokenizerKind::Bpe},
              {"chars", TokenizerKind::Chars}}),
      field("bpe_merges", T::Int, &Config::bpe_merges, "merges byte-pair encoding learns", 0, 10000),
      field("max_tokens", T::Int, &Config::max_tokens, "longest accepted input, in tokens", 1, 2048),
      field("num_labels", T::Int, &Config::num_labels, "labels of a classification head on the first token (0: none)", 0,
            1000),
      field("masked_lm", T::Bool, &Config::masked_lm,
            "a masked-word head: every token's output scored against the token table, softmax over the vocabulary"),
  };
  return fields;
}

const ConfigField* find_config_field(const std::string& name) {
  for (const ConfigField& f : config_fields())
    if (name == f.name) return &f;
  return nullptr;
}

namespace {

std::string describe(const json& v) {
  if (v.is_number()) return "the number " + v.dump();
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    if (s.size() > 40) s = s.substr(0, 40) + "…";
    return "the string \"" + s + "\"";
  }
  return std::string("a") + (v.is_array() ? "n array" : v.is_object() ? "n object" : v.is_null() ? " null" : " boolean");
}

std::string num(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  std::ostringstream s;
  s << v;
  return s.str();
}

std::string enum_list(const ConfigField& f) {
  std::string list;
  for (const auto& [name, value] : f.values) list += (list.empty() ? "\"" : ", \"") + std::string(name) + "\"";
  return list;
}

// The value of a field as JSON (enums by name, the seed as a number).
json get(const Config& c, const ConfigField& f) {
  return std::visit(
      [&](auto member) -> json {
        using V = std::decay_t<decltype(c.*member)>;
        if constexpr (std::is_enum_v<V>) {
          for (const auto& [name, value] : f.values)
            if (value == static_cast<int>(c.*member)) return name;
          return nullptr;
        } else {
          return c.*member;
        }
      },
      f.member);
}

void check_range(const ConfigField& f, const std::string& path, double v) {
  const bool low = f.exclusive_min ? !(v > f.min) : !(v >= f.min);
  if (!low && v <= f.max) return;
  const ErrorParams params{{"field", path}, {"min", num(f.min)}, {"max", num(f.max)}, {"got", num(v)}};
  if (f.type == FieldType::Float)
    throw Error(path + " must be " + (f.exclusive_min ? "greater than " : "at least ") + num(f.min) +
                    " and at most " + num(f.max) + ", got " + num(v),
                f.exclusive_min ? "config_range_open" : "config_range", params);
  throw Error(path + " must be between " + num(f.min) + " and " + num(f.max) + ", got " + num(v), "config_range", params);
}

long long read_int(const json& v, const std::string& path) {
  if (v.is_number_integer()) return v.get<long long>();
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.0e15) return static_cast<long long>(d);
  }
  if (v.is_number_unsigned()) return static_cast<long long>(std::min<std::uint64_t>(v.get<std::uint64_t>(), 1ull << 62));
  throw Error(path + " must be an integer, got " + describe(v), "config_integer", {{"field", path}, {"got", v.dump()}});
}

// A uint64 as a JSON number or a decimal string (JavaScript numbers cannot hold 2^64 − 1).
std::uint64_t read_u64(const json& v, const std::string& path) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  if (v.is_number_integer() && v.get<long long>() >= 0) return static_cast<std::uint64_t>(v.get<long long>());
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    std::uint64_t x = 0;
    bool ok = !s.empty() && s.size() <= 20;
    for (char ch : s) {
      if (!ok || ch < '0' || ch > '9') { ok = false; break; }
      const std::uint64_t digit = static_cast<std::uint64_t>(ch - '0');
      if (x > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) { ok = false; break; }
      x = x * 10 + digit;
    }
    if (ok) return x;
  }
  throw Error(path + " must be a whole number from 0 to 18446744073709551615 (a number or a string of digits), got " +
                  describe(v),
              "config_seed", {{"field", path}, {"got", v.dump()}});
}

void set(Config& c, const ConfigField& f, const json& v, const std::string& path) {
  std::visit(
      [&](auto member) {
        using V = std::decay_t<decltype(c.*member)>;
        if constexpr (std::is_enum_v<V>) {
          for (const auto& [name, value] : f.values)
            if (v.is_string() && v.get<std::string>() == name) {
              c.*member = static_cast<V>(value);
              return;
            }
          throw Error(path + " must be one of " + enum_list(f) + ", got " + describe(v), "config_choice",
                      {{"field", path}, {"allowed", enum_list(f)}, {"got", v.dump()}});
        } else if constexpr (std::is_same_v<V, bool>) {
          if (!v.is_boolean())
            throw Error(path + " must be true or false, got " + describe(v), "config_bool", {{"field", path}, {"got", v.dump()}});
          c.*member = v.get<bool>();
        } else if constexpr (std::is_same_v<V, std::uint64_t>) {
          c.*member = read_u64(v, path);
        } else if constexpr (std::is_same_v<V, int>) {
          const long long x = read_int(v, path);
          check_range(f, path, static_cast<double>(x));
          c.*member = static_cast<int>(x);
        } else {
          if (!v.is_number())
            throw Error(path + " must be a number, got " + describe(v), "config_number", {{"field", path}, {"got", v.dump()}});
          const double d = v.get<double>();
          if (!std::isfinite(d) || std::fabs(d) > std::numeric_limits<float>::max())
            throw Error(path + " must be a finite float32 number, got " + v.dump(), "config_number",
                        {{"field", path}, {"got", v.dump()}});
          check_range(f, path, d);
          c.*member = static_cast<V>(d);
        }
      },
      f.member);
}

}  // namespace

void validate_config(const Config& c) {
  for (const ConfigField& f : config_fields()) {
    if (f.type != FieldType::Int && f.type != FieldType::Float) continue;
    const json v = get(c, f);
    const double x = v.get<double>();
    if (!std::isfinite(x))
      throw Error(std::string(f.name) + " must be a finite number", "config_number", {{"field", f.name}, {"got", v.dump()}});
    check_range(f, f.name, x);
  }
  if (c.d_model % c.num_heads != 0)
    throw Error("The number of heads (" + std::to_string(c.num_heads) + ") must divide d_model (" +
                    std::to_string(c.d_model) + "): each head gets d_model / heads columns",
                "config_heads_divide", {{"heads", std::to_string(c.num_heads)}, {"d_model", std::to_string(c.d_model)}});
  if (c.masked_lm && c.decoder_layers > 0)
    throw Error("The masked-word head (masked_lm) needs an encoder-only model (decoder_layers is " +
                    std::to_string(c.decoder_layers) + "): it is a head on the encoder's own tokens",
                "config_masked_lm_decoder", {{"decoder_layers", std::to_string(c.decoder_layers)}});
}

void parse_config(Config& c, const json& j) {
  if (!j.is_object()) throw Error("config must be an object, got " + describe(j));
  for (auto it = j.begin(); it != j.end(); ++it) {
    const ConfigField* f = find_config_field(it.key());
    if (!f) {
      std::string list;
      std::set<std::string> names;
      for (const ConfigField& g : config_fields()) names.insert(g.name);
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
      throw Error("unknown key \"" + it.key() + "\" in config (allowed: " + list + ")", "config_unknown",
                  {{"field", it.key()}, {"allowed", list}});
    }
    set(c, *f, it.value(), it.key());
  }
  validate_config(c);
}

json config_to_json(const Config& c) {
  json out = json::object();
  for (const ConfigField& f : config_fields()) out[f.name] = get(c, f);
  return out;
}

std::string config_schema_json() {
  static const char* kTypes[] = {"int", "float", "bool", "enum", "uint64"};
  const Config defaults;
  json out = json::array();
  for (const ConfigField& f : config_fields()) {
    json e = {{"name", f.name}, {"type", kTypes[static_cast<int>(f.type)]}, {"description", f.description}};
    const json def = get(defaults, f);
    switch (f.type) {
      case FieldType::Int: e["default"] = def; e["min"] = static_cast<long long>(f.min); e["max"] = static_cast<long long>(f.max); break;
      case FieldType::Float:
        e["default"] = def; e["min"] = f.min; e["max"] = f.max; e["exclusive_min"] = f.exclusive_min; break;
      case FieldType::UInt64:
        e["default"] = std::to_string(def.get<std::uint64_t>()); e["min"] = "0"; e["max"] = "18446744073709551615"; break;
      case FieldType::Bool: e["default"] = def; break;
      case FieldType::Enum: {
        e["default"] = def;
        json names = json::array();
        for (const auto& [name, value] : f.values) names.push_back(name);
        e["values"] = names;
        break;
      }
    }
    out.push_back(e);
  }
  return out.dump();
}

}  // namespace ew
