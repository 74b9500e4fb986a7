// hf_tokenizer_spec.h — what a checkpoint's tokenizer files say, parsed: the one structure the
// loader (hf_tokenizer_load.cpp) fills and the encoder (hf_tokenizer.cpp) follows. Internal to
// those two; callers use hf_tokenizer.h.
#pragma once
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "text/byte_bpe.h"
#include "text/hf_tokenizer.h"
#include "text/split_regex.h"
#include "text/token_vocab.h"
#include "text/wordpiece.h"

namespace ew {

// A token matched in the text before the model sees it ([MASK], <|endoftext|>, added words).
struct AddedToken {
  std::string content;
  std::u32string pattern;  // what is matched: the content, or its normalised form if normalized
  int id = -1;
  bool special = false, normalized = false, lstrip = false, rstrip = false, single_word = false;
};

enum class NormalizerKind { bert, nfc, nfd, lowercase, strip_accents, prepend, replace };
struct NormalizerStep {
  NormalizerKind kind = NormalizerKind::bert;
  BertNormalizerOptions bert;        // for bert
  std::u32string text;               // prepend: what goes before a non-empty text; replace: the content
  std::optional<SplitRegex> pattern;  // replace: what is replaced
};

// The Split pre-tokenizer's behaviours (what becomes of a match), as the library names them.
enum class SplitBehavior { removed, isolated, merged_with_previous, merged_with_next, contiguous };

enum class PreTokenizerKind { bert, byte_level, whitespace_split, split };
struct PreTokenizerStep {
  PreTokenizerKind kind = PreTokenizerKind::bert;
  bool add_prefix_space = false, use_regex = true;  // byte_level
  std::optional<SplitRegex> pattern;                // split
  SplitBehavior behavior = SplitBehavior::isolated;
  bool invert = false;
};

// One item of a post-processing template: a text (0: A, 1: B) or special tokens.
struct TemplateItem {
  int sequence = -1;  // 0, 1, or -1 for special tokens
  std::vector<int> ids;
  std::vector<std::string> tokens;
  int type_id = 0;
};

enum class DecoderKind { none, wordpiece, byte_level, steps };

// One decoder of a Sequence (Llama 2, Gemma: Replace ▁ → " ", ByteFallback, Fuse, Strip).
enum class DecodeStepKind { replace, byte_fallback, fuse, strip, byte_level };
struct DecodeStep {
  DecodeStepKind kind;
  std::string from, to;     // replace: a literal string
  int strip_start = 0, strip_stop = 0;  // strip: how many `from` characters at each end
};

struct TokenizerSpec {
  HfTokenizerKind kind = HfTokenizerKind::wordpiece;
  std::string source;   // "tokenizer.json", "vocab.txt", "vocab.json + merges.txt"
  bool python = false;  // vocab.txt / vocab.json + merges.txt: transformers' Python tokenizers
  TokenVocab vocab;
  WordPiece wordpiece;
  ByteBpe bpe;

  // The Python flavour (BertTokenizer): the basic tokenizer's settings.
  BertNormalizerOptions bert;
  bool do_basic_tokenize = true;
  std::set<std::string> never_split;            // tokenizer_config.json's never_split
  std::set<std::string> basic_never_split;      // …and the special tokens: the basic tokenizer keeps them whole
  std::vector<std::u32string> lowercase_keeps;  // not lower-cased in the text (special tokens)

  // The library flavour (tokenizer.json).
  std::vector<NormalizerStep> normalizers;
  std::vector<PreTokenizerStep> pre_tokenizers;

  std::vector<AddedToken> added;  // both flavours
  std::vector<TemplateItem> single, pair;
  DecoderKind decoder = DecoderKind::none;
  std::vector<DecodeStep> decode_steps;  // DecoderKind::steps
  std::string decoder_prefix = "##";
  bool decoder_cleanup = true;

  SpecialTokenIds specials;
  std::set<int> special_set;
};

// Fills `s` from the files' contents (hf_tokenizer_load.cpp); throws ew::Error naming the file.
void load_tokenizer_spec(TokenizerSpec& s, const TokenizerFiles& f, const std::string& model_type);

// The library flavour's normalizers (tokenizer.json's "normalizer") over a text (hf_tokenizer.cpp).
SpanText run_normalizers(const TokenizerSpec& s, const SpanText& t);

}  // namespace ew
