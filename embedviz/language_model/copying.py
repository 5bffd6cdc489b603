"""Can glassllm's model look back and copy? Measured before any retrieval test past its length is worth running.

A retrieval check past the trained length ("a passage repeated d tokens later: is the second copy predicted better,
and up to which d, with which method?") needs a model that copies inside its own 128 tokens first: models with
induction heads predict a repeated passage almost perfectly the second time. This measures that inside the
trained length: passages of the text repeated back to back, the loss on each copy. If the later copies are not
predicted better than the first, the model does not copy, and a retrieval test past its length would measure
nothing but that.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from embedviz.language_model import glass

COPIES = 3
PASSAGE = 40  # tokens: 3 copies fit inside the trained 128
PASSAGES = 10
COPIES_MATTER = 0.5  # nats: a model that copies predicts a repeated passage this much better (usually several nats)


@dataclass(frozen=True)
class CopyCheck:
    """Mean next-token loss on each copy of repeated passages (the first token of each copy left out: nothing
    before it says what comes)."""

    passage: int  # tokens per passage
    passages: int
    losses: tuple[float, ...]  # (COPIES,) copy 1, 2, 3

    @property
    def gain(self) -> float:
        """How much better the best later copy is predicted than the first, in nats (negative: worse)."""
        return self.losses[0] - min(self.losses[1:])

    @property
    def copies(self) -> bool:
        return self.gain >= COPIES_MATTER


def copy_check(text: str | None = None, *, passage: int = PASSAGE, passages: int = PASSAGES) -> CopyCheck:
    """Passages of ``text`` (the default text) each repeated COPIES times back to back, inside the trained length."""
    ids = glass.encode(glass.default_text() if text is None else text)
    model = glass.load()
    if COPIES * passage > model.trained_length:
        raise ValueError(f"{COPIES} copies of {passage} tokens do not fit in the trained {model.trained_length}")
    starts = np.linspace(0, len(ids) - passage, passages).round().astype(int)
    tokens = np.stack([np.tile(ids[s:s + passage], COPIES) for s in starts])  # (P, COPIES * passage)
    losses = glass.next_token_losses(tokens)  # (P, COPIES * passage - 1): position p predicts token p + 1
    # copy c's tokens 1..passage-1 are predicted at positions c * passage .. c * passage + passage - 2
    per_copy = tuple(float(losses[:, c * passage:c * passage + passage - 1].mean()) for c in range(COPIES))
    return CopyCheck(passage, len(starts), per_copy)
