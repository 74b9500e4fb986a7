#!/usr/bin/python3
"""write_decoder_checkpoints.py — random Llama / Qwen2 checkpoints at real model sizes for
bench/node/decoders.mjs (issue 31 item 3): SmolLM2-135M-sized (llama) and Qwen2.5-0.5B-sized
(qwen2), written as Hugging Face saves them: config.json, model.safetensors (HF key names,
nn.Linear weights [out, in], the tied lm_head left out), tokenizer.json / tokenizer_config.json.

The tokenizer is the tiny byte-level BPE (292 tokens, <|endoftext|> = 291) of the test fixtures
(tests/reference/decoder_checkpoints.py's tokenizer_json, imported, not copied); the embedding
rows past it are padding the core accepts (as Qwen's 151,936 rows past its 151,665 tokens). The
bench feeds a 16-letter prompt, one token per letter. Weights: numpy's PCG64 with a fixed seed,
N(0, 1/in) for Linear weights, N(0, 1) embeddings, 1 + N(0, 0.3²) norm scales, N(0, 0.2²) q/k/v
biases — the scales of the test fixtures, so the logits are O(10) and greedy picks are not ties.

Usage: /usr/bin/python3 bench/python/write_decoder_checkpoints.py --smollm2-135m DIR | --qwen25-05b DIR
                                                                   [--dtype F32|F16|BF16]
"""
import json
import os
import struct
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "reference"))
import decoder_checkpoints as dc  # noqa: E402  (tokenizer_json, EOS)

SIZES = {
    "--smollm2-135m": dict(mt="llama", arch="LlamaForCausalLM", d=576, L=30, H=9, KV=3, hd=64, ff=1536, V=49152,
                           theta=1e5, bias=False, seed=135),
    "--qwen25-05b": dict(mt="qwen2", arch="Qwen2ForCausalLM", d=896, L=24, H=14, KV=2, hd=64, ff=4864, V=151936,
                         theta=1e6, bias=True, seed=500),
}


def config(s, dtype):
    j = {"model_type": s["mt"], "architectures": [s["arch"]], "hidden_size": s["d"], "num_hidden_layers": s["L"],
         "num_attention_heads": s["H"], "num_key_value_heads": s["KV"], "head_dim": s["hd"],
         "intermediate_size": s["ff"], "vocab_size": s["V"], "rope_theta": s["theta"], "rms_norm_eps": 1e-5,
         "hidden_act": "silu", "tie_word_embeddings": True, "max_position_embeddings": 2048,
         "bos_token_id": dc.EOS, "eos_token_id": dc.EOS, "rope_scaling": None,
         "torch_dtype": {"F32": "float32", "F16": "float16", "BF16": "bfloat16"}[dtype], "use_cache": True}
    if s["mt"] == "llama":
        j.update(attention_bias=False, mlp_bias=False, pretraining_tp=1)
    else:
        j.update(use_sliding_window=False, sliding_window=None, max_window_layers=s["L"])
    return j


def tensors(s):
    """Yields (HF key, float32 array) in file order."""
    rng = np.random.default_rng(s["seed"])
    d, hd = s["d"], s["hd"]
    rnd = lambda *shape, scale=1.0: (rng.standard_normal(shape, dtype=np.float32) * np.float32(scale))
    yield "model.embed_tokens.weight", rnd(s["V"], d)
    for i in range(s["L"]):
        p = "model.layers.%d." % i
        yield p + "input_layernorm.weight", 1 + rnd(d, scale=0.3)
        for m, o in (("q", s["H"] * hd), ("k", s["KV"] * hd), ("v", s["KV"] * hd)):
            yield p + "self_attn.%s_proj.weight" % m, rnd(o, d, scale=d ** -0.5)
            if s["bias"]:
                yield p + "self_attn.%s_proj.bias" % m, rnd(o, scale=0.2)
        yield p + "self_attn.o_proj.weight", rnd(d, s["H"] * hd, scale=(s["H"] * hd) ** -0.5)
        yield p + "post_attention_layernorm.weight", 1 + rnd(d, scale=0.3)
        yield p + "mlp.gate_proj.weight", rnd(s["ff"], d, scale=d ** -0.5)
        yield p + "mlp.up_proj.weight", rnd(s["ff"], d, scale=d ** -0.5)
        yield p + "mlp.down_proj.weight", rnd(d, s["ff"], scale=s["ff"] ** -0.5)
    yield "model.norm.weight", 1 + rnd(d, scale=0.3)


def to_bytes(a, dtype):
    if dtype == "F32":
        return a.astype("<f4").tobytes()
    if dtype == "F16":
        return a.astype("<f2").tobytes()
    u = a.astype("<f4").view("<u4").astype(np.uint64)  # BF16: round to nearest even
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype("<u2").tobytes()


def write(d, s, dtype):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "config.json"), "w") as f:
        json.dump(config(s, dtype), f, indent=2)
    with open(os.path.join(d, "tokenizer.json"), "w") as f:
        json.dump(dc.tokenizer_json(), f)
    with open(os.path.join(d, "tokenizer_config.json"), "w") as f:
        json.dump({"eos_token": "<|endoftext|>", "bos_token": None, "model_max_length": 2048}, f)
    size = 2 if dtype != "F32" else 4
    # The header from the shapes alone (layout), then the tensors drawn once and streamed.
    header, at = {}, 0
    for k, shape in layout(s):
        n = int(np.prod(shape)) * size
        header[k] = {"dtype": dtype, "shape": list(shape), "data_offsets": [at, at + n]}
        at += n
    h = json.dumps(header).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(os.path.join(d, "model.safetensors"), "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h)
        for k, a in tensors(s):
            assert list(a.shape) == header[k]["shape"], k
            f.write(to_bytes(a, dtype))
    return at


def layout(s):
    d, hd = s["d"], s["hd"]
    out = [("model.embed_tokens.weight", (s["V"], d))]
    for i in range(s["L"]):
        p = "model.layers.%d." % i
        out.append((p + "input_layernorm.weight", (d,)))
        for m, o in (("q", s["H"] * hd), ("k", s["KV"] * hd), ("v", s["KV"] * hd)):
            out.append((p + "self_attn.%s_proj.weight" % m, (o, d)))
            if s["bias"]:
                out.append((p + "self_attn.%s_proj.bias" % m, (o,)))
        out += [(p + "self_attn.o_proj.weight", (d, s["H"] * hd)), (p + "post_attention_layernorm.weight", (d,)),
                (p + "mlp.gate_proj.weight", (s["ff"], d)), (p + "mlp.up_proj.weight", (s["ff"], d)),
                (p + "mlp.down_proj.weight", (d, s["ff"]))]
    out.append(("model.norm.weight", (d,)))
    return out


def main(argv):
    dtype, jobs, i = "F32", [], 0
    while i < len(argv):
        if argv[i] == "--dtype":
            dtype = argv[i + 1]
            i += 2
        elif argv[i] in SIZES and i + 1 < len(argv):
            jobs.append((argv[i], argv[i + 1]))
            i += 2
        else:
            sys.exit(__doc__)
    if not jobs:
        sys.exit(__doc__)
    for flag, d in jobs:
        n = write(d, SIZES[flag], dtype)
        print("%s: %s, %.0f MB of %s weights" % (d, flag[2:], n / 1e6, dtype))


if __name__ == "__main__":
    main(sys.argv[1:])
