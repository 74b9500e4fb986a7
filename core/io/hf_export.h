// hf_export.h — one of our own models written as a Hugging Face checkpoint (config.json,
// model.safetensors, tokenizer.json) of the nearest architecture that computes the same
// numbers: BERT (BertModel). Loading the directory back (io/checkpoint.h, the CLI's
// --checkpoint) runs the same steps on the same values, plus BERT's token-type lookup of a
// single all-zero row (adds exactly 0).
//
// What fits BERT exactly: an encoder only, post-norm, learned positions (ours then normalise
// the summed embeddings as BERT's embeddings.LayerNorm does), scaled bidirectional attention,
// ReLU / GELU / tanh-GELU, no head, the whitespace tokenizer (tokenizer.json: WhitespaceSplit +
// WordPiece over whole words, nothing added). Everything else is refused with the reasons
// (hf_export_misfits): BERT has no form without the embedding LayerNorm, with pre-norm layers,
// with a masked-LM head lacking its dense + LayerNorm transform, or with a classifier lacking
// its pooler, and the checkpoint loader reads no encoder–decoder. Loosening one of these would
// need a config field real checkpoints do not have.
//
// The mapping of parameters to tensor names is the loader's own (io/hf_keys.h), run backwards.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "model/model.h"

namespace ew {

// A checkpoint's files as their contents.
struct HfExport {
  std::string config_json, tokenizer_json;
  std::vector<std::uint8_t> safetensors;
  std::vector<std::string> notes;  // what the export fixed or added (vocabulary, <unk>, position rows)
};

// Why `m` (a model file or preset, not yet run) cannot be written as BERT; empty when it can.
std::vector<std::string> hf_export_misfits(const Model& m);

// `m` (not yet run) as BERT's files. A seeded model is run once on its text to fix its
// vocabulary and weights: the checkpoint's vocabulary is then that text's tokens (plus <unk>).
// Throws ew::Error listing every misfit.
HfExport export_hf(Model m);

// The files into directory `dir` (created if missing). ew::Error naming the path on failure.
void write_hf_dir(const HfExport& e, const std::string& dir);

}  // namespace ew
