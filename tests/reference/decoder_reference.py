#!/usr/bin/python3
"""decoder_reference.py — float64 PyTorch references of the modern decoders (llama, qwen2, qwen3,
gemma3_text), written from Hugging Face's modeling and configuration code (facts taken, not code:
transformers is not installed here).

  parse_config(cfg)   config.json as real files spell it (v4 `rope_theta` + `rope_scaling` with
                      "rope_type" or the older "type"; v5 `rope_parameters`, per layer type for
                      Gemma 3; Gemma's `layer_types` or `sliding_window_pattern`) → one spec dict.
                      A value the walkthrough does not implement raises ValueError naming the key.
  forward(W, spec, ids)       the vectorised model: {step id: tensor} (ids in STEP_IDS below).
  forward_slow(W, spec, ids)  the same model written again as per-position, per-head loops, with
                      the rotation as explicit (i, i + d/2) pair rotations and the mask as the
                      literal rule: an independent check of forward() while the C++ is absent.
  greedy(W, spec, ids, eos)   HF's greedy loop (at most 32 new tokens, stop at eos).

What the models are (shapes: T tokens, d hidden, H query heads, KV key/value heads, hd head_dim):
  x = E[ids] · s          s = 1, Gemma: √d rounded to the weights' dtype (HF casts its buffer)
  per layer: h = norm(x); q,k,v = h·Wᵀ (+b)  [T,H,hd] [T,KV,hd]; q,k = qk_norm per head (qwen3,
  gemma); rotate-half RoPE (pairs i, i+hd/2); query head h reads KV head h // (H/KV);
  softmax(q·kᵀ · scale + mask) with scale hd^-½ (Gemma: query_pre_attn_scalar^-½), the mask
  "key j ≤ i" and, on sliding layers, "j > i − window": a query sees `window` keys, itself
  included (masking_utils.sliding_window_overlay `kv_idx > q_idx - sliding_window`; the older
  Gemma 3 code masked torch.tril(ones, diagonal=-sliding_window), the same set);
  x += o_proj(attn) (Gemma: post_attention_layernorm first); x += down(act(gate(n))·up(n)) with
  n = the pre-FFN norm (Gemma also normalises the MLP's output); RMSNorm x/√(mean x² + eps)·w,
  Gemma's ·(1 + w); act silu, Gemma gelu_pytorch_tanh. Final norm, logits = out·(lm_head or E)ᵀ.

PLANT (set by the checker) makes forward() wrong in one way the C++ could be; forward_slow()
never reads it, so --reference-only catches every plant too.
"""
import math

import numpy as np
import torch

PLANT = None
PLANTS = ["rope-interleaved", "norm-w", "kv-mod", "window-off-by-one", "no-eps"]

# The contract with the C++ trace (cli --json): step ids the checker compares. ONE place: if the
# core's ids differ at merge, change them here.
STEP_IDS = {
    "tokens": "token_ids",
    "layer_output": "layer{i}.output",          # [T, d] the residual stream after layer i
    "head_weights": "layer{i}.head{h}.weights",  # [T, T] softmax of query head h after mask/window
    "output": "output",                          # [T, d] after the final norm
    "logits": "logits",                          # [T, V]
}
GENERATED_KEYS = ["generated_ids", "generated"]  # the JSON's greedy ids (the first one present)

ARCHS = {"llama": ("LlamaForCausalLM", "LlamaModel"), "qwen2": ("Qwen2ForCausalLM", "Qwen2Model"),
         "qwen3": ("Qwen3ForCausalLM", "Qwen3Model"), "gemma3_text": ("Gemma3ForCausalLM", "Gemma3TextModel")}
ROPE_TYPES = ["default", "linear", "llama3"]

# ---- config ------------------------------------------------------------------------------------


def rope_of(p, where):
    """{rope_type, theta, factor, ...} from one rope dict (v4 rope_scaling or v5 rope_parameters)."""
    kind = p.get("rope_type", p.get("type", "default"))
    if kind not in ROPE_TYPES:
        raise ValueError("config.json: %s type \"%s\" is not supported (%s)" % (where, kind, ", ".join(ROPE_TYPES)))
    return dict(p, rope_type=kind)


def layer_ropes(cfg, types):
    """One rope dict per layer: Gemma's sliding layers use the local base, its full layers the
    global base and rope_scaling; the other models use one rope everywhere."""
    gemma = cfg["model_type"] == "gemma3_text"
    rp = cfg.get("rope_parameters")
    if rp is not None:  # Transformers v5
        if gemma:
            per = {t: rope_of(rp[t], "rope_parameters.%s" % t) for t in ("sliding_attention", "full_attention")}
            return [per[t] for t in types]
        return [rope_of(rp, "rope_parameters")] * len(types)
    theta = float(cfg.get("rope_theta", 10000.0))
    glob = dict(rope_of(cfg.get("rope_scaling") or {}, "rope_scaling"), rope_theta=theta)
    if not gemma:
        return [glob] * len(types)
    local = {"rope_type": "default", "rope_theta": float(cfg.get("rope_local_base_freq", 10000.0))}
    return [local if t == "sliding_attention" else glob for t in types]


def layer_types_of(cfg, L):
    if cfg["model_type"] != "gemma3_text":
        return ["full_attention"] * L
    if cfg.get("layer_types"):
        return list(cfg["layer_types"])
    n = cfg.get("sliding_window_pattern", cfg.get("_sliding_window_pattern", 6))
    return ["full_attention" if (i + 1) % n == 0 else "sliding_attention" for i in range(L)]


def refuse_unsupported(cfg):
    mt = cfg.get("model_type")
    if mt not in ARCHS:
        raise ValueError("config.json: model_type \"%s\" is not supported (%s)" % (mt, ", ".join(ARCHS)))
    act_key = "hidden_activation" if mt == "gemma3_text" and "hidden_activation" in cfg else "hidden_act"
    act = cfg.get(act_key, "gelu_pytorch_tanh" if mt == "gemma3_text" else "silu")
    if act not in ("silu", "gelu_pytorch_tanh"):
        raise ValueError("config.json: %s \"%s\" is not supported" % (act_key, act))
    for k in ("final_logit_softcapping", "attn_logit_softcapping"):
        if cfg.get(k) is not None:
            raise ValueError("config.json: %s %s is not supported" % (k, cfg[k]))
    return act


def parse_config(cfg):
    act = refuse_unsupported(cfg)
    mt, d, H = cfg["model_type"], cfg["hidden_size"], cfg["num_attention_heads"]
    L = cfg["num_hidden_layers"]
    hd = cfg.get("head_dim") or d // H
    types = layer_types_of(cfg, L)
    gemma = mt == "gemma3_text"
    return {
        "mt": mt, "d": d, "H": H, "KV": cfg.get("num_key_value_heads") or H, "hd": hd, "L": L,
        "ff": cfg["intermediate_size"], "V": cfg["vocab_size"], "eps": float(cfg["rms_norm_eps"]),
        "act": act, "tied": cfg.get("tie_word_embeddings", gemma), "gemma": gemma,  # HF's defaults
        "qk_norm": mt in ("qwen3", "gemma3_text"),
        "qkv_bias": mt == "qwen2" or bool(cfg.get("attention_bias", False)),
        "o_bias": mt != "qwen2" and bool(cfg.get("attention_bias", False)),
        "mlp_bias": bool(cfg.get("mlp_bias", False)),
        "scale": float(cfg.get("query_pre_attn_scalar", 256)) ** -0.5 if gemma else hd ** -0.5,
        "windows": [cfg["sliding_window"] if t == "sliding_attention" else None for t in types],
        "ropes": layer_ropes(cfg, types),
        "embed_scale": math.sqrt(d) if gemma else 1.0,  # rounded to the file's dtype by the caller
    }


# ---- rotary positions --------------------------------------------------------------------------


def inv_freq(rope, hd):
    """[hd/2] inverse frequencies (modeling_rope_utils: default, linear, llama3), float64."""
    base = float(rope["rope_theta"])
    f = 1.0 / base ** (torch.arange(0, hd, 2, dtype=torch.float64) / hd)
    kind = rope["rope_type"]
    if kind == "linear":
        return f / float(rope["factor"])
    if kind == "llama3":
        factor, lo, hi = float(rope["factor"]), float(rope["low_freq_factor"]), float(rope["high_freq_factor"])
        old = float(rope["original_max_position_embeddings"])
        wavelen = 2 * math.pi / f
        scaled = torch.where(wavelen > old / lo, f / factor, f)
        smooth = (old / wavelen - lo) / (hi - lo)
        mid = (wavelen >= old / hi) & (wavelen <= old / lo)
        return torch.where(mid, (1 - smooth) * scaled / factor + smooth * scaled, scaled)
    return f


def rope(x, pos, freqs):
    """x [T, n, hd] rotated at positions pos [T]: HF's rotate-half layout (pair i with i + hd/2)."""
    ang = pos[:, None].double() * freqs[None, :]              # [T, hd/2]
    cos, sin = torch.cos(ang)[:, None, :], torch.sin(ang)[:, None, :]
    half = x.shape[-1] // 2
    if PLANT == "rope-interleaved":                           # pairs (2i, 2i + 1) instead
        a, b = x[..., 0::2], x[..., 1::2]
        return torch.stack([a * cos - b * sin, a * sin + b * cos], -1).flatten(-2)
    a, b = x[..., :half], x[..., half:]
    return torch.cat([a * cos - b * sin, b * cos + a * sin], -1)


# ---- the vectorised model ----------------------------------------------------------------------


def rms_norm(x, w, eps, gemma):
    eps = 0.0 if PLANT == "no-eps" else eps
    y = x / torch.sqrt((x * x).mean(-1, keepdim=True) + eps)
    return y * ((1 + w) if gemma and PLANT != "norm-w" else w)


def act_fn(x, act):
    if act == "silu":
        return x * torch.sigmoid(x)
    return 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def lin(W, key, x, bias):
    y = x @ W[key + ".weight"].T                              # nn.Linear: weight [out, in]
    return y + W[key + ".bias"] if bias else y


def allowed(T, window):
    """[T, T] bool: query i sees key j when j ≤ i and, on a sliding layer, j > i − window."""
    i, j = torch.arange(T)[:, None], torch.arange(T)[None, :]
    ok = j <= i
    if window is not None:
        ok = ok & (j >= i - window if PLANT == "window-off-by-one" else j > i - window)
    return ok


def kv_head(h, H, KV):
    return h % KV if PLANT == "kv-mod" else h // (H // KV)


def attention(W, s, p, i, x, out):
    """One attention block on the normed x [T, d] → [T, d]; records the per-head weights."""
    T, H, KV, hd, eps = x.shape[0], s["H"], s["KV"], s["hd"], s["eps"]
    q = lin(W, p + "self_attn.q_proj", x, s["qkv_bias"]).reshape(T, H, hd)
    k = lin(W, p + "self_attn.k_proj", x, s["qkv_bias"]).reshape(T, KV, hd)
    v = lin(W, p + "self_attn.v_proj", x, s["qkv_bias"]).reshape(T, KV, hd)
    if s["qk_norm"]:
        q = rms_norm(q, W[p + "self_attn.q_norm.weight"], eps, s["gemma"])
        k = rms_norm(k, W[p + "self_attn.k_norm.weight"], eps, s["gemma"])
    f, pos = inv_freq(s["ropes"][i], hd), torch.arange(T)
    q, k = rope(q, pos, f), rope(k, pos, f)
    sel = [kv_head(h, H, KV) for h in range(H)]
    k, v = k[:, sel], v[:, sel]                               # [T, H, hd]
    scores = torch.einsum("thd,shd->hts", q, k) * s["scale"]
    scores = scores.masked_fill(~allowed(T, s["windows"][i]), float("-inf"))
    a = torch.softmax(scores, -1)                             # [H, T, T]
    for h in range(H):
        out[STEP_IDS["head_weights"].format(i=i, h=h)] = a[h]
    o = torch.einsum("hts,shd->thd", a, v).reshape(T, H * hd)
    return lin(W, p + "self_attn.o_proj", o, s["o_bias"])


def mlp(W, s, p, x):
    g = lin(W, p + "mlp.gate_proj", x, s["mlp_bias"])
    u = lin(W, p + "mlp.up_proj", x, s["mlp_bias"])
    return lin(W, p + "mlp.down_proj", act_fn(g, s["act"]) * u, s["mlp_bias"])


def forward(W, s, ids, prefix="model."):
    """W: {HF key: float64 tensor} as stored; → {step id: tensor}."""
    eps, gm = s["eps"], s["gemma"]
    x = W[prefix + "embed_tokens.weight"][ids] * s["embed_scale"]
    out = {}
    for i in range(s["L"]):
        p = "%slayers.%d." % (prefix, i)
        a = attention(W, s, p, i, rms_norm(x, W[p + "input_layernorm.weight"], eps, gm), out)
        if gm:
            a = rms_norm(a, W[p + "post_attention_layernorm.weight"], eps, gm)
        x = x + a
        pre = "pre_feedforward_layernorm" if gm else "post_attention_layernorm"
        m = mlp(W, s, p, rms_norm(x, W[p + pre + ".weight"], eps, gm))
        if gm:
            m = rms_norm(m, W[p + "post_feedforward_layernorm.weight"], eps, gm)
        x = x + m
        out[STEP_IDS["layer_output"].format(i=i)] = x
    x = rms_norm(x, W[prefix + "norm.weight"], eps, gm)
    out[STEP_IDS["output"]] = x
    if prefix:  # *ForCausalLM: the head (the bare *Model has none)
        out[STEP_IDS["logits"]] = x @ (W[prefix + "embed_tokens.weight"] if s["tied"] else W["lm_head.weight"]).T
    return out


def greedy(W, s, ids, eos, max_new=32):
    ids, picked = list(ids), []
    for _ in range(max_new):
        best = int(torch.argmax(forward(W, s, ids)[STEP_IDS["logits"]][-1]))
        if best == eos:
            break
        picked.append(best)
        ids.append(best)
    return picked


# ---- the same model as loops (self-check) ------------------------------------------------------


def norm_row(v, w, eps, gemma):
    ms = torch.dot(v, v) / len(v)
    return v / torch.sqrt(ms + eps) * ((1 + w) if gemma else w)


def rotate_pairs(v, pos, freqs):
    """v [hd]: each pair (i, i + hd/2) turned by the angle pos · freqs[i]."""
    half, lo, hi = len(v) // 2, [], []
    for m in range(half):
        c, sn = math.cos(pos * float(freqs[m])), math.sin(pos * float(freqs[m]))
        lo.append(v[m] * c - v[m + half] * sn)
        hi.append(v[m] * sn + v[m + half] * c)
    return torch.stack(lo + hi)


def slow_head(q, k, v, window, scale):
    """q, k, v [T, hd] of one head: → ([T, hd] mixed values, [T, T] weights), row by row."""
    T = q.shape[0]
    rows, mixed = [], []
    for i in range(T):
        keys = [j for j in range(T) if j <= i and (window is None or i - j < window)]
        sc = torch.stack([torch.dot(q[i], k[j]) * scale for j in keys])
        e = torch.exp(sc - sc.max())
        w = e / e.sum()
        mixed.append(sum(w[n] * v[j] for n, j in enumerate(keys)))
        row = [torch.zeros((), dtype=torch.float64)] * T
        for n, j in enumerate(keys):
            row[j] = w[n]
        rows.append(torch.stack(row))
    return torch.stack(mixed), torch.stack(rows)


def slow_layer(W, s, p, i, x, out):
    T, H, KV, hd, eps, gm = x.shape[0], s["H"], s["KV"], s["hd"], s["eps"], s["gemma"]
    n = torch.stack([norm_row(r, W[p + "input_layernorm.weight"], eps, gm) for r in x])
    proj = {m: lin(W, p + "self_attn.%s_proj" % m, n, s["qkv_bias"]) for m in "qkv"}
    f = inv_freq(s["ropes"][i], hd)
    heads = []
    for h in range(H):
        g = h * KV // H                                       # the group query head h belongs to
        q = proj["q"][:, h * hd:(h + 1) * hd]
        k = proj["k"][:, g * hd:(g + 1) * hd]
        if s["qk_norm"]:
            q = torch.stack([norm_row(r, W[p + "self_attn.q_norm.weight"], eps, gm) for r in q])
            k = torch.stack([norm_row(r, W[p + "self_attn.k_norm.weight"], eps, gm) for r in k])
        q = torch.stack([rotate_pairs(q[t], t, f) for t in range(T)])
        k = torch.stack([rotate_pairs(k[t], t, f) for t in range(T)])
        mixed, wts = slow_head(q, k, proj["v"][:, g * hd:(g + 1) * hd], s["windows"][i], s["scale"])
        out[STEP_IDS["head_weights"].format(i=i, h=h)] = wts
        heads.append(mixed)
    a = lin(W, p + "self_attn.o_proj", torch.cat(heads, 1), s["o_bias"])
    if gm:
        a = torch.stack([norm_row(r, W[p + "post_attention_layernorm.weight"], eps, gm) for r in a])
    x = x + a
    pre = "pre_feedforward_layernorm" if gm else "post_attention_layernorm"
    n = torch.stack([norm_row(r, W[p + pre + ".weight"], eps, gm) for r in x])
    g = lin(W, p + "mlp.gate_proj", n, s["mlp_bias"])
    gate = g / (1 + torch.exp(-g)) if s["act"] == "silu" else torch.nn.functional.gelu(g, approximate="tanh")
    m = lin(W, p + "mlp.down_proj", gate * lin(W, p + "mlp.up_proj", n, s["mlp_bias"]), s["mlp_bias"])
    if gm:
        m = torch.stack([norm_row(r, W[p + "post_feedforward_layernorm.weight"], eps, gm) for r in m])
    return x + m


def forward_slow(W, s, ids, prefix="model."):
    E = W[prefix + "embed_tokens.weight"]
    x = torch.stack([E[t] * s["embed_scale"] for t in ids])
    out = {}
    for i in range(s["L"]):
        x = slow_layer(W, s, "%slayers.%d." % (prefix, i), i, x, out)
        out[STEP_IDS["layer_output"].format(i=i)] = x
    x = torch.stack([norm_row(r, W[prefix + "norm.weight"], s["eps"], s["gemma"]) for r in x])
    out[STEP_IDS["output"]] = x
    if prefix:
        head = E if s["tied"] else W["lm_head.weight"]
        out[STEP_IDS["logits"]] = torch.stack([torch.mv(head, r) for r in x])
    return out


# ---- our parameter ids (the --backward trace's grad.<id>), the other half of the contract --------


def param_ids(s, prefix="model."):
    """{our parameter id: (HF key, transposed?)}: nn.Linear [out, in] is stored in×out by the core."""
    out = {"embedding_table": (prefix + "embed_tokens.weight", False), "final_norm.gamma": (prefix + "norm.weight", False)}
    if prefix and not s["tied"]:
        out["lm_head"] = ("lm_head.weight", False)
    ffn_norm = "pre_feedforward_layernorm" if s["gemma"] else "post_attention_layernorm"
    for i in range(s["L"]):
        p, o = "%slayers.%d." % (prefix, i), "layer%d." % i
        lin = [("q", "self_attn.q_proj", s["qkv_bias"]), ("k", "self_attn.k_proj", s["qkv_bias"]),
               ("v", "self_attn.v_proj", s["qkv_bias"]), ("o", "self_attn.o_proj", s["o_bias"]),
               ("gate", "mlp.gate_proj", s["mlp_bias"]), ("up", "mlp.up_proj", s["mlp_bias"]),
               ("down", "mlp.down_proj", s["mlp_bias"])]
        for ours, key, bias in lin:
            out[o + "W_" + ours] = (p + key + ".weight", True)
            if bias:
                out[o + "b_" + ours] = (p + key + ".bias", False)
        norms = [("attn_norm", "input_layernorm"), ("ffn_norm", ffn_norm)]
        if s["gemma"]:
            norms += [("post_attn_norm", "post_attention_layernorm"), ("post_ffn_norm", "post_feedforward_layernorm")]
        if s["qk_norm"]:
            norms += [("q_norm", "self_attn.q_norm"), ("k_norm", "self_attn.k_norm")]
        for ours, key in norms:
            out[o + ours + ".gamma"] = (p + key + ".weight", False)
    return out
