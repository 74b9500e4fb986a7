// hf_tokenizer_load.cpp — reads a checkpoint's tokenizer files (their contents) into a
// TokenizerSpec: tokenizer.json as the tokenizers library does, vocab.txt (+
// tokenizer_config.json) as BertTokenizer, vocab.json + merges.txt as GPT2Tokenizer. Every
// error names the file and what in it is wrong.
#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "model/error.h"
#include "text/hf_tokenizer_spec.h"
#include "text/tokenizer.h"

namespace ew {

using nlohmann::json;

namespace {

[[noreturn]] void invalid(const std::string& file, const std::string& what) {
  throw Error(file + ": " + what, "tokenizer_file_invalid", {{"file", file}, {"what", what}});
}

[[noreturn]] void unsupported(const std::string& file, const std::string& key, const std::string& value,
                              const std::string& supported) {
  throw Error(file + ": " + key + " \"" + value + "\" is not supported (supported: " + supported + ")",
              "tokenizer_unsupported", {{"file", file}, {"key", key}, {"value", value}, {"supported", supported}});
}

json parse_json(const std::string& file, const std::string& text) {
  try {
    json j = json::parse(text);
    if (!j.is_object()) invalid(file, "is not a JSON object");
    return j;
  } catch (const json::exception& e) {
    invalid(file, std::string("is not valid JSON (") + e.what() + ")");
  }
}

// Typed field access: a missing or null field gives the default; a field of the wrong type is
// an error naming it.
bool get_bool(const std::string& file, const json& j, const std::string& path, const char* key, bool def) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return def;
  if (!it->is_boolean()) invalid(file, path + key + " is not true or false");
  return it->get<bool>();
}

std::string get_string(const std::string& file, const json& j, const std::string& path, const char* key,
                       const std::string& def) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return def;
  if (!it->is_string()) invalid(file, path + key + " is not a string");
  return it->get<std::string>();
}

long long get_int(const std::string& file, const json& j, const std::string& path, const char* key, long long def) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return def;
  if (!it->is_number_integer()) invalid(file, path + key + " is not an integer");
  return it->get<long long>();
}

const json& get_object(const std::string& file, const json& j, const std::string& path, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_object()) invalid(file, path + key + " is missing or not an object");
  return *it;
}

constexpr long long kMaxId = 1 << 24;  // far above any real vocabulary; bounds the id table

void check_id(const std::string& file, const std::string& what, long long id) {
  if (id < 0 || id >= kMaxId) invalid(file, what + " has id " + std::to_string(id) + ", outside 0 … 16777215");
}

// {"token": id, …} → vocab; two tokens with one id is an error.
void read_vocab_object(const std::string& file, const json& v, const std::string& path, TokenVocab& vocab) {
  if (!v.is_object()) invalid(file, path + " is not an object of token → id");
  vocab.ids.reserve(vocab.ids.size() + v.size());  // Gemma's 262,144: no rehashing on the way
  vocab.tokens.reserve(v.size());
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (!it.value().is_number_integer()) invalid(file, path + "[\"" + it.key() + "\"] is not an integer id");
    const long long id = it.value().get<long long>();
    check_id(file, path + "[\"" + it.key() + "\"]", id);
    if (id < vocab.size() && !vocab.tokens[static_cast<std::size_t>(id)].empty())
      invalid(file, "id " + std::to_string(id) + " is given to both \"" + vocab.tokens[static_cast<std::size_t>(id)] +
                        "\" and \"" + it.key() + "\"");
    if (it.key().empty()) invalid(file, path + " has an empty token (id " + std::to_string(id) + ")");
    vocab.set(static_cast<int>(id), it.key());
  }
}

// ---- BPE merges: "a b" lines of merges.txt or entries of tokenizer.json -------------------
void add_merge(const std::string& file, const std::string& where, TokenizerSpec& s, const std::string& a,
               const std::string& b, int rank) {
  const int ia = s.vocab.id(a), ib = s.vocab.id(b), im = s.vocab.id(a + b);
  const char* vocab_file = s.python ? "vocab.json" : "the vocabulary (model.vocab)";
  if (ia < 0) invalid(file, where + ": the symbol \"" + a + "\" is not in " + vocab_file);
  if (ib < 0) invalid(file, where + ": the symbol \"" + b + "\" is not in " + vocab_file);
  if (im < 0) invalid(file, where + ": the merged token \"" + a + b + "\" is not in " + vocab_file);
  s.bpe.merges[ByteBpe::key(ia, ib)] = {rank, im};  // a repeated pair: the later rank wins
}

// "a b" → (a, b): two non-empty symbols separated by one space.
std::pair<std::string, std::string> split_merge(const std::string& file, const std::string& where, const std::string& text) {
  const std::size_t sp = text.find(' ');
  if (sp == std::string::npos || sp == 0 || sp + 1 >= text.size() || text.find(' ', sp + 1) != std::string::npos)
    invalid(file, where + " \"" + text + "\" is not two symbols separated by one space");
  return {text.substr(0, sp), text.substr(sp + 1)};
}

void finish_byte_bpe(const std::string& file, TokenizerSpec& s) {
  s.kind = HfTokenizerKind::byte_bpe;
  s.bpe.vocab = &s.vocab;
  for (int b = 0; b < 256; ++b) {
    std::string sym;
    append_utf8(sym, byte_to_unicode(static_cast<std::uint8_t>(b)));
    const int id = s.vocab.id(sym);
    if (id < 0) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", b);
      invalid(file, std::string("the vocabulary has no symbol for byte ") + hex + " (\"" + sym +
                        "\"): a byte-level BPE needs all 256");
    }
    s.bpe.byte_id[b] = id;
  }
  s.decoder = DecoderKind::byte_level;
}

// BPE over code points (SentencePiece-style): the byte-fallback tokens "<0x00>" … "<0xFF>".
void finish_piece_bpe(TokenizerSpec& s) {
  s.kind = HfTokenizerKind::bpe;
  s.bpe.vocab = &s.vocab;
  s.bpe.byte_level = false;
  for (int b = 0; b < 256; ++b) {
    char name[8];
    std::snprintf(name, sizeof name, "<0x%02X>", b);
    s.bpe.byte_id[b] = s.vocab.id(name);
  }
}

// ---- tokenizer.json -------------------------------------------------------------------------
const char* const kJson = "tokenizer.json";

std::string type_of(const json& j, const std::string& path) {
  const auto it = j.find("type");
  if (it == j.end() || !it->is_string()) invalid(kJson, path + " has no \"type\"");
  return it->get<std::string>();
}

// {"String": "…"} or {"Regex": "…"} → a matcher; a regex beyond split_regex.h's subset is
// refused naming the key and what in it is unsupported.
SplitRegex read_pattern(const json& j, const std::string& path) {
  const auto it = j.find("pattern");
  if (it == j.end() || !it->is_object()) invalid(kJson, path + ".pattern is missing or not an object");
  if (it->contains("String")) return SplitRegex::literal(get_string(kJson, *it, path + ".pattern.", "String", ""));
  const std::string re = get_string(kJson, *it, path + ".pattern.", "Regex", "");
  if (!it->contains("Regex")) invalid(kJson, path + ".pattern has neither String nor Regex");
  try {
    return SplitRegex::compile(re);
  } catch (const Error& e) {
    std::string what = e.what();
    for (const auto& [k, v] : e.params)
      if (k == "what") what = v;
    unsupported(kJson, path + ".pattern.Regex", re, "regexes without " + what);
  }
}

void read_normalizer(const json& j, const std::string& path, TokenizerSpec& s) {
  if (j.is_null()) return;
  if (!j.is_object()) invalid(kJson, path + " is not an object");
  const std::string type = type_of(j, path);
  if (type == "Sequence") {
    const auto it = j.find("normalizers");
    if (it == j.end() || !it->is_array()) invalid(kJson, path + ".normalizers is missing or not a list");
    for (std::size_t i = 0; i < it->size(); ++i) read_normalizer((*it)[i], path + ".normalizers[" + std::to_string(i) + "]", s);
    return;
  }
  NormalizerStep step;
  if (type == "BertNormalizer") {
    step.bert.clean_text = get_bool(kJson, j, path + ".", "clean_text", true);
    step.bert.handle_chinese_chars = get_bool(kJson, j, path + ".", "handle_chinese_chars", true);
    step.bert.lowercase = get_bool(kJson, j, path + ".", "lowercase", true);
    const auto sa = j.find("strip_accents");
    if (sa != j.end() && !sa->is_null()) step.bert.strip_accents = get_bool(kJson, j, path + ".", "strip_accents", false);
  } else if (type == "NFC") {
    step.kind = NormalizerKind::nfc;
  } else if (type == "NFD") {
    step.kind = NormalizerKind::nfd;
  } else if (type == "Lowercase") {
    step.kind = NormalizerKind::lowercase;
  } else if (type == "StripAccents") {
    step.kind = NormalizerKind::strip_accents;
  } else if (type == "Prepend") {
    step.kind = NormalizerKind::prepend;
    step.text = to_u32(get_string(kJson, j, path + ".", "prepend", ""));
  } else if (type == "Replace") {
    step.kind = NormalizerKind::replace;
    step.pattern = read_pattern(j, path);
    step.text = to_u32(get_string(kJson, j, path + ".", "content", ""));
  } else {
    unsupported(kJson, path + ".type", type, "BertNormalizer, NFC, NFD, Lowercase, StripAccents, Prepend, Replace, Sequence");
  }
  s.normalizers.push_back(step);
}

void read_pre_tokenizer(const json& j, const std::string& path, TokenizerSpec& s) {
  if (j.is_null()) return;
  if (!j.is_object()) invalid(kJson, path + " is not an object");
  const std::string type = type_of(j, path);
  if (type == "Sequence") {
    const auto it = j.find("pretokenizers");
    if (it == j.end() || !it->is_array()) invalid(kJson, path + ".pretokenizers is missing or not a list");
    for (std::size_t i = 0; i < it->size(); ++i)
      read_pre_tokenizer((*it)[i], path + ".pretokenizers[" + std::to_string(i) + "]", s);
    return;
  }
  PreTokenizerStep step;
  if (type == "BertPreTokenizer") {
  } else if (type == "WhitespaceSplit") {
    step.kind = PreTokenizerKind::whitespace_split;
  } else if (type == "ByteLevel") {
    step.kind = PreTokenizerKind::byte_level;
    step.add_prefix_space = get_bool(kJson, j, path + ".", "add_prefix_space", true);
    step.use_regex = get_bool(kJson, j, path + ".", "use_regex", true);
  } else if (type == "Split") {
    step.kind = PreTokenizerKind::split;
    step.pattern = read_pattern(j, path);
    step.invert = get_bool(kJson, j, path + ".", "invert", false);
    static const std::pair<const char*, SplitBehavior> kBehaviors[] = {
        {"Removed", SplitBehavior::removed}, {"Isolated", SplitBehavior::isolated},
        {"MergedWithPrevious", SplitBehavior::merged_with_previous}, {"MergedWithNext", SplitBehavior::merged_with_next},
        {"Contiguous", SplitBehavior::contiguous}};
    const std::string b = get_string(kJson, j, path + ".", "behavior", "");
    bool known = false;
    for (const auto& [name, value] : kBehaviors)
      if (b == name) step.behavior = value, known = true;
    if (!known) unsupported(kJson, path + ".behavior", b, "Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous");
  } else {
    unsupported(kJson, path + ".type", type, "BertPreTokenizer, ByteLevel, WhitespaceSplit, Split, Sequence");
  }
  s.pre_tokenizers.push_back(step);
}

// One template list: [{"SpecialToken": {"id": "[CLS]", "type_id": 0}}, {"Sequence": {"id": "A", …}}]
std::vector<TemplateItem> read_template(const json& pp, const char* key, const std::string& path, const TokenizerSpec& s) {
  const auto it = pp.find(key);
  if (it == pp.end() || !it->is_array()) invalid(kJson, path + "." + key + " is missing or not a list");
  const json& specials = pp.contains("special_tokens") && pp["special_tokens"].is_object() ? pp["special_tokens"] : json::object();
  std::vector<TemplateItem> out;
  for (std::size_t i = 0; i < it->size(); ++i) {
    const json& e = (*it)[i];
    const std::string where = path + "." + key + "[" + std::to_string(i) + "]";
    TemplateItem item;
    if (e.is_object() && e.contains("Sequence") && e["Sequence"].is_object()) {
      const std::string id = get_string(kJson, e["Sequence"], where + ".Sequence.", "id", "A");
      if (id != "A" && id != "B") invalid(kJson, where + ".Sequence.id is \"" + id + "\", not A or B");
      item.sequence = id == "A" ? 0 : 1;
      item.type_id = static_cast<int>(get_int(kJson, e["Sequence"], where + ".Sequence.", "type_id", 0));
    } else if (e.is_object() && e.contains("SpecialToken") && e["SpecialToken"].is_object()) {
      const std::string name = get_string(kJson, e["SpecialToken"], where + ".SpecialToken.", "id", "");
      item.type_id = static_cast<int>(get_int(kJson, e["SpecialToken"], where + ".SpecialToken.", "type_id", 0));
      const auto sp = specials.find(name);
      if (sp == specials.end() || !sp->is_object()) invalid(kJson, where + ": \"" + name + "\" is not in " + path + ".special_tokens");
      const auto ids = sp->find("ids");
      const auto toks = sp->find("tokens");
      if (ids == sp->end() || !ids->is_array() || toks == sp->end() || !toks->is_array() || ids->size() != toks->size())
        invalid(kJson, path + ".special_tokens[\"" + name + "\"] needs lists ids and tokens of one length");
      for (std::size_t k = 0; k < ids->size(); ++k) {
        if (!(*ids)[k].is_number_integer() || !(*toks)[k].is_string())
          invalid(kJson, path + ".special_tokens[\"" + name + "\"] has an id that is not an integer or a token that is not a string");
        const long long id = (*ids)[k].get<long long>();
        if (id < 0 || id >= s.vocab.size())
          invalid(kJson, path + ".special_tokens[\"" + name + "\"] has id " + std::to_string(id) + ", not in the vocabulary");
        item.ids.push_back(static_cast<int>(id));
        item.tokens.push_back((*toks)[k].get<std::string>());
      }
    } else {
      invalid(kJson, where + " is neither {\"Sequence\": …} nor {\"SpecialToken\": …}");
    }
    out.push_back(std::move(item));
  }
  return out;
}

TemplateItem special_item(const std::string& file, const json& pair, const std::string& path, const TokenizerSpec& s,
                          int type_id) {
  if (!pair.is_array() || pair.size() != 2 || !pair[0].is_string() || !pair[1].is_number_integer())
    invalid(file, path + " is not [\"token\", id]");
  const long long id = pair[1].get<long long>();
  if (id < 0 || id >= s.vocab.size()) invalid(file, path + " has id " + std::to_string(id) + ", not in the vocabulary");
  return {-1, {static_cast<int>(id)}, {pair[0].get<std::string>()}, type_id};
}

void bert_template(TokenizerSpec& s, const TemplateItem& cls, const TemplateItem& sep) {
  TemplateItem sep1 = sep;
  sep1.type_id = 1;
  s.single = {cls, {0, {}, {}, 0}, sep};
  s.pair = {cls, {0, {}, {}, 0}, sep, {1, {}, {}, 1}, sep1};
}

void read_post_processor(const json& j, const std::string& path, TokenizerSpec& s) {
  if (j.is_null()) return;
  if (!j.is_object()) invalid(kJson, path + " is not an object");
  const std::string type = type_of(j, path);
  if (type == "Sequence") {
    const auto it = j.find("processors");
    if (it == j.end() || !it->is_array()) invalid(kJson, path + ".processors is missing or not a list");
    for (std::size_t i = 0; i < it->size(); ++i) read_post_processor((*it)[i], path + ".processors[" + std::to_string(i) + "]", s);
  } else if (type == "TemplateProcessing") {
    s.single = read_template(j, "single", path, s);
    s.pair = read_template(j, "pair", path, s);
  } else if (type == "BertProcessing") {
    bert_template(s, special_item(kJson, j.value("cls", json()), path + ".cls", s, 0),
                  special_item(kJson, j.value("sep", json()), path + ".sep", s, 0));
  } else if (type != "ByteLevel") {  // ByteLevel only trims offsets, which this leaves as they are
    unsupported(kJson, path + ".type", type, "TemplateProcessing, BertProcessing, ByteLevel, Sequence");
  }
}

// One decoder of a Sequence: Replace (a String), ByteFallback, Fuse, Strip, ByteLevel.
DecodeStep read_decode_step(const json& d, const std::string& path) {
  if (!d.is_object()) invalid(kJson, path + " is not an object");
  const std::string type = type_of(d, path);
  DecodeStep step{DecodeStepKind::fuse, "", "", 0, 0};
  if (type == "Replace") {
    step.kind = DecodeStepKind::replace;
    const auto p = d.find("pattern");
    if (p == d.end() || !p->is_object() || !p->contains("String"))
      unsupported(kJson, path + ".pattern", p == d.end() ? "null" : p->dump(), "{\"String\": …}");
    step.from = get_string(kJson, *p, path + ".pattern.", "String", "");
    step.to = get_string(kJson, d, path + ".", "content", "");
    if (step.from.empty()) invalid(kJson, path + ".pattern.String is empty");
  } else if (type == "ByteFallback") {
    step.kind = DecodeStepKind::byte_fallback;
  } else if (type == "Fuse") {
    step.kind = DecodeStepKind::fuse;
  } else if (type == "Strip") {
    step.kind = DecodeStepKind::strip;
    step.from = get_string(kJson, d, path + ".", "content", " ");
    if (span_text(step.from).size() != 1) invalid(kJson, path + ".content is not one character");
    step.strip_start = static_cast<int>(std::min<long long>(std::max<long long>(get_int(kJson, d, path + ".", "start", 0), 0), 1 << 20));
    step.strip_stop = static_cast<int>(std::min<long long>(std::max<long long>(get_int(kJson, d, path + ".", "stop", 0), 0), 1 << 20));
  } else if (type == "ByteLevel") {
    step.kind = DecodeStepKind::byte_level;
  } else {
    unsupported(kJson, path + ".type", type, "Replace, ByteFallback, Fuse, Strip, ByteLevel");
  }
  return step;
}

void read_decoder(const json& j, TokenizerSpec& s) {
  if (j.is_null()) return;
  if (!j.is_object()) invalid(kJson, "decoder is not an object");
  const std::string type = type_of(j, "decoder");
  if (type == "Sequence") {
    const auto it = j.find("decoders");
    if (it == j.end() || !it->is_array()) invalid(kJson, "decoder.decoders is missing or not a list");
    s.decoder = DecoderKind::steps;
    for (std::size_t i = 0; i < it->size(); ++i)
      s.decode_steps.push_back(read_decode_step((*it)[i], "decoder.decoders[" + std::to_string(i) + "]"));
    return;
  }
  if (type == "WordPiece") {
    s.decoder = DecoderKind::wordpiece;
    s.decoder_prefix = get_string(kJson, j, "decoder.", "prefix", "##");
    s.decoder_cleanup = get_bool(kJson, j, "decoder.", "cleanup", true);
  } else if (type == "ByteLevel") {
    s.decoder = DecoderKind::byte_level;
  } else {
    s.decoder = DecoderKind::steps;
    s.decode_steps.push_back(read_decode_step(j, "decoder"));
  }
}

void read_model(const json& m, TokenizerSpec& s) {
  const std::string type = type_of(m, "model");
  if (type != "WordPiece" && type != "BPE") unsupported(kJson, "model.type", type, "WordPiece, BPE");
  if (!m.contains("vocab")) invalid(kJson, "model.vocab is missing");
  read_vocab_object(kJson, m["vocab"], "model.vocab", s.vocab);
  if (type == "WordPiece") {
    s.kind = HfTokenizerKind::wordpiece;
    s.wordpiece.unk_token = get_string(kJson, m, "model.", "unk_token", "[UNK]");
    s.wordpiece.prefix = get_string(kJson, m, "model.", "continuing_subword_prefix", "##");
    const long long max_chars = get_int(kJson, m, "model.", "max_input_chars_per_word", 100);
    if (max_chars < 0 || max_chars > 1000000) invalid(kJson, "model.max_input_chars_per_word is out of range");
    s.wordpiece.max_input_chars_per_word = static_cast<int>(max_chars);
    if (!s.vocab.has(s.wordpiece.unk_token))
      invalid(kJson, "model.unk_token \"" + s.wordpiece.unk_token + "\" is not in model.vocab");
    return;
  }
  if (m.contains("dropout") && !m["dropout"].is_null() && !(m["dropout"].is_number() && m["dropout"].get<double>() == 0.0))
    unsupported(kJson, "model.dropout", m["dropout"].dump(), "null (BPE dropout is for training)");
  for (const char* key : {"continuing_subword_prefix", "end_of_word_suffix"}) {
    const std::string v = get_string(kJson, m, "model.", key, "");
    if (!v.empty()) unsupported(kJson, std::string("model.") + key, v, "null with a byte-level BPE");
  }
  s.bpe.ignore_merges = get_bool(kJson, m, "model.", "ignore_merges", false);
  s.bpe.byte_fallback = get_bool(kJson, m, "model.", "byte_fallback", false);
  s.bpe.fuse_unk = get_bool(kJson, m, "model.", "fuse_unk", false);
  const std::string unk = get_string(kJson, m, "model.", "unk_token", "");
  if (!unk.empty() && !s.vocab.has(unk)) invalid(kJson, "model.unk_token \"" + unk + "\" is not in model.vocab");
  s.bpe.unk_id = unk.empty() ? -1 : s.vocab.id(unk);
  const auto merges = m.find("merges");
  if (merges == m.end() || !merges->is_array()) invalid(kJson, "model.merges is missing or not a list");
  s.bpe.merges.reserve(merges->size());
  for (std::size_t i = 0; i < merges->size(); ++i) {
    const json& e = (*merges)[i];
    const std::string where = "model.merges[" + std::to_string(i) + "]";
    if (e.is_array() && e.size() == 2 && e[0].is_string() && e[1].is_string()) {
      add_merge(kJson, where, s, e[0].get<std::string>(), e[1].get<std::string>(), static_cast<int>(i));
    } else if (e.is_string()) {
      const auto [a, b] = split_merge(kJson, where, e.get<std::string>());
      add_merge(kJson, where, s, a, b, static_cast<int>(i));
    } else {
      invalid(kJson, where + " is neither \"a b\" nor [\"a\", \"b\"]");
    }
  }
}

void read_added_tokens(const json& j, TokenizerSpec& s) {
  const auto it = j.find("added_tokens");
  if (it == j.end() || it->is_null()) return;
  if (!it->is_array()) invalid(kJson, "added_tokens is not a list");
  for (std::size_t i = 0; i < it->size(); ++i) {
    const json& e = (*it)[i];
    const std::string path = "added_tokens[" + std::to_string(i) + "].";
    if (!e.is_object()) invalid(kJson, path.substr(0, path.size() - 1) + " is not an object");
    AddedToken t;
    t.content = get_string(kJson, e, path, "content", "");
    if (t.content.empty()) invalid(kJson, path + "content is missing or empty");
    const long long id = get_int(kJson, e, path, "id", -1);
    check_id(kJson, path + "id", id);
    t.id = static_cast<int>(id);
    t.special = get_bool(kJson, e, path, "special", false);
    t.normalized = get_bool(kJson, e, path, "normalized", !t.special);
    t.lstrip = get_bool(kJson, e, path, "lstrip", false);
    t.rstrip = get_bool(kJson, e, path, "rstrip", false);
    t.single_word = get_bool(kJson, e, path, "single_word", false);
    if (t.id >= s.vocab.size() || s.vocab.tokens[static_cast<std::size_t>(t.id)].empty()) s.vocab.set(t.id, t.content);
    else s.vocab.tokens[static_cast<std::size_t>(t.id)] = t.content;  // the added token names its id
    if (!s.vocab.has(t.content)) s.vocab.ids[t.content] = t.id;
    s.added.push_back(std::move(t));
  }
}

void load_tokenizer_json(TokenizerSpec& s, const std::string& text) {
  const json j = parse_json(kJson, text);
  s.source = kJson;
  read_model(get_object(kJson, j, "", "model"), s);
  read_added_tokens(j, s);
  read_normalizer(j.value("normalizer", json()), "normalizer", s);
  read_pre_tokenizer(j.value("pre_tokenizer", json()), "pre_tokenizer", s);
  read_post_processor(j.value("post_processor", json()), "post_processor", s);
  bool byte_level = false;
  for (const PreTokenizerStep& p : s.pre_tokenizers) byte_level |= p.kind == PreTokenizerKind::byte_level;
  const bool bpe = j["model"]["type"] == "BPE";
  if (!bpe && byte_level) unsupported(kJson, "pre_tokenizer", "ByteLevel", "ByteLevel with a BPE model only");
  if (bpe && byte_level) finish_byte_bpe(kJson, s);
  if (bpe && !byte_level) finish_piece_bpe(s);
  read_decoder(j.value("decoder", json()), s);
  for (const AddedToken& t : s.added)
    if (t.special) s.special_set.insert(t.id);
  for (const auto* tmpl : {&s.single, &s.pair})
    for (const TemplateItem& item : *tmpl) s.special_set.insert(item.ids.begin(), item.ids.end());
}

// ---- vocab.txt + tokenizer_config.json (BertTokenizer) ----------------------------------
// A special token's name in tokenizer_config.json: "[CLS]" or {"content": "[CLS]", …}.
std::string config_token(const json& c, const char* key, const std::string& def) {
  const auto it = c.find(key);
  if (it == c.end() || it->is_null()) return def;
  if (it->is_string()) return it->get<std::string>();
  if (it->is_object() && it->contains("content") && (*it)["content"].is_string()) return (*it)["content"].get<std::string>();
  invalid("tokenizer_config.json", std::string(key) + " is neither a string nor {\"content\": …}");
}

void read_vocab_lines(TokenizerSpec& s, const std::string& text) {
  // BertTokenizer's load_vocab: one token per line, rstrip("\n") only; a repeated token keeps
  // its last line's id.
  std::size_t start = 0;
  int line = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    const std::string tok = text.substr(start, nl - start);
    try {
      validate_utf8(tok);
    } catch (const Error& e) {
      invalid("vocab.txt", "line " + std::to_string(line + 1) + " is not valid UTF-8 (" + e.what() + ")");
    }
    if (line >= kMaxId) invalid("vocab.txt", "has more than 16777216 lines");
    s.vocab.set(line++, tok);
    start = nl + 1;
  }
  if (line == 0) invalid("vocab.txt", "is empty");
}

void load_vocab_txt(TokenizerSpec& s, const std::string& text, const std::string& config_text) {
  s.source = "vocab.txt";
  s.python = true;
  read_vocab_lines(s, text);
  const json c = config_text.empty() ? json::object() : parse_json("tokenizer_config.json", config_text);
  const std::string cf = "tokenizer_config.json";
  s.bert.lowercase = get_bool(cf, c, "", "do_lower_case", true);
  const auto sa = c.find("strip_accents");
  if (sa != c.end() && !sa->is_null()) s.bert.strip_accents = get_bool(cf, c, "", "strip_accents", false);
  s.bert.handle_chinese_chars = get_bool(cf, c, "", "tokenize_chinese_chars", true);
  s.do_basic_tokenize = get_bool(cf, c, "", "do_basic_tokenize", true);
  if (c.contains("never_split") && !c["never_split"].is_null()) {
    if (!c["never_split"].is_array()) invalid(cf, "never_split is not a list");
    for (const json& t : c["never_split"]) {
      if (!t.is_string()) invalid(cf, "never_split holds something that is not a string");
      s.never_split.insert(t.get<std::string>());
    }
  }
  const std::string unk = config_token(c, "unk_token", "[UNK]"), sep = config_token(c, "sep_token", "[SEP]"),
                    pad = config_token(c, "pad_token", "[PAD]"), cls = config_token(c, "cls_token", "[CLS]"),
                    mask = config_token(c, "mask_token", "[MASK]");
  for (const auto& [name, tok] : {std::pair<const char*, std::string>{"unknown", unk}, {"classification", cls}, {"separator", sep}})
    if (!s.vocab.has(tok)) invalid("vocab.txt", std::string("has no ") + name + " token \"" + tok + "\"");
  // BertTokenizer's special tokens, in its order (unk, sep, pad, cls, mask, additional ones).
  s.basic_never_split = s.never_split;
  std::vector<std::string> specials = {unk, sep, pad, cls, mask};
  if (c.contains("additional_special_tokens") && c["additional_special_tokens"].is_array())
    for (std::size_t i = 0; i < c["additional_special_tokens"].size(); ++i) {
      const json one = json{{"t", c["additional_special_tokens"][i]}};
      specials.push_back(config_token(one, "t", ""));
    }
  for (const std::string& t : specials) {
    if (t.empty() || !s.vocab.has(t)) continue;  // not in vocab.txt: never matched
    AddedToken a;
    a.content = t;
    a.pattern = to_u32(t);
    a.id = s.vocab.id(t);
    a.special = true;
    s.added.push_back(a);
    s.lowercase_keeps.push_back(a.pattern);
    s.basic_never_split.insert(t);
    s.special_set.insert(a.id);
  }
  s.wordpiece.unk_token = unk;
  s.wordpiece.set_vocab(&s.vocab);
  s.kind = HfTokenizerKind::wordpiece;
  s.decoder = DecoderKind::wordpiece;
  const int cls_id = s.vocab.id(cls), sep_id = s.vocab.id(sep);
  bert_template(s, {-1, {cls_id}, {cls}, 0}, {-1, {sep_id}, {sep}, 0});
  s.specials.cls = cls_id, s.specials.sep = sep_id, s.specials.pad = s.vocab.id(pad),
  s.specials.mask = s.vocab.id(mask), s.specials.unk = s.vocab.id(unk);
}

// ---- vocab.json + merges.txt (GPT2Tokenizer) ---------------------------------------------
void load_gpt2_files(TokenizerSpec& s, const std::string& vocab_json, const std::string& merges_txt) {
  s.source = "vocab.json + merges.txt";
  s.python = true;
  read_vocab_object("vocab.json", parse_json("vocab.json", vocab_json), "vocab.json", s.vocab);
  // merges.txt: a first line "#version: …", then "a b" per line (the last line may lack "\n").
  std::size_t start = 0;
  int line = 0, rank = 0;
  while (start < merges_txt.size()) {
    std::size_t nl = merges_txt.find('\n', start);
    if (nl == std::string::npos) nl = merges_txt.size();
    std::string text = merges_txt.substr(start, nl - start);
    start = nl + 1;
    ++line;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (line == 1 && text.rfind("#version", 0) == 0) continue;
    if (text.empty() && start >= merges_txt.size()) break;  // the end
    const std::string where = "line " + std::to_string(line);
    try {
      validate_utf8(text);
    } catch (const Error& e) {
      invalid("merges.txt", where + " is not valid UTF-8 (" + e.what() + ")");
    }
    const auto [a, b] = split_merge("merges.txt", where, text);
    add_merge("merges.txt", where, s, a, b, rank++);
  }
  finish_byte_bpe("vocab.json", s);
  s.single = {{0, {}, {}, 0}};
  s.pair = {{0, {}, {}, 0}, {1, {}, {}, 1}};
  const int eos = s.vocab.id("<|endoftext|>");
  if (eos >= 0) {
    AddedToken a;
    a.content = "<|endoftext|>";
    a.pattern = to_u32(a.content);
    a.id = eos;
    a.special = true;
    s.added.push_back(a);
    s.special_set.insert(eos);
  }
}

void check_model_type(const TokenizerSpec& s, const std::string& model_type) {
  const bool bert_like = model_type == "bert" || model_type == "distilbert";
  if ((bert_like && s.kind != HfTokenizerKind::wordpiece) || (model_type == "gpt2" && s.kind != HfTokenizerKind::byte_bpe))
    invalid(s.source, std::string("holds a ") +
                          (s.kind == HfTokenizerKind::wordpiece ? "WordPiece" : s.kind == HfTokenizerKind::bpe ? "BPE" : "byte-level BPE") +
                          " tokenizer, but config.json's model_type is " + model_type);
}

}  // namespace

void load_tokenizer_spec(TokenizerSpec& s, const TokenizerFiles& f, const std::string& model_type) {
  const bool gpt2 = model_type == "gpt2";
  const bool bert_like = model_type == "bert" || model_type == "distilbert";
  if (!f.tokenizer_json.empty()) {
    load_tokenizer_json(s, f.tokenizer_json);
  } else if (!gpt2 && !f.vocab_txt.empty()) {
    load_vocab_txt(s, f.vocab_txt, f.tokenizer_config_json);
  } else if (!bert_like && (!f.vocab_json.empty() || !f.merges_txt.empty())) {
    if (f.vocab_json.empty()) throw Error("vocab.json is missing (merges.txt needs it)", "tokenizer_file_missing", {{"file", "vocab.json"}, {"with", "merges.txt"}});
    if (f.merges_txt.empty()) throw Error("merges.txt is missing (vocab.json needs it)", "tokenizer_file_missing", {{"file", "merges.txt"}, {"with", "vocab.json"}});
    load_gpt2_files(s, f.vocab_json, f.merges_txt);
  } else {
    const std::string want = gpt2 ? "tokenizer.json or vocab.json + merges.txt"
                                  : bert_like ? "tokenizer.json or vocab.txt" : "tokenizer.json, vocab.txt or vocab.json + merges.txt";
    throw Error("no tokenizer files: the model needs " + want, "tokenizer_files_none", {{"needs", want}});
  }
  check_model_type(s, model_type);
  if (s.kind == HfTokenizerKind::wordpiece) s.wordpiece.set_vocab(&s.vocab);
  if (!s.python) {
    // Added tokens that match normalised text are matched in their normalised spelling.
    for (AddedToken& t : s.added) {
      t.pattern = to_u32(t.content);
      if (t.normalized) {
        std::u32string p;
        for (const SpanChar& c : run_normalizers(s, span_text(t.content))) p += c.cp;
        t.pattern = p;
      }
    }
    if (s.single.empty()) s.single = {{0, {}, {}, 0}};
    if (s.pair.empty()) s.pair = {{0, {}, {}, 0}, {1, {}, {}, 1}};
    const std::pair<int*, const char*> names[] = {{&s.specials.cls, "[CLS]"}, {&s.specials.sep, "[SEP]"},
                                                  {&s.specials.mask, "[MASK]"}, {&s.specials.pad, "[PAD]"},
                                                  {&s.specials.unk, "[UNK]"}};
    for (const auto& [slot, name] : names) *slot = s.vocab.id(name);
    if (s.kind == HfTokenizerKind::wordpiece) s.specials.unk = s.vocab.id(s.wordpiece.unk_token);
  }
  s.specials.eos = s.vocab.id("<|endoftext|>");
}

}  // namespace ew
