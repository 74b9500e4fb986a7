// builtin_models.h — the trained models the project ships (models/*.safetensors, written by
// scripts/train-models.sh), which a model file or preset uses as "weights": "builtin:<name>".
// The bytes are read by safetensors.h like any dropped file. Two tables, generated at build
// time by cmake/embed_models.cmake:
//   embedded  every model's bytes compiled in (the CLI, the tests, the Node module, benchmarks)
//   on demand names and training commands only (the page's wasm builds: the page fetches
//             models/<name>.safetensors when a preset uses one and hands the bytes over with
//             load_builtin_model — issue 29: a first visit no longer downloads every model)
// The core reads the same bytes either way.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace ew {

struct BuiltinModel {
  const char* name;  // the file name without .safetensors: "number-words"
  const unsigned char* data;  // nullptr until load_builtin_model (the on-demand table)
  std::size_t size;
  const char* training;  // its __metadata__ "training" (the command that trained it), "" if none
};

const std::vector<BuiltinModel>& builtin_models();  // generated at build time

// Gives the on-demand table a model's file bytes (copied; kept for the program's life). The
// embedded table already has them: the call only checks the name. Error for an unknown name.
void load_builtin_model(const std::string& name, const std::string& bytes);

}  // namespace ew
