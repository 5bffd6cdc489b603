"""glassllm's English model (glassllm 0.1.0, MIT), run by the core with embedviz's own RoPE.

The model: a Llama-style decoder, 4 layers, d_model 128, 4 query heads of 32 dimensions sharing 2 key/value heads
(grouped-query attention), RMSNorm, SwiGLU (hidden 341), tied input and output embeddings, 852,608 parameters,
a 1,024-token BPE tokenizer, trained on 128-token windows of public-domain Lewis Carroll. Its RoPE pairs adjacent
dimensions (2i, 2i+1), GPT-J style, not Llama's half-split: ``pairing="interleaved"`` in :mod:`embedviz.rope.rotary`.

The weights and the tokenizer are the installed package's files (``glassllm/weights/en.npz`` and
``en.tokenizer.json``), read with numpy and glassllm's own tokenizer; nothing is downloaded. The forward pass is
written here, in torch, because the pages run it on 5,120 positions per method (10 windows of 512), and
glassllm's numpy forward both stops at its 128 positions and runs about 4x slower on one thread than torch's
fused attention; its rotation is the core's (``rope.rotary.rotate``) at the frequencies ``rope.scaling.compute``
gives for any rope_type, so every context-extension method the app explains runs on a real model.
tests/test_language_model.py holds it to glassllm's own forward at the trained length and to transformers'
LlamaForCausalLM built from the same weights, with its own RoPE scaling, up to 4x past it.

Notation: B windows, T positions, D = d_model, H query heads, K key/value heads, d = head_dim, V the vocabulary.
"""
from __future__ import annotations

import json
import math
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping

import numpy as np
import torch
import torch.nn.functional as F

from embedviz._validate import finite_float, positive_int, string
from embedviz.errors import InputError
from embedviz.rope import rotary, scaling

LANGUAGE = "en"  # the package also holds a Portuguese model; the pages read English
PACKAGE = "glassllm"
MAX_TEXT_CHARS = 100_000  # what encode() tokenizes at most: the bundled text has 18,097; a reader's is cut at 4,000
# positions per forward pass when many windows are read: the activations of a pass (SwiGLU's hidden 341 per
# position, the rotation's float64 copies, the logits) stay a few MB, and a replica's heap with them. Reading 10
# windows of 1,024 and an attention view grew a fresh process's RSS by ~110 MB in one pass, 77-84 MB in passes of
# 2,048 positions, 40-49 MB in passes of 1,024, at the same speed (benchmarks/bench_past_length.py)
CHUNK_TOKENS = 1_024
TEXT_FILE = "clockmaker.txt"  # the default text, written for embedviz in 2026: the model never saw it


@dataclass(frozen=True)
class GlassModel:
    """The weights as float32 torch tensors (glassllm's names: ``E``, ``blocks.0.attn.W_Q``, ...; each W maps
    x @ W, input dimension first) and the model's shape."""

    weights: Mapping[str, torch.Tensor]
    tokenizer: Any  # glassllm.tokenizer.Tokenizer
    d_model: int
    n_layers: int
    n_heads: int
    n_kv_heads: int
    head_dim: int
    trained_length: int  # 128: the window length of every training step (glassllm's max_len)
    theta: float  # rope_base, 10,000
    eps: float  # RMSNorm's epsilon
    vocab_size: int

    alphabet: frozenset[str]  # the characters the tokenizer has a symbol for (a space is written as "▁")


@lru_cache(maxsize=1)
def load() -> GlassModel:
    """The English model, read once per process from the installed package (3.4 MB as float32)."""
    from glassllm.tokenizer import Tokenizer  # glassllm's own BPE: the model's ids are its ids

    base = resources.files(PACKAGE) / "weights"
    with resources.as_file(base / f"{LANGUAGE}.npz") as path, np.load(path) as data:
        config = json.loads(str(data["__config__"]))
        # stored as float16; glassllm computes in float32, and so do we
        weights = {name: torch.from_numpy(data[name].astype(np.float32)) for name in data.files if name != "__config__"}
    with resources.as_file(base / f"{LANGUAGE}.tokenizer.json") as path:
        tokenizer = Tokenizer.load(path)
    return GlassModel(
        weights=weights, tokenizer=tokenizer, d_model=config["d_model"], n_layers=config["n_layers"],
        n_heads=config["n_heads"], n_kv_heads=config["n_kv_heads"], head_dim=config["d_model"] // config["n_heads"],
        trained_length=config["max_len"], theta=float(config["rope_base"]), eps=float(config["eps"]),
        vocab_size=config["vocab_size"], alphabet=frozenset(tokenizer.alphabet),
    )


def default_text() -> str:
    """The default text: two short stories written for embedviz in plain English (not in the training data)."""
    return (resources.files("embedviz.language_model") / TEXT_FILE).read_text(encoding="utf-8")


# text -> ids


def encode(text: str) -> np.ndarray:
    """``text`` as the model's token ids, shape (N,) int64; refused when empty or when it holds a character the
    tokenizer has no symbol for (glassllm would read it as <unk>, whose loss says nothing about the text)."""
    return np.array(_encoded(string("text", text, limit=MAX_TEXT_CHARS)), dtype=np.int64)


@lru_cache(maxsize=8)
def _encoded(text: str) -> tuple[int, ...]:
    """The BPE of a text, once: every method and window reads the same text (18,000 characters take ~80 ms)."""
    model = load()
    text = text.replace("\r\n", "\n")
    if not text.strip():
        raise InputError("empty_text")
    normal = unicodedata.normalize("NFC", text)  # as glassllm's pre-tokenizer reads it
    unknown = sorted({ch for ch in normal if ch != " " and ch not in model.alphabet})
    if unknown:
        shown = " ".join(repr(ch) for ch in unknown[:12]) + (" ..." if len(unknown) > 12 else "")
        raise InputError("glass_chars", n=len(unknown), chars=shown)
    return tuple(model.tokenizer.encode(normal))


def ids_of(text_or_ids) -> np.ndarray:
    """A text (encoded) or token ids (checked against the vocabulary), shape (N,) int64."""
    if isinstance(text_or_ids, str):
        return encode(text_or_ids)
    ids = np.asarray(text_or_ids)
    if ids.ndim != 1 or not np.issubdtype(ids.dtype, np.integer):
        raise ValueError(f"ids must be a 1-D array of integers, got shape {ids.shape} and dtype {ids.dtype}")
    if ids.size == 0:
        raise InputError("empty_ids")
    vocab = load().vocab_size
    bad = ids[(ids < 0) | (ids >= vocab)]
    if bad.size:
        raise InputError("token_id", value=int(bad[0]), limit=vocab)
    return ids.astype(np.int64)


# RoPE: the frequencies of any rope_type, the rotation of rope.rotary


def with_trained_length(rope_parameters: Mapping[str, Any] | None) -> dict[str, Any]:
    """A rope_parameters dict as transformers completes it for this model: ``original_max_position_embeddings``
    is the trained length (128) unless given (transformers falls back to the config's max_position_embeddings,
    which for this model is 128), and ``rope_type`` defaults to plain RoPE."""
    params = dict(rope_parameters or {})
    params.setdefault("rope_type", "default")
    if params["rope_type"] != "default":
        params.setdefault("original_max_position_embeddings", load().trained_length)
    return params


def frequencies(context_length: int, rope_parameters: Mapping[str, Any] | None) -> scaling.RopeFrequencies:
    """inv_freq (d/2,) and attention_factor for a forward pass of ``context_length`` positions, as transformers
    computes them: dynamic NTK and LongRoPE read it (transformers' seq_len = the largest position id + 1), the others
    do not. ``rope_theta`` in the dict is the base (plain RoPE at another theta); the model's 10,000 otherwise."""
    model = load()
    params = with_trained_length(rope_parameters)
    theta = model.theta if params.get("rope_theta") is None else finite_float(
        "rope_theta", params["rope_theta"], greater_than=1.0)
    return scaling.compute(model.head_dim, theta, params, seq_len=context_length)


def _rotate(x: torch.Tensor, positions: np.ndarray, rope: scaling.RopeFrequencies) -> torch.Tensor:
    """RoPE on (B, heads, T, d): the core's rotation with adjacent pairs, times the attention factor.

    transformers multiplies cos and sin by attention_factor (YaRN's 0.1 ln s + 1), which scales each rotated q
    and k by it, and so every logit q.k by its square: done here on the rotated vectors, the same product."""
    rotated = rotary.rotate(x.numpy(), positions, pairing="interleaved", inv_freq=rope.inv_freq)  # float64
    if rope.attention_factor != 1.0:
        rotated *= rope.attention_factor
    return torch.from_numpy(rotated).to(torch.float32)


# the forward pass


def _rms_norm(x: torch.Tensor, gamma: torch.Tensor, eps: float) -> torch.Tensor:
    # glassllm: x / sqrt(mean(x^2) + eps) * gamma (Llama's RMSNorm, no bias)
    return F.rms_norm(x, (x.shape[-1],), gamma, eps)


@dataclass(frozen=True)
class Forward:
    """What a forward pass gives: the last hidden states (before the tied output projection) and, if asked, every
    layer's attention weights."""

    hidden: torch.Tensor  # (B, T, D) after the final RMSNorm: logits = hidden @ E.T
    attention: np.ndarray | None  # (layers, B, H, T, T) float32, each row a softmax over the keys 0..query


def forward(ids, rope_parameters: Mapping[str, Any] | None = None, *, attention: bool = False,
            frequencies_: scaling.RopeFrequencies | None = None) -> Forward:
    """The decoder on ``ids`` of shape (B, T) (any T: positions past the trained 128 are what this module is for),
    with RoPE at the frequencies of ``rope_parameters`` (a transformers ``rope_parameters`` dict, or None for plain
    RoPE). ``attention``: also return the attention weights (computed explicitly; otherwise torch's fused
    attention, which never materialises the (T, T) matrices). ``frequencies_``: inv_freq and attention_factor
    computed elsewhere, used instead (a test hands it transformers' own, float32-rounded ones)."""
    model = load()
    ids = torch.as_tensor(np.asarray(ids, dtype=np.int64))
    if ids.ndim != 2:
        raise ValueError(f"ids must have shape (B, T), got {tuple(ids.shape)}")
    B, T = ids.shape
    H, K, d = model.n_heads, model.n_kv_heads, model.head_dim
    rope = frequencies(T, rope_parameters) if frequencies_ is None else frequencies_
    positions = np.arange(T)
    w = model.weights
    layers_attention = []
    with torch.inference_mode():
        x = w["E"][ids]  # (B, T, D)
        for i in range(model.n_layers):
            p = f"blocks.{i}."
            h = _rms_norm(x, w[p + "norm1.gamma"], model.eps)
            q = (h @ w[p + "attn.W_Q"]).view(B, T, H, d).transpose(1, 2)  # (B, H, T, d)
            k = (h @ w[p + "attn.W_K"]).view(B, T, K, d).transpose(1, 2)  # (B, K, T, d)
            v = (h @ w[p + "attn.W_V"]).view(B, T, K, d).transpose(1, 2)  # (B, K, T, d)
            q, k = _rotate(q, positions, rope), _rotate(k, positions, rope)
            if attention:
                weights = _attention_weights(q, k.repeat_interleave(H // K, dim=1))  # (B, H, T, T)
                mixed = weights @ v.repeat_interleave(H // K, dim=1)
                layers_attention.append(weights.numpy())
            else:  # query head j reads key/value head j // (H / K), as glassllm's repeat_kv
                mixed = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)  # (B, H, T, d)
            x = x + mixed.transpose(1, 2).reshape(B, T, H * d) @ w[p + "attn.W_O"]
            h = _rms_norm(x, w[p + "norm2.gamma"], model.eps)
            x = x + (F.silu(h @ w[p + "ffn.W1"]) * (h @ w[p + "ffn.W3"])) @ w[p + "ffn.W2"]  # SwiGLU
        hidden = _rms_norm(x, w["norm_f.gamma"], model.eps)
    return Forward(hidden, np.stack(layers_attention) if attention else None)


def _attention_weights(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    """softmax(q k^T / sqrt(d)) with the causal mask, (B, H, T, T): row m is how query m spreads over keys 0..m."""
    T = q.shape[-2]
    scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    scores.masked_fill_(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
    return scores.softmax(dim=-1)


def logits(ids, rope_parameters: Mapping[str, Any] | None = None, *,
           frequencies_: scaling.RopeFrequencies | None = None) -> np.ndarray:
    """Next-token logits (B, T, V) float32: the tied output projection of :func:`forward`'s hidden states."""
    hidden = forward(ids, rope_parameters, frequencies_=frequencies_).hidden
    with torch.inference_mode():
        return (hidden @ load().weights["E"].T).numpy()


def next_token_losses(tokens, rope_parameters: Mapping[str, Any] | None = None) -> np.ndarray:
    """-log p(token t+1 | tokens 0..t) for windows of T + 1 tokens (B, T + 1): shape (B, T) float32, in nats.

    The model reads tokens[:, :-1] a few windows at a time (CHUNK_TOKENS positions per pass), so the logits held at
    once are (CHUNK_TOKENS, V), 4 MB, not (B, T, V)."""
    tokens = np.asarray(tokens, dtype=np.int64)
    if tokens.ndim != 2 or tokens.shape[1] < 2:
        raise ValueError(f"tokens must have shape (B, T + 1) with T >= 1, got {tokens.shape}")
    B, T = tokens.shape[0], tokens.shape[1] - 1
    table = load().weights["E"]
    out = np.empty((B, T), dtype=np.float32)
    step = max(1, CHUNK_TOKENS // T)
    for first in range(0, B, step):
        chunk = tokens[first:first + step]
        hidden = forward(chunk[:, :-1], rope_parameters).hidden  # (b, T, D)
        with torch.inference_mode():
            logits = hidden.reshape(-1, hidden.shape[-1]) @ table.T  # (b * T, V): the tied output projection
            # cross-entropy per position: logsumexp of the logits minus the target's, fused
            losses = F.cross_entropy(logits, torch.from_numpy(chunk[:, 1:].reshape(-1)), reduction="none")
        out[first:first + len(chunk)] = losses.view(len(chunk), T).numpy()
    return out


def checked_length(context_length: int, *, most: int) -> int:
    """A window length of 2..``most`` positions (a reader's link may ask anything)."""
    return positive_int("context_length", context_length, minimum=2, maximum=most)
