"""Trained embedding: lesson 001's experiment live; tokens that share contexts end up with similar vectors.

Training is an explicit action: the settings sit in a form, so moving a slider costs nothing and the page trains
once when the reader presses Train (a link with the settings in its URL trains them on open, within the budget)."""
import streamlit as st

from embedviz.app import trained_embedding_view as view
from embedviz.app.i18n import t
from embedviz.app.widgets import bound_tabs, choice_slider, details, lead, lesson_button, notice, pc_axes, plot
from embedviz.app.widgets import segmented
from embedviz.app.widgets import show_error
from embedviz.figures import joined, similarity_heatmap
from embedviz.figures import tokens as figs
from embedviz.lessons.widget_keys import Training as K

STEPS = (10, 20, 50, 100, 200, 500, 1_000, 2_000)
D_MODELS = (2, 4, 8, 16, 32, 64, 128, 256)
LRS = (1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2, 0.1, 0.2, 0.5, 1.0)  # Adam, default 1e-2 as in training/experiment.py
SOFTMAX_NAMES = {"vocab": "train.softmax_vocab", "groups": "train.softmax_groups"}  # trained_embedding_view.SOFTMAX
WHY_NEGATIVE = {"vocab": "train.why_vocab", "groups": "train.why_groups"}
CLASS_NAMES = {"lowercase": "train.class_lowercase", "uppercase": "train.class_uppercase",  # the core's classes
               "other letter": "train.class_other_letter", "digit": "train.class_digit",
               "punctuation": "train.class_punctuation", "whitespace": "train.class_whitespace",
               "UTF-8 byte": "train.class_utf_8_byte", "other": "train.class_other"}


class ProgressBar:
    """A progress callback that draws its bar on first use, so a cached run (which never calls it) shows no bar."""

    def __init__(self) -> None:
        self.slot, self.used = st.empty(), False

    def __call__(self, step: int, steps: int) -> None:
        self.used = True
        self.slot.progress(step / steps, text=t("train.training", step=step, steps=steps))

    def done(self, steps: int, seconds: float) -> None:
        if self.used:  # really trained this run: leave a full bar saying how long it took
            self.slot.progress(1.0, text=t("train.trained", steps=steps, seconds=seconds))


def train(experiment, *args, steps: int):
    """``experiment(*args, progress=bar)`` behind a progress bar; a bad setting shows its message and gives None.

    A run longer than the server's budget stops early and says so, with a button that trains every step."""
    bar = ProgressBar()
    try:
        r = experiment(*args, progress=bar)
        if r.stopped and not r.pressed:
            slot = st.empty()
            with slot.container():
                st.warning(t("train.stopped", done=r.steps_done, steps=steps, budget=view.RUN_CPU_BUDGET_S))
                finish = st.button(t("train.finish", steps=steps), key=K.FINISH(experiment.__name__))
            if finish:
                r = experiment(*args, progress=bar, full=True)
                slot.empty()
        if r.stopped and r.pressed:  # even the button's run has a limit: the settings ask too much
            st.warning(t("train.press_stopped", done=r.steps_done, steps=steps, budget=view.PRESS_CPU_BUDGET_S))
    except ValueError as error:
        bar.slot.empty()
        show_error(error)
        return None
    bar.done(r.steps_done, r.seconds)
    return r


def settings_form(name: str, extra) -> tuple:
    """The training settings of one experiment in a form: sliders stage their values (and the URL) without a rerun;
    the Train button reruns the page once with all of them. Returns (steps, d_model, lr, seed, *extra())."""
    with st.form(K.FORM(name), enter_to_submit=False):
        c1, c2, c3, c4 = st.columns([3, 3, 3, 1])
        with c1:
            steps = choice_slider(K.STEPS, "train.steps", STEPS, 500)
        with c2:
            d_model = choice_slider(K.D_MODEL, "common.d_model", D_MODELS, 16)
        with c3:
            lr = choice_slider(K.LR, "train.lr", LRS, 0.01, format_func=lambda x: f"{x:g}")
        with c4:
            seed = int(st.number_input(t("train.seed"), 0, 9_999, 0, key=K.SEED, bind="query-params"))
        more = extra()
        st.form_submit_button(t("train.train"), key=K.TRAIN(name), type="primary",
                              icon=":material/model_training:", help=t("train.train_help"))
    return (steps, d_model, lr, seed, *more)


def group_settings() -> tuple:
    g1, g2 = st.columns([3, 2])
    text = g1.text_input(t("train.groups"), value="abcdefghij ABCDEFGHIJ", key=K.GROUPS, max_chars=300,
                         help=t("train.groups_help"), bind="query-params")
    with g2:
        softmax = segmented(K.SOFTMAX, "train.softmax", tuple(view.SOFTMAX), "vocab",
                            format_func=lambda k: t(SOFTMAX_NAMES[k]))
    return text, softmax


def groups_tab() -> None:
    """The lesson's numbers first, then how this run went (a progress bar, a run the budget cut short) and the
    settings that made it: the containers are created in that order, and filled settings first."""
    numbers, status, form = st.container(), st.container(), st.container()
    with form:
        steps, d_model, lr, seed, text, softmax = settings_form("groups", group_settings)
    groups = view.parse_groups(text or "")
    with status:
        r = train(view.group_experiment, steps, d_model, lr, seed, groups, softmax, steps=steps)
    if r is None:
        return
    with numbers:
        group_numbers(r, groups, softmax)
    group_views(r, groups)


def group_numbers(r, groups, softmax: str) -> None:
    """Lesson 001's numbers beside this run's, and what this run's cross-group similarity did."""
    done = r.steps_done  # all `steps` unless the run stopped at the budget
    st.header(t("train.numbers"))
    (same0, cross0), (same1, cross1) = r.groups_before, r.groups_after
    rows = [(t("train.pair_row", a=a, b=b), before, after, view.text_reference((a, b)))
            for (a, b), (before, after) in r.pairs.items()]
    rows += [(t("train.same_row"), same0, same1, ""), (t("train.cross_row"), cross0, cross1, "")]
    st.table({t("train.quantity"): [q for q, *_ in rows], t("train.before"): [f"{b:+.3f}" for _, b, _, _ in rows],
              t("train.after", steps=done): [f"{a:+.3f}" for _, _, a, _ in rows],
              t("train.text_col"): [ref for *_, ref in rows]})
    if len(groups) > 1:
        peak_step, peak = r.cross_peak  # the blue curve's top: the texts below name it, true for this run
        zero = (t("train.zero_at", step=r.cross_zero) if r.cross_zero is not None
                else t("train.zero_above" if peak > 0 else "train.zero_below"))  # where this run's curve goes
        run = dict(classes=r.num_classes, unseen=r.unseen_classes, peak=peak, peak_step=peak_step, zero=zero,
                   steps=done)
        if cross1 < -0.15:
            st.warning(t("train.negative", cross=cross1, why=t(WHY_NEGATIVE[softmax], **run)))
        elif cross1 > 0.15:
            st.warning(t("train.positive", cross=cross1))
        else:
            st.success(t("train.near_zero" if softmax == "vocab" else "train.near_zero_groups", cross=cross1, **run))
        st.caption(t("train.pair_spread", steps=done))


def group_views(r, groups) -> None:
    """The run's figures, one view per tab: the similarity matrices, the curves over training, the loss."""
    done = r.steps_done
    # one figure (or two) per view; bound tabs run lazily, so an open or a Train redraws only the open view
    sim, time, loss = bound_tabs(K.VIEW, ["train.view_sim", "train.view_time", "train.view_loss"])
    if sim.open:
        with sim:
            plot(figs.similarity_before_after,
                 r.sim_before, r.sim_after, r.vocab, title=t("train.sim_title"),
                 before_title=t("train.before"), after_title=t("train.after", steps=done), note=t("train.sim_note"),
                 group_sizes=[len(g) for g in r.group_names])
    if time.open:
        with time:
            plot(figs.group_similarity_figure,
                 r.snapshot_steps, r.curve[:, 0], r.curve[:, 1], title=t("train.curve_title"),
                 x_title=t("train.step"), y_title=t("train.curve_y"),
                 names=(t("train.curve_same"), t("train.curve_cross")),
                 reference={t("train.ref_ab"): 0.56, t("train.ref_aA"): 0.04} if groups[:1] == ("abcdefghij",) else None)
            snapshot_view(r)
    if loss.open:
        with loss:
            loss_view(r, floor=view.loss_floor(groups))
    notice("train.notice")


def loss_view(r: view.Run, floor: float | None = None) -> None:
    extra = {} if floor is None else {"floor": floor, "floor_name": t("train.floor", floor=floor),
                                      "note": t("train.loss_note")}
    plot(figs.loss_figure, r.losses, title=t("train.loss_title"), x_title=t("train.step"),
         y_title=t("train.loss_y"), series_name=t("train.loss_series"), mean_name=t("train.loss_mean"), **extra)


@st.fragment
def snapshot_view(r: view.GroupRun) -> None:
    """The snapshot slider reruns only this fragment: the PCA picture, not the whole page."""
    snaps = [int(s) for s in r.snapshot_steps]
    at = choice_slider(K.SNAPSHOT, "train.snapshot", snaps, snaps[-1]) if len(snaps) > 1 else snaps[0]
    k = snaps.index(at) if at in snaps else len(snaps) - 1
    names = [r.group_names[g] for g in r.group_of]
    plot(figs.pca_figure, r.points[k], r.vocab, names, title=t("train.pca_title", step=snaps[k]),
         note=t("train.pca_note"), limit=r.limit, axis_titles=pc_axes())


def text_settings() -> tuple:
    text = st.text_area(t("train.text"), value=t("train.text_default"), key=K.TEXT, max_chars=2_000,
                        bind="query-params")
    context = st.slider(t("train.context"), 1, 8, 1, key=K.CONTEXT, bind="query-params")
    return text, context


def text_tab() -> None:
    st.markdown(t("train.text_md"))
    steps, d_model, lr, seed, text, context = settings_form("text", text_settings)
    r = train(view.text_experiment, text, steps, d_model, lr, seed, context, steps=steps)
    if r is None:
        return
    sim, space, loss = bound_tabs(K.TEXT_VIEW, ["train.view_sim", "train.view_map", "train.view_loss"])
    if sim.open:
        with sim:  # the view ordered the tokens by class and block-averaged the matrix to the screen's cells
            step = r.sim_step
            plot(similarity_heatmap, r.sim_after, r.sim_labels, title=t("train.text_sim_title", n=r.sim_size),
                 note=joined(t("train.sim_note"), t("common.downsampled", rs=step, cs=step) if step > 1 else None))
    if space.open:
        with space:
            names = [t(CLASS_NAMES[r.group_names[g]]) for g in r.group_of]
            plot(figs.pca_figure, r.point, r.vocab, names, title=t("train.text_pca_title"),
                 axis_titles=pc_axes())
    if loss.open:
        with loss:
            loss_view(r)
    notice("train.text_notice")


st.title(t("train.title"))
lead("train.lead")
tabs = bound_tabs(K.TAB, ["train.tab_groups", "train.tab_text"])
for tab, render in zip(tabs, (groups_tab, text_tab)):
    if tab.open:
        with tab:
            render()
lesson_button(K.LESSON, "lesson.train_button", {K.STEPS: 500, K.GROUPS: "abcdefghij ABCDEFGHIJ", K.D_MODEL: 16,
                                                   K.LR: 0.01, K.SOFTMAX: "vocab", K.SEED: 0},
              help="lesson.train_help")
details(t("train.intro"))
