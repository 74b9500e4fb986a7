#!/usr/bin/python3
"""check_checkpoint_gradients.py — the backward pass over Hugging Face checkpoints against
PyTorch autograd.

Usage:
  /usr/bin/python3 tests/reference/check_checkpoint_gradients.py --cli PATH/encoder-walkthrough
                   [--plant DEFECT] [--verbose]

What it does
  1. Builds small random checkpoints (1–2 layers, d 16, 4 heads) with check_checkpoints.py's
     writers (the real tensor names, tied output weights left out of the file, float32): BERT
     masked LM (the full head: dense → GELU → LayerNorm → tied decoder + bias; a pair of
     sentences, so token types), BERT classifier (pooler's tanh on [CLS], classifier),
     DistilBERT masked LM (vocab_transform, vocab_layer_norm, vocab_projector) and GPT-2's LM
     head (pre-norm, gelu_new, ln_f, tied LM head).
  2. Computes each with check_checkpoints.py's float64 references (written from the
     architectures' definitions) and autograd, with the loss HF's heads compute from their
     labels: masked LM — cross-entropy at the [MASK] positions against the true tokens (the
     CLI's --mask-targets), mean over them; classifier — cross-entropy against --label;
     GPT-2 — the text shifted by one (position t predicts token t+1), mean over T−1.
  3. Runs `CLI --checkpoint DIR --ids … --backward --json [--label L | --mask-targets W,…]` and
     compares the loss (1e-5 relative), every parameter's gradient (grad.<param>, the HF tensor's
     gradient mapped onto our parameter: nn.Linear transposed, GPT-2's c_attn split into Q/K/V)
     and the gradients of the steps the reference names (input, layer{i}.output, output, the
     head's logits) to 1e-4 of the tensor's largest |value| + 1e-6 of the largest gradient of
     the model (check_gradients.py's tolerance). Every parameter with a non-zero autograd
     gradient must have its grad step.

--plant DEFECT makes the *reference* wrong in a way the core could be, and the check must fail:
  untied — the tied decoder's contribution to the word-embedding gradient left out;
  tanh-gelu — BERT's GELU as the tanh approximation;
  no-shift — GPT-2's targets not shifted (position t "predicts" token t).
With --expect-caught CASE,… only those cases run and the exit is 0 exactly when each fails: the
test command runs every planted defect this way as a test that must be caught.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_checkpoints as cc  # noqa: E402

PLANT = None
RTOL = 1e-4

# name, model_type, head, layers, prefix, pair, config away from the defaults (as check_checkpoints.py:
# eps, activation, GPT-2's n_inner; DistilBERT's sinusoidal table is a frozen buffer in PyTorch,
# so its gradient case keeps the learned table)
CASES = [
    ("bert-mlm", "bert", "mlm", 2, "bert.", True, {"act": "gelu", "eps": 0.05}),
    ("bert-cls", "bert", "cls", 1, "bert.", True, {"act": "relu", "eps": 1e-6}),
    ("distilbert-mlm", "distilbert", "mlm", 2, "distilbert.", False, {"act": "relu"}),
    ("gpt2-lm", "gpt2", "lm", 2, "transformer.", False, {"act": "gelu", "eps": 1e-3, "ff": 40}),
]

# [CLS] the [MASK] sat on the [MASK] . [SEP] (it ran in the park . [SEP]); the masks are cat, mat.
BERT_IDS = [2, 5, 4, 7, 8, 5, 4, 17, 3]
BERT_PAIR = [19, 12, 15, 5, 16, 17, 3]
MASK_TARGETS = ["cat", "mat"]
LABEL = "POSITIVE"


def our_params(mt, head, L, prefix, g):
    """{our parameter id: gradient} from {HF key: gradient} (core/io/hf_keys.cpp's bindings)."""
    out = {}

    def lin(ours_w, ours_b, key, conv=False):
        if key + ".weight" in g:
            out[ours_w] = g[key + ".weight"] if conv else g[key + ".weight"].T
        if key + ".bias" in g:
            out[ours_b] = g[key + ".bias"]

    def ln(ours, key):
        out[ours + ".gamma"] = g[key + ".weight"]
        out[ours + ".beta"] = g[key + ".bias"]

    p = prefix
    if mt == "gpt2":
        out["embedding_table"] = g[p + "wte.weight"]
        out["position_table"] = g[p + "wpe.weight"]
        for i in range(L):
            H, o = p + "h.%d." % i, "layer%d." % i
            ln(o + "ln1", H + "ln_1")
            W, b = g[H + "attn.c_attn.weight"], g[H + "attn.c_attn.bias"]
            for k, n in enumerate("qkv"):
                d = W.shape[0]
                out[o + "W_" + n] = W[:, k * d:(k + 1) * d]
                out[o + "b_" + n] = b[k * d:(k + 1) * d]
            lin(o + "W_o", o + "b_o", H + "attn.c_proj", True)
            ln(o + "ln2", H + "ln_2")
            lin(o + "W_1", o + "b_1", H + "mlp.c_fc", True)
            lin(o + "W_2", o + "b_2", H + "mlp.c_proj", True)
        ln("final_ln", p + "ln_f")
        return out
    distil = mt == "distilbert"
    out["embedding_table"] = g[p + "embeddings.word_embeddings.weight"]
    out["position_table"] = g[p + "embeddings.position_embeddings.weight"]
    if not distil:
        out["token_type_table"] = g[p + "embeddings.token_type_embeddings.weight"]
    ln("embedding_ln", p + "embeddings.LayerNorm")
    for i in range(L):
        H = p + ("transformer.layer.%d." if distil else "encoder.layer.%d.") % i
        o = "layer%d." % i
        names = [("q", "attention.q_lin" if distil else "attention.self.query"),
                 ("k", "attention.k_lin" if distil else "attention.self.key"),
                 ("v", "attention.v_lin" if distil else "attention.self.value"),
                 ("o", "attention.out_lin" if distil else "attention.output.dense")]
        for n, key in names:
            lin(o + "W_" + n, o + "b_" + n, H + key)
        ln(o + "ln1", H + ("sa_layer_norm" if distil else "attention.output.LayerNorm"))
        lin(o + "W_1", o + "b_1", H + ("ffn.lin1" if distil else "intermediate.dense"))
        lin(o + "W_2", o + "b_2", H + ("ffn.lin2" if distil else "output.dense"))
        ln(o + "ln2", H + ("output_layer_norm" if distil else "output.LayerNorm"))
    if head == "mlm":
        lin("mlm.W_t", "mlm.b_t", "vocab_transform" if distil else "cls.predictions.transform.dense")
        ln("mlm.transform_ln", "vocab_layer_norm" if distil else "cls.predictions.transform.LayerNorm")
        out["mlm.b"] = g["vocab_projector.bias" if distil else "cls.predictions.bias"]
    if head == "cls":
        lin("cls.W_p", "cls.b_p", "pre_classifier" if distil else p + "pooler.dense")
        lin("cls.W", "cls.b", "classifier")
    return out


def reference(mt, head, c, prefix, W, ids, types):
    """The loss, {HF key: gradient} and {step id: gradient} by autograd (float64)."""
    leaves = {k: v.clone().requires_grad_(True) for k, v in W.items() if v.is_floating_point()}
    params = dict(W, **leaves)
    if PLANT == "untied" and head in ("mlm", "lm"):
        # the decoder reads a detached copy of the table: the tie's term in its gradient is lost
        emb = (prefix + "wte.weight") if mt == "gpt2" else (prefix + "embeddings.word_embeddings.weight")
        ref = run_untied(mt, head, c, prefix, params, ids, types, emb)
    elif mt == "gpt2":
        ref = cc.gpt2_reference(params, c, prefix, ids)
    else:
        ref = cc.bert_reference(params, c, mt == "distilbert", head, prefix, ids, types, False)
    for t in ref.values():
        t.retain_grad()
    loss = loss_of(mt, head, ref, ids)
    loss.backward()
    grads = {k: v.grad for k, v in leaves.items() if v.grad is not None}
    steps = {k: v.grad for k, v in ref.items() if v.grad is not None}
    return loss.item(), grads, steps


def run_untied(mt, head, c, prefix, params, ids, types, emb):
    """The reference with the output projection reading a detached copy of the token table."""
    detached = dict(params)
    detached[emb] = params[emb].detach()
    if mt == "gpt2":
        ref = cc.gpt2_reference(params, c, prefix, ids)
        ref["logits"] = ref["output"] @ detached[emb].T
        return ref
    ref = cc.bert_reference(params, c, mt == "distilbert", head, prefix, ids, types, False)
    x = ref["output"]
    distil = mt == "distilbert"
    P_ = "vocab_" if distil else "cls.predictions.transform."
    dense = "vocab_transform" if distil else P_ + "dense"
    norm = "vocab_layer_norm" if distil else P_ + "LayerNorm"
    t = cc.act_of(c, mt)(cc.linear(x, params[dense + ".weight"], params[dense + ".bias"]))
    t = cc.layer_norm(t, params[norm + ".weight"], params[norm + ".bias"], cc.eps_of(c, mt))
    bias = params["vocab_projector.bias" if distil else "cls.predictions.bias"]
    ref["mlm.logits"] = t @ detached[emb].T + bias
    return ref


def loss_of(mt, head, ref, ids):
    if head == "mlm":
        logits = ref["mlm.logits"]
        rows = [i for i, t in enumerate(ids) if t == cc.BERT_VOCAB.index("[MASK]")]
        want = torch.tensor([cc.BERT_VOCAB.index(t) for t in MASK_TARGETS])
        return torch.nn.functional.cross_entropy(logits[rows], want)
    if head == "cls":
        return torch.nn.functional.cross_entropy(ref["cls.logits"], torch.tensor([["NEGATIVE", "POSITIVE", "NEUTRAL"].index(LABEL)]))
    logits = ref["logits"]
    if PLANT == "no-shift":
        return torch.nn.functional.cross_entropy(logits[:-1], torch.tensor(ids[:-1]))
    return torch.nn.functional.cross_entropy(logits[:-1], torch.tensor(ids[1:]))


def compare(name, doc, loss, ours_p, steps, failures, verbose):
    got = {s["id"]: s for s in doc["steps"]}
    if "loss" not in got:
        failures.append("%s: no loss step (%s)" % (name, doc.get("backward_error")))
        return 0, 0.0
    L = got["loss"]["data"][0]
    if abs(L - loss) > 1e-5 * abs(loss) + 1e-7:
        failures.append("%s: loss CLI %.9g, torch %.9g" % (name, L, loss))
    wanted = dict(ours_p)
    wanted.update(steps)
    big = max(float(g.abs().max()) for g in wanted.values())
    compared, worst = 0, 0.0
    for k, g in wanted.items():
        s = got.get("grad." + k)
        if s is None:
            if float(g.abs().max()) > 0:
                failures.append("%s: grad.%s: autograd has a gradient (max %.3g), the trace has no step" % (name, k, float(g.abs().max())))
            continue
        mine = torch.tensor([float("nan") if v is None else v for v in np.ravel(s["data"])], dtype=torch.float64)
        want = g.reshape(-1)
        if mine.numel() != want.numel():
            failures.append("%s: grad.%s has %d values, autograd %d" % (name, k, mine.numel(), want.numel()))
            continue
        err = float((mine - want).abs().max())
        allowed = RTOL * float(want.abs().max()) + 1e-6 * big
        worst = max(worst, err / allowed)
        compared += 1
        if not err <= allowed:
            i = int((mine - want).abs().argmax())
            failures.append("%s: grad.%s differs by %.3g > %.3g (flat index %d: CLI %.9g, torch %.9g)"
                            % (name, k, err, allowed, i, float(mine[i]), float(want[i])))
    params_in_trace = [sid for sid in got if sid.startswith("grad.") and sid[5:] in ours_p]
    if verbose:
        print("  %s: loss %.6f, %d gradients compared (%d parameters), worst %.3f of the tolerance"
              % (name, loss, compared, len(params_in_trace), worst))
    return compared, worst


def check_case(cli, root, case, rng, failures, verbose):
    name, mt, head, L, prefix, pair, cfg = case
    c = dict({"d": 16, "H": 4, "ff": 24 if mt != "gpt2" else 64, "L": L, "P": 24, "labels": 3}, **cfg)
    d = os.path.join(root, name)
    if mt == "gpt2":
        tensors = cc.gpt2_tensors(rng, c, prefix)
    else:
        tensors = cc.bert_tensors(rng, c, mt == "distilbert", head, prefix, False)
    W = cc.write_dir(d, cc.config_json(mt, head, c), tensors, "F32", "gpt2" if mt == "gpt2" else "bert")
    if mt == "gpt2":
        ids, types = [cc.GPT_VOCAB.index(w) for w in ["the", "Ġcat", "Ġsat", "Ġon", "the", "Ġmat", "Ġin"]], None
    else:
        ids = BERT_IDS + (BERT_PAIR if pair else [])
        types = [0] * len(BERT_IDS) + ([1] * len(BERT_PAIR) if pair else [])
    loss, g, steps = reference(mt, head, c, prefix, W, ids, types)
    args = ["--checkpoint", d, "--ids", ",".join(map(str, ids)), "--backward", "--json"]
    if head == "mlm":
        args += ["--mask-targets", ",".join(MASK_TARGETS)]
    if head == "cls":
        args += ["--label", LABEL]
    rc, out, err = cc.run_cli(cli, args)
    if rc != 0:
        failures.append("%s: the CLI failed (%d): %s" % (name, rc, err.strip()))
        return 0, 0.0
    return compare(name, json.loads(out), loss, our_params(mt, head, L, prefix, g), steps, failures, verbose)


def main(argv=None):
    global PLANT
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", required=True)
    ap.add_argument("--plant", choices=["untied", "tanh-gelu", "no-shift"])
    ap.add_argument("--expect-caught", metavar="CASE,…",
                    help="with --plant: run only these cases; exit 0 exactly when each of them fails")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args(argv)
    PLANT = args.plant
    expect = args.expect_caught.split(",") if args.expect_caught else None
    if expect and (not PLANT or not set(expect) <= {c[0] for c in CASES}):
        ap.error("--expect-caught needs --plant and case names from: " + ", ".join(c[0] for c in CASES))
    cc.PLANT = "tanh-gelu" if PLANT == "tanh-gelu" else None
    root = tempfile.mkdtemp(prefix="ew-ckgrad-")
    failures, total, worst = [], 0, 0.0
    rng = np.random.default_rng(1919)
    try:
        for case in CASES:
            if expect is not None and case[0] not in expect:
                continue
            n, w = check_case(args.cli, root, case, rng, failures, args.verbose)
            total, worst = total + n, max(worst, w)
    finally:
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
    print("checkpoint gradients vs torch autograd: %d checkpoints, %d gradient tensors compared, worst %.3f of the "
          "tolerance: %s" % (len(CASES), total, worst, "%d failures" % len(failures) if failures else "all agree"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
