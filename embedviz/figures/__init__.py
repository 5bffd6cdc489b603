"""Pure figure builders: numpy arrays in, ``plotly.graph_objects.Figure`` out. No streamlit, no state.

Every figure uses the one template ``"embedviz"`` and says what it shows in its title; a heatmap larger than the cell
budget is block-averaged here and its subtitle says so. Topic-specific builders live in submodules
(``embedviz.figures.<topic>``) and build on the helpers below.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

from embedviz._exports import lazy
from embedviz.downsample import CELL_BUDGET, block_mean

TEMPLATE = "embedviz"
# Okabe & Ito's colour-blind-safe palette (Color Universal Design, 2008): about 1 boy in 12 cannot tell red from
# green, so every pair of series colours stays apart under deuteranopia and protanopia too (tests/test_colours.py).
# Its yellow is left out: on white it is too faint for a line.
BLUE, VERMILLION, GREEN, ORANGE, PURPLE, SKY, BLACK = (
    "#0072B2", "#D55E00", "#009E73", "#E69F00", "#CC79A7", "#56B4E9", "#000000")
COLORWAY = [BLUE, VERMILLION, GREEN, ORANGE, PURPLE, SKY, BLACK]
# Diverging heatmaps (a cosine, a sine, a signed table entry): dark blue negative, white zero, red positive. The ends
# differ in lightness as well as hue (CIELAB L* 20 at -1, 56 at +1): with both ends at L* 20, as in ColorBrewer's
# RdBu, -1 and +1 looked alike on a washed-out projector or a greyscale print. The blue half is RdBu's, the red half
# stops at RdBu's mid red; both stay apart under protanopia and deuteranopia (tests/test_colours.py).
DIVERGING = [[0.0, "#053061"], [0.1, "#2166ac"], [0.2, "#4393c3"], [0.3, "#92c5de"], [0.4, "#d1e5f0"],
             [0.5, "#f7f7f7"], [0.625, "#fddbc7"], [0.75, "#f4a582"], [0.875, "#e7826b"], [1.0, "#d6604d"]]
# Reference and zero lines, and marks for "the rest" beside coloured ones: graphics a reader needs keep 3:1 against
# the white plot (WCAG 1.4.11). GREY keeps 4.5:1 (#767676), LIGHT_GREY 3.4:1 (#8a8a8a); #9e9e9e was 2.7:1.
GREY, LIGHT_GREY = "#767676", "#8a8a8a"
# A legend under the plot (where a wide chart's top-right legend would cover its subtitle), anchored to the figure's
# bottom edge: a figure's height is fixed, so container coordinates are pixels, and the legend stays under the tick
# labels and the x axis's title whatever the plot's size. (Anchored to the plot instead, y=-0.3 of a plot that a
# presenter's larger font had shrunk put the legend on the axis title.) BELOW_MARGIN is the room for the tick labels,
# the axis title and a row or two of entries at the template's font; ``embedviz.figures.screen.fitted`` grows it when
# a larger font or a narrow screen makes more rows.
LEGEND_BELOW = dict(orientation="h", x=0.0, xanchor="left", y=0.0, yanchor="bottom", yref="container")
BELOW_MARGIN = 120

# a colour bar's title beside the bar, not over it, where the top tick's label met it once the text was larger
_BAR = dict(title=dict(side="right"))
pio.templates[TEMPLATE] = go.layout.Template(
    layout=go.Layout(
        font=dict(family="Inter, 'Noto Sans SC', 'PingFang SC', sans-serif", size=13),
        colorway=COLORWAY,
        paper_bgcolor="white",
        plot_bgcolor="white",
        margin=dict(l=60, r=20, t=70, b=50),
        # automargin: long tick labels and the axis titles beside them push the margins instead of meeting
        xaxis=dict(showgrid=True, gridcolor="#eee", zeroline=False, automargin=True),
        yaxis=dict(showgrid=True, gridcolor="#eee", zeroline=False, automargin=True),
        legend=dict(orientation="h", yanchor="bottom", y=1.0, xanchor="right", x=1.0),
        hoverlabel=dict(font_size=12),
        coloraxis=dict(colorbar=_BAR),
    ),
    data=dict(heatmap=[go.Heatmap(colorbar=_BAR)], scatter=[go.Scatter(marker=dict(colorbar=_BAR))]),
)


def f32(a) -> np.ndarray:
    """float32 copy for the browser: half the payload of float64 and plenty for a picture."""
    return np.asarray(a, dtype=np.float32)


JOINER = " · "  # between a subtitle's parts (a live figure's browser joins them with it too)


def joined(*notes: str | None) -> str | None:
    """The subtitle's parts that are there, in order, joined by :data:`JOINER` (None when there is none)."""
    return JOINER.join(n for n in notes if n) or None


# plotly.js reads its own subset of HTML in every text it draws (titles, tick labels, point labels, legend entries,
# hover labels): <a href> becomes a link (a protocol-relative "//host/" one too), <span style> restyles, <b> <i>
# <sup> format, and entities are decoded. A token, a word or a group name a reader typed must show as it is
# written, so figures leave the server with & < > as entities (which plotly shows as the characters). A newline is
# the one break a text may hold (a title broken to fit a phone, ``embedviz.figures.screen``): it becomes plotly's
# <br>, which plotly would otherwise draw as a space.
ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\n": "<br>"}  # sent to a live figure's browser too
_PLOTLY_MARKUP = str.maketrans(ESCAPES)
# the app's own markup: hover and text templates ("%{y}<br>cos = %{z:.3f}") and the layout template
_TEMPLATE_KEYS = frozenset({"hovertemplate", "texttemplate", "template"})


def plain(text: str) -> str:
    """``text`` as plotly draws it literally (for a reader's value put into a hover template)."""
    return text.translate(_PLOTLY_MARKUP)


def shown_as_text(spec):
    """A figure's dict (``fig.to_dict()``) with every text plotly would read as markup escaped by :func:`plain`,
    except the app's templates; numbers and numeric arrays pass as they are (the same objects)."""
    if isinstance(spec, str):
        return plain(spec)
    if isinstance(spec, Mapping):
        if "bdata" in spec:  # a numeric array as plotly encodes it (base64): no text in it
            return spec
        return {k: v if k in _TEMPLATE_KEYS else shown_as_text(v) for k, v in spec.items()}
    if isinstance(spec, (list, tuple)):
        return [shown_as_text(v) for v in spec]
    if isinstance(spec, np.ndarray) and spec.dtype.kind in "OUS":
        return np.array([shown_as_text(v) for v in spec.tolist()], dtype=object).reshape(spec.shape)
    return spec


def quoted(value: float) -> str:
    """A length or wavelength as the lessons' text quotes it: one decimal below 10 (2*pi is "6.3"), else a whole
    number with thousands separators ("63", "628", "6,283", "35,333"). For hovers, which plotly's d3 formats cannot
    switch by size."""
    value = float(value)
    return f"{value:.1f}" if abs(value) < 10 else f"{value:,.0f}"


def titled(title: str, note: str | None = None) -> dict:
    """Title dict with an optional subtitle (used for downsampling notes and 'what to notice')."""
    out: dict = {"text": title, "x": 0.0, "xanchor": "left"}
    if note:
        out["subtitle"] = {"text": note}
    return out


def merged(base: dict, extra: Mapping | None) -> dict:
    """``base`` with ``extra`` merged in, nested dicts key by key as ``update_layout`` merges them; a list (shapes,
    annotations) is taken whole, where ``update_layout`` would merge it element by element. A new dict."""
    out = dict(base)
    for key, value in (extra or {}).items():
        out[key] = merged(out[key], value) if isinstance(out.get(key), dict) and isinstance(value, Mapping) else value
    return out


def new_figure(title: str, *, note: str | None = None, x_title: str = "", y_title: str = "", height: int = 420,
               data: Sequence = (), layout: Mapping | None = None) -> go.Figure:
    """A figure with the template, its title (and subtitle), axis titles and height; ``data`` (traces) and ``layout``
    (merged into those settings) let a builder give everything at once.

    Build a figure in one construction where it is redrawn on a slider step: plotly validates a Figure's layout and
    traces once when they are given to it, but every later ``add_trace`` / ``update_*`` call is a validated batch
    update of the whole figure. The token lookup figure took 49 ms through seven such calls and takes 8 ms built at
    once (the same JSON), and this is server time on every step that changes the figure.
    """
    base = dict(template=TEMPLATE, title=titled(title, note), height=height,
                xaxis=dict(title=dict(text=x_title)), yaxis=dict(title=dict(text=y_title)))
    if note:  # a subtitle's line under the title: the template's 70 px top margin put it on the top tick label
        base["margin"] = dict(t=100)
    return go.Figure(data=list(data), layout=merged(base, layout))


def downsample_template(note: str | None) -> str:
    """The translated "block-averaged {rs}×{cs}" template a builder was given; the figure code has no words of its own,
    so a figure that averages without one is a bug in its caller, not a reason to show English."""
    if not note:
        raise ValueError("downsample_note (None) must be given: this figure is block-averaged and must say so in the "
                         "reader's language")
    return note


def _downsampled_labels(labels, step: int):
    if labels is None or step == 1:
        return labels
    return list(labels)[::step]


def heatmap(
    z,
    *,
    title: str,
    x=None,
    y=None,
    x_title: str = "",
    y_title: str = "",
    note: str | None = None,
    colorscale: str | Sequence = DIVERGING,
    zmid: float | None = 0.0,
    zmin: float | None = None,
    zmax: float | None = None,
    colorbar_title: str = "",
    budget: int = CELL_BUDGET,
    downsample_note: str | None = None,
    reverse_y: bool = True,
    height: int = 460,
    scale_key: str | None = None,
    hovertemplate: str | None = None,
    yaxis: Mapping | None = None,
) -> go.Figure:
    """A heatmap of z (rows x cols), built in one construction (see ``new_figure``); ``yaxis`` adds to its y axis.
    Above ``budget`` per axis, blocks are averaged and the subtitle says so in ``downsample_note``, a translated
    template with {rs} and {cs} (``plot()`` passes the reader's one).

    ``scale_key``: the colour scale in the reader's words (e.g. "colour: blue −1, white 0, red +1", for a fixed
    zmin..zmax) ends the subtitle instead of a colour bar. For a heatmap a slider step redraws: the colour bar is
    the costliest part of plotly's redraw (its labels are measured, then the margins pushed and laid out again).
    """
    z = np.asarray(z, dtype=np.float64)
    z, rs, cs = block_mean(z, budget, budget)
    if rs > 1 or cs > 1:
        note = joined(note, downsample_template(downsample_note).format(rs=rs, cs=cs))
        x, y = _downsampled_labels(x, cs), _downsampled_labels(y, rs)
    note = joined(note, scale_key)
    trace = go.Heatmap(
        z=f32(z),
        x=x,
        y=y,
        colorscale=colorscale,
        zmid=zmid if zmin is None and zmax is None else None,
        zmin=zmin,
        zmax=zmax,
        colorbar=dict(title=dict(text=colorbar_title)),
        showscale=not scale_key,
        hoverongaps=False,
        hovertemplate=hovertemplate,
    )
    axes = dict(xaxis=dict(showgrid=False),
                yaxis=merged(dict(showgrid=False, **({"autorange": "reversed"} if reverse_y else {})), yaxis))
    return new_figure(title, note=note, x_title=x_title, y_title=y_title, height=height, data=[trace], layout=axes)


def similarity_heatmap(S, labels: Sequence[str] | None = None, *, title: str, note: str | None = None, **kw):
    """A cosine-similarity matrix on the fixed scale [-1, 1] (so two matrices side by side are comparable)."""
    return heatmap(S, x=labels, y=labels, title=title, note=note, zmin=-1.0, zmax=1.0, colorbar_title="cos", **kw)


def line_chart(
    x,
    series: Mapping[str, np.ndarray],
    *,
    title: str,
    x_title: str = "",
    y_title: str = "",
    note: str | None = None,
    log_x: bool = False,
    log_y: bool = False,
    markers: bool = False,
    dashes: Mapping[str, str] | None = None,
    height: int = 420,
    y_format: str | None = None,
) -> go.Figure:
    """One line per named series over a shared x (built in one construction, see ``new_figure``).

    ``y_format`` (a d3 format, ".4f"): a hover that says the series' whole name, then x and y by their axis titles,
    y as the page's text quotes it (plotly's default hover prints "(300, 0.8373969)" and cuts the name at 15
    characters)."""
    x = f32(x) if not isinstance(x, list) else x
    hover = lambda name: (None if y_format is None else  # noqa: E731
                          f"{plain(name)}<br>{plain(x_title)} = %{{x}}<br>{plain(y_title)} = %{{y:{y_format}}}"
                          "<extra></extra>")
    traces = [go.Scatter(x=x, y=f32(y), name=name, mode="lines+markers" if markers else "lines",
                         line=dict(dash=(dashes or {}).get(name)), hovertemplate=hover(name))
              for name, y in series.items()]
    axes = dict(xaxis=dict(type="log") if log_x else {}, yaxis=dict(type="log") if log_y else {})
    return new_figure(title, note=note, x_title=x_title, y_title=y_title, height=height, data=traces, layout=axes)


def scatter_2d(
    points,
    labels: Sequence[str],
    *,
    title: str,
    groups: Sequence[str] | None = None,
    note: str | None = None,
    x_title: str = "",
    y_title: str = "",
    height: int = 460,
) -> go.Figure:
    """Labelled points in 2-D (e.g. a PCA projection), one colour per group."""
    points = np.asarray(points, dtype=np.float64)
    fig = new_figure(title, note=note, x_title=x_title, y_title=y_title, height=height)
    groups = list(groups) if groups is not None else [""] * len(labels)
    for g in dict.fromkeys(groups):
        idx = [i for i, gi in enumerate(groups) if gi == g]
        fig.add_trace(
            go.Scatter(
                x=f32(points[idx, 0]),
                y=f32(points[idx, 1]),
                text=[labels[i] for i in idx],
                mode="markers+text",
                textposition="top center",
                name=g,
                marker=dict(size=9),
                showlegend=bool(g),
            )
        )
    fig.update_yaxes(scaleanchor="x", scaleratio=1)
    return fig


def bar_chart(
    categories: Sequence[str],
    values,
    *,
    title: str,
    x_title: str = "",
    y_title: str = "",
    note: str | None = None,
    colors: Sequence[str] | None = None,
    log_y: bool = False,
    height: int = 380,
) -> go.Figure:
    fig = new_figure(title, note=note, x_title=x_title, y_title=y_title, height=height)
    fig.add_trace(go.Bar(x=list(categories), y=f32(values), marker_color=colors))
    if log_y:
        fig.update_yaxes(type="log")
    return fig


def side_by_side(
    figures: Sequence[go.Figure],
    *,
    title: str,
    subplot_titles: Sequence[str],
    note: str | None = None,
    spacing: float = 0.1,
):
    """Put the first trace of each figure next to each other with a shared colour scale (e.g. before / after)."""
    from plotly.subplots import make_subplots

    fig = make_subplots(rows=1, cols=len(figures), subplot_titles=list(subplot_titles), horizontal_spacing=spacing)  # room for the right panel's row labels
    for col, f in enumerate(figures, start=1):
        for tr in f.data:
            tr = go.Heatmap(tr) if isinstance(tr, go.Heatmap) else tr
            if isinstance(tr, go.Heatmap):
                tr.update(coloraxis="coloraxis")
            fig.add_trace(tr, row=1, col=col)
        fig.update_yaxes(autorange="reversed", row=1, col=col)
    first = figures[0].data[0] if figures and figures[0].data else None
    cmin = getattr(first, "zmin", None)
    cmax = getattr(first, "zmax", None)
    fig.update_layout(
        template=TEMPLATE,
        title=titled(title, note),
        coloraxis=dict(colorscale=getattr(first, "colorscale", None) or DIVERGING, cmin=cmin, cmax=cmax),
        height=460,
    )
    return fig


def reference_marks(lines: Sequence[tuple[float, dict, str, str]], *, axis: str, log: bool) -> dict:
    """Horizontal (axis "y") or vertical (axis "x") lines across the plot, each with a label at one end, as the
    layout's ``shapes`` and ``annotations`` (for ``new_figure(layout=...)``; ``reference_lines`` adds them to a figure).

    ``lines`` = (value, line style, label, "left" / "right" or "top" / "bottom" end). A label on a log axis is placed
    at log10(value), as plotly wants annotation positions there, while shapes take the value itself.
    """
    shapes, annotations = [], []
    for value, line, label, end in lines:
        at = float(np.log10(value)) if log else float(value)
        if axis == "y":
            shapes.append(dict(type="line", xref="paper", x0=0, x1=1, yref="y", y0=value, y1=value, line=line))
            if label:
                annotations.append(dict(text=label, xref="paper", x=0.0 if end == "left" else 1.0, yref="y", y=at,
                                        xanchor=end, yanchor="bottom", showarrow=False, font=dict(size=11)))
        else:
            shapes.append(dict(type="line", yref="paper", y0=0, y1=1, xref="x", x0=value, x1=value, line=line))
            if label:
                annotations.append(dict(text=label, yref="paper", y=1.0 if end == "top" else 0.0, xref="x", x=at,
                                        xanchor="left", yanchor=end, showarrow=False, font=dict(size=11)))
    return dict(shapes=shapes, annotations=annotations)


def add_marks(fig: go.Figure, marks: Mapping[str, list]) -> None:
    """Shapes and annotations (``reference_marks``) added to a built figure after its own, in one layout update
    (plotly's add_hline costs ~50 ms a line)."""
    fig.update_layout(shapes=[*(fig.layout.shapes or ()), *marks["shapes"]],
                      annotations=[*(fig.layout.annotations or ()), *marks["annotations"]])


def reference_lines(fig: go.Figure, lines: Sequence[tuple[float, dict, str, str]], *, axis: str,
                     log: bool) -> None:
    """``reference_marks`` added to a built figure (``add_marks``)."""
    add_marks(fig, reference_marks(lines, axis=axis, log=log))


# the topic modules' public functions by module (embedviz/_exports.py: each loaded when first asked for), beside the
# helpers above; a name two modules define (decay_chart, rules, wavelength_chart), or that names a helper above too
# (describe's plain), is imported from its module
__all__, __getattr__, __dir__ = lazy(__name__, {
    "compare": ("adjacent_chart", "similarity_panels", "alibi_bias_panels", "slopes_chart"),
    "context_extension": ("kind_hover", "ratio_chart", "turns_chart"),
    "describe": ("number", "text_alternative"),
    "dot_product": ("vectors_figure",),
    "export": ("figure_csv", "table_csv", "slug", "file_name"),
    "modern_rope": ("setting_colors", "layer_strip", "wavelength_curves", "decay_curves", "head_layout", "mrope_band",
                    "two_curves", "patch_similarity_map"),
    "past_length": ("loss_by_position", "attention_map", "distance_profiles", "copy_bars"),
    "real_model": ("pair_bars", "score_bars", "word_map", "matrices_side_by_side", "single_matrix", "step_curves",
                   "offset_curve", "rows_pca"),
    "rope": ("angle_heatmap", "pair_plane", "pairing_map", "pairing_scores_chart"),
    "screen": ("text_width", "wrap", "fitted", "tour_rules"),
    "sinusoidal": ("encoding_heatmap", "distance_figure", "rotation_figure", "outputs_side_by_side",
                   "difference_heatmap"),
    "tokens": ("lookup_figure", "distance_pair", "gradient_rows_figure", "init_scale_figure", "parameter_bars",
               "loss_figure", "similarity_before_after", "pca_figure", "group_similarity_figure"),
    "why_sinusoidal": ("values_figure", "counter_figure", "steps_figure"),
})
__all__ = ["f32", "joined", "plain", "shown_as_text", "quoted", "titled", "merged", "new_figure",
           "downsample_template", "heatmap", "similarity_heatmap", "line_chart", "scatter_2d", "bar_chart",
           "side_by_side", "reference_marks", "add_marks", "reference_lines", *__all__]  # the helpers above first
