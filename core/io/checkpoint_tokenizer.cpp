// checkpoint_tokenizer.cpp — a checkpoint's vocabulary from its tokenizer files; encoding text
// waits for the checkpoint tokenizers (checkpoint_tokenizer.h).
#include "io/checkpoint_tokenizer.h"

#include <fstream>
#include <sstream>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "model/error.h"

namespace ew {

using nlohmann::json;

struct CheckpointTokenizer::Impl {
  std::unordered_map<std::string, int> ids;
};

namespace {

std::string read_if_present(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return "";
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

json parse(const std::string& text, const char* file) {
  try {
    return json::parse(text);
  } catch (const json::exception& e) {
    throw Error(std::string(file) + ": not valid JSON (" + e.what() + ")");
  }
}

// id → token from a {token: id} object, every id 0 … n−1 exactly once.
std::vector<std::string> from_object(const json& m, const char* file) {
  if (!m.is_object()) throw Error(std::string(file) + ": the vocabulary is not an object of token → id");
  std::vector<std::string> out(m.size());
  std::vector<bool> seen(m.size(), false);
  for (auto it = m.begin(); it != m.end(); ++it) {
    const json& v = it.value();
    if (!v.is_number_integer() || v.get<long long>() < 0 || v.get<long long>() >= static_cast<long long>(m.size()) ||
        seen[v.get<std::size_t>()])
      throw Error(std::string(file) + ": token \"" + it.key().substr(0, 40) + "\" has id " + v.dump().substr(0, 20) +
                  ", not one of 0 … " + std::to_string(m.size() - 1) + " used once");
    seen[v.get<std::size_t>()] = true;
    out[v.get<std::size_t>()] = it.key();
  }
  return out;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t from = 0;
  while (from < text.size()) {
    std::size_t at = text.find('\n', from);
    if (at == std::string::npos) at = text.size();
    std::string line = text.substr(from, at - from);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(std::move(line));
    from = at + 1;
  }
  return out;
}

}  // namespace

CheckpointTokenizer::CheckpointTokenizer() : impl_(std::make_unique<Impl>()) {}
CheckpointTokenizer::CheckpointTokenizer(CheckpointTokenizer&&) noexcept = default;
CheckpointTokenizer& CheckpointTokenizer::operator=(CheckpointTokenizer&&) noexcept = default;
CheckpointTokenizer::~CheckpointTokenizer() = default;

TokenizerFileSet CheckpointTokenizer::read_dir(const std::string& dir) {
  const std::string d = dir.empty() || dir.back() == '/' ? dir : dir + "/";
  return {read_if_present(d + "tokenizer.json"), read_if_present(d + "vocab.txt"),
          read_if_present(d + "tokenizer_config.json"), read_if_present(d + "vocab.json"), read_if_present(d + "merges.txt")};
}

CheckpointTokenizer CheckpointTokenizer::from_files(const TokenizerFileSet& f, const std::string& model_type) {
  (void)model_type;
  CheckpointTokenizer t;
  if (!f.tokenizer_json.empty()) {
    const json j = parse(f.tokenizer_json, "tokenizer.json");
    if (!j.is_object() || !j.contains("model") || !j["model"].contains("vocab"))
      throw Error("tokenizer.json: has no \"model\".\"vocab\"");
    t.vocab_ = from_object(j["model"]["vocab"], "tokenizer.json");
    t.source_ = "tokenizer.json";
  } else if (!f.vocab_txt.empty()) {
    t.vocab_ = lines(f.vocab_txt);
    t.source_ = "vocab.txt";
  } else if (!f.vocab_json.empty()) {
    t.vocab_ = from_object(parse(f.vocab_json, "vocab.json"), "vocab.json");
    t.source_ = "vocab.json + merges.txt";
  }
  for (std::size_t i = 0; i < t.vocab_.size(); ++i) t.impl_->ids.emplace(t.vocab_[i], static_cast<int>(i));
  return t;
}

bool CheckpointTokenizer::can_encode() const { return false; }

TokenizedText CheckpointTokenizer::encode(const std::string&, const std::string&) const {
  throw Error("this build reads the checkpoint's vocabulary (" + (source_.empty() ? std::string("none found") : source_) +
              ") but cannot tokenize text yet: give the token ids instead (--ids 101,7592,102)");
}

int CheckpointTokenizer::id(const std::string& token) const {
  auto it = impl_->ids.find(token);
  return it == impl_->ids.end() ? -1 : it->second;
}

}  // namespace ew
