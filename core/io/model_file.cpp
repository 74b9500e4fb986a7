// model_file.cpp — strict JSON → Model (see model_file.h).
#include "io/model_file.h"

#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include "io/builtin_models.h"
#include "io/safetensors.h"
#include "model/config_schema.h"
#include "model/error.h"
#include "model/naming.h"
#include "text/tokenizer.h"

namespace ew {

using nlohmann::json;

namespace {

std::string type_name(const json& v) {
  if (v.is_number()) {
    std::ostringstream s;
    s << v.dump();
    return "the number " + s.str();
  }
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    if (s.size() > 40) s = s.substr(0, 40) + "…";
    return "the string \"" + s + "\"";
  }
  return std::string("a") + (v.is_array() ? "n array" : v.is_object() ? "n object" : v.is_null() ? " null" : " boolean");
}

void check_keys(const json& obj, const std::string& path, const std::set<std::string>& allowed) {
  if (!obj.is_object()) throw Error(path + " must be an object, got " + type_name(obj));
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (!allowed.count(it.key())) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      throw Error("unknown key \"" + it.key() + "\" in " + path + " (allowed: " + list + ")");
    }
  }
}

std::string get_string(const json& v, const std::string& path) {
  if (!v.is_string()) throw Error(path + " must be a string, got " + type_name(v));
  std::string s = v.get<std::string>();
  if (s.size() > 100000) throw Error(path + " is longer than 100000 bytes");
  return s;
}

float get_float(const json& v, const std::string& path) {
  if (!v.is_number()) throw Error(path + " must be a number, got " + type_name(v));
  const double d = v.get<double>();
  if (!std::isfinite(d) || std::fabs(d) > std::numeric_limits<float>::max())
    throw Error(path + " must be a finite float32 number, got " + v.dump());
  return static_cast<float>(d);
}

xt::xarray<float> get_vector(const json& v, const std::string& path) {
  if (!v.is_array()) throw Error(path + " must be an array of numbers, got " + type_name(v));
  if (v.empty()) throw Error(path + " is empty");
  xt::xarray<float> out = xt::xarray<float>::from_shape({v.size()});
  for (std::size_t i = 0; i < v.size(); ++i) out(i) = get_float(v[i], path + "[" + std::to_string(i) + "]");
  return out;
}

xt::xarray<float> get_matrix(const json& v, const std::string& path) {
  if (!v.is_array() || v.empty() || !v[0].is_array())
    throw Error(path + " must be a matrix (an array of rows, each an array of numbers), got " + type_name(v));
  const std::size_t rows = v.size(), cols = v[0].size();
  if (cols == 0) throw Error(path + "[0] is an empty row");
  if (rows * cols > (std::size_t{1} << 26)) throw Error(path + " is too large (" + std::to_string(rows) + "×" + std::to_string(cols) + ")");
  xt::xarray<float> out = xt::xarray<float>::from_shape({rows, cols});
  for (std::size_t r = 0; r < rows; ++r) {
    const std::string rp = path + "[" + std::to_string(r) + "]";
    if (!v[r].is_array()) throw Error(rp + " must be an array of numbers, got " + type_name(v[r]));
    if (v[r].size() != cols)
      throw Error(path + " is ragged: row " + std::to_string(r) + " has " + std::to_string(v[r].size()) +
                  " numbers, row 0 has " + std::to_string(cols));
    for (std::size_t c = 0; c < cols; ++c) out(r, c) = get_float(v[r][c], rp + "[" + std::to_string(c) + "]");
  }
  return out;
}

// A parameter the model file gives, bound by its place and name (its id made by param_id).
void add_param(Model& m, const ParamKey& key, xt::xarray<float> value) {
  Param p;
  p.id = param_id(key);
  p.value = std::move(value);
  p.place = key.place;
  p.norm = key.norm;
  p.name = key.name;
  m.params.push_back(std::move(p));
  ++m.given_params;
}

// {"gamma", "beta"} of the LayerNorm `norm` at `at`.
void parse_norm(Model& m, const json& v, const std::string& path, const Place& at, const std::string& norm) {
  check_keys(v, path, {"gamma", "beta"});
  for (const char* k : {"gamma", "beta"})
    if (v.contains(k)) add_param(m, {at, norm, k}, get_vector(v[k], path + "." + k));
}

const std::set<std::string> kAttnKeys = {"W_q", "b_q", "W_k", "b_k", "W_v", "b_v", "W_o", "b_o"};
const std::set<std::string> kFfnKeys = {"W_1", "b_1", "W_2", "b_2"};

// The weights `keys` of v (matrices W_*, vectors b_*) of layer i of `section`: each the
// parameter of that name in the feed-forward block (W_1 … b_2) or in `attention` (W_q … b_o).
void parse_weights(Model& m, const json& v, const std::string& path, const char* section, int i,
                   const char* attention, const std::set<std::string>& keys) {
  for (const auto& k : keys) {
    if (!v.contains(k)) continue;
    const Place at{section, i, kFfnKeys.count(k) ? "ffn" : attention, -1};
    const std::string p = path + "." + k;
    add_param(m, {at, "", k}, k[0] == 'W' ? get_matrix(v[k], p) : get_vector(v[k], p));
  }
}

// "labels" (names, one per class), "label" and "label2" (an index or a name) of a classifier.
void parse_labels(Model& m, const json& j) {
  const int n = m.config.num_labels;
  if (j.contains("labels")) {
    const json& v = j["labels"];
    if (!v.is_array() || static_cast<int>(v.size()) != n)
      throw Error("labels must be an array of config.num_labels (" + std::to_string(n) + ") names, got " + type_name(v));
    for (std::size_t i = 0; i < v.size(); ++i) m.label_names.push_back(get_string(v[i], "labels[" + std::to_string(i) + "]"));
  }
  for (const char* key : {"label", "label2"}) {
    if (!j.contains(key)) continue;
    if (n == 0) throw Error(std::string(key) + " needs a classifier: config.num_labels is 0");
    const json& v = j[key];
    int idx = -1;
    if (v.is_string()) {
      for (std::size_t i = 0; i < m.label_names.size(); ++i)
        if (m.label_names[i] == v.get<std::string>()) idx = static_cast<int>(i);
      if (idx < 0) throw Error(std::string(key) + " is " + type_name(v) + ", which is not one of the labels");
    } else if (v.is_number_integer()) {
      const long long x = v.get<long long>();
      if (x < 0 || x >= n)
        throw Error(std::string(key) + " must be between 0 and " + std::to_string(n - 1) + " (config.num_labels − 1), got " +
                    std::to_string(x));
      idx = static_cast<int>(x);
    } else {
      throw Error(std::string(key) + " must be a label index or name, got " + type_name(v));
    }
    (std::string(key) == "label" ? m.label : m.label2) = idx;
  }
}

// An optional array of strings at j[key].
void parse_strings(const json& j, const char* key, std::vector<std::string>& out) {
  if (!j.contains(key)) return;
  const json& v = j[key];
  if (!v.is_array()) throw Error(std::string(key) + " must be an array of strings, got " + type_name(v));
  for (std::size_t i = 0; i < v.size(); ++i) out.push_back(get_string(v[i], std::string(key) + "[" + std::to_string(i) + "]"));
}

// ---- the model file's parts, in the order they are checked ----------------------------

// "text", "text2", "target".
void parse_texts(Model& m, const json& j) {
  if (j.contains("text")) m.text = get_string(j["text"], "text");
  if (j.contains("text2")) m.text2 = get_string(j["text2"], "text2");
  if (j.contains("target")) {
    m.target = get_string(j["target"], "target");
    m.target_given = true;
  }
}

// "input" (explicit layer-0 rows), or else "text" must be there.
void parse_input(Model& m, const json& j) {
  const Config& c = m.config;
  if (!j.contains("input")) {
    if (!j.contains("text")) throw Error("the model file needs \"text\" (a sentence) or \"input\" (rows of d_model numbers)");
    return;
  }
  m.input = get_matrix(j["input"], "input");
  const auto rows = m.input->shape()[0], cols = m.input->shape()[1];
  if (static_cast<int>(cols) != c.d_model)
    throw Error("input has " + std::to_string(cols) + " columns, expected config.d_model = " + std::to_string(c.d_model));
  if (static_cast<int>(rows) > c.max_tokens)
    throw Error("input has " + std::to_string(rows) + " rows; the limit (config.max_tokens) is " + std::to_string(c.max_tokens));
  if (!m.text.empty()) throw Error("give either \"text\" or \"input\", not both");
}

// "vocab": distinct tokens.
void parse_vocab(Model& m, const json& j) {
  if (!j.contains("vocab")) return;
  const json& v = j["vocab"];
  if (!v.is_array() || v.empty()) throw Error("vocab must be a non-empty array of strings, got " + type_name(v));
  std::set<std::string> seen;
  for (std::size_t i = 0; i < v.size(); ++i) {
    std::string t = get_string(v[i], "vocab[" + std::to_string(i) + "]");
    if (!seen.insert(t).second) throw Error("vocab[" + std::to_string(i) + "] repeats the token \"" + t + "\"");
    m.vocab.push_back(std::move(t));
  }
}

// The parameters outside the layers: "embedding" (the token table), "position_table" and the
// LayerNorms "embedding_ln", "final_ln", "decoder_final_ln", each at its place.
void parse_tables(Model& m, const json& j) {
  const Config& c = m.config;
  if (j.contains("embedding")) {
    if (m.vocab.empty()) throw Error("\"embedding\" needs \"vocab\": the list of tokens its rows belong to");
    xt::xarray<float> e = get_matrix(j["embedding"], "embedding");
    if (e.shape()[0] != m.vocab.size() || static_cast<int>(e.shape()[1]) != c.d_model)
      throw Error("embedding has shape [" + std::to_string(e.shape()[0]) + "," + std::to_string(e.shape()[1]) +
                  "], expected [" + std::to_string(m.vocab.size()) + "," + std::to_string(c.d_model) +
                  "] (one row per vocab token, d_model columns)");
    add_param(m, {{"input", -1, "embedding", -1}, "", "embedding_table"}, std::move(e));
    m.user_embedding = true;
  }
  if (j.contains("position_table"))
    add_param(m, {{"input", -1, "positional", -1}, "", "position_table"}, get_matrix(j["position_table"], "position_table"));
  if (j.contains("embedding_ln")) parse_norm(m, j["embedding_ln"], "embedding_ln", {"input", -1, "embedding", -1}, "embedding_ln");
  for (const char* ln : {"final_ln", "decoder_final_ln"}) {
    if (!j.contains(ln)) continue;
    if (c.norm != NormOrder::Pre) throw Error(std::string("\"") + ln + "\" belongs to pre-norm models (config.norm is \"post\")");
    const bool dec = std::string(ln) == "decoder_final_ln";
    parse_norm(m, j[ln], ln, {dec ? "decoder" : "encoder", -1, "stack_output", -1}, ln);
  }
}

// "bpe_corpus": a string of words separated by commas or white space, or an array of words.
void parse_bpe_corpus(Model& m, const json& v) {
  if (v.is_string()) {
    std::string word;
    for (char ch : v.get<std::string>() + ",") {
      if (ch == ',' || ch == ' ' || ch == '\n' || ch == '\t') {
        if (!word.empty()) m.bpe_corpus.push_back(word);
        word.clear();
      } else {
        word += ch;
      }
    }
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i) m.bpe_corpus.push_back(get_string(v[i], "bpe_corpus[" + std::to_string(i) + "]"));
  } else {
    throw Error("bpe_corpus must be a string (words separated by commas or spaces) or an array of words");
  }
}

// "mask_targets", "merges", "bpe_corpus".
void parse_tokenizer(Model& m, const json& j) {
  parse_strings(j, "mask_targets", m.mask_targets);
  std::vector<std::string> merges;
  parse_strings(j, "merges", merges);
  for (std::size_t i = 0; i < merges.size(); ++i)
    m.merges.push_back(bpe_merge_from_string(merges[i], "merges[" + std::to_string(i) + "]"));
  if (j.contains("bpe_corpus")) parse_bpe_corpus(m, j["bpe_corpus"]);
}

// j[key] as the array of a stack's layers (at most `most` of them: config.<limit>).
const json& layer_list(const json& j, const char* key, int most, const char* limit) {
  const json& L = j[key];
  if (!L.is_array()) throw Error(std::string(key) + " must be an array, got " + type_name(L));
  if (static_cast<int>(L.size()) > most)
    throw Error(std::string(key) + " has " + std::to_string(L.size()) + " entries but config." + limit + " is " +
                std::to_string(most));
  return L;
}

// "layers": per encoder layer its attention and feed-forward weights and "ln1", "ln2".
void parse_layers(Model& m, const json& j) {
  if (!j.contains("layers")) return;
  const json& L = layer_list(j, "layers", m.config.num_layers, "num_layers");
  std::set<std::string> keys = kAttnKeys;
  keys.insert(kFfnKeys.begin(), kFfnKeys.end());
  std::set<std::string> all = keys;
  all.insert({"ln1", "ln2"});
  for (std::size_t i = 0; i < L.size(); ++i) {
    const std::string path = "layers[" + std::to_string(i) + "]";
    const int layer = static_cast<int>(i);
    check_keys(L[i], path, all);
    parse_weights(m, L[i], path, "encoder", layer, "self_attention", keys);
    for (const char* ln : {"ln1", "ln2"})
      if (L[i].contains(ln)) parse_norm(m, L[i][ln], path + "." + ln, {"encoder", layer, "add_norm", -1}, ln);
  }
}

// "decoder": per decoder layer "self" and "cross" attention, the feed-forward weights and
// "ln1" … "ln3".
void parse_decoder(Model& m, const json& j) {
  if (!j.contains("decoder")) return;
  const json& D = layer_list(j, "decoder", m.config.decoder_layers, "decoder_layers");
  for (std::size_t i = 0; i < D.size(); ++i) {
    const std::string path = "decoder[" + std::to_string(i) + "]";
    const int layer = static_cast<int>(i);
    check_keys(D[i], path, {"self", "cross", "W_1", "b_1", "W_2", "b_2", "ln1", "ln2", "ln3"});
    for (const char* part : {"self", "cross"}) {
      if (!D[i].contains(part)) continue;
      const char* block = std::string(part) == "self" ? "self_attention" : "cross_attention";
      check_keys(D[i][part], path + "." + part, kAttnKeys);
      parse_weights(m, D[i][part], path + "." + part, "decoder", layer, block, kAttnKeys);
    }
    parse_weights(m, D[i], path, "decoder", layer, "", kFfnKeys);
    for (const char* ln : {"ln1", "ln2", "ln3"})
      if (D[i].contains(ln)) parse_norm(m, D[i][ln], path + "." + ln, {"decoder", layer, "add_norm", -1}, ln);
  }
}

// "classifier": {"W", "b"} of the classification head.
void parse_classifier(Model& m, const json& j) {
  if (!j.contains("classifier")) return;
  if (m.config.num_labels == 0) throw Error("\"classifier\" weights need config.num_labels > 0");
  const json& v = j["classifier"];
  check_keys(v, "classifier", {"W", "b"});
  const Place at{"classifier", -1, "classifier", -1};
  if (v.contains("W")) add_param(m, {at, "", "W"}, get_matrix(v["W"], "classifier.W"));
  if (v.contains("b")) add_param(m, {at, "", "b"}, get_vector(v["b"], "classifier.b"));
}

std::string read_bytes(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(std::string("cannot open the ") + what + " \"" + path + "\"");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A model file whose "weights" name a safetensors file — "builtin:<name>" for a shipped model
// (builtin_models.h), or a path relative to the model file at `path` (only when it was read
// from disk): the configuration, vocabulary, labels and parameters come from it, the rest
// from the model file.
Model model_with_weights(json j, const std::string& path) {
  if (!j["weights"].is_string()) throw Error("weights must be the path of a .safetensors file");
  const std::string name = j["weights"].get<std::string>();
  std::string bytes;
  if (name.rfind("builtin:", 0) == 0) {
    std::string names;
    bool known = false;
    for (const BuiltinModel& b : builtin_models()) {
      known = known || name.substr(8) == b.name;
      if (name.substr(8) == b.name && b.data) bytes.assign(reinterpret_cast<const char*>(b.data), b.size);
      names += (names.empty() ? "" : ", ") + std::string(b.name);
    }
    // A known name without bytes: a page build whose Worker did not fetch models/<name>.safetensors.
    if (known && bytes.empty()) throw Error("weights \"" + name + "\" are not loaded (the page fetches models/" + name.substr(8) + ".safetensors first)");
    if (bytes.empty()) throw Error("weights \"" + name + "\" is not a shipped model (builtin: " + names + ")");
  } else {
    if (path.empty())
      throw Error("\"weights\" names a safetensors file: only a model file read from disk (--model) can use a path");
    const std::size_t slash = path.find_last_of('/');
    const std::string file = name.size() && name[0] == '/' ? name : (slash == std::string::npos ? "" : path.substr(0, slash + 1)) + name;
    bytes = read_bytes(file, "weights file");
  }
  j.erase("weights");
  Model m = model_with_weight_bytes(std::move(j), bytes);
  m.weights = name;
  return m;
}

}  // namespace

// The model file `j` (without "weights") with the configuration, vocabulary, labels and
// parameters of the safetensors file `bytes`.
Model model_with_weight_bytes(json j, const std::string& bytes) {
  for (const char* k : {"config", "vocab", "labels", "embedding", "position_table", "embedding_ln", "layers", "decoder",
                        "classifier", "final_ln", "decoder_final_ln"})
    if (j.contains(k))
      throw Error(std::string("\"") + k + "\" belongs in the weights file: a model file with \"weights\" takes its "
                  "configuration and parameters from there");
  Model w = model_from_safetensors(read_safetensors(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
  j["config"] = config_to_json(w.config);
  if (!w.vocab.empty()) j["vocab"] = w.vocab;
  if (!w.label_names.empty()) j["labels"] = w.label_names;
  if (!w.merges.empty() && j.contains("merges"))
    throw Error("\"merges\" belongs in the weights file: this model brings its own BPE merges");
  Model m = model_from_json(j);
  if (m.merges.empty()) m.merges = w.merges;  // j no longer names "weights"
  m.params = std::move(w.params);
  m.given_params = w.given_params;
  m.user_embedding = w.user_embedding;
  return m;
}

Model model_from_json(const json& j) {
  check_keys(j, "the model file",
             {"config", "text", "text2", "target", "input", "vocab", "embedding", "position_table", "embedding_ln",
              "layers", "decoder", "classifier", "final_ln", "decoder_final_ln", "bpe_corpus", "title", "description",
              "source", "label", "label2", "labels", "weights", "merges", "mask_targets"});
  if (j.contains("weights")) return model_with_weights(j, "");
  Model m;
  if (j.contains("config")) parse_config(m.config, j["config"]);
  parse_texts(m, j);
  parse_input(m, j);
  parse_vocab(m, j);
  parse_tables(m, j);
  parse_tokenizer(m, j);
  parse_layers(m, j);
  parse_decoder(m, j);
  parse_labels(m, j);
  parse_classifier(m, j);
  return m;
}

json model_file_json(const std::string& text) {
  try {
    return json::parse(text);
  } catch (const json::exception& e) {  // parse_error, or out_of_range for a number like 1e9999
    throw Error(std::string("the model file is not valid JSON: ") + e.what());
  }
}

Model model_from_string(const std::string& text) { return model_from_json(model_file_json(text)); }

Model model_from_file(const std::string& path) {
  const std::string text = read_bytes(path, "model file");
  try {
    json j = model_file_json(text);
    if (j.is_object() && j.contains("weights")) return model_with_weights(std::move(j), path);
    return model_from_json(j);
  } catch (const Error& e) {
    throw Error(path + ": " + e.what());
  }
}

namespace {

json values_json(const Param& p) {
  const Widened w = p.widened();
  const float* v = w.data();
  if (p.rank() == 1) return std::vector<float>(v, v + p.size());
  const std::size_t rows = p.dim(0), cols = p.dim(1);
  json m = json::array();
  for (std::size_t r = 0; r < rows; ++r) m.push_back(std::vector<float>(v + r * cols, v + (r + 1) * cols));
  return m;
}

// Where the model file keeps parameter p, from its place, norm and name: a layer's under
// "layers"[i] or "decoder"[i] (a decoder layer's attention under "self" or "cross"), the
// classifier's under "classifier", a LayerNorm's under its name; "layers"[1]["ln2"]["gamma"].
json& slot_of(json& doc, const Param& p) {
  json* node = &doc;
  const Place& at = p.place;
  if (at.layer >= 0) {
    const bool dec = at.section == "decoder";
    json& list = doc[dec ? "decoder" : "layers"];
    while (list.size() <= static_cast<std::size_t>(at.layer)) list.push_back(json::object());
    node = &list[static_cast<std::size_t>(at.layer)];
    if (dec && at.block == "self_attention") node = &(*node)["self"];
    if (dec && at.block == "cross_attention") node = &(*node)["cross"];
  } else if (at.section == "classifier") {
    node = &doc["classifier"];
  }
  if (!p.norm.empty()) node = &(*node)[p.norm];
  return (*node)[p.name];
}

}  // namespace

json model_to_json(const Model& m) {
  json doc = {{"config", config_to_json(m.config)}};
  if (!m.text.empty()) doc["text"] = m.text;
  if (!m.vocab.empty()) doc["vocab"] = m.vocab;
  if (!m.label_names.empty()) doc["labels"] = m.label_names;
  for (const auto& [a, b] : m.merges) doc["merges"].push_back(a + ' ' + b);
  for (const Param& p : m.params) {
    if (p.name == "embedding_table") {
      if (m.user_embedding) doc["embedding"] = values_json(p);
      continue;
    }
    slot_of(doc, p) = values_json(p);
  }
  return doc;
}

}  // namespace ew
