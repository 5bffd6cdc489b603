"""Run a tiny model of one transformers family and record which layers call its RoPE function, with what.

The reference for tests/test_rope_families.py's per-layer check: a family's config decides nothing about which layers
rotate when its attention code skips RoPE (Cohere2's `if self.sliding_window is not None`), so the only honest
oracle is the code running. The default config is shrunk (at most a few layers, two heads of the default head size,
tiny MLPs, a few experts, a 256-token vocabulary), its model built, every module-level ``apply_rotary_pos_emb``
(and the family's other names for it) wrapped, and five tokens sent through. Each call's cos / sin (or Llama 4's
complex ``freqs_cis``) is read back into per-pair frequencies (the angle one position adds) and the attention
factor (their magnitude), whatever the layout: half-split (cat(f, f)), interleaved, or one entry per pair.
"""
from __future__ import annotations

import collections
import importlib
import inspect
import re

import numpy as np

APPLY = re.compile(r"^_?apply_(multimodal_)?rotary_(pos_)?emb(_interleave|_)?$")
LAYERS = (8, 6, 12)  # tried in turn: 8 holds a 4- or 8-layer pattern; Gemma's 6 keeps its global layer's override
EXPERTS = ("num_experts", "num_local_experts", "n_routed_experts", "moe_num_experts")
STANDARD = ("num_hidden_layers", "num_attention_heads", "hidden_size", "max_position_embeddings")
TOP_K = ("num_experts_per_tok", "top_k", "moe_topk", "num_experts_per_token")


def shrink(config: dict, layers: int) -> dict:
    """A config dict of the same family with at most ``layers`` layers, small everywhere but in each head."""
    d = dict(config)
    n = d.get("num_hidden_layers")
    if isinstance(n, int) and n > layers:
        for key, value in list(d.items()):
            if isinstance(value, list) and len(value) == n:  # layer_types, no_rope_layers, mlp_layer_types, ...
                d[key] = value[:layers]
        d["num_hidden_layers"] = layers
        if isinstance(d.get("per_layer_config"), dict):
            d["per_layer_config"] = {k: v for k, v in d["per_layer_config"].items() if int(k) < layers}
    heads = d.get("num_attention_heads")
    head_dim = d.get("head_dim") or (d["hidden_size"] // heads if d.get("hidden_size") and heads else None)
    if heads and head_dim:  # the head keeps its size: M-RoPE sections and partial factors stay valid
        d["num_attention_heads"], d["hidden_size"] = 2, 2 * head_dim
        if d.get("num_key_value_heads"):
            d["num_key_value_heads"] = 2
        if "head_dim" in d and d["head_dim"] is None:
            d["head_dim"] = head_dim
    for key, value in list(d.items()):
        if isinstance(value, int) and not isinstance(value, bool):
            if "intermediate_size" in key:
                d[key] = 32
            elif key in EXPERTS:
                d[key] = min(value, 4)
            elif key in TOP_K:
                d[key] = min(value, 2)
            elif key in ("n_group", "topk_group"):
                d[key] = 1
            elif key == "vocab_size":
                d[key] = 256
            elif key.endswith("token_id") and value > 255:
                d[key] = 0
    return d


def pair_frequencies(cos, sin):
    """(per-pair angle one position adds, per-pair magnitude) from one call's cos / sin, positions on axis -2."""
    import torch
    z = cos if cos.is_complex() else torch.complex(cos.double(), sin.double())
    z = z.detach().to(torch.complex128)
    while z.dim() > 2:
        z = z[0]
    step, factor = torch.angle(z[1] * z[0].conj()).numpy(), z[0].abs().numpy()
    size = len(step)
    if not cos.is_complex() and size > 1 and size % 2 == 0:
        if np.array_equal(step[: size // 2], step[size // 2:]):
            step, factor = step[: size // 2], factor[: size // 2]
        elif np.array_equal(step[0::2], step[1::2]):
            step, factor = step[0::2], factor[0::2]
    return step, factor


def _model_class(transformers, text, module):
    from transformers.models.auto.modeling_auto import MODEL_MAPPING_NAMES
    name = MODEL_MAPPING_NAMES.get(text.model_type)
    if name and hasattr(transformers, name):
        return getattr(transformers, name)
    return next((obj for n, obj in vars(module).items() if inspect.isclass(obj) and n.endswith("Model")
                 and getattr(obj, "config_class", None) is type(text) and obj.__module__ == module.__name__), None)


def _run(transformers, torch, text, layers):
    drop = ("model_type", "transformers_version", "architectures")
    d = text.to_dict()
    if "num_hidden_layers" not in d:  # GPT-J's n_layer, DBRX's n_layers...: the standard names, for shrink
        for key, alias in getattr(type(text), "attribute_map", {}).items():
            if key in STANDARD and alias in d and key not in d:
                d[key] = d.pop(alias)
    config = type(text)(**{k: v for k, v in shrink(d, layers).items() if k not in drop})
    config._attn_implementation = "eager"
    module = importlib.import_module(type(text).__module__.replace("configuration_", "modeling_"))
    model_class = _model_class(transformers, text, module)
    if model_class is None:
        raise LookupError("no text model class")
    torch.manual_seed(0)
    model = model_class(config).eval()
    blocks = [m for m in model.modules() if isinstance(m, torch.nn.ModuleList) and len(m) == config.num_hidden_layers]
    if not blocks:
        raise LookupError("no list of num_hidden_layers layers")
    current, calls = {"layer": None}, collections.defaultdict(list)
    for i, layer in enumerate(blocks[0]):
        layer.register_forward_pre_hook(lambda m, a, i=i: current.update(layer=i))
        layer.register_forward_hook(lambda m, a, o: current.update(layer=None))
    originals = {name: fn for name, fn in vars(module).items() if APPLY.match(name) and inspect.isfunction(fn)}
    if not originals:
        raise LookupError("no apply_rotary_pos_emb")

    def wrap(fn):
        signature = inspect.signature(fn)

        def recording(*args, **kwargs):
            bound = signature.bind(*args, **kwargs).arguments
            calls[current["layer"]].append((bound.get("cos", bound.get("freqs_cis")), bound.get("sin")))
            return fn(*args, **kwargs)
        return recording
    for name, fn in originals.items():
        setattr(module, name, wrap(fn))
    try:
        ids = torch.tensor([[1, 2, 3, 4, 5]])
        with torch.no_grad():
            try:
                model(input_ids=ids)
            except TypeError:  # an encoder-decoder: the decoder's layers are the ones listed
                model(input_ids=ids, decoder_input_ids=ids)
    finally:
        for name, fn in originals.items():
            setattr(module, name, fn)
    return config, calls


def record(transformers, torch, text):
    """(the tiny config that ran, {layer index or None: [(cos, sin), ...]}); raises when no tiny model runs."""
    error = None
    for layers in LAYERS:
        try:
            return _run(transformers, torch, text, layers)
        except Exception as exc:  # noqa: BLE001 - a family's own validation of a shrunk config; try the next size
            error = error or exc
    raise error


def compare(plan, config, calls, rtol: float) -> str | None:
    """None when every layer of ``plan`` rotates as the run did (no call for NoPE; else each call's frequencies
    and attention factor equal the layer's setting and 2 x its turning pairs its rotated dimensions)."""
    for i in range(config.num_hidden_layers):
        setting, got = plan.settings[plan.layers[i]], calls.get(i, [])
        if setting.inv_freq is None:
            if got:
                return f"layer {i}: read as NoPE, but its code rotates"
            continue
        if not got:
            return f"layer {i}: read as rotating {setting.rotary_dim} dims, but its code never calls RoPE"
        for cos, sin in got:
            freqs, factor = pair_frequencies(cos, sin)
            if freqs.shape != setting.inv_freq.shape or not np.allclose(freqs, setting.inv_freq, rtol=rtol, atol=0):
                return f"layer {i}: frequencies {freqs[:3]} ({freqs.shape}) vs {setting.inv_freq[:3]}"
            if not np.allclose(factor, setting.attention_factor, rtol=rtol, atol=0):
                return f"layer {i}: attention factor {factor[:2]} vs {setting.attention_factor}"
            if 2 * np.count_nonzero(freqs) != setting.rotary_dim:
                return f"layer {i}: {2 * np.count_nonzero(freqs)} rotated dims vs {setting.rotary_dim}"
    if calls.get(None):
        return f"{len(calls[None])} RoPE calls outside the decoder layers"
    return None
