#!/usr/bin/env python3
"""check_batched_gradients.py — the batched training path (core/train/train_batched.h) against an
independent PyTorch model (Debian's python3-torch, float64) on padded minibatches.

For random models of the kinds training builds (number-words encoder-decoder and brackets
classifier; pre-norm; ReLU or GELU; causal or not; 1-2 layers; 1-4 heads; every parameter
random), the probe (tests/reference/train_batched_probe.cpp) prints the parameters, a padded
batch of 3-8 examples as token ids and lengths, and the batched path's loss and gradients.
This script builds the architecture itself in torch from the configuration — sinusoidal
positions, pre-norm layers, masks from the lengths (padding, and causal in the decoder), the
final LayerNorms, logits tied to the embedding table or the classifier on the first token,
the mean over examples of each example's mean token cross-entropy — lets autograd
differentiate, and compares:

    loss: |ours - torch| <= 1e-5·|torch|
    each parameter: |ours - torch| <= 1e-4·max|torch of that tensor| + 1e-6·(largest |gradient|)

Usage: check_batched_gradients.py --probe build/native-release/tests/train_batched_probe
"""
import argparse
import json
import math
import subprocess
import sys

import torch
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)

CASES = [  # task, d_model, heads, layers, causal, activation, batch, seed
    ("number-words", 8, 2, 1, 0, "gelu", 6, 1), ("number-words", 12, 4, 2, 1, "relu", 5, 2),
    ("number-words", 8, 1, 2, 0, "gelu", 3, 3), ("number-words", 16, 4, 1, 0, "gelu", 8, 7),
    ("brackets", 8, 2, 1, 0, "gelu", 6, 4), ("brackets", 16, 4, 2, 1, "gelu", 5, 5),
    ("brackets", 12, 3, 1, 0, "relu", 4, 6), ("brackets", 8, 4, 2, 0, "gelu", 8, 8),
]


def sinusoid(T, d):
    pe = torch.zeros(T, d)
    for p in range(T):
        for c in range(0, d, 2):
            a = p / math.pow(10000.0, c / d)
            pe[p, c] = math.sin(a)
            if c + 1 < d:
                pe[p, c + 1] = math.cos(a)
    return pe.float().double()  # the core stores the table in float32


def torch_loss(doc, P):
    c, b = doc["config"], doc["batch"]
    B, T, S, d, H = b["B"], b["T"], b["S"], c["d_model"], c["num_heads"]
    dk, eps = d // H, c["layer_norm_eps"]
    act = F.relu if c["activation"] == "relu" else F.gelu  # exact erf GELU
    scale = 1.0 / math.sqrt(dk) if c["scale"] else 1.0
    E = P["embedding_table"]

    def ln(x, p):
        return F.layer_norm(x, (d,), P[p + ".gamma"], P[p + ".beta"], eps)

    def mha(xq, xkv, p, masked):  # masked: [B, 1, Tq, Tk], True where a query may not look
        Tq, Tk = xq.shape[1], xkv.shape[1]
        q = (xq @ P[p + "W_q"] + P[p + "b_q"]).view(B, Tq, H, dk).transpose(1, 2)
        k = (xkv @ P[p + "W_k"] + P[p + "b_k"]).view(B, Tk, H, dk).transpose(1, 2)
        v = (xkv @ P[p + "W_v"] + P[p + "b_v"]).view(B, Tk, H, dk).transpose(1, 2)
        a = torch.softmax((q @ k.transpose(-1, -2) * scale).masked_fill(masked, -math.inf), -1)
        return (a @ v).transpose(1, 2).reshape(B, Tq, d) @ P[p + "W_o"] + P[p + "b_o"]

    def ffn(x, p):
        return act(x @ P[p + "W_1"] + P[p + "b_1"]) @ P[p + "W_2"] + P[p + "b_2"]

    def key_mask(lengths, Tq, Tk, causal):
        j = torch.arange(Tk)
        m = j[None, None, :] >= torch.tensor(lengths)[:, None, None]  # [B, 1, Tk]
        m = m.expand(B, Tq, Tk)
        if causal:
            m = m | (j[None, :] > torch.arange(Tq)[:, None])[None]
        return m[:, None]

    src = torch.tensor(b["src"]).view(B, T)
    x = E[src] + sinusoid(T, d)
    enc_mask = key_mask(b["src_len"], T, T, c["causal"])
    for i in range(c["num_layers"]):
        p = "layer%d." % i
        n = ln(x, p + "ln1")
        x = x + mha(n, n, p, enc_mask)
        x = x + ffn(ln(x, p + "ln2"), p)
    enc = ln(x, "final_ln")
    if c["num_labels"] > 0:
        logits = enc[:, 0, :] @ P["cls.W"] + P["cls.b"]
        return F.cross_entropy(logits, torch.tensor(b["label"]))  # mean over examples
    y = E[torch.tensor(b["dec_in"]).view(B, S)] + sinusoid(S, d)
    self_mask, cross_mask = key_mask(b["dec_len"], S, S, True), key_mask(b["src_len"], S, T, False)
    for j in range(c["decoder_layers"]):
        p = "decoder%d." % j
        n = ln(y, p + "ln1")
        y = y + mha(n, n, p + "self.", self_mask)
        y = y + mha(ln(y, p + "ln2"), enc, p + "cross.", cross_mask)
        y = y + ffn(ln(y, p + "ln3"), p)
    logp = torch.log_softmax(ln(y, "decoder_final_ln") @ E.T, -1)  # [B, S, V]
    total = 0
    for e in range(B):
        n = b["dec_len"][e]
        labels = torch.tensor(b["dec_out"][e * S: e * S + n])
        total = total - logp[e, torch.arange(n), labels].sum() / n
    return total / B


def check(probe, case):
    r = subprocess.run([probe] + [str(v) for v in case], capture_output=True, text=True)
    doc = json.loads(r.stdout)
    if r.returncode != 0 or "error" in doc:
        return ["probe failed: " + doc.get("error", r.stderr)], 0.0
    P = {p["id"]: torch.tensor(p["data"]).view(p["shape"]).requires_grad_(True) for p in doc["params"]}
    L = torch_loss(doc, P)
    L.backward()
    fails = []
    if abs(doc["loss"] - L.item()) > 1e-5 * abs(L.item()):
        fails.append("loss: batched %.9g, torch %.9g" % (doc["loss"], L.item()))
    big = max(t.grad.abs().max().item() for t in P.values() if t.grad is not None)
    worst = 0.0
    if set(doc["grads"]) != set(P):
        fails.append("the batched path's gradients are not one per parameter")
    for k, t in P.items():
        g = t.grad if t.grad is not None else torch.zeros_like(t)
        got = torch.tensor(doc["grads"][k]).view(g.shape)
        err = (got - g).abs().max().item()
        allowed = 1e-4 * g.abs().max().item() + 1e-6 * big
        worst = max(worst, err / allowed)
        if err > allowed:
            i = int((got - g).abs().argmax())
            fails.append("%s: worst at flat index %d: batched %.9g, torch %.9g (|diff| %.3g > %.3g)"
                         % (k, i, got.flatten()[i].item(), g.flatten()[i].item(), err, allowed))
    return fails, worst


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--probe", required=True)
    a = ap.parse_args()
    failed, worst = 0, 0.0
    for case in CASES:
        fails, w = check(a.probe, case)
        worst = max(worst, w)
        if fails:
            failed += 1
            print("FAIL %s" % (case,))
            for f in fails[:8]:
                print("  " + f)
    print("batched gradients vs torch autograd: %d models, worst %.3f of the tolerance" % (len(CASES), worst))
    print("%d passed, %d failed" % (len(CASES) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
