"""Reading tables out of tensor files without running anything in them: safetensors and `.npy`, never pickle.

Two callers: `pretrained.load_model_dir` reads one or two named tensors from a Hugging Face style checkpoint (a
single `model.safetensors` or a sharded one), looking only at headers until it knows which tensor it wants; and
`pretrained.load_embedding_file` takes a user's uploaded (V, D) table. `.bin`/`.pt` files are refused: reading
them means unpickling, i.e. running code from the file.
"""
from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Iterable

import numpy as np
import safetensors
from safetensors import safe_open

from embedviz.errors import InputError

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


def read_upload(
    data: bytes,
    filename: str,
    *,
    max_bytes: int = MAX_UPLOAD_BYTES,
    max_elements: int = MAX_UPLOAD_ELEMENTS,
) -> tuple[np.ndarray, str]:
    """(V, D) float32 table and its tensor name ('' for .npy) from the bytes of a `.safetensors` or `.npy` file.

    Nothing in the file is executed: `.npy` is read with allow_pickle=False (object arrays are refused before
    loading) and safetensors is a plain header + raw numbers by design.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise ValueError(f"data must be bytes, got {type(data).__name__}")
    data = bytes(data)
    suffix = Path(str(filename)).suffix.lower()
    if suffix not in (".safetensors", ".npy"):
        raise InputError("file_suffix", value=filename)
    if len(data) > max_bytes:
        raise InputError("file_size", n=len(data), limit=max_bytes)
    if not data:
        raise InputError("file_empty", file=filename)

    if suffix == ".npy":
        table, tensor_name = _table_from_npy(data, filename, max_elements=max_elements), ""
    else:
        table, tensor_name = _table_from_safetensors(data, filename, max_elements=max_elements)
    return _finite_float32_table(table, filename, max_elements=max_elements), tensor_name


# --------------------------------------------------------------------------------------------------- on disk


def tensor_files(directory: Path) -> dict[str, Path]:
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
            raise InputError("weight_map", file=index.name, dir=str(directory)) from None
        files = {name: directory / shard for name, shard in weight_map.items()}
        missing = sorted({file.name for file in files.values() if not file.is_file()})
        if missing:
            # Only the shard holding the embeddings matters, but a half-copied checkpoint deserves a clear word.
            raise InputError("shards_missing", dir=str(directory), missing=", ".join(missing))
        return files
    other = sorted(p.name for p in directory.iterdir() if p.suffix in (".bin", ".pt", ".pth", ".ckpt"))
    if other:  # reading .bin/.pt means unpickling, i.e. running code from the file; we only read safetensors
        raise InputError("pickle_weights", dir=str(directory), found=", ".join(other))
    raise InputError("no_safetensors", dir=str(directory))


def _open_safetensors(file: Path):
    try:
        return safe_open(str(file), framework="np")
    except Exception as error:  # SafetensorError for a corrupt header
        raise InputError("safetensors_unreadable", file=file.name, detail=str(error)) from None


def tensor_shapes(files: Iterable[Path]) -> dict[str, tuple[int, ...]]:
    shapes = {}
    for file in sorted(files):
        with _open_safetensors(file) as handle:
            shapes.update({tensor: tuple(handle.get_slice(tensor).get_shape()) for tensor in handle.keys()})
    return shapes


def pick_table(shapes: dict[str, tuple[int, ...]], suffixes: tuple[str, ...]) -> str | None:
    """The 2-D tensor whose name ends with the earliest suffix in `suffixes`; the shortest name among equals."""
    for suffix in suffixes:
        matches = [
            name for name, shape in shapes.items()
            if len(shape) == 2 and (name == suffix or name.endswith("." + suffix))
        ]
        if matches:
            return min(matches, key=lambda name: (len(name), name))  # "model.embed_tokens" over "x.decoder...."
    return None


def read_tensor(file: Path, tensor: str) -> np.ndarray:
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
        raise InputError("tensor_dtype", dtype=dtype, allowed=allowed)
    return np.frombuffer(raw, dtype=_SAFETENSORS_DTYPES[dtype]).reshape(shape)


# --------------------------------------------------------------------------------------------------- uploads


def _table_from_npy(data: bytes, filename: str, *, max_elements: int) -> np.ndarray:
    stream = io.BytesIO(data)
    try:
        version = np.lib.format.read_magic(stream)
        if version == (1, 0):
            shape, _, dtype = np.lib.format.read_array_header_1_0(stream)
        else:
            shape, _, dtype = np.lib.format.read_array_header_2_0(stream)
    except Exception:
        raise InputError("npy_header", file=filename) from None
    # Decide from the header alone, before any data is touched: an object array would be unpickled.
    if dtype.hasobject:
        raise InputError("npy_objects", file=filename, dtype=str(dtype))
    _check_upload_shape(tuple(shape), filename, max_elements=max_elements)
    stream.seek(0)
    try:
        return np.load(stream, allow_pickle=False)
    except Exception:
        raise InputError("npy_corrupt", file=filename) from None


def _table_from_safetensors(data: bytes, filename: str, *, max_elements: int) -> tuple[np.ndarray, str]:
    try:
        tensors = {name: spec for name, spec in safetensors.deserialize(data)}  # validates header and offsets
    except Exception as error:
        raise InputError("safetensors_invalid", file=filename, detail=str(error)) from None
    if not tensors:
        raise InputError("file_no_tensors", file=filename)
    shapes = {name: tuple(spec["shape"]) for name, spec in tensors.items()}
    name = _choose_upload_tensor(shapes, filename)
    _check_upload_shape(shapes[name], filename, max_elements=max_elements)
    return _decode(tensors[name]["dtype"], shapes[name], bytes(tensors[name]["data"])), name


def _choose_upload_tensor(shapes: dict[str, tuple[int, ...]], filename: str) -> str:
    if len(shapes) == 1:
        return next(iter(shapes))  # one tensor: take it, and let the shape checks speak if it is not 2-D
    matrices = [name for name, shape in shapes.items() if len(shape) == 2]
    if len(matrices) == 1:
        return matrices[0]
    picked = pick_table({name: shapes[name] for name in matrices}, TOKEN_TABLE_SUFFIXES)
    if picked is None:
        embedding_like = [name for name in matrices if "embed" in name.lower() and "position" not in name.lower()]
        picked = embedding_like[0] if len(embedding_like) == 1 else None
    if picked is None:
        listed = ", ".join(f"{name} {list(shape)}" for name, shape in sorted(shapes.items()))
        raise InputError("several_tensors", file=filename, listed=listed)
    return picked


def _check_upload_shape(shape: tuple[int, ...], filename: str, *, max_elements: int) -> None:
    if len(shape) != 2:
        raise InputError("table_2d", file=filename, shape=list(shape))
    V, D = shape
    if V < 2:
        raise InputError("table_rows", file=filename, V=V)
    if D < 1:
        raise InputError("table_columns", file=filename, D=D)
    if V * D > max_elements:
        raise InputError("table_too_big", file=filename, V=V, D=D, n=V * D, limit=max_elements)


def _finite_float32_table(table: np.ndarray, filename: str, *, max_elements: int) -> np.ndarray:
    _check_upload_shape(table.shape, filename, max_elements=max_elements)
    if table.dtype.kind not in "fiu":  # float, signed or unsigned int; bool, complex, strings, dates are refused
        raise InputError("table_dtype", file=filename, dtype=str(table.dtype))
    with np.errstate(over="ignore"):  # an overflow becomes inf, which the next check reports in words
        table = table.astype(np.float32)
    if not np.all(np.isfinite(table)):  # after the cast: float64 values beyond float32's range become inf
        bad = int(np.size(table) - np.count_nonzero(np.isfinite(table)))
        raise InputError("table_non_finite", file=filename, bad=bad)
    return table
