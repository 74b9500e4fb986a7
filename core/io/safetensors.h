// safetensors.h — Hugging Face's safetensors format, read and written strictly: an 8-byte
// little-endian header length N, N bytes of JSON ({"name": {"dtype", "shape",
// "data_offsets": [begin, end]}, …, "__metadata__": {string: string}}, padded with spaces),
// then the raw little-endian tensor bytes, offsets counted from the end of the header. A file
// a user drops on the page is hostile until proven otherwise: every number in the header is
// checked before use (header length, dtype, shape × element size = byte length, offsets inside
// the data, no overlaps, no holes, no duplicate names, finite values), and each failure is an
// ew::Error naming the tensor.
//
// Tensors are float32 in memory; on disk F32 or F16 (round-to-nearest-even, exact back).
// The trained models use the parameter ids of docs/trace.md as tensor names and keep their
// config, vocabulary and labels (JSON) in __metadata__.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/model.h"

namespace ew {

struct NamedTensor {
  std::string name;
  std::vector<std::size_t> shape;
  std::vector<float> data;
};

struct SafeTensors {
  std::vector<NamedTensor> tensors;  // in data order
  std::map<std::string, std::string> metadata;
};

enum class DiskType { F32, F16 };

SafeTensors read_safetensors(const std::uint8_t* bytes, std::size_t size);
std::vector<std::uint8_t> write_safetensors(const SafeTensors& st, DiskType type = DiskType::F32);

// IEEE half precision: float → half rounds to nearest even (overflow → ±inf); half → float
// is exact.
std::uint16_t float_to_half(float f);
float half_to_float(std::uint16_t h);

// A model's parameters (after ew::run) with "config", "vocab" and "labels" in the metadata.
SafeTensors model_to_safetensors(const Model& m);
// The model those describe: config, vocabulary, labels and every given parameter (checked
// by ensure_params when it runs). The text comes from elsewhere (a model file, --text).
Model model_from_safetensors(const SafeTensors& st);

}  // namespace ew
