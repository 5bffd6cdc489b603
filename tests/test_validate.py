"""embedviz/_validate.py: a choice is refused in one voice wherever it is checked, naming every allowed value."""
from __future__ import annotations

import re

import pytest

from embedviz import encodings
from embedviz.lessons import tours
from embedviz.positions import attention
from embedviz.rope import context_extension, rotary, layers as rope_layers
from embedviz.training import experiment
from embedviz import _validate
from embedviz._validate import one_of
from embedviz.errors import InputError
from tests.input_errors import raises_input


def test_one_of_returns_the_value_and_lists_the_choices_as_code_writes_them():
    assert one_of("pairing", "half", ("half", "interleaved")) == "half"
    with raises_input("one_of", name="pairing", value="gptj", allowed="'half', 'interleaved'") as info:
        one_of("pairing", "gptj", ("half", "interleaved"))
    assert str(info.value) == "pairing ('gptj') must be one of 'half', 'interleaved'"


def test_one_of_takes_a_dicts_keys_and_refuses_what_cannot_be_looked_up():
    with raises_input("one_of", name="tour", value=["000"], allowed="'a', 'b'"):
        one_of("tour", ["000"], {"a": 1, "b": 2})


CHOICES = {
    "pairing": lambda: rotary.pair_dimensions(8, pairing="gptj"),
    "tour": lambda: tours.step("nope", 1),
    "tokens": lambda: experiment.train_on_text("abab", tokens="word"),
    "optimizer": lambda: experiment.train_on_text("abab", optimizer="rmsprop"),
    "method": lambda: context_extension.build_scaling("ntk", factor=2.0, original_max_position_embeddings=4_096),
    "positions": lambda: attention.word_order_demo("a b", positions="rope"),
    "scheme": lambda: encodings.position_vectors("fourier", [0, 1], 8),
    "model": lambda: rope_layers.published_config("GPT-5"),
}


@pytest.mark.parametrize("name", sorted(CHOICES))
def test_every_choice_of_the_core_reads_the_same_way(name):
    """Once worded three ways ("one of: a, b", "one of ['adam', 'sgd']", "one of a, b"): now each allowed value
    is quoted as code writes it."""
    with raises_input("one_of", name=name) as info:
        CHOICES[name]()
    assert re.fullmatch(r"'[^']*'(, '[^']*')*", info.value.params["allowed"]), info.value


def test_about_names_the_rule_without_changing_the_condition():
    """One condition, one code: a config's rope_type is named after it, the code and other params unchanged."""
    from embedviz._validate import finite_float
    from embedviz.rope.scaling import compute

    with raises_input("above", name="beta_fast", value=-1.0, limit=0) as plain:
        finite_float("beta_fast", -1.0, greater_than=0)
    with raises_input("above", name="beta_fast", value=-1.0, limit=0, about="rope_type 'yarn'") as scaled:
        compute(64, 1e4, {"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 64,
                          "beta_fast": -1.0})
    assert "about" not in plain.value.params
    assert str(scaled.value) == str(plain.value) + " for rope_type 'yarn'"


SCALING_RULES = {  # the scaling methods' rules, each the plain check's code with the rope_type named
    "number": {"rope_type": "linear", "factor": "4"},
    "at_least": {"rope_type": "linear", "factor": 0.5},
    "missing": {"rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 64},
    "boolean": {"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 64, "truncate": "no"},
    "interval": {"rope_type": "proportional", "partial_rotary_factor": 1.5},
}


@pytest.mark.parametrize("code", sorted(SCALING_RULES))
def test_every_scaling_rule_reads_like_the_plain_check(code):
    from embedviz.rope.scaling import compute

    scaling = SCALING_RULES[code]
    with raises_input(code, about=f"rope_type '{scaling['rope_type']}'") as info:
        compute(64, 1e4, scaling)
    assert str(info.value).endswith(f" for rope_type '{scaling['rope_type']}'")


@pytest.mark.parametrize("raw, expected", [("4", 4), ("0004", 4), ("0", 0), ("000", 0), ("999999", 999_999),
                                           ("1000000", None), ("0" * 5_000 + "7", 7), ("9" * 5_000, None)])
def test_a_link_number_is_ascii_digits_read_as_int_would(raw, expected):
    assert _validate.link_number("step", raw, max_digits=6) == expected
    if expected is not None and len(raw) < 4_300:  # past that int() refuses to read it at all
        assert expected == int(raw)  # the oracle: Python's own reading of ASCII digits


@pytest.mark.parametrize("raw", ["²", "①", "٣", "３", "1²", "", " 4", "4 ", "+4", "-4", "4.0", "1_000", None, 4])
def test_anything_but_ascii_digits_is_no_link_number(raw):
    """str.isdigit() holds for the first five; int() refuses "²" and "①" and reads "٣" and "３" as 3."""
    with pytest.raises(InputError) as e:
        _validate.link_number("step", raw, max_digits=6)
    assert e.value.code == "whole_number"
