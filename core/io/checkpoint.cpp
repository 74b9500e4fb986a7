// checkpoint.cpp — a Hugging Face checkpoint's files into a Model (checkpoint.h).
#include "io/checkpoint.h"
#include <algorithm>

#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "io/hf_keys.h"
#include "io/safetensors.h"
#include "model/config_schema.h"
#include "model/error.h"

namespace ew {

using nlohmann::json;

namespace {

std::string read_file(const std::string& path, const char* name) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error(std::string(name) + ": missing (looked for " + path + ")");
  f.seekg(0, std::ios::end);  // one buffer of the file's size: no stream growing to twice it
  const std::streamoff size = f.tellg();
  f.seekg(0, std::ios::beg);
  if (size < 0) throw Error(std::string(name) + ": cannot be read (" + path + ")");
  std::string bytes(static_cast<std::size_t>(size), '\0');
  if (!f.read(bytes.data(), size)) throw Error(std::string(name) + ": cannot be read (" + path + ")");
  return bytes;
}

std::string shape_str(const std::vector<std::size_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

// The names a binding's tensor may have in the file, in order of preference.
std::vector<std::string> candidates(const Binding& b, const std::string& prefix) {
  std::vector<std::string> stems{b.key};
  const auto ends = [&](const std::string& tail) {
    return b.key.size() >= tail.size() && b.key.compare(b.key.size() - tail.size(), tail.size(), tail) == 0;
  };
  const std::string stem = b.key.substr(0, b.key.rfind('.'));
  const bool gamma = b.param.size() > 5 && b.param.compare(b.param.size() - 5, 5, "gamma") == 0;
  const bool beta = b.param.size() > 4 && b.param.compare(b.param.size() - 4, 4, "beta") == 0;
  if (gamma && ends(".weight")) stems.push_back(stem + ".gamma");  // old BERT files: LayerNorm.gamma / .beta
  if (beta && ends(".bias")) stems.push_back(stem + ".beta");
  if (b.key == "cls.predictions.bias") stems.push_back("cls.predictions.decoder.bias");
  std::vector<std::string> out;
  for (const auto& s : stems) {
    if (b.base) out.push_back(prefix + s);
    out.push_back(s);
  }
  return out;
}

// The binding's tensor widened into our parameter's layout (transposed, or one part of c_attn).
xt::xarray<float> decode(const SafeTensorsIndex& index, const TensorEntry& e, const Binding& b) {
  const std::size_t rows = e.shape.size() == 1 ? 1 : e.shape[0], cols = e.shape.back() / b.parts;
  const std::size_t col0 = cols * b.part, stride = e.shape.back();
  std::vector<std::size_t> shape;
  if (b.layout == Layout::Vector) shape = {cols};
  else if (b.layout == Layout::Linear) shape = {cols, rows};
  else shape = {rows, cols};
  xt::xarray<float> v = xt::xarray<float>::from_shape(shape);
  float* out = v.data();
  if (b.layout != Layout::Linear) {
    for (std::size_t r = 0; r < rows; ++r) tensor_values(index, e, r * stride + col0, cols, out + r * cols);
    return v;
  }
  // [out, in] → in×out, 32 rows at a time so that each write is a run of 32 floats.
  constexpr std::size_t kRows = 32;
  std::vector<float> block(kRows * cols);
  for (std::size_t r0 = 0; r0 < rows; r0 += kRows) {
    const std::size_t n = std::min(kRows, rows - r0);
    for (std::size_t i = 0; i < n; ++i) tensor_values(index, e, (r0 + i) * stride + col0, cols, &block[i * cols]);
    for (std::size_t c = 0; c < cols; ++c)
      for (std::size_t i = 0; i < n; ++i) out[c * rows + r0 + i] = block[i * cols + c];
  }
  return v;
}

// Every binding's tensor into model.params; returns the names used.
std::set<std::string> bind(Model& m, const SafeTensorsIndex& index, const CheckpointConfig& c) {
  std::set<std::string> used;
  for (const Binding& b : checkpoint_bindings(c)) {
    const TensorEntry* e = nullptr;
    const std::vector<std::string> names = candidates(b, c.prefix);
    for (const auto& n : names)
      if ((e = index.find(n))) break;
    if (!e)
      throw Error("model.safetensors: tensor \"" + names.front() + "\" is missing (" + c.arch.architecture + "'s " +
                  b.param + ")");
    if (e->shape != b.shape)
      throw Error("model.safetensors: tensor \"" + e->name + "\" has shape " + shape_str(e->shape) + ", but config.json " +
                  "implies " + shape_str(b.shape) + " (" + b.param + ")");
    used.insert(e->name);
    m.params.push_back(Param{b.param, decode(index, *e, b), {}, {}, {}});
    if (b.parts > 1)
      m.arch.notes.push_back(b.param + ": part " + std::to_string(b.part + 1) + " of " + std::to_string(b.parts) +
                             " of the fused " + e->name + " (columns " + std::to_string(b.part * e->shape.back() / b.parts) +
                             "…" + std::to_string((b.part + 1) * e->shape.back() / b.parts - 1) + ")");
  }
  m.given_params = static_cast<int>(m.params.size());
  return used;
}

// A tied output weight the file keeps as a copy must be the token table itself.
void check_tied(const Model& m, const SafeTensorsIndex& index, const CheckpointConfig& c, std::set<std::string>& used) {
  const Param& E = m.at("embedding_table");
  for (const std::string& key : tied_copies(c)) {
    const TensorEntry* e = index.find(key);
    if (!e) continue;
    used.insert(key);
    bool same = e->count == E.value.size();
    for (std::size_t i = 0; same && i < e->count; ++i) same = tensor_value(index, *e, i) == E.value.data()[i];
    if (!same)
      throw Error("model.safetensors: tensor \"" + key + "\" differs from the token table; output weights that are not "
                  "tied to the embeddings are not supported");
  }
}

// Tensors the walkthrough does not use: known ones with their reason, others as "not used".
void note_unused(Model& m, const SafeTensorsIndex& index, const CheckpointConfig& c, const std::set<std::string>& used) {
  int buffers = 0;
  for (const TensorEntry& e : index.entries) {
    if (used.count(e.name)) continue;
    const std::string why = ignored_reason(e.name, c);
    if (why.rfind("a buffer", 0) == 0) {
      ++buffers;
      continue;
    }
    m.arch.notes.push_back("ignored " + e.name + ": " + (why.empty() ? "not used by " + c.arch.architecture : why));
  }
  if (buffers) m.arch.notes.push_back("ignored " + std::to_string(buffers) + " buffer tensor(s) (position_ids, attention masks)");
}

// id → token: the tokenizer's vocabulary, padded with "[id N]" up to the embedding table's rows.
std::vector<std::string> vocabulary(const CheckpointTokenizer& tok, int rows) {
  std::vector<std::string> v = tok.vocab();
  if (static_cast<int>(v.size()) > rows)
    throw Error(tok.source() + ": the vocabulary has " + std::to_string(v.size()) + " tokens, but the token table in "
                "model.safetensors has " + std::to_string(rows) + " rows");
  for (int i = static_cast<int>(v.size()); i < rows; ++i) v.push_back("[id " + std::to_string(i) + "]");
  return v;
}

}  // namespace

CheckpointFiles read_checkpoint_dir(const std::string& dir) {
  const std::string d = dir.empty() || dir.back() == '/' ? dir : dir + "/";
  CheckpointFiles f;
  f.config_json = read_file(d + "config.json", "config.json");
  f.safetensors = read_file(d + "model.safetensors", "model.safetensors");
  f.tokenizer = CheckpointTokenizer::read_dir(d);
  return f;
}

Checkpoint load_checkpoint(CheckpointFiles&& files) {
  json config;
  try {
    config = json::parse(files.config_json);
  } catch (const json::exception& e) {
    throw Error(std::string("config.json: not valid JSON (") + e.what() + ")");
  }
  const std::string bytes = std::move(files.safetensors);  // released when loading ends
  files.safetensors = std::string();
  SafeTensorsIndex index;
  try {
    index = index_safetensors(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  } catch (const Error& e) {
    throw Error(std::string("model.safetensors: ") + e.what());
  }
  std::vector<std::string> keys;
  for (const TensorEntry& e : index.entries) keys.push_back(e.name);
  const CheckpointConfig c = read_checkpoint_config(config, keys);
  Checkpoint out;
  Model& m = out.model;
  m.config = c.config;
  m.arch = c.arch;
  m.arch.notes = c.notes;
  m.label_names = c.labels;
  m.weights = "model.safetensors";
  try {
    validate_config(m.config);
  } catch (const Error& e) {
    throw Error(std::string("config.json: ") + e.what());
  }
  try {
    std::set<std::string> used = bind(m, index, c);
    check_tied(m, index, c, used);
    note_unused(m, index, c, used);
  } catch (const Error& e) {
    const std::string what = e.what();
    throw Error(what.rfind("model.safetensors", 0) == 0 ? what : "model.safetensors: " + what);
  }
  out.tokenizer = CheckpointTokenizer::from_files(files.tokenizer, c.arch.model_type);
  m.vocab = vocabulary(out.tokenizer, c.vocab_size);
  m.user_embedding = true;
  return out;
}

GivenTokens checkpoint_tokens(const Checkpoint& c, const std::string& text, const std::string& text2,
                              const std::vector<int>* ids) {
  GivenTokens g;
  if (!ids) {
    TokenizedText t = c.tokenizer.encode(text, text2);
    g.ids = std::move(t.ids);
    g.type_ids = std::move(t.type_ids);
    g.pieces = std::move(t.pieces);
    g.tokenizer = c.tokenizer.source();
    return g;
  }
  g.tokenizer = "ids";
  const int V = static_cast<int>(c.model.vocab.size());
  int segment = 0;
  for (std::size_t i = 0; i < ids->size(); ++i) {
    const int id = (*ids)[i];
    if (id < 0 || id >= V)
      throw Error("--ids: token id " + std::to_string(id) + " (position " + std::to_string(i) + ") is outside the " +
                  "vocabulary of " + std::to_string(V) + " tokens");
    g.ids.push_back(id);
    g.pieces.push_back(c.model.vocab[static_cast<std::size_t>(id)]);
    g.type_ids.push_back(segment);
    if (c.model.arch.type_vocab_size > 1 && c.model.vocab[static_cast<std::size_t>(id)] == "[SEP]") segment = 1;
  }
  return g;
}

}  // namespace ew
