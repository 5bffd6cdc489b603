"""Model facts as data: the one folder (embedviz/model_configs/) that holds them, and how the core reads it.

Published configs are kept as their config.json (the fields embedviz reads, values unchanged; README.md there names
each file's source), and the presets of :mod:`embedviz.models.params` are a small overlay on them (presets.toml: how
position enters, the exact parameter count, the source, the trained length). The app, the notebook API and the
tests read these same files, so a number is typed once; tests/test_model_facts.py compares them with transformers'
own config classes and fails on a second copy in the code.
"""
from __future__ import annotations

import functools
import json
import pathlib
import tomllib
from typing import Any

__all__ = ["CONFIG_DIR", "config", "config_files", "preset_entries"]

CONFIG_DIR = pathlib.Path(__file__).parent / "model_configs"


@functools.lru_cache(maxsize=None)
def _text(filename: str) -> str:
    return (CONFIG_DIR / filename).read_text(encoding="utf-8")


def config(filename: str) -> dict[str, Any]:
    """The config.json ``filename`` of the folder, as a fresh dict (the caller may change it)."""
    return json.loads(_text(filename))


def config_files() -> list[pathlib.Path]:
    """Every config.json of the folder (v4 and ``.v5.json`` files), sorted by name."""
    return sorted(CONFIG_DIR.glob("*.json"))


def preset_entries() -> list[dict[str, Any]]:
    """presets.toml's entries in order, each with its config resolved: ``config`` is config_file's dict (if any) with
    the entry's own ``[preset.config]`` keys laid over it."""
    entries = tomllib.loads(_text("presets.toml"))["preset"]
    out = []
    for entry in entries:
        base = config(entry["config_file"]) if "config_file" in entry else {}
        out.append({**entry, "config": {**base, **entry.get("config", {})}})
    return out
