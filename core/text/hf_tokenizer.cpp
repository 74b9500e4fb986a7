// hf_tokenizer.cpp — encoding and decoding with a loaded TokenizerSpec (hf_tokenizer.h):
// special tokens split off the text, then the flavour's normalisation, pre-tokenization and
// model, then the post-processing template ([CLS] A [SEP] B [SEP]).
#include "text/hf_tokenizer.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

#include "model/error.h"
#include "text/hf_tokenizer_spec.h"
#include "text/unicode_data.h"
#include "text/unicode_tables.h"

namespace ew {

namespace {

std::u32string code_points(const SpanText& t) {
  std::u32string u;
  u.reserve(t.size());
  for (const SpanChar& c : t) u += c.cp;
  return u;
}

// Replace: each match becomes the content, every character of which covers the whole match.
SpanText replace_matches(const SpanText& t, const SplitRegex& pattern, const std::u32string& content) {
  SpanText out;
  std::size_t done = 0;
  for (const auto& [a, b] : pattern.find_all(code_points(t))) {
    out.insert(out.end(), t.begin() + static_cast<std::ptrdiff_t>(done), t.begin() + a);
    for (char32_t c : content) out.push_back({c, t[static_cast<std::size_t>(a)].begin, t[static_cast<std::size_t>(b - 1)].end});
    done = static_cast<std::size_t>(b);
  }
  out.insert(out.end(), t.begin() + static_cast<std::ptrdiff_t>(done), t.end());
  return out;
}

// Prepend: before a non-empty text, covering its first character.
SpanText prepend(const SpanText& t, const std::u32string& text) {
  if (t.empty()) return t;
  SpanText out;
  for (char32_t c : text) out.push_back({c, t.front().begin, t.front().end});
  out.insert(out.end(), t.begin(), t.end());
  return out;
}

}  // namespace

SpanText run_normalizers(const TokenizerSpec& s, const SpanText& t) {
  SpanText out = t;
  for (const NormalizerStep& n : s.normalizers) {
    switch (n.kind) {
      case NormalizerKind::bert: out = bert_normalize(out, n.bert); break;
      case NormalizerKind::nfc: out = nfc(out); break;
      case NormalizerKind::nfd: out = nfd(out); break;
      case NormalizerKind::lowercase: out = lowercase(out); break;
      case NormalizerKind::strip_accents: out = drop_nonspacing_marks(out); break;
      case NormalizerKind::prepend: out = prepend(out, n.text); break;
      case NormalizerKind::replace: out = replace_matches(out, *n.pattern, n.text); break;
    }
  }
  return out;
}

namespace {

// A stretch of the text: an added token (id >= 0) or text for the model.
struct Segment {
  int id;
  SpanText text;
};

bool matches_at(const SpanText& t, std::size_t i, const std::u32string& p) {
  if (p.empty() || i + p.size() > t.size()) return false;
  for (std::size_t k = 0; k < p.size(); ++k)
    if (t[i + k].cp != p[k]) return false;
  return true;
}

SpanText slice(const SpanText& t, std::size_t a, std::size_t b) { return SpanText(t.begin() + a, t.begin() + b); }

// The tokenizers library's AddedVocabulary::find_matches: leftmost-longest matches of the
// tokens' patterns; single_word tokens only between non-word characters; lstrip/rstrip take
// the white space beside the token into it.
void split_added(const SpanText& t, const std::vector<const AddedToken*>& tokens, bool (*is_ws)(char32_t),
                 std::vector<Segment>& out) {
  std::unordered_multimap<char32_t, const AddedToken*> by_first;
  for (const AddedToken* a : tokens) by_first.emplace(a->pattern.empty() ? 0 : a->pattern[0], a);
  std::size_t done = 0, i = 0;
  while (i < t.size()) {
    const AddedToken* best = nullptr;
    const auto range = by_first.equal_range(t[i].cp);
    for (auto it = range.first; it != range.second; ++it)
      if ((!best || it->second->pattern.size() > best->pattern.size()) && matches_at(t, i, it->second->pattern))
        best = it->second;
    if (!best) {
      ++i;
      continue;
    }
    std::size_t start = i, stop = i + best->pattern.size();
    i = stop;
    if (best->single_word && ((start > 0 && is_word_char(t[start - 1].cp)) || (stop < t.size() && is_word_char(t[stop].cp))))
      continue;
    if (best->lstrip)
      while (start > done && is_ws(t[start - 1].cp)) --start;
    if (best->rstrip)
      while (stop < t.size() && is_ws(t[stop].cp)) ++stop;
    if (done < start) out.push_back({-1, slice(t, done, start)});
    out.push_back({best->id, slice(t, start, stop)});
    done = i = stop;
  }
  if (done < t.size()) out.push_back({-1, slice(t, done, t.size())});
}

bool python_space(char32_t cp) { return is_space_char(cp); }
bool library_space(char32_t cp) { return is_white_space(cp); }

// BertTokenizer.tokenize with do_lower_case: each code point lower-cased on its own
// (re.sub(r"(special|…)|(.+?)", …)), the special tokens' spellings left as they are.
SpanText lower_except(const SpanText& t, const std::vector<std::u32string>& keep) {
  SpanText out;
  out.reserve(t.size());
  for (std::size_t i = 0; i < t.size();) {
    std::size_t kept = 0;
    for (const std::u32string& k : keep)
      if (matches_at(t, i, k)) {
        kept = k.size();
        break;
      }
    if (kept) {
      out.insert(out.end(), t.begin() + i, t.begin() + i + kept);
      i += kept;
    } else {
      for (const SpanChar& c : lowercase(SpanText{t[i]})) out.push_back(c);
      ++i;
    }
  }
  return out;
}

// The library's Split: the text cut at the pattern's matches, each match then kept on its own,
// removed, or merged with its neighbour (SplitDelimiterBehavior); invert swaps match and gap.
void split_word(const PreTokenizerStep& p, const SpanText& w, std::vector<SpanText>& out) {
  struct Range {
    int a, b;
    bool match;
  };
  std::vector<Range> ranges;
  int done = 0;
  for (const auto& [a, b] : p.pattern->find_all(code_points(w))) {
    if (done < a) ranges.push_back({done, a, p.invert});
    ranges.push_back({a, b, !p.invert});
    done = b;
  }
  if (done < static_cast<int>(w.size())) ranges.push_back({done, static_cast<int>(w.size()), p.invert});
  std::vector<Range> pieces;
  const bool backwards = p.behavior == SplitBehavior::merged_with_next;
  bool previous = false;  // the last range seen was a match
  for (std::size_t k = 0; k < ranges.size(); ++k) {
    const Range r = ranges[backwards ? ranges.size() - 1 - k : k];
    bool join = false;
    switch (p.behavior) {
      case SplitBehavior::removed: if (r.match) continue; break;
      case SplitBehavior::isolated: break;
      case SplitBehavior::merged_with_previous: case SplitBehavior::merged_with_next: join = r.match && !previous; break;
      case SplitBehavior::contiguous: join = r.match == previous; break;
    }
    previous = r.match;
    if (join && !pieces.empty()) (backwards ? pieces.back().a : pieces.back().b) = backwards ? r.a : r.b;
    else pieces.push_back(r);
  }
  if (backwards) std::reverse(pieces.begin(), pieces.end());
  for (const Range& r : pieces)
    if (r.a < r.b) out.push_back(slice(w, static_cast<std::size_t>(r.a), static_cast<std::size_t>(r.b)));
}

std::vector<SpanText> run_pre_tokenizers(const TokenizerSpec& s, const SpanText& t) {
  std::vector<SpanText> words = {t};
  for (const PreTokenizerStep& p : s.pre_tokenizers) {
    std::vector<SpanText> next;
    for (SpanText& w : words) {
      if (w.empty()) continue;
      if (p.kind == PreTokenizerKind::bert) {
        for (SpanText& x : bert_pre_tokenize(w)) next.push_back(std::move(x));
      } else if (p.kind == PreTokenizerKind::split) {
        split_word(p, w, next);
      } else if (p.kind == PreTokenizerKind::whitespace_split) {
        SpanText cur;
        for (const SpanChar& c : w) {
          if (!is_white_space(c.cp)) cur.push_back(c);
          else if (!cur.empty()) next.push_back(std::move(cur)), cur.clear();
        }
        if (!cur.empty()) next.push_back(std::move(cur));
      } else {
        if (p.add_prefix_space && w.front().cp != ' ') w.insert(w.begin(), SpanChar{' ', w.front().begin, w.front().begin});
        if (!p.use_regex) {
          next.push_back(std::move(w));
          continue;
        }
        for (const auto& [a, b] : gpt2_pre_tokenize(w)) next.push_back(slice(w, a, b));
      }
    }
    words = std::move(next);
  }
  return words;
}

void model_pieces(const TokenizerSpec& s, const SpanText& word, std::vector<Piece>& out) {
  if (s.kind == HfTokenizerKind::wordpiece) s.wordpiece.encode_word(word, out);
  else if (!word.empty()) s.bpe.encode_word(word, 0, static_cast<int>(word.size()), out);
}

// The pieces of one text segment (no added tokens in it).
void text_pieces(const TokenizerSpec& s, const SpanText& seg, std::vector<Piece>& out) {
  if (!s.python) {
    std::vector<Segment> parts;
    std::vector<const AddedToken*> normalized;
    for (const AddedToken& a : s.added)
      if (a.normalized) normalized.push_back(&a);
    split_added(run_normalizers(s, seg), normalized, library_space, parts);
    for (const Segment& p : parts) {
      if (p.id >= 0) out.push_back({p.id, s.vocab.tokens[static_cast<std::size_t>(p.id)], p.text.front().begin, p.text.back().end});
      else for (const SpanText& w : run_pre_tokenizers(s, p.text)) model_pieces(s, w, out);
    }
  } else if (s.kind == HfTokenizerKind::byte_bpe) {
    for (const auto& [a, b] : gpt2_pre_tokenize(seg)) s.bpe.encode_word(seg, a, b, out);
  } else {
    std::vector<SpanText> words;
    if (s.do_basic_tokenize) {
      words = bert_basic_tokenize(seg, s.bert, s.basic_never_split);
    } else {
      SpanText cur;
      for (const SpanChar& c : seg) {
        if (!is_space_char(c.cp)) cur.push_back(c);
        else if (!cur.empty()) words.push_back(std::move(cur)), cur.clear();
      }
      if (!cur.empty()) words.push_back(std::move(cur));
    }
    for (const SpanText& w : words) {
      const std::string text = to_utf8(w);
      if (s.never_split.count(text)) {  // kept whole: its id, or [UNK]'s
        const int id = s.vocab.id(text);
        const int use = id >= 0 ? id : s.vocab.id(s.wordpiece.unk_token);
        out.push_back({use, s.vocab.tokens[static_cast<std::size_t>(use)], w.front().begin, w.back().end});
      } else {
        s.wordpiece.encode_word(w, out);
      }
    }
  }
}

std::vector<Piece> encode_text(const TokenizerSpec& s, std::string_view text) {
  SpanText t = span_text(text);
  if (s.python && s.kind == HfTokenizerKind::wordpiece && s.bert.lowercase) t = lower_except(t, s.lowercase_keeps);
  std::vector<const AddedToken*> first_pass;  // matched in the text as written
  for (const AddedToken& a : s.added)
    if (s.python || !a.normalized) first_pass.push_back(&a);
  std::vector<Segment> segs;
  split_added(t, first_pass, s.python ? python_space : library_space, segs);
  std::vector<Piece> out;
  for (const Segment& seg : segs) {
    if (seg.id >= 0) out.push_back({seg.id, s.vocab.tokens[static_cast<std::size_t>(seg.id)], seg.text.front().begin, seg.text.back().end});
    else text_pieces(s, seg.text, out);
  }
  return out;
}

HfEncoding assemble(const TokenizerSpec& s, const std::vector<TemplateItem>& tmpl, const std::vector<Piece>* texts[2]) {
  HfEncoding e;
  for (const TemplateItem& item : tmpl) {
    if (item.sequence < 0) {
      for (std::size_t k = 0; k < item.ids.size(); ++k) {
        e.ids.push_back(item.ids[k]);
        e.pieces.push_back(item.tokens[k]);
        e.type_ids.push_back(item.type_id);
        e.sequence.push_back(-1);
        e.offsets.emplace_back(0, 0);
      }
      continue;
    }
    for (const Piece& p : *texts[item.sequence]) {
      e.ids.push_back(p.id);
      e.pieces.push_back(p.token);
      e.type_ids.push_back(item.type_id);
      e.sequence.push_back(item.sequence);
      e.offsets.emplace_back(p.begin, p.end);
    }
  }
  for (int id : e.ids) e.special.push_back(s.special_set.count(id) ? 1 : 0);
  return e;
}

// transformers' clean_up_tokenization (the WordPiece decoder's cleanup in the library adds
// " do not" → " don't").
std::string cleanup(std::string s, bool library) {
  static const std::pair<const char*, const char*> kRules[] = {
      {" .", "."}, {" ?", "?"}, {" !", "!"}, {" ,", ","}, {" ' ", "'"}, {" n't", "n't"}, {" 'm", "'m"},
      {" do not", " don't"}, {" 's", "'s"}, {" 've", "'ve"}, {" 're", "'re"}};
  for (const auto& [from, to] : kRules) {
    if (!library && std::string(from) == " do not") continue;
    const std::string f = from, t = to;
    for (std::size_t at = s.find(f); at != std::string::npos; at = s.find(f, at + t.size())) s.replace(at, f.size(), t);
  }
  return s;
}

std::string decode_wordpiece(const TokenizerSpec& s, const std::vector<std::string>& toks) {
  if (s.python) {  // " ".join(tokens).replace(" ##", "").strip(), then clean-up
    std::string joined;
    for (std::size_t i = 0; i < toks.size(); ++i) joined += (i ? " " : "") + toks[i];
    const std::string cont = " " + s.wordpiece.prefix;
    for (std::size_t at = joined.find(cont); at != std::string::npos; at = joined.find(cont, at)) joined.erase(at, cont.size());
    const std::size_t a = joined.find_first_not_of(" \t\n\r\f\v"), b = joined.find_last_not_of(" \t\n\r\f\v");
    return cleanup(a == std::string::npos ? std::string() : joined.substr(a, b - a + 1), false);
  }
  std::string out;  // the library's WordPiece decoder, token by token
  for (std::size_t i = 0; i < toks.size(); ++i) {
    std::string t = toks[i];
    if (i) t = t.rfind(s.decoder_prefix, 0) == 0 ? t.substr(s.decoder_prefix.size()) : " " + t;
    out += s.decoder_cleanup ? cleanup(t, true) : t;
  }
  return out;
}

// "<0xE2>" → 0xE2; -1 for any other token (the library's ByteFallback test).
int fallback_byte(const std::string& t) {
  if (t.size() != 6 || t.compare(0, 3, "<0x") != 0 || t[5] != '>') return -1;
  int v = 0;
  for (int k = 3; k < 5; ++k) {
    const char c = t[static_cast<std::size_t>(k)];
    const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

// ByteFallback: runs of byte tokens become their UTF-8 text, or one U+FFFD per byte if invalid.
std::vector<std::string> fuse_bytes(const std::vector<std::string>& toks) {
  std::vector<std::string> out;
  std::string bytes;
  auto flush = [&] {
    if (bytes.empty()) return;
    if (utf8_lossy(bytes) == bytes) out.push_back(bytes);
    else for (std::size_t k = 0; k < bytes.size(); ++k) out.push_back("\xEF\xBF\xBD");
    bytes.clear();
  };
  for (const std::string& t : toks) {
    const int b = fallback_byte(t);
    if (b >= 0) {
      bytes += static_cast<char>(b);
      continue;
    }
    flush();
    out.push_back(t);
  }
  flush();
  return out;
}

// Strip: up to `start` copies of the character c at the front and `stop` at the back.
std::string strip_chars(std::string t, const std::string& c, int start, int stop) {
  for (int k = 0; k < start && t.compare(0, c.size(), c) == 0; ++k) t.erase(0, c.size());
  for (int k = 0; k < stop && t.size() >= c.size() && t.compare(t.size() - c.size(), c.size(), c) == 0; ++k)
    t.erase(t.size() - c.size());
  return t;
}

// A Sequence of decoders, each over the list of token strings, then joined (decode_chain).
std::string decode_steps(const TokenizerSpec& s, std::vector<std::string> toks) {
  for (const DecodeStep& d : s.decode_steps) {
    switch (d.kind) {
      case DecodeStepKind::replace:
        for (std::string& t : toks)
          for (std::size_t at = t.find(d.from); at != std::string::npos; at = t.find(d.from, at + d.to.size()))
            t.replace(at, d.from.size(), d.to);
        break;
      case DecodeStepKind::byte_fallback: toks = fuse_bytes(toks); break;
      case DecodeStepKind::fuse: {
        std::string all;
        for (const std::string& t : toks) all += t;
        toks = {all};
        break;
      }
      case DecodeStepKind::strip:
        for (std::string& t : toks) t = strip_chars(t, d.from, d.strip_start, d.strip_stop);
        break;
      case DecodeStepKind::byte_level: {
        std::string bytes;
        for (const std::string& t : toks) bytes += symbols_to_bytes(t);
        toks = {utf8_lossy(bytes)};
        break;
      }
    }
  }
  std::string out;
  for (const std::string& t : toks) out += t;
  return out;
}

}  // namespace

HfTokenizer::HfTokenizer(std::unique_ptr<TokenizerSpec> spec) : spec_(std::move(spec)) {}
HfTokenizer::HfTokenizer(HfTokenizer&&) noexcept = default;
HfTokenizer& HfTokenizer::operator=(HfTokenizer&&) noexcept = default;
HfTokenizer::~HfTokenizer() = default;

HfTokenizer HfTokenizer::from_files(const TokenizerFiles& files, const std::string& model_type) {
  auto spec = std::make_unique<TokenizerSpec>();
  load_tokenizer_spec(*spec, files, model_type);
  return HfTokenizer(std::move(spec));
}

HfEncoding HfTokenizer::encode(std::string_view text) const {
  const std::vector<Piece> a = encode_text(*spec_, text);
  const std::vector<Piece>* texts[2] = {&a, nullptr};
  return assemble(*spec_, spec_->single, texts);
}

HfEncoding HfTokenizer::encode(std::string_view text, std::string_view text2) const {
  const std::vector<Piece> a = encode_text(*spec_, text), b = encode_text(*spec_, text2);
  const std::vector<Piece>* texts[2] = {&a, &b};
  return assemble(*spec_, spec_->pair, texts);
}

std::string HfTokenizer::decode(const std::vector<int>& ids, bool skip_special_tokens) const {
  std::vector<std::string> toks;
  for (int id : ids) {
    if (skip_special_tokens && is_special(id)) continue;
    toks.push_back(token(id));
  }
  switch (spec_->decoder) {
    case DecoderKind::byte_level: {
      std::string bytes;
      for (const std::string& t : toks) bytes += symbols_to_bytes(t);
      return utf8_lossy(bytes);
    }
    case DecoderKind::wordpiece: return decode_wordpiece(*spec_, toks);
    case DecoderKind::steps: return decode_steps(*spec_, toks);
    case DecoderKind::none: break;
  }
  std::string out;
  for (std::size_t i = 0; i < toks.size(); ++i) out += (i ? " " : "") + toks[i];
  return out;
}

HfTokenizerKind HfTokenizer::kind() const { return spec_->kind; }
const char* HfTokenizer::source() const { return spec_->source.c_str(); }
int HfTokenizer::vocab_size() const { return spec_->vocab.size(); }

const std::string& HfTokenizer::token(int id) const {
  if (id < 0 || id >= vocab_size())
    throw Error("token id " + std::to_string(id) + " is not in the vocabulary (0 … " + std::to_string(vocab_size() - 1) + ")",
                "token_id_out_of_range", {{"id", std::to_string(id)}, {"size", std::to_string(vocab_size())}});
  return spec_->vocab.tokens[static_cast<std::size_t>(id)];
}

int HfTokenizer::id(const std::string& token) const { return spec_->vocab.id(token); }
bool HfTokenizer::is_special(int id) const { return spec_->special_set.count(id) != 0; }
SpecialTokenIds HfTokenizer::special_ids() const { return spec_->specials; }

PieceNote piece_note(std::string_view piece, HfTokenizerKind kind, bool special) {
  if (special) return {std::string(piece), "special", "a special token the model was trained with"};
  if (kind == HfTokenizerKind::wordpiece) {
    if (piece.substr(0, 2) == "##")
      return {std::string(piece.substr(2)), "continues", "## means: continues the word before it, with no space between"};
    return {std::string(piece), "word_start", "starts a word"};
  }
  std::string bytes;
  if (kind == HfTokenizerKind::byte_bpe) {
    bytes = symbols_to_bytes(piece);
  } else if (fallback_byte(std::string(piece)) >= 0) {
    bytes = std::string(1, static_cast<char>(fallback_byte(std::string(piece))));
  } else {  // ▁ stands for a space
    bytes = std::string(piece);
    for (std::size_t at = bytes.find("\xE2\x96\x81"); at != std::string::npos; at = bytes.find("\xE2\x96\x81", at + 1))
      bytes.replace(at, 3, " ");
  }
  if (utf8_lossy(bytes) != bytes) {  // some bytes of a character the vocabulary splits
    std::string hex = "<";
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      char b[4];
      std::snprintf(b, sizeof b, "%02X", static_cast<unsigned char>(bytes[i]));
      hex += (i ? " " : "") + std::string(b);
    }
    return {hex + ">", "bytes", "some bytes of a character that the vocabulary splits into several pieces"};
  }
  std::string text;
  for (const SpanChar& c : span_text(bytes)) {
    if (c.cp == ' ') text += "\xC2\xB7";          // ·
    else if (c.cp == '\n') text += "\xE2\x86\xB5";  // ↵
    else if (c.cp == '\t') text += "\xE2\x86\x92";  // →
    else append_utf8(text, c.cp);
  }
  if (!bytes.empty() && bytes[0] == ' ' && kind == HfTokenizerKind::bpe)
    return {text, "space_before", "\xE2\x96\x81 stands for a space before the piece (shown as \xC2\xB7): \xE2\x96\x81the is \" the\""};
  if (!bytes.empty() && bytes[0] == ' ')
    return {text, "space_before", "\xC4\xA0 stands for a space before the piece (shown as \xC2\xB7): \xC4\xA0the is \" the\""};
  return {text, "no_space", "joins the piece before it with no space between"};
}

}  // namespace ew
