// checkpoint_tokenizer.h — a checkpoint's own tokenizer behind the one small interface the
// loader needs: its vocabulary (id → spelling), whether it can encode text, and text (with an
// optional second sentence) → ids, pieces and token types. It reads the tokenizer files by their
// standard names (tokenizer.json, else vocab.txt (+ tokenizer_config.json), else vocab.json +
// merges.txt).
//
// The tokenizing itself is text/hf_tokenizer.h's (WordPiece, byte-level BPE, ▁ BPE); without any
// tokenizer files the vocabulary is empty and text needs token ids instead (the CLI's --ids).
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ew {

// Text as the checkpoint's tokenizer encodes it (io/checkpoint.h turns it into GivenTokens).
struct TokenizedText {
  std::vector<int> ids, type_ids;
  std::vector<std::string> pieces;  // the vocabulary's spelling: "Ġthe", "▁the", "<0xE2>"
  // [begin, end) code points of the text (text2's counted after text's) each piece covers;
  // (0, 0) for one the template adds. Pieces that are bytes of one character ("€" as <0xE2>
  // <0x82> <0xAC>) share its offsets: the page groups consecutive equal offsets into it.
  std::vector<std::pair<int, int>> offsets;
};

// The tokenizer files' contents ("" = absent), by their standard names.
struct TokenizerFileSet {
  std::string tokenizer_json, vocab_txt, tokenizer_config_json, vocab_json, merges_txt;
  bool any() const {
    return !tokenizer_json.empty() || !vocab_txt.empty() || !vocab_json.empty();
  }
};

class CheckpointTokenizer {
 public:
  // From the files' contents; model_type is config.json's. Throws ew::Error naming the file.
  static CheckpointTokenizer from_files(const TokenizerFileSet& files, const std::string& model_type);
  // The tokenizer files of directory `dir` (absent files are "").
  static TokenizerFileSet read_dir(const std::string& dir);

  bool can_encode() const;
  // Text (and text2: BERT's segment B) → ids, pieces and token types. ew::Error if it cannot.
  TokenizedText encode(const std::string& text, const std::string& text2) const;
  const std::vector<std::string>& vocab() const { return vocab_; }
  int id(const std::string& token) const;  // -1: not in the vocabulary
  // Ids → text as the tokenizer's decoder writes it (GPT-2's bytes, SentencePiece's ▁ and byte
  // fallback undone; special tokens kept; an id past its vocabulary as "[id N]"); "" without
  // tokenizer files.
  std::string decode(const std::vector<int>& ids) const;
  const std::string& source() const { return source_; }  // "vocab.txt", ... ("" without files)

  CheckpointTokenizer();
  CheckpointTokenizer(CheckpointTokenizer&&) noexcept;
  CheckpointTokenizer& operator=(CheckpointTokenizer&&) noexcept;
  ~CheckpointTokenizer();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::vector<std::string> vocab_;
  std::string source_;
};

}  // namespace ew
