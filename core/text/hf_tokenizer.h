// hf_tokenizer.h — the tokenizer of a real checkpoint (BERT, DistilBERT, GPT-2, and the modern
// decoders: Qwen2.5/3, Llama 3, SmolLM2, Llama 2/TinyLlama, Gemma 3), built from the contents of
// its files, encoding exactly as the checkpoint's own tokenizer does:
//   tokenizer.json                 — as the tokenizers library (Rust) reads it: normalizer
//                                    BertNormalizer / NFC / NFD / Lowercase / StripAccents /
//                                    Prepend / Replace / Sequence; pre_tokenizer BertPreTokenizer /
//                                    ByteLevel / WhitespaceSplit / Split (a String or a regex of
//                                    split_regex.h's subset, every behaviour, invert) / Sequence;
//                                    model WordPiece or BPE (byte-level with ByteLevel; else over
//                                    code points with byte_fallback "<0x..>", unk_token, fuse_unk;
//                                    ignore_merges); post_processor TemplateProcessing /
//                                    BertProcessing / ByteLevel / Sequence; decoder WordPiece /
//                                    ByteLevel / Replace / ByteFallback / Fuse / Strip / Sequence;
//                                    added_tokens (lstrip, rstrip, single_word, normalized)
//   vocab.txt (+ tokenizer_config.json) — as transformers' BertTokenizer: do_lower_case
//                                    (default true: a vocab.txt alone is uncased),
//                                    strip_accents, tokenize_chinese_chars, never_split,
//                                    do_basic_tokenize, the special tokens' names
//   vocab.json + merges.txt        — as transformers' GPT2Tokenizer (GPT-2's encoder.py)
// Special tokens written in the text ("[MASK]", "<|im_start|>", "<bos>", added tokens) are those
// tokens, matched before normalisation (leftmost, longest), as the checkpoints' own do; the
// text between them is normalised piece by piece (Llama 2's Prepend ▁ starts each piece).
// BERT adds [CLS] A [SEP] (B [SEP]) with token types 0…0 1…1; Llama 2 and Gemma add their BOS by
// the template; GPT-2, Qwen and this Llama 3 file (a ByteLevel post-processor) add nothing.
//
// Not here: reading files (the caller passes their contents); truncation and padding (the
// files' "truncation"/"padding" settings are ignored); offsets trimmed of spaces (ByteLevel's
// trim_offsets: a "Ġthe" covers its space); transformers' Python-side extras (LlamaTokenizer's
// legacy=false rewrite, clean_up_tokenization_spaces); Unigram and WordLevel models, Metaspace,
// Precompiled and other components (an error names the key and what the file asks for).
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ew {

// The files, as their contents ("" = not given). Which are used: tokenizer.json if given,
// else vocab.txt (+ tokenizer_config.json) for BERT-like models, else vocab.json + merges.txt.
struct TokenizerFiles {
  std::string tokenizer_json;
  std::string vocab_txt;
  std::string tokenizer_config_json;
  std::string vocab_json;
  std::string merges_txt;
};

// byte_bpe: BPE over bytes (GPT-2, Qwen, Llama 3, SmolLM2: "Ġthe"); bpe: BPE over code points
// with "▁" for a space and byte fallback (SentencePiece-style: Llama 2, Gemma: "▁the", "<0xE2>").
enum class HfTokenizerKind { wordpiece, byte_bpe, bpe };

struct HfEncoding {
  std::vector<int> ids;
  std::vector<std::string> pieces;     // as the vocabulary spells them: "[CLS]", "##ing", "Ġthe"
  std::vector<int> type_ids;           // token types (segments): 0 for A, 1 for B (BERT)
  std::vector<unsigned char> special;  // 1: a special token ([CLS], [SEP], [MASK], <|endoftext|>)
  std::vector<int> sequence;           // which text it came from: 0, 1; -1 for one the template adds
  // [begin, end) in code points of its own text (Python's str indices); (0, 0) when added.
  // A piece that is part of a character covers the whole character: the byte-fallback pieces
  // of "€" (<0xE2> <0x82> <0xAC>) or the byte-level pieces of an emoji all have its offsets, so
  // consecutive pieces with equal offsets are one character, and the page groups them into it
  // (the pieces keep the vocabulary's spelling: "Ġthe", "▁the", "<0xE2>"). A "▁" that Prepend
  // or Replace wrote covers the character it stands before / for.
  std::vector<std::pair<int, int>> offsets;
  std::size_t size() const { return ids.size(); }
};

// The special tokens' ids, -1 where the tokenizer has none.
struct SpecialTokenIds {
  int cls = -1, sep = -1, mask = -1, pad = -1, unk = -1, eos = -1;  // eos: <|endoftext|>
};

struct TokenizerSpec;  // hf_tokenizer_spec.h

class HfTokenizer {
 public:
  // model_type: config.json's ("bert", "distilbert", "gpt2", or "" to go by the files alone).
  // Throws ew::Error naming the file and what is wrong (codes tokenizer_files_none,
  // tokenizer_file_missing, tokenizer_file_invalid, tokenizer_unsupported; params in
  // web/js/lib/i18n/en/errors.js).
  static HfTokenizer from_files(const TokenizerFiles& files, const std::string& model_type = "");

  // Invalid UTF-8 → ew::Error (invalid_utf8) as validate_utf8.
  HfEncoding encode(std::string_view text) const;
  HfEncoding encode(std::string_view text, std::string_view text2) const;
  // The text of generated ids (unknown id → ew::Error token_id_out_of_range).
  std::string decode(const std::vector<int>& ids, bool skip_special_tokens = false) const;

  HfTokenizerKind kind() const;
  const char* source() const;  // "tokenizer.json", "vocab.txt" or "vocab.json + merges.txt"
  int vocab_size() const;      // ids are 0 … vocab_size() − 1
  const std::string& token(int id) const;  // its spelling; throws if id is out of range
  int id(const std::string& token) const;  // -1 if the vocabulary has no such token
  bool is_special(int id) const;
  SpecialTokenIds special_ids() const;

  HfTokenizer(HfTokenizer&&) noexcept;
  HfTokenizer& operator=(HfTokenizer&&) noexcept;
  ~HfTokenizer();

 private:
  explicit HfTokenizer(std::unique_ptr<TokenizerSpec> spec);
  std::unique_ptr<TokenizerSpec> spec_;
};

// How the page shows a piece: `text` readable (a byte-level piece decoded — its leading space
// shown as "·", a newline as "↵", a tab as "→", bytes that are part of a character as <F0 9F>;
// a "▁" as "·", a byte-fallback "<0xE2>" as <E2>; a WordPiece continuation without its "##"),
// and what the piece's mark means, as a code for the page's message catalog and in English:
//   "continues"   ##ing — continues the word before it, no space between
//   "word_start"  a WordPiece piece that starts a word
//   "space_before" Ġthe, ▁the — Ġ or ▁ stands for a space before the piece
//   "no_space"    a byte-level piece that joins the one before it without a space
//   "bytes"       some bytes of a character the vocabulary splits (an emoji's)
//   "special"     a special token ([CLS], [SEP], <|endoftext|>)
struct PieceNote {
  std::string text;
  const char* code;
  const char* english;
};
PieceNote piece_note(std::string_view piece, HfTokenizerKind kind, bool special);

}  // namespace ew
