#!/usr/bin/python3
"""fake_decoder_cli.py — a stand-in for `encoder-walkthrough --checkpoint DIR --ids … --json
[--generate | --backward]` on decoder checkpoints, answering from decoder_reference (unplanted) in
the trace JSON the C++ is to write (the step ids of decoder_reference.STEP_IDS, grad.<param id>).

It exists to test check_decoders.py's own CLI path (running, parsing, comparing, the bad-checkpoint
messages) before the core opens these checkpoints: against it the checker must pass, and with
every --plant it must fail. It is not a reference for anything.
"""
import json
import os
import struct
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import decoder_checkpoints as dc  # noqa: E402
import decoder_reference as dr  # noqa: E402


def read_safetensors(path):
    data = open(path, "rb").read()
    n = struct.unpack("<Q", data[:8])[0]
    out = {}
    for k, v in json.loads(data[8:8 + n]).items():
        if k == "__metadata__":
            continue
        raw = data[8 + n + v["data_offsets"][0]:8 + n + v["data_offsets"][1]]
        if v["dtype"] == "BF16":
            a = (np.frombuffer(raw, np.uint16).astype(np.uint32) << 16).view(np.float32)
        else:
            a = np.frombuffer(raw, {"F32": np.float32, "F16": np.float16, "I64": np.int64}[v["dtype"]])
        out[k] = (torch.from_numpy(a.astype(np.float64)).reshape(v["shape"]), os.path.basename(path))
    return out


def load(d):
    cfg = json.load(open(os.path.join(d, "config.json")))
    s = dr.parse_config(cfg)
    kind = json.load(open(os.path.join(d, "tokenizer.json")))["model"]["type"]
    if kind != "BPE":
        raise ValueError("tokenizer.json: model type \"%s\" is not supported (BPE)" % kind)
    index = os.path.join(d, "model.safetensors.index.json")
    files = sorted(set(json.load(open(index))["weight_map"].values())) if os.path.exists(index) else ["model.safetensors"]
    W = {}
    for f in files:
        if not os.path.exists(os.path.join(d, f)):
            raise ValueError("%s: missing (named by model.safetensors.index.json)" % f)
        W.update(read_safetensors(os.path.join(d, f)))
    bare = cfg["architectures"][0].endswith("Model")
    prefix = "" if bare else "model."
    s["embed_scale"] = dc.embed_scale_in({"float32": "F32", "float16": "F16", "bfloat16": "BF16"}[cfg["torch_dtype"]],
                                         s["embed_scale"])
    for k, a in dc.random_tensors(np.random.default_rng(0), s, prefix).items():
        if k not in W:
            raise ValueError("%s: tensor %s is missing" % (files[0], k))
        if list(W[k][0].shape) != list(a.shape):
            raise ValueError("%s: tensor %s has shape %s, expected %s" % (W[k][1], k, list(W[k][0].shape), list(a.shape)))
    return {k: v[0] for k, v in W.items()}, s, prefix


def steps(out):
    return [{"id": k, "data": v.detach().tolist()} for k, v in out.items()]


def main(argv):
    a = {argv[i]: (argv[i + 1] if i + 1 < len(argv) and not argv[i + 1].startswith("--") else True)
         for i in range(len(argv)) if argv[i].startswith("--")}
    try:
        W, s, prefix = load(a["--checkpoint"])
    except ValueError as e:
        print("error: " + str(e), file=sys.stderr)
        return 1
    ids = [int(t) for t in a["--ids"].split(",")]
    doc = {"steps": [{"id": dr.STEP_IDS["tokens"], "data": ids}]}
    if "--backward" in a:
        leaves = {k: v.clone().requires_grad_(True) for k, v in W.items()}
        out = dr.forward(leaves, s, ids, prefix)
        for t in out.values():
            t.retain_grad()
        loss = torch.nn.functional.cross_entropy(out[dr.STEP_IDS["logits"]][:-1], torch.tensor(ids[1:]))
        loss.backward()
        doc["steps"] += [{"id": "loss", "data": [float(loss)]}]
        for pid, (key, tr) in dr.param_ids(s, prefix).items():
            g = leaves[key].grad
            doc["steps"].append({"id": "grad." + pid, "data": (g.T if tr else g).tolist()})
        doc["steps"] += [{"id": "grad." + k, "data": v.grad.tolist()} for k, v in out.items() if v.grad is not None]
    else:
        doc["steps"] += steps(dr.forward(W, s, ids, prefix))
    if "--generate" in a:
        doc["generated_ids"] = dr.greedy(W, s, ids, dc.EOS)
    print(json.dumps(doc))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
