#!/usr/bin/python3
"""write_checkpoints.py — random Hugging Face checkpoints for the page's checkpoint test and its
measurement, written by tests/reference/check_checkpoints.py's writer (the real key names,
tied weights left out, buffers kept).

Usage:
  /usr/bin/python3 tests/browser/write_checkpoints.py --small DIR
      DIR/bert-mlm       BertForMaskedLM, 2 layers, float32, vocab.txt
      DIR/gpt2-lm        GPT2LMHeadModel, 2 layers, float32, vocab.json + merges.txt, a token
                         table of 50,257 rows (GPT-2's; the ids past the tiny vocabulary are
                         "[id N]"), so lm.logits / lm.probs are [T, 50257]
      DIR/distil-f16     DistilBertForMaskedLM, 1 layer, float16, vocab.txt
      DIR/bert-cls       BertForSequenceClassification, 2 layers, 3 labels (id2label), float32
      DIR/bad-truncated  bert-mlm with model.safetensors cut in half
      DIR/bad-type       bert-mlm whose config.json says "model_type": "t5"
  /usr/bin/python3 tests/browser/write_checkpoints.py --bert-base DIR
      BERT-base-sized BertForMaskedLM (12 layers, d 768, 12 heads, d_ff 3072, vocab 30,522,
      float32: ~440 MB) for tests/browser/measure-checkpoint.mjs
  /usr/bin/python3 tests/browser/write_checkpoints.py --gpt2-small DIR
      GPT-2-small-sized GPT2LMHeadModel (12 layers, d 768, 12 heads, d_ff 3072, 1,024
      positions, a token table of 50,257 rows, float32: ~500 MB) for its generation timing
  /usr/bin/python3 tests/browser/write_checkpoints.py --smollm2-135m DIR [--dtype BF16]
      SmolLM2-135M-sized LlamaForCausalLM (30 layers, d 576, 9 query / 3 K/V heads of 64, SwiGLU
      1,536, vocab 49,152, θ 1e5, tied; BF16 as shipped: ~270 MB) for the trace and generation
      timings of issues 30 and 31; the tokenizer is decoder_checkpoints' tiny byte-level BPE (the
      table's rows past it are never read by a prompt, but the head scores all 49,152)
  /usr/bin/python3 tests/browser/write_checkpoints.py --gemma3-270m DIR [--dtype BF16]
      Gemma-3-270M-sized Gemma3ForCausalLM (18 layers, d 640, 4 query / 1 K/V head of 256, GeGLU
      2,048, a table of 262,144 rows, sliding window 512 with every 6th layer global, local θ 1e4
      and global 1e6, query_pre_attn_scalar 256, tied; BF16 as shipped: ~540 MB) for issue 30's
      "the 262,144-row table stays usable"; the same tiny tokenizer
"""
import argparse
import json
import os
import shutil
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reference"))
import check_checkpoints as cc  # noqa: E402
import decoder_checkpoints  # noqa: E402


def write(d, mt, head, c, dtype, prefix, name, vocab_rows=None):
    rng = np.random.default_rng(len(name) * 7919)  # fixed per checkpoint
    if mt == "gpt2":
        t = cc.gpt2_tensors(rng, c, prefix)
    else:
        t = cc.bert_tensors(rng, c, mt == "distilbert", head, prefix, False)
    conf = cc.config_json(mt, head, c)
    if vocab_rows:
        t[prefix + "wte.weight"] = cc.rnd(rng, vocab_rows, c["d"])
        conf["vocab_size"] = vocab_rows
    conf["_name_or_path"] = name
    cc.write_dir(d, conf, t, dtype, "gpt2" if mt == "gpt2" else "bert")


def small(root):
    if os.path.exists(root):
        shutil.rmtree(root)
    os.makedirs(root)
    bert = {"d": 16, "H": 4, "ff": 24, "L": 2, "P": 24, "labels": 3}
    write(os.path.join(root, "bert-mlm"), "bert", "mlm", bert, "F32", "bert.", "tiny-bert-mlm")
    write(os.path.join(root, "bert-cls"), "bert", "cls", bert, "F32", "bert.", "tiny-bert-cls")
    gpt = {"d": 16, "H": 4, "ff": 64, "L": 2, "P": 64, "labels": 3}
    write(os.path.join(root, "gpt2-lm"), "gpt2", "lm", gpt, "F32", "transformer.", "tiny-gpt2-wide", vocab_rows=50257)
    distil = {"d": 16, "H": 2, "ff": 32, "L": 1, "P": 24, "labels": 3}
    write(os.path.join(root, "distil-f16"), "distilbert", "mlm", distil, "F16", "distilbert.", "tiny-distilbert-f16")
    cut = os.path.join(root, "bad-truncated")
    shutil.copytree(os.path.join(root, "bert-mlm"), cut)
    st = os.path.join(cut, "model.safetensors")
    with open(st, "r+b") as f:
        f.truncate(os.path.getsize(st) // 2)
    bad = os.path.join(root, "bad-type")
    shutil.copytree(os.path.join(root, "bert-mlm"), bad)
    with open(os.path.join(bad, "config.json")) as f:
        conf = json.load(f)
    conf["model_type"] = "t5"
    with open(os.path.join(bad, "config.json"), "w") as f:
        json.dump(conf, f)


def bert_base(d):
    cc.BERT_VOCAB = cc.BERT_VOCAB + ["tok%d" % i for i in range(30522 - len(cc.BERT_VOCAB))]
    c = {"d": 768, "H": 12, "ff": 3072, "L": 12, "P": 512, "labels": 3}
    write(d, "bert", "mlm", c, "F32", "bert.", "random-bert-base")


def gpt2_small(d):
    c = {"d": 768, "H": 12, "ff": 3072, "L": 12, "P": 1024, "labels": 3}
    write(d, "gpt2", "lm", c, "F32", "transformer.", "random-gpt2-small", vocab_rows=50257)


def smollm2_135m(d, dtype):
    c = dict(d=576, H=9, KV=3, ff=1536, L=30, V=49152, eps=1e-5, tied=True, dtype=dtype)
    config = decoder_checkpoints.base_config("llama", "LlamaForCausalLM", c)
    config.update(rope_theta=100000.0, max_position_embeddings=8192, _name_or_path="random-smollm2-135m")
    s = decoder_checkpoints.dr.parse_config(config)
    t = decoder_checkpoints.random_tensors(np.random.default_rng(135), s, "model.")
    decoder_checkpoints.write_dir(d, config, t, dtype)


def gemma3_270m(d, dtype):
    c = dict(d=640, H=4, KV=1, head_dim=256, ff=2048, L=18, V=262144, eps=1e-6, tied=True, dtype=dtype)
    config = decoder_checkpoints.base_config("gemma3_text", "Gemma3ForCausalLM", c)
    config.update(rope_theta=1000000.0, rope_local_base_freq=10000.0, rope_scaling=None, query_pre_attn_scalar=256,
                  sliding_window=512, layer_types=["full_attention" if (i + 1) % 6 == 0 else "sliding_attention"
                                                   for i in range(c["L"])],
                  max_position_embeddings=32768, _name_or_path="random-gemma-3-270m")
    s = decoder_checkpoints.dr.parse_config(config)
    t = decoder_checkpoints.random_tensors(np.random.default_rng(270), s, "model.")
    decoder_checkpoints.write_dir(d, config, t, dtype)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--small")
    ap.add_argument("--bert-base")
    ap.add_argument("--gpt2-small")
    ap.add_argument("--decoders")
    ap.add_argument("--smollm2-135m")
    ap.add_argument("--gemma3-270m")
    ap.add_argument("--dtype", default="BF16", choices=["F32", "F16", "BF16"])
    a = ap.parse_args()
    if a.small:
        small(a.small)
    if a.bert_base:
        bert_base(a.bert_base)
    if a.gpt2_small:
        gpt2_small(a.gpt2_small)
    if a.smollm2_135m:
        smollm2_135m(a.smollm2_135m, a.dtype)
    if a.gemma3_270m:
        gemma3_270m(a.gemma3_270m, a.dtype)
    if a.decoders:
        decoder_checkpoints.main([a.decoders])
