// split_regex.cpp — a small backtracking matcher for tokenizer.json's regexes (split_regex.h):
// a recursive-descent parser into a tree of items, and a matcher that walks a sequence of items
// with an explicit continuation (what follows the group it is in), so alternation backtracks
// the way Oniguruma's does.
#include "text/split_regex.h"

#include <algorithm>
#include <climits>
#include <cstdint>

#include "model/error.h"
#include "text/unicode_data.h"
#include "text/unicode_norm.h"

namespace ew {

namespace {

// One test a class applies to a code point: a set of general categories, or White_Space.
struct Property {
  std::uint32_t categories = 0;  // bit (1 << Category) for each category in the set
  bool space = false;            // White_Space (\s)
  bool negate = false;
  bool test(char32_t cp) const {
    const bool in = space ? is_white_space(cp) : ((categories >> static_cast<int>(general_category(cp))) & 1u) != 0;
    return in != negate;
  }
};

struct CharSet {
  bool negate = false, any_but_newline = false;
  std::vector<std::pair<char32_t, char32_t>> ranges;
  std::vector<Property> props;
  bool test(char32_t cp) const {
    if (any_but_newline) return cp != '\n';
    bool in = false;
    for (const auto& [a, b] : ranges) in = in || (cp >= a && cp <= b);
    for (const Property& p : props) in = in || p.test(cp);
    return in != negate;
  }
};

struct Item;
using Seq = std::vector<Item>;

// A character (or class) with its repetition, a group of alternatives, or a lookahead.
struct Item {
  enum Kind { chars, group, look } kind = chars;
  CharSet set;
  bool icase = false;  // case-insensitive: the set is also tried on the code point's folding
  int min = 1, max = 1;
  bool lazy = false;
  std::vector<Seq> alts;  // group, look
  bool negative = false;  // look: (?!…)
  bool matches(char32_t cp) const;
};

char32_t fold(char32_t cp) {
  const std::u32string_view l = lowercase_mapping(cp);
  return l.size() == 1 ? l[0] : cp;
}

bool Item::matches(char32_t cp) const {
  if (set.test(cp)) return true;
  return icase && fold(cp) != cp && set.test(fold(cp));
}

std::uint32_t bit(Category c) { return 1u << static_cast<int>(c); }

// "L", "Lu", "N", … → the set of categories; 0 if unknown.
std::uint32_t category_set(const std::string& name) {
  std::uint32_t out = 0;
  for (int c = 0; c <= static_cast<int>(Category::Co); ++c) {
    const std::string n = category_name(static_cast<Category>(c));
    if (n == name || (name.size() == 1 && n[0] == name[0])) out |= 1u << c;
  }
  return out;
}

class Parser {
 public:
  explicit Parser(std::u32string p, std::string src) : p_(std::move(p)), src_(std::move(src)) {}
  std::vector<Seq> parse() {
    std::vector<Seq> alts = alternation(false);
    if (i_ < p_.size()) fail("an unmatched )");
    return alts;
  }

 private:
  static constexpr int kMaxDepth = 32;
  std::u32string p_;
  std::string src_;
  std::size_t i_ = 0;
  int depth_ = 0;

  [[noreturn]] void fail(const std::string& what) const {
    throw Error("the regex \"" + src_ + "\" uses " + what + " (at character " + std::to_string(i_) +
                    "), which is not supported",
                "regex_unsupported", {{"pattern", src_}, {"what", what}});
  }
  bool more() const { return i_ < p_.size(); }
  char32_t peek() const { return p_[i_]; }
  bool eat(char32_t c) {
    if (more() && peek() == c) return ++i_, true;
    return false;
  }

  std::vector<Seq> alternation(bool icase) {
    std::vector<Seq> alts(1);
    while (more() && peek() != ')') {
      if (eat('|')) alts.emplace_back();
      else alts.back().push_back(quantified(icase));
    }
    return alts;
  }

  Item quantified(bool icase) {
    Item it = atom(icase);
    if (!more()) return it;
    const char32_t q = peek();
    if (q != '?' && q != '*' && q != '+' && q != '{') return it;
    if (it.kind != Item::chars) fail("a quantifier on a group");
    if (it.min != 1 || it.max != 1) fail("a quantifier on a quantifier");
    ++i_;
    if (q == '?') it.min = 0;
    else if (q == '*') it.min = 0, it.max = INT_MAX;
    else if (q == '+') it.max = INT_MAX;
    else braces(it);
    if (eat('?')) it.lazy = true;
    else if (more() && peek() == '+') fail("a possessive quantifier");
    return it;
  }

  int number() {
    if (!more() || peek() < '0' || peek() > '9') fail("a malformed {n,m}");
    long v = 0;
    // the digit as a long: peek() is a code point (char32_t), which would make the sum unsigned on wasm32
    while (more() && peek() >= '0' && peek() <= '9') v = std::min(v * 10 + static_cast<long>(peek() - '0'), 100000L), ++i_;
    return static_cast<int>(v);
  }

  void braces(Item& it) {
    it.min = number();
    it.max = it.min;
    if (eat(',')) it.max = more() && peek() == '}' ? INT_MAX : number();
    if (!eat('}') || it.max < it.min) fail("a malformed {n,m}");
  }

  Item atom(bool icase) {
    Item it;
    it.icase = icase;
    const char32_t c = p_[i_++];
    if (c == '(') return group(icase);
    if (c == '[') it.set = char_class();
    else if (c == '.') it.set.any_but_newline = true;
    else if (c == '\\') escape(it.set, false);
    else if (c == '^' || c == '$') fail("an anchor");
    else if (c == '*' || c == '+' || c == '?' || c == '{') fail("a quantifier with nothing before it");
    else it.set.ranges.push_back({c, c});
    if (icase)  // a literal letter matches its other case: add the upper case of a lower-case one
      for (auto& [a, b] : std::vector<std::pair<char32_t, char32_t>>(it.set.ranges))
        if (a == b && a >= 'a' && a <= 'z') it.set.ranges.push_back({a - 32, a - 32});
    return it;
  }

  Item group(bool icase) {
    if (++depth_ > kMaxDepth) fail("groups nested more than 32 deep");
    Item it;
    it.kind = Item::group;
    if (eat('?')) {
      if (eat(':')) {
      } else if (eat('i')) {
        if (!eat(':')) fail("an inline flag other than (?i:…)");
        icase = true;
      } else if (eat('=') || eat('!')) {
        it.kind = Item::look;
        it.negative = p_[i_ - 1] == '!';
      } else if (more() && peek() == '<') {
        fail("a lookbehind or named group");
      } else {
        fail("a group flag other than ?: ?i: ?= ?!");
      }
    }
    it.alts = alternation(icase);
    if (!eat(')')) fail("an unclosed (");
    it.icase = icase;
    --depth_;
    return it;
  }

  // After a backslash: a property, a class shorthand or an escaped character.
  void escape(CharSet& set, bool in_class) {
    if (!more()) fail("a trailing backslash");
    const char32_t e = p_[i_++];
    Property prop;
    switch (e) {
      case 'p': case 'P': {
        std::string name;
        if (!eat('{')) fail("\\p without {…}");
        while (more() && peek() != '}') name += static_cast<char>(p_[i_++]);
        if (!eat('}')) fail("an unclosed \\p{");
        prop.categories = category_set(name);
        if (!prop.categories) fail("the property \\p{" + name + "}");
        prop.negate = e == 'P';
        set.props.push_back(prop);
        return;
      }
      case 's': case 'S': prop.space = true, prop.negate = e == 'S'; set.props.push_back(prop); return;
      case 'd': case 'D': prop.categories = bit(Category::Nd), prop.negate = e == 'D'; set.props.push_back(prop); return;
      case 'w': case 'W':
        prop.categories = category_set("L") | category_set("M") | bit(Category::Nd) | bit(Category::Pc);
        prop.negate = e == 'W';
        set.props.push_back(prop);
        return;
      case 'r': set.ranges.push_back({'\r', '\r'}); return;
      case 'n': set.ranges.push_back({'\n', '\n'}); return;
      case 't': set.ranges.push_back({'\t', '\t'}); return;
      case 'f': set.ranges.push_back({'\f', '\f'}); return;
      case 'v': set.ranges.push_back({'\v', '\v'}); return;
      default: break;
    }
    if ((e >= '0' && e <= '9') || (!in_class && (e == 'b' || e == 'B' || e == 'A' || e == 'z' || e == 'Z' || e == 'G')))
      fail(std::string("the escape \\") + static_cast<char>(e));
    if ((e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z')) fail(std::string("the escape \\") + static_cast<char>(e));
    set.ranges.push_back({e, e});
  }

  CharSet char_class() {
    CharSet set;
    set.negate = eat('^');
    bool first = true;
    while (more() && (peek() != ']' || first)) {
      first = false;
      if (peek() == '[') fail("a nested class");
      CharSet one;
      const char32_t c = p_[i_++];
      if (c == '\\') escape(one, true);
      else one.ranges.push_back({c, c});
      // A range a-z: both ends single characters.
      if (one.props.empty() && more() && peek() == '-' && i_ + 1 < p_.size() && p_[i_ + 1] != ']') {
        ++i_;
        CharSet hi;
        const char32_t h = p_[i_++];
        if (h == '\\') escape(hi, true);
        else hi.ranges.push_back({h, h});
        if (!hi.props.empty() || hi.ranges[0].first < one.ranges[0].first) fail("a malformed range in [...]");
        set.ranges.push_back({one.ranges[0].first, hi.ranges[0].first});
        continue;
      }
      set.ranges.insert(set.ranges.end(), one.ranges.begin(), one.ranges.end());
      set.props.insert(set.props.end(), one.props.begin(), one.props.end());
    }
    if (!eat(']')) fail("an unclosed [");
    return set;
  }
};

// What follows the sequence being matched: the rest of an enclosing sequence.
struct Cont {
  const Seq* seq;
  std::size_t i;
  const Cont* next;
};

class Matcher {
 public:
  explicit Matcher(const std::u32string& t) : t_(t), n_(static_cast<int>(t.size())) {}
  int end = -1;     // where the last successful top-level match ended
  long steps = 0;   // items tried from the current start position (a budget against blow-ups)

  bool seq(const Seq& s, std::size_t i, int pos, const Cont* k) {
    // Alternatives inside groups can still backtrack exponentially ((?:a|a)(?:a|a)…c); the real
    // patterns take a few steps per character of a run, far below this.
    if (++steps > kMaxSteps)
      throw Error("a regex of tokenizer.json takes too long on this text (more than 1,000,000 steps at one position)",
                  "regex_too_slow", {});
    if (i == s.size()) {
      if (k) return seq(*k->seq, k->i, pos, k->next);
      end = pos;
      return true;
    }
    const Item& it = s[i];
    if (it.kind == Item::chars) return repeat(s, i, pos, k);
    if (it.kind == Item::group) {
      const Cont c{&s, i + 1, k};
      for (const Seq& a : it.alts)
        if (seq(a, 0, pos, &c)) return true;
      return false;
    }
    const int saved = end;  // a lookahead matches on its own, then the sequence goes on at pos
    bool found = false;
    for (const Seq& a : it.alts) found = found || seq(a, 0, pos, nullptr);
    end = saved;
    return found != it.negative && seq(s, i + 1, pos, k);
  }

 private:
  static constexpr long kMaxSteps = 1000000;
  const std::u32string& t_;
  int n_;

  bool repeat(const Seq& s, std::size_t i, int pos, const Cont* k) {
    const Item& it = s[i];
    int most = 0;  // how many of the next characters the item can take
    while (most < it.max && pos + most < n_ && it.matches(t_[static_cast<std::size_t>(pos + most)])) ++most;
    if (most < it.min) return false;
    if (it.lazy) {
      for (int c = it.min; c <= most; ++c)
        if (seq(s, i + 1, pos + c, k)) return true;
    } else {
      for (int c = most; c >= it.min; --c)
        if (seq(s, i + 1, pos + c, k)) return true;
    }
    return false;
  }
};

}  // namespace

struct SplitRegex::Impl {
  Seq whole;  // one group: the pattern's alternatives
  explicit Impl(std::vector<Seq> alts) {
    Item top;
    top.kind = Item::group;
    top.alts = std::move(alts);
    whole.push_back(std::move(top));
  }
};

SplitRegex::SplitRegex() = default;
SplitRegex::SplitRegex(SplitRegex&&) noexcept = default;
SplitRegex& SplitRegex::operator=(SplitRegex&&) noexcept = default;
SplitRegex::SplitRegex(const SplitRegex&) = default;
SplitRegex& SplitRegex::operator=(const SplitRegex&) = default;
SplitRegex::~SplitRegex() = default;

// Matching recurses once per item of a sequence: a bound on the pattern bounds the stack.
constexpr std::size_t kMaxPattern = 1024;

void check_length(const std::u32string& p, std::string_view src) {
  if (p.size() > kMaxPattern)
    throw Error("the regex \"" + std::string(src.substr(0, 40)) + "…\" is longer than 1,024 characters, which is not supported",
                "regex_unsupported", {{"pattern", std::string(src.substr(0, 40))}, {"what", "more than 1,024 characters"}});
}

SplitRegex SplitRegex::compile(std::string_view pattern) {
  const std::u32string p = to_u32(pattern);
  check_length(p, pattern);
  SplitRegex r;
  r.impl_ = std::make_shared<Impl>(Parser(p, std::string(pattern)).parse());
  return r;
}

SplitRegex SplitRegex::literal(std::string_view text) {
  const std::u32string p = to_u32(text);
  check_length(p, text);
  Seq s;
  for (char32_t c : p) {
    Item it;
    it.set.ranges.push_back({c, c});
    s.push_back(it);
  }
  SplitRegex r;
  r.impl_ = std::make_shared<Impl>(std::vector<Seq>{std::move(s)});
  return r;
}

std::vector<std::pair<int, int>> SplitRegex::find_all(const std::u32string& text) const {
  std::vector<std::pair<int, int>> out;
  Matcher m(text);
  const Seq& whole = impl_->whole;
  const int n = static_cast<int>(text.size());
  for (int pos = 0; pos < n;) {
    m.steps = 0;
    if (m.seq(whole, 0, pos, nullptr) && m.end > pos) {
      out.emplace_back(pos, m.end);
      pos = m.end;
    } else {
      ++pos;
    }
  }
  return out;
}

}  // namespace ew
