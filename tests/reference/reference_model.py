"""reference_model.py — an independent float64 reference of the Encoder Walkthrough trace.

Written from the specification (docs/trace.md, docs/model-file.md), not ported from the
C++ sources: every step the spec names is computed here in NumPy float64 and returned as an
ordered mapping ``step id -> ndarray``. Masked positions are ``-inf`` (the CLI's ``null``).

When PyTorch is importable (Debian's python3-torch), every operation with a counterpart in
torch.nn.functional is *also* computed there, in float64, and the two are required to agree
to 1e-9 (relative to the tensor's scale):

  * linear layers           ~ F.linear
  * LayerNorm               ~ F.layer_norm (biased variance, eps inside the sqrt)
  * GELU (exact, erf form)  ~ F.gelu(approximate='none')
  * the softmax pieces      ~ torch.softmax
  * a whole attention block ~ F.multi_head_attention_forward (per-head weights and the
                              output projection; "scale off" is emulated by multiplying
                              W_q, b_q by sqrt(d_k), which torch then divides back out)

A disagreement there is a bug in this reference, not in the program under test, and raises
ReferenceError. Without torch the NumPy path alone is used (``TORCH`` is None and
``torch_status()`` says why).

``forward(model, dtype=np.float32)`` runs the same arithmetic in float32 without the torch
checks; check_reference.py uses it only as a conditioning probe (how far float32 rounding
alone moves each step), never as the reference values.

Entry points:
  ``tokenize(text, kind)``          whitespace (str.split()) and regex (\\b\\w+\\b|[.,!?;])
  ``RefModel``                      a fully specified model: config, token lists or input rows,
                                    target tokens, vocabulary, parameters (id -> float64 array)
  ``RefModel.from_model_file(doc)`` builds one from a model-file JSON document that gives every
                                    weight matrix explicitly (missing biases -> 0, missing
                                    LayerNorm gamma -> 1 / beta -> 0, as docs/model-file.md says)
  ``forward(model)``                -> (OrderedDict of steps, dict of text facts)
"""
from __future__ import annotations

import math
import re
from collections import OrderedDict

import numpy as np

try:  # PyTorch is optional: a cross-check, never the only computation.
    import torch
    import torch.nn.functional as F

    torch.set_default_dtype(torch.float64)
    TORCH = torch
    _TORCH_WHY = "torch %s: cross-checking linear, layer_norm, gelu, softmax, multi_head_attention_forward" % torch.__version__
except Exception as exc:  # pragma: no cover - depends on the machine
    TORCH = None
    F = None
    _TORCH_WHY = "torch unavailable (%s: %s): NumPy only" % (type(exc).__name__, exc)

TORCH_CHECKS = 0  # how many torch cross-checks passed (for the summary)


def torch_status() -> str:
    return _TORCH_WHY


class ReferenceError(RuntimeError):
    """The NumPy and the torch computation of the same quantity disagree (a reference bug)."""


# ---------------------------------------------------------------------------------------
# Tokenizers (docs/model-file.md: "regex" = seed 001's \b\w+\b|[.,!?;], "whitespace" =
# str.split()). BPE is not re-implemented here: its tokens are taken from the CLI.
# ---------------------------------------------------------------------------------------
_REGEX = re.compile(r"\b\w+\b|[.,!?;]")


def tokenize(text: str, kind: str) -> list:
    if kind == "whitespace":
        return text.split()
    if kind == "regex":
        return _REGEX.findall(text)
    raise ValueError("the reference tokenizes only 'whitespace' and 'regex' text, not %r" % kind)


def tokenize_masked(text: str, kind: str, masked_lm: bool) -> list:
    """With a masked-word head "[MASK]" is one token wherever it stands (docs/model-file.md)."""
    if not masked_lm:
        return tokenize(text, kind)
    out = []
    for i, piece in enumerate(text.split(MASK)):
        if i:
            out.append(MASK)
        out += tokenize(piece, kind)
    return out


# ---------------------------------------------------------------------------------------
# Elementary operations, float64. Each has an optional torch twin.
# ---------------------------------------------------------------------------------------
def _t(a):
    return TORCH.from_numpy(np.ascontiguousarray(a, dtype=np.float64))


def _agree(name, ours, theirs, tol=1e-9):
    """NumPy result vs torch result: both float64, must agree to tol·max(1, scale)."""
    global TORCH_CHECKS
    theirs = np.asarray(theirs, dtype=np.float64)
    if ours.shape != theirs.shape:
        raise ReferenceError("%s: numpy shape %s, torch shape %s" % (name, ours.shape, theirs.shape))
    fin = np.isfinite(ours)
    if not np.array_equal(fin, np.isfinite(theirs)):
        raise ReferenceError("%s: numpy and torch disagree on which entries are finite" % name)
    if fin.any():
        scale = max(1.0, float(np.max(np.abs(ours[fin]))))
        err = float(np.max(np.abs(ours[fin] - theirs[fin])))
        if err > tol * scale:
            raise ReferenceError("%s: numpy and torch differ by %.3g (scale %.3g)" % (name, err, scale))
    TORCH_CHECKS += 1


_CROSS_CHECK = [True]  # off while forward() runs in float32 (the conditioning probe)


def _torch_on():
    return TORCH is not None and _CROSS_CHECK[0]


def linear(x, W, b, name="linear"):
    y = x @ W + b
    if _torch_on():
        _agree(name, y, F.linear(_t(x), _t(W).T, _t(b)).numpy())
    return y


def layer_norm(x, gamma, beta, eps, name="layer_norm"):
    """LN(x) = (x - mu)/sqrt(var + eps)*gamma + beta, biased variance, per last-axis row."""
    mu = x.mean(axis=-1)
    var = ((x - mu[..., None]) ** 2).mean(axis=-1)
    y = (x - mu[..., None]) / np.sqrt(var[..., None] + eps) * gamma + beta
    if _torch_on():
        _agree(name, y, F.layer_norm(_t(x), (x.shape[-1],), _t(gamma), _t(beta), eps).numpy())
    return mu, var, y


_erf = np.vectorize(math.erf, otypes=[np.float64])


def activation(x, kind, name="activation"):
    if kind == "relu":
        y = np.maximum(x, 0.0)
        if _torch_on():
            _agree(name, y, F.relu(_t(x)).numpy())
        return y
    if kind == "gelu":  # exact: x * Phi(x)
        y = (0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))).astype(x.dtype)
        if _torch_on():
            _agree(name, y, F.gelu(_t(x)).numpy())
        return y
    raise ValueError("unknown activation %r" % kind)


def softmax_pieces(z, name="softmax"):
    """Row max, Σ exp(z - max), exp(z - max)/Σ over the last axis. -inf entries give 0.
    A row that is entirely -inf gives weights 0 and sum 0 (docs/trace.md), max -inf."""
    m = np.max(z, axis=-1)
    safe = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(invalid="ignore", over="ignore"):
        e = np.exp(z - safe[..., None])
    e = np.where(np.isneginf(z), 0.0, e)
    s = e.sum(axis=-1)
    w = np.where(s[..., None] > 0, e / np.where(s > 0, s, 1.0)[..., None], 0.0).astype(z.dtype)
    if _torch_on() and np.all(np.isfinite(m)):
        _agree(name, w, TORCH.softmax(_t(z), dim=-1).numpy())
    return m, s, w


def sinusoidal(T, d):
    """PE[p, 2i] = sin(p / 10000^(2i/d)), PE[p, 2i+1] = cos(same); an odd d ends with a sin."""
    pe = np.zeros((T, d))
    for p in range(T):
        for i2 in range(0, d, 2):
            angle = p / (10000.0 ** (i2 / d))
            pe[p, i2] = math.sin(angle)
            if i2 + 1 < d:
                pe[p, i2 + 1] = math.cos(angle)
    return pe


def make_mask(B, Tq, Tk, key_len, causal):
    """Additive mask: -inf where key j is padding (j >= key_len[b]) or, if causal, j > i."""
    m = np.zeros((B, Tq, Tk))
    for b in range(B):
        for i in range(Tq):
            for j in range(Tk):
                if j >= key_len[b] or (causal and j > i):
                    m[b, i, j] = -np.inf
    return m


# ---------------------------------------------------------------------------------------
# The model description the reference runs.
# ---------------------------------------------------------------------------------------
CONFIG_DEFAULTS = {
    "d_model": 8, "num_heads": 2, "d_ff": 32, "num_layers": 1, "norm": "post", "activation": "relu",
    "layer_norm_eps": 1e-5, "causal": False, "positional": "sinusoidal", "scale": True, "seed": 66,
    "tokenizer": "regex", "bpe_merges": 10, "max_tokens": 512, "decoder_layers": 0, "num_labels": 0,
    "masked_lm": False,
}
MASK = "[MASK]"

ATTN_KEYS = ["W_q", "b_q", "W_k", "b_k", "W_v", "b_v", "W_o", "b_o"]


class RefModel:
    """Everything the forward pass needs, resolved: no tokenizer, no RNG.

    config      dict with every key of CONFIG_DEFAULTS
    sources     list (one per batch item) of token lists, or None with explicit ``input``
    input       T×d rows (explicit input form) or None
    target      list of decoder tokens (already defaulted) or None
    vocab       list of tokens; ids are positions in it
    params      id -> float64 ndarray, every id docs/trace.md lists for this configuration
    """

    def __init__(self, config, sources, input_rows, target, vocab, params):
        self.config = dict(CONFIG_DEFAULTS)
        self.config.update(config)
        # The program stores eps as float32 (core/model/model.h): use the same number.
        self.config["layer_norm_eps"] = float(np.float32(self.config["layer_norm_eps"]))
        self.sources = sources
        self.input = None if input_rows is None else np.asarray(input_rows, dtype=np.float64)
        self.target = target
        self.vocab = list(vocab)
        self.params = {k: np.asarray(v, dtype=np.float64) for k, v in params.items()}

    # -- ids ----------------------------------------------------------------------------
    def pad_id(self):
        for p in ("<pad>", "[PAD]"):
            if p in self.vocab:
                return self.vocab.index(p)
        return 0

    def token_id(self, tok):
        if tok in self.vocab:
            return self.vocab.index(tok)
        for u in ("<unk>", "[UNK]"):
            if u in self.vocab:
                return self.vocab.index(u)
        raise KeyError("token %r is not in the vocabulary and it has no <unk>" % tok)

    # -- from a model-file document ------------------------------------------------------
    @classmethod
    def from_model_file(cls, doc):
        """A model-file JSON document (dict) -> RefModel, per docs/model-file.md. Every
        weight matrix (W_*, embedding, position_table, classifier.W) must be given: the
        reference has no copy of the program's seeded RNG. Biases default to 0, LayerNorm
        gamma to 1 and beta to 0."""
        c = dict(CONFIG_DEFAULTS)
        c.update(doc.get("config", {}))
        d, ff = c["d_model"], c["d_ff"]
        params = {}
        sources, input_rows = None, None
        if "input" in doc:
            input_rows = np.asarray(doc["input"], dtype=np.float64)
        else:
            sources = [tokenize_masked(doc["text"], c["tokenizer"], c["masked_lm"])]
            if doc.get("text2"):
                sources.append(tokenize_masked(doc["text2"], c["tokenizer"], c["masked_lm"]))
        target = None
        if c["decoder_layers"] > 0:
            if doc.get("target"):  # the sequence to produce; the decoder reads <s> first
                target = ["<s>"] + tokenize(doc["target"], c["tokenizer"])
            else:  # teacher forcing: <s> + the first sentence's tokens but the last
                target = ["<s>"] + sources[0][:-1]
        looks_up = sources is not None or target is not None  # any embedding lookup at all
        if "vocab" in doc:
            vocab = list(doc["vocab"])
        else:  # docs/model-file.md: <pad> <s> </s> + the text's tokens, first appearance first
            vocab = ["<pad>", "<s>", "</s>"]
            for toks in (sources or []) + ([target] if target else []) + [doc.get("mask_targets", [])]:
                for tok in toks:
                    if tok not in vocab:
                        vocab.append(tok)
        if "embedding" in doc:
            params["embedding_table"] = np.asarray(doc["embedding"], dtype=np.float64)
        elif looks_up:
            raise ValueError("the reference needs an explicit embedding table (it has no seeded rows)")

        def norm(id_, obj):
            obj = obj or {}
            params[id_ + ".gamma"] = np.asarray(obj.get("gamma", np.ones(d)), dtype=np.float64)
            params[id_ + ".beta"] = np.asarray(obj.get("beta", np.zeros(d)), dtype=np.float64)

        def weights(prefix, obj, keys, bias_len):
            for k in keys:
                if k.startswith("W"):
                    if k not in obj:
                        raise ValueError("the reference needs %s%s explicitly" % (prefix, k))
                    params[prefix + k] = np.asarray(obj[k], dtype=np.float64)
                else:
                    params[prefix + k] = np.asarray(obj.get(k, np.zeros(bias_len[k])), dtype=np.float64)

        attn_len = {k: d for k in ATTN_KEYS}
        ffn_len = {"b_1": ff, "b_2": d}
        if c["positional"] == "learned" and looks_up:
            if "position_table" not in doc:
                raise ValueError("the reference needs position_table explicitly")
            params["position_table"] = np.asarray(doc["position_table"], dtype=np.float64)
            norm("embedding_ln", doc.get("embedding_ln"))
        layers = doc.get("layers", [])
        for i in range(c["num_layers"]):
            L = layers[i] if i < len(layers) else {}
            weights("layer%d." % i, L, ATTN_KEYS, attn_len)
            weights("layer%d." % i, L, ["W_1", "b_1", "W_2", "b_2"], ffn_len)
            norm("layer%d.ln1" % i, L.get("ln1"))
            norm("layer%d.ln2" % i, L.get("ln2"))
        dec = doc.get("decoder", [])
        for j in range(c["decoder_layers"]):
            D = dec[j] if j < len(dec) else {}
            weights("decoder%d.self." % j, D.get("self", {}), ATTN_KEYS, attn_len)
            weights("decoder%d.cross." % j, D.get("cross", {}), ATTN_KEYS, attn_len)
            weights("decoder%d." % j, D, ["W_1", "b_1", "W_2", "b_2"], ffn_len)
            for ln in ("ln1", "ln2", "ln3"):
                norm("decoder%d.%s" % (j, ln), D.get(ln))
        if c["norm"] == "pre":  # pre-norm stacks end with one LayerNorm (PyTorch's norm=...)
            norm("final_ln", doc.get("final_ln"))
            if c["decoder_layers"] > 0:
                norm("decoder_final_ln", doc.get("decoder_final_ln"))
        if c["num_labels"] > 0:
            cl = doc.get("classifier", {})
            if "W" not in cl:
                raise ValueError("the reference needs classifier.W explicitly")
            params["cls.W"] = np.asarray(cl["W"], dtype=np.float64)
            params["cls.b"] = np.asarray(cl.get("b", np.zeros(c["num_labels"])), dtype=np.float64)
        ref = cls(c, sources, input_rows, target, vocab, params)
        ref.mask_targets = list(doc.get("mask_targets", []))
        return ref


# ---------------------------------------------------------------------------------------
# The forward pass, recorded step by step (docs/trace.md).
# ---------------------------------------------------------------------------------------
class _Recorder:
    def __init__(self):
        self.steps = OrderedDict()

    def add(self, id_, value):
        if id_ in self.steps:
            raise ReferenceError("step %r recorded twice" % id_)
        self.steps[id_] = np.array(value, dtype=np.float64)


def forward(model: RefModel, dtype=np.float64):
    """The trace of `model`. dtype=np.float32 runs the same arithmetic in float32 (no torch
    cross-checks): check_reference.py uses it as a conditioning probe, never as the reference."""
    _CROSS_CHECK[0] = dtype == np.float64
    try:
        return _forward(model, dtype)
    finally:
        _CROSS_CHECK[0] = True


def _forward(model, dtype):
    c = model.config
    d, H, ff = c["d_model"], c["num_heads"], c["d_ff"]
    dk = d // H
    eps = c["layer_norm_eps"]
    P = {k: v.astype(dtype) for k, v in model.params.items()}
    rec = _Recorder()

    # ---- source stream ---------------------------------------------------------------
    if model.input is not None:
        x = model.input[None, :, :].astype(dtype)  # [1, T, d]
        B, T = 1, x.shape[1]
        src_len = [T]
    else:
        B = len(model.sources)
        src_len = [len(s) for s in model.sources]
        T = max(src_len)
    # A per-token step has a leading batch axis only when the batch has two items.
    bat = (lambda a: a) if B > 1 else (lambda a: a[0])

    def embed(prefix, token_lists, Tn, out_id, nb):
        shape_fn = (lambda a: a) if nb > 1 else (lambda a: a[0])
        ids = np.full((nb, Tn), float(model.pad_id()))
        for b, toks in enumerate(token_lists):
            for t, tok in enumerate(toks):
                ids[b, t] = model.token_id(tok)
        rec.add(prefix + "token_ids", shape_fn(ids))
        E = P["embedding_table"]
        emb = E[ids.astype(int)]  # [nb, Tn, d]
        rec.add(prefix + "embedding", shape_fn(emb))
        pos_kind = c["positional"]
        if pos_kind == "none":
            rec.add(out_id, shape_fn(emb))
            return emb
        if pos_kind == "sinusoidal":
            pe = sinusoidal(Tn, d).astype(dtype)
            rec.add(prefix + "positional", pe)
            s = emb + pe[None]
            rec.add(out_id, shape_fn(s))
            return s
        pt = P["position_table"][:Tn]
        rec.add(prefix + "positional", pt)
        s = emb + pt[None]
        rec.add(prefix + "embedding_sum", shape_fn(s))
        mu, var, y = layer_norm(s, P["embedding_ln.gamma"], P["embedding_ln.beta"], eps, prefix + "embedding_ln")
        rec.add(prefix + "embedding_ln.mean", shape_fn(mu))
        rec.add(prefix + "embedding_ln.var", shape_fn(var))
        rec.add(out_id, shape_fn(y))
        return y

    if model.input is not None:
        rec.add("input", model.input)
    else:
        x = embed("", model.sources, T, "input", B)
    mask = make_mask(B, T, T, src_len, c["causal"]).astype(dtype)
    rec.add("attention_mask", bat(mask))

    def attention(pre, xq, xkv, msk, nb):
        """Multi-head attention of [nb, Tq, d] queries over [nb, Tk, d] keys/values."""
        shp = (lambda a: a) if nb > 1 else (lambda a: a[0])
        q = linear(xq, P[pre + "W_q"], P[pre + "b_q"], pre + "q")
        k = linear(xkv, P[pre + "W_k"], P[pre + "b_k"], pre + "k")
        v = linear(xkv, P[pre + "W_v"], P[pre + "b_v"], pre + "v")
        rec.add(pre + "q", shp(q))
        rec.add(pre + "k", shp(k))
        rec.add(pre + "v", shp(v))
        contexts, all_w = [], []
        for h in range(H):
            hp = "%shead%d." % (pre, h)
            sl = slice(h * dk, (h + 1) * dk)
            qh, kh, vh = q[..., sl], k[..., sl], v[..., sl]
            scores = qh @ np.swapaxes(kh, -1, -2)
            scaled = (scores / dtype(math.sqrt(dk)) if c["scale"] else scores) + msk
            rmax, rsum, w = softmax_pieces(scaled, hp + "weights")
            ctx = w @ vh
            for name, val in (("scores", scores), ("scaled", scaled), ("rowmax", rmax), ("rowsum", rsum),
                              ("weights", w), ("context", ctx)):
                rec.add(hp + name, shp(val))
            contexts.append(ctx)
            all_w.append(w)
        concat = np.concatenate(contexts, axis=-1)
        rec.add(pre + "concat", shp(concat))
        out = linear(concat, P[pre + "W_o"], P[pre + "b_o"], pre + "attn_out")
        rec.add(pre + "attn_out", shp(out))
        if _torch_on():
            _torch_mha(pre, xq, xkv, msk, out, np.stack(all_w, axis=1))
        return out

    def _torch_mha(pre, xq, xkv, msk, out, weights):
        s = math.sqrt(dk) if not c["scale"] else 1.0  # torch always divides q by sqrt(d_k)
        nb, Tq, Tk = msk.shape
        attn_mask = _t(np.repeat(msk, H, axis=0))  # [nb*H, Tq, Tk], batch-major like torch
        o, w = F.multi_head_attention_forward(
            _t(np.swapaxes(xq, 0, 1)), _t(np.swapaxes(xkv, 0, 1)), _t(np.swapaxes(xkv, 0, 1)), d, H,
            None, _t(np.concatenate([P[pre + "b_q"] * s, P[pre + "b_k"], P[pre + "b_v"]])),
            None, None, False, 0.0, _t(P[pre + "W_o"]).T, _t(P[pre + "b_o"]), training=False,
            need_weights=True, attn_mask=attn_mask, use_separate_proj_weight=True,
            q_proj_weight=_t(P[pre + "W_q"] * s).T, k_proj_weight=_t(P[pre + "W_k"]).T,
            v_proj_weight=_t(P[pre + "W_v"]).T, average_attn_weights=False)
        _agree(pre + "attn_out (torch MHA)", out, np.swapaxes(o.numpy(), 0, 1))
        _agree(pre + "weights (torch MHA)", weights, w.numpy())

    def norm(pre, ln_param, xin, out_id, nb):
        shp = (lambda a: a) if nb > 1 else (lambda a: a[0])
        mu, var, y = layer_norm(xin, P[ln_param + ".gamma"], P[ln_param + ".beta"], eps, pre)
        rec.add(pre + ".mean", shp(mu))
        rec.add(pre + ".var", shp(var))
        if out_id is not None:
            rec.add(out_id, shp(y))
        return y

    def ffn(pre, f, nb):
        shp = (lambda a: a) if nb > 1 else (lambda a: a[0])
        hpre = linear(f, P[pre + "W_1"], P[pre + "b_1"], pre + "ffn_pre")
        hid = activation(hpre, c["activation"], pre + "ffn_hidden")
        out = linear(hid, P[pre + "W_2"], P[pre + "b_2"], pre + "ffn_out")
        rec.add(pre + "ffn_pre", shp(hpre))
        rec.add(pre + "ffn_hidden", shp(hid))
        rec.add(pre + "ffn_out", shp(out))
        return out

    # ---- encoder layers --------------------------------------------------------------
    for i in range(c["num_layers"]):
        L = "layer%d." % i
        if c["norm"] == "post":
            a = attention(L, x, x, mask, B)
            r1 = x + a
            rec.add(L + "residual1", bat(r1))
            f = norm(L + "ln1", L + "ln1", r1, L + "ln1", B)
            r2 = f + ffn(L, f, B)
            rec.add(L + "residual2", bat(r2))
            x = norm(L + "ln2", L + "ln2", r2, L + "output", B)
        else:
            n1 = norm(L + "ln1", L + "ln1", x, L + "ln1", B)
            a = attention(L, n1, n1, mask, B)
            r1 = x + a
            rec.add(L + "residual1", bat(r1))
            f = norm(L + "ln2", L + "ln2", r1, L + "ln2", B)
            r2 = r1 + ffn(L, f, B)
            rec.add(L + "residual2", bat(r2))
            x = r2
            rec.add(L + "output", bat(x))
    if c["norm"] == "pre":
        x = norm("final_ln", "final_ln", x, "output", B)
    else:
        rec.add("output", bat(x))
    enc = x  # [B, T, d]

    # ---- classification head ---------------------------------------------------------
    if c["num_labels"] > 0:
        pooled = enc[:, 0, :]  # [B, d]
        logits = linear(pooled, P["cls.W"], P["cls.b"], "cls.logits")
        m, s, p = softmax_pieces(logits, "cls.probs")
        if B > 1:
            rec.add("cls.pooled", pooled)
            rec.add("cls.logits", logits)
            rec.add("cls.probs.rowmax", m)
            rec.add("cls.probs.rowsum", s)
            rec.add("cls.probs", p)
        else:
            rec.add("cls.pooled", pooled[0])
            rec.add("cls.logits", logits[0])
            rec.add("cls.probs.rowmax", m)  # shape [1]
            rec.add("cls.probs.rowsum", s)
            rec.add("cls.probs", p[0])

    # ---- masked-word head: tied to the token table, softmax over the vocabulary --------
    if c["masked_lm"]:
        logits = enc @ P["embedding_table"].T  # [B, T, V]
        if _torch_on():
            _agree("mlm.logits", logits, F.linear(_t(enc), _t(P["embedding_table"])).numpy())
        m, s, p = softmax_pieces(logits, "mlm.probs")
        rec.add("mlm.logits", bat(logits))
        rec.add("mlm.probs.rowmax", bat(m))
        rec.add("mlm.probs.rowsum", bat(s))
        rec.add("mlm.probs", bat(p))

    # ---- decoder (batch of one: the first sentence's encoder output) ----------------
    if c["decoder_layers"] > 0:
        S = len(model.target)
        y = embed("target_", [model.target], S, "decoder_input", 1)
        dmask = make_mask(1, S, S, [S], True).astype(dtype)
        xmask = make_mask(1, S, T, [src_len[0]], False).astype(dtype)
        rec.add("decoder_mask", dmask[0])
        rec.add("cross_mask", xmask[0])
        e0 = enc[:1]  # [1, T, d]
        for j in range(c["decoder_layers"]):
            D = "decoder%d." % j
            if c["norm"] == "post":
                sa = attention(D + "self.", y, y, dmask, 1)
                r1 = y + sa
                rec.add(D + "residual1", r1[0])
                n1 = norm(D + "ln1", D + "ln1", r1, D + "ln1", 1)
                ca = attention(D + "cross.", n1, e0, xmask, 1)
                r2 = n1 + ca
                rec.add(D + "residual2", r2[0])
                n2 = norm(D + "ln2", D + "ln2", r2, D + "ln2", 1)
                r3 = n2 + ffn(D, n2, 1)
                rec.add(D + "residual3", r3[0])
                y = norm(D + "ln3", D + "ln3", r3, D + "output", 1)
            else:
                n1 = norm(D + "ln1", D + "ln1", y, D + "ln1", 1)
                sa = attention(D + "self.", n1, n1, dmask, 1)
                r1 = y + sa
                rec.add(D + "residual1", r1[0])
                n2 = norm(D + "ln2", D + "ln2", r1, D + "ln2", 1)
                ca = attention(D + "cross.", n2, e0, xmask, 1)
                r2 = r1 + ca
                rec.add(D + "residual2", r2[0])
                n3 = norm(D + "ln3", D + "ln3", r2, D + "ln3", 1)
                r3 = r2 + ffn(D, n3, 1)
                rec.add(D + "residual3", r3[0])
                y = r3
                rec.add(D + "output", y[0])
        if c["norm"] == "pre":
            y = norm("decoder_final_ln", "decoder_final_ln", y, "decoder_output", 1)
        else:
            rec.add("decoder_output", y[0])
        logits = y[0] @ P["embedding_table"].T  # weight tying
        if _torch_on():
            _agree("logits", logits, F.linear(_t(y[0]), _t(P["embedding_table"])).numpy())
        m, s, p = softmax_pieces(logits, "probs")
        rec.add("logits", logits)
        rec.add("probs.rowmax", m)
        rec.add("probs.rowsum", s)
        rec.add("probs", p)

    facts = {
        "source_tokens": model.sources if model.sources is not None else [["x%d" % t for t in range(T)]],
        "target_tokens": model.target or [],
        "vocab": model.vocab,
    }
    return rec.steps, facts


# ---------------------------------------------------------------------------------------
# Axes (docs/trace.md, "Axes"): what each dimension of a step means, stated here from the
# architecture alone, independently of the program's recorder.
# ---------------------------------------------------------------------------------------
def _stream(step_id):
    """'target' for steps of the decoder's stream, else 'source'."""
    if step_id.startswith(("target_", "decoder_input", "decoder_output", "decoder_final_ln", "logits", "probs")):
        return "target"
    if re.match(r"decoder\d+\.", step_id):
        return "source" if re.match(r"decoder\d+\.cross\.(k|v)$", step_id) else "target"
    return "source"


def expected_axes(step_id, ndim, batch):
    """[(name, labels)] for step `step_id` of `ndim` dimensions; `batch` says whether the
    encoder's stream is a padded batch (two sentences). labels: None for plain indices."""
    tok = _stream(step_id)
    dec = tok == "target" or step_id.startswith(("decoder", "cross_mask"))
    lead = [("batch", "batch")] if batch and not dec and not step_id.startswith("cls.") else []
    if step_id.startswith("cls."):
        lead = [("batch", "batch")] if batch else []
        if step_id == "cls.pooled":
            return lead + [("feature", None)]
        if step_id in ("cls.probs.rowmax", "cls.probs.rowsum"):
            return lead or [("sequence", None)]
        return lead + [("label", "labels")]
    if step_id in ("positional", "target_positional"):
        return [("position", None), ("feature", None)]
    if step_id.endswith(("token_ids",)):
        return lead + [("token", tok)]
    if step_id in ("attention_mask", "decoder_mask", "cross_mask") or re.search(r"head\d+\.(scores|scaled|weights)$", step_id):
        q = "target" if dec else "source"
        k = "source" if (step_id == "cross_mask" or ".cross." in step_id or not dec) else "target"
        return lead + [("query", q), ("key", k)]
    if re.search(r"head\d+\.(rowmax|rowsum)$", step_id):
        return lead + [("query", "target" if dec else "source")]
    if step_id.endswith((".mean", ".var", ".rowmax", ".rowsum")):
        return lead + [("token", tok)]
    if step_id in ("logits", "probs"):
        return [("token", "target"), ("vocab", "vocab")]
    if step_id in ("mlm.logits", "mlm.probs"):
        return lead + [("token", "source"), ("vocab", "vocab")]
    if re.search(r"head\d+\.context$", step_id):
        return lead + [("token", tok), ("head_feature", None)]
    if step_id.endswith(("ffn_pre", "ffn_hidden")):
        return lead + [("token", tok), ("hidden", None)]
    assert ndim == len(lead) + 2, step_id
    return lead + [("token", tok), ("feature", None)]
