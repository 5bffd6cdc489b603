"""How alike neighbouring rows of a table are: the step curve, its rough steps, and their numbers.

Shared by the Learned positions page (the bundled position table beside a sinusoidal one) and the Real model
page's upload tab (a reader's own table): one drawing of one idea.
"""
from __future__ import annotations

import streamlit as st

from embedviz.app import real_model_view as view
from embedviz.app.i18n import t
from embedviz.app.widgets import plot
from embedviz.figures import real_model as figs


SHORT_TABLE = 20  # rows: a short table is drawn as HTML (no data-grid component to load), a longer one scrolls


def steps_table(views: view.RowViews) -> None:
    rows = view.step_rows(views, columns=[t(key) for key in view.STEP_COLUMNS])
    if len(rows) <= SHORT_TABLE:
        st.table(rows, hide_index=True)
    else:
        st.dataframe(rows, hide_index=True)


def step_figure(views: view.RowViews, series: dict, axis: str, *, shared: bool = False) -> None:
    """cos(row t, row t+1) along the table(s), the first table's rough steps circled, then those steps' numbers.

    ``shared``: the rows are the bundled model's, so the figure is built once through the figure cache shared by
    sessions; an uploaded table's figure is built directly and never enters that cache.
    """
    rough = views.rough
    args = (views.rows[:-1], series)
    spreads, drop = views.rough_bounds  # what the circles mean, as the core found them
    kwargs = dict(rough_steps=rough, rough_values=views.adjacent[rough - views.rows[0]],
                  rough_name=t("real.rough"), title=t("real.steps_title"), x_title=t("real.step_axis", axis=axis),
                  y_title="cos", note=t("real.steps_note", typical=views.typical, spreads=spreads, drop=drop))
    if shared:
        plot(figs.step_curves, *args, **kwargs)
    else:
        plot(figs.step_curves(*args, **kwargs))
    st.markdown(t("real.rough_header", steps=", ".join(f"{s}→{s + 1}" for s in rough) or "–",
                  norm=views.median_norm))
    steps_table(views)
