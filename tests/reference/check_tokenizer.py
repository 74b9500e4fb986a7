#!/usr/bin/python3
"""check_tokenizer.py — cross-checks core/text/tokenizer.cpp against CPython itself.

Builds a tiny driver (its C++ source is below) from core/text/tokenizer.cpp and
core/text/unicode_tables.cpp, then compares, case by case:
  tokenize_regex      vs re.findall(r'(\\b\\w+\\b|[.,!?;])', s)   (seed 001's simple_tokenize)
  regex_skipped       vs the text between re.finditer's matches, in runs of non-space:
                      what the regex drops (start and length in str indices)
  tokenize_whitespace vs s.split()                                (seed 000)
  tokenize_chars      vs [c for c in s if not c.isspace()]         (the brackets task)
  validate_utf8       vs bytes.decode('utf-8'): error offset = UnicodeDecodeError.start
  bpe_train/encode    vs seed 001's get_vocab / get_stats / max / merge_vocab (re.sub)
on hand-picked strings, every code point (in chunks), and seeded random strings, byte
strings and corpora. It also checks the assumption behind the generated tables: that re's
\\w and \\s on str are exactly isalnum()-or-'_' and isspace(). Prints the first mismatch of
each kind and exits 1 on any mismatch.

    /usr/bin/python3 tests/reference/check_tokenizer.py [--cxx g++] [--random N] [--seed S]
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
from collections import defaultdict

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# Reads records "<mode>\t<arg>\t<hex>\t<hex>..." (one per line; fields hex-encoded bytes),
# writes "OK\t<item>\t<item>..." or "ERR\t<message>" per record.
DRIVER = r"""
#include <iostream>
#include <sstream>
#include <string>
#include <vector>
#include "model/error.h"
#include "text/tokenizer.h"
static std::string unhex(const std::string& h) {
  std::string s;
  for (size_t i = 0; i + 1 < h.size(); i += 2) s += static_cast<char>(std::stoi(h.substr(i, 2), nullptr, 16));
  return s;
}
static std::string hex(const std::string& s) {
  static const char* d = "0123456789abcdef";
  std::string h;
  for (unsigned char c : s) { h += d[c >> 4]; h += d[c & 15]; }
  return h;
}
static std::string vocab(char tag, const std::vector<std::pair<std::string, long>>& v) {
  std::string s;
  for (const auto& [k, n] : v) s += std::string("\t") + tag + ":" + hex(k) + ":" + std::to_string(n);
  return s;
}
int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, '\t');) f.push_back(x);
    const std::string mode = f.at(0);
    std::vector<std::string> args;
    for (size_t i = 2; i < f.size(); ++i) args.push_back(unhex(f[i]));
    std::string out = "OK";
    try {
      if (mode == "regex" || mode == "ws" || mode == "chars") {
        const std::string text = args.empty() ? std::string() : args[0];
        const auto toks = mode == "regex" ? ew::tokenize_regex(text) : mode == "ws" ? ew::tokenize_whitespace(text) : ew::tokenize_chars(text);
        for (const auto& t : toks) out += "\t" + hex(t);
      } else if (mode == "skip") {
        for (const auto& sp : ew::regex_skipped(args.empty() ? std::string() : args[0]))
          out += "\t" + std::to_string(sp.start) + ":" + std::to_string(sp.length) + ":" + hex(sp.text);
      } else if (mode == "utf8") {
        ew::validate_utf8(args.empty() ? std::string() : args[0]);
      } else if (mode == "bpe") {  // arg = num_merges; fields: corpus lines, "", words to encode
        std::vector<std::string> corpus, words;
        size_t i = 0;
        for (; i < args.size() && f[i + 2] != "-"; ++i) corpus.push_back(args[i]);
        for (++i; i < args.size(); ++i) words.push_back(args[i]);
        const ew::BpeModel m = ew::bpe_train(corpus, std::stoi(f.at(1)));
        for (const auto& g : m.merges) {
          out += "\tP:" + hex(g.pair.first) + ":" + hex(g.pair.second) + ":" + std::to_string(g.count);
          out += vocab('B', g.vocab_before) + vocab('A', g.vocab_after);
        }
        out += vocab('F', m.final_vocab);
        for (const auto& t : ew::bpe_encode(m, words)) out += "\tE:" + hex(t);
      }
    } catch (const ew::Error& e) {
      out = std::string("ERR\t") + e.what();
    }
    std::cout << out << "\n";
  }
}
"""

PATTERN = re.compile(r"(\b\w+\b|[.,!?;])")


def h(s):
    return (s.encode("utf-8") if isinstance(s, str) else s).hex()


def uh(x):
    return bytes.fromhex(x).decode("utf-8")


# ---- seed 001's BPE, as printed in the seed (indentation restored; `if not pairs: break`
# added where the seed's max() would raise) ------------------------------------------------
def get_stats(vocab):
    pairs = defaultdict(int)
    for word, freq in vocab.items():
        symbols = word.split()
        for i in range(len(symbols) - 1):
            pairs[symbols[i], symbols[i + 1]] += freq
    return pairs


def merge_vocab(pair, v_in):
    v_out = {}
    bigram = re.escape(" ".join(pair))
    p = re.compile(r"(?<!\S)" + bigram + r"(?!\S)")
    for word in v_in:
        w_out = p.sub("".join(pair), word)
        v_out[w_out] = v_in[word]
    return v_out


def get_vocab(data):
    vocab = defaultdict(int)
    for line in data:
        for word in line.split():
            vocab[" ".join(list(word)) + " </w>"] += 1
    return vocab


def bpe_reference(corpus, n, words):
    items = []
    vocab = get_vocab(corpus)
    merges = []
    for _ in range(n):
        pairs = get_stats(vocab)
        if not pairs:
            break
        best = max(pairs, key=pairs.get)
        items.append(("P", best[0], best[1], pairs[best]))
        items += [("B", k, v) for k, v in vocab.items()]
        vocab = merge_vocab(best, vocab)
        items += [("A", k, v) for k, v in vocab.items()]
        merges.append(best)
    items += [("F", k, v) for k, v in vocab.items()]
    for line in words:  # encode: chars + </w>, the merges in learned order, via merge_vocab
        for word in line.split():
            w = " ".join(list(word)) + " </w>"
            for pair in merges:
                w = next(iter(merge_vocab(pair, {w: 1})))
            items += [("E", t) for t in w.split()]
    return items


def parse_bpe(fields):
    out = []
    for f in fields:
        p = f.split(":")
        if p[0] == "P":
            out.append(("P", uh(p[1]), uh(p[2]), int(p[3])))
        elif p[0] in "BAF":
            out.append((p[0], uh(p[1]), int(p[2])))
        else:
            out.append(("E", uh(p[1])))
    return out


# ---- cases -------------------------------------------------------------------------------
HAND = [
    "", " ", "Hello, how are you doing today?",
    "Despite the heavy rain, the children played happily in the park, unaware of the approaching storm.",
    "naïve café Ελληνικά 東京", "cafe\u0301!", "e.g. \"quotes\" (parens) x-y a_b 3.14 it's: done!?;",
    "東京\u3000café\u00a0x\u2009y\x85z\x1ca\x1fb c\u200bd", "__init__ __ _", "١٢٣ ²½ Ⅷ", "a\0b c",
    "😀 emoji👍🏽x", "\ufeffBOM", "tab\tnew\nline\r\n\v\f", "...,,,!!!???;;;", "ǅungla ŉ ß ﬁ", "I ❤️ 🤖 transformers", "a❤b (x) [MASK] #1 — ok",
]
UTF8_EDGE = [  # every lead byte with the edges of its continuation range, and truncations
    bytes([lead, c2, 0x80, 0x80])[:k] + tail
    for lead in [0x00, 0x7F, 0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF,
                 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF8, 0xFF]
    for c2 in [0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0]
    for k in [1, 2, 3, 4]
    for tail in [b"", b"x", b"\x80"]
]
POOL = ("abcxyzAZ019_ .,!?;:'\"-()\t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u1680\u2000\u2028\u202f\u205f\u3000"
        "\u200b\ufeffàéïñßΩλжя東京한글ا٣\u0301\u0308²½Ⅷ\u00b7\u2014。！😀\U00020000\U0001d7d8")
BPE_POOL = "aabbcdeé東 "


def random_text(rng, pool, n):
    return "".join(rng.choice(pool) for _ in range(rng.randint(0, n)))


def random_bytes(rng):
    if rng.random() < 0.5:  # mutate valid UTF-8
        b = bytearray(random_text(rng, POOL, 12).encode("utf-8"))
        for _ in range(rng.randint(1, 3)):
            if not b:
                break
            i = rng.randrange(len(b))
            op = rng.randrange(3)
            if op == 0:
                b[i] = rng.randrange(256)
            elif op == 1:
                del b[i]
            else:
                b.insert(i, rng.choice([0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF]))
        return bytes(b)
    return bytes(rng.randrange(256) for _ in range(rng.randint(0, 8)))


def build_driver(cxx, tmp):
    src = os.path.join(tmp, "tok_driver.cpp")
    exe = os.path.join(tmp, "tok_driver")
    with open(src, "w") as f:
        f.write(DRIVER)
    core = os.path.join(ROOT, "core")
    cmd = [cxx, "-std=c++17", "-O1", "-I" + core, src, os.path.join(core, "text", "tokenizer.cpp"),
           os.path.join(core, "text", "unicode_tables.cpp"), "-o", exe]
    subprocess.run(cmd, check=True)
    return exe


def skipped_reference(t):
    """What PATTERN.findall drops: the gaps between its matches, in runs of non-space."""
    out, at = [], 0
    for m in list(PATTERN.finditer(t)) + [None]:
        end = m.start() if m else len(t)
        for run in re.finditer(r"\S+", t[at:end]):
            out.append(f"{at + run.start()}:{len(run.group())}:{h(run.group())}")
        at = m.end() if m else len(t)
    return ["OK"] + out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cxx", default=os.environ.get("CXX", "c++"))
    ap.add_argument("--random", type=int, default=3000, help="random cases per kind")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)

    # 0. The tables' premise: re's \w / \s on str are isalnum()-or-_ / isspace().
    bad = [cp for cp in range(0x110000)
           if bool(re.fullmatch(r"\w", chr(cp))) != (chr(cp).isalnum() or chr(cp) == "_")
           or bool(re.fullmatch(r"\s", chr(cp))) != chr(cp).isspace()]
    print(f"re \\w/\\s vs isalnum/isspace over all code points: {len(bad)} differ")
    fails = len(bad)
    gen = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gen_unicode_tables.py"), "--check"])
    fails += gen.returncode != 0

    cases = []  # (kind, request line, expected reply fields, description)
    every = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    chunks = ["".join(chr(c) for c in every[i:i + 509]) for i in range(0, len(every), 509)]
    texts = HAND + chunks + [random_text(rng, POOL, 40) for _ in range(a.random)]
    for t in texts:
        cases.append(("regex", f"regex\t-\t{h(t)}", ["OK"] + [h(x) for x in PATTERN.findall(t)], t))
        cases.append(("ws", f"ws\t-\t{h(t)}", ["OK"] + [h(x) for x in t.split()], t))
        cases.append(("chars", f"chars\t-\t{h(t)}", ["OK"] + [h(x) for x in t if not x.isspace()], t))
        cases.append(("skip", f"skip\t-\t{h(t)}", skipped_reference(t), t))
    for b in [random_bytes(rng) for _ in range(a.random)] + [t.encode() for t in HAND] + UTF8_EDGE:
        try:
            b.decode("utf-8")
            want = ["OK"]
        except UnicodeDecodeError as e:
            want = ["ERR", f"invalid UTF-8 at byte {e.start}"]
        cases.append(("utf8", f"utf8\t-\t{h(b)}", want, b))
    bpe = [(["low", "lowest", "newer", "wider"], 5, ["lowest newer wider low"])]
    for _ in range(a.random // 3):
        corpus = [random_text(rng, BPE_POOL, 9) for _ in range(rng.randint(0, 6))]
        bpe.append((corpus, rng.randint(0, 12), [random_text(rng, BPE_POOL, 9) for _ in range(3)]))
    for corpus, n, words in bpe:
        req = "\t".join(["bpe", str(n)] + [h(c) for c in corpus] + ["-"] + [h(w) for w in words])
        cases.append(("bpe", req, bpe_reference(corpus, n, words), (corpus, n, words)))

    with tempfile.TemporaryDirectory() as tmp:
        exe = build_driver(a.cxx, tmp)
        reply = subprocess.run([exe], input="\n".join(c[1] for c in cases) + "\n", capture_output=True,
                               text=True, check=True).stdout.split("\n")

    counts, bad_kinds = defaultdict(int), defaultdict(int)
    for (kind, _, want, what), got_line in zip(cases, reply):
        got = got_line.split("\t")
        if kind == "bpe" and got[0] == "OK":
            got = parse_bpe(got[1:])
        counts[kind] += 1
        if got != want:
            if not bad_kinds[kind]:
                print(f"MISMATCH {kind}: input {what!r}\n  C++:    {got!r}\n  Python: {want!r}")
            bad_kinds[kind] += 1
    if len(reply) - 1 != len(cases):
        print(f"driver answered {len(reply) - 1} of {len(cases)} cases")
        fails += 1
    for kind in counts:
        print(f"{kind:6s} {counts[kind] - bad_kinds[kind]}/{counts[kind]} agree")
    fails += sum(bad_kinds.values())
    print("PASS" if fails == 0 else "FAIL")
    return 0 if fails == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
