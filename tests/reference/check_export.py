#!/usr/bin/python3
"""check_export.py — `encoder-walkthrough export --hf DIR` written, read back and checked.

Usage:
  /usr/bin/python3 tests/reference/check_export.py --cli PATH/encoder-walkthrough [--keep DIR] [--verbose]

What it does
  1. Every preset: `export --hf` either writes it (the set EXPORTS below) or refuses it with exit 1
     and "does not fit BERT" and the reasons; a preset that changes side fails the check.
  2. Model files that fit BERT (written here: post-norm, learned positions, whitespace tokenizer;
     ReLU / GELU / tanh-GELU; seeded weights, and a given vocabulary and token table), and every
     preset in EXPORTS: `CLI --model F --json` (the model's own trace), `CLI export --hf D`, then
     `CLI --checkpoint D --text T --json`. Every step of the model's trace must be in the
     checkpoint's with the same id and size and agree to RTOL = 1e-5 of the step's largest |value|
     (the maximum error seen is printed with --verbose; so far it is exactly 0). The checkpoint's
     trace may hold only BERT's token-type steps besides (token_type_ids, token_type_embedding: one
     all-zero row), and those must be 0.
  3. The written model.safetensors read by NumPy from the format's definition (8-byte length, JSON
     header, the data 8-byte aligned, offsets contiguous, F32 little-endian), each tensor compared
     with the model's own parameter (from its --json) under BERT's names as written here, from
     BertModel's definition: nn.Linear weights are [out, in], so our in×out matrices transposed.
  4. PyTorch: BERT's forward pass (tests/reference/check_checkpoints.py's bert_reference, float64,
     written from the transformers source) over the exported tensors must give the *model's own*
     trace (input, every layer's output, output) to 1e-4 (float32 against float64), for every model
     exported, with the activation and ε its config.json names (GELU, ReLU, tanh-GELU; 1e-12 to
     1e-5). PyTorch is required: without it the check fails at import, it never skips.
  5. Refusals: unknown preset, a DIR that cannot be created, no --hf: non-zero with a message.
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
import torch  # the BERT reference (step 4): required, never skipped

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_checkpoints as ref  # noqa: E402

RTOL = 1e-5          # CLI model vs CLI checkpoint (both float32, the same operations)
RTOL_TORCH = 1e-4    # float32 trace vs PyTorch float64
EXPORTS = set()      # presets BERT can express exactly: none (see export --help)
EXTRA_STEPS = {"token_type_ids", "token_type_embedding"}

MODELS = {
    # BERT's own choices (GELU, ε = 1e-12); every model is checked against the PyTorch reference.
    "bert-gelu": ({"config": {"d_model": 8, "num_heads": 2, "d_ff": 16, "num_layers": 2, "norm": "post",
                              "activation": "gelu", "layer_norm_eps": 1e-12, "positional": "learned",
                              "tokenizer": "whitespace", "seed": 5},
                   "text": "the cat sat on the mat , the end"}),
    "relu-unicode": ({"config": {"d_model": 12, "num_heads": 3, "d_ff": 20, "num_layers": 1, "norm": "post",
                                 "activation": "relu", "layer_norm_eps": 1e-5, "positional": "learned",
                                 "tokenizer": "whitespace", "seed": 7, "max_tokens": 40},
                      "text": "naïve café déjà-vu, Ünïcödé   words\tand 123 _under_ (brackets)"}),
    "tanh-gelu-3layers": ({"config": {"d_model": 6, "num_heads": 1, "d_ff": 10, "num_layers": 3, "norm": "post",
                                      "activation": "gelu_new", "layer_norm_eps": 1e-6, "positional": "learned",
                                      "tokenizer": "whitespace", "seed": 11},
                           "text": "a b c a b c d"}),
}


def given_vocab_model():
    """A model file with its own vocabulary and token table (no <unk>: the export adds a zero row)."""
    rng = np.random.default_rng(3)
    vocab = ["<pad>", "<s>", "</s>", "red", "green", "blue", "sky", "is", "the"]
    return ({"config": {"d_model": 4, "num_heads": 2, "d_ff": 8, "num_layers": 1, "norm": "post", "activation": "relu",
                        "layer_norm_eps": 1e-5, "positional": "learned", "tokenizer": "whitespace", "seed": 2},
             "vocab": vocab, "embedding": np.round(rng.uniform(-1, 1, (len(vocab), 4)), 4).tolist(),
             "text": "the sky is blue"})


def run(cli, args):
    p = subprocess.run([cli] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def trace(cli, args, failures, name):
    rc, out, err = run(cli, args + ["--json"])
    if rc != 0:
        failures.append("%s: %s exited %d: %s" % (name, " ".join(args), rc, err.strip()[:300]))
        return None
    return json.loads(out)


def flat(step):
    return np.array([np.nan if v is None else v for v in np.ravel(step["data"])], dtype=np.float64)


def compare_traces(name, own, ckpt, failures, verbose):
    """Every step of our trace in the checkpoint's: same id, same size, within RTOL."""
    a = {s["id"]: s for s in own["steps"]}
    b = {s["id"]: s for s in ckpt["steps"]}
    extra = set(b) - set(a)
    if extra - EXTRA_STEPS:
        failures.append("%s: the checkpoint's trace has steps the model's has not: %s" % (name, sorted(extra - EXTRA_STEPS)))
    for sid in extra & EXTRA_STEPS:
        if sid == "token_type_embedding" and np.any(flat(b[sid]) != 0):
            failures.append("%s: token_type_embedding is not all zero" % name)
    worst = 0.0
    for sid, s in a.items():
        if sid not in b:
            failures.append("%s: the checkpoint's trace has no step %s" % (name, sid))
            continue
        x, y = flat(s), flat(b[sid])
        if x.size != y.size:
            failures.append("%s: %s has %d values, the checkpoint's %d" % (name, sid, x.size, y.size))
            continue
        if not np.array_equal(np.isfinite(x), np.isfinite(y)) or np.any(x[~np.isfinite(x)] != y[~np.isfinite(y)]):
            failures.append("%s: %s: the non-finite values (masks) differ" % (name, sid))
            continue
        fin = np.isfinite(x)
        scale = float(np.abs(x[fin]).max()) if fin.any() else 0.0
        err = float(np.abs(x[fin] - y[fin]).max()) if fin.any() else 0.0
        worst = max(worst, err / scale if scale else err)
        if err > RTOL * scale:
            failures.append("%s: %s differs by %.3g (> %.0e x max|value| %.3g)" % (name, sid, err, RTOL, scale))
    if verbose:
        print("  %s: %d steps compared, largest relative error %.3g" % (name, len(a), worst))


def read_safetensors(path, name, failures):
    """The file as the format defines it, read with json + NumPy only."""
    b = open(path, "rb").read()
    n = struct.unpack("<Q", b[:8])[0]
    header = json.loads(b[8:8 + n].decode("utf-8"))
    if (8 + n) % 8:
        failures.append("%s: the data does not start 8-byte aligned (header length %d)" % (name, n))
    header.pop("__metadata__", None)
    data = b[8 + n:]
    out, spans = {}, []
    for key, e in header.items():
        if e["dtype"] != "F32":
            failures.append("%s: %s is %s, not F32" % (name, key, e["dtype"]))
        lo, hi = e["data_offsets"]
        if hi - lo != 4 * int(np.prod(e["shape"], dtype=np.int64)):
            failures.append("%s: %s: offsets [%d, %d) do not hold shape %s" % (name, key, lo, hi, e["shape"]))
        spans.append((lo, hi))
        out[key] = np.frombuffer(data[lo:hi], dtype="<f4").reshape(e["shape"]).astype(np.float64)
    spans.sort()
    pos = 0
    for lo, hi in spans:
        if lo != pos:
            failures.append("%s: a hole or overlap at byte %d of the data" % (name, pos))
        pos = hi
    if pos != len(data):
        failures.append("%s: the data is %d bytes, the tensors end at %d" % (name, len(data), pos))
    return out


def bert_names(layers):
    """Our parameter id → (BERT's tensor name, transposed?), from BertModel's definition."""
    m = {"embedding_table": ("embeddings.word_embeddings.weight", False),
         "position_table": ("embeddings.position_embeddings.weight", False),
         "embedding_ln.gamma": ("embeddings.LayerNorm.weight", False),
         "embedding_ln.beta": ("embeddings.LayerNorm.bias", False)}
    for i in range(layers):
        L, l = "encoder.layer.%d." % i, "layer%d." % i
        for ours, theirs in (("q", "attention.self.query"), ("k", "attention.self.key"), ("v", "attention.self.value"),
                             ("o", "attention.output.dense"), ("1", "intermediate.dense"), ("2", "output.dense")):
            m[l + "W_" + ours] = (L + theirs + ".weight", True)
            m[l + "b_" + ours] = (L + theirs + ".bias", False)
        for ours, theirs in (("ln1", "attention.output.LayerNorm"), ("ln2", "output.LayerNorm")):
            m[l + ours + ".gamma"] = (L + theirs + ".weight", False)
            m[l + ours + ".beta"] = (L + theirs + ".bias", False)
    return m


def check_tensors(name, own, W, layers, failures):
    params = {p["id"]: p for p in own["params"]}
    names = bert_names(layers)
    for pid, (key, transposed) in names.items():
        if pid not in params or key not in W:
            failures.append("%s: %s / %s missing (ours: %s, file: %s)" % (name, pid, key, pid in params, key in W))
            continue
        ours = np.array(params[pid]["data"], dtype=np.float64).reshape(params[pid]["shape"])
        theirs = W[key].T if transposed else W[key]
        if ours.ndim == 2 and theirs.shape[0] > ours.shape[0]:  # tables: the file may hold more rows
            theirs = theirs[:ours.shape[0]]
        if ours.shape != theirs.shape or not np.array_equal(ours.astype(np.float32), theirs.astype(np.float32)):
            failures.append("%s: %s differs from the model's %s" % (name, key, pid))
    tt = W.get("embeddings.token_type_embeddings.weight")
    if tt is None or tt.shape[0] != 1 or np.any(tt != 0):
        failures.append("%s: embeddings.token_type_embeddings.weight is not one zero row" % name)
    unused = set(W) - {k for k, _ in names.values()} - {"embeddings.token_type_embeddings.weight"}
    if unused:
        failures.append("%s: tensors no parameter explains: %s" % (name, sorted(unused)))


def check_torch(name, own, W, cfg, failures, verbose):
    steps = {s["id"]: s for s in own["steps"]}
    ids = [int(v) for v in np.ravel(steps["token_ids"]["data"])]
    Wt = {k: torch.tensor(v, dtype=torch.float64) for k, v in W.items()}
    c = {"L": cfg["num_hidden_layers"], "H": cfg["num_attention_heads"], "act": cfg["hidden_act"], "eps": cfg["layer_norm_eps"]}
    out = ref.bert_reference(Wt, c, False, "base", "", ids, [0] * len(ids), False)
    for sid, want in out.items():
        want = want.numpy().ravel()
        got = flat(steps[sid])
        err, scale = float(np.abs(got - want).max()), float(np.abs(want).max())
        if err > RTOL_TORCH * scale:
            failures.append("%s: PyTorch's BERT %s differs from the model's by %.3g (> %.0e x %.3g)" %
                            (name, sid, err, RTOL_TORCH, scale))
        elif verbose:
            print("  %s: PyTorch %s max error %.2e of %.2e" % (name, sid, err, scale))


def round_trip(cli, root, name, source, text, failures, verbose):
    d = os.path.join(root, name)
    own = trace(cli, source, failures, name)
    rc, out, err = run(cli, ["export", "--hf", d] + source)
    if own is None or rc != 0:
        if rc != 0:
            failures.append("%s: export exited %d: %s" % (name, rc, err.strip()[:400]))
        return
    ckpt = trace(cli, ["--checkpoint", d, "--text", text], failures, name + " (checkpoint)")
    if ckpt is None:
        return
    compare_traces(name, own, ckpt, failures, verbose)
    W = read_safetensors(os.path.join(d, "model.safetensors"), name, failures)
    cfg = json.load(open(os.path.join(d, "config.json")))
    check_tensors(name, own, W, cfg["num_hidden_layers"], failures)
    check_torch(name, own, W, cfg, failures, verbose)


def check_presets(cli, root, failures, verbose):
    rc, out, _ = run(cli, ["--list-presets"])
    names = [line.split("\t")[0] for line in out.splitlines() if line.strip()]
    if rc != 0 or not names:
        failures.append("--list-presets failed")
    for p in names:
        d = os.path.join(root, "preset-" + p)
        if p in EXPORTS:
            rc, out, _ = run(cli, ["--preset", p, "--json"])
            text = json.loads(out)["text"]["sentences"][0] if rc == 0 else ""
            round_trip(cli, root, "preset-" + p, ["--preset", p], text, failures, verbose)
            continue
        rc, _, err = run(cli, ["export", "--hf", d, "--preset", p])
        if rc != 1 or "does not fit BERT" not in err or "\n  - " not in err:
            failures.append("preset %s: expected a refusal with reasons (exit 1), got exit %d: %s" % (p, rc, err.strip()[:200]))
        elif os.path.exists(os.path.join(d, "model.safetensors")):
            failures.append("preset %s: refused, yet files were written" % p)
        elif verbose:
            print("  preset %s refused: %s" % (p, "; ".join(l.strip("- ") for l in err.splitlines()[1:])[:160]))


def check_refusals(cli, root, failures):
    blocker = os.path.join(root, "a-file")
    open(blocker, "w").write("x")
    cases = [(["export", "--hf", os.path.join(root, "u"), "--preset", "no-such-preset"], 1, "unknown preset"),
             (["export", "--hf", os.path.join(blocker, "sub"), "--model", os.path.join(root, "bert-gelu.json")], 1,
              "cannot create the directory"),
             (["export", "--preset", "default"], 2, "--hf"),
             (["export", "--hf", os.path.join(root, "v"), "--model", os.path.join(root, "missing.json")], 1, "missing.json")]
    for args, want_rc, want in cases:
        rc, _, err = run(cli, args)
        if rc != want_rc or want not in err:
            failures.append("%s: expected exit %d naming %r, got %d: %s" % (" ".join(args), want_rc, want, rc, err.strip()[:200]))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", required=True)
    ap.add_argument("--keep", help="write the checkpoints here and keep them")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args(argv)
    root = args.keep or tempfile.mkdtemp(prefix="ew-export-")
    if args.keep and os.path.exists(root):
        shutil.rmtree(root)
    os.makedirs(root, exist_ok=True)
    failures = []
    models = dict(MODELS, **{"given-vocab": given_vocab_model()})
    try:
        for name, model in models.items():
            path = os.path.join(root, name + ".json")
            json.dump(model, open(path, "w"))
            round_trip(args.cli, root, name, ["--model", path], model["text"], failures, args.verbose)
        check_presets(args.cli, root, failures, args.verbose)
        check_refusals(args.cli, root, failures)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    for f in failures:
        print("FAIL " + f)
    print("%d model files exported and read back, the presets refused as expected: %s" %
          (len(models), "%d failures" % len(failures) if failures else "all agree"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
