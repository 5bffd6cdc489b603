"""Tests for embedviz.training.experiment: lesson 001's experiment (same-group vectors move together, groups stay apart).

References used here are independent of the code under test: cosine similarity by a naive loop over pairs,
the information-theoretic floor of the loss (ln 10 for a next token uniform over 10 characters, (2/3) ln 2 for a
bigram model of 'aab' repeated) and torch's own RNG / thread state.
"""
from __future__ import annotations

import math
import threading

import numpy as np
import pytest
import torch

from embedviz.tokens import tokenizer
from embedviz.training import loop
from embedviz.training.experiment import TrainingResult, train_group_experiment, train_on_text
from embedviz.training.result import (
    cross_group_peak, loss_floor, projection_limit, snapshot_curves, snapshot_projections, text_pairs,
)
from tests.input_errors import raises_input

SEEDS = (0, 1, 2)
LOWER, UPPER = "abcdefghij", "ABCDEFGHIJ"


# helpers: an independent reference for cosine similarity


def naive_cosine(u, v) -> float:
    dot = math.fsum(float(a) * float(b) for a, b in zip(u, v))
    nu = math.sqrt(math.fsum(float(a) ** 2 for a in u))
    nv = math.sqrt(math.fsum(float(b) ** 2 for b in v))
    return dot / (nu * nv)


def naive_group_means(weights: np.ndarray, group_of: list[int]) -> tuple[float, float]:
    """(mean cosine over distinct same-group pairs, mean over cross-group pairs), pair by pair."""
    same, cross = [], []
    for i in range(len(weights)):
        for j in range(i + 1, len(weights)):
            (same if group_of[i] == group_of[j] else cross).append(naive_cosine(weights[i], weights[j]))
    return float(np.mean(same)), float(np.mean(cross))


@pytest.fixture(scope="module")
def runs() -> dict[int, TrainingResult]:
    """The text's experiment at the defaults (500 steps, d_model 16) for a few seeds, trained once per module."""
    return {seed: train_group_experiment(seed=seed) for seed in SEEDS}


# the experiment of lesson 001


def test_result_layout_follows_the_groups(runs):
    r = runs[0]
    assert r.vocab == list(LOWER + UPPER)
    assert r.group_of == [0] * 10 + [1] * 10
    assert r.group_names == [LOWER, UPPER]
    assert r.num_classes == 256  # the text's byte vocabulary
    for w in (r.weights_before, r.weights_after):
        assert w.shape == (20, 16) and w.dtype == np.float32
    assert r.losses.shape == (500,) and np.all(np.isfinite(r.losses))


def test_same_group_vectors_move_together_and_groups_stay_apart(runs):
    means = {seed: naive_group_means(r.weights_after, r.group_of) for seed, r in runs.items()}
    for seed, (same, cross) in means.items():
        assert same > 0.3, (seed, same)
        assert same - cross > 0.4, (seed, same, cross)  # a wide margin for every seed
        assert abs(cross) < 0.2, (seed, cross)  # 256-way softmax: cross-group stays near 0, as in the text
    assert np.mean([same for same, _ in means.values()]) >= 0.4


def test_before_training_similarities_are_near_zero(runs):
    for seed, r in runs.items():
        same, cross = naive_group_means(r.weights_before, r.group_of)
        # 45 / 100 pairs of random 16-D Gaussian vectors: each cosine has std 1/4, so the means are within ~0.1 of 0
        assert abs(same) < 0.12 and abs(cross) < 0.1, (seed, same, cross)


def test_text_pair_a_b_rises(runs):
    before = np.mean([r.similarity("a", "b", after=False) for r in runs.values()])
    after = np.mean([r.similarity("a", "b") for r in runs.values()])
    assert abs(before) < 0.25 and after > 0.4 and after - before > 0.3


def test_similarity_matches_naive_cosine(runs):
    r = runs[1]
    for a, b in [("a", "b"), ("a", "A"), ("J", "c")]:
        i, j = r.vocab.index(a), r.vocab.index(b)
        assert r.similarity(a, b) == pytest.approx(naive_cosine(r.weights_after[i], r.weights_after[j]), abs=1e-6)
        assert r.similarity(a, b, after=False) == pytest.approx(
            naive_cosine(r.weights_before[i], r.weights_before[j]), abs=1e-6
        )
    assert r.similarity("a", "a") == pytest.approx(1.0, abs=1e-6)
    assert r.group_similarity() == pytest.approx(naive_group_means(r.weights_after, r.group_of), abs=1e-5)
    matrix = r.similarity_matrix(after=False)
    assert matrix.shape == (20, 20) and matrix[0, 10] == pytest.approx(r.similarity("a", "A", after=False), abs=1e-6)


def test_losses_fall_to_the_uniform_floor(runs):
    for seed, r in runs.items():
        first, last = r.losses[:50].mean(), r.losses[-50:].mean()
        assert last < first, seed
        # the next token is uniform over 10 characters, so no model can beat ln 10 on average
        assert math.log(10) - 0.03 < last < math.log(10) + 0.1, (seed, last)


def test_snapshot_curves_are_the_group_means_of_every_snapshot(runs):
    r = runs[2]
    steps, curve = snapshot_curves(r)
    assert list(steps) == [step for step, _ in r.snapshots] and curve.shape == (len(r.snapshots), 2)
    for k in (0, len(r.snapshots) // 2, len(r.snapshots) - 1):
        assert tuple(curve[k]) == pytest.approx(naive_group_means(r.snapshots[k][1], r.group_of), abs=1e-5)


def test_the_cross_group_peak_is_the_highest_snapshot_and_the_unseen_classes_are_the_heads_rest(runs):
    """Lesson 001's run: a 256-byte head over 20 characters leaves 236 classes no token is; the cross-group curve's
    top, found by naive means over every snapshot, rises above its start early on (the shared push)."""
    r = runs[0]
    assert r.unseen_classes == 236
    means = [naive_group_means(weights, r.group_of)[1] for _, weights in r.snapshots]
    best = int(np.argmax(means))
    step, value = cross_group_peak(r)
    assert step == r.snapshots[best][0] and value == pytest.approx(means[best], abs=1e-5)
    assert 0 < step < r.snapshots[-1][0] and value > means[0] + 0.05
    single = train_group_experiment(groups=("abc",), steps=5)
    assert cross_group_peak(single) is None and single.unseen_classes == 256 - 3


def test_snapshot_projections_share_the_trained_axes(runs):
    r = runs[2]
    points = snapshot_projections(r)
    assert len(points) == len(r.snapshots) and all(p.shape == (20, 2) for p in points)
    # the axes are the trained table's own: its picture holds the top-2 variance, found by numpy's eigh
    centred = r.weights_after.astype(np.float64) - r.weights_after.mean(axis=0)
    top2 = np.sort(np.linalg.eigvalsh(centred.T @ centred))[-2:].sum()
    assert float(np.sum(points[-1] ** 2)) == pytest.approx(top2, rel=1e-6)


def test_text_pairs_are_a_b_and_a_A(runs):
    r = runs[0]
    pairs = text_pairs(r)
    assert list(pairs) == [("a", "b"), ("a", "A")]
    i, j = r.vocab.index("a"), r.vocab.index("A")
    assert pairs[("a", "A")] == pytest.approx(
        (naive_cosine(r.weights_before[i], r.weights_before[j]), naive_cosine(r.weights_after[i], r.weights_after[j])),
        abs=1e-6,
    )


def test_loss_floor_is_the_mean_entropy_of_the_groups():
    assert loss_floor(("abcdefghij", "ABCDEFGHIJ")) == pytest.approx(2.302585, abs=1e-6)  # ln 10, lesson 001's ~2.3
    assert loss_floor(("ab", "abcd")) == pytest.approx((0.693147 + 1.386294) / 2, abs=1e-6)  # ln 2, ln 4
    assert loss_floor(("aab",)) == pytest.approx(0.693147, abs=1e-6)  # repeats count once: 2 distinct characters


def test_small_softmax_pushes_the_groups_to_opposite_sides():
    # only the 20 group tokens in the softmax: "towards my group" is "away from the other group"
    r = train_group_experiment(seed=0, steps=200, vocab_size=None)
    same, cross = naive_group_means(r.weights_after, r.group_of)
    assert r.num_classes == 20
    assert cross < -0.25 and same > 0.2, (same, cross)


def test_more_groups_and_sgd():
    r = train_group_experiment(seed=3, steps=200, groups=("abc", "xyz", "0123"), optimizer="sgd", lr=3.0)
    assert r.vocab == list("abcxyz0123") and r.group_of == [0, 0, 0, 1, 1, 1, 2, 2, 2, 2]
    same, cross = naive_group_means(r.weights_after, r.group_of)
    assert same - cross > 0.2 and r.losses[-50:].mean() < r.losses[:50].mean()


def test_repeated_characters_in_a_group_count_once():
    r = train_group_experiment(steps=2, groups=("aab", "cdc"), vocab_size=None)
    assert r.vocab == ["a", "b", "c", "d"] and r.num_classes == 4


# reproducibility, snapshots, progress


def test_same_seed_same_result_and_global_state_untouched():
    threads = torch.get_num_threads()
    with torch.random.fork_rng():
        torch.manual_seed(12_345)  # a global state that no call inside the library would produce
        rng_state = torch.get_rng_state()
        a = train_group_experiment(steps=30, seed=7)
        b = train_group_experiment(steps=30, seed=7)
        c = train_group_experiment(steps=30, seed=8)
        train_on_text("hello world", steps=3)
        after_state = torch.get_rng_state()
    assert np.array_equal(a.weights_before, b.weights_before) and np.array_equal(a.weights_after, b.weights_after)
    assert np.array_equal(a.losses, b.losses)
    assert not np.array_equal(a.weights_before, c.weights_before)
    assert torch.equal(after_state, rng_state)  # seeded from its own generator, not the global RNG
    assert torch.get_num_threads() == threads  # training leaves the thread count (set once, embedviz._threads)


def test_the_model_is_built_without_the_meta_device_and_trains_as_plain_modules_do(monkeypatch):
    """TinyLM's modules are built without ``nn.utils.skip_init``, whose meta-device machinery cost a fresh process
    seconds to import on its first training call, and train exactly as plain nn.Embedding / nn.Linear modules do:
    the run's generator overwrites every value their default initialisation drew."""
    def meta_path(*args, **kwargs):
        raise AssertionError("nn.utils.skip_init was called: the meta-device path")

    monkeypatch.setattr(torch.nn.utils, "skip_init", meta_path)
    monkeypatch.setattr(torch.nn.utils.init, "skip_init", meta_path)
    built = train_group_experiment(steps=20, seed=3, d_model=8)
    monkeypatch.setattr(loop, "_EmptyEmbedding", torch.nn.Embedding)
    monkeypatch.setattr(loop, "_EmptyLinear", torch.nn.Linear)
    with torch.random.fork_rng():  # the plain modules' default initialisation draws from torch's global RNG
        plain = train_group_experiment(steps=20, seed=3, d_model=8)
    assert np.array_equal(built.weights_before, plain.weights_before)
    assert np.array_equal(built.weights_after, plain.weights_after) and np.array_equal(built.losses, plain.losses)


def test_overlapping_calls_from_threads_do_not_mix_their_random_streams():
    # a server trains for several sessions at once: each run draws from its own seeded generator
    results: list[TrainingResult] = []
    workers = [threading.Thread(target=lambda s=s: results.append(train_group_experiment(steps=40, seed=s)))
               for s in range(3)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    alone = train_group_experiment(steps=40, seed=0)
    assert len(results) == 3 and any(np.array_equal(r.weights_after, alone.weights_after) for r in results)


def test_text_training_is_reproducible():
    text = "the cat sat on the mat. " * 10
    a, b = train_on_text(text, steps=20, seed=3), train_on_text(text, steps=20, seed=3)
    assert np.array_equal(a.weights_after, b.weights_after) and np.array_equal(a.losses, b.losses)


@pytest.mark.parametrize(
    ("steps", "every", "expected"),
    [(30, 10, [0, 10, 20, 30]), (25, 10, [0, 10, 20, 25]), (5, 100, [0, 5]), (3, 1, [0, 1, 2, 3])],
)
def test_snapshot_steps(steps, every, expected):
    r = train_group_experiment(steps=steps, snapshot_every=every)
    assert [step for step, _ in r.snapshots] == expected
    assert np.array_equal(r.snapshots[0][1], r.weights_before)
    assert np.array_equal(r.snapshots[-1][1], r.weights_after)
    assert all(w.shape == (20, 16) and w.dtype == np.float32 for _, w in r.snapshots)
    # snapshots are copies taken along the way, not views of the table that training keeps changing
    tables = [w for _, w in r.snapshots]
    assert all(not np.array_equal(x, y) for x, y in zip(tables, tables[1:]))


def test_default_snapshots_every_fiftieth(runs):
    assert [step for step, _ in runs[0].snapshots] == list(range(0, 501, 10))


def test_default_snapshots_of_a_big_table_fit_the_memory_budget():
    text = "".join(chr(0x4E00 + i) for i in range(4096))  # 4096 distinct characters
    r = train_on_text(text, steps=40, d_model=256, batch_size=2, targets_per_row=4)
    steps = [step for step, _ in r.snapshots]
    assert steps[0] == 0 and steps[-1] == 40 and len(steps) > 2
    assert sum(w.size for _, w in r.snapshots) <= 16_777_216  # 64 MB of float32
    with raises_input("snapshot_cap", value=1, count=41, rows=4096, D=256):
        train_on_text(text, steps=40, d_model=256, snapshot_every=1)


def test_progress_is_called_a_bounded_number_of_times():
    calls: list[tuple[int, int]] = []
    train_group_experiment(steps=120, progress=lambda step, total: calls.append((step, total)))
    assert 0 < len(calls) <= 61  # at most ~50 updates (plus the last), never none
    assert calls[-1] == (120, 120)
    assert all(total == 120 for _, total in calls)
    assert [step for step, _ in calls] == sorted({step for step, _ in calls})
    few: list[tuple[int, int]] = []
    train_group_experiment(steps=3, progress=lambda step, total: few.append((step, total)))
    assert few == [(1, 3), (2, 3), (3, 3)]


# the user's own text


def test_text_made_of_two_groups_reproduces_the_experiment():
    rng = np.random.default_rng(0)
    # 300 chunks of 20 characters, each chunk from one group: the groups meet only at chunk borders
    chunks = ["".join(rng.choice(list(LOWER if rng.random() < 0.5 else UPPER), size=20)) for _ in range(300)]
    r = train_on_text("".join(chunks), steps=300, seed=0)
    assert r.vocab == sorted(LOWER + UPPER)  # sorted by code point: uppercase first
    assert r.group_names == ["lowercase", "uppercase"]
    assert r.group_of == [1] * 10 + [0] * 10
    same, cross = naive_group_means(r.weights_after, r.group_of)
    assert same - cross > 0.35, (same, cross)


def test_context_window_sees_what_a_bigram_cannot():
    # 'aab' repeated: after 'a' comes 'a' or 'b' half the time, so a bigram model cannot beat (2/3) ln 2;
    # the bag of the last two tokens ({a,a} -> b, {a,b} -> a) predicts every next token
    text = "aab" * 200
    floor = 2 / 3 * math.log(2)
    bigram = train_on_text(text, steps=200, context_length=1, lr=3e-2)
    window = train_on_text(text, steps=200, context_length=2, lr=3e-2)
    assert bigram.losses[-50:].mean() > floor - 0.05
    assert window.losses[-50:].mean() < 0.1


def test_deterministic_text_is_learned_to_near_zero_loss():
    r = train_on_text("abcd" * 100, steps=200, lr=3e-2)
    # starts near ln 4 (4 tokens, a small head gives nearly uniform logits), ends near 0: each token fixes the next
    assert r.losses[0] > 1.0 and r.losses[-50:].mean() < 0.1


def test_byte_tokens_use_the_tokenizer_labels():
    text = "café, 猫!"
    r = train_on_text(text, steps=5, tokens="byte")
    ids = sorted(set(tokenizer.encode(text)))
    assert r.vocab == [tokenizer.token_label(i) for i in ids]
    assert r.num_classes == len(ids) and r.weights_after.shape == (len(ids), 16)
    classes = dict(zip(r.vocab, (r.group_names[g] for g in r.group_of)))
    assert classes["c"] == "lowercase" and classes[","] == "punctuation" and classes["<e7>"] == "UTF-8 byte"
    chars = train_on_text(text, steps=5, tokens="char")
    assert chars.vocab == sorted(set(text))
    char_classes = dict(zip(chars.vocab, (chars.group_names[g] for g in chars.group_of)))
    assert char_classes["猫"] == "other letter" and char_classes[" "] == "whitespace"


def test_short_text_shrinks_the_sequence():
    r = train_on_text("abc", steps=10, context_length=2, targets_per_row=16)
    assert r.losses.shape == (10,) and r.vocab == ["a", "b", "c"]


# input validation


@pytest.mark.parametrize(
    ("kwargs", "code", "params"),
    [
        ({"steps": 0}, "at_least", {"name": "steps", "value": 0, "limit": 1}),
        ({"steps": 5001}, "at_most", {"name": "steps", "value": 5001, "limit": 5000}),
        ({"steps": 2.5}, "integer", {"name": "steps", "value": 2.5, "kind": "float"}),
        ({"d_model": 1}, "at_least", {"name": "d_model", "value": 1, "limit": 2}),
        ({"d_model": 257}, "at_most", {"name": "d_model", "value": 257, "limit": 256}),
        ({"lr": 0.0}, "above", {"name": "lr", "value": 0.0, "limit": 0}),
        ({"lr": -1e-3}, "above", {"name": "lr", "value": -1e-3, "limit": 0}),
        ({"lr": float("nan")}, "finite", {"name": "lr", "value": float("nan")}),
        ({"lr": float("inf")}, "finite", {"name": "lr", "value": float("inf")}),
        ({"lr": "fast"}, "number", {"name": "lr", "value": "fast"}),
        ({"lr": True}, "number", {"name": "lr", "value": True}),
        ({"optimizer": "rmsprop"}, "one_of", {"name": "optimizer", "value": "rmsprop", "allowed": "'adam', 'sgd'"}),
        ({"batch_size": 0}, "at_least", {"name": "batch_size", "value": 0, "limit": 1}),
        ({"targets_per_row": 257}, "at_most", {"name": "targets_per_row", "value": 257, "limit": 256}),
        ({"batch_size": 1024, "targets_per_row": 256}, "logits_cap",
         {"size": 1024, "targets": 256, "classes": 256, "n": 67_108_864, "limit": 4_194_304}),
        ({"snapshot_every": 0}, "at_least", {"name": "snapshot_every", "value": 0, "limit": 1}),
        ({"steps": 5000, "snapshot_every": 1}, "snapshot_cap",
         {"value": 1, "count": 5001, "rows": 20, "D": 16, "steps": 5000, "limit": 1001, "least": 6}),
        ({"groups": ()}, "groups_empty", {}),
        ({"groups": "abcABC"}, "string_list", {"name": "groups", "kind": "str"}),
        ({"groups": ("abc", 5)}, "string", {"name": "groups[1]", "kind": "int"}),
        ({"groups": ("abc", "aa")}, "group_small", {"g": 1, "value": "aa"}),
        ({"groups": ("abc", "xyc")}, "group_shared", {"ch": "c", "a": 0, "b": 1}),
        ({"groups": ("".join(chr(0x4E00 + i) for i in range(257)),)}, "groups_total", {"n": 257, "limit": 256}),
        ({"vocab_size": 19}, "at_least", {"name": "vocab_size", "value": 19, "limit": 20}),
        ({"seed": -1}, "at_least", {"name": "seed", "value": -1, "limit": 0}),
    ],
)
def test_group_experiment_validation(kwargs, code, params):
    with raises_input(code, **params):
        train_group_experiment(**kwargs)


@pytest.mark.parametrize(
    ("text", "kwargs", "code", "params"),
    [
        (b"abc", {}, "string", {"name": "text", "kind": "bytes"}),
        ("abab", {"tokens": "word"}, "one_of", {"name": "tokens", "value": "word", "allowed": "'char', 'byte'"}),
        ("abab", {"context_length": 0}, "at_least", {"name": "context_length", "value": 0, "limit": 1}),
        ("abab", {"context_length": 33}, "at_most", {"name": "context_length", "value": 33, "limit": 32}),
        ("ab", {"context_length": 2}, "text_short", {"n": 2, "kind": "char", "need": 3}),
        ("aaaa", {}, "text_distinct", {"kind": "char", "n": 1}),
        ("abab", {"d_model": 300}, "at_most", {"name": "d_model", "value": 300, "limit": 256}),
        ("abab", {"lr": -1.0}, "above", {"name": "lr", "value": -1.0, "limit": 0}),
        ("ab\ud800", {"tokens": "byte"}, "lone_surrogate", {"codepoint": 0xD800, "index": 2}),
        ("".join(chr(0x4E00 + i) for i in range(4097)), {}, "text_vocab", {"n": 4097, "kind": "char", "limit": 4096}),
    ],
)
def test_text_validation(text, kwargs, code, params):
    with raises_input(code, **params):
        train_on_text(text, **kwargs)


def test_unknown_token_is_named(runs):
    with pytest.raises(ValueError, match=r"token 'z' is not in the vocabulary \('a', 'b'"):
        runs[0].similarity("a", "z")


def test_projection_limit_is_the_largest_coordinate_of_any_snapshot_with_a_margin():
    points = [np.array([[0.5, -2.0]]), np.array([[3.0, 1.0], [-1.0, 0.0]])]
    assert projection_limit(points) == 3.0 * 1.1
    assert projection_limit(points, margin=1.0) == 3.0


def test_the_cross_group_zero_is_the_first_snapshot_below_zero_after_the_peak(runs):
    """Found by naive means over every snapshot: after its early top the defaults' cross-group curve comes down
    through 0 long before the last step (seed 0: near step 170 of 500), so 500 steps are not "near the crossing"."""
    from embedviz.training.result import cross_group_zero

    for seed, r in runs.items():
        means = [naive_group_means(weights, r.group_of)[1] for _, weights in r.snapshots]
        top = int(np.argmax(means))
        below = [r.snapshots[k][0] for k in range(top + 1, len(means)) if means[k] < 0]
        assert cross_group_zero(r) == (below[0] if below else None), seed
    zero = cross_group_zero(runs[0])
    assert zero is not None and zero < 250 and r.snapshots[-1][0] == 500
    short = train_group_experiment(steps=20)  # still rising: no crossing yet
    assert cross_group_zero(short) is None


def test_the_text_tabs_matrix_puts_a_class_side_by_side_and_keeps_every_cosine():
    from embedviz.training.result import class_ordered_similarity

    result = train_on_text("the cat sat on the mat, THE DOG SAT ON THE LOG; 42 + 7 = 49", steps=20, seed=1)
    full = result.similarity_matrix(after=True)
    sim, labels, step = class_ordered_similarity(result)
    assert step == 1 and len(labels) == len(result.vocab)  # a small vocabulary: nothing is averaged
    classes = [result.group_of[result.vocab.index(tok)] for tok in labels]
    assert classes == sorted(classes)  # one class's tokens next to each other
    for i, a in enumerate(labels):  # each cell is the cosine of the two tokens it names
        for j, b in enumerate(labels):
            assert sim[i, j] == pytest.approx(full[result.vocab.index(a), result.vocab.index(b)], abs=1e-6)
    small, shown, block = class_ordered_similarity(result, budget=4)
    assert block > 1 and small.shape[0] <= 4 and len(shown) == small.shape[0]
    assert small[0, 0] == pytest.approx(float(sim[:block, :block].mean()), abs=1e-5)  # block averages
