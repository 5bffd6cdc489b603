"""Figures of the Token embeddings and Trained embedding pages: arrays + translated strings in, go.Figure out."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from embedviz.downsample import CELL_BUDGET, block_mean
from embedviz.figures import (
    BELOW_MARGIN, BLUE, DIVERGING, GREEN, LEGEND_BELOW, LIGHT_GREY, ORANGE, SKY, TEMPLATE, VERMILLION, downsample_template, f32,
    joined, merged, new_figure, reference_lines, reference_marks, scatter_2d, titled,
)

PICKED = VERMILLION  # rows a lookup (or a gradient) touched
TARGET = ORANGE  # rows that only appear as a next-token target
OTHER = LIGHT_GREY
CELL_TEXT_MAX = 16  # write the number into each cell only while the matrix is small enough to read
_INSIDE_TOP_LEFT = dict(orientation="v", x=0.01, y=0.99, xanchor="left", yanchor="top", bgcolor="rgba(255,255,255,0.8)")


def _line(dash: str, color: str) -> dict:
    """A reference line's style (``embedviz.figures.reference_marks``) on these charts."""
    return dict(dash=dash, color=color, width=1.5)


def _two_panels(left_title: str, right_title: str, *, left_width: float = 0.5, gap: float = 0.1, data=(),
                layout: dict | None = None) -> go.Figure:
    """Two side-by-side panels (axes x/y and x2/y2) with titles: what make_subplots(1, 2) builds, ~20x faster.
    ``data`` and ``layout`` (merged in) build the whole figure at once (see ``embedviz.figures.new_figure``)."""
    split = left_width * (1 - gap)
    right = split + gap
    titles = [dict(text=text, x=(lo + hi) / 2, y=1.0, xref="paper", yref="paper", xanchor="center",
                   yanchor="bottom", showarrow=False, font=dict(size=14))
              for text, lo, hi in ((left_title, 0.0, split), (right_title, right, 1.0))]
    return go.Figure(data=list(data), layout=merged(dict(
        xaxis=dict(domain=[0.0, split], anchor="y"), yaxis=dict(domain=[0.0, 1.0], anchor="x"),
        xaxis2=dict(domain=[right, 1.0], anchor="y2"), yaxis2=dict(domain=[0.0, 1.0], anchor="x2"),
        annotations=titles,
    ), layout))


def _symmetric_range(*arrays) -> float:
    top = max(float(np.nanmax(np.abs(a))) if np.size(a) else 0.0 for a in arrays)
    return top or 1.0


def lookup_figure(
    table,
    ids,
    block,
    row_labels: Sequence[str],
    *,
    title: str,
    table_title: str,
    block_title: str,
    x_title: str,
    id_title: str,
    colour_key: str,
    note: str | None = None,
    downsample_note: str | None = None,
) -> go.Figure:
    """Left: the whole (V, D) table with the picked rows outlined; right: the picked (T, D) block, one row per token.

    Both panels share one colour scale, so the right panel is visibly a copy of the outlined rows. No colour bar:
    the picture is read by comparing colours between the panels and each cell's value is in its hover; a colour bar
    is a costly part of every redraw when the d_model slider moves. ``colour_key`` (the diverging scale
    in the reader's words: blue negative, white 0, red positive) ends the subtitle instead.
    """
    table = np.asarray(table, dtype=np.float64)
    block = np.asarray(block, dtype=np.float64)
    ids = np.asarray(ids).reshape(-1)
    V, D = table.shape
    # the two panels share the width, so each gets fewer columns than a full-width heatmap (under ~250 KB of
    # JSON); both average the same column blocks, so the right panel stays a copy of the outlined rows
    columns = CELL_BUDGET // 3
    table_z, _, cs = block_mean(table, CELL_BUDGET, columns)  # V = 256 rows always fit; columns may not
    block_z, rs_b, cs_b = block_mean(block, CELL_BUDGET, columns)
    if cs > 1 or rs_b > 1:
        note = joined(note, downsample_template(downsample_note).format(rs=rs_b, cs=cs))
    note = joined(note, colour_key)
    labels = list(row_labels)[::rs_b]
    x_table = np.arange(table_z.shape[1]) * cs
    x_block = np.arange(block_z.shape[1]) * cs_b
    traces = [
        go.Heatmap(z=f32(table_z), x=x_table, y=np.arange(V), coloraxis="coloraxis", hovertemplate=(
            f"{id_title} %{{y}}<br>{x_title} %{{x}}<br>%{{z:.4f}}<extra></extra>")),
        go.Heatmap(z=f32(block_z), x=x_block, y=labels, coloraxis="coloraxis", xaxis="x2", yaxis="y2",
                   hovertemplate=f"%{{y}}<br>{x_title} %{{x}}<br>%{{z:.4f}}<extra></extra>"),
    ]
    width = x_table[-1] + cs if len(x_table) else D
    # each picked row outlined once
    outlines = [dict(type="rect", xref="x", yref="y", x0=-0.5 * cs, x1=width - 0.5 * cs, y0=token_id - 0.5,
                     y1=token_id + 0.5, line=dict(color="black", width=1))
                for token_id in np.unique(ids).tolist()]
    vmax = _symmetric_range(table_z)  # the range of what is drawn: block means are smaller than single entries
    x_axis = dict(showgrid=False, title=dict(text=x_title))
    return _two_panels(table_title, block_title, left_width=0.42, gap=0.14, data=traces, layout=dict(
        shapes=outlines,
        xaxis=x_axis, xaxis2=x_axis,
        yaxis=dict(autorange="reversed", showgrid=False, title=dict(text=id_title)),
        yaxis2=dict(autorange="reversed", showgrid=False, type="category"),
        template=TEMPLATE,
        title=titled(title, note),
        coloraxis=dict(colorscale=DIVERGING, cmin=-vmax, cmax=vmax, showscale=False),
        height=max(460, min(900, 140 + 18 * len(labels))),
        margin=dict(t=110 if note else 80),
    ))


def distance_pair(
    one_hot_d,
    dense_d,
    labels: Sequence[str],
    *,
    title: str,
    one_hot_title: str,
    dense_title: str,
    note: str | None = None,
) -> go.Figure:
    """The all-pairs distance matrices of one-hot and dense vectors next to each other, each on its own scale.

    Small matrices carry their numbers in the cells, so the constant sqrt(2) = 1.41 can be read off.
    """
    one_hot_d = np.asarray(one_hot_d, dtype=np.float64)
    dense_d = np.asarray(dense_d, dtype=np.float64)
    n = one_hot_d.shape[0]
    text = "%{z:.2f}" if n <= CELL_TEXT_MAX else None
    fig = _two_panels(one_hot_title, dense_title, gap=0.24)
    for axes, z, bar_x in ((("x", "y"), one_hot_d, 0.39), (("x2", "y2"), dense_d, 1.01)):
        fig.add_trace(
            go.Heatmap(
                z=f32(z), x=list(labels), y=list(labels), colorscale="Viridis", zmin=0.0,
                zmax=float(z.max()) or 1.0, texttemplate=text, colorbar=dict(x=bar_x, len=0.9, title=dict(text="‖u−v‖")),
                hovertemplate="%{y} ↔ %{x}<br>%{z:.4f}<extra></extra>", xaxis=axes[0], yaxis=axes[1],
            ),
        )
    fig.update_yaxes(autorange="reversed", showgrid=False, type="category")
    fig.update_xaxes(showgrid=False, type="category")
    fig.update_layout(template=TEMPLATE, title=titled(title, note), height=max(440, min(800, 160 + 22 * n)),
                      margin=dict(t=110 if note else 80))
    return fig


def gradient_rows_figure(
    row_grad_norm,
    looked_up,
    targets,
    hover_labels: Sequence[str],
    *,
    title: str,
    x_title: str,
    y_title: str,
    strip_title: str,
    names: tuple[str, str, str],
    grad_title: str,
    note: str | None = None,
) -> go.Figure:
    """Top: |dL/dW[v]| of every row v (log scale, so an exactly-zero row has no bar); bottom: a strip marking the
    rows whose gradient is not zero. Looked-up rows red, rows that are only targets orange, the rest grey.
    The hover names the row by ``x_title`` (token id) and its gradient norm by ``grad_title``, both translated.
    """
    norm = np.asarray(row_grad_norm, dtype=np.float64)
    V = norm.size
    looked_up = set(int(i) for i in np.asarray(looked_up).reshape(-1))
    targets = set(int(i) for i in np.asarray(targets).reshape(-1)) - looked_up
    kind = np.array([0 if v in looked_up else 1 if v in targets else 2 for v in range(V)])
    fig = make_subplots(rows=2, cols=1, row_heights=[0.8, 0.2], shared_xaxes=True, vertical_spacing=0.06)
    ids = np.arange(V)
    for k, (name, color) in enumerate(zip(names, (PICKED, TARGET, OTHER))):
        sel = (kind == k) & (norm > 0)
        if not sel.any():
            continue
        fig.add_trace(
            go.Bar(
                x=ids[sel], y=f32(norm[sel]), name=name, marker_color=color, marker_line_width=0, showlegend=True,
                customdata=[hover_labels[v] for v in ids[sel]],
                hovertemplate=f"%{{customdata}} ({x_title} %{{x}})<br>{grad_title} %{{y:.3g}}<extra></extra>",
            ),
            row=1, col=1,
        )
    nonzero = (norm > 0).astype(np.float32)[None, :]  # (1, V)
    fig.add_trace(
        go.Heatmap(
            z=nonzero, x=ids, y=[strip_title], colorscale=[[0, "#f4f4f4"], [1, "#222222"]], zmin=0, zmax=1,
            showscale=False, hovertemplate=f"{x_title} %{{x}}: %{{z}}<extra></extra>",
        ),
        row=2, col=1,
    )
    fig.update_yaxes(type="log", title_text=y_title, row=1, col=1)
    fig.update_xaxes(title_text=x_title, range=[-0.5, V - 0.5], row=2, col=1)
    fig.update_layout(template=TEMPLATE, title=titled(title, note), height=460, bargap=0.0)
    return fig


def init_scale_figure(
    d_models,
    norms: dict[str, np.ndarray],
    names: dict[str, str],
    current_d_model: int,
    *,
    title: str,
    x_title: str,
    y_title: str,
    note: str | None = None,
) -> go.Figure:
    """Mean row length against d_model (log-log) for each initialisation, with the current d_model marked."""
    traces = [go.Scatter(x=f32(d_models), y=f32(values), name=names[scheme], mode="lines+markers")
              for scheme, values in norms.items()]
    return new_figure(title, note=note, x_title=x_title, y_title=y_title, height=420, data=traces, layout=dict(
        **reference_marks([(current_d_model, _line("dot", "#555"), "", "top")], axis="x", log=False),
        xaxis=dict(type="log"), yaxis=dict(type="log"), legend=_INSIDE_TOP_LEFT,
    ))


def parameter_bars(
    categories: Sequence[str],
    values,
    *,
    title: str,
    y_title: str,
    note: str | None = None,
    highlight: str | None = None,
    text: Sequence[str] | None = None,
) -> go.Figure:
    """One bar per category (a table, or a model), optionally one highlighted; values written at the bars' ends.

    The bars lie across, the categories (model names such as "Qwen3-0.6B (YaRN 128K)") down the side, read as
    written on a projector and a phone alike: standing bars needed their names tilted, and tilted names met their
    neighbours. ``y_title`` titles the values' axis (drawn across, under the bars)."""
    colors = [PICKED if c == highlight else BLUE for c in categories]
    values = f32(values)
    top = float(values.max(initial=0.0)) or 1.0
    bars = go.Bar(x=values, y=list(categories), orientation="h", marker_color=colors, text=text,
                  textposition="outside", cliponaxis=False)
    return new_figure(title, note=note, x_title=y_title, height=max(260, 130 + 30 * len(categories)), data=[bars],
                      layout=dict(showlegend=False, yaxis=dict(autorange="reversed", type="category", showgrid=False),
                                  xaxis=dict(range=[0.0, top * 1.2])))  # room for the last bar's number


# trained embedding page


def loss_figure(losses, *, title: str, x_title: str, y_title: str, floor: float | None = None,
                floor_name: str = "", series_name: str, mean_name: str, note: str | None = None) -> go.Figure:
    """Per-step loss (thin) and its running mean over ~2% of the steps (thick), with an optional floor line.

    ``series_name`` and ``mean_name`` (a template with {name} and {window}) are the legend, already translated."""
    losses = np.asarray(losses, dtype=np.float64)
    steps = np.arange(1, losses.size + 1)
    window = max(1, losses.size // 50)
    smooth = np.convolve(losses, np.ones(window) / window, mode="valid")  # running mean: the trend, not the noise
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=steps, y=f32(losses), name=series_name, mode="lines",
                             line=dict(width=1, color=SKY)))
    fig.add_trace(go.Scatter(x=steps[window - 1:], y=f32(smooth), name=mean_name.format(name=series_name, window=window),
                             mode="lines", line=dict(width=2.5, color=BLUE)))
    if floor is not None:
        reference_lines(fig, [(floor, _line("dash", GREEN), floor_name, "right")], axis="y", log=False)
    fig.update_xaxes(title_text=x_title)
    fig.update_yaxes(title_text=y_title)
    fig.update_layout(template=TEMPLATE, title=titled(title, note), height=380,
                      legend=dict(_INSIDE_TOP_LEFT, x=0.99, xanchor="right"))
    return fig


def similarity_before_after(
    before, after, labels: Sequence[str], *, title: str, before_title: str, after_title: str,
    note: str | None = None, group_sizes: Sequence[int] = (),
) -> go.Figure:
    """Two cosine-similarity matrices on the fixed scale [-1, 1] side by side; lines separate the groups."""
    fig = _two_panels(before_title, after_title, gap=0.08)
    n = len(labels)
    text = "%{z:.1f}" if n <= CELL_TEXT_MAX else None
    edges = np.cumsum(list(group_sizes)[:-1]) - 0.5  # a line after each group but the last
    shapes = []
    for col, S in enumerate((before, after), start=1):
        xref, yref = ("x", "y") if col == 1 else (f"x{col}", f"y{col}")
        fig.add_trace(
            go.Heatmap(z=f32(S), x=list(labels), y=list(labels), coloraxis="coloraxis", texttemplate=text,
                       hovertemplate="cos(%{y}, %{x}) = %{z:.3f}<extra></extra>", xaxis=xref, yaxis=yref),
        )
        for edge in edges.tolist():
            line = dict(type="line", xref=xref, yref=yref, line=dict(color="black", width=1.5))
            shapes.append(dict(line, x0=edge, x1=edge, y0=-0.5, y1=n - 0.5))
            shapes.append(dict(line, y0=edge, y1=edge, x0=-0.5, x1=n - 0.5))
    fig.update_layout(shapes=shapes)  # one update: add_shape per line re-validates the figure each time
    fig.update_yaxes(autorange="reversed", type="category", showgrid=False)
    fig.update_xaxes(type="category", showgrid=False)
    fig.update_layout(
        template=TEMPLATE, title=titled(title, note), height=max(460, min(820, 200 + 14 * n)),
        margin=dict(t=110 if note else 80),
        coloraxis=dict(colorscale=DIVERGING, cmin=-1.0, cmax=1.0, colorbar=dict(title=dict(text="cos"))),
    )
    return fig


def pca_figure(points, labels: Sequence[str], groups: Sequence[str], *, title: str, axis_titles: Sequence[str],
               note: str | None = None, limit: float | None = None) -> go.Figure:
    """The 2-D projection of the token vectors, coloured by group; fixed axis range so snapshots are comparable.
    ``axis_titles`` names the two principal components (translated)."""
    fig = scatter_2d(points, list(labels), groups=list(groups), title=title, note=note, x_title=axis_titles[0],
                     y_title=axis_titles[1])
    fig.update_layout(legend=LEGEND_BELOW, margin=dict(b=BELOW_MARGIN))
    if limit:
        fig.update_xaxes(range=[-limit, limit])
        fig.update_yaxes(range=[-limit, limit])
    return fig


def group_similarity_figure(steps, same, cross, *, title: str, x_title: str, y_title: str,
                            names: tuple[str, str], reference: dict[str, float] | None = None,
                            note: str | None = None) -> go.Figure:
    """Mean same-group and cross-group cosine over the training snapshots, with the text's numbers as dashes."""
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=f32(steps), y=f32(same), name=names[0], mode="lines", line=dict(color=PICKED)))
    fig.add_trace(go.Scatter(x=f32(steps), y=f32(cross), name=names[1], mode="lines", line=dict(color=BLUE)))
    refs = [(value, _line("dot", "#777"), name, "right") for name, value in (reference or {}).items()]
    reference_lines(fig, [*refs, (0.0, _line("solid", LIGHT_GREY), "", "right")], axis="y", log=False)
    fig.update_xaxes(title_text=x_title)
    # a little past ±1, so the bottom tick's "−1" does not sit on the x axis's first label in the corner
    fig.update_yaxes(title_text=y_title, range=[-1.12, 1.12])
    fig.update_layout(template=TEMPLATE, title=titled(title, note), height=380, legend=_INSIDE_TOP_LEFT)
    return fig
