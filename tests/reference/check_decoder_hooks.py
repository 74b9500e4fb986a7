#!/usr/bin/python3
"""check_decoder_hooks.py — the what-if lab on the modern decoders against PyTorch forward hooks.

Usage:
  /usr/bin/python3 tests/reference/check_decoder_hooks.py --cli PATH/encoder-walkthrough
                   [--plant DEFECT [--expect-caught]] [--verbose]

check_checkpoint_hooks.py holds the lab to PyTorch on BERT and GPT-2 checkpoints; this does it on
llama, qwen2, qwen3 and gemma3_text. The checkpoints are decoder_checkpoints.py's (real key names,
F32/F16/BF16, sharded, bare, tied and untied; every case moves eps, θ, head_dim, the window,
grouped K/V heads, query_pre_attn_scalar away from the defaults). The model here is
decoder_reference.py's float64 forward pass (written from Hugging Face's modeling code) re-cut as
an nn.Module whose every query head's output (before o_proj) and every layer's output passes
through a tap module named by our step id. Each intervention is a forward hook on a tap:
  --ablate layer{i}.head{h}    the hook on layer{i}.head{h}.context returns zeros: that query head
                               only, a head that shares its K/V head with others (GQA)
  --patch-from D --patch layer0.output@p
                               the donor runs through the same module; the hook copies its row p
  --lens                       each layer's output through the final RMSNorm (Gemma's 1 + w) and
                               the head (lm_head, or the tied table)
  --attribute                  the last position's predicted logit split into parts in torch: the
                               scaled embedding, each query head's context times its o_proj columns
                               (+ the o_proj bias), each MLP's down_proj output (+ its bias); with
                               Gemma's sandwich norms each block's post-norm output. Every part goes
                               through the final norm with 1/rms frozen at the run's value; the parts
                               must sum to torch's logit (checked here too) and match attr.parts and
                               trace.text.attr_parts (names) — on the plain run and under an ablation.
                               (and under a patch of an earlier row, which leaves the split exact).
  refusal                      --attribute with the last row of a layer's output patched: the stream is
                               not the sum of the parts, so the CLI must exit non-zero naming why.
Compared: every layer's output and the logits (and each lens.layer{i}.logits, attr.parts) to 1e-4
of the tensor's largest |value| (float32 against float64); an intervention must change torch's
logits (an intervention that does nothing would pass trivially).

--plant DEFECT makes the *reference* wrong in one way the lab could be, and the check must fail:
  attr-unfrozen     each attribution part through the whole RMSNorm (its own rms), not the frozen one
  lens-no-offset    the lens's final RMSNorm scales by w instead of Gemma's (1 + w)
  ablate-kv-group   the ablation zeroes every query head of the K/V group, not the one head
With --expect-caught [CASE,…] only those cases run (all without a list) and the run exits 0 exactly
when every one of them failed the comparison (a crash exits 1): the test command runs each planted
defect that way.
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
import decoder_checkpoints as dc  # noqa: E402
import decoder_reference as dr  # noqa: E402

torch.set_default_dtype(torch.float64)
RTOL = 1e-4
PLANT = None
PLANTS = ["attr-unfrozen", "lens-no-offset", "ablate-kv-group"]
TEXT, DONOR, ROW = "the cat sat on the mat", "the dog ran on the mat", 2


class Tap(nn.Module):
    """The identity, named by a step id: forward hooks on it intervene."""

    def forward(self, x):
        return x


class Hooked(nn.Module):
    """decoder_reference.forward, per query head, with taps; returns what the lab needs."""

    def __init__(self, W, s, prefix):
        super().__init__()
        self.W, self.s, self.p = W, s, prefix
        ids = ["layer%d.output" % i for i in range(s["L"])]
        ids += ["layer%d.head%d.context" % (i, h) for i in range(s["L"]) for h in range(s["H"])]
        self.taps = nn.ModuleDict({k.replace(".", "/"): Tap() for k in ids})

    def tap(self, sid, x):
        return self.taps[sid.replace(".", "/")](x)

    def norm(self, x, key):
        return dr.rms_norm(x, self.W[key + ".weight"], self.s["eps"], self.s["gemma"])

    def attention(self, i, p, x):
        """→ (o_proj output [T, d], the per-head contexts after their taps [H × [T, hd]])."""
        W, s = self.W, self.s
        T, H, KV, hd = x.shape[0], s["H"], s["KV"], s["hd"]
        q = dr.lin(W, p + "self_attn.q_proj", x, s["qkv_bias"]).reshape(T, H, hd)
        k = dr.lin(W, p + "self_attn.k_proj", x, s["qkv_bias"]).reshape(T, KV, hd)
        v = dr.lin(W, p + "self_attn.v_proj", x, s["qkv_bias"]).reshape(T, KV, hd)
        if s["qk_norm"]:
            q, k = self.norm(q, p + "self_attn.q_norm"), self.norm(k, p + "self_attn.k_norm")
        f, pos = dr.inv_freq(s["ropes"][i], hd), torch.arange(T)
        q, k = dr.rope(q, pos, f), dr.rope(k, pos, f)
        ok = dr.allowed(T, s["windows"][i])
        ctx = []
        for h in range(H):
            g = h // (H // KV)                                  # the K/V head query head h reads
            sc = (q[:, h] @ k[:, g].T * s["scale"]).masked_fill(~ok, float("-inf"))
            ctx.append(self.tap("layer%d.head%d.context" % (i, h), torch.softmax(sc, -1) @ v[:, g]))
        return dr.lin(W, p + "self_attn.o_proj", torch.cat(ctx, -1), s["o_bias"]), ctx

    def forward(self, ids):
        W, s, P = self.W, self.s, self.p
        E = W[P + "embed_tokens.weight"]
        x = E[ids] * s["embed_scale"]
        head = E if s["tied"] or not P else W["lm_head.weight"]
        parts = [("input", x)]                                  # the stream's parts [T, d]
        outs = []
        for i in range(s["L"]):
            p = "%slayers.%d." % (P, i)
            a, ctx = self.attention(i, p, self.norm(x, p + "input_layernorm"))
            if s["gemma"]:
                a = self.norm(a, p + "post_attention_layernorm")
                parts.append(("layer%d.attn" % i, a))
            else:
                Wo = W[p + "self_attn.o_proj.weight"]           # [d, H·hd]: head h owns columns h·hd …
                hd = s["hd"]
                for h, c in enumerate(ctx):
                    parts.append(("layer%d.head%d" % (i, h), c @ Wo[:, h * hd:(h + 1) * hd].T))
                if s["o_bias"]:
                    parts.append(("layer%d.b_o" % i, W[p + "self_attn.o_proj.bias"].expand_as(x)))
            x = x + a
            n = self.norm(x, p + ("pre_feedforward_layernorm" if s["gemma"] else "post_attention_layernorm"))
            g = dr.lin(W, p + "mlp.gate_proj", n, s["mlp_bias"])
            u = dr.lin(W, p + "mlp.up_proj", n, s["mlp_bias"])
            hidden = dr.act_fn(g, s["act"]) * u
            m = dr.lin(W, p + "mlp.down_proj", hidden, s["mlp_bias"])
            if s["gemma"]:
                m = self.norm(m, p + "post_feedforward_layernorm")
                parts.append(("layer%d.ffn" % i, m))
            else:
                parts.append(("layer%d.ffn" % i, hidden @ W[p + "mlp.down_proj.weight"].T))
                if s["mlp_bias"]:
                    parts.append(("layer%d.b_down" % i, W[p + "mlp.down_proj.bias"].expand_as(x)))
            x = x + m
            x = self.tap("layer%d.output" % i, x)
            outs.append(x)
        wf = W[P + "norm.weight"]
        logits = self.norm(x, P + "norm") @ head.T

        def lens_norm(h):
            scale = wf if PLANT == "lens-no-offset" else ((1 + wf) if s["gemma"] else wf)
            return h / torch.sqrt((h * h).mean(-1, keepdim=True) + s["eps"]) * scale
        lens = {"lens.layer%d.logits" % i: lens_norm(o) @ head.T for i, o in enumerate(outs)}
        return outs, logits, lens, (x, parts, head)


def attribution(net, final):
    """(token, logit, names, parts) at the last position, the final norm's 1/rms frozen."""
    x, parts, head = final
    s, W = net.s, net.W
    wf = W[net.p + "norm.weight"]
    scale = (1 + wf) if s["gemma"] else wf
    eps, t = s["eps"], x.shape[0] - 1
    inv = 1 / torch.sqrt((x[t] * x[t]).mean() + eps)       # the clean run's 1/rms, frozen
    logits = (x[t] * inv * scale) @ head.T
    tok = int(torch.argmax(logits))
    w = head[tok]
    vals = []
    for _, v in parts:
        r = v[t]
        if PLANT == "attr-unfrozen":                            # each part normalised by its own rms
            vals.append(float((r / torch.sqrt((r * r).mean() + eps) * scale) @ w))
        else:
            vals.append(float((r * inv * scale) @ w))
    return tok, float(logits[tok]), [n for n, _ in parts], torch.tensor(vals)


def run_hooked(net, ids, hooks):
    handles = [net.taps[sid.replace(".", "/")].register_forward_hook(lambda _m, _i, out, f=f: f(out))
               for sid, f in hooks.items()]
    try:
        with torch.no_grad():
            return net(ids)
    finally:
        for h in handles:
            h.remove()


ERRORS = {}  # (case, what) → worst error / scale, for --verbose and the summary


def close(name, what, got, ref, failures):
    got = torch.tensor([float("nan") if v is None else v for v in np.ravel(got)])
    ref = ref.reshape(-1)
    if got.numel() != ref.numel():
        failures.append("%s: %s has %d values, torch %d" % (name, what, got.numel(), ref.numel()))
        return
    err, scale = float((got - ref).abs().max()), float(ref.abs().max())
    kind = ("lens" if what.startswith("lens.") else "layer outputs" if what.startswith("layer") else what)
    key = (name.split(" ")[0], kind)
    ERRORS[key] = max(ERRORS.get(key, 0.0), err / max(scale, 1e-300))
    if not err <= RTOL * scale:
        failures.append("%s: %s differs by %.3g (> %.0e × max|torch| %.3g)" % (name, what, err, RTOL, scale))


def compare(name, doc, outs, logits, lens, failures):
    steps = {st["id"]: st for st in doc["steps"]}
    want = {"layer%d.output" % i: o for i, o in enumerate(outs)}
    want["logits"] = logits
    want.update(lens)
    for sid, ref in want.items():
        if sid not in steps:
            failures.append("%s: the trace has no step %s" % (name, sid))
            continue
        close(name, sid, steps[sid]["data"], ref, failures)


def compare_attribution(name, doc, net, final, failures):
    tok, logit, names, parts = attribution(net, final)
    if abs(float(parts.sum()) - logit) > RTOL * float(parts.abs().sum()) and PLANT != "attr-unfrozen":
        failures.append("%s: torch's own parts sum to %.6g, not its logit %.6g: the reference is wrong" %
                        (name, float(parts.sum()), logit))
    steps = {st["id"]: st for st in doc["steps"]}
    got_names = doc.get("text", {}).get("attr_parts") or doc.get("trace", {}).get("text", {}).get("attr_parts")
    if got_names != names:
        failures.append("%s: attr_parts %s, torch's parts %s" % (name, got_names, names))
    if "attr.parts" not in steps:
        failures.append("%s: the trace has no attr.parts" % name)
        return
    close(name, "attr.parts", steps["attr.parts"]["data"], parts, failures)
    rep = find_key(doc, "attribution")
    if not rep or abs(rep["logit"] - logit) > RTOL * abs(logit) + 1e-6 or rep.get("norm") != "rmsnorm":
        failures.append("%s: the report's attribution %s, torch's logit %.6g (token %d)" % (name, rep, logit, tok))


def find_key(doc, key):
    """The first value of `key` anywhere in the JSON document (the session's report)."""
    if isinstance(doc, dict):
        if key in doc:
            return doc[key]
        for v in doc.values():
            got = find_key(v, key)
            if got is not None:
                return got
    return None


def cli_json(cli, args, name, failures):
    rc, out, err = cc.run_cli(cli, args + ["--json"])
    if rc != 0:
        failures.append("%s: `%s` failed (%d): %s" % (name, " ".join(args[2:]), rc, err.strip()[:300]))
        return None
    return json.loads(out)


def check_case(cli, root, case, rng, failures):
    name = case[0]
    d, s, W, prefix = dc.write_case(root, case, rng)
    net = Hooked(W, s, prefix)
    base = ["--checkpoint", d, "--text", TEXT]
    plain = cli_json(cli, base, name, failures)
    don = cli_json(cli, ["--checkpoint", d, "--text", DONOR], name + " donor", failures)
    if plain is None or don is None:
        return
    tok_step = next(st for st in plain["steps"] if st["id"] == dr.STEP_IDS["tokens"])
    ids = [int(v) for v in tok_step["data"]]
    dids = [int(v) for v in next(st for st in don["steps"] if st["id"] == dr.STEP_IDS["tokens"])["data"]]
    if len(ids) != len(dids) or ids == dids:
        failures.append("%s: the donor's tokens %s must differ from %s at the same length" % (name, dids, ids))
        return
    outs0, logits0, lens0, final0 = run_hooked(net, ids, {})
    compare(name + " plain", plain, outs0, logits0, {}, failures)

    # 1. one query head off: the last layer's head 1 (with GQA it shares its K/V head with others)
    i, h = s["L"] - 1, 1
    group = [x for x in range(s["H"]) if x // (s["H"] // s["KV"]) == h // (s["H"] // s["KV"])]
    zero = group if PLANT == "ablate-kv-group" else [h]
    hooks = {"layer%d.head%d.context" % (i, z): (lambda out: torch.zeros_like(out)) for z in zero}
    doc = cli_json(cli, base + ["--ablate", "layer%d.head%d" % (i, h), "--attribute"], name + " ablate", failures)
    outs, logits, _, final = run_hooked(net, ids, hooks)
    if doc is not None:
        compare(name + " --ablate layer%d.head%d" % (i, h), doc, outs, logits, {}, failures)
        compare_attribution(name + " --ablate --attribute", doc, net, final, failures)
        if float((logits - logits0).abs().max()) < 1e-6:
            failures.append("%s: switching the head off changed nothing in torch: the check would be empty" % name)

    # 2. patch layer 0's output at one row from the donor
    donor_out = run_hooked(net, dids, {})[0][0]

    def patch(out):
        out = out.clone()
        out[ROW] = donor_out[ROW]
        return out
    pargs = ["--patch-from", DONOR, "--patch", "layer0.output@%d" % ROW]
    doc = cli_json(cli, base + pargs + ["--attribute"], name + " patch", failures)
    outs, logits, _, final = run_hooked(net, ids, {"layer0.output": patch})
    if doc is not None:
        compare(name + " --patch layer0.output@%d" % ROW, doc, outs, logits, {}, failures)
        # an earlier row patched: the last row's stream is still its blocks' sum (they read the
        # patched row through attention), so the split stays exact and is checked
        compare_attribution(name + " --patch --attribute", doc, net, final, failures)
        if float((logits - logits0).abs().max()) < 1e-6:
            failures.append("%s: the patch changed nothing in torch: the check would be empty" % name)

    # 3. the logit lens and 4. the attribution of the plain run
    doc = cli_json(cli, base + ["--lens", "--attribute"], name + " lens", failures)
    if doc is not None:
        compare(name + " --lens", doc, outs0, logits0, lens0, failures)
        compare_attribution(name + " --attribute", doc, net, final0, failures)

    # 5. refused: the attributed (last) row of the stream replaced by a patch is not a sum of parts
    # (the last layer's: Gemma's sliding layer 0 sees only the window, where donor and text agree)
    L, T = s["L"], len(ids)
    dlast = run_hooked(net, dids, {})[0][L - 1][T - 1]
    if float((dlast - outs0[L - 1][T - 1]).abs().max()) < 1e-3 * float(dlast.abs().max()):
        failures.append("%s: the donor's last row equals the text's: the refusal check would be empty" % name)
    last = ["--patch-from", DONOR, "--patch", "layer%d.output@%d" % (L - 1, T - 1)]
    rc, _, err = cc.run_cli(cli, base + last + ["--attribute", "--json"])
    if rc == 0 or "sum of the blocks' outputs" not in err:
        failures.append("%s: --attribute with a patched layer output must be refused by name; exit %d, %r" %
                        (name, rc, err.strip()[:200]))


def main(argv=None):
    global PLANT
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", required=True)
    ap.add_argument("--plant", choices=PLANTS)
    ap.add_argument("--expect-caught", nargs="?", const="-", metavar="CASE,…",
                    help="with --plant: run only these cases; exit 0 exactly when each failed the check")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args(argv)
    PLANT = args.plant
    names = [c[0] for c in dc.CASES]
    only = None if args.expect_caught in (None, "-") else args.expect_caught.split(",")
    if args.expect_caught and (not PLANT or any(n not in names for n in only or [])):
        ap.error("--expect-caught needs --plant and case names from: " + ", ".join(names))
    root = tempfile.mkdtemp(prefix="ew-dechooks-")
    failures = []
    rng = np.random.default_rng(3030)
    try:
        for case in dc.CASES:  # every case is written (the generator's draws stay the same), some checked
            if only is None or case[0] in only:
                check_case(args.cli, root, case, rng, failures)
            else:
                dc.write_case(root, case, rng)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    if args.verbose:
        for (case, what), e in sorted(ERRORS.items()):
            print("  %-34s %-22s max error %.2e of max|torch|" % (case, what, e))
    if args.expect_caught:
        for f in failures:
            print("caught: " + f)
        missed = [n for n in (only or names) if not any(f.startswith(n + " ") or f.startswith(n + ":") for f in failures)]
        crashed = [f for f in failures if "failed (" in f]
        print("planted %s: %s" % (PLANT, "FAIL not caught in %s" % missed if missed else
                                  "FAIL the CLI crashed: %s" % crashed[0] if crashed else
                                  "caught (%d differences)" % len(failures)))
        return 1 if missed or crashed else 0
    for f in failures:
        print("FAIL " + f)
    print("the lab on %d decoder checkpoints vs PyTorch forward hooks (ablate, patch, lens, attribute; worst "
          "error %.2e of scale): %s" % (len(dc.CASES), max(ERRORS.values(), default=float("nan")),
                                        "%d failures" % len(failures) if failures else "all agree"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
