// fuzz_tokenizer.cpp — libFuzzer target: any bytes as a checkpoint's tokenizer files
// (text/hf_tokenizer.h). The first byte says which files the rest is: 't' tokenizer.json,
// 'v' vocab.txt, 'c' vocab.txt then tokenizer_config.json, 'g' vocab.json then merges.txt (two
// files are split at the first NUL). Loading may refuse them, only ever with ew::Error; a
// tokenizer it accepts must encode a fixed sentence and the input's own tail (single and as a
// pair), and decode what it encoded, or refuse with ew::Error. ASan and UBSan watch it all.
// The seeds in corpus/tokenizer/ cover the modern decoders' paths too: a Split regex (Qwen's),
// NFC, ByteLevel without its regex, ignore_merges; Prepend/Replace ▁, byte fallback, fuse_unk,
// the <s> template and the ▁ decoders (Llama 2); Split on a String MergedWithPrevious (Gemma).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "model/error.h"
#include "text/hf_tokenizer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const char kind = static_cast<char>(data[0]);
  const std::string rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::size_t nul = rest.find('\0');
  const std::string first = rest.substr(0, nul), second = nul == std::string::npos ? "" : rest.substr(nul + 1);
  ew::TokenizerFiles f;
  switch (kind) {
    case 't': f.tokenizer_json = rest; break;
    case 'v': f.vocab_txt = rest; break;
    case 'c': f.vocab_txt = first, f.tokenizer_config_json = second; break;
    case 'g': f.vocab_json = first, f.merges_txt = second; break;
    default: return 0;
  }
  try {
    const ew::HfTokenizer tok = ew::HfTokenizer::from_files(f);
    const std::string sample =
        "Hello, W\xC3\xB6rld! [MASK] <|endoftext|> \xE6\x9D\xB1 \xF0\x9F\x98\x80 don't  42 <s>ab\n\n  <|im_start|>\xE2\x96\x81 \xC3\xA9";
    const std::string tail = rest.substr(rest.size() > 64 ? rest.size() - 64 : 0);
    for (const ew::HfEncoding& e : {tok.encode(sample), tok.encode(sample, sample)}) {
      if (e.pieces.size() != e.ids.size() || e.type_ids.size() != e.ids.size() || e.offsets.size() != e.ids.size())
        std::abort();
      for (int id : e.ids)
        if (id < 0 || id >= tok.vocab_size()) std::abort();
      tok.decode(e.ids);
    }
    try {
      tok.encode(tail, sample);
    } catch (const ew::Error&) {  // the tail may well be invalid UTF-8
    }
  } catch (const ew::Error&) {
  }
  return 0;
}
