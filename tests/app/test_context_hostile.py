"""The Context-extension page under hostile input and shared links: a pasted or uploaded config is checked on the
server, and a link carries the pasted config (compressed) or says it cannot."""
from __future__ import annotations

import json
import time
import zlib
import base64

from embedviz.app import context_extension_view as view
from embedviz.errors import InputError
from embedviz.lessons.widget_keys import Context as K
from tests.app import pagetest as pt
from tests.input_errors import raises_input
from tests.test_rope_scaling import LLAMA_31_8B

PAGE = "context_extension"


def _pasted(at, text):
    at.selectbox(key=K.SOURCE).set_value(view.CONFIG).run()
    at.text_area(key=K.CONFIG).set_value(text).run()
    return at


def test_a_huge_head_dim_is_refused_in_a_moment():
    at = pt.page(PAGE).run()
    cpu = time.process_time()
    _pasted(at, json.dumps({"head_dim": 200_000_000, "rope_theta": 10_000, "max_position_embeddings": 4_096}))
    cpu = time.process_time() - cpu
    pt.ok(at, errors_allowed=True)
    assert pt.fields(at.error[0].value, "err.at_most") == {"name": "head_dim", "value": "200000000", "limit": "8192"}
    assert cpu < 5  # two AppTest reruns; before the fix the first one alone cost 4.5 s and 1.9 GB


def test_the_text_area_holds_at_most_the_config_limit():
    at = pt.page(PAGE, **{K.SOURCE: view.CONFIG}).run()
    assert at.text_area(key=K.CONFIG).proto.max_chars == view.rope_config.MAX_CONFIG_CHARS


def test_an_upload_past_the_limit_is_refused_without_decoding_it():
    at = pt.page(PAGE, **{K.SOURCE: view.CONFIG}).run()
    text_before = at.text_area(key=K.CONFIG).value
    big = b'{"a": "' + b"x" * (view.UPLOAD_MB * 2**20) + b'"}'  # what a hand-made request could send
    at.get("file_uploader")[0].upload("config.json", big, "application/json")
    at.run()
    pt.ok(at, errors_allowed=True)
    assert str(InputError("config_upload_size", file="config.json", n=len(big), limit=1)) in at.error[0].value
    assert at.text_area(key=K.CONFIG).value == text_before


def test_encode_decode_round_trip_and_damage():
    text = json.dumps(LLAMA_31_8B, indent=2) + "\n// 猫"
    token = view.encode_config(text)
    assert set(token) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert view.decode_config(token) == text
    for damaged in (token[: len(token) // 2], token + "!!", "AAAA"):
        with raises_input("link_damaged"):
            view.decode_config(damaged)


def test_a_small_token_cannot_inflate_past_the_config_limit():
    # zlib reaches ~1,000:1, so an 11 KB token (a URL the server still accepts) inflates to 8 MB of zeros
    bomb = base64.urlsafe_b64encode(zlib.compress(b"0" * (8 * 2**20), 9)).decode().rstrip("=")
    assert len(bomb) < 16_384
    with raises_input("link_damaged"):
        view.decode_config(bomb)


def test_a_shared_link_reproduces_a_pasted_config():
    at = _pasted(pt.page(PAGE).run(), json.dumps(LLAMA_31_8B))
    pt.ok(at)
    token = at.query_params[K.CONFIG_URL]
    token = token[-1] if isinstance(token, list) else token
    assert len(token) <= view.CONFIG_URL_CHARS
    # a new session opened from the link: the Llama config, not the bundled Phi-3 example
    fresh = pt.page(PAGE, **{K.SOURCE: view.CONFIG, K.CONFIG_URL: token}).run()
    pt.ok(fresh)
    assert json.loads(fresh.text_area(key=K.CONFIG).value) == LLAMA_31_8B
    assert fresh.segmented_control(key=K.METHOD).value == "llama3"
    assert any("config.json: head_dim 128, rope_theta 500,000" in c.value for c in fresh.caption)


def test_a_damaged_link_says_so_and_a_too_long_config_says_the_link_cannot_carry_it():
    fresh = pt.page(PAGE, **{K.SOURCE: view.CONFIG, K.CONFIG_URL: "AAAA"}).run()
    pt.ok(fresh, errors_allowed=True)
    assert pt.shows(fresh.error[0].value, "err.link_damaged")
    # a config whose compressed form is past the limit: 20,000 random-looking digits barely compress
    noise = "".join(str((i * 7_919) % 10_007) for i in range(6_000))
    config = {**LLAMA_31_8B, "note": noise}
    for lang, words in (("en", "too long to travel in a link"), ("zh", "太长")):
        at = _pasted(pt.page(PAGE, lang=lang).run(), json.dumps(config))
        pt.ok(at)
        assert K.CONFIG_URL not in at.query_params
        assert any(words in c.value for c in at.caption)
