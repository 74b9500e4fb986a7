#!/usr/bin/python3
"""hf_reference.py — the checkpoints' own Python tokenizers, written from their published
algorithms on CPython's unicodedata and the regex package (\\p{L}, \\p{N}), as an independent
reference for core/text/hf_tokenizer.h (check_hf_tokenizers.mjs runs it):

  bert VOCAB_TXT [cased] — transformers' BertTokenizer (do_lower_case=True, the default for a
                     vocab.txt alone; "cased": do_lower_case=False, as a tokenizer_config.json
                     may say): PreTrainedTokenizer.tokenize (each character lower-cased on its own
                     except the special tokens, then the text split at special tokens), Google's
                     BasicTokenizer (clean, CJK spacing, NFC, whitespace split, lower + strip
                     accents, punctuation split) and WordpieceTokenizer (greedy longest match,
                     "##", [UNK] past 100 characters), then [CLS] A [SEP] (B [SEP]).
  gpt2 VOCAB_JSON MERGES_TXT — GPT-2's encoder.py (bytes_to_unicode, the pre-tokenizer regex,
                     bpe() by merge rank) with <|endoftext|> in the text as its token.

Reads one JSON array per line (["text"] or ["text", "text2"]) on stdin, writes one JSON object
per line: {"ids": [...], "type_ids": [...]}.
"""
import json
import sys
import unicodedata

import regex

# ---- BERT -------------------------------------------------------------------------------------

BERT_SPECIALS = ["[UNK]", "[SEP]", "[PAD]", "[CLS]", "[MASK]"]


def is_whitespace(ch):
    return ch in " \t\n\r" or unicodedata.category(ch) == "Zs"


def is_control(ch):
    return ch not in "\t\n\r" and unicodedata.category(ch).startswith("C")


def is_punctuation(ch):
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def is_chinese_char(cp):
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF or
            0x2A700 <= cp <= 0x2B73F or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF or
            0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F)


def whitespace_tokenize(text):
    text = text.strip()
    return text.split() if text else []


def basic_tokenize(text, never_split, lower):
    text = "".join(" " if is_whitespace(c) else c for c in text
                   if not (ord(c) == 0 or ord(c) == 0xFFFD or is_control(c)))
    text = "".join(f" {c} " if is_chinese_char(ord(c)) else c for c in text)
    text = unicodedata.normalize("NFC", text)
    out = []
    for token in whitespace_tokenize(text):
        if token in never_split:
            out.append(token)
            continue
        if lower:
            token = token.lower()
            token = "".join(c for c in unicodedata.normalize("NFD", token) if unicodedata.category(c) != "Mn")
        word = []
        for c in token:
            if is_punctuation(c):
                if word:
                    out.append("".join(word))
                    word = []
                out.append(c)
            else:
                word.append(c)
        if word:
            out.append("".join(word))
    return whitespace_tokenize(" ".join(out))


def wordpiece(token, vocab):
    chars = list(token)
    if len(chars) > 100:
        return ["[UNK]"]
    pieces, start = [], 0
    while start < len(chars):
        end, cur = len(chars), None
        while start < end:
            sub = ("##" if start > 0 else "") + "".join(chars[start:end])
            if sub in vocab:
                cur = sub
                break
            end -= 1
        if cur is None:
            return ["[UNK]"]
        pieces.append(cur)
        start = end
    return pieces


def split_specials(text, specials):
    """The text split at every special token written in it (leftmost, then longest)."""
    parts, done, i = [], 0, 0
    while i < len(text):
        hit = max((s for s in specials if text.startswith(s, i)), key=len, default=None)
        if hit is None:
            i += 1
            continue
        parts += [text[done:i], hit]
        done = i = i + len(hit)
    parts.append(text[done:])
    return [p for p in parts if p]


def bert_tokens(text, vocab, lower):
    if lower:
        pattern = "(" + "|".join(regex.escape(s) for s in BERT_SPECIALS) + r")|(.+?)"
        text = regex.sub(pattern, lambda m: m.groups()[0] or m.groups()[1].lower(), text)
    out = []
    for part in split_specials(text, BERT_SPECIALS):
        if part in BERT_SPECIALS:
            out.append(part)
            continue
        for token in basic_tokenize(part, set(BERT_SPECIALS), lower):
            out += [token] if token in BERT_SPECIALS else wordpiece(token, vocab)
    return [vocab[t] for t in out]


def bert_encode(texts, vocab, lower):
    ids, types = [vocab["[CLS]"]], [0]
    for k, text in enumerate(texts):
        t = bert_tokens(text, vocab, lower) + [vocab["[SEP]"]]
        ids += t
        types += [k] * len(t)
    return ids, types

# ---- GPT-2 ------------------------------------------------------------------------------------

GPT2_PATTERN = regex.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")


def bytes_to_unicode():
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))


def bpe(token, ranks):
    word = tuple(token)
    while len(word) > 1:
        pairs = set(zip(word, word[1:]))
        bigram = min(pairs, key=lambda p: ranks.get(p, float("inf")))
        if bigram not in ranks:
            break
        first, second = bigram
        new, i = [], 0
        while i < len(word):
            try:
                j = word.index(first, i)
            except ValueError:
                new.extend(word[i:])
                break
            new.extend(word[i:j])
            i = j
            if word[i] == first and i < len(word) - 1 and word[i + 1] == second:
                new.append(first + second)
                i += 2
            else:
                new.append(word[i])
                i += 1
        word = tuple(new)
    return word


def gpt2_encode(texts, encoder, ranks, byte_encoder):
    ids, types = [], []
    for k, text in enumerate(texts):
        for part in split_specials(text, ["<|endoftext|>"]):
            if part == "<|endoftext|>":
                t = [encoder[part]]
            else:
                t = []
                for token in regex.findall(GPT2_PATTERN, part):
                    sym = "".join(byte_encoder[b] for b in token.encode("utf-8"))
                    t += [encoder[p] for p in bpe(sym, ranks)]
            ids += t
            types += [k] * len(t)
    return ids, types


def main():
    kind = sys.argv[1]
    if kind == "bert":
        with open(sys.argv[2], encoding="utf-8") as f:
            vocab = {line.rstrip("\n"): i for i, line in enumerate(f)}
        lower = sys.argv[3:] != ["cased"]
        encode = lambda texts: bert_encode(texts, vocab, lower)
    else:
        with open(sys.argv[2], encoding="utf-8") as f:
            encoder = json.load(f)
        with open(sys.argv[3], encoding="utf-8") as f:
            lines = f.read().split("\n")[1:]
        ranks = {tuple(l.split(" ")): i for i, l in enumerate(l for l in lines if l)}
        byte_encoder = bytes_to_unicode()
        encode = lambda texts: gpt2_encode(texts, encoder, ranks, byte_encoder)
    for line in sys.stdin:
        ids, types = encode(json.loads(line))
        print(json.dumps({"ids": ids, "type_ids": types}))


if __name__ == "__main__":
    main()
