"""No English words in the Chinese interface: every page of the navigation, at its defaults and with each of its
URL-bound tabs opened, in Chinese; every string a reader sees (text elements, labels, help, options, metrics, table
headers, and each plotly figure's titles, axis and colour-bar titles, legend names, annotations and hover templates)
is searched for English words.

What may stay English is decided by rules, not by a list of what the pages happen to say today:
- formulas and code (st.latex, st.code, $...$, `...`), quoted data ('Hello', “cat”), titles in 《...》 or *...*,
  what the reader typed into a text field, and hover placeholders (%{y:.3f});
- a term's English gloss in full-width parentheses right after the Chinese term it glosses, 注意力汇聚点（attention
  sink）: the English name a reader will meet in papers and code, given once where the page first uses the term;
- identifiers and names: one letter (q, k, T), a digit, "_" or "." inside (d_model, Qwen3, nn.Embedding), a
  capital after the first letter (RoPE, ALiBi, PE, GPT-NeoX), an author before 等 (Chen 等);
- the short ALLOWED list below: names with one capital (Transformer, Llama), formula functions (cos, ln), units
  (nat) and the few identifiers spelled as plain words (rope_type values "linear", "yarn").
Tabs are found in the AppTest tree (a tab_container with a query_param_key), not listed here, so a section moved
into a new bound tab is checked too.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from google.protobuf.descriptor import FieldDescriptor
from streamlit.testing.v1 import AppTest

from embedviz.app.pages import PAGES
from embedviz.lessons.widget_keys import LearnedPositions, RealModel, Tokens
from tests.app import pagetest as pt

PAGE_NAMES = [file.removeprefix("app_pages/").removesuffix(".py") for _, entries in PAGES for file, *_ in entries]

ALLOWED = frozenset({
    # names of things (architectures, models, libraries, people and places cited), spelled as they are
    "transformer", "transformers", "llama", "qwen", "gemma", "mistral", "phi", "bert", "scout", "maverick", "pixtral",
    "python", "numpy", "pytorch", "torch", "pickle", "safetensors", "npy", "hugging", "face", "reddit", "meta",
    "andrea", "adam", "roformer", "bloom", "glm", "embedviz", "mpt", "emozilla", "kaiokendev", "gpt-oss", "minilm", "ctrl", "enter",
    # formula functions and operators, and units
    "cos", "sin", "exp", "ln", "log", "max", "min", "inf", "floor", "argmax", "softmax", "sim", "perm", "mod", "nat", "nats",
    # words Chinese technical writing keeps in English (one term each, see the glossary in the report/README)
    "token", "tokens", "id", "ids", "one-hot", "query", "key",
    # identifiers written as plain words: rope_type / layer-type values from a model's config.json
    "default", "linear", "dynamic", "yarn", "longrope", "base", "theta", "mscale", "truncate", "factor",
})
# the English example words of the bundled model (an English vocabulary), which the pages quote as data
EXAMPLE_WORDS = frozenset({
    "cat", "cats", "dog", "car", "airplane", "tuesday", "king", "kings", "queen", "queens", "man", "woman", "paris",
    "france", "england", "kitten", "pets", "monarch", "good", "bad", "big", "large", "un",
    "animals", "royals", "vehicles", "numbers",  # the group names of the default word list
})

# fields of an element's protobuf that are not text a reader reads (ids, URL keys, formats, icons, chart specs)
_NOT_TEXT = {"id", "query_param_key", "format", "type", "icon", "tag", "config", "deferred_file_id", "default",
             "value", "url", "form_id", "spec", "raw_value", "raw_values", "columns", "data", "arrow_data"}
_STRIP = [
    re.compile(r"\$\$.*?\$\$|\$[^$\n]*\$", re.S),  # LaTeX
    re.compile(r"`[^`]*`"),  # code
    re.compile(r"%\{[^}]*\}|<[^>]*>"),  # hover placeholders, HTML tags
    re.compile(r"https?://\S+"),
    re.compile(r"《[^》]*》|(?<![*\w])\*(?!\*)[^*\n]+(?<!\*)\*(?![*\w])"),  # titles
    re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|“[^”]*”|‘[^’]*’|「[^」]*」"),  # quoted data
    re.compile(r"(?<=[\u4e00-\u9fff])（[A-Za-z][A-Za-z -]*）"),  # a gloss: 仅解码器（decoder-only）
    re.compile(r"\b[A-Z][a-z]+(?= ?等)|\bet al\b"),  # authors cited: "Chen 等"
    re.compile(r"##\w+"),  # WordPiece pieces
]
# a word starts and ends at a letter or digit; glued to "_", "." or a Greek letter it is part of an identifier
# (β_fast, .npy)
_WORD = re.compile(r"(?<![A-Za-z0-9_.\u0370-\u03ff])[A-Za-z](?:[A-Za-z0-9_.-]*[A-Za-z0-9])?(?![A-Za-z0-9_])")


def _children(node) -> list:
    kids = getattr(node, "children", None) or {}
    return list(kids.values()) if isinstance(kids, dict) else list(kids)


def _walk(node) -> Iterator:
    yield node
    for child in _children(node):
        yield from _walk(child)


def _proto_strings(message) -> Iterator[str]:
    for field, value in message.ListFields():
        if field.name in _NOT_TEXT:
            continue
        values = value if field.is_repeated else [value]
        if field.type == FieldDescriptor.TYPE_MESSAGE:
            for item in values:
                yield from _proto_strings(item)
        elif field.type == FieldDescriptor.TYPE_STRING:
            yield from values


def _figure_strings(figure: dict) -> Iterator[str]:
    """Titles, subtitles, axis / colour-bar / legend titles, annotations, tick texts of the layout; names, hover and
    text templates and colour-bar titles of the traces (not the data: x, y, text are values and token labels)."""
    def walk(obj, key=""):
        if isinstance(obj, dict):
            for k, v in obj.items():
                if k == "template":
                    continue
                if isinstance(v, str) and k in ("text", "title", "name", "hovertemplate", "texttemplate"):
                    yield v
                else:
                    yield from walk(v, k)
        elif isinstance(obj, list):
            for v in obj:
                if isinstance(v, str) and key == "ticktext":
                    yield v
                elif not isinstance(v, str):
                    yield from walk(v, key)

    yield from walk(figure.get("layout", {}))
    for trace in figure.get("data", []):
        for k in ("name", "hovertemplate", "texttemplate"):
            if isinstance(trace.get(k), str):
                yield trace[k]
        yield from walk({k: trace[k] for k in ("colorbar", "marker") if isinstance(trace.get(k), dict)})


def latex_labels(latex: str) -> list[str]:
    """A formula's words: its symbols are not words, its \\text{...} labels are (a symbol's subscript,
    W_{\\text{out}}, is a name)."""
    return [label.replace("\\_", "_")  # short\_factor is the identifier short_factor
            for label in re.findall(r"(?<![A-Za-z]_\{)\\text\{([^{}]*)\}", latex)]


def shown_text(at: AppTest) -> tuple[list[tuple[str, str]], set[str]]:
    """(element kind, string) for everything a reader reads on the page as run, and the words typed into its text
    fields (the reader's own data)."""
    out, typed = [], set()
    for node in _walk(at._tree):
        proto = getattr(node, "proto", None)
        kind = type(node).__name__
        if kind == "Latex":
            out += [(kind, label) for label in latex_labels(str(node.value))]
            continue
        if proto is None or kind == "Code":
            continue
        if kind == "Dataframe":
            frame = node.value
            out += [(kind, str(c)) for c in frame.columns]
            continue
        if kind == "Html" and str(getattr(proto, "body", "")).startswith("<style>"):  # a stylesheet, no text
            continue
        if getattr(node, "type", "") != "bidi_component":  # a live figure's JSON holds base64 data: read below
            out += [(kind, s) for s in _proto_strings(proto)]
        if kind in ("TextInput", "TextArea"):
            typed.update(_WORD.findall(str(node.value or "")))
        if getattr(node, "type", "") == "plotly_chart" or (kind == "UnknownElement" and getattr(proto, "spec", "")):
            out += [("plotly_chart", s) for s in _figure_strings(json.loads(proto.spec))]
        if getattr(node, "type", "") == "bidi_component":  # a live figure: its figure, slider labels and templates
            data = json.loads(proto.json)
            out += [("live_figure", s) for s in _figure_strings(json.loads(data["figure"]))]
            out += [("live_figure", s["label"]) for s in data["sliders"]]
            out += [("live_figure", re.sub(r"\{\w+\}", " ", text)) for text in data["texts"].values()]  # fields
    return out, typed


def english_words(text: str, typed: set[str] = frozenset()) -> list[str]:
    """The English words of ``text`` that the rules above do not excuse."""
    for pattern in _STRIP:
        text = pattern.sub(" ", text)
    formula = set(re.findall(r"([A-Za-z]\w*)\s?[(\[=]", text)) | set(re.findall(r"[(\[=,]\s?([A-Za-z]\w*)", text))
    bad = []
    for word in _WORD.findall(text):
        if word in typed or len(word) == 1 or re.search(r"[\d_.]", word) or word.lower() in ALLOWED | EXAMPLE_WORDS:
            continue
        if re.fullmatch(r"[A-Z][a-z]", word):  # a symbol with a subscript letter: Wq, Wk
            continue
        if word in formula:  # a function or variable of a formula: score(5, 3), PE(pos, 2i), angle = p / ...
            continue
        parts = word.split("-")
        if any(len(p) <= 1 or re.search(r"[\d_.]", p) or re.search(r".[A-Z]", p) for p in parts):
            continue  # GPT-NeoX, Phi-3-mini, all-MiniLM-L6-v2, x-axis-like names with an identifier part
        if all(p.lower() in ALLOWED for p in parts):
            continue
        bad.append(word)
    return bad


# rope_type values a config.json spells; as a name shown on its own (an option, a chart's text) the Chinese UI
# names the method in Chinese with the value beside it in parentheses, "位置插值（linear）"
CONFIG_VALUES = frozenset({"linear", "dynamic", "yarn", "longrope"})
_SHOWN_AS_NAME = ("ButtonGroup", "Selectbox", "Radio", "plotly_chart", "live_figure")


def bare_config_values(kind: str, text: str) -> list[str]:
    """The rope_type values ``text`` shows as a name (outside parentheses and quotes) in an option or a chart."""
    if kind not in _SHOWN_AS_NAME:
        return []
    for pattern in (*_STRIP, re.compile(r"（[^）]*）|\([^)]*\)")):
        text = pattern.sub(" ", text)
    return [w for w in _WORD.findall(text) if w in CONFIG_VALUES]


def _containers(at: AppTest) -> Iterator[Iterator[tuple[str, str]]]:
    """For every URL-bound tab container on the page as run, its tabs as (session key, label)."""
    for node in _walk(at._tree):
        if getattr(node, "type", "") == "tab_container":
            key = node.proto.tab_container.query_param_key
            if key:
                yield iter([(key, child.label) for child in _children(node)])


def _bound_tabs(at: AppTest) -> Iterator[tuple[str, str]]:
    for tabs in _containers(at):
        yield from tabs


def every_view(name: str, lang: str = "zh") -> Iterator[tuple[str, AppTest]]:
    """The page at its defaults, then with each bound tab opened in turn (tabs inside tabs included).

    Each tab opens in a fresh run with the tabs chosen so far in its session, as a link would open it: a rerun of
    the same AppTest re-sends every widget's value formatted in the test process's language, which a translated
    selectbox option (RoPE's "custom" preset, the modern page's model names) does not survive."""
    at = pt.page(name, lang=lang, timeout=120).run()
    yield "defaults", at
    opened = {next(tabs) for tabs in _containers(at)}  # each container's first tab is open at the defaults
    chosen: dict[str, str] = {}
    while True:
        todo = [tab for tab in _bound_tabs(at) if tab not in opened]
        if not todo:
            return
        key, label = todo[0]
        opened.add((key, label))
        chosen[key] = label
        at = pt.page(name, lang=lang, timeout=120, session=dict(chosen)).run()
        yield f"{key}={label}", at


@pytest.mark.parametrize("name", PAGE_NAMES)
def test_no_english_words_in_the_chinese_page(name):
    found: dict[str, set[str]] = {}
    views = []
    for view, at in every_view(name):
        views.append(view)
        assert not at.exception, (view, at.exception)
        assert not at.error, (view, [e.value for e in at.error])
        texts, typed = shown_text(at)
        assert texts and any(pt.is_chinese(s) for _, s in texts), view
        for kind, text in texts:
            for word in english_words(text, typed) + bare_config_values(kind, text):
                found.setdefault(f"{word!r} in {kind}", set()).add(f"{view}: {text[:90]}")
    assert not found, "\n".join(f"{where} ({sorted(seen)[0]})" for where, seen in sorted(found.items()))
    if name == RealModel.MODEL:  # the tabs are found in the tree: its six tabs were all opened
        assert len(views) >= 6, views


# the checker itself: it must see an English word where a page would show one, and pass what the rules allow


@pytest.mark.parametrize("text", ["训练 loss", "第 3 个 pair", "showing one position in every 4", "块平均 (block-averaged)",
                                  "层 %{x}<br>mean cos", "Positional 编码", "位置 vs 维度",
                                  "（decoder-only）模型", "汇聚点 attention sink"])  # a gloss follows its term
def test_the_checker_sees_english_words(text):
    assert english_words(text)


@pytest.mark.parametrize("text", ["d_model（向量维度）", "RoPE 的 θ", "$\\mathrm{loss}$ 的曲线", "`nn.Embedding` 查表",
                                  "'Hello' 里的两个 'l'", "Chen 等 2023，*Extending Context Window*", "q、k 的 cos",
                                  "Qwen3-0.6B 与 GPT-NeoX", "%{y:.3f}<extra></extra>", "ln 2 nat",
                                  "仅解码器（decoder-only）模型", "注意力汇聚点（attention sink）"])
def test_the_checker_lets_formulas_identifiers_and_quotes_pass(text):
    assert not english_words(text)


@pytest.mark.parametrize(("kind", "text", "bare"), [
    ("ButtonGroup", "yarn", ["yarn"]), ("plotly_chart", "每个维度对在 yarn 前（灰线）后的波长", ["yarn"]),
    ("ButtonGroup", "位置插值（linear）", []), ("Markdown", "rope_type 是 linear", []),
])
def test_the_checker_sees_a_config_value_shown_as_a_name(kind, text, bare):
    assert bare_config_values(kind, text) == bare


def test_the_checker_reads_a_formulas_text_labels():
    from embedviz.app.i18n import catalog

    label = catalog()["tok.latex_learned"]  # a \text{...} word of the parameter-cost formula
    assert english_words(label["en"]) and not english_words(label["zh"])


def test_every_scaling_methods_formula_speaks_chinese():
    """The context page shows one method's formula at a time (PI at its defaults, so the page walk above never
    sees llama3's or proportional's): every method's rule, and the attention factor in each of its cases, as the
    page renders them in Chinese."""
    from embedviz.rope import scaling as rope_scaling
    from embedviz.app.i18n import catalog

    words = {word: catalog()[f"ctx.fw_{word}"]["zh"] for word in rope_scaling.FORMULA_WORDS}
    factors = [rope_scaling.attention_factor_latex(method, factor=factor, original=4096, params=params, value=1.2)
               for method in ("yarn", "longrope") for factor in (1.0, 4.0)
               for params in ({}, {"attention_factor": 2.0}, {"mscale": 1.0, "mscale_all_dim": 0.707})]
    formulas = [*(rope_scaling.LATEX[m] for m in rope_scaling.ROPE_INIT_FUNCTIONS), *factors]
    labels = [label for f in formulas for label in latex_labels(rope_scaling.formula(f, words))]
    assert {"else", "high", "low", "given"} <= {w for f in formulas for w in latex_labels(f)}  # what is translated
    assert not [label for label in labels if english_words(label)], labels


def test_no_english_words_in_any_chinese_catalog_entry():
    """The same rules over the whole catalog: what no page shows at its defaults (tour steps, error messages,
    notes of other settings) is Chinese too. Placeholders ({name}) are values, not words."""
    from embedviz.app.i18n import catalog

    found = {key: english_words(re.sub(r"\{[^}]*\}", " ", texts["zh"])) for key, texts in catalog().items()}
    assert not {key: words for key, words in found.items() if words}


# one term per idea: the Chinese term the app uses, and the variants it replaced (the README's glossary)
GLOSSARY = {
    "lesson": ("第 00N 课 / 课里", ["课文", "课程", "文章", "原文", "第 00N 篇"]),
    "token embedding (the table)": ("词嵌入 / 词嵌入表", ["token 嵌入", "Token 嵌入", "token 表", "词元"]),
    "learned positional embedding": ("可学习位置表", ["可学习位置编码", "learned positional", "可学习的位置表", "学习式",
                                                "可学习编码"]),
    "positional encoding": ("位置编码", ["位置嵌入"]),
    "a tied output head": ("共享权重", ["绑定"]),
    "a fast / slow pair of dimensions": ("快的维度对 / 慢的维度对", ["快维度", "慢维度"]),
    "the models the app bundles": ("内置", ["随附"]),
    "RoPE's score of a query at m and a key at n": ("score(5, 3)", ["分数("]),
    "decoder-only models": ("仅解码器（decoder-only）", ["只有解码器的模型", "只有解码器"]),
    "attention sinks (gpt-oss)": ("注意力汇聚点（attention sink）", ["re:注意力汇(?!聚点)"]),
    "one-hot, glossed once as lesson 004 does": ("独热（one-hot）", ["独热编码"]),
    "query and key, glossed once on a page": ("查询（query） / 键（key）", ["查询向量", "键向量"]),
    "the base theta of sinusoidal and RoPE": ("底数", ["基底"]),
    "a pair of dimensions (RoPE, sinusoidal)": ("维度对", ["维度组"]),
    "proportional RoPE (Gemma 4's global layers)": ("比例式 RoPE", ["比例 RoPE"]),
    "sinusoidal positional encoding": ("正弦位置编码 / 正弦编码", ["sinusoidal positional", "正余弦编码"]),
    "trained embedding": ("训练后的嵌入", ["训练嵌入"]),
    "long-term decay": ("远程衰减", ["远距离衰减", "长程衰减"]),
    "mean row norm": ("平均模长", ["行长度"]),
    "next-token prediction": ("下一个 token 预测", ["next-token"]),
    "batch": ("批", ["batch"]),
    "transformer block": ("Transformer 块", ["block"]),
}


@pytest.mark.parametrize("idea", sorted(GLOSSARY))
def test_one_chinese_term_per_idea(idea):
    from embedviz.app.i18n import catalog

    term, variants = GLOSSARY[idea]
    zh = " ".join(texts["zh"] for texts in catalog().values())
    for variant in variants:  # "re:" starts a pattern: a variant that is the start of the term itself
        pattern = variant[3:] if variant.startswith("re:") else re.escape(variant).replace("00N", r"00\d")
        assert not re.search(pattern, zh), f"{idea}: {variant!r} instead of {term!r}"
    for used in term.split(" / "):
        assert used.replace("00N", "001") in zh, f"{idea}: the term {used!r} is not used"


def test_an_averaged_figure_says_so_in_the_readers_language():
    """plot(builder, ...) hands the figure code the reader's "block-averaged" note: a sinusoidal table wider than
    the cell budget (d_model 4,096) is averaged, and its subtitle says so in Chinese, followed by the colour scale
    in words (the encoding heatmap has no colour bar)."""
    def script():
        import numpy as np

        from embedviz.app.widgets import plot
        from embedviz.figures.sinusoidal import encoding_heatmap

        plot(encoding_heatmap, np.zeros((4_096, 64)), np.arange(64), np.arange(4_096), title="t", x_title="x",
             y_title="y")

    at = AppTest.from_function(script, default_timeout=60)
    at.session_state["lang"] = "zh"
    at.run()
    pt.ok(at)
    subtitle = pt.specs(at)[0]["layout"]["title"]["subtitle"]["text"]
    assert subtitle == "按 12×1 的块取平均以适应屏幕 · 颜色：蓝 −1，白 0，红 +1", subtitle  # ceil(4096 / 352) = 12 rows


# the views behind a URL setting no default shows: the multilingual model and Qwen3's tokenizer
SETTING_VIEWS = [
    (RealModel.MODEL, {RealModel.MODEL: "multilingual-e5-small"}, (RealModel.TAB, key))
    for key in ("real.tab_pairs", "real.tab_subwords", "real.tab_analogy", "real.tab_neighbours", "multi.tab_cross",
                "real.tab_map")
] + [("token_embeddings", {Tokens.TEXT: "Hello 我爱学习 龘"}, (Tokens.TAB, "multi.tab_qwen")),
     ("learned_positions", {LearnedPositions.E5: "true"}, None)]


@pytest.fixture(scope="module")
def _frees_e5():
    yield
    from embedviz.app import real_model_view
    from embedviz.models.pretrained import load_bundled_model

    real_model_view.model.clear()  # e5's 438 MB: later tests (the fuzz's 1 GiB peak check) need not carry it
    load_bundled_model.cache_clear()


@pytest.mark.parametrize("name, query, tab", SETTING_VIEWS)
def test_no_english_words_in_the_chinese_page_with_a_setting(name, query, tab, _frees_e5):
    from embedviz.app.i18n import catalog

    session = {tab[0]: catalog()[tab[1]]["zh"]} if tab else None
    at = pt.page(name, lang="zh", timeout=120, session=session, **query).run()
    assert not at.exception and not at.error, (at.exception, [e.value for e in at.error])
    texts, typed = shown_text(at)
    found = {f"{word!r} in {kind}: {text[:90]}" for kind, text in texts for word in english_words(text, typed)}
    assert not found, sorted(found)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_pages_notice_box_reads_in_the_pages_punctuation(lang):
    """The box a page ends a point with: its lead, then the page's point; in Chinese the lead ends in the
    full-width colon with no space after it (it was "注意观察: " in the Chinese page)."""
    at = pt.page("sinusoidal", lang=lang).run()
    pt.ok(at)
    point = pt.text("sin.notice", lang)
    boxes = [i.value for i in at.info if i.value.endswith(point)]
    assert len(boxes) == 1, [i.value for i in at.info]
    lead = boxes[0][: -len(point)]
    assert lead.strip("* ") and (lead.endswith("：**") if lang == "zh" else lead.endswith(":** ")), lead
