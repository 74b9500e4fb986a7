#!/usr/bin/env python3
"""check_gradients.py — the backward pass (core/trace/backward.h) against PyTorch autograd
(Debian's python3-torch, float64).

For random models (encoder-only with a classification head and label(s); encoder-decoder with
a target; encoders with the masked-word head and mask_targets; post- and pre-norm; ReLU and GELU; causal; a padded batch of two; learned or
sinusoidal positions; 1-3 layers; 1-4 heads), the CLI runs `--backward --json`. This script
rebuilds the recorded forward computation in torch — every step from its inputs by its kind,
from the CLI's own parameters, token ids and masks — checks each rebuilt step against the
CLI's value (so the rebuild is the computation the CLI did; whether that computation is the
right architecture is reference_numpy's job), computes the same loss, lets autograd
differentiate, and compares the loss and every grad.* step (activations and parameters) with
the gradients autograd gives:

    |ours − torch| ≤ 1e-4·max|torch of that tensor| + 1e-6·(largest |gradient| of the model)

(the second term covers tensors whose true gradient is zero up to rounding, such as a softmax
row maximum, whose two paths cancel). Every gradient autograd has must be in the trace and
every grad.* step in the trace must have one.

Usage: check_gradients.py --cli build/native-release/encoder-walkthrough [--models N] [--seed S]
"""
import argparse
import json
import math
import subprocess
import sys
import tempfile

import numpy as np
import torch
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)

WORDS = "the frost was hard and snow lay deep in bleak midwinter earth stood as iron water like a stone".split()


def random_model(rng, index):
    enc_dec = index % 2 == 1
    heads = int(rng.choice([1, 2, 4]))
    d = heads * int(rng.choice([2, 3, 4]))
    cfg = {"d_model": d, "num_heads": heads, "d_ff": int(rng.integers(4, 17)), "num_layers": int(rng.integers(1, 4)),
           "norm": str(rng.choice(["post", "pre"])), "activation": str(rng.choice(["relu", "gelu"])),
           "causal": bool(rng.random() < 0.3), "positional": str(rng.choice(["sinusoidal", "learned"])),
           "scale": bool(rng.random() < 0.85), "seed": int(rng.integers(1, 10 ** 6))}
    text = " ".join(rng.choice(WORDS, size=int(rng.integers(2, 7))))
    doc = {"config": cfg, "text": text}
    if enc_dec:
        cfg["decoder_layers"] = int(rng.integers(1, 3))
        doc["target"] = " ".join(rng.choice(WORDS, size=int(rng.integers(1, 5))))
        if rng.random() < 0.3:
            cfg["num_labels"] = 2
            doc["label"] = int(rng.integers(0, 2))
    else:
        cfg["num_labels"] = int(rng.integers(2, 5))
        doc["label"] = int(rng.integers(0, cfg["num_labels"]))
        if rng.random() < 0.5:
            doc["text2"] = " ".join(rng.choice(WORDS, size=int(rng.integers(1, 7))))
            doc["label2"] = int(rng.integers(0, cfg["num_labels"]))
    return doc


def masked_text(rng, n):
    """n random words, some of them (at least one) replaced by [MASK]; returns (text, targets)."""
    words = list(rng.choice(WORDS, size=n))
    hide = rng.random(n) < 0.3
    hide[int(rng.integers(0, n))] = True
    text = " ".join("[MASK]" if h else w for w, h in zip(words, hide))
    return text, [w for w, h in zip(words, hide) if h]


def random_masked_model(rng):
    """An encoder with the masked-word head (config.masked_lm) and mask_targets; sometimes a
    padded batch of two, sometimes a classifier head as well (both losses add). d_model >= 4:
    a LayerNorm over 2 features is ill-conditioned in float32 (its var gradient ~1e2 from
    rounding-level differences), which would test float32 rounding, not the head."""
    doc = random_model(rng, 0)
    while doc["config"]["d_model"] < 4:
        doc = random_model(rng, 0)
    cfg = doc["config"]
    cfg["masked_lm"] = True
    doc["text"], targets = masked_text(rng, int(rng.integers(2, 8)))
    doc.pop("text2", None)
    doc.pop("label2", None)
    if rng.random() < 0.5:
        doc["text2"], more = masked_text(rng, int(rng.integers(1, 6)))
        targets += more
    if rng.random() < 0.5:
        del cfg["num_labels"], doc["label"]
    doc["mask_targets"] = targets
    return doc


def tensor(values, shape):
    a = np.array([-math.inf if v is None else v for v in values], dtype=np.float64).reshape(shape)
    return torch.tensor(a)


class Replay:
    """The CLI's forward steps rebuilt in torch from their inputs."""

    def __init__(self, out, doc):
        self.out, self.doc = out, doc
        self.cfg = out["config"]
        self.t = {}
        for p in out["params"]:
            self.t[p["id"]] = tensor(p["data"], p["shape"]).requires_grad_(True)
        self.params = {p["id"] for p in out["params"]}

    def run(self):
        steps = [s for s in self.out["steps"] if not s["id"].startswith("grad.") and s["id"] != "loss"]
        worst = 0.0
        for s in steps:
            y = self.step(s)
            self.t[s["id"]] = y
            if y.requires_grad:
                y.retain_grad()
            want = tensor(s["data"], s["shape"])
            fin = torch.isfinite(want)
            if not torch.equal(fin, torch.isfinite(y.detach())):
                raise AssertionError("replay of %s: masked positions differ" % s["id"])
            if fin.any():
                err = (y.detach()[fin] - want[fin]).abs().max().item()
                scale = want[fin].abs().max().item() + 1e-6
                worst = max(worst, err / scale)
                if err > 1e-4 * scale + 1e-6:
                    raise AssertionError("replay of %s differs from the CLI by %.3g (scale %.3g)" % (s["id"], err, scale))
        return worst

    def step(self, s):
        kind, inp, shape = s["kind"], [self.t.get(i) for i in s["inputs"]], s["shape"]
        c = self.cfg
        dk = c["d_model"] // c["num_heads"]
        if kind in ("tokens", "mask", "positional", "given"):
            x = tensor(s["data"], shape)
            return x.requires_grad_(True) if kind == "given" else x
        if kind == "linear":
            x, W, b = inp
            rows = int(np.prod(shape)) // W.shape[1]
            return (x.reshape(-1, W.shape[0])[:rows] @ W + b).reshape(shape)
        if kind == "add":
            return (inp[0] + inp[1]).reshape(shape)
        if kind == "copy":
            return inp[0].reshape(shape)
        if kind == "pool":
            return inp[0][..., 0, :].reshape(shape)
        if kind == "mean":
            return inp[0].mean(-1).reshape(shape)
        if kind == "var":
            x, mu = inp
            return ((x - mu.reshape(x.shape[:-1])[..., None]) ** 2).mean(-1).reshape(shape)
        if kind == "layernorm":
            x, mu, var, g, b = inp
            lead = x.shape[:-1]
            return ((x - mu.reshape(lead)[..., None]) / torch.sqrt(var.reshape(lead)[..., None] + c["layer_norm_eps"]) * g + b)
        if kind == "rowmax":
            return inp[0].max(-1).values.reshape(shape)
        if kind == "rowsum":
            z, m = inp
            return torch.exp(z - m.reshape(z.shape[:-1])[..., None]).sum(-1).reshape(shape)
        if kind == "softmax":
            z, m, sm = inp
            lead = z.shape[:-1]
            return torch.exp(z - m.reshape(lead)[..., None]) / sm.reshape(lead)[..., None]
        if kind == "scale_mask":
            S, M = inp
            return S * (1.0 / math.sqrt(dk) if c["scale"] else 1.0) + M
        h = s["head"]
        cols = slice(h * dk, (h + 1) * dk)
        if kind == "scores":
            return inp[0][..., cols] @ inp[1][..., cols].transpose(-1, -2)
        if kind == "context":
            return inp[0] @ inp[1][..., cols]
        if kind == "concat":
            return torch.cat(inp, -1)
        if kind == "activation":
            return F.relu(inp[0]) if c["activation"] == "relu" else F.gelu(inp[0])
        if kind == "lookup":
            if len(inp) == 2:
                return inp[1][inp[0].long()]
            return inp[0][: shape[0]]
        if kind == "logits":
            return inp[0] @ inp[1].T
        raise AssertionError("no replay rule for kind %r (step %s)" % (kind, s["id"]))

    def loss(self):
        """The loss docs/trace.md defines (core/trace/backward.cpp computes it the same way)."""
        text, total = self.out["text"], 0.0
        if self.cfg.get("num_labels", 0) > 0 and ("label" in self.doc or "label2" in self.doc):
            p = self.t["cls.probs"].reshape(-1, self.cfg["num_labels"])
            labels = [self.doc.get("label", -1), self.doc.get("label2", -1)][: p.shape[0]]
            terms = [-torch.log(p[b, y]) for b, y in enumerate(labels) if y >= 0]
            total = total + sum(terms) / len(terms)
        if self.cfg.get("masked_lm") and self.doc.get("mask_targets"):
            vocab, src = text["vocab"], text["source_tokens"]
            T = max(len(s) for s in src)
            p = self.t["mlm.probs"].reshape(-1, len(vocab))
            rows = [b * T + i for b, s in enumerate(src) for i, tok in enumerate(s) if tok == "[MASK]"]
            ids = [vocab.index(t) for t in self.doc["mask_targets"]]
            total = total + sum(-torch.log(p[r, y]) for r, y in zip(rows, ids)) / len(ids)
        if self.cfg.get("decoder_layers", 0) > 0:
            vocab, tgt = text["vocab"], text["target_tokens"]
            ids = [vocab.index(t) for t in tgt[1:]] + [vocab.index("</s>")]
            p = self.t["probs"]
            total = total + sum(-torch.log(p[t, y]) for t, y in enumerate(ids)) / len(ids)
        return total


def check(cli, doc, name):
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        json.dump(doc, f)
        f.flush()
        r = subprocess.run([cli, "--model", f.name, "--backward", "--json"], capture_output=True, text=True)
    if r.returncode != 0:
        return ["CLI failed: " + r.stderr.strip()], 0, 0.0
    out = json.loads(r.stdout)
    rep = Replay(out, doc)
    try:
        rep.run()
    except AssertionError as e:
        return [str(e)], 0, 0.0
    L = rep.loss()
    L.backward()
    ours = {s["id"]: s for s in out["steps"]}
    fails = []
    if abs(ours["loss"]["data"][0] - L.item()) > 1e-5 * abs(L.item()) + 1e-6:
        fails.append("loss: CLI %.9g, torch %.9g" % (ours["loss"]["data"][0], L.item()))
    grads = {k: v.grad for k, v in rep.t.items() if isinstance(v, torch.Tensor) and v.grad is not None}
    big = max(g.abs().max().item() for g in grads.values())
    compared, worst = 0, 0.0
    for k, g in grads.items():
        s = ours.get("grad." + k)
        if s is None:
            if g.abs().max().item() > 0:  # torch's zero grads on constants' paths are not steps
                fails.append("grad.%s: autograd has a gradient (max %.3g), the trace has no step" % (k, g.abs().max().item()))
            continue
        got = tensor(s["data"], s["shape"])
        if list(got.shape) != list(g.shape):
            fails.append("grad.%s: shape %s, torch %s" % (k, list(got.shape), list(g.shape)))
            continue
        err = (got - g).abs().max().item()
        allowed = 1e-4 * g.abs().max().item() + 1e-6 * big
        worst = max(worst, err / allowed)
        compared += 1
        if err > allowed:
            i = int((got - g).abs().argmax())
            fails.append("grad.%s: first worst at flat index %d: CLI %.9g, torch %.9g (|diff| %.3g > %.3g)"
                         % (k, i, got.flatten()[i].item(), g.flatten()[i].item(), err, allowed))
    for sid in ours:
        if sid.startswith("grad.") and sid[5:] not in grads:
            fails.append("%s: in the trace, but autograd gives that tensor no gradient" % sid)
    return fails, compared, worst


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--models", type=int, default=40)
    ap.add_argument("--masked", type=int, default=12, help="extra models with the masked-word head")
    ap.add_argument("--seed", type=int, default=2026)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    failed, total, worst = 0, 0, 0.0
    for i in range(a.models + a.masked):
        doc = random_model(rng, i) if i < a.models else random_masked_model(rng)
        fails, compared, w = check(a.cli, doc, "model %d" % i)
        total += compared
        worst = max(worst, w)
        if fails:
            failed += 1
            print("FAIL model %d: %s" % (i, json.dumps(doc)))
            for f in fails[:8]:
                print("  " + f)
    n = a.models + a.masked
    print("gradients vs torch autograd: %d models (%d with the masked-word head), %d gradient tensors compared, "
          "worst %.3f of the tolerance" % (n, a.masked, total, worst))
    print("%d passed, %d failed" % (n - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
