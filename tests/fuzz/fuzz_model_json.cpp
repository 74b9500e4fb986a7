// fuzz_model_json.cpp — libFuzzer target: any bytes as a model file (model_file.h). Parsing
// may refuse them, only ever with ew::Error; a model it accepts that is small enough to run
// quickly must run forward (and backward, when it has something to predict) without
// crashing, or refuse with ew::Error. ASan and UBSan watch every byte of it.
#include <cstddef>
#include <cstdint>
#include <string>

#include "io/model_file.h"
#include "model/error.h"
#include "trace/backward.h"
#include "trace/forward.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    ew::Model m = ew::model_from_string(std::string(reinterpret_cast<const char*>(data), size));
    const ew::Config& c = m.config;
    if (c.d_model > 64 || c.d_ff > 256 || c.num_layers + c.decoder_layers > 4 || m.text.size() > 400 ||
        m.text2.size() > 400 || m.target.size() > 400 || c.bpe_merges > 200)
      return 0;
    ew::Trace t;
    ew::run(m, t);
    if (m.label >= 0 || c.decoder_layers > 0) ew::run_backward(m, t);
  } catch (const ew::Error&) {
  }
  return 0;
}
