// test_hf_tokenizer.cpp — the pieces of the checkpoint tokenizers (text/hf_tokenizer.h):
// Unicode normalisation, BERT's punctuation and CJK classes and basic tokenizer, WordPiece's
// greedy longest match, GPT-2's byte map, pre-tokenizer and merges by rank, special tokens in
// the text, the BERT pair template, decoding, and the loaders' error messages. Expected values
// come from the algorithms' definitions and from /usr/bin/python3 (3.11, Unicode 14.0:
// unicodedata.normalize/category, str.lower, and GPT-2's regex through the regex package);
// tests/reference/check_hf_tokenizers.mjs checks the whole on the real vocabularies at scale.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "text/byte_bpe.h"
#include "model/error.h"
#include "text/hf_tokenizer.h"
#include "text/split_regex.h"
#include "text/unicode_data.h"
#include "text/unicode_norm.h"
#include "text/wordpiece.h"

namespace {

using Strings = std::vector<std::string>;

std::vector<std::string> words_of(const std::vector<ew::SpanText>& ws) {
  std::vector<std::string> out;
  for (const ew::SpanText& w : ws) out.push_back(ew::to_utf8(w));
  return out;
}

std::u32string u32(const std::string& s) { return ew::to_u32(s); }

// A WordPiece vocabulary as vocab.txt holds it: one token per line, the id is the line.
std::string vocab_txt(const Strings& tokens) {
  std::string s;
  for (const std::string& t : tokens) s += t + "\n";
  return s;
}

// vocab.json for a byte-level BPE: the 256 byte symbols (ids 0…255 in byte order), then extras.
std::string byte_vocab_json(const Strings& extra) {
  std::string s = "{";
  int id = 0;
  auto add = [&](const std::string& sym) {
    std::string esc;
    for (char c : sym) esc += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
    s += (id ? "," : "") + std::string("\"") + esc + "\":" + std::to_string(id);
    ++id;
  };
  for (int b = 0; b < 256; ++b) {
    std::string sym;
    ew::append_utf8(sym, ew::byte_to_unicode(static_cast<std::uint8_t>(b)));
    add(sym);
  }
  for (const std::string& t : extra) add(t);
  return s + "}";
}

ew::HfTokenizer bpe_tokenizer(const Strings& extra, const std::string& merges) {
  ew::TokenizerFiles f;
  f.vocab_json = byte_vocab_json(extra);
  f.merges_txt = "#version: 0.2\n" + merges;
  return ew::HfTokenizer::from_files(f, "gpt2");
}

const Strings kBertVocab = {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "un", "##aff", "##able", "##a",
                            "a", "hello", ",", "world", "!", "東", "京", "cafe", "##s", "the"};

ew::HfTokenizer bert_tokenizer(const std::string& config = "") {
  ew::TokenizerFiles f;
  f.vocab_txt = vocab_txt(kBertVocab);
  f.tokenizer_config_json = config;
  return ew::HfTokenizer::from_files(f, "bert");
}

std::string tokenizer_error_of(const ew::TokenizerFiles& f, const std::string& model_type = "") {
  try {
    ew::HfTokenizer::from_files(f, model_type);
  } catch (const ew::Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("Unicode: NFD orders marks by combining class, NFC composes, Hangul by arithmetic") {
  CHECK(ew::general_category(U'A') == ew::Category::Lu);
  CHECK(ew::general_category(0x301) == ew::Category::Mn);
  CHECK(ew::general_category(0x3000) == ew::Category::Zs);
  CHECK(ew::combining_class(0x301) == 230);
  CHECK(ew::combining_class(0x323) == 220);
  // Python: normalize("NFD", "a\u0301\u0323") == "a\u0323\u0301"; NFC: "\u1ea1\u0301".
  CHECK(u32(ew::nfd("a\u0301\u0323")) == U"a\u0323\u0301");
  CHECK(u32(ew::nfc("a\u0301\u0323")) == U"\u1EA1\u0301");
  CHECK(u32(ew::nfc("e\u0301")) == U"\u00E9");
  CHECK(u32(ew::nfd("\u00E9")) == U"e\u0301");
  // Singletons: the Ohm and Angstrom signs and a CJK compatibility ideograph.
  CHECK(u32(ew::nfc("\u2126\u212B\uF900")) == U"\u03A9\u00C5\u8C48");
  CHECK(u32(ew::nfd("\uAC01")) == U"\u1100\u1161\u11A8");
  CHECK(u32(ew::nfc("\u1100\u1161\u11A8")) == U"\uAC01");
}

TEST_CASE("Unicode: spans follow the code points; lowercase is each code point's own str.lower()") {
  const ew::SpanText t = ew::nfc(ew::span_text("xe\u0301y"));
  REQUIRE(t.size() == 3);
  CHECK(t[1].cp == 0xE9);
  CHECK(t[1].begin == 1);
  CHECK(t[1].end == 3);  // the composed é covers both input code points
  CHECK(t[2].begin == 3);
  // "İ".lower() == "i\u0307"; "ΣΑΣ" one character at a time: "σασ" (no final sigma).
  CHECK(u32(ew::to_utf8(ew::lowercase(ew::span_text("\u0130")))) == U"i\u0307");
  CHECK(ew::to_utf8(ew::lowercase(ew::span_text("ΣΑΣ"))) == "σασ");
  CHECK_THROWS_WITH_AS(ew::span_text("a\xff"), "invalid UTF-8 at byte 1", ew::Error);
}

TEST_CASE("BERT: punctuation is ASCII's non-alphanumerics and Unicode P*; CJK ranges per flavour") {
  for (char32_t p : {U'$', U'^', U'`', U'~', U'_', U'\u00BF', U'\u3002', U'\u2014'}) CHECK(ew::is_bert_punctuation(p));
  for (char32_t n : {U'a', U'0', U' ', U'\u20AC', U'\u00A9'}) CHECK_FALSE(ew::is_bert_punctuation(n));  // € ©: Sc, So
  CHECK(ew::is_bert_chinese_char(0x4E00, ew::BertFlavor::python));
  CHECK_FALSE(ew::is_bert_chinese_char(0x3042, ew::BertFlavor::python));  // hiragana
  CHECK_FALSE(ew::is_bert_chinese_char(0xAC00, ew::BertFlavor::python));  // Hangul
  CHECK(ew::is_bert_chinese_char(0x2B820, ew::BertFlavor::python));
  CHECK_FALSE(ew::is_bert_chinese_char(0x2B820, ew::BertFlavor::library));
}

TEST_CASE("BERT: the basic tokenizer cleans, spaces CJK, lower-cases, strips accents, splits punctuation") {
  ew::BertNormalizerOptions opt;  // uncased: lowercase and strip accents
  const auto words = ew::bert_basic_tokenize(ew::span_text("H\u00E9llo,\u0007 WORLD!\u00A0東京 [MASK]"), opt, {"[MASK]"});
  CHECK(words_of(words) == Strings{"hello", ",", "world", "!", "東", "京", "[MASK]"});
  CHECK(words[0].front().begin == 0);
  CHECK(words[0].back().end == 5);
  opt.lowercase = false;  // cased: accents stay (NFC), case stays
  CHECK(words_of(ew::bert_basic_tokenize(ew::span_text("Cafe\u0301s!"), opt, {})) == Strings{"Caf\u00E9s", "!"});
  // The library flavour: BertNormalizer then BertPreTokenizer.
  const ew::SpanText n = ew::bert_normalize(ew::span_text("Caf\u00C9\u200B X"), ew::BertNormalizerOptions{});
  CHECK(ew::to_utf8(n) == "cafe x");
  CHECK(words_of(ew::bert_pre_tokenize(ew::span_text("a.b  c"))) == Strings{"a", ".", "b", "c"});
}

TEST_CASE("WordPiece: greedy longest match first, ## on continuations, [UNK] for the whole word") {
  const ew::HfTokenizer tok = bert_tokenizer();
  const ew::HfEncoding e = tok.encode("unaffable unaa");
  CHECK(e.pieces == Strings{"[CLS]", "un", "##aff", "##able", "un", "##a", "##a", "[SEP]"});
  CHECK(e.ids == std::vector<int>{2, 5, 6, 7, 5, 8, 8, 3});
  CHECK(e.offsets[2] == std::pair<int, int>{2, 5});
  // "unx": "un" matches, then nothing for "x" — the whole word becomes [UNK], not "un" + [UNK].
  CHECK(tok.encode("unx").pieces == Strings{"[CLS]", "[UNK]", "[SEP]"});
  // max_input_chars_per_word 100: 100 a's are 1 + 99 pieces; 101 are one [UNK].
  CHECK(tok.encode(std::string(100, 'a')).size() == 102);
  CHECK(tok.encode(std::string(101, 'a')).pieces == Strings{"[CLS]", "[UNK]", "[SEP]"});
}

TEST_CASE("BERT: special tokens written in the text are kept whole; a pair has token types 0…0 1…1") {
  const ew::HfTokenizer tok = bert_tokenizer();
  CHECK(tok.encode("the [MASK] cafe").pieces == Strings{"[CLS]", "the", "[MASK]", "cafe", "[SEP]"});
  CHECK(tok.encode("the[MASK]").pieces == Strings{"[CLS]", "the", "[MASK]", "[SEP]"});
  CHECK(tok.encode("[mask]").pieces == Strings{"[CLS]", "[UNK]", "[UNK]", "[UNK]", "[SEP]"});  // "[", "mask", "]"
  const ew::HfEncoding p = tok.encode("Hello, world!", "cafes");
  CHECK(p.pieces == Strings{"[CLS]", "hello", ",", "world", "!", "[SEP]", "cafe", "##s", "[SEP]"});
  CHECK(p.type_ids == std::vector<int>{0, 0, 0, 0, 0, 0, 1, 1, 1});
  CHECK(p.special == std::vector<unsigned char>{1, 0, 0, 0, 0, 1, 0, 0, 1});
  const ew::SpecialTokenIds s = tok.special_ids();
  CHECK(s.cls == 2);
  CHECK(s.sep == 3);
  CHECK(s.mask == 4);
  CHECK(s.unk == 1);
  // A cased tokenizer_config.json keeps the case: "Hello" is not in this uncased vocabulary.
  CHECK(bert_tokenizer(R"({"do_lower_case": false})").encode("Hello").pieces == Strings{"[CLS]", "[UNK]", "[SEP]"});
  CHECK(tok.decode(tok.encode("unaffable, world").ids, true) == "unaffable, world");
}

TEST_CASE("GPT-2: the byte map, and the pre-tokenizer regex as Python's regex splits") {
  CHECK(ew::byte_to_unicode(' ') == 0x120);   // Ġ
  CHECK(ew::byte_to_unicode('\n') == 0x10A);  // Ċ
  CHECK(ew::byte_to_unicode('A') == U'A');
  CHECK(ew::byte_to_unicode(0xAD) == 0x143);  // the last of the 68 moved bytes
  CHECK(ew::byte_to_unicode(0xFF) == 0xFF);
  for (int b = 0; b < 256; ++b) CHECK(ew::unicode_to_byte(ew::byte_to_unicode(static_cast<std::uint8_t>(b))) == b);
  CHECK(ew::symbols_to_bytes("\u0120the\u010A") == " the\n");
  auto split = [](const std::string& s) {
    const ew::SpanText t = ew::span_text(s);
    Strings out;
    for (const auto& [a, b] : ew::gpt2_pre_tokenize(t)) out.push_back(ew::to_utf8(t, a, b));
    return out;
  };
  CHECK(split("I'm  here\n\n") == Strings{"I", "'m", " ", " here", "\n\n"});
  CHECK(split("Hello world!!  42x") == Strings{"Hello", " world", "!!", " ", " 42", "x"});
  CHECK(split("it'S") == Strings{"it", "'", "S"});  // the contractions are lower-case only
  CHECK(split("a \u3000b") == Strings{"a", " ", "\u3000", "b"});
  CHECK(split("x'll'd") == Strings{"x", "'ll", "'d"});
}

TEST_CASE("GPT-2: merges apply by rank, each everywhere in the word, until none applies") {
  // "a b" before "b c": abc → ab c; the other order: abc → a bc.
  const ew::HfTokenizer ab = bpe_tokenizer({"ab", "bc"}, "a b\nb c\n");
  CHECK(ab.encode("abc").pieces == Strings{"ab", "c"});
  const ew::HfTokenizer bc = bpe_tokenizer({"ab", "bc"}, "b c\na b\n");
  CHECK(bc.encode("abc").pieces == Strings{"a", "bc"});
  // Every occurrence of the best pair merges in one step, left to right ("aaa" → "aa a").
  const ew::HfTokenizer aa = bpe_tokenizer({"aa", "aaaa"}, "a a\naa aa\n");
  CHECK(aa.encode("aaaaa").pieces == Strings{"aaaa", "a"});
  CHECK(aa.encode("aaa").pieces == Strings{"aa", "a"});
  // A space becomes Ġ and goes with the word after it; an emoji's four bytes stay bytes.
  const ew::HfTokenizer sp = bpe_tokenizer({"\u0120a"}, "\u0120 a\n");
  const ew::HfEncoding e = sp.encode("a a \xF0\x9F\x98\x80");
  CHECK(e.pieces == Strings{"a", "\u0120a", "\u0120", "\u00F0", "\u0141", "\u013A", "\u0122"});
  CHECK(e.offsets[4] == std::pair<int, int>{4, 5});  // a byte of the emoji covers the emoji
  CHECK(sp.decode(e.ids) == "a a \xF0\x9F\x98\x80");
  CHECK(e.type_ids == std::vector<int>(7, 0));  // GPT-2 adds no special tokens
}

TEST_CASE("GPT-2: <|endoftext|> written in the text is its token") {
  const ew::HfTokenizer tok = bpe_tokenizer({"<|endoftext|>"}, "");
  const ew::HfEncoding e = tok.encode("a<|endoftext|>b");
  CHECK(e.pieces == Strings{"a", "<|endoftext|>", "b"});
  CHECK(e.ids[1] == 256);
  CHECK(e.special == std::vector<unsigned char>{0, 1, 0});
  CHECK(tok.special_ids().eos == 256);
  CHECK(tok.encode("<|endoftext").size() == 11);  // incomplete: its 11 bytes, no merges here
}

TEST_CASE("tokenizer.json: WordPiece with BertNormalizer and TemplateProcessing, BPE with ByteLevel") {
  ew::TokenizerFiles f;
  f.tokenizer_json = R"({"model": {"type": "WordPiece", "unk_token": "[UNK]", "vocab": {"[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "hi": 3, "##s": 4}},
    "normalizer": {"type": "BertNormalizer", "lowercase": true}, "pre_tokenizer": {"type": "BertPreTokenizer"},
    "post_processor": {"type": "BertProcessing", "cls": ["[CLS]", 1], "sep": ["[SEP]", 2]},
    "added_tokens": [{"id": 1, "content": "[CLS]", "special": true}, {"id": 2, "content": "[SEP]", "special": true}]})";
  const ew::HfTokenizer tok = ew::HfTokenizer::from_files(f, "bert");
  CHECK(std::string(tok.source()) == "tokenizer.json");
  const ew::HfEncoding e = tok.encode("HIS hi", "hi");
  CHECK(e.pieces == Strings{"[CLS]", "hi", "##s", "hi", "[SEP]", "hi", "[SEP]"});
  CHECK(e.type_ids == std::vector<int>{0, 0, 0, 0, 0, 1, 1});
  // A GPT-2 tokenizer.json where config.json says bert: the error says which is which.
  ew::TokenizerFiles g;
  g.tokenizer_json = R"({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}, "pre_tokenizer": {"type": "ByteLevel"}})";
  CHECK(tokenizer_error_of(g, "gpt2").find("no symbol for byte 0x00") != std::string::npos);
}

TEST_CASE("tokenizer files: each malformed input names the file and what is wrong") {
  ew::TokenizerFiles f;
  CHECK(tokenizer_error_of(f) == "no tokenizer files: the model needs tokenizer.json, vocab.txt or vocab.json + merges.txt");
  CHECK(tokenizer_error_of(f, "bert") == "no tokenizer files: the model needs tokenizer.json or vocab.txt");
  f.tokenizer_json = R"({"model": {"type": "Unigram", "vocab": []}})";
  CHECK(tokenizer_error_of(f) == "tokenizer.json: model.type \"Unigram\" is not supported (supported: WordPiece, BPE)");
  f.tokenizer_json = R"({"model": {"type": "WordPiece", "vocab": {"[UNK]": 0}}, "normalizer": {"type": "Precompiled"}})";
  CHECK(tokenizer_error_of(f) ==
        "tokenizer.json: normalizer.type \"Precompiled\" is not supported (supported: BertNormalizer, NFC, NFD, Lowercase, "
        "StripAccents, Prepend, Replace, Sequence)");
  f.tokenizer_json = R"({"model": {"type": "WordPiece", "vocab": {"[UNK]": 0}}, "normalizer": {"type": "BertNormalizer", "clean_text": 1}})";
  CHECK(tokenizer_error_of(f) == "tokenizer.json: normalizer.clean_text is not true or false");
  f.tokenizer_json = R"({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": [], "dropout": 0.1}})";
  CHECK(tokenizer_error_of(f) == "tokenizer.json: model.dropout \"0.1\" is not supported (supported: null (BPE dropout is for training))");
  f.tokenizer_json = "";
  f.vocab_txt = vocab_txt({"[PAD]", "[CLS]", "[SEP]"});
  CHECK(tokenizer_error_of(f) == "vocab.txt: has no unknown token \"[UNK]\"");
  f.vocab_txt = vocab_txt({"[UNK]", "[CLS]", "[SEP]"});
  CHECK(tokenizer_error_of(f, "gpt2") == "no tokenizer files: the model needs tokenizer.json or vocab.json + merges.txt");
  f.tokenizer_config_json = R"({"do_lower_case": "no"})";
  CHECK(tokenizer_error_of(f) == "tokenizer_config.json: do_lower_case is not true or false");
  ew::TokenizerFiles g;
  g.vocab_json = byte_vocab_json({});
  g.merges_txt = "#version: 0.2\n\u0120 t\n";
  CHECK(tokenizer_error_of(g) == "merges.txt: line 2: the merged token \"\u0120t\" is not in vocab.json");
  g.merges_txt = "#version: 0.2\nab\n";
  CHECK(tokenizer_error_of(g) == "merges.txt: line 2 \"ab\" is not two symbols separated by one space");
  g.vocab_json = "{\"a\": -1}";
  CHECK(tokenizer_error_of(g) == "vocab.json: vocab.json[\"a\"] has id -1, outside 0 … 16777215");
}

TEST_CASE("encoding: invalid UTF-8 is refused with the byte offset; an out-of-range id names itself") {
  const ew::HfTokenizer tok = bert_tokenizer();
  try {
    tok.encode("ok \xC3");
    FAIL("no error");
  } catch (const ew::Error& e) {
    CHECK(std::string(e.what()) == "invalid UTF-8 at byte 3");
    CHECK(e.code == "invalid_utf8");
  }
  CHECK_THROWS_WITH_AS(tok.token(999), "token id 999 is not in the vocabulary (0 … 18)", ew::Error);
}

TEST_CASE("piece_note: how the page shows a piece and what its mark means") {
  CHECK(ew::piece_note("##ing", ew::HfTokenizerKind::wordpiece, false).text == "ing");
  CHECK(std::string(ew::piece_note("##ing", ew::HfTokenizerKind::wordpiece, false).code) == "continues");
  CHECK(ew::piece_note("\u0120the", ew::HfTokenizerKind::byte_bpe, false).text == "\u00B7the");
  CHECK(std::string(ew::piece_note("\u0120the", ew::HfTokenizerKind::byte_bpe, false).code) == "space_before");
  CHECK(ew::piece_note("\u00F0\u0141", ew::HfTokenizerKind::byte_bpe, false).text == "<F0 9F>");
  CHECK(std::string(ew::piece_note("[CLS]", ew::HfTokenizerKind::wordpiece, true).code) == "special");
}

// ---- the modern decoders' tokenizer.json (Qwen, Llama 3, Gemma, Llama 2) -----------------------
namespace {

const char* const kQwenRegex =
    "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

Strings regex_pieces(const char* pattern, const std::string& text) {
  const std::u32string t = ew::to_u32(text);
  Strings out;
  for (const auto& [a, b] : ew::SplitRegex::compile(pattern).find_all(t)) {
    std::string s;
    for (int k = a; k < b; ++k) ew::append_utf8(s, t[static_cast<std::size_t>(k)]);
    out.push_back(s);
  }
  return out;
}

// A SentencePiece-style tokenizer.json (Llama 2's shape): Prepend ▁ + Replace " " → ▁, BPE over
// code points with byte fallback, a <s> template, and the decoders that undo it.
std::string piece_bpe_json(bool byte_fallback, bool ignore_merges = false) {
  std::string vocab = "\"<unk>\": 0, \"<s>\": 1, \"\\u2581\": 2, \"a\": 3, \"b\": 4, \"\\u2581a\": 5, \"ab\": 6, \"\\u2581ab\": 7, \"bb\": 8";
  for (int b = 0; b < 256; ++b) {
    char name[16];
    std::snprintf(name, sizeof name, "\"<0x%02X>\"", b);
    vocab += std::string(", ") + name + ": " + std::to_string(9 + b);
  }
  return std::string(R"({"model": {"type": "BPE", "unk_token": "<unk>", "fuse_unk": true, "byte_fallback": )") +
         (byte_fallback ? "true" : "false") + ", \"ignore_merges\": " + (ignore_merges ? "true" : "false") + ", \"vocab\": {" + vocab +
         R"(}, "merges": ["a b", "▁ a", "▁ ab", "b b"]},
    "normalizer": {"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": "▁"},
                   {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]},
    "pre_tokenizer": null,
    "post_processor": {"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
                       "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}],
                       "special_tokens": {"<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]}}},
    "decoder": {"type": "Sequence", "decoders": [{"type": "Replace", "pattern": {"String": "▁"}, "content": " "},
                {"type": "ByteFallback"}, {"type": "Fuse"}, {"type": "Strip", "content": " ", "start": 1, "stop": 0}]},
    "added_tokens": [{"id": 0, "content": "<unk>", "special": true}, {"id": 1, "content": "<s>", "special": true}]})";
}

ew::HfTokenizer from_json(const std::string& j) {
  ew::TokenizerFiles f;
  f.tokenizer_json = j;
  return ew::HfTokenizer::from_files(f);
}

}  // namespace

TEST_CASE("Split regex: Qwen's and Llama 3's patterns cut as Python's regex package does") {
  // Expected: regex.findall(pattern, text) in /usr/bin/python3 (regex 2022, Oniguruma's semantics
  // for these constructs: leftmost-first alternation, greedy runs, (?!\S) backing off one space).
  CHECK(regex_pieces(kQwenRegex, "HE'LL don't  go 12345!!\n\n  x") ==
        Strings{"HE", "'LL", " don", "'t", " ", " go", " ", "1", "2", "3", "4", "5", "!!\n\n", " ", " x"});
  std::string llama3 = kQwenRegex;
  llama3.replace(llama3.find("\\p{N}|"), 6, "\\p{N}{1,3}|");
  CHECK(regex_pieces(llama3.c_str(), "HE'LL don't  go 12345!!\n\n  x") ==
        Strings{"HE", "'LL", " don", "'t", " ", " go", " ", "123", "45", "!!\n\n", " ", " x"});
  CHECK(regex_pieces(kQwenRegex, "a\u00E9b  \t\n c") == Strings{"a\u00E9b", "  \t\n", " c"});
  CHECK(regex_pieces("a+?b|x{2,3}", "aaab xxxxx") == Strings{"aaab", "xxx", "xx"});
  CHECK(regex_pieces("[^a-c\\d]+", "abxy12z") == Strings{"xy", "z"});
}

TEST_CASE("Split regex: what it does not implement is refused by name") {
  for (const auto& c : std::vector<std::pair<const char*, const char*>>{
           {"(ab)+", "a quantifier on a group"}, {"(?<=a)b", "lookbehind"}, {"^a", "an anchor"},
           {"a++", "possessive"}, {"\\p{Foo}", "\\p{Foo}"}, {"(?m:a)", "group flag"}, {"(a", "unclosed ("},
           {"[a", "unclosed ["}, {"\\1", "escape \\1"}}) {
    // not a structured binding: CAPTURE's lambda may not capture one in C++17 (clang-14 refuses)
    const char* pattern = c.first;
    const char* what = c.second;
    CAPTURE(pattern);
    try {
      ew::SplitRegex::compile(pattern);
      FAIL("accepted");
    } catch (const ew::Error& e) {
      CHECK(std::string(e.what()).find(what) != std::string::npos);
      CHECK(e.code == "regex_unsupported");
    }
  }
}

TEST_CASE("Split pre-tokenizer: each behaviour, as the tokenizers library's SplitDelimiterBehavior") {
  // The library's own examples (pre_tokenizers/split.rs tests): "The-final--countdown" split on "-".
  auto split = [](const char* behavior, bool invert) {
    const std::string j = std::string(R"({"model": {"type": "WordPiece", "unk_token": "?", "vocab": {"?": 0}},
      "pre_tokenizer": {"type": "Split", "pattern": {"String": "-"}, "behavior": ")") + behavior +
                          R"(", "invert": )" + (invert ? "true" : "false") + "}}";
    const ew::HfEncoding e = from_json(j).encode("The-final--countdown");
    std::vector<std::pair<int, int>> spans(e.offsets.begin(), e.offsets.end());
    return spans;  // every word is "?" (one [UNK] per word): the offsets are the words
  };
  using Spans = std::vector<std::pair<int, int>>;
  CHECK(split("Removed", false) == Spans{{0, 3}, {4, 9}, {11, 20}});
  CHECK(split("Isolated", false) == Spans{{0, 3}, {3, 4}, {4, 9}, {9, 10}, {10, 11}, {11, 20}});
  CHECK(split("MergedWithPrevious", false) == Spans{{0, 4}, {4, 10}, {10, 11}, {11, 20}});
  CHECK(split("MergedWithNext", false) == Spans{{0, 3}, {3, 9}, {9, 10}, {10, 20}});
  CHECK(split("Contiguous", false) == Spans{{0, 3}, {3, 4}, {4, 9}, {9, 11}, {11, 20}});
  CHECK(split("Removed", true) == Spans{{3, 4}, {9, 10}, {10, 11}});
}

TEST_CASE("SentencePiece-style BPE: ▁ for spaces, byte fallback, fuse_unk, the <s> template, decoding") {
  const ew::HfTokenizer t = from_json(piece_bpe_json(true));
  CHECK(t.kind() == ew::HfTokenizerKind::bpe);
  // "ab a": Prepend → "▁ab▁a"; merges a+b (rank 0), then ▁+a (1), ▁+ab (2): ▁ab, ▁a.
  ew::HfEncoding e = t.encode("ab a");
  CHECK(e.ids == std::vector<int>{1, 7, 5});
  CHECK(e.pieces == Strings{"<s>", "\u2581ab", "\u2581a"});
  CHECK(e.offsets == std::vector<std::pair<int, int>>{{0, 0}, {0, 2}, {2, 4}});
  // "é" is not in the vocabulary: its two UTF-8 bytes, each covering the character.
  e = t.encode("\u00E9b");
  CHECK(e.pieces == Strings{"<s>", "\u2581", "<0xC3>", "<0xA9>", "b"});
  CHECK(e.offsets == std::vector<std::pair<int, int>>{{0, 0}, {0, 1}, {0, 1}, {0, 1}, {1, 2}});
  CHECK(t.decode(e.ids) == "<s> \u00E9b");  // Strip only takes a space that leads the fused text
  CHECK(t.decode(e.ids, true) == "\u00E9b");
  CHECK(t.decode({9 + 0xC3, 4}) == "\xEF\xBF\xBD" "b");  // a lone lead byte: U+FFFD
  // <s> written in the text is the special token; the text after it is normalised on its own.
  CHECK(t.encode("<s>a").pieces == Strings{"<s>", "<s>", "\u2581a"});
  // Without byte fallback, unknown characters fuse into one <unk>.
  const ew::HfTokenizer u = from_json(piece_bpe_json(false));
  CHECK(u.encode("\u00E9\u00E8b").pieces == Strings{"<s>", "\u2581", "<unk>", "b"});
}

TEST_CASE("BPE: merges by rank, leftmost first among equals; ignore_merges takes a whole word") {
  const ew::HfTokenizer t = from_json(piece_bpe_json(true));
  // "bbb" → ▁, b b b: b+b merges at the leftmost position first: bb, b.
  CHECK(t.encode("bbb").pieces == Strings{"<s>", "\u2581", "bb", "b"});
  CHECK(t.encode("bbbb").pieces == Strings{"<s>", "\u2581", "bb", "bb"});
  // ignore_merges: "▁ab" is in the vocabulary, so the word is it without merging (same result
  // here), and a word not in the vocabulary still merges.
  const ew::HfTokenizer im = from_json(piece_bpe_json(true, true));
  CHECK(im.encode("ab").pieces == Strings{"<s>", "\u2581ab"});
  CHECK(im.encode("abb").pieces == Strings{"<s>", "\u2581ab", "b"});
}

TEST_CASE("piece_note: ▁ marks a space; a byte-fallback piece shows its byte") {
  CHECK(ew::piece_note("\u2581the", ew::HfTokenizerKind::bpe, false).text == "\u00B7the");
  CHECK(std::string(ew::piece_note("\u2581the", ew::HfTokenizerKind::bpe, false).code) == "space_before");
  CHECK(ew::piece_note("<0xE2>", ew::HfTokenizerKind::bpe, false).text == "<E2>");
  CHECK(std::string(ew::piece_note("<0xE2>", ew::HfTokenizerKind::bpe, false).code) == "bytes");
  CHECK(std::string(ew::piece_note("the", ew::HfTokenizerKind::bpe, false).code) == "no_space");
}
