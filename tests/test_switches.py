"""The switches that make a missing oracle a failure in CI instead of a skip (tests/conftest.py, .ci/run): here
the lessons' files, which the repository does not copy and reads where they live."""
from __future__ import annotations

import re

import pytest

from tests import conftest
from tests.conftest import ROOT


@pytest.fixture
def no_switches(monkeypatch):
    for name in ("CI", "EMBEDVIZ_REQUIRE_LESSONS", "EMBEDVIZ_REQUIRE_ORACLE", "EMBEDVIZ_SEEDS"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_missing_lessons_skip_on_a_users_machine(tmp_path, no_switches):
    no_switches.setenv("EMBEDVIZ_SEEDS", str(tmp_path))
    with pytest.raises(pytest.skip.Exception, match="EMBEDVIZ_SEEDS"):
        conftest.require_lessons()


@pytest.mark.parametrize("switch", [("CI", "true"), ("EMBEDVIZ_REQUIRE_LESSONS", "1")])
def test_missing_lessons_fail_in_ci(tmp_path, no_switches, switch):
    no_switches.setenv("EMBEDVIZ_SEEDS", str(tmp_path / "nowhere"))
    no_switches.setenv(*switch)
    with pytest.raises(pytest.fail.Exception, match="not a skip"):
        conftest.require_lessons()


def test_the_lessons_folder_is_the_one_named(tmp_path, no_switches):
    (tmp_path / "004_word_embedding.txt").write_text("summary\ntitle\n", encoding="utf-8")
    no_switches.setenv("EMBEDVIZ_SEEDS", str(tmp_path))
    no_switches.setenv("CI", "true")
    assert conftest.require_lessons() == tmp_path


def test_ci_sets_every_switch():
    """.ci/run exports every EMBEDVIZ_REQUIRE_* switch the tests read."""
    exported = set(re.findall(r"^export (EMBEDVIZ_REQUIRE_\w+)=1$", (ROOT / ".ci" / "run").read_text(), re.M))
    read = {name for path in (ROOT / "tests").rglob("*.py")
            for name in re.findall(r"EMBEDVIZ_REQUIRE_[A-Z]+", path.read_text(encoding="utf-8"))}
    assert read and read <= exported, sorted(read - exported)
