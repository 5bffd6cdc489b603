"""Shared links carrying markdown images, links and KaTeX fetch nothing, show no foreign image or link, and do not
widen the page (Chromium).

A value from a link is echoed in error boxes, captions and sentences; rendered as markdown it would make every
reader's browser fetch an image from another host (the app would no longer be offline, and the sender would learn
who opened the link), put clickable links to other hosts on the page, or cover the page with a 3000em KaTeX rule.
"""
from __future__ import annotations

import json
from urllib.parse import quote, urlsplit

import pytest

from embedviz.app import context_extension_view
from embedviz.lessons.widget_keys import Context, RealModel, Tokens, WhyPosition
from tests.e2e.conftest import SHOTS, open_app

IMAGE = "![x](http://127.0.0.2:9/track.png)"
LINK = "[a](http://127.0.0.2:9/)"
AUTOLINK = "<http://127.0.0.2:9/>"
RULE = r"$\rule{3000em}{3000em}$"
HUGE = r"$\color{red}\Huge\text{big}$"
_CONFIG = {"hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 10000.0, "max_position_embeddings": 4096,
           "rope_scaling": {"rope_type": IMAGE, "factor": 2.0}}


def q(**values: str) -> str:
    return "&".join(f"{k}={quote(v, safe='')}" for k, v in values.items())


# the link set: every URL-bound text field, the tour and step, and a config's rope_type
LINKS = {
    "tour": "?" + q(tour=f"a {IMAGE}", step="1"),
    "step": "?" + q(tour="003", step=f"1 {IMAGE}"),
    "why_text_image": "why-position?" + q(**{WhyPosition.TEXT: f"the {IMAGE} {LINK} {AUTOLINK}"}),
    "why_text_rule": "why-position?" + q(**{WhyPosition.TEXT: f"the {RULE}"}),
    "why_text_huge": "why-position?" + q(**{WhyPosition.TEXT: f"the {HUGE}"}),
    "why_order": "why-position?" + q(**{WhyPosition.TEXT: "the cat sat", WhyPosition.SHUFFLE: "type it",
                                              WhyPosition.ORDER: f"{IMAGE} {LINK}"}),
    "real_word": "real-model?" + q(**{RealModel.TAB: "Neighbours", RealModel.WORD: f"{IMAGE} {LINK}"}),
    "real_a": "real-model?" + q(**{RealModel.TAB: "Analogy", RealModel.A: IMAGE}),
    "real_subword": "real-model?" + q(**{RealModel.TAB: "Subwords", RealModel.SUBWORD: f"{IMAGE} {AUTOLINK}"}),
    "real_pairs": "real-model?" + q(**{RealModel.PAIRS: f"cat, {IMAGE}\n{LINK}, dog\n{RULE}, cat"}),
    # the word map's labels are plotly text, which has its own <a href> markup
    "real_words": "real-model?" + q(**{
        RealModel.TAB: "Word map", RealModel.WORDS: f"cat\ndog\n{IMAGE}\n<a href='http://127.0.0.2:9/'>x</a>\n{RULE}"}),
    # a group's name is a legend entry: a protocol-relative link needs no ':' (which would end the group's name)
    "real_groups": "real-model?" + q(**{
        RealModel.TAB: "Word map", RealModel.WORDS: "<a href='//127.0.0.2/x'>g</a>: cat, dog\n<b>h</b>: red, blue"}),
    "tok_word": "token-embeddings?" + q(**{Tokens.TAB: "One-hot vs dense", Tokens.WORD: IMAGE,
                                           Tokens.OTHER: f"{LINK} {RULE}"}),
    "ctx_cfgz": "context-extension?" + q(**{
        Context.SOURCE: context_extension_view.CONFIG,
        Context.CONFIG_URL: context_extension_view.encode_config(json.dumps(_CONFIG))}),
}

FOREIGN_JS = """() => {
  const here = location.host;
  const foreign = (u) => { try { const h = new URL(u, location.href); return /^https?:$/.test(h.protocol)
      && h.host !== here; } catch (e) { return false; } };
  // every src / href / xlink:href in the DOM, HTML and SVG (a plotly label's <a> is an SVG element)
  const found = [];
  for (const el of document.querySelectorAll('*'))
    for (const at of el.attributes)
      if (/^(xlink:)?href$|^src$/.test(at.name) && foreign(at.value)) found.push(el.tagName + ' ' + at.value);
  return {
    foreign: found,
    // KaTeX keeps its source in an annotation: the page's own formulas are there too, a link's rule is not
    katex: [...document.querySelectorAll('.katex annotation')].map(a => a.textContent)
      .filter(tex => /\\\\(rule|Huge|color)/.test(tex)),
    width: document.querySelector('[data-testid=stMain]').scrollWidth,
    viewport: window.innerWidth,
  };
}"""


@pytest.mark.slow
@pytest.mark.parametrize("name", list(LINKS))
def test_a_hostile_link_fetches_nothing_and_shows_no_foreign_markup(tab, app_server, name):
    requests: list[str] = []
    tab.on("request", lambda request: requests.append(request.url))
    open_app(tab, LINKS[name])
    tab.wait_for_timeout(1_500)  # images and fonts start loading after the script's last delta
    found = tab.evaluate(FOREIGN_JS)
    tab.screenshot(path=str(SHOTS / f"hostile-{name}.png"))
    left = [u for u in requests if urlsplit(u).hostname not in {"127.0.0.1", None} and not u.startswith("data:")]
    assert not left, f"requests left loopback: {left}"
    assert not found["foreign"], found
    assert found["width"] <= found["viewport"], found
    assert not found["katex"], found
