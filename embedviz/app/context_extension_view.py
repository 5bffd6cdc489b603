"""Cached core calls of the Context-extension page, and the one bit of state it keeps: which source (a preset or
a pasted config.json) last filled the widgets. The math is in embedviz.rope.context_extension (the analysis),
embedviz.rope.scaling (the methods and their LaTeX) and embedviz.rope.config (reading a config.json)."""
from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from dataclasses import dataclass
from typing import Any

import streamlit as st

from embedviz.rope import context_extension, config as rope_config, layers as rope_layers, theta_calculator
from embedviz.rope.scaling import yarn_betas
from embedviz.figures.context_extension import kind_hover
from embedviz.app import live
from embedviz.app.i18n import t
from embedviz.downsample import log_options
from embedviz.app.widgets import human_number
from embedviz.errors import InputError
from embedviz.models.params import PRESETS
from embedviz.lessons.widget_keys import Context as K

CONFIG = "config.json"  # the source option that reads a pasted / uploaded config (a language-neutral URL label)
# The page opens on the simplest method: position interpolation on LLaMA-2-7B, 4K x 4 = 16K (the core says why)
PI_SOURCE = "LLaMA-2-7B (PI 16K)"
DEFAULT_SOURCE = PI_SOURCE
YARN_SOURCE = "Qwen3-0.6B (YaRN 128K)"  # lesson 003: Qwen3 goes from 32K to 128K with YaRN
APPLIED = "ctx__applied"  # session key: the (source, config text) whose values the widgets were last given
UPLOAD_ID = "ctx__upload"  # session key: the uploaded file already copied into the text area
UPLOAD_MB = 1  # a config.json is a few KB; checked here too, since the uploader's limit is only the browser's
# Longest compressed config a link carries: nginx reads a request line into 8 KB buffers by default (uvicorn's
# own limit is 16 KB for the whole request head), and the page's other settings need a few hundred characters.
CONFIG_URL_CHARS = 6_000

# the sections below the shared controls, one per tab (lazy: only the open one runs and is sent)
TABS = {"pairs": "ctx.tab_pairs", "method": "ctx.tab_method", "ratio": "ctx.tab_ratio", "turns": "ctx.tab_turns",
        "decay": "ctx.tab_decay", "calc": "ctx.tab_calc"}  # code -> label's catalog key
TAB_CODES = tuple(TABS)

# widget ranges (a config outside them is refused with a message rather than clamped)
HEAD_DIM = (4, 512)
LENGTH = (16, 2_097_152)  # 2M tokens
FACTOR = (1.0, 256.0)
THETA = (2.0, 1e10)
# the current length of dynamic NTK / LongRoPE, in units of the trained length: the formulas use L / L_train
RATIOS = (0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0, 48.0, 64.0)
CONTEXT_LENGTH_METHODS = context_extension.CONTEXT_LENGTH_METHODS
# real models' choice of rope_theta for their pre-training length (the calculator's comparison)
REAL_MODELS = {"LLaMA-2-7B": "LLaMA-2-7B", "Llama-3.1-8B": "Llama 3 / 3.1 (8B)", YARN_SOURCE: "Qwen3"}

# widget key of every setting, by its field of SourceSettings; method parameters by their transformers name
MAIN_KEYS = {"method": K.METHOD, "factor": K.FACTOR, "original": K.ORIGINAL, "target": K.TARGET,
             "head_dim": K.HEAD_DIM, "theta": K.THETA}
# method parameter -> (widget key, min, max, step); 0 is "not set" for mscale, mscale_all_dim, attention_factor
PARAM_SPECS: dict[str, tuple[str, float, float, float]] = {
    "beta_fast": (K.BETA_FAST, 0.25, 1024.0, 1.0),
    "beta_slow": (K.BETA_SLOW, 0.25, 1024.0, 0.5),
    "mscale": (K.MSCALE, 0.0, 10.0, 0.1),
    "mscale_all_dim": (K.MSCALE_ALL_DIM, 0.0, 10.0, 0.1),
    "attention_factor": (K.ATTENTION_FACTOR, 0.0, 10.0, 0.05),
    "truncate": (K.TRUNCATE, 0.0, 1.0, 1.0),  # a toggle
    "low_freq_factor": (K.LOW_FREQ_FACTOR, 0.25, 64.0, 0.5),
    "high_freq_factor": (K.HIGH_FREQ_FACTOR, 0.25, 64.0, 0.5),
}
PARAM_KEYS = {name: spec[0] for name, spec in PARAM_SPECS.items()}
PARAM_TEXTS = {  # each parameter's label and help, by catalog key
    "beta_fast": ("ctx.p_beta_fast", "ctx.p_beta_fast_help"), "beta_slow": ("ctx.p_beta_slow", "ctx.p_beta_slow_help"),
    "mscale": ("ctx.p_mscale", "ctx.p_mscale_help"),
    "mscale_all_dim": ("ctx.p_mscale_all_dim", "ctx.p_mscale_all_dim_help"),
    "attention_factor": ("ctx.p_attention_factor", "ctx.p_attention_factor_help"),
    "truncate": ("ctx.p_truncate", "ctx.p_truncate_help"),
    "low_freq_factor": ("ctx.p_low_freq_factor", "ctx.p_low_freq_factor_help"),
    "high_freq_factor": ("ctx.p_high_freq_factor", "ctx.p_high_freq_factor_help"),
}
# each method (context_extension.METHODS): its name as texts and charts say it, its section's title and text
METHOD_NAMES = {"linear": "ctx.name_linear", "dynamic": "ctx.name_dynamic", "yarn": "ctx.name_yarn",
                "llama3": "ctx.name_llama3", "longrope": "ctx.name_longrope"}
METHOD_TEXTS = {"linear": ("ctx.m_linear_title", "ctx.m_linear"), "dynamic": ("ctx.m_dynamic_title", "ctx.m_dynamic"),
                "yarn": ("ctx.m_yarn_title", "ctx.m_yarn"), "llama3": ("ctx.m_llama3_title", "ctx.m_llama3"),
                "longrope": ("ctx.m_longrope_title", "ctx.m_longrope")}
KIND_NAMES = {"kept": "ctx.kept", "blended": "ctx.blended", "interpolated": "ctx.interpolated"}  # figures' KINDS
FORMULA_WORDS = {"else": "ctx.fw_else", "not rotated": "ctx.fw_not rotated", "given": "ctx.fw_given",
                 "high": "ctx.fw_high", "low": "ctx.fw_low"}  # rope_scaling.FORMULA_WORDS, in the reader's words

# microsoft/Phi-3-mini-128k-instruct: the config the text area starts with, so LongRoPE is one click away
# (the factor lists as published: float32 values written out in full).
EXAMPLE_CONFIG = context_extension.PHI3_MINI_128K


def _compact_json(config: dict) -> str:
    """Indented JSON with number lists on one line (a 48-number list stays one paragraph, not 48 lines)."""
    text = json.dumps(config, indent=2)
    return re.sub(r"\[\s+([^\[\]{}]*?)\s+\]", lambda m: "[" + ", ".join(x.strip() for x in m.group(1).split(",")) + "]",
                  text)


EXAMPLE_CONFIG_TEXT = _compact_json(EXAMPLE_CONFIG)


def rope_presets() -> list[str]:
    """Names of the RoPE models in embedviz.models.params.PRESETS."""
    return [name for name, p in PRESETS.items() if p.positional == "rope" and p.head_dim and p.rope_theta]


EXAMPLE_SOURCES = {PI_SOURCE: context_extension.LLAMA2_7B_PI_16K}  # sources that are a config, not a preset
SOURCES = [*EXAMPLE_SOURCES, *rope_presets(), CONFIG]


def preset_config(name: str) -> dict[str, Any]:
    """A preset written as the config.json fields RoPE reads, so presets and pasted configs take one path."""
    if name in EXAMPLE_SOURCES:
        return EXAMPLE_SOURCES[name]
    p = PRESETS[name]
    scaling = dict(p.rope_scaling) if p.rope_scaling else None
    if scaling is None and p.pretrained_length != p.max_context_length:
        # max_position_embeddings is not the trained length (Qwen3-0.6B: 40,960 vs 32,768): say it as config.json
        # would, so rope_config.from_config reads it as original_max_position_embeddings
        scaling = {"rope_type": "default", "original_max_position_embeddings": p.pretrained_length}
    return {"head_dim": p.head_dim, "rope_theta": p.rope_theta, "max_position_embeddings": p.max_context_length,
            "rope_scaling": scaling}


def _check_ranges(settings: context_extension.ExtensionSettings) -> None:
    """A config value outside a widget's range is refused by name (a widget cannot hold it)."""
    checks = [("head_dim", settings.head_dim, HEAD_DIM), ("rope_theta", settings.theta, THETA),
              ("factor", settings.factor, FACTOR), ("target context", settings.target, LENGTH),
              ("original_max_position_embeddings", settings.original, LENGTH)]
    checks += [(name, float(settings.params[name]), spec[1:3]) for name, spec in PARAM_SPECS.items()]
    for name, value, (lo, hi) in checks:
        if not lo <= value <= hi:
            raise InputError("page_range", name=name, value=value, low=lo, high=hi)


@dataclass(frozen=True)
class SourceSettings(context_extension.ExtensionSettings):
    """A source's starting values (the core's :class:`~embedviz.rope.context_extension.ExtensionSettings`, whose
    fields the page reads as one set) and what the page says beside them."""

    # DeepSeek's (MLA) softmax scale, None for other models: MLA scales its logits in the attention, not through
    # attention_factor, and the method tab says so
    mla: rope_layers.MlaScale | None
    last_stage: int | None  # a preset's later long-context stage (Llama 3.1: 131,072), which no config field records


@st.cache_data(max_entries=16, show_spinner=False)
def _settings(source: str, config_text: str) -> SourceSettings:
    if source == CONFIG:
        config = rope_config.parse_config_json(config_text)
    elif source in SOURCES:
        config = preset_config(source)
    else:
        raise InputError("one_of", name="source", value=source, allowed=", ".join(SOURCES))
    settings = context_extension.extension_settings(config)
    _check_ranges(settings)
    last_stage = PRESETS[source].last_stage_length if source in PRESETS else None
    return SourceSettings(**vars(settings), mla=rope_layers.mla_softmax_scale(config), last_stage=last_stage)


def source_caption(source: str, settings: SourceSettings) -> str:
    """What the page says under the chosen source: its sizes, its method, and what it leaves out."""
    caption = t("ctx.source_caption", name=source, head_dim=settings.head_dim, theta=human_number(settings.theta),
                original=human_number(settings.original), method=settings.method,
                factor=f"{settings.factor:g}", target=human_number(settings.target))
    if not settings.scaled:
        caption += " " + t("ctx.suggested", target=human_number(settings.target))
    if settings.last_stage:  # Llama 3.1: 8,192 is where pre-training started, not the most it was trained on
        caption += " " + t("common.last_stage", n=human_number(settings.last_stage))
    if settings.partial_rotary_factor and settings.rotary_dim < settings.head_dim:  # 1.0 rotates them all
        caption += " " + t("ctx.partial", dims=settings.rotary_dim, head_dim=settings.head_dim,
                           p=f"{settings.partial_rotary_factor:g}")
    return caption


def source_settings(source: str, config_text: str = "") -> SourceSettings:
    """The page's starting values from a preset or a config.json text (ValueError naming what is wrong)."""
    return _settings(source, config_text)


def nearest_ratio(ratio: float) -> float:
    return min(RATIOS, key=lambda r: abs(r - ratio))


def widget_values(settings: SourceSettings) -> dict[str, Any]:
    """Widget key -> value for every setting of a source."""
    values = {key: getattr(settings, name) for name, key in MAIN_KEYS.items()}  # MAIN_KEYS: by field name
    values.update({key: settings.params[name] for name, key in PARAM_KEYS.items()})
    values[K.RATIO] = nearest_ratio(settings.target / settings.original)
    return values


DEFAULTS = widget_values(_settings(DEFAULT_SOURCE, ""))  # the widgets' defaults: the default source's values


def method_options(settings: SourceSettings) -> list[str]:
    """Every method; LongRoPE only when the source brings its searched factor lists."""
    has_lists = settings.short_factor is not None and settings.long_factor is not None
    return [m for m in context_extension.METHODS if m != "longrope" or has_lists]


def sync(source: str, config_text: str, settings: SourceSettings) -> None:
    """Give the widgets the source's values when the source changed (call before creating them).

    The first run of a session keeps what the URL says (a shared link reopens its view), unless the URL names
    only the source (a hand-written ``?ctx_src=Llama-3.1-8B``); later, choosing a preset or editing the config
    resets the settings to that source.
    """
    signature = [source, config_text if source == CONFIG else ""]
    state = st.session_state
    if state.get(APPLIED) != signature:
        values = widget_values(settings)
        if APPLIED in state or not any(key in st.query_params for key in values):
            # only the values that differ: a widget given its own value again would be redrawn on the next rerun
            state.update({key: value for key, value in values.items() if _differs(key, value)})
        state[APPLIED] = signature


def _differs(key: str, value: Any) -> bool:
    """Whether widget ``key`` would show something else than ``value`` without being told."""
    state = st.session_state
    if key in state:
        return state[key] != value
    return key in st.query_params or value != DEFAULTS[key]


def request_reset() -> None:
    """Button callback: apply the source's values again on this rerun."""
    st.session_state[APPLIED] = None


def take_upload(upload) -> None:
    """Copy a newly uploaded config.json into the text area (before the text area is created)."""
    if upload is None or st.session_state.get(UPLOAD_ID) == upload.file_id:
        return
    st.session_state[UPLOAD_ID] = upload.file_id
    if upload.size > UPLOAD_MB * 2**20:  # a hand-made request can pass the browser's check: never decode it
        raise InputError("config_upload_size", file=upload.name, n=upload.size, limit=UPLOAD_MB)
    data = upload.getvalue()
    try:
        st.session_state[K.CONFIG] = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError("not_utf8", file=upload.name, reason=error.reason, byte=error.start) from None


def encode_config(text: str) -> str:
    """A config text as a URL-safe token: zlib at level 9, then base64url without padding."""
    return base64.urlsafe_b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii").rstrip("=")


def decode_config(token: str) -> str:
    """The text of :func:`encode_config`'s token (ValueError when the link was cut or edited)."""
    try:
        packed = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        # at most MAX_CONFIG_CHARS * 4 bytes out: a tiny token must not inflate into gigabytes (a zip bomb)
        inflater = zlib.decompressobj()
        data = inflater.decompress(packed, rope_config.MAX_CONFIG_CHARS * 4)
        if inflater.unconsumed_tail or not inflater.eof:
            raise ValueError
        return data.decode("utf-8")
    except (ValueError, binascii.Error, zlib.error, UnicodeDecodeError):
        raise InputError("link_damaged") from None


def config_from_link() -> None:
    """On a session's first run, a config carried by the link fills the text area (before it is created)."""
    token = st.query_params.get(K.CONFIG_URL)
    if token and K.CONFIG not in st.session_state:
        st.session_state[K.CONFIG] = decode_config(token)


def config_to_link(text: str) -> bool:
    """Keep the pasted config in the URL so a shared link reproduces the view; False when it is too long."""
    if text == EXAMPLE_CONFIG_TEXT:
        st.query_params.pop(K.CONFIG_URL, None)
        return True
    token = encode_config(text)
    if len(token) > CONFIG_URL_CHARS:
        st.query_params.pop(K.CONFIG_URL, None)
        return False
    if st.query_params.get(K.CONFIG_URL) != token:
        st.query_params[K.CONFIG_URL] = token
    return True


def _shown(value: Any) -> str:
    if isinstance(value, (bool, str)):
        return str(value).lower() if isinstance(value, bool) else value
    return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"


def changes(settings: SourceSettings, method: str) -> list[tuple[str, str]]:
    """(name, source's value), formatted, of each shown setting the user moved away from the source.

    Not the new value: the widget shows it, and a line that repeats it would be redrawn on every step."""
    state, out = st.session_state, []
    names = [*MAIN_KEYS, *context_extension.METHOD_DEFAULTS.get(method, {})]
    source_values = {**{n: getattr(settings, n) for n in MAIN_KEYS}, **settings.params}
    for name in names:
        key = MAIN_KEYS.get(name) or PARAM_KEYS[name]
        if key in state and state[key] != source_values[name]:
            out.append((name, _shown(source_values[name])))
    return out


@dataclass(frozen=True)
class Extension:
    view: context_extension.ExtensionView  # plain RoPE against the method: wavelengths, turns, decay, pairs
    scaling: dict[str, Any]  # the rope_scaling the method's numbers make (context_extension.build_scaling)
    context_length: int | None  # the current length dynamic NTK and LongRoPE read, or None for the other methods


@st.cache_data(max_entries=64, show_spinner=False)
def extension(source: str, config_text: str, method: str, head_dim: int, theta: float, factor: float,
              original: int, target: int, ratio: float, params: tuple[tuple[str, Any], ...]) -> Extension:
    """Plain RoPE against ``method`` with these numbers; LongRoPE's lists and partial rotary come from the source."""
    s = _settings(source, config_text)
    scaling = context_extension.build_scaling(
        method, factor=factor, original_max_position_embeddings=original, params=dict(params),
        short_factor=s.short_factor, long_factor=s.long_factor, partial_rotary_factor=s.partial_rotary_factor,
    )
    context_length = context_extension.context_length_for(method, original, ratio)
    view = context_extension.extension_view(head_dim, theta, scaling, original=original, target=target,
                                            context_length=context_length)
    return Extension(view=view, scaling=scaling, context_length=context_length)


@st.cache_data(max_entries=64, show_spinner=False)
def calculator(head_dim: int, context_length: int, slow_pairs: int) -> theta_calculator.ThetaCalculation:
    """theta_for_context for this head and context, and what real models chose for their pre-training length."""
    models = {label: PRESETS[name] for name, label in REAL_MODELS.items()}
    return theta_calculator.theta_calculator(head_dim, context_length, slow_pairs, models)


def method_params(method: str) -> list[str]:
    """The tunable parameters of ``method``, in the order they are shown."""
    return list(context_extension.METHOD_DEFAULTS.get(method, {}))


# the wavelength chart's live sliders: factor and theta on a 1-2-5 grid over their ranges, plus the value the page
# holds (a preset's 500,000, a typed 3.7), so every setting the number boxes take is a position of the thumb
FACTOR_STOPS = (1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 16.0, 20.0, 24.0, 32.0, 40.0, 48.0,
                64.0, 96.0, 128.0, 192.0, 256.0)
THETA_STOPS = tuple(log_options(*THETA, extra=(THETA[1],)))


def live_sliders() -> tuple[live.Slider, ...]:
    """The wavelength chart's live sliders, bound to the factor and theta number boxes' keys."""
    def stops(grid, key):
        return tuple(sorted({*grid, float(st.session_state[key])}))
    factor, theta = MAIN_KEYS["factor"], MAIN_KEYS["theta"]
    return (live.Slider(factor, "ctx.factor", stops(FACTOR_STOPS, factor), lambda f: f"{f:g}"),
            live.Slider(theta, "ctx.theta", stops(THETA_STOPS, theta), human_number))


def live_fixed(method: str, rotated: int, original: int, context_length: int | None, params: dict,
               settings: SourceSettings, kind_names: dict, colors: dict, hover: str) -> dict:
    """What formulas.js needs besides the sliders to redraw the wavelength chart: the method and its numbers as
    ``context_extension.build_scaling`` fills them (LongRoPE's lists from the source)."""
    lists = {k: list(getattr(settings, k)) for k in ("short_factor", "long_factor") if method == "longrope"}
    given = {**context_extension.METHOD_DEFAULTS.get(method, {}), **params, **lists}
    return {"method": method, "dim": rotated, "original": original, "context_length": context_length,
            "hovers": {kind: kind_hover(name, hover) for kind, name in kind_names.items()},
            # YaRN's betas as the core resolves them: the browser's formula takes them as they are
            "params": {**given, **(yarn_betas(given) if method == "yarn" else {})},
            "kinds": list(kind_names), "kind_names": kind_names, "colors": colors}
