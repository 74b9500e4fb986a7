// hf_keys.cpp — config.json and tensor names of bert, distilbert and gpt2 checkpoints (hf_keys.h).
#include "io/hf_keys.h"

#include <algorithm>
#include <cmath>

#include "model/error.h"
#include "model/naming.h"

namespace ew {

using nlohmann::json;

namespace {

std::string shown(const json& v) {
  const std::string s = v.dump();
  return s.size() > 40 ? s.substr(0, 40) + "…" : s;
}

// config.json's integer `key` (or the first of its names present), or `fallback` when absent
// (-1: required).
int int_field(const json& j, std::initializer_list<const char*> names, int fallback, int lo = 1, int hi = 1 << 30) {
  for (const char* key : names) {
    if (!j.contains(key) || j[key].is_null()) continue;
    const json& v = j[key];
    if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > hi)
      throw Error("config.json: \"" + std::string(key) + "\" must be a whole number from " + std::to_string(lo) + " to " +
                  std::to_string(hi) + ", got " + shown(v));
    return v.get<int>();
  }
  if (fallback < 0) throw Error("config.json: \"" + std::string(*names.begin()) + "\" is missing");
  return fallback;
}

float float_field(const json& j, const char* key, float fallback) {
  if (!j.contains(key)) return fallback;
  if (!j[key].is_number() || !(j[key].get<double>() > 0) || j[key].get<double>() > 1)
    throw Error("config.json: \"" + std::string(key) + "\" must be a number in (0, 1], got " + shown(j[key]));
  return j[key].get<float>();
}

std::string string_field(const json& j, const char* key, const std::string& fallback) {
  if (!j.contains(key) || j[key].is_null()) return fallback;
  if (!j[key].is_string()) throw Error("config.json: \"" + std::string(key) + "\" must be a string, got " + shown(j[key]));
  return j[key].get<std::string>();
}

// An option the walkthrough does not compute must keep the value it does.
void require(const json& j, const char* key, const json& supported, const json& fallback, const std::string& why) {
  const json v = j.contains(key) && !j[key].is_null() ? j[key] : fallback;
  if (v != supported)
    throw Error("config.json: \"" + std::string(key) + "\" is " + shown(v) + "; only " + supported.dump() +
                " is supported (" + why + ")");
}

Activation activation(const json& j, const char* key, const std::string& fallback) {
  const std::string a = string_field(j, key, fallback);
  if (a == "gelu") return Activation::GELU;
  if (a == "gelu_new" || a == "gelu_pytorch_tanh") return Activation::GELUTanh;
  if (a == "relu") return Activation::ReLU;
  throw Error("config.json: \"" + std::string(key) + "\" is \"" + a.substr(0, 40) +
              "\"; supported: gelu (exact), gelu_new and gelu_pytorch_tanh (the tanh approximation), relu");
}

bool has_key_starting(const std::vector<std::string>& keys, const std::string& start) {
  return std::any_of(keys.begin(), keys.end(), [&](const std::string& k) { return k.rfind(start, 0) == 0; });
}

// The head: config.json's "architectures", else what the tensor names hold.
std::string architecture(const json& j, const std::vector<std::string>& keys, const std::string& type) {
  if (j.contains("architectures") && j["architectures"].is_array() && !j["architectures"].empty()) {
    if (!j["architectures"][0].is_string()) throw Error("config.json: \"architectures\" must be a list of names");
    return j["architectures"][0].get<std::string>();
  }
  if (type == "bert") {
    if (has_key_starting(keys, "cls.predictions.")) return "BertForMaskedLM";
    if (has_key_starting(keys, "classifier.")) return "BertForSequenceClassification";
    return "BertModel";
  }
  if (type == "distilbert") {
    if (has_key_starting(keys, "vocab_transform.")) return "DistilBertForMaskedLM";
    if (has_key_starting(keys, "classifier.")) return "DistilBertForSequenceClassification";
    return "DistilBertModel";
  }
  return has_key_starting(keys, "transformer.") || has_key_starting(keys, "lm_head.") ? "GPT2LMHeadModel" : "GPT2Model";
}

// id2label in id order (num_labels of them).
std::vector<std::string> labels_of(const json& j, int num_labels) {
  std::vector<std::string> out;
  const json* m = j.contains("id2label") && j["id2label"].is_object() ? &j["id2label"] : nullptr;
  for (int i = 0; i < num_labels; ++i) {
    const std::string k = std::to_string(i);
    if (m && m->contains(k) && (*m)[k].is_string()) out.push_back((*m)[k].get<std::string>());
    else out.push_back("LABEL_" + k);
  }
  return out;
}

int num_labels_of(const json& j) {
  if (j.contains("id2label") && j["id2label"].is_object() && !j["id2label"].empty())
    return static_cast<int>(j["id2label"].size());
  return int_field(j, {"num_labels"}, 2, 1, 1000);
}

// The head named by `arch` ("…ForMaskedLM", "…ForSequenceClassification", "…LMHeadModel", "…Model").
void set_head(CheckpointConfig& c, const json& j, const std::string& arch, const std::string& base,
              const std::vector<std::string>& heads) {
  c.arch.architecture = arch;
  if (arch == base) return;
  if (std::find(heads.begin(), heads.end(), arch) == heads.end()) {
    std::string list = base;
    for (const auto& h : heads) list += ", " + h;
    throw Error("config.json: \"architectures\" names " + arch.substr(0, 60) + "; supported for this model_type: " + list);
  }
  if (arch.find("MaskedLM") != std::string::npos || arch == "BertForPreTraining") {
    c.config.masked_lm = true;
    c.arch.mlm_transform = true;
  } else if (arch.find("SequenceClassification") != std::string::npos) {
    c.config.num_labels = num_labels_of(j);
    c.labels = labels_of(j, c.config.num_labels);
  } else if (arch == "GPT2LMHeadModel") {
    c.arch.lm_head = true;
  }
}

void common(CheckpointConfig& c, const json& j) {
  if (!c.arch.rope) c.config.positional = Positional::Learned;  // rotary decoders add no position vectors
  c.config.scale = true;
  c.config.decoder_layers = 0;
  c.config.seed = 0;
  c.config.max_tokens = std::min(c.positions, 2048);
  if (c.positions > 2048)
    c.notes.push_back("texts are limited to 2048 tokens (" +
                      std::string(c.arch.rope ? "max_position_embeddings is " : "the position table has ") +
                      std::to_string(c.positions) + (c.arch.rope ? ")" : " rows)"));
  (void)j;
}

void read_bert(CheckpointConfig& c, const json& j, const std::vector<std::string>& keys) {
  Config& k = c.config;
  c.prefix = "bert.";
  k.d_model = int_field(j, {"hidden_size"}, 768);
  k.num_layers = int_field(j, {"num_hidden_layers"}, 12);
  k.num_heads = int_field(j, {"num_attention_heads"}, 12);
  k.d_ff = int_field(j, {"intermediate_size"}, 3072);
  k.activation = activation(j, "hidden_act", "gelu");
  k.layer_norm_eps = float_field(j, "layer_norm_eps", 1e-12f);
  k.norm = NormOrder::Post;
  c.vocab_size = int_field(j, {"vocab_size"}, 30522);
  c.positions = int_field(j, {"max_position_embeddings"}, 512);
  c.arch.type_vocab_size = int_field(j, {"type_vocab_size"}, 2, 0, 1000);
  require(j, "position_embedding_type", "absolute", "absolute", "learned absolute positions");
  require(j, "is_decoder", false, false, "an encoder");
  require(j, "add_cross_attention", false, false, "no cross-attention");
  set_head(c, j, architecture(j, keys, "bert"), "BertModel",
           {"BertForMaskedLM", "BertForPreTraining", "BertForSequenceClassification"});
  if (k.num_labels > 0) c.arch.pooler = Activation::Tanh;
}

void read_distilbert(CheckpointConfig& c, const json& j, const std::vector<std::string>& keys) {
  Config& k = c.config;
  c.prefix = "distilbert.";
  k.d_model = int_field(j, {"dim"}, 768);
  k.num_layers = int_field(j, {"n_layers"}, 6);
  k.num_heads = int_field(j, {"n_heads"}, 12);
  k.d_ff = int_field(j, {"hidden_dim"}, 3072);
  k.activation = activation(j, "activation", "gelu");
  k.layer_norm_eps = 1e-12f;  // fixed in DistilBERT's code
  k.norm = NormOrder::Post;
  c.vocab_size = int_field(j, {"vocab_size"}, 30522);
  c.positions = int_field(j, {"max_position_embeddings"}, 512);
  set_head(c, j, architecture(j, keys, "distilbert"), "DistilBertModel",
           {"DistilBertForMaskedLM", "DistilBertForSequenceClassification"});
  if (k.num_labels > 0) c.arch.pooler = Activation::ReLU;
}

void read_gpt2(CheckpointConfig& c, const json& j, const std::vector<std::string>& keys) {
  Config& k = c.config;
  c.prefix = "transformer.";
  k.d_model = int_field(j, {"n_embd"}, 768);
  k.num_layers = int_field(j, {"n_layer"}, 12);
  k.num_heads = int_field(j, {"n_head"}, 12);
  k.d_ff = int_field(j, {"n_inner"}, 4 * k.d_model);
  k.activation = activation(j, "activation_function", "gelu_new");
  k.layer_norm_eps = float_field(j, "layer_norm_epsilon", 1e-5f);
  k.norm = NormOrder::Pre;
  k.causal = true;
  c.vocab_size = int_field(j, {"vocab_size"}, 50257);
  c.positions = int_field(j, {"n_positions", "n_ctx"}, 1024);
  c.arch.embedding_ln = false;
  c.arch.eos_id = int_field(j, {"eos_token_id"}, 50256, 0);
  require(j, "scale_attn_weights", true, true, "scores divided by √d_k");
  require(j, "scale_attn_by_inverse_layer_idx", false, false, "no per-layer scaling");
  require(j, "add_cross_attention", false, false, "no cross-attention");
  require(j, "tie_word_embeddings", true, true, "the LM head is the token table");
  set_head(c, j, architecture(j, keys, "gpt2"), "GPT2Model", {"GPT2LMHeadModel"});
}

// A number of config.json (or of its rope block) that must be positive: `fallback` when absent.
double positive(const json& j, const char* key, double fallback, const std::string& where = "") {
  if (!j.contains(key) || j[key].is_null()) return fallback;
  if (!j[key].is_number() || !(j[key].get<double>() > 0))
    throw Error("config.json: \"" + where + key + "\" must be a positive number, got " + shown(j[key]));
  return j[key].get<double>();
}

bool bool_field(const json& j, const char* key, bool fallback) {
  if (!j.contains(key) || j[key].is_null()) return fallback;
  if (!j[key].is_boolean()) throw Error("config.json: \"" + std::string(key) + "\" must be true or false, got " + shown(j[key]));
  return j[key].get<bool>();
}

// Rotary positions: rope_theta and rope_scaling (Transformers v4), or rope_parameters (v5: one
// block, or one per attention type for Gemma 3: "full_attention", "sliding_attention").
// Supported scalings: none/"default", "linear", "llama3"; any other is refused by name.
void read_rope(Arch& a, const json& j, double default_theta) {
  const json* block = nullptr;
  std::string where = "";
  if (j.contains("rope_parameters") && j["rope_parameters"].is_object()) {
    const json& p = j["rope_parameters"];
    if (p.contains("full_attention") && p["full_attention"].is_object()) {
      block = &p["full_attention"];
      where = "rope_parameters.full_attention.";
      if (p.contains("sliding_attention") && p["sliding_attention"].is_object())
        a.rope_local_theta = positive(p["sliding_attention"], "rope_theta", a.rope_local_theta, "rope_parameters.sliding_attention.");
    } else {
      block = &p;
      where = "rope_parameters.";
    }
  } else if (j.contains("rope_scaling") && j["rope_scaling"].is_object()) {
    block = &j["rope_scaling"];
    where = "rope_scaling.";
  }
  a.rope = true;
  a.rope_theta = positive(j, "rope_theta", default_theta);
  if (!block) return;
  a.rope_theta = positive(*block, "rope_theta", a.rope_theta, where);
  std::string type = string_field(*block, "rope_type", string_field(*block, "type", "default"));
  if (type == "default") return;
  if (type != "linear" && type != "llama3")
    throw Error("config.json: \"" + where + "rope_type\" is \"" + type.substr(0, 40) +
                "\"; supported: default, linear, llama3 (rotary scaling of another kind is not computed by the walkthrough)");
  a.rope_scaling = type;
  a.rope_factor = positive(*block, "factor", 1.0, where);
  if (type == "llama3") {
    a.rope_low = positive(*block, "low_freq_factor", 1.0, where);
    a.rope_high = positive(*block, "high_freq_factor", 4.0, where);
    a.rope_original = static_cast<int>(positive(*block, "original_max_position_embeddings", 8192, where));
    if (!(a.rope_high > a.rope_low))
      throw Error("config.json: \"" + where + "high_freq_factor\" must be larger than low_freq_factor");
  }
}

// Gemma 3's sliding-window layers: "layer_types" (a name per layer), else the older pattern
// (every sliding_window_pattern-th layer global).
void read_sliding(Arch& a, const json& j, int layers) {
  a.sliding.assign(static_cast<std::size_t>(layers), false);
  if (j.contains("layer_types") && j["layer_types"].is_array()) {
    const json& t = j["layer_types"];
    if (static_cast<int>(t.size()) != layers)
      throw Error("config.json: \"layer_types\" has " + std::to_string(t.size()) + " entries for " + std::to_string(layers) + " layers");
    for (int i = 0; i < layers; ++i) {
      const std::string v = t[static_cast<std::size_t>(i)].is_string() ? t[static_cast<std::size_t>(i)].get<std::string>() : "";
      if (v != "sliding_attention" && v != "full_attention")
        throw Error("config.json: \"layer_types\"[" + std::to_string(i) + "] is " + shown(t[static_cast<std::size_t>(i)]) +
                    "; supported: sliding_attention, full_attention");
      a.sliding[static_cast<std::size_t>(i)] = v == "sliding_attention";
    }
  } else {
    const int pattern = int_field(j, {"sliding_window_pattern", "_sliding_window_pattern"}, 6);
    for (int i = 0; i < layers; ++i) a.sliding[static_cast<std::size_t>(i)] = (i + 1) % pattern != 0;
  }
  a.sliding_window = int_field(j, {"sliding_window"}, 4096);
}

// Options these decoders have that the walkthrough does not compute: refused by name when set.
void refuse_set(const json& j, const char* key, const std::string& why) {
  if (j.contains(key) && !j[key].is_null() && j[key] != false)
    throw Error("config.json: \"" + std::string(key) + "\" is " + shown(j[key]) + "; not supported (" + why + ")");
}

// llama, qwen2, qwen3, gemma3_text: Llama-style decoders (model.h, Arch's modern fields).
void read_modern(CheckpointConfig& c, const json& j, const std::vector<std::string>& keys, const std::string& type) {
  Config& k = c.config;
  Arch& a = c.arch;
  const bool gemma = type == "gemma3_text";
  c.prefix = "model.";
  k.d_model = int_field(j, {"hidden_size"}, -1);
  k.num_layers = int_field(j, {"num_hidden_layers"}, -1);
  k.num_heads = int_field(j, {"num_attention_heads"}, -1);
  k.d_ff = int_field(j, {"intermediate_size"}, -1);
  k.layer_norm_eps = static_cast<float>(positive(j, "rms_norm_eps", 1e-6));
  k.norm = NormOrder::Pre;
  k.causal = true;
  k.positional = Positional::None;
  const std::string act = string_field(j, "hidden_activation", string_field(j, "hidden_act", gemma ? "gelu_pytorch_tanh" : "silu"));
  if (act == "silu") k.activation = Activation::SiLU;
  else if (act == "gelu_pytorch_tanh" || act == "gelu_new") k.activation = Activation::GELUTanh;
  else
    throw Error("config.json: \"hidden_act\" is \"" + act.substr(0, 40) + "\"; supported for " + type +
                ": silu (SwiGLU), gelu_pytorch_tanh (GeGLU)");
  c.vocab_size = int_field(j, {"vocab_size"}, -1);
  c.positions = int_field(j, {"max_position_embeddings"}, 2048);
  a.rms_norm = true;
  a.gated_ffn = true;
  a.kv_heads = int_field(j, {"num_key_value_heads"}, k.num_heads);
  if (k.num_heads % a.kv_heads != 0)
    throw Error("config.json: \"num_attention_heads\" (" + std::to_string(k.num_heads) + ") is not a multiple of "
                "\"num_key_value_heads\" (" + std::to_string(a.kv_heads) + ")");
  a.head_dim = int_field(j, {"head_dim"}, k.d_model / k.num_heads);
  if (a.head_dim % 2 != 0) throw Error("config.json: \"head_dim\" must be even (rotary pairs), got " + std::to_string(a.head_dim));
  const bool bias = bool_field(j, "attention_bias", false);
  a.attn_bias = type == "qwen2" ? true : bias;
  a.out_bias = type == "qwen2" ? false : bias;
  a.ffn_bias = bool_field(j, "mlp_bias", false);
  a.qk_norm = type == "qwen3" || gemma;
  a.untied_head = !bool_field(j, "tie_word_embeddings", !gemma ? false : true);
  // Without "tie_word_embeddings", Llama and Qwen default to untied; a file without lm_head.weight is tied.
  if (!j.contains("tie_word_embeddings") && !has_key_starting(keys, "lm_head.")) a.untied_head = false;
  a.eos_id = j.contains("eos_token_id") && j["eos_token_id"].is_number_integer() ? j["eos_token_id"].get<int>() : -1;
  refuse_set(j, "use_sliding_window", "Qwen's sliding window is off in every released checkpoint");
  refuse_set(j, "attn_logit_softcapping", "logit softcapping");
  refuse_set(j, "final_logit_softcapping", "logit softcapping");
  if (j.contains("pretraining_tp") && !j["pretraining_tp"].is_null() && j["pretraining_tp"] != 1)
    throw Error("config.json: \"pretraining_tp\" is " + shown(j["pretraining_tp"]) + "; only 1 is supported (the plain matmuls)");
  if (gemma) {
    a.norm_offset = 1.0f;
    a.sandwich_norm = true;
    a.embed_scale = std::sqrt(static_cast<float>(k.d_model));
    a.attn_scale = static_cast<float>(1.0 / std::sqrt(positive(j, "query_pre_attn_scalar", a.head_dim)));
    a.rope_local_theta = positive(j, "rope_local_base_freq", 10000.0);
    read_sliding(a, j, k.num_layers);
  } else {
    a.sliding.assign(static_cast<std::size_t>(k.num_layers), false);
  }
  read_rope(a, j, gemma ? 1000000.0 : 10000.0);
  const std::string base = type == "llama" ? "LlamaModel" : type == "qwen2" ? "Qwen2Model" : type == "qwen3" ? "Qwen3Model" : "Gemma3TextModel";
  const std::string lm = type == "llama" ? "LlamaForCausalLM" : type == "qwen2" ? "Qwen2ForCausalLM" : type == "qwen3" ? "Qwen3ForCausalLM" : "Gemma3ForCausalLM";
  std::string arch = base;
  if (j.contains("architectures") && j["architectures"].is_array() && !j["architectures"].empty() && j["architectures"][0].is_string())
    arch = j["architectures"][0].get<std::string>();
  else if (has_key_starting(keys, "lm_head.") || has_key_starting(keys, "model."))
    arch = lm;
  if (arch != base && arch != lm)
    throw Error("config.json: \"architectures\" names " + arch.substr(0, 60) + "; supported for this model_type: " + base + ", " + lm);
  a.architecture = arch;
  a.lm_head = true;  // the bare model is read through the tied head too: the walkthrough shows its predictions
}

void add(std::vector<Binding>& out, const std::string& param, const std::string& key, Layout layout,
         std::vector<std::size_t> shape, bool base = true, int part = 0, int parts = 1) {
  out.push_back({param, key, base, layout, std::move(shape), part, parts});
}

// A Linear (or Conv1D) `stem` into W / b of our block `place`.
void linear(std::vector<Binding>& out, const Place& at, const char* W, const char* b, const std::string& stem,
            std::size_t in, std::size_t outn, Layout layout, bool base = true) {
  add(out, param_id({at, "", W}), stem + ".weight", layout, layout == Layout::Linear ? std::vector<std::size_t>{outn, in}
                                                                                       : std::vector<std::size_t>{in, outn},
      base);
  add(out, param_id({at, "", b}), stem + ".bias", Layout::Vector, {outn}, base);
}

void norm(std::vector<Binding>& out, const Place& at, const char* ln, const std::string& stem, std::size_t d,
          bool base = true) {
  add(out, param_id({at, ln, "gamma"}), stem + ".weight", Layout::Vector, {d}, base);
  add(out, param_id({at, ln, "beta"}), stem + ".bias", Layout::Vector, {d}, base);
}

struct Dims3 {
  std::size_t d, ff, V, P;
};

void bert_layers(std::vector<Binding>& s, const CheckpointConfig& c, const Dims3& n, bool distil) {
  for (int i = 0; i < c.config.num_layers; ++i) {
    const std::string L = (distil ? "transformer.layer." : "encoder.layer.") + std::to_string(i) + ".";
    const Place att{"encoder", i, "self_attention", -1}, ffn{"encoder", i, "ffn", -1}, an{"encoder", i, "add_norm", -1};
    const char* names[4][3] = {{"W_q", "b_q", distil ? "attention.q_lin" : "attention.self.query"},
                               {"W_k", "b_k", distil ? "attention.k_lin" : "attention.self.key"},
                               {"W_v", "b_v", distil ? "attention.v_lin" : "attention.self.value"},
                               {"W_o", "b_o", distil ? "attention.out_lin" : "attention.output.dense"}};
    for (const auto& m : names) linear(s, att, m[0], m[1], L + m[2], n.d, n.d, Layout::Linear);
    norm(s, an, "ln1", L + (distil ? "sa_layer_norm" : "attention.output.LayerNorm"), n.d);
    linear(s, ffn, "W_1", "b_1", L + (distil ? "ffn.lin1" : "intermediate.dense"), n.d, n.ff, Layout::Linear);
    linear(s, ffn, "W_2", "b_2", L + (distil ? "ffn.lin2" : "output.dense"), n.ff, n.d, Layout::Linear);
    norm(s, an, "ln2", L + (distil ? "output_layer_norm" : "output.LayerNorm"), n.d);
  }
}

void gpt2_layers(std::vector<Binding>& s, const CheckpointConfig& c, const Dims3& n) {
  for (int i = 0; i < c.config.num_layers; ++i) {
    const std::string L = "h." + std::to_string(i) + ".";
    const Place att{"encoder", i, "self_attention", -1}, ffn{"encoder", i, "ffn", -1}, an{"encoder", i, "add_norm", -1};
    norm(s, an, "ln1", L + "ln_1", n.d);
    const char* qkv[3][2] = {{"W_q", "b_q"}, {"W_k", "b_k"}, {"W_v", "b_v"}};
    for (int p = 0; p < 3; ++p) {  // c_attn: [d, 3d] = [W_q | W_k | W_v], its bias [b_q | b_k | b_v]
      add(s, param_id({att, "", qkv[p][0]}), L + "attn.c_attn.weight", Layout::Conv1D, {n.d, 3 * n.d}, true, p, 3);
      add(s, param_id({att, "", qkv[p][1]}), L + "attn.c_attn.bias", Layout::Vector, {3 * n.d}, true, p, 3);
    }
    linear(s, att, "W_o", "b_o", L + "attn.c_proj", n.d, n.d, Layout::Conv1D);
    norm(s, an, "ln2", L + "ln_2", n.d);
    linear(s, ffn, "W_1", "b_1", L + "mlp.c_fc", n.d, n.ff, Layout::Conv1D);
    linear(s, ffn, "W_2", "b_2", L + "mlp.c_proj", n.ff, n.d, Layout::Conv1D);
  }
  norm(s, {"encoder", -1, "stack_output", -1}, "final_ln", "ln_f", n.d);
}

// A Llama-style decoder's tensors: model.embed_tokens, model.layers.{i}.(self_attn|mlp).*,
// the norms, model.norm, lm_head (untied only). nn.Linear weights are [out, in].
void modern_bindings(std::vector<Binding>& s, const CheckpointConfig& c, const Dims3& n) {
  const Arch& a = c.arch;
  const std::size_t hd = static_cast<std::size_t>(a.head_dim), dq = hd * static_cast<std::size_t>(c.config.num_heads),
                    dkv = hd * static_cast<std::size_t>(a.kv_heads);
  add(s, "embedding_table", "embed_tokens.weight", Layout::Table, {n.V, n.d});
  const auto lin = [&](const Place& at, const std::string& m, const std::string& key, std::size_t in, std::size_t out, bool bias) {
    add(s, param_id({at, "", "W_" + m}), key + ".weight", Layout::Linear, {out, in});
    if (bias) add(s, param_id({at, "", "b_" + m}), key + ".bias", Layout::Vector, {out});
  };
  const auto rms = [&](const Place& at, const char* norm, const std::string& key, std::size_t d) {
    add(s, param_id({at, norm, "gamma"}), key + ".weight", Layout::Vector, {d});
  };
  for (int i = 0; i < c.config.num_layers; ++i) {
    const std::string L = "layers." + std::to_string(i) + ".";
    const Place att{"encoder", i, "self_attention", -1}, ffn{"encoder", i, "ffn", -1}, an{"encoder", i, "add_norm", -1};
    rms(an, "attn_norm", L + "input_layernorm", n.d);
    lin(att, "q", L + "self_attn.q_proj", n.d, dq, a.attn_bias);
    lin(att, "k", L + "self_attn.k_proj", n.d, dkv, a.attn_bias);
    lin(att, "v", L + "self_attn.v_proj", n.d, dkv, a.attn_bias);
    if (a.qk_norm) {
      rms(att, "q_norm", L + "self_attn.q_norm", hd);
      rms(att, "k_norm", L + "self_attn.k_norm", hd);
    }
    lin(att, "o", L + "self_attn.o_proj", dq, n.d, a.out_bias);
    if (a.sandwich_norm) {
      rms(an, "post_attn_norm", L + "post_attention_layernorm", n.d);
      rms(an, "ffn_norm", L + "pre_feedforward_layernorm", n.d);
      rms(an, "post_ffn_norm", L + "post_feedforward_layernorm", n.d);
    } else {
      rms(an, "ffn_norm", L + "post_attention_layernorm", n.d);
    }
    lin(ffn, "gate", L + "mlp.gate_proj", n.d, n.ff, a.ffn_bias);
    lin(ffn, "up", L + "mlp.up_proj", n.d, n.ff, a.ffn_bias);
    lin(ffn, "down", L + "mlp.down_proj", n.ff, n.d, a.ffn_bias);
  }
  rms({"encoder", -1, "stack_output", -1}, "final_norm", "norm", n.d);
  if (a.untied_head) add(s, "lm_head", "lm_head.weight", Layout::Table, {n.V, n.d}, false);
}

}  // namespace

CheckpointConfig read_checkpoint_config(const json& j, const std::vector<std::string>& keys) {
  if (!j.is_object()) throw Error("config.json: not a JSON object");
  CheckpointConfig c;
  const std::string type = string_field(j, "model_type", "");
  c.arch.model_type = type;
  if (type == "bert") read_bert(c, j, keys);
  else if (type == "distilbert") read_distilbert(c, j, keys);
  else if (type == "gpt2") read_gpt2(c, j, keys);
  else if (type == "llama" || type == "qwen2" || type == "qwen3" || type == "gemma3_text") read_modern(c, j, keys, type);
  else
    throw Error("config.json: \"model_type\" is " + (type.empty() ? std::string("missing") : "\"" + type.substr(0, 40) + "\"") +
                "; supported: bert, distilbert, gpt2, llama, qwen2, qwen3, gemma3_text");
  common(c, j);
  return c;
}

std::vector<Binding> checkpoint_bindings(const CheckpointConfig& c) {
  const Config& k = c.config;
  const Dims3 n{static_cast<std::size_t>(k.d_model), static_cast<std::size_t>(k.d_ff),
                static_cast<std::size_t>(c.vocab_size), static_cast<std::size_t>(c.positions)};
  const std::string type = c.arch.model_type;
  std::vector<Binding> s;
  if (c.arch.rms_norm) {
    modern_bindings(s, c, n);
    return s;
  }
  if (type == "gpt2") {
    add(s, "embedding_table", "wte.weight", Layout::Table, {n.V, n.d});
    add(s, "position_table", "wpe.weight", Layout::Table, {n.P, n.d});
    gpt2_layers(s, c, n);
    return s;
  }
  const bool distil = type == "distilbert";
  add(s, "embedding_table", "embeddings.word_embeddings.weight", Layout::Table, {n.V, n.d});
  add(s, "position_table", "embeddings.position_embeddings.weight", Layout::Table, {n.P, n.d});
  if (c.arch.type_vocab_size > 0)
    add(s, "token_type_table", "embeddings.token_type_embeddings.weight", Layout::Table,
        {static_cast<std::size_t>(c.arch.type_vocab_size), n.d});
  norm(s, {"input", -1, "embedding", -1}, "embedding_ln", "embeddings.LayerNorm", n.d);
  bert_layers(s, c, n, distil);
  if (k.masked_lm) {
    const Place tr{"masked_lm", -1, "transform", -1};
    linear(s, tr, "W_t", "b_t", distil ? "vocab_transform" : "cls.predictions.transform.dense", n.d, n.d, Layout::Linear,
           false);
    norm(s, tr, "transform_ln", distil ? "vocab_layer_norm" : "cls.predictions.transform.LayerNorm", n.d, false);
    add(s, "mlm.b", distil ? "vocab_projector.bias" : "cls.predictions.bias", Layout::Vector, {n.V}, false);
  }
  if (k.num_labels > 0) {
    const Place pool{"classifier", -1, "pooler", -1}, cls{"classifier", -1, "classifier", -1};
    if (distil) linear(s, pool, "W_p", "b_p", "pre_classifier", n.d, n.d, Layout::Linear, false);
    else linear(s, pool, "W_p", "b_p", "pooler.dense", n.d, n.d, Layout::Linear, true);
    linear(s, cls, "W", "b", "classifier", n.d, static_cast<std::size_t>(k.num_labels), Layout::Linear, false);
  }
  return s;
}

std::string ignored_reason(const std::string& key, const CheckpointConfig& c) {
  const auto ends = [&](const std::string& tail) {
    return key.size() >= tail.size() && key.compare(key.size() - tail.size(), tail.size(), tail) == 0;
  };
  const auto starts = [&](const std::string& head) { return key.rfind(head, 0) == 0 || key.rfind(c.prefix + head, 0) == 0; };
  if (ends("position_ids")) return "a buffer (the positions 0, 1, 2, …), not a weight";
  if (c.arch.model_type == "gpt2" && (ends(".attn.bias") || ends(".attn.masked_bias")))
    return "a buffer (the causal mask), not a weight";
  if (starts("cls.seq_relationship.")) return "BERT's next-sentence head, which the walkthrough does not show";
  if (starts("pooler.") && c.config.num_labels == 0) return "BERT's pooler, read only by a classifier head";
  if (ends("predictions.decoder.bias")) return "a copy of cls.predictions.bias (the same tensor, tied)";
  return "";
}

std::vector<std::string> tied_copies(const CheckpointConfig& c) {
  if (c.arch.model_type == "gpt2" || (c.arch.rms_norm && !c.arch.untied_head)) return {"lm_head.weight"};
  if (c.arch.model_type == "distilbert") return {"vocab_projector.weight"};
  return {"cls.predictions.decoder.weight"};
}

}  // namespace ew
