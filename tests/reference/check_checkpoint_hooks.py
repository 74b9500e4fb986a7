#!/usr/bin/python3
"""check_checkpoint_hooks.py — the what-if lab on Hugging Face checkpoints against PyTorch forward hooks.

Usage:
  /usr/bin/python3 tests/reference/check_checkpoint_hooks.py --cli PATH/encoder-walkthrough
                   [--plant DEFECT] [--verbose]

check_hooks.py holds the lab to PyTorch on our own models; this does it on checkpoints. Random
GPT-2 (LM head, causal, pre-norm, tanh GELU) and BERT (masked LM, post-norm, ReLU, eps 0.05)
checkpoints are written by check_checkpoints.py under their real tensor names, with configs away
from the defaults. The model here is an nn.Module computed in float64 from the file's tensors as
the transformers source defines each architecture (check_checkpoints.py's reference, re-cut so
that every head's context and every layer's output passes through a tap module named by our
step id). Each intervention is a forward hook on a tap, so everything after it is PyTorch's:
  --ablate layer{i}.head{h}       the hook on layer{i}.head{h}.context returns zeros
  --patch-from DONOR --patch layer{i}.output@p
                                  the donor runs through the same module; the hook copies its
                                  row p of layer{i}.output into this run
  --lens                          each layer's output through the model's own head in torch
                                  (GPT-2: ln_f and the tied token table; BERT: the masked-LM
                                  transform, the tied table and its bias)
The CLI's intervened run (--json) is compared with the hooked model: every layer's output and
the head's logits (and each lens.layer{i}.logits) to 1e-4 of the step's largest |value| (float32
against float64), and the intervened run must differ from the plain one (an intervention that
does nothing would pass the comparison trivially).

--plant DEFECT makes the *reference* wrong in one way the lab could be, and the check must fail:
  ablate-next-head  the hook zeroes head h + 1 instead of head h (a head id resolved one off);
  patch-next-row   the donor's row p + 1 copied instead of row p;
  lens-no-ln-f     GPT-2's lens without the final LayerNorm.
With --expect-caught the run exits 0 exactly when the planted defect failed the comparison (a crash
exits 1): the test command runs each planted defect that way.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile

import numpy as np
import torch
import torch.nn as nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_checkpoints as cc  # noqa: E402

torch.set_default_dtype(torch.float64)
RTOL = 1e-4
PLANT = None

# name, model_type, head, layers, prefix, config, text, donor (as many tokens), patched row
CASES = [
    ("gpt2-lm", "gpt2", "lm", 2, "transformer.", {"act": "gelu_new", "eps": 1e-3, "ff": 40},
     "the cat sat on the mat", "the dog ran on the mat", 2),
    ("bert-mlm", "bert", "mlm", 2, "bert.", {"act": "relu", "eps": 0.05},
     "the cat sat on the [MASK] .", "the dog ran on the [MASK] .", 2),
]


class Tap(nn.Module):
    """The identity, named by a step id: forward hooks on it intervene and record."""

    def forward(self, x):
        return x


class Hooked(nn.Module):
    """GPT-2 or BERT from the file's tensors (float64), with a tap at every head's context and
    every layer's output."""

    def __init__(self, mt, c, prefix, W):
        super().__init__()
        self.mt, self.c, self.p, self.W = mt, c, prefix, W
        ids = ["layer%d.output" % i for i in range(c["L"])]
        ids += ["layer%d.head%d.context" % (i, h) for i in range(c["L"]) for h in range(c["H"])]
        self.taps = nn.ModuleDict({k.replace(".", "/"): Tap() for k in ids})

    def tap(self, sid, x):
        return self.taps[sid.replace(".", "/")](x)

    def attention(self, i, q, k, v, causal, wo, bo):
        """Per-head contexts through their taps, then the concatenation times W_o (+ b_o)."""
        T, d = q.shape
        H = self.c["H"]
        dk = d // H
        ctx = []
        for h in range(H):
            sl = slice(h * dk, (h + 1) * dk)
            s = q[:, sl] @ k[:, sl].T / np.sqrt(dk)
            if causal:
                s = s.masked_fill(torch.triu(torch.ones(T, T, dtype=torch.bool), 1), float("-inf"))
            ctx.append(self.tap("layer%d.head%d.context" % (i, h), torch.softmax(s, -1) @ v[:, sl]))
        return wo(torch.cat(ctx, -1)) + bo

    def forward(self, ids):
        return self.gpt2(ids) if self.mt == "gpt2" else self.bert(ids)

    def gpt2(self, ids):
        g, c = (lambda k: self.W[self.p + k]), self.c
        eps, act, d = cc.eps_of(c, "gpt2"), cc.act_of(c, "gpt2"), c["d"]
        x = g("wte.weight")[ids] + g("wpe.weight")[:len(ids)]
        outs = []
        for i in range(c["L"]):
            L = "h.%d." % i
            a = cc.layer_norm(x, g(L + "ln_1.weight"), g(L + "ln_1.bias"), eps)
            q, k, v = (a @ g(L + "attn.c_attn.weight") + g(L + "attn.c_attn.bias")).split(d, dim=-1)
            Wo = g(L + "attn.c_proj.weight")
            x = x + self.attention(i, q, k, v, True, lambda z: z @ Wo, g(L + "attn.c_proj.bias"))
            m = cc.layer_norm(x, g(L + "ln_2.weight"), g(L + "ln_2.bias"), eps)
            x = x + act(m @ g(L + "mlp.c_fc.weight") + g(L + "mlp.c_fc.bias")) @ g(L + "mlp.c_proj.weight") + g(L + "mlp.c_proj.bias")
            x = self.tap("layer%d.output" % i, x)
            outs.append(x)
        head = lambda h: cc.layer_norm(h, g("ln_f.weight"), g("ln_f.bias"), eps) @ g("wte.weight").T
        lens = (lambda h: h @ g("wte.weight").T) if PLANT == "lens-no-ln-f" else head
        return outs, head(x), {"lens.layer%d.logits" % i: lens(o) for i, o in enumerate(outs)}

    def bert(self, ids):
        g, c, p = (lambda k: self.W[k]), self.c, self.p
        eps, act = cc.eps_of(c, "bert"), cc.act_of(c, "bert")
        lin = lambda x, n: cc.linear(x, g(n + ".weight"), g(n + ".bias"))
        x = g(p + "embeddings.word_embeddings.weight")[ids] + g(p + "embeddings.position_embeddings.weight")[:len(ids)]
        x = x + g(p + "embeddings.token_type_embeddings.weight")[[0] * len(ids)]
        x = cc.layer_norm(x, g(p + "embeddings.LayerNorm.weight"), g(p + "embeddings.LayerNorm.bias"), eps)
        outs = []
        for i in range(c["L"]):
            L = p + "encoder.layer.%d." % i
            q, k, v = (lin(x, L + "attention.self." + m) for m in ("query", "key", "value"))
            Wo = g(L + "attention.output.dense.weight")
            a = self.attention(i, q, k, v, False, lambda z: z @ Wo.T, g(L + "attention.output.dense.bias"))
            x1 = cc.layer_norm(a + x, g(L + "attention.output.LayerNorm.weight"), g(L + "attention.output.LayerNorm.bias"), eps)
            x = cc.layer_norm(lin(act(lin(x1, L + "intermediate.dense")), L + "output.dense") + x1,
                              g(L + "output.LayerNorm.weight"), g(L + "output.LayerNorm.bias"), eps)
            x = self.tap("layer%d.output" % i, x)
            outs.append(x)
        P_ = "cls.predictions."
        E = g(p + "embeddings.word_embeddings.weight")

        def head(h):
            t = act(lin(h, P_ + "transform.dense"))
            t = cc.layer_norm(t, g(P_ + "transform.LayerNorm.weight"), g(P_ + "transform.LayerNorm.bias"), eps)
            return t @ E.T + g(P_ + "bias")
        return outs, head(x), {"lens.layer%d.logits" % i: head(o) for i, o in enumerate(outs)}


def run_hooked(net, ids, hooks):
    """The module's (layer outputs, logits, lens) with `hooks` ({tap id: fn(out) → out}) attached."""
    handles = [net.taps[sid.replace(".", "/")].register_forward_hook(lambda _m, _i, out, f=f: f(out))
               for sid, f in hooks.items()]
    try:
        with torch.no_grad():
            return net(ids)
    finally:
        for h in handles:
            h.remove()


def compare(name, doc, outs, logits, lens, failures, verbose, with_lens=False):
    steps = {s["id"]: s for s in doc["steps"]}
    want = {"layer%d.output" % i: o for i, o in enumerate(outs)}
    want["logits" if "logits" in steps else "mlm.logits"] = logits
    if with_lens:
        want.update(lens)
    for sid, ref in want.items():
        if sid not in steps:
            failures.append("%s: the trace has no step %s" % (name, sid))
            continue
        got = torch.tensor([float("nan") if v is None else v for v in np.ravel(steps[sid]["data"])])
        ref = ref.reshape(-1)
        if got.numel() != ref.numel():
            failures.append("%s: %s has %d values, torch %d" % (name, sid, got.numel(), ref.numel()))
            continue
        err, scale = float((got - ref).abs().max()), float(ref.abs().max())
        if not err <= RTOL * scale:
            failures.append("%s: %s differs by %.3g (> %.0e × max|torch| %.3g)" % (name, sid, err, RTOL, scale))
        elif verbose:
            print("  %s %s: max error %.2e of %.2e" % (name, sid, err, scale))


def cli_json(cli, args, name, failures):
    rc, out, err = cc.run_cli(cli, args + ["--json"])
    if rc != 0:
        failures.append("%s: `%s` failed (%d): %s" % (name, " ".join(args[2:]), rc, err.strip()[:300]))
        return None
    return json.loads(out)


def check_case(cli, root, case, rng, failures, verbose):
    name, mt, head, L, prefix, cfg, text, donor, row = case
    c = dict({"d": 16, "H": 4, "ff": 24 if mt != "gpt2" else 64, "L": L, "P": 24, "labels": 3}, **cfg)
    d = os.path.join(root, name)
    tensors = cc.gpt2_tensors(rng, c, prefix) if mt == "gpt2" else cc.bert_tensors(rng, c, False, head, prefix, False)
    W = cc.write_dir(d, cc.config_json(mt, head, c), tensors, "F32", "gpt2" if mt == "gpt2" else "bert")
    net = Hooked(mt, c, prefix, W)
    base = ["--checkpoint", d, "--text", text]
    plain = cli_json(cli, base, name, failures)
    don = cli_json(cli, ["--checkpoint", d, "--text", donor], name + " donor", failures)
    if plain is None or don is None:
        return
    ids = [int(v) for v in plain["steps"][0]["data"]]
    dids = [int(v) for v in don["steps"][0]["data"]]
    if len(ids) != len(dids) or ids == dids:
        failures.append("%s: the donor's tokens %s must differ from %s at the same length" % (name, dids, ids))
        return
    outs0, logits0, _ = run_hooked(net, ids, {})

    # 1. a head switched off: layer 0's head 1 (GPT-2) / the last layer's head 2 (BERT)
    i, h = (0, 1) if mt == "gpt2" else (L - 1, 2)
    hz = h + 1 if PLANT == "ablate-next-head" else h
    hooks = {"layer%d.head%d.context" % (i, hz): lambda out: torch.zeros_like(out)}
    doc = cli_json(cli, base + ["--ablate", "layer%d.head%d" % (i, h)], name + " ablate", failures)
    outs, logits, _ = run_hooked(net, ids, hooks)
    if doc is not None:
        compare(name + " --ablate layer%d.head%d" % (i, h), doc, outs, logits, {}, failures, verbose)
        if float((logits - logits0).abs().max()) < 1e-6:
            failures.append("%s: switching the head off changed nothing in torch: the check would be empty" % name)

    # 2. patch layer 0's output at one row from the donor
    donor_out = run_hooked(net, dids, {})[0][0]
    src = row + 1 if PLANT == "patch-next-row" else row

    def patch(out):
        out = out.clone()
        out[row] = donor_out[src]
        return out
    doc = cli_json(cli, base + ["--patch-from", donor, "--patch", "layer0.output@%d" % row], name + " patch", failures)
    outs, logits, _ = run_hooked(net, ids, {"layer0.output": patch})
    if doc is not None:
        compare(name + " --patch layer0.output@%d" % row, doc, outs, logits, {}, failures, verbose)
        if float((logits - logits0).abs().max()) < 1e-6:
            failures.append("%s: the patch changed nothing in torch: the check would be empty" % name)

    # 3. the logit lens: each layer through the model's own head
    doc = cli_json(cli, base + ["--lens"], name + " lens", failures)
    outs, logits, lens = run_hooked(net, ids, {})
    if doc is not None:
        compare(name + " --lens", doc, outs, logits, lens, failures, verbose, with_lens=True)


def main(argv=None):
    global PLANT
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", required=True)
    ap.add_argument("--plant", choices=["ablate-next-head", "patch-next-row", "lens-no-ln-f"])
    ap.add_argument("--expect-caught", action="store_true", help="with --plant: exit 0 exactly when the check fails")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args(argv)
    PLANT = args.plant
    if args.expect_caught and not PLANT:
        ap.error("--expect-caught needs --plant")
    root = tempfile.mkdtemp(prefix="ew-ckhooks-")
    failures = []
    rng = np.random.default_rng(2929)
    try:
        for case in CASES:
            check_case(args.cli, root, case, rng, failures, args.verbose)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    if args.expect_caught:
        for f in failures:
            print("caught: " + f)
        print("planted %s: %s" % (PLANT, "caught (%d differences)" % len(failures) if failures else "FAIL not caught"))
        return 0 if failures else 1
    for f in failures:
        print("FAIL " + f)
    print("the lab on %d checkpoints vs PyTorch forward hooks (ablate, patch, lens): %s"
          % (len(CASES), "%d failures" % len(failures) if failures else "all agree"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
