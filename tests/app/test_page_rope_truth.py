"""Teach only what is true, on the RoPE page in both languages: each statement pinned against numbers from the core or the
published configs (never against the page's own strings alone).

- the decay text: pair 0 turns 1 radian per token for any theta; the theta 10K curve rises again after d = 11;
- aligned and independent q, k are both shown (the chart's curves equal the core's);
- head_dim "64 or 128", with Phi-3-mini's 96 and Gemma's 256 named;
- one note on the sign convention of R(k), shared with the Sinusoidal page (its claim: tests/test_sinusoidal.py).
"""
from __future__ import annotations

import json

import numpy as np
import pytest

from embedviz.rope import rotary
from embedviz.app.i18n import catalog
from embedviz.models.params import PRESETS
from embedviz.rope.layers import published_config
from embedviz.lessons.widget_keys import Rope as K
from tests.app import pagetest as pt
from tests.conftest import ROOT

LANGS = ("en", "zh")


def on(code: str, lang: str) -> object:
    at = pt.page("rope", lang=lang, session={K.TAB: catalog()[f"rope.tab_{code}"][lang]}).run()
    pt.ok(at)
    return at


@pytest.mark.parametrize("lang", LANGS)
def test_pair_0_turns_one_radian_for_every_theta(lang):
    for theta in (100.0, 10_000.0, 500_000.0, 1_000_000.0, 1e7):  # the page's slider ends and reference thetas
        assert rotary.inverse_frequencies(128, theta)[0] == 1.0
    text = catalog()["rope.decay_intro"][lang]
    assert ("pair 0 turns by 1 radian per token for every θ" if lang == "en" else "第 0 对无论 θ 多大，每个 token 都转 1 弧度") \
        in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_theta_10k_curve_rises_again_after_d_11(lang):
    curve = rotary.decay_curve(128, 10_000.0, np.arange(64))
    first_rise = int(np.flatnonzero(np.diff(curve) > 0)[0])  # curve[d + 1] > curve[d] first at this d
    assert first_rise == 11
    text = catalog()["rope.decay_intro"][lang]
    assert (f"after d = {first_rise}" if lang == "en" else f"d = {first_rise} 之后") in text


@pytest.mark.parametrize("lang", LANGS)
def test_aligned_and_independent_q_k_are_both_shown(lang):
    at = on("random", lang)
    chart = pt.specs(at)[0]
    assert len(chart["data"]) == 4 and (pt.is_chinese(chart["layout"]["title"]["text"]) == (lang == "zh"))
    distances = pt.values(chart["data"][0]["x"])
    aligned, mean = pt.values(chart["data"][0]["y"]), pt.values(chart["data"][1]["y"])
    np.testing.assert_allclose(aligned, rotary.decay_curve(128, 10_000.0, distances), atol=1e-6)
    spread = rotary.random_score_stats(128, 10_000.0, distances, samples=256)
    np.testing.assert_allclose(mean, spread.mean, atol=1e-6)
    assert np.abs(mean).max() < 0.05 < aligned[:100].min()  # independent: 0 on average; aligned: high nearby


@pytest.mark.parametrize("lang", LANGS)
def test_head_dim_help_says_64_or_128_and_names_the_exceptions(lang):
    rope_presets = [p.head_dim for p in PRESETS.values() if p.positional == "rope" and p.head_dim]
    assert set(rope_presets) <= {64, 128}
    phi3 = json.loads((ROOT / "embedviz" / "model_configs" / "phi-3-mini-128k-instruct.json").read_text())
    assert phi3["hidden_size"] // phi3["num_attention_heads"] == 96
    gemma = published_config("Gemma 3 12B (5 local : 1 global)")
    assert gemma.get("head_dim", gemma.get("text_config", {}).get("head_dim")) == 256
    text = catalog()["rope.head_dim_help"][lang]
    # the bundled Gemma 3 12B config says 256, which is not every Gemma's: the 27B models use 128 (their published
    # configs), so the text names the model
    words = (("64 or 128", "Phi-3-mini 96", "Gemma 3 12B 256") if lang == "en"
             else ("64 或 128", "Phi-3-mini 是 96", "Gemma 3 12B 是 256"))
    assert all(w in text for w in words), text
    assert ("Gemma 256" if lang == "en" else "Gemma 是 256") not in text


@pytest.mark.parametrize("lang", LANGS)
def test_one_sign_note_on_both_pages_and_it_is_true(lang):
    note = catalog()["sin.sign_note"][lang]
    at = pt.page("rope", lang=lang).run()
    pt.ok(at)
    assert note in [c.value for c in at.caption]
    assert 't("sin.sign_note")' in (ROOT / "app_pages" / "sinusoidal.py").read_text()  # the same key there
    # the claim, both conventions advance the pair's angle by +k*w: tests/test_sinusoidal.py (written-out matrices)
