// tokenizer_dir.h — a checkpoint directory's tokenizer files read from disk into the in-memory
// form the tokenizer takes (text/hf_tokenizer.h): tokenizer.json, vocab.txt,
// tokenizer_config.json, vocab.json, merges.txt, each if present. The page hands the same
// files over as bytes and calls HfTokenizer::from_files directly.
#pragma once
#include <string>

#include "text/hf_tokenizer.h"

namespace ew {

// The files of `dir` under their standard names; a missing file stays "". A file that exists
// but cannot be read, or is empty, throws ew::Error naming its path.
TokenizerFiles read_tokenizer_dir(const std::string& dir);

// read_tokenizer_dir + HfTokenizer::from_files. model_type: config.json's, or "" (see there).
HfTokenizer load_tokenizer_dir(const std::string& dir, const std::string& model_type = "");

}  // namespace ew
