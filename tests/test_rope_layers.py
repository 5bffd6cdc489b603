"""Tests for embedviz.rope.layers and the published configs in embedviz/model_configs/.

Every fixture is read by embedviz (rope_config.from_config through rope_layers.layer_plan) and compared, layer by
layer, with transformers 5.24's own rotary embedding module of that model built from the same dict (its inv_freq
buffers and attention_scaling), and, for NoPE / M-RoPE / MLA, with transformers' own code for those parts.
"""
from __future__ import annotations

import copy
import importlib
import json
import math

import numpy as np
import pytest

from embedviz import model_facts
from embedviz.rope.config import from_config
from embedviz.rope.layers import (
    LLAMA4_ATTN_SCALE,
    LLAMA4_FLOOR_SCALE,
    NOPE,
    NopeTemperature,
    layer_plan,
    layer_types_of,
    mla_softmax_scale,
    mrope_of,
    mrope_sections,
    nope_attention_scale,
    published_config,
)
from embedviz.rope.layer_curves import temperature_curve
from embedviz.rope.scaling import compute
from tests.conftest import require_oracle
from tests.input_errors import raises_input

FIXTURES = model_facts.CONFIG_DIR  # the packaged configs: the app and the tests read the same files
FIXTURE_FILES = sorted(FIXTURES.glob("*.json"))
RTOL = 1e-6

# transformers' rotary embedding class of each model type (module under transformers.models, class name)
ROTARY = {
    "llama": "llama.modeling_llama.LlamaRotaryEmbedding",
    "qwen3": "qwen3.modeling_qwen3.Qwen3RotaryEmbedding",
    "qwen2_5_vl_text": "qwen2_5_vl.modeling_qwen2_5_vl.Qwen2_5_VLRotaryEmbedding",
    "gemma3_text": "gemma3.modeling_gemma3.Gemma3RotaryEmbedding",
    "gemma4_text": "gemma4.modeling_gemma4.Gemma4TextRotaryEmbedding",
    "deepseek_v3": "deepseek_v3.modeling_deepseek_v3.DeepseekV3RotaryEmbedding",
    "llama4_text": "llama4.modeling_llama4.Llama4TextRotaryEmbedding",
    "phi3": "phi3.modeling_phi3.Phi3RotaryEmbedding",
    "phi": "phi.modeling_phi.PhiRotaryEmbedding",
    "gpt_neox": "gpt_neox.modeling_gpt_neox.GPTNeoXRotaryEmbedding",
    "mistral": "mistral.modeling_mistral.MistralRotaryEmbedding",
}


def load(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text())


def test_at_least_ten_published_configs_in_both_formats():
    assert len(FIXTURE_FILES) >= 10
    v5 = [f for f in FIXTURE_FILES if f.name.endswith(".v5.json")]
    assert len(v5) >= 4 and len(FIXTURE_FILES) - len(v5) >= 10
    readme = (FIXTURES / "README.md").read_text()
    for f in FIXTURE_FILES:  # every file has its source named
        assert f"`{f.name}`" in readme, f.name


def hf_text_config(config: dict):
    transformers = require_oracle("transformers")
    transformers.logging.set_verbosity_error()
    config = copy.deepcopy(config)
    text = config.get("text_config", config)
    if "attn_temperature_tuning" in text:  # 5.24's config class wants a bool; the model code reads it as one
        text["attn_temperature_tuning"] = bool(text["attn_temperature_tuning"])
    fields = {k: v for k, v in config.items() if k != "model_type"}
    return transformers.AutoConfig.for_model(config["model_type"], **fields).get_text_config()


def hf_layer_frequencies(config: dict) -> list[tuple[np.ndarray, float] | None]:
    """transformers' (inv_freq, attention_scaling) for every layer of the model, None for a NoPE layer."""
    require_oracle("torch")
    cfg = hf_text_config(config)
    module, name = ROTARY[cfg.model_type].rsplit(".", 1)
    rotary = getattr(importlib.import_module("transformers.models." + module), name)(cfg)
    buffers = dict(rotary.named_buffers())
    out = []
    for i in range(cfg.num_hidden_layers):
        if getattr(cfg, "no_rope_layers", None) is not None and not cfg.no_rope_layers[i]:
            out.append(None)  # Llama4TextAttention: self.use_rope = config.no_rope_layers[layer_idx]
        elif "inv_freq" in buffers:
            out.append((buffers["inv_freq"].double().numpy(), float(rotary.attention_scaling)))
        else:  # one buffer per layer type (Gemma 3 / 4)
            layer_type = cfg.layer_types[i]
            out.append((buffers[f"{layer_type}_inv_freq"].double().numpy(),
                        float(getattr(rotary, f"{layer_type}_attention_scaling"))))
    return out


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=[f.name for f in FIXTURE_FILES])
def test_every_published_config_matches_transformers_layer_by_layer(path):
    config = json.loads(path.read_text())
    plan = layer_plan(config)
    reference = hf_layer_frequencies(config)
    assert len(plan.layers) == len(reference)
    for i, ref in enumerate(reference):
        setting = plan.settings[plan.layers[i]]
        if ref is None:
            assert setting.name == NOPE and setting.inv_freq is None, i
            continue
        np.testing.assert_allclose(setting.inv_freq, ref[0], rtol=RTOL, err_msg=f"{path.name} layer {i}")
        assert setting.attention_factor == pytest.approx(ref[1], rel=RTOL)


def test_v5_files_read_like_their_v4_originals():
    for name in ("llama-3.1-8b", "qwen3-0.6b", "gemma-3-12b-it", "deepseek-v3"):
        v4, v5 = layer_plan(load(f"{name}.json")), layer_plan(load(f"{name}.v5.json"))
        np.testing.assert_array_equal(v4.layers, v5.layers)
        for a, b in zip(v4.settings, v5.settings):
            np.testing.assert_allclose(a.inv_freq, b.inv_freq, rtol=1e-12)



def test_an_old_rope_scaling_wins_over_a_per_layer_rope_parameters_as_in_transformers():
    """A config carrying both keys (an edited file): transformers reads `rope_scaling or rope_parameters`, so a
    flat rope_scaling makes one setting for every layer even beside a per-layer-type rope_parameters."""
    config = {**load("qwen3-0.6b.json"), "layer_types": ["full_attention"] * 28,
              "rope_parameters": {"full_attention": {"rope_type": "default", "rope_theta": 10_000.0}},
              "rope_scaling": {"rope_type": "linear", "factor": 4.0}}
    plan, reference = layer_plan(config), hf_layer_frequencies(config)
    assert {s.rope_type for s in plan.settings} == {"linear"}
    for i, (inv_freq, _) in enumerate(reference):
        np.testing.assert_allclose(plan.settings[plan.layers[i]].inv_freq, inv_freq, rtol=RTOL, err_msg=f"layer {i}")

# layer strips, by hand


def test_gemma3_five_local_to_one_global():
    plan = layer_plan(load("gemma-3-12b-it.json"))
    assert [s.name for s in plan.settings] == ["sliding_attention", "full_attention"]
    assert plan.counts() == {"sliding_attention": 40, "full_attention": 8}  # 48 layers, every 6th global
    assert plan.layers[:6].tolist() == [0, 0, 0, 0, 0, 1]
    local, glob = plan.settings
    assert (local.theta, local.rope_type, glob.theta, glob.rope_type) == (10_000, "default", 1_000_000, "linear")
    np.testing.assert_allclose(glob.inv_freq, 1e6 ** (-np.arange(0, 256, 2) / 256) / 8, rtol=1e-12)


def test_gemma4_global_layers_are_proportional_on_a_wider_head():
    plan = layer_plan(load("gemma-4-e2b.v5.json"))
    local, glob = plan.settings
    assert (local.head_dim, local.rotary_dim, glob.head_dim, glob.rotary_dim) == (256, 256, 512, 128)
    assert glob.rope_type == "proportional" and glob.inv_freq.shape == (256,)
    assert np.count_nonzero(glob.inv_freq) == 64  # int(0.25 * 512 // 2) pairs turn, 192 stay at 0
    assert plan.counts() == {"sliding_attention": 25, "full_attention": 5}


def test_llama4_every_fourth_layer_is_nope():
    plan = layer_plan(load("llama-4-scout-17b-16e.json"))
    assert [s.name for s in plan.settings] == ["full_attention", NOPE] or [s.name for s in plan.settings][-1] == NOPE
    nope = [i for i in range(48) if plan.settings[plan.layers[i]].name == NOPE]
    assert nope == list(range(3, 48, 4))  # layers 4, 8, ..., 48 counted from 1
    assert plan.nope_temperature == NopeTemperature(floor_scale=8192.0, attn_scale=0.1)  # Scout's file says so
    # without the two keys a Llama 4 config reads as transformers reads it: Llama4TextConfig's defaults
    text = {k: v for k, v in load("llama-4-scout-17b-16e.json")["text_config"].items()
            if k not in ("floor_scale", "attn_scale")}
    assert layer_plan(text).nope_temperature == NopeTemperature(floor_scale=LLAMA4_FLOOR_SCALE,
                                                                attn_scale=LLAMA4_ATTN_SCALE)


def test_llama4_fallbacks_are_transformers_config_defaults():
    """The values used for a config without floor_scale / attn_scale are Llama4TextConfig's own defaults."""
    llama4 = require_oracle("transformers.models.llama4.configuration_llama4")
    defaults = llama4.Llama4TextConfig()
    assert (defaults.floor_scale, defaults.attn_scale) == (LLAMA4_FLOOR_SCALE, LLAMA4_ATTN_SCALE)


def test_plain_config_is_one_setting_for_every_layer():
    plan = layer_plan(load("mistral-7b-v0.1.json"))
    assert len(plan.settings) == 1 and plan.layers.shape == (32,) and plan.nope_temperature is None
    assert layer_types_of(load("mistral-7b-v0.1.json")) is None


# NoPE temperature, M-RoPE, MLA against transformers' own code


def test_nope_temperature_matches_llama4_attention_formula():
    # transformers' Llama4TextAttention: log1p(floor((positions + 1) / floor_scale)) * attn_scale + 1, written out
    positions = np.array([0, 1, 8190, 8191, 8192, 16383, 16384, 100_000, 10_000_000])
    expected = [math.log(1 + math.floor((m + 1) / 8192)) * 0.1 + 1 for m in positions]
    np.testing.assert_allclose(nope_attention_scale(positions), expected, rtol=1e-15)
    assert nope_attention_scale([8190])[0] == 1.0 and nope_attention_scale([8191])[0] > 1.0


def test_nope_temperature_matches_transformers_attention():
    """Llama4TextAttention on a NoPE layer, positions 0..T-1 (no cache); floor_scale 2 so that 8 tokens cross
    several floors. The ratio q_after / q_projected is the temperature the layer applied."""
    torch = require_oracle("torch")
    llama4 = require_oracle("transformers.models.llama4.modeling_llama4")
    text = load("llama-4-scout-17b-16e.json")["text_config"]
    cfg = hf_text_config({**text, "num_hidden_layers": 4, "no_rope_layers": [1, 1, 1, 0], "hidden_size": 256,
                          "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 128, "floor_scale": 2,
                          "intermediate_size": 64, "intermediate_size_mlp": 64})
    cfg._attn_implementation = "eager"
    attention = llama4.Llama4TextAttention(cfg, layer_idx=3).double()
    projected, seen = {}, {}
    attention.q_proj.register_forward_hook(lambda module, args, output: projected.update(q=output.detach().clone()))

    def fake_attention(module, query, key, value, attention_mask, **kwargs):  # (B, heads, T, head_dim)
        seen["q"] = query.detach().clone()
        return torch.zeros(query.shape[0], query.shape[2], query.shape[1], query.shape[3], dtype=query.dtype), None
    original, llama4.eager_attention_forward = llama4.eager_attention_forward, fake_attention
    try:
        attention(torch.randn(1, 8, 256, dtype=torch.float64), position_embeddings=None, attention_mask=None)
    finally:
        llama4.eager_attention_forward = original
    q = projected["q"].view(1, 8, 2, 128)  # (B, T, heads, head_dim)
    ratio = (seen["q"].transpose(1, 2) / q)[0, :, 0, 0].numpy()  # (T,)
    np.testing.assert_allclose(ratio, nope_attention_scale(np.arange(8), floor_scale=2, attn_scale=0.1), rtol=1e-6)
    assert ratio[0] == 1.0 and ratio[-1] > ratio[1]


def test_mrope_sections_match_transformers_recomposition():
    torch = require_oracle("torch")
    qwen = require_oracle("transformers.models.qwen2_5_vl.modeling_qwen2_5_vl")
    cfg = hf_text_config(load("qwen2.5-vl-7b.json"))
    rotary = qwen.Qwen2_5_VLRotaryEmbedding(cfg)
    # three position streams t, h, w = 1, 2, 3 for every pair: the recomposed angle says which stream a pair follows
    freq = torch.stack([torch.full((1, 1, 64), float(axis + 1)) for axis in range(3)])  # (3, B, T, d/2)
    picked = rotary.recomposition_frequencies(freq)[0, 0, :64].numpy()  # (d/2,)
    axes = mrope_of(load("qwen2.5-vl-7b.json"))
    np.testing.assert_array_equal(axes, picked - 1)
    assert np.bincount(axes).tolist() == [16, 24, 24]


def test_mrope_sections_errors():
    with raises_input("mrope_sum", sizes=[16, 24, 20], total=60, pairs=64):
        mrope_sections([16, 24, 20], 64)
    with raises_input("mrope_list"):
        mrope_sections("16,24,24", 64)
    assert mrope_of(load("llama-3.1-8b.json")) is None


def test_deepseek_rope_head_is_qk_rope_head_dim():
    out = from_config(load("deepseek-v3.json"))
    assert out["head_dim"] == 64  # not 7168 / 128 = 56
    inv_freq, attention_factor = compute(out["head_dim"], out["theta"], out["scaling"])
    assert inv_freq.shape == (32,) and attention_factor == 1.0  # mscale / mscale_all_dim = 1 / 1


def test_deepseek_softmax_scale_matches_transformers():
    deepseek = require_oracle("transformers.models.deepseek_v3.modeling_deepseek_v3")
    cfg = hf_text_config(load("deepseek-v3.json"))
    ours = mla_softmax_scale(load("deepseek-v3.json"))
    assert ours.qk_head_dim == 192
    # transformers: DeepseekV3Attention.scaling = yarn_apply_mscale(rope_parameters, qk_head_dim ** -0.5)
    reference = deepseek.yarn_apply_mscale(cfg.rope_parameters, 192 ** -0.5)
    assert ours.scale == pytest.approx(reference, rel=1e-12)
    assert ours.mscale == pytest.approx(0.1 * math.log(40) + 1)  # 1.3689, squared into the scale



def test_deepseek_softmax_scale_without_a_factor_takes_the_factor_the_frequencies_take():
    """A YaRN block that leaves out `factor` (transformers 5.24 refuses it; v4 and rope_config.from_config read it
    as max / original positions: 163,840 / 4,096 = 40, DeepSeek-V3's published factor). The softmax scale takes
    the same factor as the frequencies, not a KeyError on the missing key."""
    deepseek = require_oracle("transformers.models.deepseek_v3.modeling_deepseek_v3")
    reference = deepseek.yarn_apply_mscale(hf_text_config(load("deepseek-v3.json")).rope_parameters, 192 ** -0.5)
    config = load("deepseek-v3.json")
    assert config["max_position_embeddings"] / config["rope_scaling"]["original_max_position_embeddings"] == 40
    del config["rope_scaling"]["factor"]
    assert mla_softmax_scale(config).scale == pytest.approx(reference, rel=1e-12)


def test_deepseek_without_rope_scaling_has_the_plain_softmax_scale():
    """An MLA model with a plain RoPE (Moonlight: rope_scaling null): 1/sqrt(192), no mscale, as transformers."""
    deepseek = require_oracle("transformers.models.deepseek_v3.modeling_deepseek_v3")
    config = {**load("deepseek-v3.json"), "rope_scaling": None}
    attention = deepseek.DeepseekV3Attention(hf_text_config(config), layer_idx=0)
    mla = mla_softmax_scale(config)
    assert mla.scale == pytest.approx(attention.scaling, rel=1e-12) and mla.logit_factor == 1.0


# what is not understood says so


@pytest.mark.parametrize("config, code, params", [
    ({"num_hidden_layers": 2, "hidden_size": 8, "num_attention_heads": 1, "max_position_embeddings": 8,
      "rope_parameters": {"full_attention": {"rope_theta": 10.0}}}, "per_layer_no_types", {}),
    ({"num_hidden_layers": 2, "layer_types": ["full_attention", "chunked"], "hidden_size": 8,
      "num_attention_heads": 1, "max_position_embeddings": 8, "rope_parameters": {"full_attention": {"rope_theta": 10.0}}},
     "per_layer_missing", {"missing": "chunked", "has": "full_attention"}),
    ({"num_hidden_layers": 2, "layer_types": ["full_attention"], "hidden_size": 8, "num_attention_heads": 1,
      "max_position_embeddings": 8, "rope_theta": 10.0}, "layer_types_count", {"n": 1, "layers": 2}),
    ({"num_hidden_layers": 4, "no_rope_layers": [1, 0], "hidden_size": 8, "num_attention_heads": 1,
      "max_position_embeddings": 8, "rope_theta": 10.0}, "layer_flags_count", {"key": "no_rope_layers", "n": 2,
                                                                             "layers": 4}),
    ({"num_hidden_layers": 2, "no_rope_layers": [1, 2], "hidden_size": 8, "num_attention_heads": 1,
      "max_position_embeddings": 8, "rope_theta": 10.0}, "layer_flags", {"key": "no_rope_layers"}),
    ({"hidden_size": 8, "num_attention_heads": 1, "max_position_embeddings": 8, "rope_theta": 10.0},
     "no_layer_count", {}),
    ({"num_hidden_layers": 10**6, "hidden_size": 8, "num_attention_heads": 1, "max_position_embeddings": 8,
      "rope_theta": 10.0}, "at_most", {"name": "num_hidden_layers", "value": 10**6, "limit": 1_024}),
    ({"num_hidden_layers": 1, "hidden_size": 8, "num_attention_heads": 1, "max_position_embeddings": 8,
      "rope_theta": 10.0, "rope_scaling": {"rope_type": "ntk-by-parts"}}, "rope_type_unknown",
     {"value": "ntk-by-parts"}),
])
def test_layer_plan_errors_name_the_key(config, code, params):
    with raises_input(code, **params):
        layer_plan(config)


def test_rotated_dimensions_partial_proportional_nope():
    from embedviz.rope.layers import exponent_dim, rotated_dimensions
    phi2 = layer_plan(load("phi-2.json")).settings[0]
    mask = rotated_dimensions(phi2)
    assert mask.shape == (80,) and mask[:32].all() and not mask[32:].any()  # int(80 * 0.4) = 32 dims turn
    assert exponent_dim(phi2) == 32
    local, glob = layer_plan(load("gemma-4-e2b.v5.json")).settings
    mask = rotated_dimensions(glob)  # pairs 0..63 turn: dims 0..63 and 256..319
    assert mask.sum() == 128 and mask[:64].all() and mask[256:320].all() and not mask[64:256].any()
    assert exponent_dim(glob) == 512 and exponent_dim(local) == 256
    nope = layer_plan(load("llama-4-scout-17b-16e.json")).settings[-1]
    assert not rotated_dimensions(nope).any() and exponent_dim(nope) == 0


@pytest.mark.parametrize("value", [1, "yarn", [1, 2]])
def test_a_scaling_that_is_not_an_object_is_refused_with_a_message_on_every_road(value):
    """Gemma 3's v4 config (rope_local_base_freq) took another road than from_config and crashed on `dict(1)`."""
    gemma3 = copy.deepcopy(published_config("Gemma 3 12B (5 local : 1 global)"))
    gemma3["text_config"]["rope_scaling"] = value
    deepseek = {**published_config("DeepSeek-V3 (MLA, RoPE on 64 dims)"), "rope_scaling": value}
    for call in (lambda: layer_plan(gemma3), lambda: mla_softmax_scale(deepseek), lambda: mrope_of(deepseek)):
        with raises_input("scaling_not_dict"):
            call()


# floor_scale -> (last position drawn, temperature at the first and the last position): 1 + 0.1 ln(1 + floor((m+1)/s))
# worked out by hand, attn_scale 0.1: Scout's 8192 is flat at m = 1 and gives 1 + 0.1 ln 65 at 64 x 8192; a pasted 0.5
# gives 1 + 0.1 ln 5 at m = 1 and 1 + 0.1 ln 131 at its least reach, 64; an absurd 1e18 stays 1 up to 1e15.
_TEMPERATURE_ENDS = {8192: (524_288, 1.0, 1.4174387269895636), 0.5: (64, 1.16094379124341, 1.487519732320115),
                     1e18: (10**15, 1.0, 1.0)}


@pytest.mark.parametrize("floor_scale", list(_TEMPERATURE_ENDS))
def test_the_temperature_curve_reaches_64_floor_scales_within_int64(floor_scale):
    """The curve's reach and its two ends; its values in between are transformers' (tested above)."""
    last, first_value, last_value = _TEMPERATURE_ENDS[floor_scale]
    curve = temperature_curve(floor_scale, 0.1)
    assert curve.positions[0] == 1 and curve.positions[-1] == last
    assert curve.scale[[0, -1]].tolist() == pytest.approx([first_value, last_value], rel=1e-12)
    assert np.all(np.diff(curve.scale) >= 0)  # never falls with the position


@pytest.mark.parametrize("kind", ["conv", "linear_attention"])
def test_layers_without_attention_turn_nothing(kind):
    """LFM2's convolutions and Qwen3-Next's linear attention have no attention scores, so no RoPE: only the
    full-attention layers get the config's rope (transformers applies its rotary embedding in attention only)."""
    config = {"num_hidden_layers": 6, "hidden_size": 2048, "num_attention_heads": 32, "max_position_embeddings": 128_000,
              "rope_theta": 1e6, "layer_types": [kind, kind, "full_attention"] * 2}
    plan = layer_plan(config)
    assert plan.counts() == {kind: 4, "full_attention": 2}
    still, rope = plan.settings
    assert still.inv_freq is None and still.rotary_dim == 0 and rope.rotary_dim == 64
    attention_only = layer_plan({**config, "layer_types": ["full_attention"] * 6})  # read as any plain config
    np.testing.assert_array_equal(rope.inv_freq, attention_only.settings[0].inv_freq)
    assert plan.distinct_ropes() == 1


def test_interleaved_mrope_matches_qwen3_vl_recomposition():
    """Qwen3-VL (mrope_interleaved, [24, 20, 20]): the axes take turns over the pairs; the blocks of Qwen2.5-VL
    would put pairs 0-23 on time, 24-43 on height, 44-63 on width."""
    torch = require_oracle("torch")
    qwen3 = require_oracle("transformers.models.qwen3_vl.modeling_qwen3_vl")
    config = {"model_type": "qwen3_vl_text", "head_dim": 128, "hidden_size": 4096, "num_attention_heads": 32,
              "num_hidden_layers": 2, "max_position_embeddings": 4096,
              "rope_scaling": {"rope_type": "default", "rope_theta": 5e6, "mrope_section": [24, 20, 20],
                               "mrope_interleaved": True}}
    rotary = qwen3.Qwen3VLTextRotaryEmbedding(hf_text_config(config))
    freq = torch.stack([torch.full((1, 1, 64), float(axis + 1)) for axis in range(3)])  # (3, B, T, d/2)
    picked = rotary.recomposition_frequencies(freq)[0, 0, :64].numpy()
    axes = mrope_of({**config, "rope_theta": 5e6})
    np.testing.assert_array_equal(axes, picked - 1)
    assert np.bincount(axes).tolist() == [24, 20, 20] and axes[:6].tolist() == [0, 1, 2, 0, 1, 2]
