"""The app frame: every page runs through app.py's navigation, the language switch, and URL state."""
import re
import string

import pytest
from streamlit.testing.v1 import AppTest

from embedviz.app.pages import PAGES
from tests.conftest import ROOT
from embedviz.app.i18n import LANGUAGES, catalog
from embedviz.lessons.widget_keys import Home as K
from tests.app.pagetest import refusal

ALL_PAGES = [file for _, entries in PAGES for file, *_ in entries]


def _app() -> AppTest:
    return AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)


def test_home_runs_with_a_figure():
    at = _app().run()
    assert not at.exception
    assert at.title[0].value.startswith("embedviz")
    assert len(at.get("plotly_chart")) == 1


@pytest.mark.parametrize("page", ALL_PAGES)
def test_every_page_runs_through_the_navigation(page):
    at = _app().run()
    at.switch_page(page).run()
    assert not at.exception, f"{page}: {at.exception}"
    assert not at.error, f"{page} shows an error at its defaults: {[e.value for e in at.error]}"


def test_language_switch_changes_the_text():
    at = _app().run()
    english = at.title[0].value
    at.sidebar.segmented_control(key="lang").set_value("zh").run()
    assert not at.exception
    chinese = at.title[0].value
    assert chinese != english
    assert re.search(r"[\u4e00-\u9fff]", chinese), chinese


def test_the_navigations_pages_are_kept_per_session_and_retitled_with_the_language():
    """A rerun reuses its session's st.Page objects (building them stats every page file); a language switch
    rebuilds them with that language's titles; another session builds its own."""
    from embedviz.app import frame

    at = _app().run()
    lang, pages = at.session_state[frame.NAV_PAGES]
    assert lang == "en" and pages["home"].title == catalog()["home.nav"]["en"]
    at.run()
    assert at.session_state[frame.NAV_PAGES][1] is pages
    at.sidebar.segmented_control(key="lang").set_value("zh").run()
    assert not at.exception
    lang, chinese = at.session_state[frame.NAV_PAGES]
    assert lang == "zh" and chinese is not pages
    assert {url: p.title for url, p in chinese.items()} == {
        url: catalog()[title]["zh"] for _, entries in PAGES for _, title, _, url in entries}
    at.switch_page("app_pages/compare.py").run()
    assert not at.exception and at.title[0].value == catalog()["cmp.title"]["zh"]
    other = _app().run()
    assert other.session_state[frame.NAV_PAGES][1]["home"] is not chinese["home"]


def test_language_comes_from_the_url():
    at = _app()
    at.query_params["lang"] = "简体中文"  # a bound widget keeps its displayed label in the URL
    at.run()
    assert at.sidebar.segmented_control(key="lang").value == "zh"
    assert re.search(r"[\u4e00-\u9fff]", at.title[0].value)


@pytest.mark.parametrize("typed", ["zh", "en"])
def test_a_typed_language_code_opens_that_language(typed):
    # a person types ?lang=zh; the widget's own URL form is its label, 简体中文
    at = _app()
    at.query_params["lang"] = typed
    at.run()
    assert not at.exception
    assert at.sidebar.segmented_control(key="lang").value == typed
    assert bool(re.search(r"[\u4e00-\u9fff]", at.title[0].value)) == (typed == "zh")


def test_query_param_round_trips_into_a_widget():
    at = _app()
    at.query_params[K.TEXT] = "狗咬人"
    at.run()
    assert at.text_input(key=K.TEXT).value == "狗咬人"
    # 3 Chinese characters are 9 UTF-8 bytes, so 9 ids
    assert "(9 " in at.caption[0].value or "9 个" in at.caption[0].value


def test_empty_text_is_a_message_not_a_traceback():
    at = _app().run()
    at.text_input(key=K.TEXT).set_value("").run()
    assert not at.exception
    assert [e.value for e in at.error] == [refusal("empty_text")]


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_catalog_is_complete_in_both_languages():
    cat = catalog()
    assert len(cat) > 10
    for key, texts in cat.items():
        assert set(texts) == set(LANGUAGES), f"{key} has languages {sorted(texts)}"
        for lang, text in texts.items():
            assert isinstance(text, str) and text.strip(), f"{key}[{lang}] is empty"
        assert _fields(texts["en"]) == _fields(texts["zh"]), f"{key}: placeholders differ between languages"


def test_chinese_strings_are_chinese():
    """A zh entry that is just the English text copied is a missing translation (short technical terms excepted)."""
    untranslated = [
        key for key, texts in catalog().items()
        if texts["zh"] == texts["en"] and len(texts["en"]) > 24
    ]
    assert not untranslated, untranslated


def test_every_page_title_is_in_the_catalog():
    cat = catalog()
    for section, entries in PAGES:
        assert section in cat
        for _, title, _, _ in entries:
            assert title in cat
