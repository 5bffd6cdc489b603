"""Tests for embedviz.rope.theta_calculator: the rope_theta a context needs, worked by hand for small heads, as a
property of the turns it bounds, and beside real models' published choices."""
from __future__ import annotations

import math

import numpy as np
import pytest

from embedviz.models.params import PRESETS
from embedviz.rope.rotary import turns_within
from embedviz.rope.scaling import compute
from embedviz.rope.theta_calculator import slow_pair_count, theta_calculator, theta_for_context, theta_for_context_latex
from tests.input_errors import raises_input
from tests.test_rope_scaling import HEAD_DIMS, default_inv_freq


@pytest.mark.parametrize("head_dim", HEAD_DIMS)
@pytest.mark.parametrize("context_length", [4096, 32768, 131072])
@pytest.mark.parametrize("max_turns", [0.5, 1.0, 3.0])
def test_theta_for_context_slowest_pair_makes_max_turns(head_dim, context_length, max_turns):
    theta = theta_for_context(head_dim, context_length, max_turns=max_turns)
    # theta >= (L / (2 pi * max_turns))^(d / (d - 2)), and the slowest pair then turns exactly max_turns times
    assert theta == pytest.approx((context_length / (2 * math.pi * max_turns)) ** (head_dim / (head_dim - 2)))
    inv_freq, _ = compute(head_dim, theta, None)
    assert turns_within(inv_freq, context_length)[-1] == pytest.approx(max_turns, rel=1e-9)
    # a slightly smaller theta lets the slowest pair turn more than max_turns times
    smaller, _ = compute(head_dim, theta * 0.99, None)
    assert turns_within(smaller, context_length)[-1] > max_turns


def test_theta_for_context_hand_numbers_and_errors():
    # d=4: theta = (L / (2 pi * turns))^2; L=2000, 2 turns -> (2000 / (4 pi))^2 = 25_330.3
    assert theta_for_context(4, 2000, max_turns=2.0) == pytest.approx((2000 / (4 * math.pi)) ** 2)
    assert theta_for_context(4, 2000, max_turns=2.0) == pytest.approx(25_330.3, abs=0.1)
    assert theta_for_context(64, 3) == 1.0  # 3 positions never complete a turn
    with raises_input("one_pair", name="head_dim", value=2, limit=4):
        theta_for_context(2, 1000)
    with raises_input("even", name="head_dim", value=5, about="RoPE"):
        theta_for_context(5, 1000)
    with raises_input("above", name="max_turns", value=0, limit=0):
        theta_for_context(64, 1000, max_turns=0.0)
    with raises_input("at_least", name="context_length", value=-5, limit=1):
        theta_for_context(64, -5)


def test_theta_for_context_slow_pairs_hand_numbers_and_property():
    # d=8, k=2: theta = (L / 2 pi)^(8/4); L=2000 -> 318.31^2 = 101_321; then pairs 2 and 3 turn at most once
    theta = theta_for_context(8, 2000, slow_pairs=2)
    assert theta == pytest.approx((2000 / (2 * math.pi)) ** 2) and theta == pytest.approx(101_321.2, abs=0.1)
    turns = [2000 * theta ** (-(2 * j) / 8) / (2 * math.pi) for j in range(4)]  # loop over pairs
    assert turns[2] == pytest.approx(1.0) and turns[3] < 1.0 and turns[1] > 1.0
    assert theta_for_context(128, 8192, slow_pairs=1) == theta_for_context(128, 8192)
    # a bigger k always needs a bigger theta, and gives exactly k pairs under one turn (just above the bound)
    previous = 0.0
    for k in (1, 2, 8, 32, 63):
        theta = theta_for_context(128, 32768, slow_pairs=k)
        assert theta > previous
        previous = theta
        inv_freq = np.array([(theta * 1.001) ** (-(2 * j) / 128) for j in range(64)])
        assert slow_pair_count(inv_freq, 32768) == k
    with raises_input("slow_pairs", value=64, limit=63, head_dim=128):
        theta_for_context(128, 32768, slow_pairs=64)
    with raises_input("at_least", name="slow_pairs", value=0, limit=1):
        theta_for_context(128, 32768, slow_pairs=0)


def test_slow_pair_count_real_models_by_hand():
    # pair i turns less than once in L tokens when 2 pi theta^(i/64) > L, i.e. i > 64 ln(L / 2 pi) / ln(theta)
    for theta, length, expected in ((500_000, 8192, 29), (1_000_000, 32768, 24), (10_000, 4096, 18)):
        first = 64 * math.log(length / (2 * math.pi)) / math.log(theta)
        assert 64 - math.ceil(first) == expected
        assert slow_pair_count(default_inv_freq(128, theta), length) == expected
    assert slow_pair_count([1.0, 0.1, 0.01, 0.001], 6283, max_turns=0.5) == 0
    assert slow_pair_count([1.0, 0.1, 0.01, 0.001], 6283, max_turns=2.0) == 1


def test_theta_calculator_rows_and_clamp():
    models = {"Llama 3": PRESETS["Llama-3.1-8B"], "Qwen3": PRESETS["Qwen3-0.6B (YaRN 128K)"]}
    calc = theta_calculator(128, 8192, 1, models)
    assert calc.theta == calc.one_turn == theta_for_context(128, 8192) and not calc.clamped
    llama, qwen = calc.rows
    # trained lengths: the rope_scaling's original (8,192 and 32,768); slow pairs counted by hand in
    # test_slow_pair_count_real_models_by_hand: 29 / 64 and 24 / 64
    assert (llama.model, llama.trained, llama.slow, llama.pairs) == ("Llama 3", 8192, 29, 64)
    assert (qwen.trained, qwen.slow, qwen.theta) == (32768, 24, 1_000_000.0)
    small = theta_calculator(8, 1000, 32, models)  # a head of 4 pairs has at most 3 slow pairs to ask for
    assert small.k == 3 and small.clamped and small.theta == theta_for_context(8, 1000, slow_pairs=3)


def test_theta_for_context_latex():
    latex = theta_for_context_latex(128, 32768, 2, 123_456.7)
    assert r"\frac{32{,}768}{2\pi}" in latex and r"\frac{128}{124}" in latex and latex.endswith("123{,}457")
