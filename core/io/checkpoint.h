// checkpoint.h — a Hugging Face checkpoint (config.json, model.safetensors and the tokenizer
// files) as a Model: bert (BertModel, BertForMaskedLM, BertForPreTraining's masked-LM half,
// BertForSequenceClassification), distilbert (DistilBertModel, …ForMaskedLM,
// …ForSequenceClassification) and gpt2 (GPT2Model, GPT2LMHeadModel), onto the same steps as our
// own models (io/hf_keys.h says which tensor is which parameter).
//
// The weights are decoded and transposed straight from the file's bytes into the parameters,
// last tensor first, the file giving back its tail behind each (heap_bytes.h): the file and the
// weights are never both held whole, and the weights then live once (model.h, Model::pack_weights:
// no second, packed copy). An F32 file's matmul weights are packed into the kernels' panels as
// they are decoded, and live only there (Param::packed_only: a decoded token reads each panel as
// one stream). An F16/BF16 file's matrices and tables stay 16-bit (model.h, Param: 2 bytes a
// weight, widened exactly by whoever reads them); its vectors (norms' γ, biases) and an F32
// file's vectors and tables are float32. The file's first tensor, when it
// needs no transposition (the token table, first in Hugging Face's sorted files), is not copied
// at all: its bytes are moved to the start of the file's buffer, the rest is given back and the
// buffer becomes the parameter. So a BF16 load peaks at about the file's size (a copy of a
// Qwen2.5-0.5B's table would add 27%).
//
// Every error names the file and the key: "config.json: \"model_type\" is …",
// "model.safetensors: tensor \"h.0.attn.c_attn.weight\" is missing (layer0.W_q)".
#pragma once
#include <string>
#include <vector>

#include "io/checkpoint_tokenizer.h"
#include "io/heap_bytes.h"
#include "model/model.h"

namespace ew {

// A checkpoint's files by their standard names, as their contents ("" = absent).
struct CheckpointFiles {
  std::string config_json;
  HeapBytes safetensors;  // given back by load_checkpoint while it decodes the weights
  // A sharded checkpoint instead: model.safetensors.index.json and each shard it names (file name,
  // bytes), each given back in turn. Used when `safetensors` is empty.
  std::string safetensors_index_json;
  std::vector<std::pair<std::string, HeapBytes>> shards;
  TokenizerFileSet tokenizer;
};

// The files of directory `dir`: model.safetensors, or model.safetensors.index.json and the shards
// its weight_map names. A missing config.json or weights file is an ew::Error naming it.
CheckpointFiles read_checkpoint_dir(const std::string& dir);
// The shard files model.safetensors.index.json's weight_map names (sorted, each once); ew::Error
// when it is not such an index or names a file outside the folder.
std::vector<std::string> shard_names(const std::string& index_json);

// A loaded checkpoint: the model (no text yet; model.arch.notes says what was ignored) and its
// tokenizer.
struct Checkpoint {
  Model model;
  CheckpointTokenizer tokenizer;
};
Checkpoint load_checkpoint(CheckpointFiles&& files);

// The tokens of a run: `ids` when given (the CLI's --ids), else the tokenizer's encoding of text
// (and text2, segment B). ew::Error when neither works.
GivenTokens checkpoint_tokens(const Checkpoint& c, const std::string& text, const std::string& text2,
                              const std::vector<int>* ids);

}  // namespace ew
