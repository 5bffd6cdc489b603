"""Home: the journey from ids to vectors to positions, with one live figure."""
import streamlit as st

from embedviz.app import home_view as view
from embedviz.app.i18n import t
from embedviz.app.widgets import notice, plot, show_error
from embedviz.app.widgets import lead
from embedviz.tokenizer import token_labels

st.title(t("home.title"))
lead("home.lead", t("home.intro"), t("home.journey"))
with st.expander(t("home.lessons_header")):
    st.markdown(t("home.lessons"))

text = st.text_input(t("home.try"), value="Hello", key="home_text", max_chars=64, bind="query-params")
try:
    ids, tok, pos, inputs = view.embed_text(text, 16)
except ValueError as error:
    show_error(error)
    st.stop()

st.caption(t("home.ids", n=len(ids), ids=list(map(int, ids))))
plot(
    view.input_figure, tok, pos, inputs, tuple(token_labels(ids)),
    title=t("home.figure_title"), x_title=t("common.dimension"), downsample_note=t("common.downsampled"),
    subplot_titles=(t("home.panel_tokens"), t("home.panel_positions"), t("home.panel_sum")),
)
notice("home.notice")
