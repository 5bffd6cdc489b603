"""The lesson tours as data (embedviz/lessons/tours.py) and the take-away CSV (embedviz/figures/export.py).

The answers are checked against references that do not use the function under test: the lesson's own numbers,
naive loops over the formulas, and the rules the lessons state (only the rows used get a gradient unless tied).
"""
import csv
import io
import json
import math
from functools import lru_cache

import numpy as np
import plotly.graph_objects as go
import pytest

from embedviz.lessons import tours
from embedviz.models import params
from embedviz.figures.export import figure_csv, file_name, table_csv
from embedviz.tokens.tokenizer import encode
from embedviz.lessons.widget_keys import BY_PAGE, Home, InputLayer, PastLength, Rope, Sinusoidal, Tokens, Training
from tests.input_errors import raises_input

# tours as data


def test_five_tours_of_six_to_thirteen_steps_each_with_a_question():
    assert list(tours.TOURS) == ["000", "001", "002", "003", "004"]
    for lesson, tour in tours.TOURS.items():  # lesson 003's 13th: its extrapolation claim on a real model
        assert 6 <= len(tour.steps) <= 13, lesson
        assert any(step.question for step in tour.steps), f"tour {lesson} asks nothing"
        names = [step.name for step in tour.steps]
        assert len(set(names)) == len(names), f"tour {lesson} names two steps alike: {names}"


def test_steps_name_real_pages_and_their_widget_keys():
    """Every key a tour step sets is one its page declares (embedviz/lessons/widget_keys.py), so a renamed widget fails
    here rather than a tour step silently setting nothing."""
    from embedviz.app.pages import PAGES  # the url paths the frame serves

    urls = {url for _, entries in PAGES for *_, url in entries}
    assert set(BY_PAGE) == urls  # every page has its keys, and no keys name a page that is gone
    for lesson, tour in tours.TOURS.items():
        for step in tour.steps:
            assert step.page in urls, (lesson, step.page)
            page_keys = BY_PAGE[step.page]
            for key in step.settings:
                assert key in page_keys.keys(), f"{lesson}/{step.name}: {key} is not a {step.page} key"


def test_each_page_owns_its_keys():
    """A key is a URL parameter: it carries its page's prefix, and no two widgets anywhere share one."""
    seen: dict[str, str] = {}
    for url, page_keys in BY_PAGE.items():
        names = [name for name in vars(page_keys) if name.isupper() and name != "PREFIX"]
        values = [getattr(page_keys, name) for name in names]
        assert values and len(set(values)) == len(values), url
        for value in values:
            assert value.startswith(page_keys.PREFIX) and value != page_keys.PREFIX, (url, value)
            assert value not in seen, f"{value} is both {seen[value]}'s and {url}'s"
            seen[value] = url
    families = [family for page_keys in BY_PAGE.values() for family in page_keys.families()]
    assert not [key for key in seen if any(key.startswith(f) and key != f for f in families)]  # none in a family
    assert Home.TOUR("003") == "home_tour_003" and Home.declares("home_tour_003")
    assert not Home.declares("home_tour_") and not Home.declares("sin_d")


def test_step_lookup_names_what_exists():
    assert tours.step("003", 5).name == "d8"
    with raises_input("one_of", name="tour", value="007"):
        tours.step("007", 1)
    with raises_input("tour_step", value=14, n=13, tour="003"):
        tours.step("003", 14)
    with pytest.raises(ValueError, match="asks no question"):
        tours.answer("003", 1)


def test_lesson_settings_are_the_lessons_numbers():
    """A few rows carry the lessons' own settings: lesson 003's D = 8 table, lesson 001's 500 steps, lesson 004's
    100,000 x 4,096 matrix, lesson 002's ANDREA-120M and lesson 003's Qwen3-0.6B tables."""
    assert tours.step("003", 5).settings[Sinusoidal.D_MODEL] == 8
    assert tours.step("001", 4).settings[Training.STEPS] == 500
    s = tours.step("004", 1).settings
    assert (s[Tokens.VOCAB], s[Tokens.WIDTH]) == (100_000, 4_096)
    s = tours.step("002", 2).settings
    assert (s[Tokens.VOCAB], s[Tokens.WIDTH], s[Tokens.MAX_CONTEXT_LENGTH]) == (8_449, 768, 1_024)
    s = tours.step("003", 1).settings
    assert (s[Tokens.VOCAB], s[Tokens.WIDTH]) == (151_936, 1_024)


# every question's answer against an independent reference


def _questions():
    return [(lesson, k) for lesson, tour in tours.TOURS.items()
            for k, step in enumerate(tour.steps, 1) if step.question]


def expected(lesson: str, k: int) -> str:
    """The right option from a reference that does not call the question's solver."""
    s, qid = tours.step(lesson, k).settings, tours.step(lesson, k).question.id
    if qid == "gradient_rows":  # lesson 000: untied, only the input rows (every token but the last) get a gradient
        used = set(encode(s[Tokens.TEXT])[:-1])
        return "all" if s[Tokens.TIED] or len(used) == 256 else "used"
    if qid == "fastest_pair":  # wavelength of pair i: 2 pi base^(2i/D), naive loop
        d_model, base = s[Sinusoidal.D_MODEL], s[Sinusoidal.BASE]
        wavelengths = [2 * math.pi * base ** (2 * i / d_model) for i in range(d_model // 2)]
        i = wavelengths.index(min(wavelengths))
        return "first" if i == 0 else "last" if i == len(wavelengths) - 1 else "middle"
    if qid == "one_hot":  # distances between rows of the identity
        ids = sorted(set(encode(s[Tokens.TEXT])))
        eye = np.eye(256)[ids]
        d = [np.linalg.norm(eye[a] - eye[b]) for a in range(len(ids)) for b in range(a + 1, len(ids))]
        return "equal" if max(d) - min(d) < 1e-12 else "different"
    if qid == "share":  # lesson 002: (V*D + L*D) / total, from the preset's fields
        p = params.PRESETS[s[Tokens.PRESET]]
        share = (p.vocab_size * p.d_model + p.max_context_length * p.d_model) / p.total_params
        return "under10" if share < 0.1 else "10to30" if share < 0.3 else "over30"
    if qid == "shuffle":  # permutation equivariance: always the same up to rounding
        return "same"
    if qid == "near_far":
        def pe(p):
            out = []
            for i in range(s[Sinusoidal.D_MODEL] // 2):
                angle = p / s[Sinusoidal.BASE] ** (2 * i / s[Sinusoidal.D_MODEL])
                out += [math.sin(angle), math.cos(angle)]
            return np.array(out)

        def cos(u, v):
            return float(u @ v / np.linalg.norm(u) / np.linalg.norm(v))

        return "near" if cos(pe(5), pe(6)) > cos(pe(5), pe(50)) else "far"
    if qid == "shifted":  # 2-D rotation by hand; the offsets are equal, so the scores are
        omega = s["rope_theta"] ** (-2 * s[Rope.PAIR] / s[Rope.HEAD_DIM])

        def score(m, n):
            qa = m * omega
            ka = n * omega
            q = (math.cos(qa), math.sin(qa))  # R(m) (1, 0)
            k = (0.8 * math.cos(ka) - 0.6 * math.sin(ka), 0.8 * math.sin(ka) + 0.6 * math.cos(ka))
            return q[0] * k[0] + q[1] * k[1]

        m, n, sh = s[Rope.M], s[Rope.N], s[Rope.SHIFT]
        a, b = score(m, n), score(m + sh, n + sh)
        return "equal" if abs(a - b) < 1e-9 else "first" if a > b else "second"
    if qid in ("sim_ab", "sim_aA"):
        a, b = ("a", "b") if qid == "sim_ab" else ("a", "A")
        run = _training_run(s[Training.STEPS], s[Training.D_MODEL], s[Training.LR], s[Training.SEED],
                            s[Training.GROUPS])
        change = _cos(run.weights_after, run, a, b) - _cos(run.weights_before, run, a, b)
        return "same" if abs(change) < tours.SAME else "up" if change > 0 else "down"
    if qid == "pair_band":  # lesson 002: cat and Tuesday are "nearly orthogonal"; cosine by its definition
        from embedviz.models.pretrained import load_bundled_model

        m = load_bundled_model()
        u, v = (m.token_embeddings[m.token_id(w)].astype(float) for w in ("cat", "tuesday"))
        cos = float(u @ v / np.linalg.norm(u) / np.linalg.norm(v))
        assert abs(cos) < 0.15, cos  # the lesson's claim holds in the bundled model
        return "unrelated"
    if qid == "concat":  # count torch's own parameters: four bias-free width x width projections, per combination
        import torch

        def attention_params(width):
            return sum(p.numel() for _ in range(4) for p in torch.nn.Linear(width, width, bias=False).parameters())

        d_model, d_position = s[InputLayer.D_MODEL], s[InputLayer.D_POSITION]
        ratio = attention_params(d_model + d_position) / attention_params(d_model)
        return "same" if ratio < 1.5 else "twice" if ratio < 3 else "four" if ratio < 6 else "more"
    if qid == "loss_past":  # transformers' Llama holding GlassLM's weights, plain RoPE, over its own windows
        return _llama_loss_past(s[PastLength.LENGTH])
    if qid == "table_size":
        count = s[Tokens.VOCAB] * s[Tokens.WIDTH]
        return "millions" if count < 1e8 else "hundreds_of_millions" if count < 1e9 else "billions"
    raise AssertionError(f"no reference for question {qid}")


def _llama_loss_past(length: int) -> str:
    import torch

    from embedviz.language_model import glass  # the text only
    from tests.test_language_model import _llama

    ids = glass.encode(glass.default_text())
    starts = np.linspace(0, len(ids) - length - 1, 10).round().astype(int)
    windows = torch.from_numpy(np.stack([ids[a:a + length + 1] for a in starts]))
    with torch.inference_mode():
        logits = _llama({"rope_type": "default"})(windows[:, :-1]).logits
        losses = torch.nn.functional.cross_entropy(logits.transpose(1, 2), windows[:, 1:], reduction="none")
    rise = float(losses[:, 128:].mean() - losses[:, :128].mean())
    return "stay" if abs(rise) < tours.SAME_LOSS else "rise" if rise > 0 else "fall"


FAST = [(lesson, k) for lesson, k in _questions() if not tours.step(lesson, k).question.id.startswith("sim_")]


@pytest.mark.parametrize("lesson, k", FAST)
def test_answer_matches_an_independent_reference(lesson, k):
    option, facts = tours.answer(lesson, k)
    assert option == expected(lesson, k)
    assert option in tours.step(lesson, k).question.options


def test_lesson_numbers_in_the_explanations():
    assert tours.answer("003", 7)[1]["a"] == tours.answer("003", 7)[1]["b"] == "0.2127"  # lesson 003: 0.2127 twice
    assert tours.answer("002", 2)[1]["share"] == "6.1%"  # lesson 002: "about 6%"
    assert tours.answer("004", 1)[1]["count"] == "409,600,000"  # lesson 004: "4 亿多个浮点数"
    assert tours.answer("003", 6)[1]["near"] == "0.966"


@lru_cache(maxsize=2)
def _training_run(steps, d_model, lr, seed, groups):
    from embedviz.training import experiment

    return experiment.train_group_experiment(steps=steps, d_model=d_model, lr=lr, seed=seed,
                                           groups=tuple(groups.split()), vocab_size=256)


def _cos(W, run, a, b) -> float:
    """Cosine of two tokens' rows, by hand (not TrainingResult.similarity)."""
    u, v = W[run.vocab.index(a)].astype(float), W[run.vocab.index(b)].astype(float)
    return float(u @ v / np.linalg.norm(u) / np.linalg.norm(v))


def test_similarity_questions_follow_the_training_run():
    """Lesson 001: the answer is the sign of the change of sim(a, b) and sim(a, A) in the run at the step's
    settings; the reference reads the trained weights and computes the cosines by hand."""
    def run(k: int) -> dict:  # the settings that train (the open view, tr_view, does not)
        return {key: v for key, v in tours.step("001", k).settings.items() if key != Training.VIEW}

    assert run(5) == run(4)
    for k in (4, 5):
        assert tours.answer("001", k)[0] == expected("001", k)
    assert tours.answer("001", 4)[0] == "up"  # lesson 001: 0.03 -> 0.56, same-group vectors pull together


# export: CSV parses back to the figure's numbers


def _read(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def test_scatter_and_bar_csv_parse_back():
    x = np.linspace(0, 1, 7, dtype=np.float32)
    fig = go.Figure([go.Scatter(x=x, y=np.sin(x), name="sin"), go.Bar(x=["a", "b"], y=[3, 4], name="bars",
                                                                      text=["three", "four"])])
    fig.update_xaxes(title_text="gap")
    fig.update_yaxes(title_text="distance")
    rows = _read(figure_csv(fig))
    assert list(rows[0]) == ["trace", "gap", "distance", "text"]
    sin_rows = [r for r in rows if r["trace"] == "sin"]
    assert np.array_equal(np.array([float(r["gap"]) for r in sin_rows], dtype=np.float32), x)
    assert np.array_equal(np.array([float(r["distance"]) for r in sin_rows], dtype=np.float32), np.sin(x))
    assert [(r["gap"], r["distance"], r["text"]) for r in rows if r["trace"] == "bars"] == [
        ("a", "3", "three"), ("b", "4", "four")]


def test_whole_numbers_from_float_arrays_are_written_as_the_text_writes_them():
    """Positions drawn from a float32 array are 0, 1, 300 in the CSV (not 0.0, 1.0, 300.0); others keep full
    precision and parse back exactly."""
    x = np.array([0, 1, 300], dtype=np.float32)
    y = np.array([0.8373969, 1.0, -2.5], dtype=np.float32)
    rows = _read(figure_csv(go.Figure(go.Scatter(x=x, y=y, name="curve"))))
    assert [r["x"] for r in rows] == ["0", "1", "300"]
    assert [r["y"] for r in rows][1:] == ["1", "-2.5"]
    assert np.array_equal(np.array([float(r["y"]) for r in rows], dtype=np.float32), y)


def test_heatmap_csv_has_one_row_per_cell_and_parses_back():
    z = np.random.default_rng(0).normal(size=(3, 4)).astype(np.float32)
    fig = go.Figure(go.Heatmap(z=z, x=[0, 10, 20, 30], y=["d0", "d1", "d2"]))
    rows = _read(figure_csv(fig))
    assert len(rows) == z.size
    back = np.zeros_like(z)
    for r in rows:
        back[["d0", "d1", "d2"].index(r["y"]), [0, 10, 20, 30].index(int(r["x"]))] = float(r["value"])
    assert np.array_equal(back, z)
    # the figure as the browser receives it (typed arrays in JSON) gives the same table
    sent = json.loads(fig.to_json())
    assert "bdata" in sent["data"][0]["z"]
    assert figure_csv(sent) == figure_csv(fig)


def test_heatmap_without_axes_uses_indices_and_subplots_fall_back_to_x_y():
    from plotly.subplots import make_subplots

    fig = make_subplots(rows=1, cols=2)
    fig.add_trace(go.Heatmap(z=[[1.0, 2.0]]), row=1, col=1)
    fig.add_trace(go.Heatmap(z=[[3.0, 4.0]]), row=1, col=2)
    fig.update_xaxes(title_text="left", row=1, col=1)
    fig.update_xaxes(title_text="right", row=1, col=2)
    rows = _read(figure_csv(fig))
    assert list(rows[0])[:3] == ["trace", "x", "y"]
    assert [(r["trace"], r["x"], r["value"]) for r in rows] == [
        ("trace 1", "0", "1"), ("trace 1", "1", "2"), ("trace 2", "0", "3"), ("trace 2", "1", "4")]


def test_a_chinese_reader_gets_the_csv_columns_in_chinese():
    """The page passes the catalog's column names: a Chinese reader's table says 系列 / 数值, not trace / value,
    and only the columns the figure has are there."""
    from embedviz.app.i18n import catalog
    from embedviz.figures.export import COLUMNS

    zh = {name: catalog()[f"common.csv_col_{name}"]["zh"] for name in COLUMNS}
    fig = go.Figure([go.Heatmap(z=[[1.0, 2.0]]), go.Heatmap(z=[[3.0]], name="第二张")])
    rows = _read(figure_csv(fig, zh))
    assert list(rows[0]) == ["系列", "x", "y", "数值"]
    assert [r["系列"] for r in rows] == ["系列 1", "系列 1", "第二张"]


def test_table_csv_and_file_name():
    text = table_csv({"quantity": ["token", "total"], "parameters": [6_488_832, 7_275_264]})
    assert text == "quantity,parameters\ntoken,6488832\ntotal,7275264\n"
    with pytest.raises(ValueError, match="one length"):
        table_csv({"a": [1], "b": [1, 2]})
    assert file_name("Sinusoidal PE (128 × 64)") == "sinusoidal-pe-128-64.csv"
    assert file_name("位置 相似度") == "位置-相似度.csv"
    assert file_name("") == "figure.csv"
