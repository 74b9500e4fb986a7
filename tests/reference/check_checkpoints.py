#!/usr/bin/python3
"""check_checkpoints.py — Hugging Face checkpoints through the CLI against PyTorch references.

Usage:
  /usr/bin/python3 tests/reference/check_checkpoints.py --cli PATH/encoder-walkthrough
                   [--keep DIR] [--plant DEFECT] [--verbose]

What it does
  1. Builds small random checkpoints of bert (BertModel, BertForMaskedLM with the full MLM
     head, BertForSequenceClassification with the pooler and id2label), distilbert (masked LM,
     classification) and gpt2 (GPT2Model, GPT2LMHeadModel) as their own code saves them: the
     real tensor names, nn.Linear weights [out, in], GPT-2's Conv1D [in, out] with the fused
     c_attn, the tied output weights left out of the file, buffers (position_ids, attn.bias,
     attn.masked_bias), BERT's next-sentence head, with and without the bert. / distilbert. /
     transformer. prefix, LayerNorm gamma/beta in old BERT files; 1–3 layers; float32, float16
     and bfloat16 files (written here by a plain safetensors writer), and a tiny vocabulary.
  2. Computes each model in float64 with PyTorch from the architectures' definitions (written
     here from the papers/the transformers source, not imported: transformers is not
     installed): BERT post-norm with token types and exact GELU, DistilBERT, GPT-2 pre-norm with
     gelu_new, the heads; the weights are the values the file holds (rounded to its dtype).
  3. Runs `CLI --checkpoint DIR --ids … --json` and compares the token ids, every layer's
     output (layer{i}.output), the stack's output ("output": GPT-2's ln_f, our final_ln) and the
     head's logits (mlm.logits, cls.logits, and GPT-2's "logits") to 1e-4 of each tensor's
     largest |value|; for GPT-2 with --generate, the generated ids equal the reference's greedy
     loop; a BERT pair of sentences (segment B after [SEP]).
  4. Bad checkpoints: each exits non-zero with a message naming the file and the key.

Every case sets config values away from the library defaults, so a core that ignored one
would fail: layer_norm_eps / layer_norm_epsilon (two cases at 0.05, where eps changes every
LayerNorm's output by far more than the tolerance: 1e-12 against 1e-5 could not be seen),
hidden_act / activation / activation_function (relu, exact gelu, the tanh approximations),
GPT-2's n_inner (not 4·n_embd), DistilBERT's sinusoidal_pos_embds (its position table written as
DistilBERT's create_sinusoidal_embeddings fills it, the reference computing that table itself).

--plant DEFECT makes the *reference* (or, for n-inner-absent, the config) wrong in one way the
core could be: tanh-gelu (exact GELU computed as the tanh approximation), untransposed (a Linear
not transposed), qkv-order (GPT-2's c_attn split in the wrong order), no-token-types,
default-eps (each model type's default eps instead of the config's), default-act (the default
activation instead of the config's), n-inner-absent (config.json without n_inner: the file's FFN
shapes then disagree), sinusoidal-halves (DistilBERT's table as [sin | cos] halves instead of
interleaved). With --expect-caught CASE,… the run is a must-fail test turned inside out: only those
cases run, and it exits 0 exactly when every one of them reports a failure (a crash exits 1), so
the test command runs each planted defect as a test that must be caught (tests/CMakeLists.txt).
"""
import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

import numpy as np
import torch

RTOL = 1e-4
PLANT = None

# ---- files ----------------------------------------------------------------------------------


def to_dtype(a, dtype):
    """The values a file of `dtype` holds: (bytes, float64 values as read back)."""
    t = torch.from_numpy(np.ascontiguousarray(a, dtype=np.float32))
    if dtype == "F32":
        return t.numpy().tobytes(), t.double()
    if dtype == "F16":
        h = t.half()
        return h.numpy().tobytes(), h.double()
    b = t.bfloat16()
    return b.view(torch.int16).numpy().tobytes(), b.double()


def write_safetensors(path, tensors, dtype, extra=None):
    """tensors: {name: float array}; returns {name: float64 torch tensor as stored}."""
    header, blobs, at, stored = {}, [], 0, {}
    for name, a in tensors.items():
        if np.asarray(a).dtype == np.int64:  # a buffer (position_ids), as real files keep it
            raw, back, dt = np.asarray(a).tobytes(), torch.from_numpy(np.asarray(a)), "I64"
        else:
            (raw, back), dt = to_dtype(a, dtype), dtype
        header[name] = {"dtype": dt, "shape": list(np.shape(a)), "data_offsets": [at, at + len(raw)]}
        blobs.append(raw)
        at += len(raw)
        stored[name] = back.reshape(np.shape(a))
    if extra:
        header.update(extra)
    h = json.dumps(header).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + b"".join(blobs))
    return stored


BERT_VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "cat", "sat", "on", "mat", "a", "dog",
              "ran", "##s", "##ing", "in", "park", ".", ",", "it"]
GPT_WORDS = ["the", "Ġcat", "Ġsat", "Ġon", "Ġmat", "Ġa", "Ġdog", "Ġran", ".", ",", "Ġit", "Ġwas", "Ġhappy",
             "Ġpark", "Ġin"]


def byte_symbols():
    """GPT-2's bytes → unicode map: printable Latin-1 bytes stand for themselves, the rest are
    shifted to U+0100 and up (the 256 symbols every byte-level BPE vocabulary starts with)."""
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    out, n = {}, 0
    for b in range(256):
        if b in keep:
            out[b] = chr(b)
        else:
            out[b] = chr(256 + n)
            n += 1
    return [out[b] for b in range(256)]


def gpt_vocab_and_merges():
    """The 256 byte symbols, then each word built by merging left to right (every prefix a token)."""
    vocab, merges = byte_symbols(), []
    for w in GPT_WORDS:
        for k in range(2, len(w) + 1):
            if w[:k] not in vocab:
                merges.append((w[:k - 1], w[k - 1]))
                vocab.append(w[:k])
    return vocab + ["<|endoftext|>"], merges


GPT_VOCAB, GPT_MERGES = gpt_vocab_and_merges()


def write_dir(d, config, tensors, dtype, vocab_kind, extra=None):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "config.json"), "w") as f:
        json.dump(config, f)
    stored = write_safetensors(os.path.join(d, "model.safetensors"), tensors, dtype, extra)
    if vocab_kind == "bert":
        with open(os.path.join(d, "vocab.txt"), "w") as f:
            f.write("\n".join(BERT_VOCAB) + "\n")
    else:
        with open(os.path.join(d, "vocab.json"), "w") as f:
            json.dump({t: i for i, t in enumerate(GPT_VOCAB)}, f)
        with open(os.path.join(d, "merges.txt"), "w") as f:
            f.write("#version: 0.2\n" + "".join("%s %s\n" % m for m in GPT_MERGES))
    return stored


# ---- random checkpoints with the real names ----------------------------------------------------


def rnd(rng, *shape, scale=0.5):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def bert_tensors(rng, c, distil, head, prefix, gamma_beta):
    d, ff, V, P = c["d"], c["ff"], len(BERT_VOCAB), c["P"]
    t = {}
    p = prefix
    ln_w, ln_b = ("gamma", "beta") if gamma_beta else ("weight", "bias")

    def lin(name, i, o, pre=p):
        t[pre + name + ".weight"] = rnd(rng, o, i, scale=1 / np.sqrt(i))
        t[pre + name + ".bias"] = rnd(rng, o, scale=0.1)

    def ln(name, n, pre=p, old=gamma_beta):
        w, b = ("gamma", "beta") if old else ("weight", "bias")
        t[pre + name + "." + w] = (1 + rnd(rng, n, scale=0.2))
        t[pre + name + "." + b] = rnd(rng, n, scale=0.1)

    t[p + "embeddings.word_embeddings.weight"] = rnd(rng, V, d)
    t[p + "embeddings.position_embeddings.weight"] = rnd(rng, P, d)
    if distil and c.get("sinusoidal"):  # as DistilBERT fills (and saves) it; not its reference's copy
        t[p + "embeddings.position_embeddings.weight"] = sinusoidal_table(P, d).astype(np.float32)
    if not distil:
        t[p + "embeddings.token_type_embeddings.weight"] = rnd(rng, 2, d)
        t[p + "embeddings.position_ids"] = np.arange(P, dtype=np.int64)[None, :]  # a buffer
    ln("embeddings.LayerNorm", d, old=gamma_beta and not distil)
    for i in range(c["L"]):
        L = ("transformer.layer.%d." if distil else "encoder.layer.%d.") % i
        if distil:
            for m in ("q_lin", "k_lin", "v_lin", "out_lin"):
                lin(L + "attention." + m, d, d)
            ln(L + "sa_layer_norm", d, old=False)
            lin(L + "ffn.lin1", d, ff)
            lin(L + "ffn.lin2", ff, d)
            ln(L + "output_layer_norm", d, old=False)
        else:
            for m in ("query", "key", "value"):
                lin(L + "attention.self." + m, d, d)
            lin(L + "attention.output.dense", d, d)
            ln(L + "attention.output.LayerNorm", d)
            lin(L + "intermediate.dense", d, ff)
            lin(L + "output.dense", ff, d)
            ln(L + "output.LayerNorm", d)
    if head == "mlm":
        if distil:
            lin("vocab_transform", d, d, pre="")
            ln("vocab_layer_norm", d, pre="", old=False)
            t["vocab_projector.bias"] = rnd(rng, V, scale=0.1)
        else:
            lin("cls.predictions.transform.dense", d, d, pre="")
            ln("cls.predictions.transform.LayerNorm", d, pre="")
            t["cls.predictions.bias"] = rnd(rng, V, scale=0.1)
            t["cls.seq_relationship.weight"] = rnd(rng, 2, d)  # the next-sentence head: ignored
            t["cls.seq_relationship.bias"] = rnd(rng, 2)
    if head == "cls":
        if distil:
            lin("pre_classifier", d, d, pre="")
        else:
            lin("pooler.dense", d, d)
        lin("classifier", d, c["labels"], pre="")
    if head == "base" and not distil:
        lin("pooler.dense", d, d)  # BertModel keeps its pooler: ignored without a classifier
    return t


def gpt2_tensors(rng, c, prefix):
    d, ff, V, P = c["d"], c["ff"], len(GPT_VOCAB), c["P"]
    t = {}
    p = prefix

    def conv(name, i, o):
        t[p + name + ".weight"] = rnd(rng, i, o, scale=1 / np.sqrt(i))
        t[p + name + ".bias"] = rnd(rng, o, scale=0.1)

    def ln(name):
        t[p + name + ".weight"] = 1 + rnd(rng, d, scale=0.2)
        t[p + name + ".bias"] = rnd(rng, d, scale=0.1)

    t[p + "wte.weight"] = rnd(rng, V, d)
    t[p + "wpe.weight"] = rnd(rng, P, d)
    for i in range(c["L"]):
        L = "h.%d." % i
        ln(L + "ln_1")
        conv(L + "attn.c_attn", d, 3 * d)
        conv(L + "attn.c_proj", d, d)
        t[p + L + "attn.bias"] = np.tril(np.ones((P, P), dtype=np.float32))[None, None]  # buffers
        t[p + L + "attn.masked_bias"] = np.array(-1e4, dtype=np.float32)
        ln(L + "ln_2")
        conv(L + "mlp.c_fc", d, ff)
        conv(L + "mlp.c_proj", ff, d)
    ln("ln_f")
    return t


# ---- the references, from the architectures' definitions (float64) ---------------------------


def layer_norm(x, w, b, eps):
    mu = x.mean(-1, keepdim=True)
    var = ((x - mu) ** 2).mean(-1, keepdim=True)
    return (x - mu) / torch.sqrt(var + eps) * w + b


def gelu(x):
    if PLANT == "tanh-gelu":
        return gelu_new(x)
    return 0.5 * x * (1 + torch.erf(x / np.sqrt(2.0)))


DEFAULT_ACT = {"bert": "gelu", "distilbert": "gelu", "gpt2": "gelu_new"}
DEFAULT_EPS = {"bert": 1e-12, "distilbert": 1e-12, "gpt2": 1e-5}


def act_of(c, mt):
    """The FFN's (and masked-LM transform's) activation function the config names."""
    name = DEFAULT_ACT[mt] if PLANT == "default-act" else c.get("act", DEFAULT_ACT[mt])
    return {"gelu": gelu, "gelu_new": gelu_new, "gelu_pytorch_tanh": gelu_new, "relu": torch.relu}[name]


def eps_of(c, mt):
    """LayerNorm's eps: the config's (DistilBERT's code fixes 1e-12)."""
    if mt == "distilbert" or PLANT == "default-eps":
        return DEFAULT_EPS[mt]
    return c.get("eps", DEFAULT_EPS[mt])


def sinusoidal_table(P, d, halves=False):
    """DistilBERT's create_sinusoidal_embeddings: pos / 10000^(2·(j//2)/d), sin on even columns,
    cos on odd ones (float64)."""
    pos = np.arange(P)[:, None] / np.power(10000, 2 * (np.arange(d)[None, :] // 2) / d)
    out = np.zeros((P, d))
    if halves:  # the other common layout: all sines, then all cosines
        out[:, :d // 2], out[:, d // 2:] = np.sin(pos[:, 0::2]), np.cos(pos[:, 1::2])
        return out
    out[:, 0::2], out[:, 1::2] = np.sin(pos[:, 0::2]), np.cos(pos[:, 1::2])
    return out


def gelu_new(x):
    return 0.5 * x * (1 + torch.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3)))


def linear(x, W, b):  # nn.Linear: W is [out, in]
    if PLANT == "untransposed" and W.shape[0] == W.shape[1]:
        return x @ W + b
    return x @ W.T + b


def attention(q, k, v, H, causal):
    T, d = q.shape
    dk = d // H
    q, k, v = (z.reshape(T, H, dk).transpose(0, 1) for z in (q, k, v))
    s = q @ k.transpose(1, 2) / np.sqrt(dk)
    if causal:
        s = s.masked_fill(torch.triu(torch.ones(T, T, dtype=torch.bool), 1), float("-inf"))
    a = torch.softmax(s, -1)
    return (a @ v).transpose(0, 1).reshape(T, d)


def bert_reference(W, c, distil, head, prefix, ids, types, gamma_beta):
    """Returns {step id: tensor} of the steps compared."""
    g = lambda k: W[k]
    p = prefix
    mt = "distilbert" if distil else "bert"
    eps, act = eps_of(c, mt), act_of(c, mt)
    wn, bn = ("gamma", "beta") if gamma_beta and not distil else ("weight", "bias")
    T = len(ids)
    pos = g(p + "embeddings.position_embeddings.weight")
    if distil and c.get("sinusoidal"):  # computed here from DistilBERT's formula, at the file's precision
        table = sinusoidal_table(c["P"], c["d"], halves=PLANT == "sinusoidal-halves")
        pos = to_dtype(table, c.get("dtype", "F32"))[1].reshape(c["P"], c["d"])
    x = g(p + "embeddings.word_embeddings.weight")[ids] + pos[:T]
    if not distil and PLANT != "no-token-types":
        x = x + g(p + "embeddings.token_type_embeddings.weight")[types]
    x = layer_norm(x, g(p + "embeddings.LayerNorm." + wn), g(p + "embeddings.LayerNorm." + bn), eps)
    out = {"input": x}
    for i in range(c["L"]):
        L = p + ("transformer.layer.%d." if distil else "encoder.layer.%d.") % i
        lw = lambda n: (g(L + n + ".weight"), g(L + n + ".bias"))
        if distil:
            q, k, v, o = (lw("attention." + m) for m in ("q_lin", "k_lin", "v_lin", "out_lin"))
            ln1 = (g(L + "sa_layer_norm.weight"), g(L + "sa_layer_norm.bias"))
            f1, f2 = lw("ffn.lin1"), lw("ffn.lin2")
            ln2 = (g(L + "output_layer_norm.weight"), g(L + "output_layer_norm.bias"))
        else:
            q, k, v = (lw("attention.self." + m) for m in ("query", "key", "value"))
            o = lw("attention.output.dense")
            ln1 = (g(L + "attention.output.LayerNorm." + wn), g(L + "attention.output.LayerNorm." + bn))
            f1, f2 = lw("intermediate.dense"), lw("output.dense")
            ln2 = (g(L + "output.LayerNorm." + wn), g(L + "output.LayerNorm." + bn))
        a = attention(linear(x, *q), linear(x, *k), linear(x, *v), c["H"], False)
        x1 = layer_norm(linear(a, *o) + x, *ln1, eps)
        x = layer_norm(linear(act(linear(x1, *f1)), *f2) + x1, *ln2, eps)
        out["layer%d.output" % i] = x
    out["output"] = x
    E = g(p + "embeddings.word_embeddings.weight")
    if head == "mlm":
        if distil:
            t = act(linear(x, g("vocab_transform.weight"), g("vocab_transform.bias")))
            t = layer_norm(t, g("vocab_layer_norm.weight"), g("vocab_layer_norm.bias"), eps)
            out["mlm.logits"] = t @ E.T + g("vocab_projector.bias")
        else:
            P_ = "cls.predictions."
            t = act(linear(x, g(P_ + "transform.dense.weight"), g(P_ + "transform.dense.bias")))
            t = layer_norm(t, g(P_ + "transform.LayerNorm." + wn), g(P_ + "transform.LayerNorm." + bn), eps)
            out["mlm.logits"] = t @ E.T + g(P_ + "bias")
    if head == "cls":
        h = x[0]
        if distil:
            h = torch.relu(linear(h, g("pre_classifier.weight"), g("pre_classifier.bias")))
        else:
            h = torch.tanh(linear(h, g(p + "pooler.dense.weight"), g(p + "pooler.dense.bias")))
        out["cls.logits"] = linear(h, g("classifier.weight"), g("classifier.bias"))[None, :]
    return out


def gpt2_reference(W, c, prefix, ids):
    g = lambda k: W[prefix + k]
    eps, act, d, T = eps_of(c, "gpt2"), act_of(c, "gpt2"), c["d"], len(ids)
    x = g("wte.weight")[ids] + g("wpe.weight")[:T]
    out = {"input": x}
    for i in range(c["L"]):
        L = "h.%d." % i
        a = layer_norm(x, g(L + "ln_1.weight"), g(L + "ln_1.bias"), eps)
        qkv = a @ g(L + "attn.c_attn.weight") + g(L + "attn.c_attn.bias")  # Conv1D: x·W + b
        q, k, v = qkv.split(d, dim=-1)
        if PLANT == "qkv-order":
            q, k = k, q
        x = x + attention(q, k, v, c["H"], True) @ g(L + "attn.c_proj.weight") + g(L + "attn.c_proj.bias")
        m = layer_norm(x, g(L + "ln_2.weight"), g(L + "ln_2.bias"), eps)
        x = x + act(m @ g(L + "mlp.c_fc.weight") + g(L + "mlp.c_fc.bias")) @ g(L + "mlp.c_proj.weight") + g(L + "mlp.c_proj.bias")
        out["layer%d.output" % i] = x
    x = layer_norm(x, g("ln_f.weight"), g("ln_f.bias"), eps)
    out["output"] = x  # GPT-2's ln_f: our final_ln, whose result is the stack's "output"
    out["logits"] = x @ g("wte.weight").T
    return out


def gpt2_greedy(W, c, prefix, ids, max_len=32, eos=len(GPT_VOCAB) - 1):
    ids, picked = list(ids), []
    for r in range(max_len):
        best = int(torch.argmax(gpt2_reference(W, c, prefix, ids)["logits"][-1]))
        if best == eos:
            break
        picked.append(best)
        if r + 1 == max_len or len(ids) >= c["P"]:
            break
        ids.append(best)
    return picked


# ---- running the CLI -----------------------------------------------------------------------


def run_cli(cli, args):
    p = subprocess.run([cli] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def compare(name, doc, ref, failures, verbose):
    steps = {s["id"]: s for s in doc["steps"]}
    for sid, want in ref.items():
        if sid not in steps:
            failures.append("%s: the trace has no step %s" % (name, sid))
            continue
        got = torch.tensor([float("nan") if v is None else v for v in np.ravel(steps[sid]["data"])], dtype=torch.float64)
        want = want.reshape(-1)
        if got.numel() != want.numel():
            failures.append("%s: %s has %d values, the reference %d" % (name, sid, got.numel(), want.numel()))
            continue
        scale = float(want.abs().max())
        err = float((got - want).abs().max())
        if not (err <= RTOL * scale):
            failures.append("%s: %s differs by %.3g (> %.0e × max|ref| %.3g)" % (name, sid, err, RTOL, scale))
        elif verbose:
            print("  %s %s: max error %.2e of %.2e" % (name, sid, err, scale))


# ---- the cases -----------------------------------------------------------------------------

# Each case's config away from the defaults (eps: layer_norm_eps / layer_norm_epsilon; act: hidden_act /
# activation / activation_function; ff: GPT-2's n_inner, not 4·d; sinusoidal: DistilBERT's
# sinusoidal_pos_embds). The two eps-sensitive cases (eps 0.05, activations of variance ~1 into
# LayerNorm) are the ones planted default-eps must fail on.
CASES = [
    # name, model_type, head, layers, dtype, prefix, gamma/beta, pair, config
    ("bert-mlm-f32", "bert", "mlm", 2, "F32", "bert.", False, True, {"act": "gelu", "eps": 1e-6}),
    ("bert-mlm-f16-gammabeta", "bert", "mlm", 1, "F16", "bert.", True, False, {"act": "relu", "eps": 1e-7}),
    ("bert-cls-f32", "bert", "cls", 3, "F32", "bert.", False, True, {"act": "gelu_new", "eps": 0.05}),
    ("bert-base-noprefix-bf16", "bert", "base", 1, "BF16", "", False, False, {"act": "relu", "eps": 1e-3}),
    ("distilbert-mlm-f32", "distilbert", "mlm", 2, "F32", "distilbert.", False, False, {"act": "relu", "sinusoidal": True}),
    ("distilbert-cls-f16", "distilbert", "cls", 1, "F16", "distilbert.", False, False, {"act": "gelu", "sinusoidal": True}),
    ("gpt2-lm-f32", "gpt2", "lm", 2, "F32", "transformer.", False, False, {"act": "gelu", "eps": 1e-3, "ff": 40}),
    ("gpt2-lm-f16", "gpt2", "lm", 3, "F16", "transformer.", False, False, {"act": "relu", "eps": 0.05, "ff": 24}),
    ("gpt2-base-noprefix-f32", "gpt2", "base", 1, "F32", "", False, False, {"act": "gelu_pytorch_tanh", "eps": 1e-6, "ff": 48}),
]

ARCH = {("bert", "mlm"): "BertForMaskedLM", ("bert", "cls"): "BertForSequenceClassification",
        ("bert", "base"): "BertModel", ("distilbert", "mlm"): "DistilBertForMaskedLM",
        ("distilbert", "cls"): "DistilBertForSequenceClassification", ("gpt2", "lm"): "GPT2LMHeadModel",
        ("gpt2", "base"): "GPT2Model"}


def config_json(mt, head, c):
    arch = [ARCH[(mt, head)]]
    if mt == "bert":
        j = {"model_type": "bert", "architectures": arch, "hidden_size": c["d"], "num_attention_heads": c["H"],
             "num_hidden_layers": c["L"], "intermediate_size": c["ff"], "hidden_act": c.get("act", "gelu"),
             "max_position_embeddings": c["P"], "type_vocab_size": 2, "vocab_size": len(BERT_VOCAB),
             "layer_norm_eps": c.get("eps", 1e-12), "hidden_dropout_prob": 0.1, "position_embedding_type": "absolute",
             "transformers_version": "4.40.0"}
    elif mt == "distilbert":
        j = {"model_type": "distilbert", "architectures": arch, "dim": c["d"], "n_heads": c["H"], "n_layers": c["L"],
             "hidden_dim": c["ff"], "activation": c.get("act", "gelu"), "max_position_embeddings": c["P"],
             "vocab_size": len(BERT_VOCAB), "sinusoidal_pos_embds": bool(c.get("sinusoidal"))}
    else:
        j = {"model_type": "gpt2", "architectures": arch, "n_embd": c["d"], "n_head": c["H"], "n_layer": c["L"],
             "n_inner": None if PLANT == "n-inner-absent" or c["ff"] == 4 * c["d"] else c["ff"],
             "activation_function": c.get("act", "gelu_new"), "n_positions": c["P"], "n_ctx": c["P"],
             "vocab_size": len(GPT_VOCAB), "layer_norm_epsilon": c.get("eps", 1e-5), "bos_token_id": len(GPT_VOCAB) - 1,
             "eos_token_id": len(GPT_VOCAB) - 1}
    if head == "cls":
        j["id2label"] = {"0": "NEGATIVE", "1": "POSITIVE", "2": "NEUTRAL"}
        j["label2id"] = {"NEGATIVE": 0, "POSITIVE": 1, "NEUTRAL": 2}
    return j


def check_case(cli, root, case, rng, failures, verbose):
    name, mt, head, L, dtype, prefix, gb, pair, cfg = case
    c = dict({"d": 16, "H": 4, "ff": 24 if mt != "gpt2" else 64, "L": L, "P": 24, "labels": 3, "dtype": dtype}, **cfg)
    d = os.path.join(root, name)
    if mt == "gpt2":
        tensors = gpt2_tensors(rng, c, prefix)
    else:
        tensors = bert_tensors(rng, c, mt == "distilbert", head, prefix, gb)
    W = write_dir(d, config_json(mt, head, c), tensors, dtype, "gpt2" if mt == "gpt2" else "bert")
    if mt == "gpt2":
        ids, types = [GPT_VOCAB.index(w) for w in ["the", "Ġcat", "Ġsat", "Ġon", "the", "Ġmat"]], None
    else:  # [CLS] the cat sat on the [MASK] . [SEP] (it ran in the park . [SEP])
        ids = [2, 5, 6, 7, 8, 5, 4, 17, 3] + ([19, 12, 15, 5, 16, 17, 3] if pair else [])
        types = [0] * 9 + ([1] * 7 if pair else [])
    if mt == "gpt2":
        ref = gpt2_reference(W, c, prefix, ids)
        if head == "base":
            del ref["logits"]
    else:
        ref = bert_reference(W, c, mt == "distilbert", head, prefix, ids, types, gb)
    rc, out, err = run_cli(cli, ["--checkpoint", d, "--ids", ",".join(map(str, ids)), "--json"])
    if rc != 0:
        failures.append("%s: the CLI failed (%d): %s" % (name, rc, err.strip()))
        return
    doc = json.loads(out)
    steps = {s["id"]: s for s in doc["steps"]}
    if [int(v) for v in steps["token_ids"]["data"]] != ids:
        failures.append("%s: token ids %s, given %s" % (name, steps["token_ids"]["data"], ids))
    if types is not None and mt == "bert":
        if [int(v) for v in steps["token_type_ids"]["data"]] != types:
            failures.append("%s: token types %s, expected %s" % (name, steps["token_type_ids"]["data"], types))
    compare(name, doc, ref, failures, verbose)
    notes = doc.get("checkpoint", {}).get("notes", [])
    if head == "mlm" and mt == "bert" and not any("cls.seq_relationship" in n for n in notes):
        failures.append("%s: no note says cls.seq_relationship was ignored: %s" % (name, notes))
    if mt == "bert" and not pair:  # text through the checkpoint's own tokenizer (vocab.txt: whole words here)
        rc, out, err = run_cli(cli, ["--checkpoint", d, "--text", "The cat sat on the [MASK].", "--json"])
        got = [int(v) for v in json.loads(out)["steps"][0]["data"]] if rc == 0 else err
        want = [BERT_VOCAB.index(t) for t in ["[CLS]", "the", "cat", "sat", "on", "the", "[MASK]", ".", "[SEP]"]]
        if got != want:
            failures.append("%s: --text gave token ids %s, the vocabulary's %s" % (name, got, want))
    if head == "mlm":  # the [MASK] at position 6: its top fill is the reference's argmax
        want = BERT_VOCAB[int(torch.argmax(ref["mlm.logits"].reshape(len(ids), -1)[6]))]
        fills = doc.get("fills") or [[{}]]
        if fills[0][0].get("token") != want:
            failures.append("%s: the [MASK]'s top fill %s, the reference's %s" % (name, fills[0][0], want))
    if head == "cls":
        want = ["NEGATIVE", "POSITIVE", "NEUTRAL"][int(torch.argmax(ref["cls.logits"]))]
        if doc.get("prediction", {}).get("label") != want:
            failures.append("%s: prediction %s, the reference's %s" % (name, doc.get("prediction"), want))
    if head == "lm":
        rc, out, err = run_cli(cli, ["--checkpoint", d, "--ids", ",".join(map(str, ids)), "--json", "--generate"])
        want = gpt2_greedy(W, c, prefix, ids)
        got = json.loads(out).get("generated_ids") if rc == 0 else err
        if got != want:
            failures.append("%s: generated %s, the reference's greedy loop %s" % (name, got, want))
        elif verbose:
            print("  %s generated %s" % (name, got))


# ---- bad checkpoints -----------------------------------------------------------------------


def bad_cases(cli, root, rng, failures, verbose):
    c = {"d": 8, "H": 2, "ff": 16, "L": 1, "P": 8, "labels": 2}
    good = bert_tensors(rng, c, False, "base", "bert.", False)
    conf = config_json("bert", "base", c)

    def case(name, expect, config=conf, tensors=good, mutate=None, raw_config=None):
        d = os.path.join(root, "bad-" + name)
        write_dir(d, config, tensors, "F32", "bert")
        if raw_config is not None:
            with open(os.path.join(d, "config.json"), "w") as f:
                f.write(raw_config)
        if mutate:
            mutate(d)
        rc, out, err = run_cli(cli, ["--checkpoint", d, "--ids", "2,5,3", "--json"])
        missing = [e for e in expect if e not in err]
        if rc == 0 or missing:
            failures.append("bad %s: exit %d, message %r lacks %s" % (name, rc, err.strip(), missing))
        elif verbose:
            print("  bad %s: %s" % (name, err.strip()))

    def drop(path):
        return lambda d: os.remove(os.path.join(d, path))

    def truncate(d):
        p = os.path.join(d, "model.safetensors")
        data = open(p, "rb").read()
        open(p, "wb").write(data[:-40])

    def rewrite_header(edit):
        def go(d):
            p = os.path.join(d, "model.safetensors")
            data = open(p, "rb").read()
            n = struct.unpack("<Q", data[:8])[0]
            h = json.loads(data[8:8 + n])
            edit(h)
            hb = json.dumps(h).encode()
            hb += b" " * ((8 - len(hb) % 8) % 8)
            open(p, "wb").write(struct.pack("<Q", len(hb)) + hb + data[8 + n:])
        return go

    first = "bert.embeddings.word_embeddings.weight"

    def overlap(h):
        h["bert.embeddings.position_embeddings.weight"]["data_offsets"][0] -= 16
        h["bert.embeddings.position_embeddings.weight"]["data_offsets"][1] -= 16

    def misalign(d):  # every tensor 2 bytes later: the first starts inside a float32
        p = os.path.join(d, "model.safetensors")
        data = open(p, "rb").read()
        n = struct.unpack("<Q", data[:8])[0]
        h = json.loads(data[8:8 + n])
        for v in h.values():
            v["data_offsets"] = [v["data_offsets"][0] + 2, v["data_offsets"][1] + 2]
        hb = json.dumps(h).encode()
        hb += b" " * ((8 - len(hb) % 8) % 8)
        open(p, "wb").write(struct.pack("<Q", len(hb)) + hb + b"\0\0" + data[8 + n:])

    def bad_dtype(h):
        h[first]["dtype"] = "Q4"

    def int_weight(h):
        h[first]["dtype"] = "I32"

    case("missing-config", ["config.json", "missing"], mutate=drop("config.json"))
    case("config-not-json", ["config.json", "not valid JSON"], raw_config="{model_type: bert")
    case("missing-weights", ["model.safetensors", "missing"], mutate=drop("model.safetensors"))
    less = dict(good)
    del less["bert.encoder.layer.0.attention.self.key.weight"]
    case("missing-tensor", ["model.safetensors", "bert.encoder.layer.0.attention.self.key.weight", "missing"], tensors=less)
    wrong = dict(good)
    wrong["bert.encoder.layer.0.intermediate.dense.weight"] = rnd(rng, 8, 16)
    case("wrong-shape", ["model.safetensors", "bert.encoder.layer.0.intermediate.dense.weight", "shape"], tensors=wrong)
    case("truncated", ["model.safetensors", "bert.", "outside"], mutate=truncate)
    case("overlapping", ["model.safetensors", "bert.embeddings.position_embeddings.weight", "overlaps"],
         mutate=rewrite_header(overlap))
    case("unknown-dtype", ["model.safetensors", first, "dtype", "Q4"], mutate=rewrite_header(bad_dtype))
    case("integer-weights", ["model.safetensors", first, "\"I32\"", "F32, F16 or BF16"], mutate=rewrite_header(int_weight))
    case("unknown-model-type", ["config.json", "model_type", "roberta", "supported"], config=dict(conf, model_type="roberta"))
    case("unknown-activation", ["config.json", "hidden_act", "swish", "supported"], config=dict(conf, hidden_act="swish"))
    case("relative-positions", ["config.json", "position_embedding_type"],
         config=dict(conf, position_embedding_type="relative_key"))
    case("unknown-architecture", ["config.json", "architectures", "BertForQuestionAnswering"],
         config=dict(conf, architectures=["BertForQuestionAnswering"]))
    case("header-too-large", ["model.safetensors", "header length"],
         mutate=lambda d: open(os.path.join(d, "model.safetensors"), "r+b").write(struct.pack("<Q", 1 << 40)))
    case("misaligned", ["model.safetensors", "misaligned"], mutate=misalign)


def main(argv=None):
    global PLANT
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", required=True)
    ap.add_argument("--keep", help="write the checkpoints here and keep them")
    ap.add_argument("--plant", choices=["tanh-gelu", "untransposed", "qkv-order", "no-token-types", "default-eps",
                                        "default-act", "n-inner-absent", "sinusoidal-halves"])
    ap.add_argument("--expect-caught", metavar="CASE,…",
                    help="with --plant: run only these cases; exit 0 exactly when each of them fails")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args(argv)
    PLANT = args.plant
    expect = args.expect_caught.split(",") if args.expect_caught else None
    if expect and (not PLANT or not set(expect) <= {c[0] for c in CASES}):
        ap.error("--expect-caught needs --plant and case names from: " + ", ".join(c[0] for c in CASES))
    root = args.keep or tempfile.mkdtemp(prefix="ew-checkpoints-")
    if args.keep and os.path.exists(root):
        shutil.rmtree(root)
    os.makedirs(root, exist_ok=True)
    failures = []
    rng = np.random.default_rng(19)
    try:
        for case in CASES:
            if expect is None or case[0] in expect:
                check_case(args.cli, root, case, rng, failures, args.verbose)
        if expect is None:
            bad_cases(args.cli, root, rng, failures, args.verbose)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    if expect is not None:  # a planted defect: each named case must have failed
        missed = [n for n in expect if not any(f.startswith(n + ":") for f in failures)]
        for f in failures:
            print("caught: " + f)
        for n in missed:
            print("FAIL planted %s was not caught by %s" % (PLANT, n))
        print("planted %s: %s" % (PLANT, "caught by %s" % ", ".join(expect) if not missed else "%d cases missed it" % len(missed)))
        return 1 if missed else 0
    for f in failures:
        print("FAIL " + f)
    print("%d checkpoints and the bad ones: %s" % (len(CASES), "%d failures" % len(failures) if failures else "all agree"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
