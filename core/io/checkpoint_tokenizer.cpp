// checkpoint_tokenizer.cpp — a checkpoint's tokenizer: the checkpoint tokenizers
// (text/hf_tokenizer.h: WordPiece, byte-level BPE) behind the loader's small interface.
#include "io/checkpoint_tokenizer.h"

#include <fstream>
#include <sstream>
#include <unordered_map>

#include "model/error.h"
#include "text/hf_tokenizer.h"
#include "text/tokenizer.h"

namespace ew {

struct CheckpointTokenizer::Impl {
  std::unordered_map<std::string, int> ids;
  std::unique_ptr<HfTokenizer> tokenizer;  // null when the checkpoint has no tokenizer files
};

namespace {

std::string read_if_present(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return "";
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
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
  CheckpointTokenizer t;
  if (f.any()) {
    const TokenizerFiles files{f.tokenizer_json, f.vocab_txt, f.tokenizer_config_json, f.vocab_json, f.merges_txt};
    t.impl_->tokenizer = std::make_unique<HfTokenizer>(HfTokenizer::from_files(files, model_type));
    const HfTokenizer& h = *t.impl_->tokenizer;
    t.vocab_.reserve(h.vocab_size());
    for (int i = 0; i < h.vocab_size(); ++i) t.vocab_.push_back(h.token(i));
    t.source_ = h.source();
  }
  for (std::size_t i = 0; i < t.vocab_.size(); ++i) t.impl_->ids.emplace(t.vocab_[i], static_cast<int>(i));
  return t;
}

bool CheckpointTokenizer::can_encode() const { return impl_->tokenizer != nullptr; }

TokenizedText CheckpointTokenizer::encode(const std::string& text, const std::string& text2) const {
  if (!impl_->tokenizer)
    throw Error("the checkpoint has no tokenizer files (tokenizer.json, vocab.txt, or vocab.json + merges.txt): "
                "give the token ids instead (--ids 101,7592,102)");
  const HfEncoding e = text2.empty() ? impl_->tokenizer->encode(text) : impl_->tokenizer->encode(text, text2);
  TokenizedText out{e.ids, e.type_ids, e.pieces, e.offsets};
  const int shift = text2.empty() ? 0 : utf8_length(text);  // text2's offsets after text's
  for (std::size_t k = 0; k < out.offsets.size(); ++k)
    if (e.sequence[k] == 1) out.offsets[k].first += shift, out.offsets[k].second += shift;
  return out;
}

std::string CheckpointTokenizer::decode(const std::vector<int>& ids) const {
  if (!impl_->tokenizer) return {};
  // An id past the tokenizer's vocabulary (a table padded beyond it, as Qwen's 151,936 rows past
  // its 151,665 tokens) is written "[id N]", as the page names its column; the runs between are decoded.
  std::string out;
  std::vector<int> run;
  const auto flush = [&] {
    if (!run.empty()) out += impl_->tokenizer->decode(run), run.clear();
  };
  for (const int id : ids) {
    if (id >= 0 && id < impl_->tokenizer->vocab_size()) {
      run.push_back(id);
      continue;
    }
    flush();
    out += "[id " + std::to_string(id) + "]";
  }
  flush();
  return out;
}

int CheckpointTokenizer::id(const std::string& token) const {
  auto it = impl_->ids.find(token);
  return it == impl_->ids.end() ? -1 : it->second;
}

}  // namespace ew
