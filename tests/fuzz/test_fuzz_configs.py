"""Pasted config.json files the RoPE config pages were not written for (hypothesis + AppTest): "RoPE in today's
models" and "Context extension".

A published config with a few of its fields set to what a hand edit or another model family gives: zero, negative,
fractional, huge, a string, a list of the wrong length, an object. A page, with any of its tabs open, must never
show a traceback, and each error box must say something in the reader's language: run in Chinese, a message the
error catalog (embedviz/app/errors.py) does not know would reach the reader in English, which fails here.

The widget fuzzer (test_fuzz_pages.py) types random text into the config box, which the JSON reader refuses before
any of this runs; these examples are valid JSON with odd values. Same sizes as there: EMBEDVIZ_FUZZ_EXAMPLES (x2)
derandomized examples in `make test`, EMBEDVIZ_FUZZ_RANDOM=1 for fresh ones.
"""
from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from embedviz.rope import context_extension, layers as rope_layers
from embedviz.app import context_extension_view, modern_rope_view
from embedviz.app.i18n import catalog
from embedviz.lessons.widget_keys import Context, ModernRope
from tests.app.pagetest import english_only
from tests.fuzz.conftest import FUZZ_SETTINGS, ROOT, examples

# the fields the page reads (model, layers, NoPE, partial rotation, M-RoPE, MLA) and those of rope_scaling
KEYS = ["head_dim", "num_hidden_layers", "rope_theta", "partial_rotary_factor", "no_rope_layers",
        "no_rope_layer_interval", "floor_scale", "attn_scale", "layer_types", "max_position_embeddings",
        "hidden_size", "num_attention_heads", "rotary_pct", "qk_rope_head_dim", "rope_scaling", "sliding_window"]
SCALING_KEYS = ["rope_type", "factor", "beta_fast", "beta_slow", "low_freq_factor", "high_freq_factor",
                "original_max_position_embeddings", "mrope_section", "short_factor", "long_factor", "truncate", "mscale",
                "attention_factor"]
# plausible numbers another model could hold (most draws should still draw charts), and odd values
PLAUSIBLE = st.sampled_from([6, 8, 16, 32, 48, 64, 96, 128, 256, 0.25, 0.4, 1.0, 1.5, 2, 8, 32, 1e4, 5e5, 1e6,
                             4_096, 32_768, 131_072])
ODD = st.sampled_from([0, 1, 2, 3, 4, 7, -1, 0.5, 1e18, 1e300, "x", "", [], [0], [1, 0], [[1]], {}, None, True,
                       [0, 0, 0, 0], [16, 24, 24], "yarn", "llama3", "proportional"])
BASES = [rope_layers.published_config(name) for name in rope_layers.PUBLISHED] + [context_extension.PHI3_MINI_128K]
# page -> (source widget key, the source that reads a pasted config, the text box's key, its tabs' key, tab codes,
# the tabs' catalog prefix)
PAGES = {
    "modern_rope": (ModernRope.SOURCE, modern_rope_view.CONFIG, ModernRope.CONFIG, ModernRope.TAB,
                    modern_rope_view.TAB_CODES, "mod"),
    "context_extension": (Context.SOURCE, context_extension_view.CONFIG, Context.CONFIG, Context.TAB,
                          context_extension_view.TAB_CODES, "ctx"),
}


@st.composite
def configs(draw) -> dict:
    config = copy.deepcopy(draw(st.sampled_from(BASES)))
    fields = config.get("text_config", config)  # where the language model's fields are
    for key in draw(st.lists(st.sampled_from(KEYS), min_size=0, max_size=3, unique=True)):
        fields[key] = copy.deepcopy(draw(st.one_of(PLAUSIBLE, ODD)))  # a fresh object: the samples are shared
    scaling = fields.get("rope_scaling") or fields.get("rope_parameters")
    if isinstance(scaling, dict) and draw(st.booleans()):
        per_type = [value for value in scaling.values() if isinstance(value, dict)]  # Gemma 4: one per layer type
        target = draw(st.sampled_from(per_type)) if per_type else scaling
        target[draw(st.sampled_from([*SCALING_KEYS, "rope_theta"]))] = copy.deepcopy(draw(st.one_of(PLAUSIBLE, ODD)))
    return config


@pytest.mark.parametrize("name", list(PAGES))
def test_odd_pasted_configs_never_break_the_page_and_read_in_chinese(name):
    source_key, source, text_key, tab_key, codes, prefix = PAGES[name]
    labels = {code: catalog()[f"{prefix}.tab_{code}"]["zh"] for code in codes}

    @settings(FUZZ_SETTINGS, max_examples=2 * examples())
    @given(config=configs(), tab=st.sampled_from(codes))
    def fuzz(config, tab):
        at = AppTest.from_file(str(ROOT / "app_pages" / f"{name}.py"), default_timeout=120)
        at.query_params[source_key] = source
        at.session_state[text_key] = json.dumps(config)
        at.session_state[tab_key] = labels[tab]
        at.session_state["lang"] = "zh"
        at.run()
        where = f"{name}, tab {tab}, config {json.dumps(config)[:400]}"
        assert not at.exception, f"{where}: traceback shown:\n{at.exception[0].value}"
        for box in at.error:
            assert box.value.strip(), f"{where}: an empty error box"
            assert not english_only(box.value), f"{where}: a message only in English: {box.value}"

    fuzz()
