// fuzz_safetensors.cpp — libFuzzer target: any bytes as a safetensors file (safetensors.h).
// Reading may refuse them, only ever with ew::Error; a file it accepts must describe a model
// or be refused with ew::Error, and must write back to bytes that read back to the same
// tensors (F32), or to F16/BF16 bytes that read back or are refused with ew::Error (values
// past their range). The same bytes as a checkpoint's model.safetensors (io/checkpoint.h, a
// small BERT's config.json) load or are refused with ew::Error.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "io/checkpoint.h"
#include "io/safetensors.h"
#include "model/error.h"

namespace {

void as_checkpoint(const std::uint8_t* data, std::size_t size) {
  ew::CheckpointFiles f;
  f.config_json = R"({"model_type": "bert", "hidden_size": 4, "num_attention_heads": 2, "num_hidden_layers": 1,
                      "intermediate_size": 8, "max_position_embeddings": 4, "vocab_size": 3, "type_vocab_size": 2})";
  f.safetensors = ew::HeapBytes(size);
  if (size) std::memcpy(f.safetensors.data(), data, size);
  try {
    ew::load_checkpoint(std::move(f));
  } catch (const ew::Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  as_checkpoint(data, size);
  ew::SafeTensors st;
  try {
    st = ew::read_safetensors(data, size);
  } catch (const ew::Error&) {
    return 0;
  }
  const auto bytes = ew::write_safetensors(st);
  const ew::SafeTensors back = ew::read_safetensors(bytes.data(), bytes.size());  // must not throw
  if (back.tensors.size() != st.tensors.size()) std::abort();
  for (std::size_t i = 0; i < st.tensors.size(); ++i)
    if (back.tensors[i].data != st.tensors[i].data || back.tensors[i].shape != st.tensors[i].shape) std::abort();
  for (ew::DiskType narrow : {ew::DiskType::F16, ew::DiskType::BF16}) {
    const auto small = ew::write_safetensors(st, narrow);
    try {
      const ew::SafeTensors again = ew::read_safetensors(small.data(), small.size());
      if (again.tensors.size() != st.tensors.size()) std::abort();
    } catch (const ew::Error&) {  // a value past the narrow type's range became inf
    }
  }
  try {
    ew::model_from_safetensors(st);
  } catch (const ew::Error&) {
  }
  return 0;
}
