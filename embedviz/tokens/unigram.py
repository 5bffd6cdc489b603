"""A SentencePiece unigram tokenizer over shipped pieces and scores: the one XLM-RoBERTa (and so multilingual-e5)
uses, 250,002 pieces covering about 100 languages.

A unigram vocabulary gives every piece a log-probability (its score). A text is cut into the sequence of pieces
whose scores add up to the most, found by Viterbi: best[e] = max over pieces text[i:e] of best[i] + score(piece).
Before that the text is normalised (a per-character map shipped with the vocabulary, NFKC-like: full-width
letters to ASCII and so on), runs of spaces become one, a space is put in front, and every space becomes "▁"
(U+2581) so a piece that starts a word carries it ("▁cat") and a piece inside a word does not ("cat").
A character no piece covers becomes <unk> on its own, scored min(score) - 10, as SentencePiece does.

`UnigramTokenizer` answers the handful of calls the app makes of a `tokenizers.Tokenizer` (`encode`,
`token_to_id`, `id_to_token`, `get_vocab_size`, `model.unk_token`), so a table with this tokenizer is explored by
the same code as one with a Hugging Face tokenizer.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Mapping, Sequence

from embedviz._validate import string

METASPACE = "\u2581"  # "▁": SentencePiece's visible space
UNK_PENALTY = 10.0  # SentencePiece scores an unknown character min(score) - 10
MAX_TEXT_CHARS = 2_000  # Viterbi is O(chars x longest piece): bounded so a pasted book cannot stall a page


@dataclass(frozen=True)
class Encoding:
    """What `encode` returns: the pieces' ids and their strings, in order (no <s> / </s>)."""

    ids: list[int]
    tokens: list[str]


class UnigramTokenizer:
    """Viterbi segmentation over `pieces[i]` with log-probability `scores[i]`; id i is the piece's row.

    pieces:      the vocabulary in id order (specials such as <s>, <pad>, </s>, <unk>, <mask> included)
    scores:      one float per piece; specials are never matched inside text
    unk_id:      the id of <unk>
    normalize:   code point -> replacement string, applied one character at a time before segmentation
    specials:    ids that are control tokens, only taken by exact lookup, never inside a text
    """

    def __init__(
        self,
        pieces: Sequence[str],
        scores: Sequence[float],
        *,
        unk_id: int,
        normalize: Mapping[int, str] | None = None,
        specials: Sequence[int] = (),
    ) -> None:
        if len(pieces) != len(scores):
            raise ValueError(f"pieces ({len(pieces)}) and scores ({len(scores)}) must have the same length")
        self._pieces = list(pieces)
        self._scores = [float(s) for s in scores]
        self._unk_id = int(unk_id)
        self._normalize = dict(normalize or {})
        self._specials = set(int(i) for i in specials) | {self._unk_id}
        self._id_of = {piece: i for i, piece in enumerate(self._pieces)}  # first id wins, as in SentencePiece
        candidates = [i for i in range(len(self._pieces)) if i not in self._specials and self._pieces[i]]
        self._unk_score = min(self._scores[i] for i in candidates) - UNK_PENALTY
        self._longest = max(len(self._pieces[i]) for i in candidates)  # in characters
        self.model = SimpleNamespace(unk_token=self._pieces[self._unk_id])

    # -- the tokenizers.Tokenizer calls the app makes
    def get_vocab_size(self) -> int:
        return len(self._pieces)

    def token_to_id(self, piece: str) -> int | None:
        return self._id_of.get(piece)

    def id_to_token(self, token_id: int) -> str | None:
        return self._pieces[token_id] if 0 <= int(token_id) < len(self._pieces) else None

    def score(self, token_id: int) -> float:
        return self._scores[int(token_id)]

    def encode(self, text: str, add_special_tokens: bool = False) -> Encoding:
        """Text -> its most probable pieces. `add_special_tokens` is accepted for compatibility and ignored."""
        ids = self.segment(self.prepare(text))
        return Encoding(ids=ids, tokens=[self._pieces[i] for i in ids])

    def word_pieces(self, word: str) -> Encoding:
        """The pieces of one word, as a row lookup wants them.

        A CJK word after a space is cut as "▁" + "猫": the lone marker says only "a word starts here" and the
        row that carries the meaning is the character's own, so a leading lone "▁" followed by pieces is
        dropped ("猫" -> ["猫"], "cat" -> ["▁cat"]).
        """
        encoding = self.encode(word.strip())
        if len(encoding.ids) > 1 and encoding.tokens[0] == METASPACE:
            return Encoding(ids=encoding.ids[1:], tokens=encoding.tokens[1:])
        return encoding

    # -- the algorithm
    def prepare(self, text: str) -> str:
        """Normalise, collapse runs of spaces, put "▁" in front and in place of every space."""
        string("text", text, limit=MAX_TEXT_CHARS)
        normalised = "".join(self._normalize.get(ord(ch), ch) for ch in text)
        collapsed = []
        for ch in normalised:
            if ch == " " and collapsed and collapsed[-1] == " ":
                continue  # two or more spaces count as one
            collapsed.append(ch)
        joined = "".join(collapsed)
        if not joined.startswith(" "):
            joined = " " + joined  # a text starts a word, so its first piece carries the space marker
        return joined.replace(" ", METASPACE)

    def segment(self, prepared: str) -> list[int]:
        """Viterbi over an already prepared string: the ids whose scores sum to the most."""
        n = len(prepared)
        best = [float("-inf")] * (n + 1)  # best[e]: highest total score of any cut of prepared[:e]
        back: list[tuple[int, int]] = [(0, -1)] * (n + 1)  # (start, piece id) of the last piece of that cut
        best[0] = 0.0
        for i in range(n):
            if best[i] == float("-inf"):
                continue
            for e in range(i + 1, min(n, i + self._longest) + 1):
                piece_id = self._id_of.get(prepared[i:e])
                if piece_id is None or piece_id in self._specials:
                    continue
                total = best[i] + self._scores[piece_id]
                if total > best[e]:
                    best[e], back[e] = total, (i, piece_id)
            unknown = best[i] + self._unk_score  # one character nobody covers: <unk>, so the cut always exists
            if unknown > best[i + 1]:
                best[i + 1], back[i + 1] = unknown, (i, self._unk_id)
        ids = []
        end = n
        while end > 0:
            start, piece_id = back[end]
            ids.append(piece_id)
            end = start
        return ids[::-1]


# Unicode character-name prefixes -> the script a piece is written in (the first letter decides)
_SCRIPTS = {"CJK": "han", "LATIN": "latin", "HANGUL": "hangul", "CYRILLIC": "cyrillic", "THAI": "thai",
            "ARABIC": "arabic", "GREEK": "greek", "HIRAGANA": "kana", "KATAKANA": "kana", "DEVANAGARI": "devanagari",
            "HEBREW": "hebrew"}
SCRIPTS = (*dict.fromkeys(_SCRIPTS.values()), "other")


def script_of(piece: str) -> str:
    """The writing system of a piece's first letter ("猫" han, "▁gato" latin, "▁고양이" hangul), else "other"."""
    import unicodedata

    for ch in piece:
        if ch.isalpha():
            return _SCRIPTS.get(unicodedata.name(ch, "").split(" ")[0], "other")
    return "other"
