// fuzz_safetensors.cpp — libFuzzer target: any bytes as a safetensors file (safetensors.h).
// Reading may refuse them, only ever with ew::Error; a file it accepts must describe a model
// or be refused with ew::Error, and must write back to bytes that read back to the same
// tensors.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "io/safetensors.h"
#include "model/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
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
  try {
    ew::model_from_safetensors(st);
  } catch (const ew::Error&) {
  }
  return 0;
}
