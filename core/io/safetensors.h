// safetensors.h — Hugging Face's safetensors format, read and written strictly: an 8-byte
// little-endian header length N, N bytes of JSON ({"name": {"dtype", "shape",
// "data_offsets": [begin, end]}, …, "__metadata__": {string: string}}, padded with spaces),
// then the raw little-endian tensor bytes, offsets counted from the end of the header. A file
// a user drops on the page is hostile until proven otherwise: every number in the header is
// checked before use (header length, dtype, shape × element size = byte length, offsets inside
// the data, no overlaps, no holes, no duplicate names, finite values), and each failure is an
// ew::Error naming the tensor.
//
// Tensors are float32 in memory; on disk F32, F16 or BF16 (written round-to-nearest-even,
// widened exactly when read). Each tensor's offset is a multiple of its element size (as the
// safetensors library writes them).
//
// Two ways to read: read_safetensors decodes every tensor into NamedTensors (small files: the
// trained models); index_safetensors only checks the header, and the caller widens each
// tensor straight into its own buffer with tensor_value (a checkpoint's 440 MB: no second copy).
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

enum class DiskType { F32, F16, BF16, Other };  // Other: an integer or float64 buffer, never a weight

// One tensor of a header, checked: its dtype, element size and count, shape, and its bytes
// [begin, end) counted from the start of the data.
struct TensorEntry {
  std::string name;
  DiskType dtype;
  std::string dtype_name;  // as the header spells it: "F32", "I64", ...
  std::size_t elem, count, begin, end;
  std::vector<std::size_t> shape;
};

// A file's header, every entry checked as read_safetensors checks it; entries in data order.
// `data` points into the caller's bytes, which must outlive the index.
struct SafeTensorsIndex {
  std::vector<TensorEntry> entries;
  std::map<std::string, std::string> metadata;
  const std::uint8_t* data = nullptr;
  const TensorEntry* find(const std::string& name) const;  // nullptr when absent
};
SafeTensorsIndex index_safetensors(const std::uint8_t* bytes, std::size_t size);
// Element i of tensor e, widened to float32; ew::Error naming the tensor if it is not finite or
// not of a float dtype (F32, F16, BF16). Other dtypes (I64 position_ids, …) are indexed only.
float tensor_value(const SafeTensorsIndex& index, const TensorEntry& e, std::size_t i);
// Elements first … first+n-1 of e into out (the same checks and values as tensor_value).
void tensor_values(const SafeTensorsIndex& index, const TensorEntry& e, std::size_t first, std::size_t n,
                   float* out);

SafeTensors read_safetensors(const std::uint8_t* bytes, std::size_t size);
std::vector<std::uint8_t> write_safetensors(const SafeTensors& st, DiskType type = DiskType::F32);

// IEEE half precision: float → half rounds to nearest even (overflow → ±inf); half → float
// is exact.
std::uint16_t float_to_half(float f);
float half_to_float(std::uint16_t h);
// bfloat16: the top 16 bits of a float32 (rounded to nearest even; exact back).
std::uint16_t float_to_bf16(float f);
float bf16_to_float(std::uint16_t h);

// A model's parameters (after ew::run) with "config", "vocab" and "labels" in the metadata.
SafeTensors model_to_safetensors(const Model& m);
// The model those describe: config, vocabulary, labels and every given parameter (checked
// by ensure_params when it runs). The text comes from elsewhere (a model file, --text).
Model model_from_safetensors(const SafeTensors& st);

}  // namespace ew
