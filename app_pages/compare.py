"""Compare encodings: sinusoidal, learned, RoPE, ALiBi and none at one d_model and length (lessons 000, 002, 003)."""
import streamlit as st

from embedviz.app import compare_view as view
from embedviz.app import input_layer_view
from embedviz.app.errors import localized
from embedviz.app.i18n import t
from embedviz.app.markup import trusted
from embedviz.app.widgets import bound_tabs, BIND, details, human_number, int_slider, lead, notice, plot, show_error
from embedviz.figures import compare as figs
from embedviz.lessons.widget_keys import Compare as K

LENGTHS = [2**p for p in range(4, 18)]
FORMULAS = {
    "sinusoidal": r"x_p = e_{t_p} + \mathrm{PE}(p)",
    "learned": r"x_p = e_{t_p} + P_{p},\ P \in \mathbb{R}^{L \times D}",
    "rope": r"s_{mn} = \langle R(m)\,q_m,\ R(n)\,k_n \rangle",
    "alibi": r"s^{(h)}_{ij} = q_i \cdot k_j - \mathrm{slope}_h\,(i - j)",
}
# catalog keys, written out so that grep finds each text's use
TABS = ["cmp.tab_params", "cmp.tab_adjacent", "cmp.tab_matrix", "cmp.tab_past", "cmp.tab_alibi",
        "cmp.tab_props"]  # one section per tab, in the story's order
SCHEME_NAMES = {"sinusoidal": "cmp.scheme_sinusoidal", "learned": "cmp.scheme_learned", "rope": "cmp.scheme_rope",
                "alibi": "cmp.scheme_alibi", "none": "cmp.scheme_none"}
SCHEME_PARAMS = {"sinusoidal": "cmp.params_sinusoidal", "learned": "cmp.params_learned", "rope": "cmp.params_rope",
                 "alibi": "cmp.params_alibi", "none": "cmp.params_none"}
PROPERTY_NAMES = {"unique": "cmp.prop_unique", "bounded": "cmp.prop_bounded", "relative": "cmp.prop_relative",
                  "extrapolates": "cmp.prop_extrapolates", "deterministic": "cmp.prop_deterministic"}
WHY = {  # scheme -> property -> why it holds or not
    "sinusoidal": {"unique": "cmp.why_sinusoidal_unique", "bounded": "cmp.why_sinusoidal_bounded",
                   "relative": "cmp.why_sinusoidal_relative", "extrapolates": "cmp.why_sinusoidal_extrapolates",
                   "deterministic": "cmp.why_sinusoidal_deterministic"},
    "learned": {"unique": "cmp.why_learned_unique", "bounded": "cmp.why_learned_bounded",
                "relative": "cmp.why_learned_relative", "extrapolates": "cmp.why_learned_extrapolates",
                "deterministic": "cmp.why_learned_deterministic"},
    "rope": {"unique": "cmp.why_rope_unique", "bounded": "cmp.why_rope_bounded", "relative": "cmp.why_rope_relative",
             "extrapolates": "cmp.why_rope_extrapolates", "deterministic": "cmp.why_rope_deterministic"},
    "alibi": {"unique": "cmp.why_alibi_unique", "bounded": "cmp.why_alibi_bounded",
              "relative": "cmp.why_alibi_relative", "extrapolates": "cmp.why_alibi_extrapolates",
              "deterministic": "cmp.why_alibi_deterministic"},
    "none": {"unique": "cmp.why_none_unique", "bounded": "cmp.why_none_bounded", "relative": "cmp.why_none_relative",
             "extrapolates": "cmp.why_none_extrapolates", "deterministic": "cmp.why_none_deterministic"},
}


def name(scheme: str) -> str:
    return t(SCHEME_NAMES[scheme])


def mark(state: str, reason: str) -> str:
    return f"{view.MARKS[state]} {reason}"


st.title(t("cmp.title"))
lead("cmp.lead")
# the open section first, then the settings every section reads and the five formulas: the containers are created
# in that order, the settings filled first
sections_area, controls_area = st.container(), st.container()
cols = controls_area.columns(4)
with cols[0]:
    d_model = int_slider(K.D_MODEL, "cmp.d_model", 2, 4_096, 64, step=2)
with cols[1]:
    length = st.select_slider(t("cmp.length"), LENGTHS, value=1_024, format_func=human_number, key=K.LENGTH,
                              bind=BIND)
with cols[2]:
    num_heads = int_slider(K.HEADS, "cmp.heads", 1, 128, 8)
with cols[3]:
    k = int(st.number_input(t("cmp.k"), 1, 1_000_000, 1, key=K.K, bind=BIND))


def params_tab() -> None:
    params = view.parameter_counts(d_model, length)
    st.table(  # five rows: a plain table draws faster than the interactive grid on the page's first tab
        {
            t("cmp.col_scheme"): [name(s) for s in view.SCHEMES],
            t("cmp.col_params"): [f"{params[s]:,}" for s in view.SCHEMES],
            t("cmp.col_why"): [t(SCHEME_PARAMS[s], L=f"{length:,}", D=f"{d_model:,}") for s in view.SCHEMES],
        },
    )
    notice("cmp.notice")


def adjacent_tab() -> None:
    st.markdown(t("cmp.adjacent_intro"))
    adjacent = view.adjacent_curves(d_model, length)
    note = t("common.showing_every", step=adjacent.step) if adjacent.step > 1 else None
    plot(figs.adjacent_chart, adjacent.positions, {name(s): c for s, c in adjacent.curves.items()},
         title=t("cmp.adjacent_title", D=d_model), x_title=t("common.position"),
         y_title=t("cmp.adjacent_y"), note=note)


def matrix_tab() -> None:
    st.markdown(t("cmp.matrix_intro"))
    mats = view.similarity_matrices(d_model, length)
    note = t("common.showing_every", step=mats.step) if mats.step > 1 else None
    panel_titles = [name("sinusoidal"), name("learned"), t("cmp.panel_rope"), name("none")]
    plot(figs.similarity_panels, list(mats.matrices.values()), mats.positions, subplot_titles=panel_titles,
         title=t("cmp.matrix_title", D=d_model, L=human_number(length)),
         hover=t("cmp.matrix_hover"), note=note)


def past_tab() -> None:
    past = view.past_the_end(d_model, length, k, num_heads)
    last = past.last
    st.markdown(t("cmp.past_intro", T=f"{length + k:,}", last=f"{last:,}", L=f"{length:,}",
                  lastrow=f"{length - 1:,}"))
    sin_refusal = input_layer_view.refusals(length, length + k)["SinusoidalPositionalEmbedding"]  # lesson 000's module
    st.warning(t("cmp.past_learned", last=f"{last:,}", error=localized(past.learned_error)) + "\n\n"
               + t("inl.cmp_sinusoidal_refuses", last=f"{last:,}", error=localized(sin_refusal)))
    values = ", ".join(f"{v:.3f}" for v in past.sin_values)
    st.table(
        {
            t("cmp.col_scheme"): [name(s) for s in view.SCHEMES],
            t("cmp.col_result", last=f"{last:,}"): [
                t("cmp.past_sinusoidal", values=values, far=f"{past.sin_adjacent_far:.4f}",
                  near=f"{past.sin_adjacent_start:.4f}"),
                t("cmp.past_learned_cell"),
                t("cmp.past_rope", last=f"{last:,}", prev=f"{last - 1:,}", far=f"{past.rope_far:.4f}",
                  near=f"{past.rope_near:.4f}"),
                t("cmp.past_alibi", last=f"{last:,}", prev=f"{last - 1:,}", far=f"{past.alibi_far:.4f}",
                  near=f"{past.alibi_near:.4f}"),
                t("cmp.past_none"),
            ],
        },
    )
    st.caption(t("cmp.past_caption"))


def alibi_tab() -> None:
    st.markdown(t("cmp.alibi_intro"))
    ali = view.alibi_view(num_heads, length)
    slopes = ali.slopes
    note = t("cmp.bias_note")
    if ali.step > 1:
        note += " · " + t("common.showing_every", step=ali.step)
    plot(figs.alibi_bias_panels,
         ali.bias, ali.positions, hover=t("cmp.bias_hover"), note=note, colorbar_title=t("common.bias"),
         title=t("cmp.bias_title", n=len(ali.heads), H=num_heads, L=human_number(length)),
         subplot_titles=[t("cmp.bias_panel", h=h + 1, slope=view.slope_label(slopes[h])) for h in ali.heads])
    plot(figs.slopes_chart, slopes, title=t("cmp.slopes_title", H=num_heads), x_title=t("cmp.head"),
         y_title=t("cmp.slope"), note=t("cmp.slopes_note"))


def props_tab() -> None:
    st.markdown(t("cmp.props_intro"))
    table = {t("cmp.col_scheme"): [name(s) for s in view.SCHEMES]}
    for i, prop in enumerate(view.PROPERTIES):
        table[t(PROPERTY_NAMES[prop])] = [mark(view.MEETS[s][i], t(WHY[s][prop])) for s in view.SCHEMES]
    st.table(table)
    st.caption(t("cmp.props_caption"))


# bound tabs run lazily: a page open or a slider step builds and draws the open tab's section only;
# the open tab is in the URL, so a shared link reopens it
with sections_area:
    tabs = bound_tabs(K.TAB, TABS)
for tab, render in zip(tabs, (params_tab, adjacent_tab, matrix_tab, past_tab, alibi_tab, props_tab)):
    if tab.open:
        with tab:
            try:
                render()
            except ValueError as error:
                show_error(error)

with controls_area:
    for i, (scheme, formula) in enumerate(FORMULAS.items()):
        if i % 2 == 0:
            cols = st.columns(2)
        cols[i % 2].caption(name(scheme))
        cols[i % 2].latex(trusted(formula))
    details(t("cmp.intro"))
