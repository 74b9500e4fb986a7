// hf_keys.h — what a Hugging Face checkpoint's config.json and tensor names mean in our terms:
// the configuration (ew::Config + ew::Arch) of model_type bert, distilbert and gpt2, and for
// each of our parameter ids the tensor it comes from, with the layout that tensor has on disk
// (nn.Linear stores [out, in] and is transposed into our in×out; GPT-2's Conv1D stores
// [in, out] as we do; GPT-2's fused c_attn is split into W_q, W_k, W_v by columns).
//
// Only names and shapes here; reading the bytes is checkpoint.cpp's.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/model.h"

namespace ew {

// How a tensor lies on disk relative to our parameter.
enum class Layout {
  Vector,  // 1-D, as is (biases, LayerNorm γ and β)
  Table,   // [rows, d], as is (embedding tables)
  Linear,  // nn.Linear's [out, in]: transposed into in×out
  Conv1D,  // GPT-2's Conv1D [in, out]: as is
};

// One parameter of ours and where it comes from.
struct Binding {
  std::string param;                  // our id: "layer0.W_q"
  std::string key;                    // the tensor's name without the model's prefix: "h.0.attn.c_attn.weight"
  bool base = true;                   // a key of the base model (may carry "bert." etc.); false: a head's key
  Layout layout = Layout::Vector;
  std::vector<std::size_t> shape;     // the tensor's shape on disk
  int part = 0, parts = 1;            // columns part·n … (part+1)·n−1 of `parts` equal parts (c_attn)
};

// What config.json describes.
struct CheckpointConfig {
  Config config;
  Arch arch;
  int vocab_size = 0;
  int positions = 0;                  // rows of the position table
  std::vector<std::string> labels;    // id2label, in id order (classifiers)
  std::string prefix;                 // the base model's key prefix: "bert.", "distilbert.", "transformer."
  std::vector<std::string> notes;     // what was read differently from the file, for the report
};

// Reads config.json (parsed). `keys`: the tensor names of model.safetensors, used only when
// config.json has no "architectures" (the head is then the one the keys hold). Throws ew::Error
// naming "config.json" and the field: an unknown model_type, an unsupported activation or
// option, a field of the wrong type.
CheckpointConfig read_checkpoint_config(const nlohmann::json& config, const std::vector<std::string>& keys);

// Every parameter the configuration needs and the tensor each comes from.
std::vector<Binding> checkpoint_bindings(const CheckpointConfig& c);

// Tensor names a checkpoint may hold that the walkthrough does not use, and why (empty: not one
// of them): buffers (position_ids, GPT-2's attn.bias / attn.masked_bias) and heads it does not show
// (BERT's next-sentence head cls.seq_relationship, a base model's pooler).
std::string ignored_reason(const std::string& key, const CheckpointConfig& c);

// The tied output weights a file may hold as a copy of the token table (the decoder of
// BERT's masked-LM head, GPT-2's lm_head, DistilBERT's vocab_projector): checked equal to it.
std::vector<std::string> tied_copies(const CheckpointConfig& c);

}  // namespace ew
