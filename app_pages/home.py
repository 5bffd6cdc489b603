"""Home: a lesson to start with first, then one live figure of the journey from ids to vectors to positions."""
import streamlit as st

from embedviz.app import home_view as view
from embedviz.app.i18n import t
from embedviz.app.tour import start_tour
from embedviz.app.widgets import notice, plot, show_error
from embedviz.tokens.tokenizer import token_labels
from embedviz.lessons.widget_keys import Home as K

LESSONS = {  # each lesson's tour, its title and its one-line summary by catalog key
    "000": ("tour.000.title", "home.lesson.000"), "001": ("tour.001.title", "home.lesson.001"),
    "002": ("tour.002.title", "home.lesson.002"), "003": ("tour.003.title", "home.lesson.003"),
    "004": ("tour.004.title", "home.lesson.004"),
}

st.title(t("home.title"))
st.markdown(t("home.lead"))
# the five lessons first, one column each (a title wraps in its column; a phone stacks them): each opens its tour
# at step 1. Side by side they take one row of the first screen, where a row of buttons wrapped into three.
with st.container(key=K.LESSONS):
    for column, (lesson, (title, summary)) in zip(st.columns(len(LESSONS)), LESSONS.items()):
        column.button(t(title), key=K.TOUR(lesson), icon=":material/school:", on_click=start_tour,
                      args=(lesson,), help=t(summary), type="primary" if lesson == "000" else "secondary",
                      wrap=True, width="stretch")  # a long title takes two lines rather than an ellipsis
st.markdown(t("home.figure_lead"))

# the figure, then the text it is made of: the figure's slot comes first on the page, filled once the text is read
figure = st.container()
text = st.text_input(t("home.try"), value="Hello", key=K.TEXT, max_chars=64, bind="query-params")
try:
    ids, tok, pos, inputs = view.embed_text(text, 16)
except ValueError as error:
    show_error(error)
    st.stop()

st.caption(t("home.ids", n=len(ids), ids=list(map(int, ids))))
with figure:
    plot(
        view.input_figure, tok, pos, inputs, tuple(token_labels(ids)),
        title=t("home.figure_title"), x_title=t("common.dimension"), downsample_note=t("common.downsampled"),
        subplot_titles=(t("home.panel_tokens"), t("home.panel_positions"), t("home.panel_sum")),
    )
notice("home.notice")
with st.expander(t("home.more")):
    st.markdown(t("home.intro"))
    st.markdown(t("home.journey"))
    st.markdown(f"**{t('home.lessons_header')}**")
    st.markdown(t("home.lessons"))
