"""The input layer (lesson 000): (B, T) ids -> (B, T, D), positions broadcast as (1, T, D); sum vs concatenation."""
import streamlit as st

from embedviz.app import input_layer_view as view
from embedviz.app.errors import localized
from embedviz.app.i18n import t
from embedviz.app.widgets import bound_tabs, choice_slider, int_slider, notice, show_error
from embedviz.app.widgets import details, lead
from embedviz.lessons.widget_keys import InputLayer as K

VOCAB = 256  # the byte-level vocabulary of lessons 000 and 001
D_OPTIONS = (2, 4, 8, 16, 32, 64, 128, 256, 512)
T_OPTIONS = (1, 2, 4, 5, 8, 16, 32, 64, 128, 256, 512)  # B x T x D <= 8 x 512 x 512: the batch is built for real
L_OPTIONS = (4, 8, 16, 32, 64, 128, 256, 512)
STEPS = {"ids": "inl.step_ids", "token_vectors": "inl.step_token_vectors", "positions": "inl.step_positions",
         "broadcast": "inl.step_broadcast", "sum": "inl.step_sum"}  # composition.shape_trace's steps
WAYS = {"sum": "inl.way_sum", "concat": "inl.way_concat"}
TABS = ("inl.tab_shapes", "inl.tab_sum")  # ?inl_tab= holds the label


def shape(dims) -> str:
    return "(" + ", ".join(f"{d:,}" for d in dims) + ")"


def trace_section(r: view.InputLayerView) -> None:
    """Every shape from ids to the sum."""
    st.header(t("inl.trace_header"))
    st.table({t("inl.col_step"): [t(STEPS[step]) for step, _ in r.trace.shapes],
              t("inl.col_shape"): [shape(dims) for _, dims in r.trace.shapes]}, hide_index=True)
    st.latex(r"x = \underbrace{W_{\mathrm{tok}}[\mathrm{ids}]}_{(B,\,T,\,D)} + "
             r"\underbrace{P[0{:}T]\mathrm{.unsqueeze}(0)}_{(1,\,T,\,D)}")


def sum_section(r: view.InputLayerView) -> None:
    """Sum against concatenation: the width, the tables and one attention block's cost."""
    st.header(t("inl.sum_header"))
    st.markdown(t("inl.sum_text"))
    out_shapes = {"sum": r.trace.sum_shape, "concat": r.trace.concat_shape}
    st.table({  # static HTML: no data-grid bundle to load on open, and the cells are short strings anyway
        t("inl.col_way"): [t(WAYS[way]) for way in ("sum", "concat")],
        t("inl.col_output"): [shape(out_shapes[way]) for way in ("sum", "concat")],
        t("inl.col_token_table"): [f"{r.cost[way].token_table:,}" for way in ("sum", "concat")],
        t("inl.col_position_table"): [f"{r.cost[way].position_table:,}" for way in ("sum", "concat")],
        t("inl.col_width"): [f"{r.cost[way].width:,}" for way in ("sum", "concat")],
        t("inl.col_attention"): [f"{r.cost[way].attention_per_layer:,}" for way in ("sum", "concat")],
    }, hide_index=True)
    st.caption(t("inl.table_caption"))


st.title(t("inl.title"))
lead("inl.lead")
# The shapes and sum against concatenation come first on the page when they can be built (two tabs, the figure: a
# step about either opens its own, so its table is on the first screen), the sliders under them; when T > L the
# lesson's modules refuse, and the refusals below are all there is to see. The containers are created in page order
# and filled once the sliders are read.
sections, sliders = st.container(), st.container()
cols = sliders.columns(5)
with cols[0]:
    batch = int_slider(K.BATCH, "inl.batch", 1, 8, 2)
with cols[1]:
    length = choice_slider(K.LENGTH, "inl.length", T_OPTIONS, 5)
with cols[2]:
    d_model = choice_slider(K.D_MODEL, "common.d_model", D_OPTIONS, 8)
with cols[3]:
    max_length = choice_slider(K.MAX_LENGTH, "inl.max_length", L_OPTIONS, 16)
with cols[4]:
    d_pos = choice_slider(K.D_POSITION, "inl.d_pos", D_OPTIONS, 8)

st.header(t("inl.past_header"))
with st.expander(t("common.details")):
    st.markdown(t("inl.past_text"))
try:
    refusals = view.refusals(max_length, length)
except ValueError as error:
    show_error(error)
    st.stop()
if any(refusals.values()):
    for module, message in refusals.items():
        st.warning(t("inl.refused", module=module, message=localized(message)))  # module: the class name
else:
    st.success(t("inl.fits", T=f"{length:,}", L=f"{max_length:,}"))
    try:
        r = view.input_layer(batch, length, d_model, d_pos, VOCAB, max_length)
    except ValueError as error:
        show_error(error)
        st.stop()
    with sections:  # both drawn (two small tables): the tab a reader opens shows at once
        shapes, summed = bound_tabs(K.TAB, TABS)
    with shapes:
        trace_section(r)
    with summed:
        sum_section(r)
details(t("inl.intro"))
notice("inl.notice")
