#!/usr/bin/python3
"""gen_unicode_data.py — writes core/text/unicode_data.cpp: the Unicode character data the
checkpoints' tokenizers (core/text/wordpiece.h, byte_bpe.h) need, from CPython's unicodedata and
str methods, so that the C++ core behaves as the Python tokenizers do on the same Unicode version:

  category    — unicodedata.category(c) for every assigned code point (unlisted: Cn)
  combining   — unicodedata.combining(c), the canonical combining class (unlisted: 0)
  decomposed  — the full canonical decomposition of every code point that has one (recursive;
                Hangul syllables are left to the algorithm in unicode_norm.cpp), i.e.
                unicodedata.normalize("NFD", c) where that differs from c
  composes    — the primary composites: pairs (a, b) whose NFC is one code point c, exactly
                unicodedata.normalize("NFC", a + b) == c for c's own two-part decomposition
                (this leaves out the composition exclusions and singletons, as NFC does)
  lower       — str.lower() of every code point where it differs (full mappings: İ -> i̇)
  white_space — the White_Space property (regex's \\s, Rust's char::is_whitespace):
                str.isspace() less U+001C..U+001F, which str.isspace() adds (bidi B/S)

The sibling scripts/gen_unicode_tables.py writes the \\w and str.isspace() classes of the
walkthrough's own tokenizers. Regenerate (same Python => same bytes):
    /usr/bin/python3 scripts/gen_unicode_data.py           # rewrites the file
    /usr/bin/python3 scripts/gen_unicode_data.py --check   # exit 1 if it is stale
"""
import os
import platform
import sys
import unicodedata

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "core", "text", "unicode_data.cpp")

# The order of the enum ew::Category in core/text/unicode_data.h (Cn first: the default).
CATEGORIES = ["Cn", "Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No", "Pc", "Pd", "Ps", "Pe",
              "Pi", "Pf", "Po", "Sm", "Sc", "Sk", "So", "Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co"]
HANGUL_FIRST, HANGUL_LAST = 0xAC00, 0xD7A3


def runs(value_of):
    """[(first, last, value)] over all code points where value_of(cp) is not None, merged."""
    out = []
    for cp in range(0x110000):
        v = value_of(cp)
        if v is None:
            continue
        if out and out[-1][1] == cp - 1 and out[-1][2] == v:
            out[-1][1] = cp
        else:
            out.append([cp, cp, v])
    return out


def rows(items, per_row):
    lines, row = [], []
    for it in items:
        row.append(it)
        if len(row) == per_row:
            lines.append("    " + ", ".join(row) + ",")
            row = []
    if row:
        lines.append("    " + ", ".join(row) + ",")
    return "\n".join(lines)


def hx(cp):
    return f"0x{cp:X}"


def category_table():
    def cat(cp):
        c = unicodedata.category(chr(cp))
        return None if c == "Cn" else CATEGORIES.index(c)
    rs = runs(cat)
    body = rows([f"{{{hx(a)}, {hx(b)}, {v}}}" for a, b, v in rs], 5)
    return f"const Run kCategory[] = {{  // {len(rs)} runs; value: index in ew::Category\n{body}\n}};", len(rs)


def combining_table():
    rs = runs(lambda cp: unicodedata.combining(chr(cp)) or None)
    body = rows([f"{{{hx(a)}, {hx(b)}, {v}}}" for a, b, v in rs], 5)
    return f"const Run kCombining[] = {{  // {len(rs)} runs of a nonzero canonical combining class\n{body}\n}};"


def sequences(name, comment, mapping):
    """A sorted table {cp, offset, length} into one flat array of code points."""
    flat, entries = [], []
    for cp, seq in mapping:
        entries.append(f"{{{hx(cp)}, {len(flat)}, {len(seq)}}}")
        flat.extend(seq)
    return (f"const char32_t k{name}Flat[] = {{  // {len(flat)} code points\n{rows([hx(c) for c in flat], 10)}\n}};\n\n"
            f"const Seq k{name}[] = {{  // {len(entries)} code points: {comment}\n{rows(entries, 5)}\n}};")


def decompositions():
    out = []
    for cp in range(0x110000):
        if HANGUL_FIRST <= cp <= HANGUL_LAST:
            continue
        d = unicodedata.normalize("NFD", chr(cp))
        if d != chr(cp):
            out.append((cp, [ord(x) for x in d]))
    return out


def compositions():
    pairs = []
    for cp in range(0x110000):
        d = unicodedata.decomposition(chr(cp))
        if not d or d.startswith("<"):
            continue
        parts = [int(x, 16) for x in d.split()]
        if len(parts) == 2 and unicodedata.normalize("NFC", chr(parts[0]) + chr(parts[1])) == chr(cp):
            pairs.append((parts[0], parts[1], cp))
    pairs.sort()
    body = rows([f"{{{hx(a)}, {hx(b)}, {hx(c)}}}" for a, b, c in pairs], 5)
    return f"const Pair kCompose[] = {{  // {len(pairs)} primary composites, sorted by (first, second)\n{body}\n}};"


def lowercase():
    out = []
    for cp in range(0x110000):
        lo = chr(cp).lower()
        if lo != chr(cp):
            out.append((cp, [ord(x) for x in lo]))
    return out


def white_space():
    rs = runs(lambda cp: 1 if chr(cp).isspace() and not 0x1C <= cp <= 0x1F else None)
    body = rows([f"{{{hx(a)}, {hx(b)}, 1}}" for a, b, _ in rs], 6)
    return f"const Run kWhiteSpace[] = {{  // {len(rs)} runs\n{body}\n}};"


def render():
    version = f"Python {platform.python_version()}, Unicode {unicodedata.unidata_version}"
    cats, _ = category_table()
    names = ", ".join(f'"{c}"' for c in CATEGORIES)
    return f"""\
// unicode_data.cpp — GENERATED by scripts/gen_unicode_data.py; do not edit.
// {version}.
// Regenerate: /usr/bin/python3 scripts/gen_unicode_data.py (--check to verify).
// General categories, canonical combining classes, full canonical decompositions, primary
// composites, str.lower() and White_Space, as sorted tables looked up by binary search.
#include "text/unicode_data.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>

namespace ew {{

namespace {{

struct Run {{
  char32_t first, last;
  std::uint8_t value;
}};
struct Seq {{
  char32_t cp;
  std::uint16_t offset;
  std::uint8_t length;
}};
struct Pair {{
  char32_t first, second, composite;
}};

{cats}

{combining_table()}

{sequences("Decomposed", "unicodedata.normalize('NFD', c) where it differs from c (no Hangul)", decompositions())}

{compositions()}

{sequences("Lower", "str.lower() where it differs from c", lowercase())}

{white_space()}

template <std::size_t N>
int run_value(const Run (&rs)[N], char32_t cp) {{
  const Run* it = std::lower_bound(std::begin(rs), std::end(rs), cp,
                                   [](const Run& r, char32_t c) {{ return r.last < c; }});
  return it != std::end(rs) && it->first <= cp ? it->value : 0;
}}

template <std::size_t N, std::size_t M>
std::u32string_view seq_of(const Seq (&table)[N], const char32_t (&flat)[M], char32_t cp) {{
  const Seq* it = std::lower_bound(std::begin(table), std::end(table), cp,
                                   [](const Seq& s, char32_t c) {{ return s.cp < c; }});
  if (it == std::end(table) || it->cp != cp) return {{}};
  return std::u32string_view(flat + it->offset, it->length);
}}

const char* const kCategoryNames[] = {{{names}}};

}}  // namespace

Category general_category(char32_t cp) {{ return static_cast<Category>(run_value(kCategory, cp)); }}

const char* category_name(Category c) {{ return kCategoryNames[static_cast<int>(c)]; }}

int combining_class(char32_t cp) {{ return run_value(kCombining, cp); }}

std::u32string_view canonical_decomposition(char32_t cp) {{ return seq_of(kDecomposed, kDecomposedFlat, cp); }}

char32_t primary_composite(char32_t first, char32_t second) {{
  const Pair key{{first, second, 0}};
  const Pair* it = std::lower_bound(std::begin(kCompose), std::end(kCompose), key, [](const Pair& a, const Pair& b) {{
    return a.first != b.first ? a.first < b.first : a.second < b.second;
  }});
  return it != std::end(kCompose) && it->first == first && it->second == second ? it->composite : 0;
}}

std::u32string_view lowercase_mapping(char32_t cp) {{ return seq_of(kLower, kLowerFlat, cp); }}

bool is_white_space(char32_t cp) {{ return run_value(kWhiteSpace, cp) != 0; }}

const char* unicode_data_version() {{ return "{version}"; }}

}}  // namespace ew
"""


def main():
    text = render()
    if "--check" in sys.argv[1:]:
        with open(OUT, encoding="utf-8") as f:
            same = f.read() == text
        print(("up to date: " if same else "STALE: ") + os.path.normpath(OUT))
        return 0 if same else 1
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print("wrote " + os.path.normpath(OUT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
