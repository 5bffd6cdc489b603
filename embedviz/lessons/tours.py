"""The five lessons (``../shared/seeds/`` 000-004) as guided tours: pure data, and the answers to their questions.

A tour is a list of steps in the lesson's order; a step is one row of ``TOURS``:

    Step(page, settings, name, question=None, tabs_first=False)

- ``page``: the url path of an app page (``"sinusoidal"``);
- ``settings``: the page's widget values, ``{widget key: value}`` (a widget's key is its URL parameter, named in
  ``embedviz/lessons/widget_keys.py``); a ``Label("tok.tab_params")`` value is an i18n key whose translated text is
  the value (tab widgets hold their label);
- ``name``: names the step's texts in the catalog, ``tour.<lesson>.<name>`` (what the step says) and
  ``tour.<lesson>.<name>.look`` (what to look at in the figure); a question step's finding, which the step's text
  must not state before the question is asked, is ``tour.<lesson>.<name>.found``, shown in the verdict;
- ``question``: an optional "predict, then check" question (its id, its option codes, the function that answers it);
- ``tabs_first``: the step's figure is the tab it opens, not a figure the page draws above its tabs (the Real model
  page's lesson table): the tour shows the tabs first.

Adding a step is adding a row (and its two texts in ``embedviz/app/locales/tour.py``). The answers are computed
from the core at the step's settings, never typed in: ``answer(lesson, step)`` gives the right option and the
numbers that explain it. No streamlit here; ``embedviz/app/tour.py`` drives the pages and caches the answers.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from embedviz._validate import one_of
from embedviz import dot_product
from embedviz.positions import attention, sinusoidal
from embedviz.input_layer import composition, lookup
from embedviz.language_model import extension as lm_extension
from embedviz.models import params
from embedviz.rope import rotary
from embedviz.training import experiment
from embedviz.errors import InputError
from embedviz.models.pretrained import BUNDLED_NAME, E5_NAME
from embedviz.similarity import cosine_similarity
from embedviz.tokens.tokenizer import VOCAB_SIZE, encode
from embedviz.lessons.widget_keys import (
    Compare, Context, DotProduct, Home, InputLayer, LearnedPositions, PastLength, RealModel, Rope, Sinusoidal, Tokens,
    Training, WhyPosition, WhySinusoidal,
)


class Label(str):
    """A setting whose value is the translated text of this i18n key (a tab is bound to its label)."""


@dataclass(frozen=True)
class Question:
    """``id`` names its texts (``tour.q.<id>``, ``tour.q.<id>.<option>``, ``tour.q.<id>.why``); ``solve(settings)``
    returns the right option and the numbers the explanation quotes."""

    id: str
    options: tuple[str, ...]
    solve: Callable[[Mapping[str, Any]], tuple[str, dict[str, Any]]]


@dataclass(frozen=True)
class Step:
    page: str
    settings: Mapping[str, Any]
    name: str
    question: Question | None = None
    tabs_first: bool = False


@dataclass(frozen=True)
class Tour:
    lesson: str  # "000" .. "004", the seed text's number
    steps: tuple[Step, ...] = field(default_factory=tuple)


# answers: each reads the step's settings and asks the core


def _gradient_rows(s: Mapping[str, Any]) -> tuple[str, dict]:
    """Lesson 000: one backward step reaches only the rows of the tokens used, unless the head is tied."""
    W = lookup.init_table(VOCAB_SIZE, s[Tokens.D_MODEL], scheme=s[Tokens.INIT], seed=s[Tokens.SEED])
    step = lookup.gradient_step(encode(s[Tokens.TEXT]), W, tied=s[Tokens.TIED], seed=s[Tokens.SEED] + 1)
    n = len(step.rows_with_gradient)
    return ("all" if n == VOCAB_SIZE else "used"), {"n": n, "V": VOCAB_SIZE}


def _fastest_pair(s: Mapping[str, Any]) -> tuple[str, dict]:
    """Lesson 000 says low dimensions encode coarse position; which pair of dimensions really turns fastest?"""
    wavelen = sinusoidal.wavelengths(s[Sinusoidal.D_MODEL], s[Sinusoidal.BASE])
    fastest = int(np.argmin(wavelen))
    option = "first" if fastest == 0 else "last" if fastest == len(wavelen) - 1 else "middle"
    return option, {"first": f"{wavelen[0]:.1f}", "last": f"{wavelen[-1]:,.0f}"}


def _one_hot_equal(s: Mapping[str, Any]) -> tuple[str, dict]:
    """Lesson 001: every two different one-hot vectors are sqrt(2) apart; dense rows are not all equally far."""
    ids = lookup.unique_in_order(encode(s[Tokens.TEXT]))
    W = lookup.init_table(VOCAB_SIZE, s[Tokens.D_MODEL], scheme=s[Tokens.INIT], seed=s[Tokens.SEED])
    lo, hi = lookup.distance_comparison(ids, W).one_hot_range
    return ("equal" if hi - lo < 1e-9 else "different"), {"lo": f"{lo:.4f}", "hi": f"{hi:.4f}"}


def _group_run(s: Mapping[str, Any]) -> experiment.TrainingResult:
    return _train(s[Training.STEPS], s[Training.D_MODEL], s[Training.LR], s[Training.SEED],
                  tuple(s[Training.GROUPS].split()), s[Training.SOFTMAX])


@lru_cache(maxsize=2)
def _train(steps: int, d_model: int, lr: float, seed: int, groups: tuple[str, ...], softmax: str):
    """The page's group experiment (the same core call with the same settings), once for both questions on it."""
    return experiment.train_group_experiment(steps=steps, d_model=d_model, lr=lr, seed=seed, groups=groups,
                                           vocab_size=VOCAB_SIZE if softmax == "vocab" else None)


SAME = 0.1  # a similarity that moves less than this in training "stays about the same"


def _similarity_change(a: str, b: str) -> Callable[[Mapping[str, Any]], tuple[str, dict]]:
    """Lesson 001: after training, does sim(a, b) go up, down, or stay within SAME of where it started?"""

    def solve(s: Mapping[str, Any]) -> tuple[str, dict]:
        result = _group_run(s)
        before, after = result.similarity(a, b, after=False), result.similarity(a, b)
        change = after - before
        option = "same" if abs(change) < SAME else "up" if change > 0 else "down"
        return option, {"before": f"{before:+.3f}", "after": f"{after:+.3f}", "steps": s[Training.STEPS]}

    return solve


def _embedding_share(s: Mapping[str, Any]) -> tuple[str, dict]:
    """Lesson 002: what share of ANDREA-120M's parameters sits in its embedding tables?"""
    share = params.preset_share(s[Tokens.PRESET])
    option = "under10" if share < 0.10 else "10to30" if share < 0.30 else "over30"
    return option, {"share": f"{share:.1%}"}


def _shuffle_difference(s: Mapping[str, Any]) -> tuple[str, dict]:
    """Lessons 002-004: attention without positions only reorders its outputs when the words are reordered."""
    demo = attention.word_order_demo(
        s[WhyPosition.TEXT], split=s[WhyPosition.SPLIT], shuffle=s[WhyPosition.SHUFFLE],
        shuffled_text=s.get(WhyPosition.ORDER, ""),
        seed=s[WhyPosition.SEED], positions="none", d_model=s[WhyPosition.D_MODEL],
    ).demo
    return ("same" if demo.max_difference < 1e-9 else "different"), {"diff": f"{demo.max_difference:.1e}"}


def _pair_band(a: str, b: str) -> Callable[[Mapping[str, Any]], tuple[str, dict]]:
    """Lesson 002's "predict the similarity": which band does cos(a, b) fall in, in a trained model's table?"""

    def solve(s: Mapping[str, Any]) -> tuple[str, dict]:
        from embedviz.models.pretrained import load_bundled_model  # the bundled MiniLM, read once per process
        from embedviz.models.word_vectors import pair_similarity

        m = load_bundled_model()
        cos = pair_similarity(m.token_embeddings, m.token_id(a), m.token_id(b))
        return dot_product.similarity_band(cos), {"a": a, "b": b, "cos": f"{cos:.3f}"}

    return solve


PE_POSITIONS = (5, 6, 50)  # cos(PE5, PE6) against cos(PE5, PE50)


def _near_far_cosine(s: Mapping[str, Any]) -> tuple[str, dict]:
    """Lesson 003: is position 5 more like its neighbour 6 or like the far position 50?"""
    pe = sinusoidal.sinusoidal_rows(list(PE_POSITIONS), s[Sinusoidal.D_MODEL], s[Sinusoidal.BASE], dtype=np.float64)
    near, far = cosine_similarity(pe[0], pe[1]), cosine_similarity(pe[0], pe[2])
    return ("near" if near > far else "far"), {"near": f"{near:.3f}", "far": f"{far:.3f}"}


LESSON_003_Q, LESSON_003_K = (1.0, 0.0), (0.8, 0.6)  # lesson 003's 2-D demo vectors, as the RoPE page draws them


def _shifted_score(s: Mapping[str, Any]) -> tuple[str, dict]:
    """Lesson 003: RoPE's score(m, n) against score(m + s, n + s) on one pair."""
    omega = float(rotary.inverse_frequencies(s[Rope.HEAD_DIM], s[Rope.THETA])[s[Rope.PAIR]])
    m, n, shift = s[Rope.M], s[Rope.N], s[Rope.SHIFT]
    a = rotary.score_2d(LESSON_003_Q, LESSON_003_K, m, n, omega)
    b = rotary.score_2d(LESSON_003_Q, LESSON_003_K, m + shift, n + shift, omega)
    option = "equal" if abs(a - b) < 1e-9 else "first" if a > b else "second"
    return option, {"a": f"{a:.4f}", "b": f"{b:.4f}", "m": m, "n": n, "m2": m + shift, "n2": n + shift}


def _table_size(s: Mapping[str, Any]) -> tuple[str, dict]:
    """Lesson 004: how many numbers are in a V x d_model token table?"""
    count = params.embedding_parameter_count(s[Tokens.VOCAB], s[Tokens.WIDTH],
                                             max_context_length=s[Tokens.MAX_CONTEXT_LENGTH],
                                             positional=s[Tokens.POSITIONAL], tied=s[Tokens.TIE]).token_embedding
    option = "millions" if count < 1e8 else "hundreds_of_millions" if count < 1e9 else "billions"
    return option, {"count": f"{count:,}"}


def _concat_growth(s: Mapping[str, Any]) -> tuple[str, dict]:
    """Lesson 000: concatenating positions instead of summing them widens every later layer; by how much does one
    attention block's four projections grow?"""
    cost = {way: composition.width_and_params(VOCAB_SIZE, s[InputLayer.MAX_LENGTH], s[InputLayer.D_MODEL],
                                              s[InputLayer.D_POSITION], combine=way)
            for way in ("sum", "concat")}
    ratio = cost["concat"].attention_per_layer / cost["sum"].attention_per_layer
    option = "same" if ratio < 1.5 else "twice" if ratio < 3 else "four" if ratio < 6 else "more"
    return option, {"sum": f"{cost['sum'].attention_per_layer:,}", "concat": f"{cost['concat'].attention_per_layer:,}",
                    "ratio": f"{ratio:g}", "width": cost["concat"].width}


SAME_LOSS = 0.1  # nats: a mean loss that moves less than this past the trained length "stays about the same"


def _loss_past(s: Mapping[str, Any]) -> tuple[str, dict]:
    """Lesson 003: past the trained length without scaling, does a real RoPE model's loss rise, stay or fall?"""
    from embedviz.language_model import glass  # the real model's weights, read only for this question

    losses = lm_extension.position_losses(glass.default_text(), s[PastLength.LENGTH], None)
    inside, past = lm_extension.loss_rise(losses, glass.load().trained_length)
    rise = past - inside
    option = "stay" if abs(rise) < SAME_LOSS else "rise" if rise > 0 else "fall"
    return option, {"inside": f"{inside:.2f}", "past": f"{past:.2f}", "rise": f"{rise:+.2f}",
                    "windows": len(losses), "length": s[PastLength.LENGTH]}


GRADIENT_ROWS = Question("gradient_rows", ("used", "all"), _gradient_rows)
FASTEST_PAIR = Question("fastest_pair", ("first", "middle", "last"), _fastest_pair)
ONE_HOT = Question("one_hot", ("equal", "different"), _one_hot_equal)
SIM_AB = Question("sim_ab", ("up", "same", "down"), _similarity_change("a", "b"))
SIM_AA = Question("sim_aA", ("up", "same", "down"), _similarity_change("a", "A"))
SHARE = Question("share", ("under10", "10to30", "over30"), _embedding_share)
SHUFFLE = Question("shuffle", ("same", "different"), _shuffle_difference)
PAIR_BAND = Question("pair_band", dot_product.BAND_NAMES, _pair_band("cat", "tuesday"))  # lesson 002's own pair
NEAR_FAR = Question("near_far", ("near", "far"), _near_far_cosine)
SHIFTED = Question("shifted", ("first", "equal", "second"), _shifted_score)
TABLE_SIZE = Question("table_size", ("millions", "hundreds_of_millions", "billions"), _table_size)
CONCAT = Question("concat", ("same", "twice", "four", "more"), _concat_growth)
LOSS_PAST = Question("loss_past", ("rise", "stay", "fall"), _loss_past)


# the tours: one row per step, in each lesson's order

TOK = {Tokens.TEXT: "Hello", Tokens.D_MODEL: 8, Tokens.INIT: "gpt2", Tokens.SEED: 0}
CALC = {Tokens.TAB: Label("tok.tab_params")}
GROUPS = {Training.TAB: Label("train.tab_groups"), Training.GROUPS: "abcdefghij ABCDEFGHIJ", Training.STEPS: 500,
          Training.D_MODEL: 16, Training.LR: 0.01, Training.SEED: 0, Training.SOFTMAX: "vocab",
          Training.VIEW: Label("train.view_sim")}
SIN = {Sinusoidal.BASE: 10_000.0, Sinusoidal.P: 5, Sinusoidal.K: 3}
WHY_SINUSOIDAL = {WhySinusoidal.TAB: Label("why_sinusoidal.tab_norm"), WhySinusoidal.LENGTH: 1_000,
                  WhySinusoidal.OTHER_LENGTH: 10, WhySinusoidal.POSITION: 500, WhySinusoidal.D_MODEL: 8}
SIN_TAB = {name: Label(f"sin.tab_{name}") for name in ("encoding", "lesson", "similarity", "rotation")}
INL = {InputLayer.BATCH: 2, InputLayer.LENGTH: 5, InputLayer.D_MODEL: 8, InputLayer.MAX_LENGTH: 16,
       InputLayer.D_POSITION: 8}  # the Input layer page's defaults; no tab: past L (the refusal step) it draws none
WHY = {WhyPosition.SPLIT: "words", WhyPosition.SHUFFLE: "reverse", WhyPosition.POSITIONS: "none", WhyPosition.SEED: 0,
       WhyPosition.D_MODEL: 8}
# (Why position opens on its difference tab: the steps that read the difference need not set it)
DOT = {DotProduct.TAB: Label("dot.tab_arrows"), DotProduct.LEN_U: 2.0, DotProduct.ANGLE_U: 0, DotProduct.LEN_V: 1.5}
CMP = {Compare.D_MODEL: 64, Compare.LENGTH: 1_024, Compare.HEADS: 8, Compare.K: 1}
# lesson 003 on a real model: GlassLM (trained on 128 tokens) reads 4x that, the lesson's three methods beside none
PAST = {PastLength.TAB: Label("past.tab_loss"), PastLength.SOURCE: "default", PastLength.LENGTH: 512,
        PastLength.FACTOR: 4.0, PastLength.METHODS: list(lm_extension.LESSON_METHODS)}
ROPE = {Rope.PRESET: "custom", Rope.PAIRING: "half", Rope.HEAD_DIM: 128, Rope.THETA: 10_000.0, Rope.LENGTH: 4_096,
        Rope.PAIR: 0, Rope.M: 5, Rope.N: 3, Rope.SHIFT: 45}


def _calc(preset: str, values: Mapping[str, Any] | None = None) -> dict:
    """The parameter calculator at a preset's numbers (or custom ones)."""
    p = params.PRESETS.get(preset)
    base = ({Tokens.VOCAB: p.vocab_size, Tokens.WIDTH: p.d_model, Tokens.MAX_CONTEXT_LENGTH: p.max_context_length,
             Tokens.POSITIONAL: p.positional, Tokens.TIE: p.tied_embeddings} if p else {})
    return {**CALC, Tokens.PRESET: preset, **base, **(values or {})}


def _rope(preset: str, values: Mapping[str, Any] | None = None) -> dict:
    """The RoPE page at a preset's head_dim, rope_theta and length (setting the preset box alone moves nothing)."""
    p = params.PRESETS[preset]
    return {**ROPE, Rope.PRESET: preset, Rope.HEAD_DIM: p.head_dim, Rope.THETA: float(p.rope_theta),
            Rope.LENGTH: p.max_context_length, **(values or {})}


TOURS: dict[str, Tour] = {
    t.lesson: t for t in (
        Tour("000", (
            Step("token-embeddings", {**TOK, Tokens.D_MODEL: 64, Tokens.TAB: Label("tok.tab_lookup")}, "lookup"),
            Step("token-embeddings", {**TOK, Tokens.D_MODEL: 64, Tokens.TAB: Label("tok.tab_grad"), Tokens.TIED: False},
                 "rows", GRADIENT_ROWS),
            Step("token-embeddings", {**TOK, Tokens.D_MODEL: 64, Tokens.TAB: Label("tok.tab_grad"), Tokens.TIED: True},
                 "tied", GRADIENT_ROWS),
            Step("compare", {**CMP, Compare.TAB: Label("cmp.tab_params")}, "learned"),
            Step("input-layer", {**INL, InputLayer.LENGTH: 32}, "refuse"),
            Step("sinusoidal", {**SIN, Sinusoidal.D_MODEL: 64, Sinusoidal.LENGTH: 128,
                                Sinusoidal.TAB: SIN_TAB["lesson"]}, "formula", FASTEST_PAIR),
            Step("sinusoidal", {**SIN, Sinusoidal.D_MODEL: 64, Sinusoidal.LENGTH: 128, Sinusoidal.P: 5, Sinusoidal.K: 5,
                                Sinusoidal.TAB: SIN_TAB["rotation"]}, "rotation"),
            Step("home", {Home.TEXT: "Hello"}, "sum"),
            Step("input-layer", {**INL, InputLayer.TAB: Label("inl.tab_shapes")}, "broadcast"),
            Step("input-layer", {**INL, InputLayer.D_MODEL: 64, InputLayer.D_POSITION: 64,
                                 InputLayer.TAB: Label("inl.tab_sum")}, "concat", CONCAT),
            Step("sinusoidal", {**SIN, Sinusoidal.D_MODEL: 32, Sinusoidal.LENGTH: 128,
                                Sinusoidal.TAB: SIN_TAB["lesson"]}, "d32"),
        )),
        Tour("001", (
            Step("token-embeddings", {**TOK, Tokens.TAB: Label("tok.tab_lookup")}, "lookup"),
            Step("token-embeddings", {**TOK, Tokens.TAB: Label("tok.tab_onehot")}, "onehot", ONE_HOT),
            Step("token-embeddings", {**TOK, Tokens.INIT: "unit", Tokens.TAB: Label("tok.tab_init")}, "randn"),
            Step("trained-embedding", GROUPS, "groups", SIM_AB),
            Step("trained-embedding", {**GROUPS, Training.VIEW: Label("train.view_time")}, "cross", SIM_AA),
            Step("trained-embedding", {**GROUPS, Training.STEPS: 1_000, Training.VIEW: Label("train.view_time")},
                 "longer"),
            Step("real-model", {RealModel.MODEL: BUNDLED_NAME, RealModel.TAB: Label("real.tab_analogy")}, "analogy",
                 tabs_first=True),
        )),
        Tour("002", (
            Step("token-embeddings", {**TOK, Tokens.D_MODEL: 768, Tokens.INIT: "inv_sqrt_d",
                                      Tokens.TAB: Label("tok.tab_init")}, "lookup"),
            Step("token-embeddings", _calc("ANDREA-120M"), "andrea", SHARE),
            Step("dot-product", {**DOT, DotProduct.ANGLE_V: 90}, "dot"),
            Step("dot-product", {DotProduct.TAB: Label("dot.tab_predict"), DotProduct.REVEAL: True}, "predict",
                 PAIR_BAND),
            Step("why-position", {**WHY, WhyPosition.TEXT: "the cat sat on a mat"}, "order", SHUFFLE),
            Step("compare", {**CMP, Compare.D_MODEL: 768, Compare.TAB: Label("cmp.tab_past")}, "learned"),
            Step("token-embeddings", _calc("GPT-2 (124M)"), "tied"),
            Step("home", {Home.TEXT: "the cat"}, "sum"),
        )),
        Tour("003", (
            Step("token-embeddings", _calc("Qwen3-0.6B"), "qwen"),
            Step("real-model", {RealModel.MODEL: E5_NAME, RealModel.TAB: Label("real.tab_pairs")}, "pairs"),
            Step("why-position", {**WHY, WhyPosition.TEXT: "the cat sat on the mat"}, "permute", SHUFFLE),
            Step("why-sine-cosine", WHY_SINUSOIDAL, "naive"),
            Step("sinusoidal", {**SIN, Sinusoidal.D_MODEL: 8, Sinusoidal.LENGTH: 128,
                                Sinusoidal.TAB: SIN_TAB["lesson"]}, "d8"),
            Step("sinusoidal", {**SIN, Sinusoidal.D_MODEL: 64, Sinusoidal.LENGTH: 100,
                                Sinusoidal.TAB: SIN_TAB["similarity"]}, "heatmap", NEAR_FAR),
            Step("rope", {**ROPE, Rope.TAB: Label("rope.tab_pair")}, "pair", SHIFTED),
            Step("rope", {**ROPE, Rope.TAB: Label("rope.tab_decay")}, "decay"),
            Step("learned-positions", {LearnedPositions.TAB: Label("learn.tab_steps")}, "learned"),
            Step("compare", {**CMP, Compare.TAB: Label("cmp.tab_props")}, "properties"),
            Step("rope", _rope("Qwen3-0.6B", {Rope.TAB: Label("rope.tab_wave")}), "theta"),
            Step("context-extension", {Context.SOURCE: "Qwen3-0.6B (YaRN 128K)", Context.METHOD: "yarn",
                                       Context.TAB: Label("ctx.tab_pairs")}, "extend"),
            Step("past-length", PAST, "past", LOSS_PAST),
        )),
        Tour("004", (
            Step("token-embeddings", _calc("custom", {
                Tokens.VOCAB: 100_000, Tokens.WIDTH: 4_096, Tokens.MAX_CONTEXT_LENGTH: 0,
                Tokens.POSITIONAL: "sinusoidal", Tokens.TIE: False}), "size", TABLE_SIZE),
            Step("token-embeddings", {**TOK, Tokens.TEXT: "我爱学习", Tokens.TAB: Label("tok.tab_lookup")},
                 "onehot"),
            Step("trained-embedding", GROUPS, "learned"),
            Step("why-position", {**WHY, WhyPosition.TEXT: "我 爱 学习", WhyPosition.SHUFFLE: "typed",
                                  WhyPosition.ORDER: "学习 爱 我", WhyPosition.TAB: Label("why.tab_outputs")},
                 "order", SHUFFLE),
            Step("sinusoidal", {**SIN, Sinusoidal.D_MODEL: 4_096, Sinusoidal.LENGTH: 128,
                                Sinusoidal.TAB: SIN_TAB["encoding"]}, "formula"),
            Step("sinusoidal", {**SIN, Sinusoidal.D_MODEL: 64, Sinusoidal.LENGTH: 128, Sinusoidal.P: 3, Sinusoidal.K: 4,
                                Sinusoidal.TAB: SIN_TAB["rotation"]}, "linear"),
            Step("home", {Home.TEXT: "我爱学习"}, "sum"),
            Step("rope", _rope("LLaMA-2-7B", {Rope.TAB: Label("rope.tab_angles")}), "rope"),
        )),
    )
}


def step(lesson: str, number: int) -> Step:
    """Step ``number`` (1-based, as in the URL) of the lesson's tour; a ValueError names what exists."""
    one_of("tour", lesson, TOURS)
    steps = TOURS[lesson].steps
    if not 1 <= number <= len(steps):
        raise InputError("tour_step", value=number, n=len(steps), tour=lesson)
    return steps[number - 1]


def answer(lesson: str, number: int) -> tuple[str, dict[str, Any]]:
    """The right option of the step's question at the step's settings, and the numbers that show why."""
    question = step(lesson, number).question
    if question is None:
        raise ValueError(f"step {number} of tour {lesson} asks no question")
    return question.solve(step(lesson, number).settings)
