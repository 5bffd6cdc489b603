"""Cached calls of the "RoPE in today's models" page: a model's layer plan and the theory, shaped for its figures.

No math here: every number comes from embedviz.rope.layers / rope_theory / theta_calculator.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import numpy as np
import streamlit as st

from embedviz.rope import (
    config as rope_config, layer_curves, layers as rope_layers, reach as rope_reach, theory as rope_theory,
    theta_calculator, vision as rope_vision,
)
from embedviz.app.i18n import t

CONFIG = "config.json"
SOURCES: list[str] = [*rope_layers.PUBLISHED, CONFIG]
DEFAULT_SOURCE = SOURCES[0]


def source_label(source: str) -> str:
    """A model choice as the reader reads it: the core names the presets in English ("Gemma 3 12B (5 local : 1
    global)"); the catalog has each one, by its config file, in both languages."""
    if source == CONFIG:
        return source
    return t(PRESET_NAMES[rope_layers.PUBLISHED[source]])


PRESET_NAMES = {  # rope_layers.PUBLISHED's config files -> their names' catalog keys
    "gemma-3-12b-it.json": "mod.preset_gemma-3-12b-it", "gemma-4-e2b.v5.json": "mod.preset_gemma-4-e2b.v5",
    "llama-4-scout-17b-16e.json": "mod.preset_llama-4-scout-17b-16e", "qwen2.5-vl-7b.json": "mod.preset_qwen2.5-vl-7b",
    "deepseek-v3.json": "mod.preset_deepseek-v3", "phi-2.json": "mod.preset_phi-2",
    "gpt-neox-20b.json": "mod.preset_gpt-neox-20b", "llama-3.1-8b.json": "mod.preset_llama-3.1-8b",
}


# CPU seconds one request may spend on a base scan that rope_theory.KNOWN_SCANS does not hold (a pasted config's
# head size): d = 128 takes 1.6 s at 1K, 2.5 s at 4K here; d = 512 at 4K is refused with a message rather than
# holding a classroom server. The published configs' head sizes at these lengths are read from KNOWN_SCANS.
SCAN_CPU_BUDGET_S = 3.0
SCAN_LENGTHS = (1_024, 2_048, 4_096)  # a live scan (0.1% steps) takes seconds here; longer lengths take minutes
# the page's sections, one tab each (bound to ?mod_tab=): code -> label's catalog key
TABS = {"layers": "mod.tab_layers", "decay": "mod.tab_decay", "head": "mod.tab_head", "mrope": "mod.tab_mrope",
        "vision": "mod.tab_vision", "theory": "mod.tab_theory"}
TAB_CODES = tuple(TABS)
# catalog keys by the core's codes, written out so that grep finds each text's use
REACH_NAMES = {"full": "mod.reach_full", "sliding": "mod.reach_sliding", "chunked": "mod.reach_chunked"}  # rope_reach
LENGTH_NAMES = {"trained": "mod.len_trained", "max": "mod.len_max", "sliding": "mod.len_sliding",
                "chunked": "mod.len_chunked"}  # the length the critical dimension is for
CRITICAL_TEXTS = {  # (every turning pair turns within it, the layers have a window or chunk) -> the theory's text
    (False, False): "mod.critical", (True, False): "mod.critical_all",
    (False, True): "mod.critical_reach", (True, True): "mod.critical_all_reach"}
VISION_NAMES = {"qwen2_vl": "mod.vision_qwen2_vl", "pixtral": "mod.vision_pixtral"}  # rope_vision.LAYOUTS
VISION_LAYOUTS = rope_vision.LAYOUTS  # labels: mod.vision_<layout>
VISION_GRIDS = (8, 16, 24, 32, 48, 64)  # patches per side (a 448-pixel image in 14-pixel patches is 32)
SCAN_STEP = 0.001  # coarser steps skip the narrow ranges of good bases (1% finds 2.87e4 for 4K, not 2.7e4)
DISTANCES = layer_curves.DECAY_DISTANCES
# the published model whose pairs follow time, height and width (the M-RoPE tab points to it for the others)
MROPE_SOURCE = next(name for name in rope_layers.PUBLISHED
                    if rope_layers.mrope_of(rope_layers.published_config(name)) is not None)


def example_text() -> str:
    return json.dumps(rope_layers.published_config(DEFAULT_SOURCE), indent=2)


def _config(source: str, config_text: str) -> dict[str, Any]:
    if source == CONFIG:
        return rope_config.parse_config_json(config_text)
    return rope_layers.published_config(source)


@dataclass(frozen=True)
class MRope:
    axes: np.ndarray  # each pair's axis (time, height, width)
    wavelengths: np.ndarray  # the first RoPE setting's wavelength of each pair


@dataclass(frozen=True)
class Setting:
    """One distinct setting of a model's layers as the page draws it: a RoPE, a NoPE layer, or a layer without
    attention scores (a convolution, linear attention), which turns nothing either but is not a NoPE layer."""
    name: str  # the layer type ("sliding_attention", ...) or rope_layers.NOPE
    nope: bool  # whether no pair turns (a NoPE layer or a layer without attention)
    attention: bool  # False for a layer without attention scores (rope_layers.NO_ATTENTION)
    head_dim: int
    rotary_dim: int  # dimensions that turn: 0 when nope
    theta: float | None  # rope_theta; None when nope, as the next three
    rope_type: str | None  # "default", or the scaling method's name
    attention_factor: float | None
    curves: layer_curves.SettingCurves | None  # its wavelengths, still pairs, decay, rotated dims and exponent's d
    reach: rope_reach.Reach | None  # the shortest span of its layers (a window or chunk), None for the whole context


@dataclass(frozen=True)
class ModernModel:
    """Everything the page draws about one model."""
    layers: list[str]  # each layer's setting name, in order
    settings: list[Setting]  # one per distinct setting
    rope_settings: list[Setting]  # the settings that turn pairs; empty when every layer is NoPE
    distinct_ropes: int  # layer types sharing one rope count once
    counts: dict[str, int]  # setting name -> its layers
    temperature: rope_layers.NopeTemperature | None  # Llama 4's NoPE temperature, if tuned
    train_length: int | None  # None when every layer is NoPE: nothing turns, the page says so
    mrope: MRope | None  # pairs following time, height and width, if the model has them
    mla: rope_layers.MlaScale | None  # rope_layers.mla_softmax_scale, for an MLA model
    reach: list[tuple[str, int | None, int]]  # per layer: (kind, window / chunk span, sinks)
    context: str  # "trained", or "max": max_position_embeddings is a limit, not a trained length


@st.cache_data(max_entries=32, show_spinner=False)
def model(source: str, config_text: str = "") -> ModernModel:
    """Everything the page draws about one model: the layer strip, each setting's curves and facts, M-RoPE, NoPE."""
    config = _config(source, config_text)
    plan = rope_layers.layer_plan(config)
    reach = rope_reach.layer_reach(config)

    def reach_of(name: str) -> rope_reach.Reach | None:  # the shortest span of its layers (None: the whole context)
        spans = [r for r, i in zip(reach, plan.layers) if plan.settings[i].name == name]
        bounded = [r for r in spans if r.span is not None]
        return min(bounded, key=lambda r: r.span) if bounded and len(bounded) == len(spans) else None

    settings = []
    for s in plan.settings:
        if s.inv_freq is None:  # NoPE, or a layer without attention
            settings.append(Setting(name=s.name, nope=True, attention=s.name not in rope_layers.NO_ATTENTION,
                                    head_dim=s.head_dim, rotary_dim=0, theta=None, rope_type=None,
                                    attention_factor=None, curves=None, reach=reach_of(s.name)))
        else:
            settings.append(Setting(name=s.name, nope=False, attention=True, head_dim=s.head_dim,
                                    rotary_dim=s.rotary_dim, theta=s.theta, rope_type=s.rope_type,
                                    attention_factor=s.attention_factor, curves=layer_curves.setting_curves(s),
                                    reach=reach_of(s.name)))
    axes, rope = rope_layers.mrope_of(config), [s for s in settings if not s.nope]
    return ModernModel(
        layers=[plan.settings[i].name for i in plan.layers], settings=settings, rope_settings=rope,
        distinct_ropes=plan.distinct_ropes(), counts=plan.counts(), temperature=plan.nope_temperature,
        train_length=next((s.train_length for s in plan.settings if s.train_length), None),
        mrope=None if axes is None or not rope else MRope(axes=axes, wavelengths=rope[0].curves.wavelengths),
        mla=rope_layers.mla_softmax_scale(config), reach=[(r.kind, r.span, r.sinks) for r in reach],
        context=rope_reach.context_of(config))


@st.cache_data(max_entries=64, show_spinner=False)
def temperature(floor_scale: float, attn_scale: float) -> layer_curves.TemperatureCurve:
    return layer_curves.temperature_curve(floor_scale, attn_scale)


@st.cache_data(max_entries=64, show_spinner=False)
def theory(head_dim: int, theta: float, train_length: int, turning: int) -> rope_theory.TrainingTheory:
    """Critical dimension and the PI bounds at these settings (the scan length does not enter); ``turning``: the
    dimensions that turn at all (fewer than head_dim for proportional RoPE)."""
    return rope_theory.training_theory(head_dim, theta, train_length, turning=turning)


@dataclass(frozen=True)
class BaseBound(rope_theory.BaseBoundSummary):
    """The base bound (found, or how far a scan within the server's budget got) beside the one-turn rule."""
    one_turn: float  # theta_calculator.theta_for_context: the smallest theta whose slowest pair turns at most once


@st.cache_data(max_entries=64, show_spinner=False)
def base_bound(head_dim: int, scan_length: int) -> BaseBound:
    """The base bound for ``scan_length`` (depends on head_dim and length only) beside the one-turn rule."""
    out = rope_theory.base_bound_summary(head_dim, scan_length, rel_step=SCAN_STEP, cpu_budget_s=SCAN_CPU_BUDGET_S)
    return BaseBound(**vars(out), one_turn=theta_calculator.theta_for_context(head_dim, scan_length))


@dataclass(frozen=True)
class VisionView:
    similarity: np.ndarray  # (grid, grid) each patch's similarity to the chosen one
    row: int  # the chosen patch, kept inside a smaller grid
    col: int
    head_dim: int  # the layout's published head
    theta: float


@st.cache_data(max_entries=64, show_spinner=False)
def vision(layout: str, grid: int, row: int, col: int) -> VisionView:
    """2-D RoPE's similarity map for one patch on a grid x grid image, at the layout's published head and theta."""
    head_dim, theta = rope_vision.DEFAULTS[layout]
    row, col = min(row, grid - 1), min(col, grid - 1)  # a smaller grid keeps the patch inside it
    return VisionView(similarity=rope_vision.patch_similarity(grid, row, col, head_dim=head_dim, theta=theta,
                                                              layout=layout),
                      row=row, col=col, head_dim=head_dim, theta=theta)
