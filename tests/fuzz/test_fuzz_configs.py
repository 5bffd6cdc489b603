"""Pasted config.json files the "RoPE in today's models" page was not written for (hypothesis + AppTest).

A published config with a few of its fields set to what a hand edit or another model family gives: zero, negative,
fractional, huge, a string, a list of the wrong length, an object. The page, with any of its tabs open, must never
show a traceback, and each error box must say something in the reader's language: run in Chinese, a message the
error catalog (embedviz/app/errors.py) does not know would reach the reader in English, which fails here.

The widget fuzzer (test_fuzz_pages.py) types random text into the config box, which the JSON reader refuses before
any of this runs; these examples are valid JSON with odd values. Same sizes as there: EMBEDVIZ_FUZZ_EXAMPLES (x2)
derandomized examples in `make test`, EMBEDVIZ_FUZZ_RANDOM=1 for fresh ones.
"""
from __future__ import annotations

import copy
import json

from hypothesis import given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from embedviz import rope_layers
from embedviz.app.i18n import catalog
from embedviz.app.modern_view import CONFIG, TAB_CODES, TAB_KEY
from tests.fuzz.conftest import ROOT, examples
from tests.fuzz.test_fuzz_pages import FUZZ_SETTINGS

# the fields the page reads (model, layers, NoPE, partial rotation, M-RoPE, MLA) and those of rope_scaling
KEYS = ["head_dim", "num_hidden_layers", "rope_theta", "partial_rotary_factor", "no_rope_layers",
        "no_rope_layer_interval", "floor_scale", "attn_scale", "layer_types", "max_position_embeddings",
        "hidden_size", "num_attention_heads", "rotary_pct", "qk_rope_head_dim", "rope_scaling", "sliding_window"]
SCALING_KEYS = ["rope_type", "factor", "beta_fast", "beta_slow", "low_freq_factor", "high_freq_factor",
                "original_max_position_embeddings", "mrope_section", "short_factor", "truncate", "mscale"]
ODD = st.sampled_from([0, 1, 2, 3, 4, 7, -1, 0.5, 1e18, 1e300, "x", "", [], [0], [1, 0], [[1]], {}, None, True,
                       [0, 0, 0, 0], [16, 24, 24], "yarn", "llama3", "proportional"])
UNTRANSLATED = catalog()["err.untranslated"]["zh"].split("{")[0]  # the lead-in of a message only in English


@st.composite
def configs(draw) -> dict:
    config = copy.deepcopy(rope_layers.published_config(draw(st.sampled_from(list(rope_layers.PUBLISHED)))))
    fields = config.get("text_config", config)  # where the language model's fields are
    for key in draw(st.lists(st.sampled_from(KEYS), min_size=1, max_size=3, unique=True)):
        fields[key] = draw(ODD)
    scaling = fields.get("rope_scaling")
    if isinstance(scaling, dict) and draw(st.booleans()):
        scaling[draw(st.sampled_from(SCALING_KEYS))] = draw(ODD)
    return config


def test_odd_pasted_configs_never_break_the_page_and_read_in_chinese():
    labels = {code: catalog()[f"mod.tab_{code}"]["zh"] for code in TAB_CODES}

    @settings(FUZZ_SETTINGS, max_examples=2 * examples())
    @given(config=configs(), tab=st.sampled_from(TAB_CODES))
    def fuzz(config, tab):
        at = AppTest.from_file(str(ROOT / "app_pages" / "modern_rope.py"), default_timeout=120)
        at.query_params["mod_src"] = CONFIG
        at.session_state["mod_config"] = json.dumps(config)
        at.session_state[TAB_KEY] = labels[tab]
        at.session_state["lang"] = "zh"
        at.run()
        where = f"tab {tab}, config {json.dumps(config)[:400]}"
        assert not at.exception, f"{where}: traceback shown:\n{at.exception[0].value}"
        for box in at.error:
            assert box.value.strip(), f"{where}: an empty error box"
            assert UNTRANSLATED not in box.value, f"{where}: a message only in English: {box.value}"

    fuzz()
