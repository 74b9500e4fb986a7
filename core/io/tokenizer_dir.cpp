// tokenizer_dir.cpp — reads a checkpoint directory's tokenizer files (tokenizer_dir.h).
#include "io/tokenizer_dir.h"

#include <fstream>
#include <sstream>
#include <sys/stat.h>

#include "model/error.h"

namespace ew {

namespace {

// The file's bytes, or "" when there is no such file.
std::string read_if_present(const std::string& dir, const char* name) {
  const std::string path = dir.empty() || dir.back() == '/' ? dir + name : dir + "/" + name;
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return "";
  if (!S_ISREG(st.st_mode)) throw Error(path + ": is not a regular file", "tokenizer_file_invalid", {{"file", path}, {"what", "not a file"}});
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot be opened", "tokenizer_file_invalid", {{"file", path}, {"what", "cannot be opened"}});
  std::ostringstream s;
  s << in.rdbuf();
  std::string bytes = s.str();
  if (bytes.empty()) throw Error(path + ": is empty", "tokenizer_file_invalid", {{"file", path}, {"what", "is empty"}});
  return bytes;
}

}  // namespace

TokenizerFiles read_tokenizer_dir(const std::string& dir) {
  TokenizerFiles f;
  f.tokenizer_json = read_if_present(dir, "tokenizer.json");
  f.vocab_txt = read_if_present(dir, "vocab.txt");
  f.tokenizer_config_json = read_if_present(dir, "tokenizer_config.json");
  f.vocab_json = read_if_present(dir, "vocab.json");
  f.merges_txt = read_if_present(dir, "merges.txt");
  return f;
}

HfTokenizer load_tokenizer_dir(const std::string& dir, const std::string& model_type) {
  return HfTokenizer::from_files(read_tokenizer_dir(dir), model_type);
}

}  // namespace ew
