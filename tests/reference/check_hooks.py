#!/usr/bin/env python3
"""check_hooks.py — interventions, the logit lens and logit attribution (core/trace/intervene.h,
lens.h, attribution.h) against a PyTorch model that applies the same interventions with forward
hooks (Debian's python3-torch, float64).

For random models (encoder + classifier and encoder-decoder; post- and pre-norm; ReLU and GELU;
sinusoidal or learned positions; 1-3 layers; 1-4 heads; causal or not) the CLI runs once
with --json; its parameters (every weight, including the seeded ones, from "params") and its
token ids are the inputs of an nn.Module written here from docs/trace.md, whose every step is
the output of a small tap module named by the step's id. Each intervention is a forward hook on
a tap, so everything downstream of it is computed by PyTorch from the hooked value:
  ablate a head      the hook on its ….context tap returns zeros (before the concatenation)
  ablate a unit      the hook on ….ffn_hidden zeroes column j
  set a step's cell  the hook writes the value (a scaled score keeps its mask: value + mask)
  set a parameter    the parameter tensor's cell, before the forward pass
  patch a step       the donor sentence runs through the same module (its own CLI parameters:
                     a seeded vocabulary depends on the text); the hook copies the donor's
                     value, whole or only at some rows of the token axis
Each intervened CLI run (--ablate, --set, --patch-from/--patch, with --json) is compared step
by step with the hooked model: every step, |cli − torch| ≤ 1e-5·max|torch of the step| + 1e-6;
masked entries (null) where torch has -inf; and the steps marked "intervened" are exactly the
ones hooked (parameters: exactly the ones set). The lens (--lens) is compared with the model's
own head applied to each layer's output in torch (through the final LayerNorm of a pre-norm
stack), and the attribution (--attribute, pre-norm) part by part with a direct computation —
each head's context row through its rows of W_o, each FFN's hidden row through W_2, each bias,
centred and divided by the final LayerNorm's σ, then dotted with the head's direction — whose
sum must be the model's logit (1e-5 relative). A post-norm model's --attribute must fail
with the documented message.

Usage: check_hooks.py --cli build/native-release/encoder-walkthrough [--models N] [--seed S]
"""
import argparse
import json
import math
import subprocess
import sys
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)

RTOL, ATOL = 1e-5, 1e-6
WORDS = "the frost was hard and snow lay deep in bleak midwinter earth stood as iron water like a stone".split()


def tensor(values, shape):
    return torch.tensor(np.array([-math.inf if v is None else v for v in values], dtype=np.float64).reshape(shape))


class Tap(nn.Module):
    """The identity, named by a step id: forward hooks on it intervene and record."""

    def forward(self, x):
        return x


class Net(nn.Module):
    """Our encoder(-decoder) as docs/trace.md defines it, every step through a tap."""

    def __init__(self, cfg, params):
        super().__init__()
        self.c, self.P = cfg, params
        self.taps = nn.ModuleDict()

    def tap(self, sid, x):
        key = sid.replace(".", ":")
        if key not in self.taps:
            self.taps[key] = Tap()
        return self.taps[key](x)

    def ln(self, group, pname, x, out_id):
        mu = self.tap(group + ".mean", x.mean(-1))
        var = self.tap(group + ".var", ((x - mu[..., None]) ** 2).mean(-1))
        y = (x - mu[..., None]) / torch.sqrt(var[..., None] + self.c["layer_norm_eps"])
        return self.tap(out_id, y * self.P[pname + ".gamma"] + self.P[pname + ".beta"])

    def lin(self, sid, x, W, b):
        return self.tap(sid, x @ self.P[W] + self.P[b])

    def embed(self, pre, ids, out_id):
        c, P = self.c, self.P
        T, d = len(ids), c["d_model"]
        emb = self.tap(pre + "embedding", P["embedding_table"][ids])
        if c["positional"] == "none":
            return self.tap(out_id, emb)
        if c["positional"] == "sinusoidal":
            p = torch.arange(T)[:, None].double()
            i = torch.arange(d)[None, :]
            ang = p / torch.pow(10000.0, (2 * (i // 2)).double() / d)
            pe = self.tap(pre + "positional", torch.where(i % 2 == 0, torch.sin(ang), torch.cos(ang)))
            return self.tap(out_id, emb + pe)
        pt = self.tap(pre + "positional", P["position_table"][:T])
        s = self.tap(pre + "embedding_sum", emb + pt)
        return self.ln(pre + "embedding_ln", "embedding_ln", s, out_id)

    def attention(self, pre, xq, xkv, mask):
        c = self.c
        H = c["num_heads"]
        dk = c["d_model"] // H
        q, k, v = (self.lin(pre + n, x, "%sW_%s" % (pre, n), "%sb_%s" % (pre, n)) for n, x in (("q", xq), ("k", xkv), ("v", xkv)))
        ctx = []
        for h in range(H):
            hp, sl = "%shead%d." % (pre, h), slice(h * dk, (h + 1) * dk)
            scores = self.tap(hp + "scores", q[:, sl] @ k[:, sl].T)
            scaled = self.tap(hp + "scaled", (scores / math.sqrt(dk) if c["scale"] else scores) + mask)
            rowmax = self.tap(hp + "rowmax", scaled.max(-1).values)
            e = torch.exp(scaled - rowmax[:, None])
            rowsum = self.tap(hp + "rowsum", e.sum(-1))
            w = self.tap(hp + "weights", e / rowsum[:, None])
            ctx.append(self.tap(hp + "context", w @ v[:, sl]))
        concat = self.tap(pre + "concat", torch.cat(ctx, -1))
        return self.lin(pre + "attn_out", concat, pre + "W_o", pre + "b_o")

    def ffn(self, p, x):
        act = F.relu if self.c["activation"] == "relu" else (lambda u: F.gelu(u, approximate="none"))
        hid = self.tap(p + "ffn_hidden", act(self.lin(p + "ffn_pre", x, p + "W_1", p + "b_1")))
        return self.lin(p + "ffn_out", hid, p + "W_2", p + "b_2")

    def layer(self, L, x, subs):
        """One layer: subs are its attention blocks as (prefix, keys/values or None: self)."""
        post = self.c["norm"] == "post"
        n = len(subs)
        for a, (pre, kv, mask) in enumerate(subs):
            ln = L + "ln%d" % (a + 1)
            if post:
                r = self.tap(L + "residual%d" % (a + 1), x + self.attention(pre, x, x if kv is None else kv, mask))
                x = self.ln(ln, ln, r, ln)
            else:
                nx = self.ln(ln, ln, x, ln)
                x = self.tap(L + "residual%d" % (a + 1), x + self.attention(pre, nx, nx if kv is None else kv, mask))
        ln = L + "ln%d" % (n + 1)
        if post:
            r = self.tap(L + "residual%d" % (n + 1), x + self.ffn(L, x))
            return self.ln(ln, ln, r, L + "output")
        r = self.tap(L + "residual%d" % (n + 1), x + self.ffn(L, self.ln(ln, ln, x, ln)))
        return self.tap(L + "output", r)

    def stack_out(self, ln, out_id, x):
        return self.ln(ln, ln, x, out_id) if self.c["norm"] == "pre" else self.tap(out_id, x)

    def softmax(self, sid, z):
        m = self.tap(sid + ".rowmax", z.max(-1, keepdim=True).values)
        e = torch.exp(z - m)
        s = self.tap(sid + ".rowsum", e.sum(-1, keepdim=True))
        return self.tap(sid, e / s)

    def forward(self, src, tgt):
        c, P = self.c, self.P
        T = len(src)
        x = self.embed("", src, "input")
        neg = torch.full((T, T), -math.inf)
        mask = self.tap("attention_mask", torch.triu(neg, 1) if c["causal"] else torch.zeros(T, T))
        for i in range(c["num_layers"]):
            x = self.layer("layer%d." % i, x, [("layer%d." % i, None, mask)])
        enc = self.stack_out("final_ln", "output", x)
        if c["num_labels"] > 0:
            pooled = self.tap("cls.pooled", enc[0])
            self.softmax("cls.probs", self.lin("cls.logits", pooled, "cls.W", "cls.b")[None])
        if c["decoder_layers"] > 0:
            S = len(tgt)
            y = self.embed("target_", tgt, "decoder_input")
            dmask = self.tap("decoder_mask", torch.triu(torch.full((S, S), -math.inf), 1))
            xmask = self.tap("cross_mask", torch.zeros(S, T))
            for j in range(c["decoder_layers"]):
                D = "decoder%d." % j
                y = self.layer(D, y, [(D + "self.", None, dmask), (D + "cross.", enc, xmask)])
            z = self.stack_out("decoder_final_ln", "decoder_output", y)
            self.softmax("probs", self.tap("logits", z @ P["embedding_table"].T))


def squeeze_like(val, shape):
    return val.reshape(shape) if val.numel() == int(np.prod(shape)) else val


def run_net(cfg, params, src, tgt, hooks=()):
    """Every tap's output (after the hooks), by step id."""
    net = Net(cfg, params)
    with torch.no_grad():
        net(src, tgt)  # creates the taps
        rec = {}
        for key, tap in net.taps.items():
            for sid, fn in hooks:
                if sid == key.replace(":", "."):
                    tap.register_forward_hook(lambda m, i, o, fn=fn: fn(o))
            tap.register_forward_hook(lambda m, i, o, sid=key.replace(":", "."): rec.__setitem__(sid, o.clone()))
        net(src, tgt)
    return rec


def cli_json(cli, doc, flags=()):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(doc, f)
    p = subprocess.run([cli, "--model", f.name, "--json", *flags], capture_output=True, text=True)
    return p


def inputs_of(out):
    steps = {s["id"]: s for s in out["steps"]}
    params = {p["id"]: tensor(p["data"], p["shape"]) for p in out["params"]}
    src = [int(v) for v in steps["token_ids"]["data"]]
    tgt = [int(v) for v in steps["target_token_ids"]["data"]] if "target_token_ids" in steps else []
    cfg = dict(out["config"])
    return cfg, params, src, tgt


def compare(name, out, ref, hooked, hooked_params, failures):
    n = 0
    for s in out["steps"]:
        sid = s["id"]
        if sid.startswith(("lens.", "attr.")) or s["kind"] == "tokens":
            continue
        if sid not in ref:
            failures.append("%s: step %s has no reference" % (name, sid))
            continue
        want = squeeze_like(ref[sid], s["shape"])
        got = tensor(s["data"], s["shape"])
        fin = torch.isfinite(want)
        if not torch.equal(fin, torch.isfinite(got)):
            failures.append("%s: %s masked entries differ" % (name, sid))
            continue
        scale = want[fin].abs().max().item() if fin.any() else 0.0
        err = (got[fin] - want[fin]).abs().max().item() if fin.any() else 0.0
        if err > RTOL * scale + ATOL:
            idx = int(torch.argmax(torch.where(fin, (got - want).abs(), torch.zeros_like(want))))
            failures.append("%s: %s differs by %.3g (scale %.3g) first at flat index %d: cli %r, torch %r" % (
                name, sid, err, scale, idx, got.flatten()[idx].item(), want.flatten()[idx].item()))
        if s.get("intervened", False) != (sid in hooked):
            failures.append("%s: %s is %smarked intervened" % (name, sid, "" if s.get("intervened") else "not "))
        n += 1
    marked = {p["id"] for p in out["params"] if p.get("intervened")}
    if marked != set(hooked_params):
        failures.append("%s: parameters marked intervened %s, set %s" % (name, sorted(marked), sorted(hooked_params)))
    return n


def set_cell(o, idx, v, mask=None):
    o = o.clone()
    o[idx] = v
    if mask is not None:
        o[idx] = o[idx] + mask[idx]
    return o


def interventions(rng, cfg, base, donor_ok):
    """(name, CLI flags, hooks, parameter sets) for one model: one of each kind."""
    steps = {s["id"]: s for s in base["steps"]}
    H, ff = cfg["num_heads"], cfg["d_ff"]
    dec = cfg["decoder_layers"] > 0
    out = []
    li = int(rng.integers(0, cfg["num_layers"]))
    h = int(rng.integers(0, H))
    head = "layer%d.head%d" % (li, h)
    if dec and rng.random() < 0.5:
        head = "decoder0.%s.head%d" % (str(rng.choice(["self", "cross"])), h)
    out.append(("ablate " + head, ["--ablate", head], [(head + ".context", lambda o: torch.zeros_like(o))], []))
    j = int(rng.integers(0, ff))
    unit = ("decoder0." if dec and rng.random() < 0.5 else "layer%d." % li) + "ffn_hidden"
    out.append(("ablate %s[%d]" % (unit, j), ["--ablate", "%s[%d]" % (unit, j)],
                [(unit, lambda o, j=j: set_cell(o, (slice(None), j), 0.0))], []))
    r, c_ = int(rng.integers(0, cfg["d_model"])), int(rng.integers(0, cfg["d_model"]))
    W = "layer%d.W_%s" % (li, str(rng.choice(["q", "k", "v", "o"])))
    out.append(("set %s[%d,%d]" % (W, r, c_), ["--set", "%s[%d,%d]=0.75" % (W, r, c_)], [], [(W, (r, c_), 0.75)]))
    sid = "layer%d.head%d.%s" % (li, h, str(rng.choice(["weights", "scores", "scaled", "rowmax"])))
    shape = steps[sid]["shape"]
    cell = tuple(int(rng.integers(0, n)) for n in shape)
    text = "%s[%s]=0.3" % (sid, ",".join(map(str, cell)))
    mask = tensor(steps["attention_mask"]["data"], steps["attention_mask"]["shape"]) if sid.endswith("scaled") else None
    out.append(("set " + text, ["--set", text], [(sid, lambda o, cell=cell, m=mask: set_cell(o, cell, 0.3, m))], []))
    mid = "layer%d.ln%d.mean" % (li, int(rng.integers(1, 3)))
    out.append(("set %s[0]" % mid, ["--set", "%s[0]=0.2" % mid], [(mid, lambda o: set_cell(o, 0, 0.2))], []))
    if donor_ok:
        out.append(("patch", None, None, None))  # filled in by check_model (needs the donor's run)
    return out


def check_lens(name, cfg, params, rec, out, failures):
    pre = cfg["norm"] == "pre"
    eps = cfg["layer_norm_eps"]
    n = 0
    for s in out["steps"]:
        if not (s["id"].startswith("lens.") and s["role"] in ("logits", "probs")):
            continue
        layer = s["id"][len("lens."):-len("." + s["role"])]
        dec = layer.startswith("decoder")
        x = rec[layer + ".output"]
        if pre:
            ln = "decoder_final_ln" if dec else "final_ln"
            x = F.layer_norm(x, (cfg["d_model"],), params[ln + ".gamma"], params[ln + ".beta"], eps)
        z = x @ params["embedding_table"].T if dec else x[0] @ params["cls.W"] + params["cls.b"]
        want = z if s["role"] == "logits" else torch.softmax(z, -1)
        got = tensor(s["data"], s["shape"])
        if (got - want.reshape(got.shape)).abs().max().item() > RTOL * want.abs().max().item() + ATOL:
            failures.append("%s: %s differs from the head applied in torch" % (name, s["id"]))
        n += 1
    want_n = 2 * (cfg["decoder_layers"] + (cfg["num_layers"] if cfg["num_labels"] > 0 else 0))
    if n != want_n:
        failures.append("%s: %d lens steps, expected %d" % (name, n, want_n))


def check_attribution(name, cfg, params, rec, out, failures):
    dec = cfg["decoder_layers"] > 0
    d, H = cfg["d_model"], cfg["num_heads"]
    dk = d // H
    if dec:
        row = rec["probs"].shape[0] - 1
        tok = int(torch.argmax(rec["probs"][row]))
        w, bias, logit, ln, stream = params["embedding_table"][tok], None, rec["logits"][row, tok], "decoder_final_ln", "decoder_input"
        layers = [("decoder%d." % j, ["decoder%d.self." % j, "decoder%d.cross." % j]) for j in range(cfg["decoder_layers"])]
    else:
        row, lab = 0, int(torch.argmax(rec["cls.probs"]))
        w, bias, logit, ln, stream = params["cls.W"][:, lab], params["cls.b"][lab], rec["cls.logits"][lab], "final_ln", "input"
        layers = [("layer%d." % i, ["layer%d." % i]) for i in range(cfg["num_layers"])]
    parts = [(stream, rec[stream][row])]
    for L, blocks in layers:
        for pre in blocks:
            for h in range(H):
                parts.append(("%shead%d" % (pre, h), rec["%shead%d.context" % (pre, h)][row] @ params[pre + "W_o"][h * dk:(h + 1) * dk]))
            parts.append((pre + "b_o", params[pre + "b_o"]))
        parts.append((L + "ffn", rec[L + "ffn_hidden"][row] @ params[L + "W_2"]))
        parts.append((L + "b_2", params[L + "b_2"]))
    sigma = torch.sqrt(rec[ln + ".var"][row] + cfg["layer_norm_eps"])
    g = params[ln + ".gamma"]
    names = [n for n, _ in parts] + [ln + ".beta"] + (["cls.b"] if bias is not None else [])
    vals = [((v - v.mean()) * g * w).sum() / sigma for _, v in parts] + [params[ln + ".beta"] @ w] + ([bias] if bias is not None else [])
    vals = torch.stack([torch.as_tensor(v) for v in vals])
    got_names = out["text"].get("attr_parts")
    got = tensor(next(s["data"] for s in out["steps"] if s["id"] == "attr.parts"), [len(names)]) if got_names == names else None
    if got is None:
        failures.append("%s: attribution parts %s, expected %s" % (name, got_names, names))
        return
    scale = vals.abs().max().item()
    if (got - vals).abs().max().item() > RTOL * scale + ATOL:
        failures.append("%s: attribution parts differ from torch's by %.3g" % (name, (got - vals).abs().max().item()))
    if abs(vals.sum().item() - logit.item()) > RTOL * max(abs(logit.item()), scale):
        failures.append("%s: torch's parts sum to %r, the logit is %r" % (name, vals.sum().item(), logit.item()))
    if abs(got.sum().item() - logit.item()) > RTOL * max(abs(logit.item()), scale) + ATOL:
        failures.append("%s: the CLI's parts sum to %r, the logit is %r" % (name, got.sum().item(), logit.item()))


def random_doc(rng, index):
    dec = index % 2 == 1
    heads = int(rng.choice([1, 2, 4]))
    cfg = {"d_model": heads * int(rng.choice([4, 6, 8])) if heads < 4 else 16, "num_heads": heads,
           "d_ff": int(rng.integers(8, 25)), "num_layers": int(rng.integers(1, 4)),
           "norm": ["post", "pre"][(index // 2) % 2], "activation": str(rng.choice(["relu", "gelu"])),
           "causal": bool(rng.random() < 0.3), "positional": str(rng.choice(["sinusoidal", "learned"])),
           "scale": bool(rng.random() < 0.85), "seed": int(rng.integers(1, 10 ** 6)), "tokenizer": "whitespace"}
    n = int(rng.integers(3, 7))
    doc = {"config": cfg, "text": " ".join(rng.choice(WORDS, size=n))}
    donor = " ".join(rng.choice(WORDS, size=n))
    if dec:
        cfg["decoder_layers"] = int(rng.integers(1, 3))
        doc["target"] = " ".join(rng.choice(WORDS, size=int(rng.integers(2, 5))))
    else:
        cfg["num_labels"] = int(rng.integers(2, 5))
    return doc, donor


def check_model(cli, rng, index, failures):
    doc, donor_text = random_doc(rng, index)
    base = json.loads(cli_json(cli, doc).stdout)
    cfg, params, src, tgt = inputs_of(base)
    name = "model %d (%s-norm, %s, %d layers)" % (index, cfg["norm"], "enc-dec" if tgt else "classifier", cfg["num_layers"])
    ddoc = dict(doc, text=donor_text)
    dcfg, dparams, dsrc, dtgt = inputs_of(json.loads(cli_json(cli, ddoc).stdout))
    donor = run_net(dcfg, dparams, dsrc, dtgt)
    compared = 0
    for what, flags, hooks, psets in interventions(rng, cfg, base, True):
        if flags is None:  # patch: a residual stream at some positions, or a whole head's weights
            sid = "layer%d.output" % int(rng.integers(0, cfg["num_layers"])) if rng.random() < 0.6 else "layer0.head0.weights"
            pos = sorted(set(int(p) for p in rng.integers(0, len(src), size=2)))
            spec = sid + ("@" + ",".join(map(str, pos)) if rng.random() < 0.7 else "")
            rows = pos if "@" in spec else slice(None)
            what, flags = "patch " + spec, ["--patch-from", donor_text, "--patch", spec]
            hooks = [(sid, lambda o, sid=sid, rows=rows: set_cell(o, rows, donor[sid][rows]))]
            psets = []
        p = dict(params)
        for pid, cell, v in psets:
            p[pid] = p[pid].clone()
            p[pid][cell] = v
        ref = run_net(cfg, p, src, tgt, hooks)
        res = cli_json(cli, doc, flags)
        if res.returncode != 0:
            failures.append("%s, %s: the CLI failed: %s" % (name, what, res.stderr.strip()))
            continue
        compared += compare("%s, %s" % (name, what), json.loads(res.stdout), ref, {h[0] for h in hooks},
                            [q[0] for q in psets], failures)
    ref = run_net(cfg, params, src, tgt)
    lens = json.loads(cli_json(cli, doc, ["--lens"]).stdout)
    check_lens(name, cfg, params, ref, lens, failures)
    att = cli_json(cli, doc, ["--attribute"])
    if cfg["norm"] == "pre":
        check_attribution(name, cfg, params, ref, json.loads(att.stdout), failures)
    elif att.returncode == 0 or "needs a pre-norm model" not in att.stderr:
        failures.append("%s: --attribute on a post-norm model: exit %d, %s" % (name, att.returncode, att.stderr.strip()))
    return compared


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--models", type=int, default=8)
    ap.add_argument("--seed", type=int, default=20)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    failures, steps = [], 0
    for i in range(a.models):
        steps += check_model(a.cli, rng, i, failures)
    seen = {}  # the first failure of each model and check, then how many more
    for f in failures:
        head, rest = f.split(":", 1)
        key = head if "," in head.split(")")[-1] else head + ":" + rest.split()[0]  # an intervention, or each check
        seen.setdefault(key, []).append(f)
    for key, fs in seen.items():
        print("FAIL", fs[0] + ("  (and %d more steps)" % (len(fs) - 1) if len(fs) > 1 else ""))
    print("%d models, %d intervened steps compared, %d failures" % (a.models, steps, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
