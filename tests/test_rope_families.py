"""Every model family of the installed transformers whose modeling code has a (text) rotary embedding, read by
embedviz and compared with that family's own rotary module, layer by layer.

For each config class: its default config (the text part of a multimodal one) goes through
:func:`embedviz.rope.layers.layer_plan`; the model's own ``*RotaryEmbedding`` built from the same config gives the
reference inv_freq (per layer type where it keeps one buffer per type) and attention scaling. A layer embedviz calls
NoPE must be one the config marks so (``no_rope_layers`` 0, a layer type without attention scores) or one whose
attention skips RoPE in its code (checked by running the model: :func:`test_cohere2_full_layers_never_call_rope`).
The families embedviz refuses, and those it cannot read, are listed by name and must stay as listed.

Then every family is run (tests/rope_family_runs.py): a tiny model of it, hooked at its own apply_rotary_pos_emb,
says which layers rotate and with which frequencies and attention factor; layer_plan of the same tiny config must
say the same for every layer. Families whose tiny model cannot be run from input ids alone are listed by name.
"""
from __future__ import annotations

import importlib
import inspect

import numpy as np
import pytest

from embedviz.rope.layers import CODE_NOPE_FAMILIES, NO_ATTENTION, NOPE, UNREAD_FAMILIES, layer_plan
from tests import rope_family_runs
from tests.conftest import require_oracle
from tests.input_errors import raises_input

RTOL = 1e-6
# default configs embedviz refuses with a ValueError that says why (no layer count, a head that does not divide...)
# (GLM-4.5-MoE's and Qwen3-Omni's default classes have no head_dim and a hidden_size their heads do not divide; the
# published configs set head_dim, read right below)
REFUSED = {"bailing_hybrid", "beam", "deepseek_v4", "efficientloftr", "eomt_dinov3",
           "glm4_moe", "glm4v_moe", "glm4v_moe_text", "mlcd", "mlcd_vision_model",
           "qwen3_omni_moe", "qwen3_omni_moe_text", "qwen3_omni_moe_thinker", "recurrent_gemma"}


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
    table = dict(rotary.named_buffers()).get("embed_positions")
    if table is not None and not buffers:  # GPT-J / CodeGen: rows of cat(sin, cos), one per position
        sin, cos = table[1].double().chunk(2)
        buffers = {"inv_freq": sin.atan2(cos)}  # the angle position 1 turns each pair by
    types = getattr(config, "layer_types", None)
    flags = getattr(config, "no_rope_layers", None)
    for i, index in enumerate(plan.layers):
        setting = plan.settings[index]
        layer_type = types[i] if types else None
        if setting.inv_freq is None:
            marked = (layer_type in NO_ATTENTION or (flags and not flags[i])
                      or (model_type in CODE_NOPE_FAMILIES and setting.name == NOPE))
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


@pytest.mark.slow  # reads every family's classes, as the all-families test does (~70 s on a loaded machine)
@pytest.mark.parametrize("model_type, sizes", [
    ("glm4_moe", {"hidden_size": 5120, "head_dim": 128}),  # GLM-4.5: 96 heads of 128, partial 0.5
    ("qwen3_omni_moe_text", {"num_attention_heads": 32, "head_dim": 128}),  # Qwen3-Omni-30B-A3B's thinker
    ("dbrx", {"attn_config": {"rope_theta": 500_000.0, "kv_n_heads": 8}}),  # 5.24's rotary never reads this theta
])
def test_a_published_config_of_a_family_whose_default_is_refused_or_odd(model_type, sizes):
    families = {name: (config_class, rotaries) for name, config_class, rotaries in _families()}
    config_class, rotaries = families[model_type]
    config = config_class(**sizes)
    assert _compare(model_type, config, _rotary(config, rotaries)) is None


def _hand_run(name):
    """(config, {decoder layer: [(cos, sin)]}) of a tiny model the shared run cannot shrink, built here by hand."""
    transformers, torch = require_oracle("transformers"), require_oracle("torch")
    if name == "dbrx":
        config = transformers.DbrxConfig(d_model=256, n_heads=2, n_layers=3, max_seq_len=64, vocab_size=256,
                                         attn_config={"rope_theta": 500_000.0, "kv_n_heads": 1, "clip_qkv": 8.0},
                                         ffn_config={"ffn_hidden_size": 32, "moe_num_experts": 2, "moe_top_k": 1})
        model, inputs = transformers.DbrxModel(config), {"input_ids": torch.arange(1, 6)[None]}
        layers = model.blocks
    elif name == "dory":
        head = transformers.DoryConfig().head_dim
        config = transformers.DoryConfig(vocab_size=256, num_hidden_layers=8, n_input_layers=2, n_output_layers=2,
                                         num_attention_heads=2, num_key_value_heads=2, hidden_size=2 * head,
                                         head_dim=head, intermediate_size=32)
        model, inputs = transformers.DoryModel(config), {"input_ids": torch.arange(1, 6)[None]}
        layers = model.layers
    else:  # moonshine: the decoder's layers (its encoder turns by the same rotary module)
        config = transformers.MoonshineConfig(vocab_size=256, encoder_num_hidden_layers=1, decoder_num_hidden_layers=3)
        model = transformers.MoonshineModel(config)
        inputs = {"input_values": torch.randn(1, 4000), "decoder_input_ids": torch.arange(1, 6)[None]}
        layers = model.decoder.layers
    module = importlib.import_module(type(model).__module__)
    current, calls = {"layer": None}, {}
    for i, layer in enumerate(layers):
        layer.register_forward_pre_hook(lambda m, a, i=i: current.update(layer=i))
        layer.register_forward_hook(lambda m, a, o: current.update(layer=None))
    original = module.apply_rotary_pos_emb

    def recording(q, k, cos, sin, *args, **kwargs):
        calls.setdefault(current["layer"], []).append((cos, sin))
        return original(q, k, cos, sin, *args, **kwargs)
    module.apply_rotary_pos_emb = recording
    try:
        with torch.no_grad():
            model.eval()(**inputs)
    finally:
        module.apply_rotary_pos_emb = original
    calls.pop(None, None)  # Moonshine's encoder layers
    return config, calls


@pytest.mark.parametrize("name", ["dbrx", "dory", "moonshine"])
def test_a_family_run_by_hand_turns_each_layer_as_layer_plan_reads_it(name):
    config, calls = _hand_run(name)
    assert len(calls) == config.num_hidden_layers  # Dory's recurrent layers run twice, with the same cos / sin
    assert rope_family_runs.compare(layer_plan(config.to_dict()), config, calls, RTOL) is None


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
    with raises_input("family_unread", name="model_type", value=model_type):
        layer_plan({"model_type": model_type, "num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 1,
                    "rope_theta": 10_000.0, "max_position_embeddings": 64})


# Families whose tiny model does not run from five input ids here (their rotary module is still checked above),
# left out of the run by name rather than built (some take tens of seconds to build): as of transformers 5.24
NOT_RUN = frozenset({
    # parts of a bigger model, with no text model class of their own, or wrappers without a layer list
    "blt_global_transformer", "blt_local_decoder", "blt_local_encoder", "blt_patcher", "deepseek_ocr2",
    "deepseek_ocr2_encoder", "deepseek_ocr2_text", "dia", "dia_decoder", "dia_encoder", "hrm_text", "t5_gemma_module",
    "t5gemma", "t5gemma2", "t5gemma2_decoder", "t5gemma2_encoder", "t5gemma2_text", "unlimited_ocr",
    "unlimited_ocr_text", "voxtral_realtime", "voxtral_realtime_text",
    # models of audio, images or time series, which need more than token ids
    "glmasr_encoder", "idefics", "kyutai_speech_to_text", "lasr_encoder", "mimi", "mimi_decoder", "mimi_encoder",
    "muse_glimmer_assistant", "nemotron3_5_transcribe_asr_audio", "nemotron3_5_transcribe_word_timestamp",
    "nemotron3_diarization_audio", "neucodec", "pe_audio_encoder", "pe_audio_video_encoder", "pe_video_encoder",
    "pocket_tts_audio_tokenizer", "pocket_tts_audio_tokenizer_decoder", "pocket_tts_audio_tokenizer_encoder",
    "qwen2_5_omni_dit", "qwen2_5_omni_talker", "qwen3_omni_moe_talker_code_predictor", "timesfm2_5",
    "voxtral_realtime_encoder", "xcodec2", "moonshine",
    # a shrunk config their own validation or code refuses (Mamba state sizes, MoE routing, M-RoPE sections...)
    "bamba", "chameleon", "deepseek_v2", "diffusion_gemma", "diffusion_gemma_text", "dots1", "dots3_note_audio_encoder",
    "ernie4_5_moe", "esm", "gemma3n", "gemma3n_text", "glm4v", "glm4v_text", "glm_image", "glm_image_text",
    "gradium_phonon_tts", "granitemoehybrid", "hunyuan_vl", "hunyuan_vl_text", "lfm2_moe", "mimo_v2_flash",
    "moonshine_streaming", "nemotron", "pocket_tts", "qwen3_omni_moe_talker_text", "qwen4_exp", "qwen4_exp_text",
    "step3p5", "step3p7",
    # DBRX's attention reads attn_config.rope_theta (and then never uses it), which the default config lacks;
    # LongCat-Flash lists num_layers layers of two attention blocks each (its num_hidden_layers is 2 x num_layers)
    "dbrx", "longcat_flash",
    # Dory's config dict lists an attention and an mlp block per layer, which a shrunk copy no longer halves right
    "dory",
})


SHARDS = 4  # 151 tiny models are ~110 s of CPU: in four parts, both workers share them


@pytest.mark.slow  # kept in `make test`
@pytest.mark.parametrize("shard", range(SHARDS))
def test_every_family_rotates_each_layer_as_layer_plan_reads_it(shard):
    """Per layer, the frequencies and attention factor the family's own code applies (or that it applies none): every
    SHARDS-th runnable family, starting at this shard's."""
    transformers = require_oracle("transformers")
    torch = require_oracle("torch")
    runnable = []
    for model_type, config_class, rotaries in _families():
        if model_type in REFUSED or model_type in UNREAD_FAMILIES or model_type in NOT_RUN:
            continue
        try:
            text = config_class().get_text_config()
        except Exception:  # noqa: BLE001 - as in the module comparison above
            continue
        if _rotary(text, rotaries) is not None:
            runnable.append((model_type, text))
    equal, wrong, failed = [], {}, {}
    for model_type, text in runnable[shard::SHARDS]:
        try:
            config, calls = rope_family_runs.record(transformers, torch, text)
        except Exception as error:  # noqa: BLE001 - a family that stopped running: named in the failure
            failed[model_type] = f"{type(error).__name__}: {str(error)[:80]}"
            continue
        problem = rope_family_runs.compare(layer_plan(config.to_dict()), config, calls, RTOL)
        (wrong.__setitem__(model_type, problem) if problem else equal.append(model_type))
    print(f"\n{len(equal) + len(wrong) + len(failed)} of {len(runnable)} families run in shard {shard}: {len(equal)}"
          f" equal layer by layer, {len(wrong)} wrong, {len(failed)} failed; {len(NOT_RUN)} listed as not runnable")
    assert not wrong, wrong
    assert not failed, failed
    # 5.24: every family with a text rotary but the refused, unread and NOT_RUN ones, 140 or more in all
    assert len(runnable) >= 140, len(runnable)
