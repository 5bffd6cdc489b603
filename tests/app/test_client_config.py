"""An uncaught error shows no trace, type or message in the browser (they name server paths), whatever a client
sends: the project's .streamlit/config.toml sets client.showErrorDetails to "none"."""
from __future__ import annotations

import tomllib

from streamlit import config
from streamlit.testing.v1 import AppTest

from tests.conftest import ROOT
from embedviz.lessons.widget_keys import Tokens as K

PAGE = ROOT / "app_pages" / "token_embeddings.py"


def _wrong_typed_text(at: AppTest) -> AppTest:
    """The text field ``tok_text`` sent an integer, as a script speaking Streamlit's websocket can: the widget's
    deserializer raises TypeError inside the page, an uncaught error."""
    states = at._tree.get_widget_states()
    for widget in states.widgets:
        if widget.id.endswith(K.TEXT):
            widget.int_value = 7
    return at._run(states)


def test_a_wrong_typed_widget_value_shows_no_trace_with_server_paths():
    chosen = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())["client"]["showErrorDetails"]
    assert chosen == "none"
    before = config.get_option("client.showErrorDetails")
    config.set_option("client.showErrorDetails", chosen)
    try:
        at = _wrong_typed_text(AppTest.from_file(str(PAGE), default_timeout=60).run())
    finally:
        config.set_option("client.showErrorDetails", before)
    assert at.exception, "the wrong-typed value no longer raises: pick another way to reach an uncaught error"
    for shown in at.exception:
        assert not shown.stack_trace and not shown.proto.type
        assert "/" not in shown.message and "TypeError" not in shown.message and "subscriptable" not in shown.message
