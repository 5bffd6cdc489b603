"""Core ValueErrors shown to a Chinese reader: each known kind, raised by the real core call, comes out in Chinese
with its parameter names and values kept; the English reader sees the core's own message."""
from __future__ import annotations

import io
import re

import numpy as np
import pytest
import safetensors.numpy

from embedviz import _validate, attention, lookup, rope, rope_config, tensor_files, training
from embedviz.app.errors import PATTERNS, localized
from embedviz.app.i18n import catalog
from embedviz.embeddings import LearnedPositionalEmbedding
from embedviz.pretrained import load_bundled_model
from tests.app import pagetest as pt

_HAN = re.compile(r"[\u4e00-\u9fff]")


_BASE = {"rope_theta": 1e4, "max_position_embeddings": 8, "head_dim": 8}


def _npy(array) -> bytes:
    out = io.BytesIO()
    np.save(out, array)
    return out.getvalue()


def _message(call) -> str:
    with pytest.raises(ValueError) as info:
        call()
    return str(info.value)


CALLS = {
    "err.integer": lambda: _validate.positive_int("d_model", 2.5),
    "err.at_least": lambda: _validate.positive_int("d_model", 0),
    "err.above": lambda: rope.inverse_frequencies(8, 0.5),
    "err.finite": lambda: rope.inverse_frequencies(8, float("nan")),
    "err.even": lambda: rope.inverse_frequencies(7),
    "err.non_finite": lambda: rope.decay_curve(8, 10_000, [1, np.inf]),
    "err.too_few_tokens": lambda: attention.word_order_demo("hello"),
    "err.shuffle_tokens": lambda: attention.word_order_demo("a b c", shuffle="typed", shuffled_text="a b d"),
    "err.word_unknown": lambda: load_bundled_model().token_id("猫"),
    "err.word_pieces": lambda: load_bundled_model().token_id("unbelievably"),
    "err.config_missing": lambda: rope_config.from_config({"rope_theta": 1e4, "head_dim": 8}),
    "err.config_no_theta": lambda: rope_config.from_config({"max_position_embeddings": 8, "head_dim": 8}),
    "err.config_empty": lambda: rope_config.parse_config_json(""),
    "err.config_json": lambda: rope_config.parse_config_json("{"),
    "err.group_small": lambda: training.train_group_experiment(groups=("a", "ABC"), steps=1),
    "err.group_shared": lambda: training.train_group_experiment(groups=("abc", "cde"), steps=1),
    "err.too_long": lambda: LearnedPositionalEmbedding(4, 8)(5),
    # added with the catalog-wide check of Chinese words: the messages a reader can reach by typing, pasting a
    # config.json or uploading a table (before, they came in English under the "only in English" lead-in)
    "err.non_empty": lambda: load_bundled_model().token_id(""),
    "err.chars": lambda: training.train_on_text("a" * (training.MAX_TEXT_CHARS + 1)),
    "err.next_token": lambda: lookup.gradient_step(np.array([5]), lookup.init_table(256, 8)),
    "err.config_long": lambda: rope_config.parse_config_json("{" + " " * rope_config.MAX_CONFIG_CHARS + "}"),
    "err.config_not_object": lambda: rope_config.parse_config_json("[1]"),
    "err.config_deep": lambda: rope_config.parse_config_json("[" * 100_000),
    "err.config_digits": lambda: rope_config.parse_config_json('{"a": ' + "9" * 5_000 + "}"),
    "err.config_no_head": lambda: rope_config.from_config({"rope_theta": 1e4, "max_position_embeddings": 8}),
    "err.divisible": lambda: rope_config.from_config({"rope_theta": 1e4, "max_position_embeddings": 8,
                                                     "hidden_size": 10, "num_attention_heads": 3}),
    "err.scaling_factor": lambda: rope_config.from_config({**_BASE, "rope_scaling": {"rope_type": "linear", "factor": 0.5}}),
    "err.scaling_missing": lambda: rope_config.from_config({**_BASE, "rope_scaling": {"rope_type": "linear"}}),
    "err.scaling_positive": lambda: rope_config.from_config(
        {**_BASE, "rope_scaling": {"rope_type": "yarn", "factor": 2, "beta_fast": -1}}),
    "err.scaling_finite": lambda: rope_config.from_config(
        {**_BASE, "rope_scaling": {"rope_type": "yarn", "factor": 2, "beta_fast": "x"}}),
    "err.file_suffix": lambda: tensor_files.read_upload(b"x", "table.pt"),
    "err.file_size": lambda: tensor_files.read_upload(b"x" * 10, "table.npy", max_bytes=5),
    "err.file_empty": lambda: tensor_files.read_upload(b"", "table.npy"),
    "err.file_no_tensors": lambda: tensor_files.read_upload((2).to_bytes(8, "little") + b"{}", "table.safetensors"),
    "err.table_2d": lambda: tensor_files.read_upload(_npy(np.ones(4)), "table.npy"),
    "err.table_rows": lambda: tensor_files.read_upload(_npy(np.ones((1, 4))), "table.npy"),
    "err.table_non_finite": lambda: tensor_files.read_upload(_npy(np.array([[1.0, np.nan], [0.0, 1.0]])), "table.npy"),
    # the rest of what an upload or a pasted config.json can meet
    "err.table_columns": lambda: tensor_files.read_upload(_npy(np.ones((3, 0))), "table.npy"),
    "err.table_too_big": lambda: tensor_files.read_upload(_npy(np.ones((4, 4))), "table.npy", max_elements=10),
    "err.table_dtype": lambda: tensor_files.read_upload(_npy(np.ones((2, 2), dtype=bool)), "table.npy"),
    "err.tensor_dtype": lambda: tensor_files.read_upload(
        safetensors.numpy.save({"w": np.ones((2, 2), dtype=bool)}), "table.safetensors"),
    "err.npy_header": lambda: tensor_files.read_upload(b"\x93NUMPY\x01\x00garbage", "table.npy"),
    "err.npy_corrupt": lambda: tensor_files.read_upload(_npy(np.ones((4, 4)))[:-8], "table.npy"),
    "err.npy_objects": lambda: tensor_files.read_upload(_npy(np.array([[1, "a"], [2, "b"]], dtype=object)),
                                                        "table.npy"),
    "err.safetensors_invalid": lambda: tensor_files.read_upload(b"not a safetensors file", "table.safetensors"),
    "err.several_tensors": lambda: tensor_files.read_upload(
        safetensors.numpy.save({"a": np.ones((2, 2), np.float32), "b": np.ones((3, 2), np.float32)}),
        "table.safetensors"),
    "err.scaling_not_dict": lambda: rope_config.from_config({**_BASE, "rope_scaling": [1]}),
    "err.scaling_nested": lambda: rope_config.from_config(
        {**_BASE, "rope_scaling": {"rope_type": "linear", "factor": {"a": 1}}}),
    "err.factor_past": lambda: rope_config.from_config(
        {**_BASE, "rope_scaling": {"rope_type": "linear", "factor": 1e30}}),
    "err.layer_type": lambda: rope_config.from_config({**_BASE, "rope_parameters": {"full": {"rope_theta": 1e4}}},
                                                      layer_type="sliding"),
    "err.per_layer": lambda: rope_config.from_config({**_BASE, "rope_parameters": {"full": {"rope_theta": 1e4}}}),
}


@pytest.mark.parametrize("key", sorted(CALLS))
def test_each_kind_of_core_error_reads_in_chinese(key):
    message = _message(CALLS[key])
    matched = [k for pattern, k in PATTERNS if pattern.match(message)]
    assert matched[:1] == [key], message
    zh = localized(message, "zh")
    assert _HAN.search(zh) and "must" not in zh and "untranslated" not in zh, zh
    assert localized(message, "en") == message  # English readers see the core's own words
    # the English template of the kind reproduces the core's message from the same groups
    groups = next(p for p, k in PATTERNS if k == key).match(message).groupdict()
    assert catalog()[key]["en"].format(**groups) == message


def test_an_unknown_message_is_kept_under_a_chinese_lead_in():
    zh = localized("something new went wrong", "zh")
    assert zh.endswith("something new went wrong") and _HAN.search(zh)


def test_the_page_shows_the_error_in_chinese():
    at = pt.page("why_position", lang="zh").run()
    at.text_input(key="why_text").set_value("hello").run()
    assert not at.exception
    assert [e.value for e in at.error] == ["无法显示：这段文字只有 1 个 token；至少需要 2 个才能调换顺序"]
