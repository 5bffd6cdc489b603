"""Core refusals shown to a Chinese reader: each code, raised by the real core call, comes out in Chinese with its
parameter names and values kept; the English reader sees the core's own message. Every code the core raises has a
Chinese text with the same placeholders, and every raise site names a known code with all its template's fields
(found by reading the source, so a new raise site is checked before any test calls it)."""
from __future__ import annotations

import ast
import io
import pathlib
import pickle
import re
import string
import tempfile
from types import SimpleNamespace
from unittest import mock

import numpy as np
import pytest
import safetensors.numpy
import streamlit as st

from embedviz import _validate
from embedviz.lessons import tours
from embedviz.positions import attention
from embedviz.input_layer import composition, lookup
from embedviz.rope import (
    context_extension, rotary, config as rope_config, layers as rope_layers, scaling as rope_scaling,
    theory as rope_theory, theta_calculator, vision as rope_vision,
)
from embedviz.models import params, tensor_files, word_vectors
from embedviz.language_model import extension as lm_extension, glass
from embedviz.tokens import raw_ids, tokenizer
from embedviz.training import experiment
from embedviz.app import context_extension_view, real_model_view, rope_view, token_embeddings_view, tour
from embedviz.app.errors import localized
from embedviz.app.i18n import catalog
from embedviz.app.locales.err import ZH
from embedviz.app.markup import escape
from embedviz.input_layer.embeddings import LearnedPositionalEmbedding, embed_text
from embedviz.errors import TEMPLATES, InputError
from embedviz.models.pretrained import load_bundled_model, load_embedding_file, load_model_dir
from embedviz.lessons.widget_keys import WhyPosition as K
from tests.app import pagetest as pt
from tests.conftest import ROOT

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
        context_extension_view.take_upload(upload)


def _tour_panel(step: str) -> None:
    """The tour panel's check of a URL's step, the error raised instead of shown."""
    def reraise(error):
        raise error

    with mock.patch.object(st, "query_params", {"tour": "000", "step": step}), \
            mock.patch.object(tour, "show_error", reraise):
        tour.panel(None, {})


_SCRATCH = tempfile.TemporaryDirectory(prefix="embedviz-model-")  # removed when the test process ends


def _model_dir(**files) -> str:
    """A throwaway local model directory holding ``files`` (name with "." written "_", text or bytes)."""
    directory = pathlib.Path(tempfile.mkdtemp(dir=_SCRATCH.name))
    for name, data in {"config_json": "{}", "tokenizer_json": "{}", **files}.items():
        if data is not None:
            path = directory / name.replace("_json", ".json").replace("_safetensors", ".safetensors").replace(
                "_bin", ".bin").replace("model_safetensors.index", "model.safetensors.index")
            path.write_bytes(data) if isinstance(data, bytes) else path.write_text(data)
    return str(directory)


_TABLE = safetensors.numpy.save({"wte.weight": np.ones((4, 2), np.float32)})


def _raised(call) -> InputError:
    with pytest.raises(InputError) as info:
        call()
    return info.value


CALLS = {
    "integer": lambda: _validate.positive_int("d_model", 2.5),
    "at_least": lambda: _validate.positive_int("d_model", 0),
    "one_pair": lambda: theta_calculator.theta_for_context(2, 4_096),
    "above": lambda: rotary.inverse_frequencies(8, 0.5),
    "finite": lambda: rotary.inverse_frequencies(8, float("nan")),
    "even": lambda: rotary.inverse_frequencies(7),
    "non_finite": lambda: rotary.decay_curve(8, 10_000, [1, np.inf]),
    "too_few_tokens": lambda: attention.word_order_demo("hello"),
    "shuffle_tokens": lambda: attention.word_order_demo("a b c", shuffle="typed", shuffled_text="a b d"),
    "word_unknown": lambda: load_bundled_model().token_id("猫"),
    "word_pieces": lambda: load_bundled_model().token_id("unbelievably"),
    "missing": lambda: rope_config.from_config({"rope_theta": 1e4, "head_dim": 8}),
    "config_no_theta": lambda: rope_config.from_config({"max_position_embeddings": 8, "head_dim": 8}),
    "config_empty": lambda: rope_config.parse_config_json(""),
    "config_json": lambda: rope_config.parse_config_json("{"),
    "group_small": lambda: experiment.train_group_experiment(groups=("a", "ABC"), steps=1),
    "group_shared": lambda: experiment.train_group_experiment(groups=("abc", "cde"), steps=1),
    "too_long": lambda: LearnedPositionalEmbedding(4, 8)(5),
    # added with the catalog-wide check of Chinese words: the messages a reader can reach by typing, pasting a
    # config.json or uploading a table (before, they came in English under the "only in English" lead-in)
    "non_empty": lambda: load_bundled_model().token_id(""),
    "chars": lambda: experiment.train_on_text("a" * (experiment.MAX_TEXT_CHARS + 1)),
    "next_token": lambda: lookup.gradient_step(np.array([5]), lookup.init_table(256, 8)),
    "config_long": lambda: rope_config.parse_config_json("{" + " " * rope_config.MAX_CONFIG_CHARS + "}"),
    "config_not_object": lambda: rope_config.parse_config_json("[1]"),
    "config_deep": lambda: rope_config.parse_config_json("[" * 100_000),
    "config_digits": lambda: rope_config.parse_config_json('{"a": ' + "9" * 5_000 + "}"),
    "config_no_head": lambda: rope_config.from_config({"rope_theta": 1e4, "max_position_embeddings": 8}),
    "divisible": lambda: rope_config.from_config({"rope_theta": 1e4, "max_position_embeddings": 8,
                                                     "hidden_size": 10, "num_attention_heads": 3}),
    "file_suffix": lambda: tensor_files.read_upload(b"x", "table.pt"),
    "file_size": lambda: tensor_files.read_upload(b"x" * 10, "table.npy", max_bytes=5),
    "file_empty": lambda: tensor_files.read_upload(b"", "table.npy"),
    "file_no_tensors": lambda: tensor_files.read_upload((2).to_bytes(8, "little") + b"{}", "table.safetensors"),
    "table_2d": lambda: tensor_files.read_upload(_npy(np.ones(4)), "table.npy"),
    "table_rows": lambda: tensor_files.read_upload(_npy(np.ones((1, 4))), "table.npy"),
    "table_non_finite": lambda: tensor_files.read_upload(_npy(np.array([[1.0, np.nan], [0.0, 1.0]])), "table.npy"),
    # the rest of what an upload or a pasted config.json can meet
    "table_columns": lambda: tensor_files.read_upload(_npy(np.ones((3, 0))), "table.npy"),
    "table_too_big": lambda: tensor_files.read_upload(_npy(np.ones((4, 4))), "table.npy", max_elements=10),
    "table_dtype": lambda: tensor_files.read_upload(_npy(np.ones((2, 2), dtype=bool)), "table.npy"),
    "tensor_dtype": lambda: tensor_files.read_upload(
        safetensors.numpy.save({"w": np.ones((2, 2), dtype=bool)}), "table.safetensors"),
    "npy_header": lambda: tensor_files.read_upload(b"\x93NUMPY\x01\x00garbage", "table.npy"),
    "npy_corrupt": lambda: tensor_files.read_upload(_npy(np.ones((4, 4)))[:-8], "table.npy"),
    "npy_objects": lambda: tensor_files.read_upload(_npy(np.array([[1, "a"], [2, "b"]], dtype=object)),
                                                        "table.npy"),
    "safetensors_invalid": lambda: tensor_files.read_upload(b"not a safetensors file", "table.safetensors"),
    "several_tensors": lambda: tensor_files.read_upload(
        safetensors.numpy.save({"a": np.ones((2, 2), np.float32), "b": np.ones((3, 2), np.float32)}),
        "table.safetensors"),
    "scaling_not_dict": lambda: rope_config.from_config({**_BASE, "rope_scaling": [1]}),
    "scaling_nested": lambda: rope_config.from_config(
        {**_BASE, "rope_scaling": {"rope_type": "linear", "factor": {"a": 1}}}),
    "factor_past": lambda: rope_config.from_config(
        {**_BASE, "rope_scaling": {"rope_type": "linear", "factor": 1e30}}),
    "layer_type": lambda: rope_config.from_config({**_BASE, "rope_parameters": {"full": {"rope_theta": 1e4}}},
                                                      layer_type="sliding"),
    "per_layer": lambda: rope_config.from_config({**_BASE, "rope_parameters": {"full": {"rope_theta": 1e4}}}),
    # the rest a reader can reach: a pasted config.json's numbers, methods and layers, the base scan, the
    # context-extension page's upload and link, the token lessons, the word map and a tour's URL
    "at_most": lambda: rope_layers.num_layers_of({"num_hidden_layers": 5_000}),
    "huge_at_most": lambda: rope_config.from_config({**_BASE, "max_position_embeddings": 10**400}),
    "huge_finite": lambda: rope_config.from_config({**_BASE, "rope_theta": 10**400}),
    "interval": lambda: rope_config.from_config({**_BASE, "partial_rotary_factor": 1.5}),
    "rotary_dim": lambda: rotary.rotary_dim(8, 0.1),
    "beta_order": _scaling("yarn", **_YARN, beta_fast=1, beta_slow=2),
    "beta_large": _scaling("yarn", **_YARN, beta_fast=1e308),
    "llama3_order": _scaling("llama3", factor=2, original_max_position_embeddings=4, low_freq_factor=4,
                                 high_freq_factor=1),
    "pair_factors_count": _scaling("longrope", **{**_LONGROPE, "short_factor": [1]}),
    "pair_factors_list": _scaling("longrope", **{**_LONGROPE, "long_factor": "1, 1, 1, 1"}),
    "pair_factors_flat": _scaling("longrope", **{**_LONGROPE, "short_factor": [[1, 1]] * 4}),
    "positive_entries": _scaling("longrope", **{**_LONGROPE, "long_factor": [1, 1, 1, 0]}),
    "string": lambda: experiment.train_on_text(b"bytes"),
    "string_list": lambda: experiment.train_group_experiment(groups="abc", steps=1),
    "layer_flags": lambda: rope_layers.rope_layer_flags({**_LAYERS, "no_rope_layers": "x"}),
    "layer_flags_count": lambda: rope_layers.rope_layer_flags({**_LAYERS, "no_rope_layers": [1]}),
    "no_layer_count": lambda: rope_layers.layer_plan(_BASE),
    "layer_types_list": lambda: rope_layers.layer_plan({**_LAYERS, "layer_types": [1, 2]}),
    "layer_types_count": lambda: rope_layers.layer_plan({**_LAYERS, "layer_types": ["full_attention"]}),
    "per_layer_config": lambda: rope_layers.layer_plan(
        {**_PER_TYPE, "layer_types": ["full_attention"] * 2, "per_layer_config": "x"}),
    "per_layer_key": lambda: rope_layers.layer_plan(
        {**_PER_TYPE, "layer_types": ["full_attention"] * 2, "per_layer_config": {"9": {"head_dim": 16}}}),
    "per_layer_no_types": lambda: rope_layers.layer_plan(_PER_TYPE),
    "per_layer_missing": lambda: rope_layers.layer_plan(
        {**_PER_TYPE, "layer_types": ["full_attention", "sliding_attention"]}),
    "mrope_list": lambda: rope_layers.mrope_sections("x", 4),
    "mrope_sum": lambda: rope_layers.mrope_sections([1, 1], 4),
    "scan_length": lambda: rope_theory.base_lower_bound(rope_theory.MAX_SCAN_LENGTH + 1),
    "no_base": lambda: rope_theory.base_lower_bound(1_024, 4, max_base=3.0),
    "proportional_only": lambda: context_extension.extension_settings(
        {**_BASE, "rope_parameters": {"full_attention": {"rope_type": "proportional", "rope_theta": 1e4}}}),
    "proportional_layout": lambda: context_extension.extension_settings(
        {**_BASE, "rope_scaling": {"rope_type": "proportional"}}),
    "config_upload_size": lambda: _upload(b"{}", size=10**9),
    "not_utf8": lambda: _upload(b'{"a": "\xff"}'),
    "link_damaged": lambda: context_extension_view.decode_config("!!!!"),
    "one_of": lambda: tours.step("nope", 1),
    "family_unread": lambda: rope_layers.layer_plan({**_BASE, "model_type": "jetmoe"}),
    "rope_type_unknown": lambda: rope_config.from_config({**_BASE, "rope_scaling": {"rope_type": 0}}),
    "tour_step": lambda: tours.step("000", 99),
    "whole_number": lambda: _tour_panel("two"),
    "empty_text": lambda: embed_text(""),
    "glass_chars": lambda: glass.encode('a "straight" quote'),
    "window_short": lambda: lm_extension.position_losses("A short text.", 128, None),
    "empty_ids": lambda: lookup.compare_lookups([], np.eye(4)),
    "char_bytes": lambda: raw_ids.byte_id_neighbours("猫"),
    "other_id": lambda: raw_ids.cosine_rank(np.eye(4), 1, 1),
    "groups_empty": lambda: experiment.train_group_experiment(groups=(), steps=1),
    "groups_total": lambda: experiment.train_group_experiment(
        groups=tuple("".join(chr(0x4E00 + 100 * g + i) for i in range(100)) for g in range(3)), steps=1),
    "word_list_long": lambda: real_model_view.word_map(
        "\n".join(f"w{i}" for i in range(real_model_view.MAX_WORDS + 1))),
    "word_list_short": lambda: real_model_view.word_map("cat"),
    "bundled_model": lambda: load_bundled_model("no-such-model"),
    "number": lambda: _validate.finite_float("theta", "big"),
    "numeric_array": lambda: _validate.finite_array("offsets", np.array(["a"])),
    "page_range": lambda: context_extension_view._settings(
        context_extension_view.CONFIG, '{"rope_theta": 10000, "max_position_embeddings": 8, "head_dim": 8}'),
    "rows_window": lambda: real_model_view.row_views("sinusoidal", 5, 5),
    "text_distinct": lambda: experiment.train_on_text("aaaa", context_length=1, steps=1),
    "text_short": lambda: experiment.train_on_text("ab", context_length=8, steps=1),
    "token_id": lambda: lookup.compare_lookups([9], np.eye(4)),
    "too_many_tokens": lambda: attention.word_order_demo("a " * (attention.MAX_TOKENS + 1)),
    "boolean": lambda: lookup.gradient_step(np.array([5, 6]), lookup.init_table(256, 8), tied="yes"),
    "text_vocab": lambda: experiment.train_on_text(
        "".join(chr(0x4E00 + i) for i in range(experiment.MAX_TEXT_VOCAB + 1))),
    # what a widget, a link or a typed text can still ask past a page's limits
    "lone_surrogate": lambda: tokenizer.encode("a\ud800"),
    "one_char": lambda: raw_ids.byte_id_neighbours(""),
    "pair_range": lambda: rope_view.pair_view(8, 1e4, 4, 0, 1, 0),
    "rows_cap": lambda: real_model_view.row_views("upload:test", 0, 2_000, _upload=real_model_view.HeldUpload(
        "f", "big.npy", "", (3_000, 4), np.zeros((3_000, 4), np.float32), source="upload:test")),
    "logits_cap": lambda: experiment.train_group_experiment(batch_size=1024, targets_per_row=256, steps=1),
    "snapshot_cap": lambda: experiment.train_group_experiment(steps=5_000, snapshot_every=1),
    "mrope_interleaved": lambda: rope_layers.mrope_sections([2, 2], 4, interleaved=True),
    "row_number": lambda: load_embedding_file(_npy(np.eye(4)), "eye.npy").token_id("cat"),
    "shape_cap": lambda: composition.shape_trace(8, 512, 1024),
    "slow_pairs": lambda: theta_calculator.theta_for_context(8, 4_096, slow_pairs=4),
    "multiple": lambda: rope_vision.axial_frequencies(6, 1e4, "pixtral"),
    "model_dir": lambda: load_model_dir("/nonexistent/embedviz-model"),
    "model_dir_file": lambda: load_model_dir(_model_dir(tokenizer_json=None)),
    "model_config_json": lambda: load_model_dir(_model_dir(config_json="{")),
    "model_config_object": lambda: load_model_dir(_model_dir(config_json="[1]")),
    "no_safetensors": lambda: load_model_dir(_model_dir()),
    "pickle_weights": lambda: load_model_dir(_model_dir(pytorch_model_bin=b"pickle")),
    "safetensors_unreadable": lambda: load_model_dir(_model_dir(model_safetensors=b"\x08" + b"\x00" * 7 + b"{bad")),
    "weight_map": lambda: load_model_dir(_model_dir(**{"model_safetensors.index_json": "{}"})),
    "shards_missing": lambda: load_model_dir(
        _model_dir(**{"model_safetensors.index_json": '{"weight_map": {"wte.weight": "gone.safetensors"}}'})),
    "model_no_table": lambda: load_model_dir(
        _model_dir(model_safetensors=safetensors.numpy.save({"norm.bias": np.ones(3, np.float32)}))),
    "model_tokenizer": lambda: load_model_dir(_model_dir(model_safetensors=_TABLE, tokenizer_json='{"version": "1.0"}')),
    "upload_gone": lambda: real_model_view.row_views("upload:gone", 0, 2),  # a held upload the session lost
    "zero_vector": lambda: word_vectors.nearest_neighbours(
        load_embedding_file(_npy(np.array([[0.0, 0.0], [1.0, 0.0]])), "zero_row.npy").token_embeddings, 0),
}
# other raise sites of a kind (the same words from another function)
MORE_CALLS = [
    ("missing", lambda: rope_scaling.ROPE_INIT_FUNCTIONS["linear"](8, 1e4, {})),  # a method's own check
    ("interval", lambda: rotary.rotary_dim(8, 1.5)),
    # the scaling methods' rules: the plain checks' codes, about the rope_type, read in Chinese with it named
    ("missing", lambda: rope_config.from_config({**_BASE, "rope_scaling": {"rope_type": "linear"}})),
    ("at_least", lambda: rope_config.from_config({**_BASE, "rope_scaling": {"rope_type": "linear", "factor": 0.5}})),
    ("above", lambda: rope_config.from_config(
        {**_BASE, "rope_scaling": {"rope_type": "yarn", "factor": 2, "beta_fast": -1}})),
    ("number", lambda: rope_config.from_config(
        {**_BASE, "rope_scaling": {"rope_type": "yarn", "factor": 2, "beta_fast": "x"}})),
    ("boolean", _scaling("yarn", **_YARN, truncate="yes")),
    ("interval", lambda: rope_scaling.compute(8, 1e4, {"rope_type": "proportional", "partial_rotary_factor": 1.5})),
    ("positive_entries", lambda: rotary.wavelengths([1.0, 0.0])),
    ("string", lambda: load_bundled_model().token_id(3)),
    ("pair_factors_flat", _scaling("longrope", **{**_LONGROPE, "short_factor": [[1], [1, 2], 1, 1]})),
    ("pair_factors_list", _scaling("longrope", **{**_LONGROPE, "short_factor": 5})),
    ("empty_text", lambda: token_embeddings_view.lookup_view("", 8, "gpt2", 0)),
    ("one_of", lambda: context_extension_view._settings("nope", "")),
    ("one_of", lambda: params.preset_share("GPT-5")),
    ("one_of", lambda: rope_layers.published_config("nope")),
    ("integer", lambda: tokenizer.decode([1.5])),
    ("token_id", lambda: tokenizer.decode([256])),
]
CASES = sorted(CALLS.items()) + MORE_CALLS


@pytest.mark.parametrize(("code", "call"), CASES, ids=[code for code, _ in CASES])
def test_each_code_raised_by_the_core_reads_in_chinese(code, call):
    error = _raised(call)
    assert error.code == code, str(error)
    zh = localized(error, "zh")
    assert _HAN.search(zh) and "must" not in zh and "untranslated" not in zh, zh
    if error.params.get("about"):  # the rule's setting is named in Chinese too, after the condition
        assert zh.endswith(f"（{escape(error.params['about'])} 的要求）"), zh
    # English readers see the core's own words, with only what could open markup escaped
    assert localized(error, "en") == escape(str(error))


def test_the_calls_above_reach_every_code():
    assert set(CALLS) == set(TEMPLATES)


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_code_has_a_chinese_text_with_its_placeholders():
    assert set(ZH) == set(TEMPLATES)
    for code, template in TEMPLATES.items():
        assert _fields(ZH[code]) == _fields(template), code
        # the catalog's English is the core's template itself, not a copy that could drift
        assert catalog()[f"err.{code}"]["en"] is template


def _raise_sites():
    """(file:line, code, keyword names or None for **params) of every ``InputError(...)`` call in the app's source."""
    for path in sorted([*ROOT.joinpath("embedviz").rglob("*.py"), *ROOT.joinpath("app_pages").rglob("*.py")]):
        if path.name == "errors.py" and path.parent.name == "embedviz":
            continue  # the class itself (its _rebuild passes the code through)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "InputError":
                first = node.args[0] if node.args else None
                code = first.value if isinstance(first, ast.Constant) else None
                names = None if any(k.arg is None for k in node.keywords) else {k.arg for k in node.keywords}
                yield f"{path.relative_to(ROOT)}:{node.lineno}", code, names


def test_every_raise_site_names_a_known_code_with_its_fields():
    sites = list(_raise_sites())
    assert len(sites) > 100
    for where, code, names in sites:
        assert code in TEMPLATES, f"{where}: code {code!r} (a string literal, in embedviz.errors.TEMPLATES)"
        if names is not None:
            assert _fields(TEMPLATES[code]) <= names, f"{where}: {code} needs {sorted(_fields(TEMPLATES[code]))}"
    # a code no site raises is a template (and a translation) nobody reads
    assert {code for _, code, _ in sites} == set(TEMPLATES)


def test_the_english_keeps_the_house_form_and_the_fields_render_like_it():
    error = InputError("even", name="d_model", value=7, about="RoPE")
    assert str(error) == "d_model (7) must be even for RoPE" and isinstance(error, ValueError)
    assert (error.code, error.params) == ("even", {"name": "d_model", "value": 7, "about": "RoPE"})
    assert str(InputError("even", name="d_model", value=7)) == "d_model (7) must be even"
    size = InputError("file_size", n=12_345, limit=100)
    assert size.fields() == {"n": "12,345", "limit": "100"} and "12,345" in localized(size, "zh")
    assert InputError("one_of", name="mode", value="x", allowed="a, b").fields()["value"] == "'x'"


def test_an_error_survives_the_cache_pickle():
    error = pickle.loads(pickle.dumps(InputError("too_long", context_length=9, limit=8)))
    assert (error.code, error.params) == ("too_long", {"context_length": 9, "limit": 8})
    assert str(error) == "Cannot embed context_length (9) positions: max_context_length is only 8"


def test_an_error_without_a_code_is_kept_under_a_chinese_lead_in():
    zh = localized(ValueError("something new went wrong"), "zh")
    assert zh.endswith("something new went wrong") and _HAN.search(zh)


def test_the_page_shows_the_error_in_chinese():
    at = pt.page("why_position", lang="zh").run()
    at.text_input(key=K.TEXT).set_value("hello").run()
    assert not at.exception
    assert [e.value for e in at.error] == [pt.refusal("too_few_tokens", "zh", n=1)]
    assert _HAN.search(at.error[0].value) and not pt.english_only(at.error[0].value)
