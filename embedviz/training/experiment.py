"""The small next-token experiment that trains an embedding (lesson 001).

Lesson 001 trains a character model for 500 steps on two groups of characters, lowercase ``a``-``j`` and
uppercase ``A``-``J``, that never share a sequence, and reports::

    before training  sim('a','b') = 0.03   random initialisation
    after training   sim('a','b') = 0.56   same group: the vectors move together
    after training   sim('a','A') = 0.04   different groups: the vectors stay unrelated

This module reproduces that experiment with a model as small as it can be: an ``nn.Embedding`` (V, D) whose
rows are the token vectors, and an untied linear head (D -> classes) that turns a vector into next-token
logits. Nothing else (no attention, no MLP), so every change in the table comes from next-token prediction.

What training really gives (measured, seeds 0..4, defaults: 500 steps, d_model 16, Adam lr 1e-2,
16 sequences of 8 predictions per step):

=========================================  ========================  =========================
softmax over                               mean same-group cosine    mean cross-group cosine
=========================================  ========================  =========================
256 classes (``vocab_size=256``, default:  0.50 (seeds: 0.46..0.55)  -0.09 (seeds: -0.10..-0.08)
the text's byte vocabulary)
20 classes (``vocab_size=None``: only      0.43 (seeds: 0.39..0.46)  -0.44 (seeds: -0.45..-0.43)
the group tokens)
=========================================  ========================  =========================

For the text's own pair, sim('a','b') averages 0.04 before and 0.57 after training (text: 0.03 -> 0.56). A single
cross-group pair such as sim('a','A') scatters widely around the group mean (-0.39 .. -0.07 over the five seeds),
because each row still carries its random start. The loss falls from about 4.07 (first 50 steps) to 2.32 (last
50), close to ln(10) = 2.30, the best possible when the next token is uniform over 10 characters.
Before training both means are about 0 (random Gaussian rows are nearly orthogonal in 16 dimensions).

Why the cross-group value depends on the size of the softmax: the gradient that reaches the vector ``h`` of
an input token is ``W_out^T (p - onehot(target))``: ``h`` is pulled towards the head row of the token that
really came next and pushed away from the head rows that currently hold probability ``p``. Every token of a
group is followed by the same uniform mix of its group, so all of them receive the same pull: they move
together (same-group similarity rises). Where the push comes from decides the cross-group similarity:

- Only the 20 group tokens in the softmax: the probability a lowercase input must give up sits on the
  uppercase rows, so "towards lowercase" is "away from uppercase" and the uppercase group does the mirror
  image. The two groups end on opposite sides of one axis: cross-group similarity goes clearly negative
  (about -0.44), not to 0. Nothing says "unrelated" must mean "orthogonal"; the softmax head pushes the
  groups apart.
- 256 classes, as in the text (a byte-level vocabulary in which 236 tokens never occur): most of the
  probability to give up sits on the unused tokens, and both groups are pushed away from the *same* rows,
  while each is pulled towards its own rows. Those two directions are nearly independent, so at 500 steps
  cross-group similarity is close to 0 (about -0.09), which matches the text's 0.04. It is not a resting
  value but a crossing: once the unused tokens hold almost no probability (by about step 100) the only rows
  left to push against are the other group's, and the cross-group mean keeps falling (measured on one seed:
  +0.12 at step 50, -0.08 at 500, -0.27 at 2,000, -0.50 at 5,000), towards the 20-class picture above.

Same-group similarity does not reach 1 in 500 steps because what each row got from random initialisation is
still there; only the shared group direction has grown. Train longer or with a larger ``lr`` and it climbs
towards 1. Plain SGD (``optimizer="sgd"``, default lr 1.0) groups more slowly: about 0.39 / -0.06 after 500 steps.

Where things live: this module builds the data and checks the settings; `embedviz.training.loop` holds the tiny
model and the loop; `embedviz.training.result` holds `TrainingResult` and what the page reads from it (group
means per snapshot, projections, the loss floor).

Practical notes: all randomness (initial weights and the sampled batches) comes from one
``torch.Generator`` seeded with ``seed``, so a run is reproducible and never touches torch's global RNG (which
is shared by every thread of a server). The tensors here are tiny, so torch runs single-threaded while training
(thread start-up costs more than the maths, and on a busy 2-core machine spinning OpenMP threads made runs
10-50x slower); the previous thread count is restored afterwards.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from typing import Literal

import numpy as np
import torch

from embedviz.tokens import tokenizer
from embedviz._validate import finite_float, one_of, positive_int, string
from embedviz.errors import InputError
from embedviz.training.loop import PROGRESS_CALLS, Optimizer, ProgressFn, TinyLM, fit
from embedviz.training.result import TrainingResult

__all__ = [
    "DEFAULT_GROUPS",
    "TrainingResult",
    "train_group_experiment",
    "train_on_text",
]

# limits on user input: they bound the work per step and the memory the snapshots take
MAX_STEPS = 5_000
MIN_D_MODEL, MAX_D_MODEL = 2, 256
MAX_GROUP_VOCAB = 256
MAX_CLASSES = 4_096
MAX_BATCH_SIZE = 1_024
MAX_TARGETS_PER_ROW = 256
MAX_LOGITS_PER_STEP = 4_194_304  # batch_size * targets_per_row * classes: 16 MB of float32 logits
MAX_SNAPSHOTS = 1_001
MAX_SNAPSHOT_FLOATS = 16_777_216  # all snapshots together: 64 MB of float32
MAX_CONTEXT = 32
MAX_TEXT_CHARS = 1_000_000
MAX_TEXT_VOCAB = 4_096

DEFAULT_GROUPS = ("abcdefghij", "ABCDEFGHIJ")
DEFAULT_LR = {"adam": 1e-2, "sgd": 1.0}



# validation helpers


def _check_lr(lr: object, optimizer: str) -> float:
    one_of("optimizer", optimizer, sorted(DEFAULT_LR))
    if lr is None:
        return DEFAULT_LR[optimizer]
    return finite_float("lr", lr, greater_than=0.0)


def _check_common(
    *, steps: object, d_model: object, batch_size: object, targets_per_row: object, snapshot_every: object
) -> tuple[int, int, int, int, int | None]:
    steps = positive_int("steps", steps, minimum=1, maximum=MAX_STEPS)
    d_model = positive_int("d_model", d_model, minimum=MIN_D_MODEL, maximum=MAX_D_MODEL)
    batch_size = positive_int("batch_size", batch_size, minimum=1, maximum=MAX_BATCH_SIZE)
    targets_per_row = positive_int("targets_per_row", targets_per_row, minimum=1, maximum=MAX_TARGETS_PER_ROW)
    if snapshot_every is not None:
        snapshot_every = positive_int("snapshot_every", snapshot_every, minimum=1, maximum=MAX_STEPS)
    return steps, d_model, batch_size, targets_per_row, snapshot_every


def _snapshot_count(steps: int, every: int) -> int:
    # step 0, every `every`-th step, and the last step if it is not a multiple
    return steps // every + 1 + (steps % every != 0)


def _check_budget(
    *, steps: int, batch_size: int, targets_per_row: int, snapshot_every: int | None, num_rows: int,
    num_classes: int, d_model: int,
) -> int:
    """Refuse too heavy steps; return snapshot_every (default: about 50 snapshots, fewer for big tables)."""
    logits = batch_size * targets_per_row * num_classes
    if logits > MAX_LOGITS_PER_STEP:
        raise InputError("logits_cap", size=batch_size, targets=targets_per_row, classes=num_classes, n=logits,
                         limit=MAX_LOGITS_PER_STEP)
    max_count = min(MAX_SNAPSHOTS, MAX_SNAPSHOT_FLOATS // (num_rows * d_model))  # >= 16 within the limits above
    min_every = math.ceil(steps / (max_count - 2))  # guarantees _snapshot_count(steps, every) <= max_count
    if snapshot_every is None:
        return max(1, steps // PROGRESS_CALLS, min_every)
    count = _snapshot_count(steps, snapshot_every)
    if count > max_count:
        raise InputError("snapshot_cap", value=snapshot_every, count=count, rows=num_rows, D=d_model, steps=steps,
                         limit=max_count, least=min_every)
    return snapshot_every


def _check_groups(groups: object) -> list[str]:
    """Groups as lists of distinct characters (order kept, repeats dropped)."""
    if isinstance(groups, str) or not isinstance(groups, Sequence):  # one string would be one group per letter
        raise InputError("string_list", name="groups", kind=type(groups).__name__)
    if len(groups) < 1:
        raise InputError("groups_empty")
    cleaned: list[str] = []
    owner: dict[str, int] = {}
    for g, chars in enumerate(groups):
        distinct = "".join(dict.fromkeys(string(f"groups[{g}]", chars)))
        if len(distinct) < 2:
            raise InputError("group_small", g=g, value=chars)
        for ch in distinct:
            if ch in owner:
                raise InputError("group_shared", ch=ch, a=owner[ch], b=g)
            owner[ch] = g
        cleaned.append(distinct)
    total = sum(len(chars) for chars in cleaned)
    if total > MAX_GROUP_VOCAB:
        raise InputError("groups_total", n=total, limit=MAX_GROUP_VOCAB)
    return cleaned


# the experiment of lesson 001


def train_group_experiment(
    *,
    steps: int = 500,
    d_model: int = 16,
    seed: int = 0,
    lr: float | None = None,
    batch_size: int = 16,
    targets_per_row: int = 8,
    groups: Sequence[str] = DEFAULT_GROUPS,
    vocab_size: int | None = 256,
    optimizer: Optimizer = "adam",
    snapshot_every: int | None = None,
    progress: ProgressFn | None = None,
    cpu_budget_s: float | None = None,
) -> TrainingResult:
    """Train an embedding on sequences that each use the characters of one group only (lesson 001).

    Each step samples ``batch_size`` sequences of ``targets_per_row + 1`` tokens (``targets_per_row`` is the T of
    the (B, T) batch, the next-token targets one row holds; the bigram model itself sees one token): a sequence
    first picks a group (uniformly), then each of its tokens uniformly from that group, so tokens of different
    groups never meet.
    The model predicts each next token from the current one (bigram: an embedding row, then the linear head).

    steps: optimiser steps (1..5000). d_model: vector size D (2..256). seed: makes the run reproducible.
    lr: learning rate, default 1e-2 for Adam and 1.0 for SGD. groups: strings of characters, each at least 2
        distinct characters, no character in two groups, at most 256 in total.
    vocab_size: number of classes of the softmax head. The group tokens take the first ids; the others are
        tokens that exist in the vocabulary but never occur, like the 236 other bytes of the text's 256-byte
        vocabulary. Default 256 reproduces the text (cross-group similarity near 0); None uses only the group
        tokens, and then the head pushes the groups to opposite sides (cross-group about -0.4, see the module
        docstring). The returned tables hold only the group tokens' rows: the other rows never receive a gradient.
    optimizer: "adam" or "sgd". snapshot_every: steps between snapshots (default steps // 50, fewer snapshots
        when they would take more than 64 MB). batch_size * targets_per_row * classes is limited to 4,194,304
        logits.
    progress: called as progress(step, steps) about 50 times at most.
    cpu_budget_s: stop once the run has used this much CPU time (see ``training_loop.fit``); the result then has
        fewer than ``steps`` losses. None trains every step.
    """
    steps, d_model, batch_size, targets_per_row, snapshot_every = _check_common(
        steps=steps, d_model=d_model, batch_size=batch_size, targets_per_row=targets_per_row,
        snapshot_every=snapshot_every,
    )
    lr = _check_lr(lr, optimizer)
    seed = positive_int("seed", seed, minimum=0, maximum=2**63 - 1)
    cleaned = _check_groups(groups)
    num_rows = sum(len(chars) for chars in cleaned)
    if vocab_size is None:
        num_classes = num_rows
    else:
        num_classes = positive_int("vocab_size", vocab_size, minimum=num_rows, maximum=MAX_CLASSES)

    snapshot_every = _check_budget(
        steps=steps, batch_size=batch_size, targets_per_row=targets_per_row, snapshot_every=snapshot_every,
        num_rows=num_rows,
        num_classes=num_classes, d_model=d_model,
    )

    vocab = [ch for chars in cleaned for ch in chars]
    group_of = [g for g, chars in enumerate(cleaned) for _ in chars]
    sizes = torch.tensor([len(chars) for chars in cleaned])  # (G,)
    offsets = torch.cumsum(sizes, 0) - sizes  # (G,) id of each group's first token

    generator = torch.Generator().manual_seed(seed)

    def sample(n: int) -> torch.Tensor:
        """n batches at once: (n, B, T + 1) token ids."""
        group = torch.randint(len(cleaned), (n, batch_size, 1), generator=generator)  # (n, B, 1) one group a sequence
        # uniform within the group: first id of the group + floor(u * group size)
        u = torch.rand(n, batch_size, targets_per_row + 1, generator=generator)  # (n, B, T + 1)
        return offsets[group] + (u * sizes[group]).long().clamp_max(sizes[group] - 1)  # (n, B, T + 1)

    model = TinyLM(num_rows, num_classes, d_model, context_length=1, generator=generator)
    before, after, losses, snapshots = fit(
        model, sample, tokens_per_batch=batch_size * (targets_per_row + 1), steps=steps, lr=lr, optimizer=optimizer,
        snapshot_every=snapshot_every, progress=progress, cpu_budget_s=cpu_budget_s,
    )
    return TrainingResult(
        vocab=vocab, group_of=group_of, group_names=list(cleaned), weights_before=before, weights_after=after,
        losses=losses, snapshots=snapshots, num_classes=num_classes,
    )


# the same on the user's own text

_CLASS_NAMES = ("lowercase", "uppercase", "other letter", "digit", "punctuation", "whitespace", "UTF-8 byte", "other")


def _char_class(ch: str) -> str:
    category = unicodedata.category(ch)
    if category == "Ll":
        return "lowercase"
    if category == "Lu":
        return "uppercase"
    if category.startswith("L"):
        return "other letter"  # e.g. CJK characters (Lo)
    if category.startswith("N"):
        return "digit"
    if category[0] in "PS":
        return "punctuation"
    if category.startswith("Z") or ch.isspace():
        return "whitespace"
    return "other"


def _byte_class(b: int) -> str:
    if b >= 0x80:
        return "UTF-8 byte"  # part of a multi-byte character: no class of its own
    return _char_class(chr(b))


def train_on_text(
    text: str,
    *,
    steps: int = 500,
    d_model: int = 16,
    context_length: int = 1,
    seed: int = 0,
    lr: float | None = None,
    tokens: Literal["char", "byte"] = "char",
    batch_size: int = 16,
    targets_per_row: int = 8,
    optimizer: Optimizer = "adam",
    snapshot_every: int | None = None,
    progress: ProgressFn | None = None,
    cpu_budget_s: float | None = None,
) -> TrainingResult:
    """Train the same tiny model on the user's own text and return the learned token vectors.

    tokens: "char" (one token per Unicode character) or "byte" (one per UTF-8 byte, so a Chinese character is
        three tokens). The vocabulary is the distinct tokens of the text, sorted by code point / byte value;
        the softmax covers exactly these tokens. Char tokens are labelled by the character itself, byte tokens
        as ``embedviz.tokens.tokenizer.token_label`` prints them ('a', '<space>', '<e7>').
    context_length: how many previous tokens the model sees (1..32). context_length=1 is a bigram model: the
        vector of the current token alone predicts the next one. context_length>1 averages the vectors of the last
        ``context_length`` tokens (a bag of words: order inside the window is ignored) before the linear head.
        Keeping the model this small means everything it learns has to live in the embedding rows, which is what
        we want to look at.
    Each step samples ``batch_size`` windows of ``targets_per_row + context_length`` consecutive tokens at random
    offsets (targets_per_row shrinks if the text is shorter). Tokens that are followed by similar tokens get
    similar vectors.
    group_of / group_names: a character class per token (lowercase, uppercase, other letter, digit,
        punctuation, whitespace, UTF-8 byte, other), to colour plots; it plays no part in training.
    The other arguments are as in ``train_group_experiment``.
    """
    string("text", text, limit=MAX_TEXT_CHARS)
    one_of("tokens", tokens, ("char", "byte"))
    context_length = positive_int("context_length", context_length, minimum=1, maximum=MAX_CONTEXT)
    steps, d_model, batch_size, targets_per_row, snapshot_every = _check_common(
        steps=steps, d_model=d_model, batch_size=batch_size, targets_per_row=targets_per_row,
        snapshot_every=snapshot_every,
    )
    lr = _check_lr(lr, optimizer)
    seed = positive_int("seed", seed, minimum=0, maximum=2**63 - 1)

    if tokens == "char":
        codes = np.fromiter((ord(ch) for ch in text), dtype=np.int64, count=len(text))
    else:
        codes = np.asarray(tokenizer.encode(text), dtype=np.int64)  # UTF-8 bytes; refuses lone surrogates
    if len(codes) < context_length + 1:
        raise InputError("text_short", n=len(codes), kind=tokens, need=context_length + 1)
    distinct, ids = np.unique(codes, return_inverse=True)  # sorted vocabulary, text as ids 0..V-1
    if len(distinct) < 2:
        raise InputError("text_distinct", kind=tokens, n=len(distinct))
    if len(distinct) > MAX_TEXT_VOCAB:
        raise InputError("text_vocab", n=len(distinct), kind=tokens, limit=MAX_TEXT_VOCAB)

    if tokens == "char":
        vocab = [chr(c) for c in distinct]
        classes = [_char_class(ch) for ch in vocab]
    else:
        vocab = [tokenizer.token_label(int(b)) for b in distinct]  # 'a', '<space>', '<e7>' as elsewhere in the app
        classes = [_byte_class(int(b)) for b in distinct]
    group_names = [name for name in _CLASS_NAMES if name in classes]
    group_of = [group_names.index(name) for name in classes]

    data = torch.from_numpy(ids.astype(np.int64))  # (N,)
    targets_per_row = min(targets_per_row, len(data) - context_length)
    snapshot_every = _check_budget(
        steps=steps, batch_size=batch_size, targets_per_row=targets_per_row, snapshot_every=snapshot_every,
        num_rows=len(vocab),
        num_classes=len(vocab), d_model=d_model,
    )
    window = targets_per_row + context_length  # context_length tokens to start + one target per prediction
    offsets = torch.arange(window)  # (W,)
    generator = torch.Generator().manual_seed(seed)

    def sample(n: int) -> torch.Tensor:
        """n batches at once: (n, B, W) token ids, each row a window of consecutive tokens."""
        starts = torch.randint(len(data) - window + 1, (n, batch_size, 1), generator=generator)  # (n, B, 1)
        return data[starts + offsets]  # (n, B, W)

    model = TinyLM(len(vocab), len(vocab), d_model, context_length=context_length, generator=generator)
    before, after, losses, snapshots = fit(
        model, sample, tokens_per_batch=batch_size * window, steps=steps, lr=lr, optimizer=optimizer,
        snapshot_every=snapshot_every, progress=progress, cpu_budget_s=cpu_budget_s,
    )
    return TrainingResult(
        vocab=vocab, group_of=group_of, group_names=group_names, weights_before=before, weights_after=after,
        losses=losses, snapshots=snapshots, num_classes=len(vocab),
    )
