// builtin_models.h — the trained models the project ships (models/*.safetensors, written by
// scripts/train-models.sh), compiled into the library so that a model file or preset can use
// them as "weights": "builtin:<name>" — natively, in wasm and on the page, with no file to
// fetch. The bytes are read by safetensors.h like any dropped file.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace ew {

struct BuiltinModel {
  const char* name;  // the file name without .safetensors: "number-words"
  const unsigned char* data;
  std::size_t size;
};

const std::vector<BuiltinModel>& builtin_models();  // generated at build time

}  // namespace ew
