"""Core ValueErrors shown to a Chinese reader: each known kind, raised by the real core call, comes out in Chinese
with its parameter names and values kept; the English reader sees the core's own message."""
from __future__ import annotations

import io
import re
from types import SimpleNamespace
from unittest import mock

import numpy as np
import pytest
import safetensors.numpy
import streamlit as st

from embedviz import (_validate, attention, context_extension, lookup, raw_ids, rope, rope_config, rope_layers,
                      rope_scaling, rope_theory, tensor_files, tours, training)
from embedviz.app import context_view, real_model_view, tokens_view, tour
from embedviz.app.errors import PATTERNS, localized
from embedviz.app.i18n import catalog
from embedviz.app.markup import escape
from embedviz.embeddings import LearnedPositionalEmbedding, embed_text
from embedviz.pretrained import load_bundled_model
from tests.app import pagetest as pt

_HAN = re.compile(r"[\u4e00-\u9fff]")


_BASE = {"rope_theta": 1e4, "max_position_embeddings": 8, "head_dim": 8}


def _npy(array) -> bytes:
    out = io.BytesIO()
    np.save(out, array)
    return out.getvalue()


def _scaling(rope_type: str, **params):
    return lambda: rope_config.from_config({**_BASE, "rope_scaling": {"rope_type": rope_type, **params}})


_YARN = {"factor": 2}
_LONGROPE = {"factor": 2, "original_max_position_embeddings": 4, "short_factor": [1] * 4, "long_factor": [1] * 4}
_LAYERS = {**_BASE, "num_hidden_layers": 2}
_PER_TYPE = {**_LAYERS, "rope_parameters": {"full_attention": {"rope_theta": 1e4}}}


def _upload(data: bytes, size: int | None = None) -> None:
    """The context-extension page's upload of a config.json (its session state kept apart from other tests)."""
    upload = SimpleNamespace(name="config.json", size=len(data) if size is None else size, file_id="f",
                             getvalue=lambda: data)
    with mock.patch.object(st, "session_state", {}):
        context_view.take_upload(upload)


def _tour_panel(step: str) -> None:
    """The tour panel's check of a URL's step, the error raised instead of shown."""
    def reraise(error):
        raise error

    with mock.patch.object(st, "query_params", {"tour": "000", "step": step}), \
            mock.patch.object(tour, "show_error", reraise):
        tour.panel(None, {})


def _message(call) -> str:
    with pytest.raises(ValueError) as info:
        call()
    return str(info.value)


CALLS = {
    "err.integer": lambda: _validate.positive_int("d_model", 2.5),
    "err.at_least": lambda: _validate.positive_int("d_model", 0),
    "err.one_pair": lambda: context_extension.theta_for_context(2, 4_096),
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
    # the rest a reader can reach: a pasted config.json's numbers, methods and layers, the base scan, the
    # context-extension page's upload and link, the token lessons, the word map and a tour's URL
    "err.at_most": lambda: rope_layers.num_layers_of({"num_hidden_layers": 5_000}),
    "err.huge_at_most": lambda: rope_config.from_config({**_BASE, "max_position_embeddings": 10**400}),
    "err.huge_finite": lambda: rope_config.from_config({**_BASE, "rope_theta": 10**400}),
    "err.partial_factor": lambda: rope_config.from_config({**_BASE, "partial_rotary_factor": 1.5}),
    "err.partial_factor_type": lambda: rope_scaling.compute(8, 1e4, {"rope_type": "proportional",
                                                                     "partial_rotary_factor": 1.5}),
    "err.rotary_dim": lambda: rope.rotary_dim(8, 0.1),
    "err.beta_order": _scaling("yarn", **_YARN, beta_fast=1, beta_slow=2),
    "err.truncate": _scaling("yarn", **_YARN, truncate="yes"),
    "err.beta_large": _scaling("yarn", **_YARN, beta_fast=1e308),
    "err.llama3_order": _scaling("llama3", factor=2, original_max_position_embeddings=4, low_freq_factor=4,
                                 high_freq_factor=1),
    "err.pair_factors_count": _scaling("longrope", **{**_LONGROPE, "short_factor": [1]}),
    "err.pair_factors_list": _scaling("longrope", **{**_LONGROPE, "long_factor": "1, 1, 1, 1"}),
    "err.pair_factors_flat": _scaling("longrope", **{**_LONGROPE, "short_factor": [[1, 1]] * 4}),
    "err.pair_factors_positive": _scaling("longrope", **{**_LONGROPE, "long_factor": [1, 1, 1, 0]}),
    "err.layer_flags": lambda: rope_layers.rope_layer_flags({**_LAYERS, "no_rope_layers": "x"}),
    "err.layer_flags_count": lambda: rope_layers.rope_layer_flags({**_LAYERS, "no_rope_layers": [1]}),
    "err.no_layer_count": lambda: rope_layers.layer_plan(_BASE),
    "err.layer_types_list": lambda: rope_layers.layer_plan({**_LAYERS, "layer_types": [1, 2]}),
    "err.layer_types_count": lambda: rope_layers.layer_plan({**_LAYERS, "layer_types": ["full_attention"]}),
    "err.per_layer_config": lambda: rope_layers.layer_plan(
        {**_PER_TYPE, "layer_types": ["full_attention"] * 2, "per_layer_config": "x"}),
    "err.per_layer_key": lambda: rope_layers.layer_plan(
        {**_PER_TYPE, "layer_types": ["full_attention"] * 2, "per_layer_config": {"9": {"head_dim": 16}}}),
    "err.per_layer_no_types": lambda: rope_layers.layer_plan(_PER_TYPE),
    "err.per_layer_missing": lambda: rope_layers.layer_plan(
        {**_PER_TYPE, "layer_types": ["full_attention", "sliding_attention"]}),
    "err.mrope_list": lambda: rope_layers.mrope_sections("x", 4),
    "err.mrope_sum": lambda: rope_layers.mrope_sections([1, 1], 4),
    "err.scan_length": lambda: rope_theory.base_lower_bound(rope_theory.MAX_SCAN_LENGTH + 1),
    "err.no_base": lambda: rope_theory.base_lower_bound(1_024, 4, max_base=3.0),
    "err.proportional_only": lambda: context_extension.extension_settings(
        {**_BASE, "rope_parameters": {"full_attention": {"rope_type": "proportional", "rope_theta": 1e4}}}),
    "err.proportional_layout": lambda: context_extension.extension_settings(
        {**_BASE, "rope_scaling": {"rope_type": "proportional"}}),
    "err.config_upload_size": lambda: _upload(b"{}", size=10**9),
    "err.not_utf8": lambda: _upload(b'{"a": "\xff"}'),
    "err.link_damaged": lambda: context_view.decode_config("!!!!"),
    "err.one_of": lambda: tours.step("nope", 1),
    "err.family_unread": lambda: rope_layers.layer_plan({**_BASE, "model_type": "jetmoe"}),
    "err.rope_type_unknown": lambda: rope_config.from_config({**_BASE, "rope_scaling": {"rope_type": 0}}),
    "err.tour_step": lambda: tours.step("000", 99),
    "err.whole_number": lambda: _tour_panel("two"),
    "err.empty_text": lambda: embed_text(""),
    "err.empty_ids": lambda: lookup.compare_lookups([], np.eye(4)),
    "err.char_bytes": lambda: raw_ids.byte_id_neighbours("猫"),
    "err.other_id": lambda: raw_ids.cosine_rank(np.eye(4), 1, 1),
    "err.groups_empty": lambda: training.train_group_experiment(groups=(), steps=1),
    "err.groups_total": lambda: training.train_group_experiment(
        groups=tuple("".join(chr(0x4E00 + 100 * g + i) for i in range(100)) for g in range(3)), steps=1),
    "err.word_list_long": lambda: real_model_view.word_map(
        "\n".join(f"w{i}" for i in range(real_model_view.MAX_WORDS + 1))),
    "err.word_list_short": lambda: real_model_view.word_map("cat"),
}
# other raise sites of a kind (the same words from another function)
MORE_CALLS = [
    ("err.scaling_missing", lambda: rope_scaling.ROPE_INIT_FUNCTIONS["linear"](8, 1e4, {})),  # a method's own check
    ("err.partial_factor", lambda: rope.rotary_dim(8, 1.5)),
    ("err.pair_factors_flat", _scaling("longrope", **{**_LONGROPE, "short_factor": [[1], [1, 2], 1, 1]})),
    ("err.pair_factors_list", _scaling("longrope", **{**_LONGROPE, "short_factor": 5})),
    ("err.empty_text", lambda: tokens_view.lookup_view("", 8, "gpt2", 0)),
    ("err.one_of", lambda: context_view._settings("nope", "")),
]
CASES = sorted(CALLS.items()) + MORE_CALLS


@pytest.mark.parametrize(("key", "call"), CASES, ids=[key for key, _ in CASES])
def test_each_kind_of_core_error_reads_in_chinese(key, call):
    message = _message(call)
    matched = [k for pattern, k in PATTERNS if pattern.match(message)]
    assert matched[:1] == [key], message
    zh = localized(message, "zh")
    assert _HAN.search(zh) and "must" not in zh and "untranslated" not in zh, zh
    # English readers see the core's own words, with only what could open markup escaped
    assert localized(message, "en") == escape(message)
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
