// hf_export.cpp — our model as BERT's checkpoint files (hf_export.h).
#include "io/hf_export.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <system_error>

#include <nlohmann/json.hpp>

#include "io/hf_keys.h"
#include "io/safetensors.h"
#include "model/error.h"
#include "model/params.h"
#include "trace/forward.h"
#include "trace/trace.h"

namespace ew {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

const char* const kUnk = "<unk>";

// BERT's hidden_act for our activation ("" : none fits).
std::string hidden_act(Activation a) {
  switch (a) {
    case Activation::ReLU: return "relu";
    case Activation::GELU: return "gelu";
    case Activation::GELUTanh: return "gelu_new";
    default: return "";
  }
}

// The architecture's misfits (everything but the tokenizer).
void architecture_misfits(const Model& m, std::vector<std::string>& why) {
  const Config& c = m.config;
  if (c.decoder_layers > 0)
    why.push_back("it has a decoder (an encoder-decoder); BERT is an encoder only, and the checkpoint loader reads no "
                  "encoder-decoder type");
  if (c.norm == NormOrder::Pre)
    why.push_back("its layers are pre-norm (LayerNorm before each sublayer, one after the stack); BERT's are post-norm");
  if (c.positional == Positional::Sinusoidal)
    why.push_back("it adds sinusoidal positions (a learned table could hold them exactly) but has no LayerNorm after "
                  "the embeddings; BERT always normalises the summed embeddings (embeddings.LayerNorm), which cannot "
                  "be made the identity");
  if (c.positional == Positional::None)
    why.push_back("it adds no positions and has no LayerNorm after the embeddings; BERT always normalises the summed "
                  "embeddings (embeddings.LayerNorm), which cannot be made the identity");
  if (c.causal) why.push_back("its self-attention is causal; BERT's is bidirectional");
  if (!c.scale) why.push_back("its scores are not divided by sqrt(d_k); BERT's are");
  if (hidden_act(c.activation).empty())
    why.push_back("its activation has no BERT hidden_act (relu, gelu, gelu_new)");
  if (c.masked_lm)
    why.push_back("its masked-word head scores the outputs against the token table directly; BERT's masked-LM head "
                  "first applies a dense layer, an activation and a LayerNorm (cls.predictions.transform), which "
                  "cannot be made the identity");
  if (c.num_labels > 0)
    why.push_back("its classifier reads the first token's output directly; BERT's reads it through the pooler "
                  "(dense + tanh)");
}

// Our tokenizer's misfit ("" : it fits).
std::string tokenizer_misfit(const Model& m) {
  switch (m.config.tokenizer) {
    case TokenizerKind::Whitespace: return "";
    case TokenizerKind::Regex:
      return "its regex tokenizer keeps runs of letters, digits and _ and the marks . , ! ? ; and drops every other "
             "character; BERT's pre-tokenizer keeps every punctuation mark (and splits _ off), and no checkpoint "
             "tokenizer drops characters";
    case TokenizerKind::Bpe:
      return "its BPE marks word ends (</w>) and is not byte-level; the checkpoint tokenizers read WordPiece and "
             "byte-level BPE only";
    case TokenizerKind::Chars:
      return "its character tokenizer has no counterpart among the checkpoint tokenizers (WordPiece, byte-level BPE)";
  }
  return "";
}

// The token table with the vocabulary's rows (plus <unk> when the vocabulary has none).
std::vector<float> token_table(const Model& m, std::vector<std::string>& vocab, std::vector<std::string>& notes) {
  const Param& E = m.at("embedding_table");
  const std::size_t d = static_cast<std::size_t>(m.config.d_model);
  std::vector<float> t(vocab.size() * d);
  E.widen(0, t.size(), t.data());
  if (m.vocab.empty())
    notes.push_back("the vocabulary is the " + std::to_string(vocab.size()) + " tokens of the text (with <pad>, <s>, "
                    "</s>): a seeded model draws a row for any word, a checkpoint has a fixed table");
  bool has_unk = false;
  for (const auto& v : vocab) has_unk = has_unk || v == kUnk;
  if (!has_unk) {
    std::vector<float> row(d, 0.0f);
    if (!m.user_embedding) seeded_embedding_row(row.data(), m.config.seed, kUnk, static_cast<int>(d));
    t.insert(t.end(), row.begin(), row.end());
    vocab.push_back(kUnk);
    notes.push_back(std::string("added <unk> (id ") + std::to_string(vocab.size() - 1) + ", " +
                    (m.user_embedding ? "a zero row" : "its seeded row") + "): WordPiece needs an unknown token");
  }
  return t;
}

ordered_json config_of(const Model& m, int vocab_size, int positions, int pad_id) {
  const Config& c = m.config;
  ordered_json j;
  j["architectures"] = {"BertModel"};
  j["model_type"] = "bert";
  j["vocab_size"] = vocab_size;
  j["hidden_size"] = c.d_model;
  j["num_hidden_layers"] = c.num_layers;
  j["num_attention_heads"] = c.num_heads;
  j["intermediate_size"] = c.d_ff;
  j["hidden_act"] = hidden_act(c.activation);
  j["hidden_dropout_prob"] = 0.1;
  j["attention_probs_dropout_prob"] = 0.1;
  j["max_position_embeddings"] = positions;
  j["type_vocab_size"] = 1;  // one all-zero row: BERT always adds a token type, ours adds nothing
  j["initializer_range"] = 0.02;
  j["layer_norm_eps"] = static_cast<double>(c.layer_norm_eps);  // the float's exact value
  j["pad_token_id"] = pad_id;
  j["position_embedding_type"] = "absolute";
  j["is_decoder"] = false;
  j["add_cross_attention"] = false;
  j["torch_dtype"] = "float32";
  return j;
}

// tokenizer.json: whitespace split, each word looked up whole (WordPiece), nothing added.
ordered_json tokenizer_of(const std::vector<std::string>& vocab) {
  ordered_json v = ordered_json::object();
  for (std::size_t i = 0; i < vocab.size(); ++i) v[vocab[i]] = i;
  ordered_json j;
  j["version"] = "1.0";
  j["truncation"] = nullptr;
  j["padding"] = nullptr;
  j["added_tokens"] = ordered_json::array();
  j["normalizer"] = nullptr;
  j["pre_tokenizer"] = {{"type", "WhitespaceSplit"}};
  j["post_processor"] = nullptr;
  j["decoder"] = {{"type", "WordPiece"}, {"prefix", "##"}, {"cleanup", false}};
  j["model"] = {{"type", "WordPiece"}, {"unk_token", kUnk}, {"continuing_subword_prefix", "##"},
                {"max_input_chars_per_word", 1000000}, {"vocab", v}};
  return j;
}

// Our parameter's values as the binding's tensor lies on disk (nn.Linear: [out, in]).
std::vector<float> on_disk(const Param& p, const Binding& b) {
  const Widened w = p.widened();
  const float* v = w.data();
  std::vector<float> out(v, v + p.size());
  if (b.layout != Layout::Linear) return out;
  const std::size_t rows = p.dim(0), cols = p.dim(1);  // in × out
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t o = 0; o < cols; ++o) out[o * rows + i] = v[i * cols + o];
  return out;
}

std::size_t count(const std::vector<std::size_t>& shape) {
  std::size_t n = 1;
  for (std::size_t s : shape) n *= s;
  return n;
}

// Every binding's tensor, under BERT's names.
SafeTensors tensors_of(const Model& m, const json& config, const std::vector<float>& table) {
  const CheckpointConfig c = read_checkpoint_config(config, {});
  SafeTensors st;
  for (const Binding& b : checkpoint_bindings(c)) {
    std::vector<float> data;
    if (b.param == "embedding_table") data = table;
    else if (b.param == "token_type_table") data.assign(count(b.shape), 0.0f);
    else data = on_disk(m.at(b.param), b);
    if (data.size() != count(b.shape)) throw Error("internal: " + b.param + " does not have the shape of " + b.key);
    st.tensors.push_back(NamedTensor{b.key, b.shape, std::move(data)});
  }
  st.metadata["format"] = "pt";
  st.metadata["exported_by"] = "encoder-walkthrough export --hf";
  return st;
}

}  // namespace

std::vector<std::string> hf_export_misfits(const Model& m) {
  std::vector<std::string> why;
  if (!m.arch.model_type.empty()) why.push_back("it is a loaded checkpoint already");
  if (m.input) why.push_back("it reads given input rows, not text: a checkpoint needs a tokenizer and a token table");
  architecture_misfits(m, why);
  if (!m.input) {
    const std::string t = tokenizer_misfit(m);
    if (!t.empty()) why.push_back(t);
  }
  return why;
}

HfExport export_hf(Model m) {
  const std::vector<std::string> why = hf_export_misfits(m);
  if (!why.empty()) {
    std::string msg = "this model does not fit BERT, the architecture export --hf writes:";
    for (const auto& w : why) msg += "\n  - " + w;
    throw Error(msg);
  }
  const bool given_positions = m.find("position_table") != nullptr;
  Trace trace;
  run(m, trace);  // the vocabulary and every weight, as the model's own run has them
  HfExport out;
  std::vector<std::string> vocab = trace.text.vocab;
  const std::vector<float> table = token_table(m, vocab, out.notes);
  int positions = static_cast<int>(m.at("position_table").dim(0));
  if (!given_positions) {  // seeded rows depend only on their index: draw max_tokens of them
    positions = m.config.max_tokens;
    m.params.erase(std::remove_if(m.params.begin(), m.params.end(), [](const Param& p) { return p.id == "position_table"; }),
                   m.params.end());
    ensure_params(m, static_cast<int>(m.at("embedding_table").dim(0)), positions);
  }
  int pad_id = 0;
  for (std::size_t i = 0; i < vocab.size(); ++i)
    if (vocab[i] == "<pad>") pad_id = static_cast<int>(i);
  const ordered_json config = config_of(m, static_cast<int>(vocab.size()), positions, pad_id);
  out.config_json = config.dump(2) + "\n";
  out.tokenizer_json = tokenizer_of(vocab).dump(2) + "\n";
  out.safetensors = write_safetensors(tensors_of(m, json::parse(out.config_json), table), DiskType::F32);
  return out;
}

void write_hf_dir(const HfExport& e, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw Error(dir + ": cannot create the directory (" + ec.message() + ")");
  const auto put = [&](const char* name, const char* data, std::size_t size) {
    const std::string path = (std::filesystem::path(dir) / name).string();
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    if (!f || !f.write(data, static_cast<std::streamsize>(size)) || !f.flush())
      throw Error(path + ": cannot be written");
  };
  put("config.json", e.config_json.data(), e.config_json.size());
  put("model.safetensors", reinterpret_cast<const char*>(e.safetensors.data()), e.safetensors.size());
  put("tokenizer.json", e.tokenizer_json.data(), e.tokenizer_json.size());
}

}  // namespace ew
