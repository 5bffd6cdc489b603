"""Every model family of the installed transformers whose modeling code has a (text) rotary embedding, read by
embedviz and compared with that family's own rotary module, layer by layer.

For each config class: its default config (the text part of a multimodal one) goes through
:func:`embedviz.rope_layers.layer_plan`; the model's own ``*RotaryEmbedding`` built from the same config gives the
reference inv_freq (per layer type where it keeps one buffer per type) and attention scaling. A layer embedviz calls
NoPE must be one the config marks so (``no_rope_layers`` 0, a layer type without attention scores) or one whose
attention skips RoPE in its code (checked by running the model: :func:`test_cohere2_full_layers_never_call_rope`).
The families embedviz refuses, and those it cannot read, are listed by name and must stay as listed.
"""
from __future__ import annotations

import importlib
import inspect

import numpy as np
import pytest

from embedviz.rope_layers import NO_ATTENTION, NOPE, SLIDING_ONLY_ROPE, UNREAD_FAMILIES, layer_plan
from tests.conftest import require_oracle

RTOL = 1e-6
# default configs embedviz refuses with a ValueError that says why (no layer count, a head that does not divide...)
REFUSED = {"bailing_hybrid", "beam", "codegen", "dbrx", "deepseek_v4", "dory", "efficientloftr", "eomt_dinov3",
           "glm4_moe", "glm4v_moe", "glm4v_moe_text", "gptj", "longcat_flash", "mlcd", "mlcd_vision_model",
           "moonshine", "qwen3_omni_moe", "qwen3_omni_moe_text", "qwen3_omni_moe_thinker", "recurrent_gemma"}


def _families():
    transformers = require_oracle("transformers")
    require_oracle("torch")
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING_NAMES
    transformers.logging.set_verbosity_error()
    for model_type, class_name in sorted(CONFIG_MAPPING_NAMES.items()):
        config_class = getattr(transformers, class_name, None)
        if config_class is None:
            continue
        try:
            module = importlib.import_module(config_class.__module__.replace("configuration_", "modeling_"))
        except Exception:  # noqa: BLE001 - a family whose modeling code needs an extra package has no model here
            continue
        rotaries = [obj for name, obj in vars(module).items() if name.endswith("RotaryEmbedding")
                    and inspect.isclass(obj) and obj.__module__ == module.__name__
                    and "Vision" not in name and "ViT" not in name]
        if rotaries:
            yield model_type, config_class, rotaries


def _rotary(config, rotaries):
    for rotary in rotaries:
        try:
            return rotary(config)
        except Exception:  # noqa: BLE001 - an audio / vision sub-config the text rotary cannot take
            continue
    return None


def _compare(model_type, config, rotary) -> str | None:
    """None when embedviz reads every layer as the rotary module computes it, else what differs."""
    plan = layer_plan(config.to_dict())
    buffers = {k: v for k, v in rotary.named_buffers() if k.endswith("inv_freq") and "original" not in k}
    types = getattr(config, "layer_types", None)
    flags = getattr(config, "no_rope_layers", None)
    for i, index in enumerate(plan.layers):
        setting = plan.settings[index]
        layer_type = types[i] if types else None
        if setting.inv_freq is None:
            marked = (layer_type in NO_ATTENTION or (flags and not flags[i])
                      or (model_type in SLIDING_ONLY_ROPE and setting.name == NOPE))
            if not marked:
                return f"layer {i} read as NoPE"
            continue
        key = "inv_freq" if "inv_freq" in buffers else f"{layer_type}_inv_freq"
        if key not in buffers:
            return f"layer {i}: the rotary module has no {key}"
        scaling = getattr(rotary, "attention_scaling" if key == "inv_freq" else f"{layer_type}_attention_scaling",
                          1.0)
        reference = buffers[key].double().numpy()
        if setting.inv_freq.shape != reference.shape or not np.allclose(setting.inv_freq, reference, rtol=RTOL,
                                                                         atol=0):
            return f"layer {i} inv_freq {setting.inv_freq.shape} vs the module's {reference.shape}"
        if not np.isclose(setting.attention_factor, float(scaling), rtol=RTOL, atol=0):
            return f"layer {i} attention factor {setting.attention_factor} vs {float(scaling)}"
    return None


@pytest.mark.slow
def test_every_family_with_rope_is_read_as_its_rotary_module_computes_it():
    equal, wrong, refused, unread = [], {}, {}, []
    for model_type, config_class, rotaries in _families():
        try:
            config = config_class().get_text_config()
        except Exception:  # noqa: BLE001 - a config class that cannot be built without arguments
            continue
        rotary = _rotary(config, rotaries)
        if rotary is None:
            continue  # the text rotary cannot be built from this (audio / vision) sub-config
        try:
            problem = _compare(model_type, config, rotary)
        except ValueError as error:
            (unread.append(model_type) if model_type in UNREAD_FAMILIES else refused.__setitem__(model_type,
                                                                                                   str(error)))
            continue
        (wrong.__setitem__(model_type, problem) if problem else equal.append(model_type))
    print(f"\n{len(equal) + len(wrong) + len(refused) + len(unread)} families checked: {len(equal)} equal, "
          f"{len(refused)} refused, {len(unread)} named unreadable, {len(wrong)} wrong")
    print("equal:", ", ".join(equal))
    print("refused:", ", ".join(f"{k} ({v[:60]})" for k, v in refused.items()))
    print("unreadable (the page says so):", ", ".join(unread))
    assert not wrong, wrong
    assert set(refused) == REFUSED, (set(refused) - REFUSED, REFUSED - set(refused))
    assert set(unread) == set(UNREAD_FAMILIES)
    assert len(equal) >= 200  # 5.24 has ~210 such families; a broken enumeration would find few


def test_cohere2_full_layers_never_call_rope():
    """Run a tiny Cohere2 and record which layers call its modeling module's apply_rotary_pos_emb."""
    torch = require_oracle("torch")
    transformers = require_oracle("transformers")
    cohere2 = require_oracle("transformers.models.cohere2.modeling_cohere2")
    config = transformers.Cohere2Config(vocab_size=64, hidden_size=32, intermediate_size=32, num_hidden_layers=8,
                                        num_attention_heads=2, num_key_value_heads=1, sliding_window=4)
    model = transformers.Cohere2Model(config).eval()
    current, calls = {}, []
    for i, layer in enumerate(model.layers):
        layer.register_forward_pre_hook(lambda module, args, i=i: current.update(layer=i))
    original = cohere2.apply_rotary_pos_emb

    def recording(q, k, cos, sin, *args, **kwargs):
        calls.append(current["layer"])
        return original(q, k, cos, sin, *args, **kwargs)
    cohere2.apply_rotary_pos_emb = recording
    try:
        with torch.no_grad():
            model(torch.arange(6)[None])
    finally:
        cohere2.apply_rotary_pos_emb = original
    plan = layer_plan(config.to_dict())
    turning = [i for i in range(8) if plan.settings[plan.layers[i]].inv_freq is not None]
    assert calls == turning == [0, 1, 2, 4, 5, 6]  # every 4th layer is full attention, and NoPE


def test_hunyuan_alpha_is_a_fixed_ntk_base_as_its_rotary_module():
    transformers = require_oracle("transformers")
    dense = require_oracle("transformers.models.hunyuan_v1_dense.modeling_hunyuan_v1_dense")
    config = transformers.HunYuanDenseV1Config(head_dim=128, rope_parameters={
        "rope_type": "dynamic", "alpha": 1000.0, "factor": 1.0, "rope_theta": 10_000.0})
    setting = layer_plan(config.to_dict()).settings[0]
    reference = dense.HunYuanDenseV1RotaryEmbedding(config).inv_freq.double().numpy()
    np.testing.assert_allclose(setting.inv_freq, reference, rtol=RTOL)
    assert 2 * np.pi / setting.inv_freq[-1] > 5e7  # slowest wavelength 5.4e7, not base 10,000's 5.4e4


@pytest.mark.parametrize("model_type", sorted(UNREAD_FAMILIES))
def test_an_unreadable_family_is_refused_by_name(model_type):
    with pytest.raises(ValueError, match=f"model_type \\({model_type}\\) .*cannot read"):
        layer_plan({"model_type": model_type, "num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 1,
                    "rope_theta": 10_000.0, "max_position_embeddings": 64})
