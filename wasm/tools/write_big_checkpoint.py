#!/usr/bin/env python3
"""write_big_checkpoint.py — a random qwen2 checkpoint of a real model's shape (config.json,
model.safetensors, tokenizer.json) for measuring load memory and decode speed (wasm/tools/
checkpoint_memory.mjs). Never commit its output: write it under /tmp.

  python3 wasm/tools/write_big_checkpoint.py OUT_DIR [--shape qwen2.5-0.5b|smollm2-135m|small] [--dtype BF16|F16|F32]

Tensors are written in Hugging Face's order (safetensors' save_file sorts by key: the token table
model.embed_tokens.weight comes first, model.norm.weight last; the tied lm_head is absent), one at a
time, so the script never holds more than one tensor. Values: uniform in ±1/√in (weights), ±1
(the table), 1 ± 0.3 (norms). The tokenizer: GPT-2's 256 byte symbols and <|endoftext|>, no merges
(the table has the real number of rows; the tokenizer names only the first 257). NumPy only.
"""
import argparse
import json
import os
import struct

import numpy as np


SHAPES = {
    # d, heads, kv heads, ffn, layers, vocab, rope θ
    "qwen2.5-0.5b": dict(d=896, H=14, KV=2, ff=4864, L=24, V=151936, theta=1e6, bias=True),
    "smollm2-135m": dict(d=576, H=9, KV=3, ff=1536, L=30, V=49152, theta=1e5, bias=False),
    "small": dict(d=384, H=6, KV=2, ff=1024, L=6, V=32000, theta=1e6, bias=True),  # ≈ 40 MB in BF16
}


def byte_symbols():
    """GPT-2's bytes → unicode map (tests/reference/check_checkpoints.py)."""
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    out, n = {}, 0
    for b in range(256):
        if b in keep:
            out[b] = chr(b)
        else:
            out[b] = chr(256 + n)
            n += 1
    return [out[b] for b in range(256)]


EOS = 256


def tokenizer_json():
    eot = {"id": EOS, "content": "<|endoftext|>", "single_word": False, "lstrip": False, "rstrip": False,
           "normalized": False, "special": True}
    bl = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}
    vocab = {t: i for i, t in enumerate(byte_symbols() + ["<|endoftext|>"])}
    model = {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": "",
             "end_of_word_suffix": "", "fuse_unk": False, "byte_fallback": False, "vocab": vocab, "merges": []}
    return {"version": "1.0", "truncation": None, "padding": None, "added_tokens": [eot], "normalizer": None,
            "pre_tokenizer": bl, "post_processor": bl, "decoder": bl, "model": model}


def encode(a, dtype):
    a = np.ascontiguousarray(a, dtype=np.float32)
    if dtype == "F32":
        return a.tobytes()
    if dtype == "F16":
        return a.astype("<f2").tobytes()
    u = a.view(np.uint32).astype(np.uint64)  # BF16: round to nearest even
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype("<u2").tobytes()


def tensors(s):
    """(key, shape, init) in HF's sorted order; init: (kind, scale)."""
    d, H, KV, ff, V = s["d"], s["H"], s["KV"], s["ff"], s["V"]
    hd = d // H
    out = [("model.embed_tokens.weight", (V, d), ("uniform", 1.0)), ("model.norm.weight", (d,), ("norm", 0))]
    for i in range(s["L"]):
        p = "model.layers.%d." % i
        out += [(p + "input_layernorm.weight", (d,), ("norm", 0)),
                (p + "post_attention_layernorm.weight", (d,), ("norm", 0)),
                (p + "mlp.gate_proj.weight", (ff, d), ("uniform", d ** -0.5)),
                (p + "mlp.up_proj.weight", (ff, d), ("uniform", d ** -0.5)),
                (p + "mlp.down_proj.weight", (d, ff), ("uniform", ff ** -0.5))]
        for m, o in (("q", H * hd), ("k", KV * hd), ("v", KV * hd)):
            out.append((p + "self_attn.%s_proj.weight" % m, (o, d), ("uniform", d ** -0.5)))
            if s["bias"]:
                out.append((p + "self_attn.%s_proj.bias" % m, (o,), ("uniform", 0.2)))
        out.append((p + "self_attn.o_proj.weight", (d, H * hd), ("uniform", (H * hd) ** -0.5)))
    return sorted(out, key=lambda t: t[0])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--shape", default="qwen2.5-0.5b", choices=sorted(SHAPES))
    ap.add_argument("--dtype", default="BF16", choices=["BF16", "F16", "F32"])
    ap.add_argument("--seed", type=int, default=5)
    a = ap.parse_args()
    s = SHAPES[a.shape]
    os.makedirs(a.out, exist_ok=True)
    config = {"model_type": "qwen2", "architectures": ["Qwen2ForCausalLM"], "hidden_size": s["d"],
              "num_attention_heads": s["H"], "num_key_value_heads": s["KV"], "num_hidden_layers": s["L"],
              "intermediate_size": s["ff"], "vocab_size": s["V"], "rms_norm_eps": 1e-6,
              "max_position_embeddings": 4096, "rope_theta": s["theta"], "tie_word_embeddings": True,
              "hidden_act": "silu", "bos_token_id": EOS, "eos_token_id": EOS,
              "torch_dtype": {"F32": "float32", "F16": "float16", "BF16": "bfloat16"}[a.dtype]}
    if not s["bias"]:
        config["model_type"], config["architectures"] = "llama", ["LlamaForCausalLM"]
        config.update(attention_bias=False, mlp_bias=False)
    with open(os.path.join(a.out, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
    with open(os.path.join(a.out, "tokenizer.json"), "w") as f:
        json.dump(tokenizer_json(), f)
    with open(os.path.join(a.out, "tokenizer_config.json"), "w") as f:
        json.dump({"eos_token": "<|endoftext|>", "bos_token": None, "model_max_length": 4096}, f)

    elem = 4 if a.dtype == "F32" else 2
    spec = tensors(s)
    header, at = {}, 0
    for key, shape, _ in spec:
        n = int(np.prod(shape)) * elem
        header[key] = {"dtype": a.dtype, "shape": list(shape), "data_offsets": [at, at + n]}
        at += n
    h = json.dumps(header).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    rng = np.random.default_rng(a.seed)
    count = 0
    with open(os.path.join(a.out, "model.safetensors"), "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h)
        for key, shape, (kind, scale) in spec:
            if kind == "norm":
                v = 1.0 + rng.uniform(-0.3, 0.3, size=shape)
            else:  # by rows, a few MB at a time
                v = None
                rows = shape[0]
                step = max(1, (1 << 22) // int(np.prod(shape[1:]) or 1))
                for r0 in range(0, rows, step):
                    part = rng.uniform(-scale, scale, size=(min(step, rows - r0),) + tuple(shape[1:]))
                    f.write(encode(part, a.dtype))
                count += int(np.prod(shape))
                continue
            f.write(encode(v, a.dtype))
            count += int(np.prod(shape))
    size = os.path.getsize(os.path.join(a.out, "model.safetensors"))
    print(json.dumps({"dir": a.out, "shape": a.shape, "dtype": a.dtype, "params": count, "file_bytes": size}))


if __name__ == "__main__":
    main()
