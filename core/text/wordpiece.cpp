// wordpiece.cpp — BERT's basic tokenizer (both flavours, see wordpiece.h) and WordPiece.
#include "text/wordpiece.h"

#include <algorithm>

#include "model/error.h"
#include "text/unicode_data.h"
#include "text/unicode_tables.h"

namespace ew {

namespace {

bool is_control(char32_t cp, BertFlavor flavor) {
  if (cp == '\t' || cp == '\n' || cp == '\r') return false;
  if (flavor == BertFlavor::python) return is_other(cp);  // category starts with "C", Cn included
  const Category c = general_category(cp);
  return c == Category::Cc || c == Category::Cf || c == Category::Co;
}

bool is_bert_whitespace(char32_t cp, BertFlavor flavor) {
  if (cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r') return true;
  return flavor == BertFlavor::python ? general_category(cp) == Category::Zs : is_white_space(cp);
}

// _clean_text / do_clean_text: drop NUL, U+FFFD and control characters; white space → ' '.
SpanText clean(const SpanText& t, BertFlavor flavor) {
  SpanText out;
  out.reserve(t.size());
  for (SpanChar c : t) {
    if (c.cp == 0 || c.cp == 0xFFFD || is_control(c.cp, flavor)) continue;
    if (is_bert_whitespace(c.cp, flavor)) c.cp = ' ';
    out.push_back(c);
  }
  return out;
}

// _tokenize_chinese_chars / do_handle_chinese_chars: a space either side of each ideograph.
SpanText pad_chinese(const SpanText& t, BertFlavor flavor) {
  SpanText out;
  out.reserve(t.size());
  for (const SpanChar& c : t) {
    if (is_bert_chinese_char(c.cp, flavor)) {
      out.push_back({' ', c.begin, c.begin});
      out.push_back(c);
      out.push_back({' ', c.end, c.end});
    } else {
      out.push_back(c);
    }
  }
  return out;
}

SpanText strip_accents(const SpanText& t) { return drop_nonspacing_marks(nfd(t)); }

// Splits at code points for which is_space(cp) holds, dropping them (str.split()).
template <class Pred>
std::vector<SpanText> split_on(const SpanText& t, Pred is_space) {
  std::vector<SpanText> out;
  SpanText cur;
  for (const SpanChar& c : t) {
    if (is_space(c.cp)) {
      if (!cur.empty()) out.push_back(std::move(cur));
      cur.clear();
    } else {
      cur.push_back(c);
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

// _run_split_on_punc: every punctuation code point becomes a word of its own.
void split_punctuation(const SpanText& word, std::vector<SpanText>& out) {
  SpanText cur;
  for (const SpanChar& c : word) {
    if (is_bert_punctuation(c.cp)) {
      if (!cur.empty()) out.push_back(std::move(cur));
      cur.clear();
      out.push_back({c});
    } else {
      cur.push_back(c);
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
}

}  // namespace

bool is_bert_chinese_char(char32_t cp, BertFlavor flavor) {
  const char32_t ext_e = flavor == BertFlavor::python ? 0x2B820 : 0x2B920;
  return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x20000 && cp <= 0x2A6DF) ||
         (cp >= 0x2A700 && cp <= 0x2B73F) || (cp >= 0x2B740 && cp <= 0x2B81F) || (cp >= ext_e && cp <= 0x2CEAF) ||
         (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x2F800 && cp <= 0x2FA1F);
}

bool is_bert_punctuation(char32_t cp) {
  if ((cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) || (cp >= 123 && cp <= 126))
    return true;
  return cp >= 0x80 && is_punctuation(cp);
}

std::vector<SpanText> bert_basic_tokenize(const SpanText& text, const BertNormalizerOptions& opt,
                                          const std::set<std::string>& never_split) {
  SpanText t = opt.clean_text ? clean(text, BertFlavor::python) : text;
  if (opt.handle_chinese_chars) t = pad_chinese(t, BertFlavor::python);
  t = nfc(t);
  std::vector<SpanText> words;
  for (SpanText& w : split_on(t, is_space_char)) {
    if (!never_split.empty() && never_split.count(to_utf8(w))) {
      words.push_back(std::move(w));
      continue;
    }
    if (opt.lowercase) w = lowercase(w);
    if (opt.strips_accents()) w = strip_accents(w);
    split_punctuation(w, words);
  }
  return words;
}

SpanText bert_normalize(const SpanText& text, const BertNormalizerOptions& opt) {
  SpanText t = opt.clean_text ? clean(text, BertFlavor::library) : text;
  if (opt.handle_chinese_chars) t = pad_chinese(t, BertFlavor::library);
  if (opt.strips_accents()) t = strip_accents(t);
  if (opt.lowercase) t = lowercase(t);
  return t;
}

std::vector<SpanText> bert_pre_tokenize(const SpanText& text) {
  std::vector<SpanText> words;
  for (const SpanText& w : split_on(text, [](char32_t cp) { return is_white_space(cp); })) split_punctuation(w, words);
  return words;
}

void WordPiece::set_vocab(const TokenVocab* v) {
  vocab = v;
  longest_token = 0;
  for (const std::string& t : v->tokens) {
    int n = 0;
    for (unsigned char b : t) n += (b & 0xC0) != 0x80;
    longest_token = std::max(longest_token, n);
  }
}

void WordPiece::encode_word(const SpanText& word, std::vector<Piece>& out) const {
  if (word.empty()) return;
  const int n = static_cast<int>(word.size());
  const int unk = vocab->id(unk_token);
  if (unk < 0) throw Error("the vocabulary has no unknown token \"" + unk_token + "\"");
  const Piece whole_unk{unk, unk_token, word.front().begin, word.back().end};
  if (n > max_input_chars_per_word) {
    out.push_back(whole_unk);
    return;
  }
  const std::size_t mark = out.size();
  for (int start = 0; start < n;) {
    // No vocabulary entry is longer than longest_token code points: start there.
    int end = std::min(n, start + std::max(longest_token, 1));
    int found = -1;
    std::string sub;
    for (; end > start; --end) {
      sub = (start > 0 ? prefix : std::string()) + to_utf8(word, start, end);
      found = vocab->id(sub);
      if (found >= 0) break;
    }
    if (found < 0) {
      out.resize(mark);
      out.push_back(whole_unk);
      return;
    }
    out.push_back({found, sub, word[start].begin, word[end - 1].end});
    start = end;
  }
}

}  // namespace ew
