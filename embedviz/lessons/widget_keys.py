"""Every page's widget keys, one class per page, the tour panel's (``Tour``) and the class controls'
(``Classroom``): pure data that the pages, the tours, the tests and the load benchmarks all import.

A widget's key is its URL parameter too (``?sin_d=64``): links in the READMEs, the tours' steps and the links
teachers saved name these strings, so a value here changes only with its old name kept in ``RENAMED`` (the frame
reads a saved link's old key as the new one); a new widget adds a name. The names sit beside the tours in
``embedviz/lessons``, not in ``embedviz/app``, because the tours (no streamlit there) set them: a URL parameter is a
data contract between a link and its page, not a piece of UI.

Each key starts with its page's prefix (``sin_``), so two pages never share one. A ``Family`` is a stem whose
members are made at run time (Home's lesson buttons ``home_tour_000`` ... ``home_tour_004``).
``BY_PAGE`` maps a page's url path to its keys (tests/test_tours.py checks every tour step against it).
"""
from __future__ import annotations


class Family(str):
    """A run of keys sharing one stem: ``Home.TOUR("000") == "home_tour_000"``."""

    def __call__(self, name: object) -> str:
        return f"{self}{name}"


class PageKeys:
    """A page's widget keys as UPPER_CASE class attributes (strings, or ``Family`` stems)."""

    PREFIX = ""

    @classmethod
    def keys(cls) -> frozenset[str]:
        """The page's fixed keys (not the families')."""
        return frozenset(value for name, value in vars(cls).items()
                         if name.isupper() and name != "PREFIX" and type(value) is str)

    @classmethod
    def families(cls) -> frozenset[Family]:
        return frozenset(value for name, value in vars(cls).items() if isinstance(value, Family))

    @classmethod
    def declares(cls, key: str) -> bool:
        """Whether ``key`` is one of the page's keys or a member of one of its families."""
        return key in cls.keys() or any(key.startswith(stem) and key != stem for stem in cls.families())


class Home(PageKeys):
    PREFIX = "home_"
    TEXT = "home_text"  # the sentence the journey figure embeds
    LESSONS = "home_lessons"  # the row of lesson buttons (a container)
    TOUR = Family("home_tour_")  # one button per lesson: home_tour_<lesson>


class Tokens(PageKeys):
    """Token embeddings."""
    PREFIX = "tok_"
    TEXT = "tok_text"
    D_MODEL = "tok_d"
    INIT = "tok_init"
    SEED = "tok_seed"
    TAB = "tok_tab"
    TIED = "tok_tied"  # the gradient tab's tied-head toggle
    CHAR, WORD, OTHER = "tok_char", "tok_word", "tok_other"  # the raw-ids block's inputs
    LESSON = "tok_lesson"
    QWEN_TRY = "tok_qwen_try"
    # the parameter calculator
    PRESET = "tok_preset"
    VOCAB = "tok_V"
    WIDTH = "tok_D"
    MAX_CONTEXT_LENGTH = "tok_L"
    POSITIONAL = "tok_pe"
    TIE = "tok_tie"
    PARAMS_CSV = "tok_params_csv"


class DotProduct(PageKeys):
    PREFIX = "dot_"
    TAB = "dot_tab"
    LEN_U, ANGLE_U = "dot_lu", "dot_au"
    LEN_V, ANGLE_V = "dot_lv", "dot_av"
    REVEAL = "dot_reveal"
    GUESS = Family("dot_g")  # one guess per prediction pair: dot_g0, dot_g1, ...


class Training(PageKeys):
    """Trained embedding."""
    PREFIX = "tr_"
    TAB = "tr_tab"
    STEPS = "tr_steps"
    D_MODEL = "tr_d"
    LR = "tr_lr"
    SEED = "tr_seed"
    GROUPS = "tr_groups"
    SOFTMAX = "tr_soft"
    VIEW = "tr_view"  # the group experiment's views
    SNAPSHOT = "tr_snap"
    TEXT = "tr_text"
    CONTEXT = "tr_ctx"
    TEXT_VIEW = "tr_tview"  # the text experiment's views
    LESSON = "tr_lesson"
    FORM = Family("tr_form_")  # one settings form per experiment: tr_form_groups, tr_form_text
    TRAIN = Family("tr_train_")  # its submit button
    FINISH = Family("tr_finish_")  # "train every step" after a run stopped at the budget, per experiment function


class RealModel(PageKeys):
    PREFIX = "real_"
    MODEL = "real_model"
    TAB = "real_tab"
    TRY_E5 = "real_try_e5"
    PAIRS, PAIRS_E5 = "real_pairs", "real_pairs_e5"  # each model keeps its own pairs
    SUBWORD, SUBWORD_E5 = "real_subword", "real_subword_e5"
    A, B, C = "real_a", "real_b", "real_c"  # the analogy a - b + c
    ANALOGY_K = "real_ak"
    WORD, K = "real_word", "real_k"  # neighbours
    CROSS_WORD, CROSS_K = "real_xword", "real_xk"  # cross-lingual neighbours
    WORDS, WORDS_E5 = "real_words", "real_words_e5"  # the map's words
    UPLOAD = "real_upload"
    ROWS = "real_rows"  # how many rows of an uploaded table (session only: an upload is not in a link)


class WhyPosition(PageKeys):
    PREFIX = "why_"
    TEXT = "why_text"
    SPLIT = "why_split"
    SHUFFLE = "why_shuffle"
    ORDER = "why_order"  # the typed order
    POSITIONS = "why_pos"
    CAUSAL = "why_causal"
    SEED = "why_seed"
    D_MODEL = "why_d"
    TAB = "why_tab"


class WhySinusoidal(PageKeys):
    """Why sine and cosine."""
    PREFIX = "why_sinusoidal_"
    LENGTH = "why_sinusoidal_L"
    OTHER_LENGTH = "why_sinusoidal_L2"
    POSITION = "why_sinusoidal_p"
    D_MODEL = "why_sinusoidal_d"
    TAB = "why_sinusoidal_tab"


class Sinusoidal(PageKeys):
    PREFIX = "sin_"
    D_MODEL = "sin_d"
    LENGTH = "sin_L"
    BASE = "sin_base"
    TAB = "sin_tab"
    P, K = "sin_p", "sin_k"  # the rotation check's position and offset
    LESSON = "sin_lesson"
    CONTROLS = "sin_controls"
    LIVE_HEATMAP = "sin_live_heatmap"
    LIVE_DISTANCE = "sin_live_distance"


class LearnedPositions(PageKeys):
    PREFIX = "learn_"
    TAB = "learn_tab"
    E5 = "learn_e5"
    WINDOW = "learn_window"
    ROWS = "learn_rows"


class InputLayer(PageKeys):
    PREFIX = "inl_"
    BATCH = "inl_B"
    LENGTH = "inl_T"
    D_MODEL = "inl_D"
    MAX_LENGTH = "inl_L"
    D_POSITION = "inl_Dpos"
    TAB = "inl_tab"  # the open tab: the shapes, or sum against concatenation


class Rope(PageKeys):
    PREFIX = "rope_"
    PRESET = "rope_preset"
    PAIRING = "rope_pairing"
    HEAD_DIM = "rope_hd"
    THETA = "rope_theta"
    LENGTH = "rope_len"
    TAB = "rope_tab"
    WINDOW = "rope_win"
    PAIR, M, N, SHIFT = "rope_i", "rope_m", "rope_n", "rope_s"  # the pair demo
    LESSON = "rope_lesson"
    CONTROLS = "rope_controls"
    LIVE_ANGLES = "rope_live_angles"
    LIVE_DECAY = "rope_live_decay"


class Compare(PageKeys):
    PREFIX = "cmp_"
    D_MODEL = "cmp_d"
    LENGTH = "cmp_len"
    HEADS = "cmp_heads"
    K = "cmp_k"
    TAB = "cmp_tab"


class Context(PageKeys):
    """Context extension."""
    PREFIX = "ctx_"
    SOURCE = "ctx_src"
    UPLOAD = "ctx_upload"
    CONFIG = "ctx_cfg"  # the text area (session state only: a config is too long for a plain URL value)
    CONFIG_URL = "ctx_cfgz"  # the pasted config in the URL, zlib-compressed and base64url-encoded (no widget)
    METHOD = "ctx_method"
    FACTOR = "ctx_factor"
    ORIGINAL = "ctx_orig"
    TARGET = "ctx_target"
    HEAD_DIM = "ctx_hd"
    THETA = "ctx_theta"
    RATIO = "ctx_ratio"
    RESET = "ctx_reset"
    TAB = "ctx_tab"
    K = "ctx_k"  # the calculator's slow pairs
    CALC_CSV = "ctx_calc_csv"
    LIVE_WAVE = "ctx_wave"
    # the method parameters, by their transformers name
    BETA_FAST = "ctx_bf"
    BETA_SLOW = "ctx_bs"
    MSCALE = "ctx_ms"
    MSCALE_ALL_DIM = "ctx_msa"
    ATTENTION_FACTOR = "ctx_af"
    TRUNCATE = "ctx_trunc"
    LOW_FREQ_FACTOR = "ctx_lo"
    HIGH_FREQ_FACTOR = "ctx_hi"


class PastLength(PageKeys):
    """A real model past its length (glassllm's model read past its 128 trained tokens)."""
    PREFIX = "past_"
    TAB = "past_tab"
    SOURCE = "past_src"  # the default text or the reader's own
    TEXT = "past_text"
    LENGTH = "past_len"
    FACTOR = "past_factor"
    METHODS = "past_methods"
    MORE = "past_more"  # compute the methods the run's CPU budget left for later
    TABLE_CSV = "past_table_csv"
    ATT_METHOD = "past_amethod"  # the attention tab's method
    LAYER = "past_layer"
    HEAD = "past_head"


class ModernRope(PageKeys):
    PREFIX = "mod_"
    SOURCE = "mod_src"
    CONFIG = "mod_config"
    TAB = "mod_tab"
    VISION_LAYOUT = "mod_vlayout"
    VISION_GRID = "mod_vgrid"
    VISION_ROW, VISION_COL = "mod_vrow", "mod_vcol"
    SCAN_LENGTH = "mod_len"
    # the charts (keyed, so a rerun keeps each one mounted)
    STRIP = "mod_strip"
    TEMPERATURE = "mod_temp"
    DECAY = "mod_decay"
    HEAD = "mod_head"
    MROPE = "mod_mrope"
    VISION = "mod_vision"
    WAVE = "mod_wave"
    PI = "mod_pi"


class Tour(PageKeys):
    """The tour panel's widgets (embedviz/app/tour.py), drawn above whichever page a step opens. Session state, not
    URL parameters (the step is ?tour=&step=); the presenter clicker (embedviz/app/browser/presenter_keys.js) and
    the layout's CSS (``.st-key-tour_panel``) name some of them too."""
    PREFIX = "tour_"
    PANEL = "tour_panel"  # the panel's container
    BAR = "tour_bar"  # where you are, Back, Next and Leave on one line
    BACK, NEXT, LEAVE = "tour_back", "tour_next", "tour_leave"
    GO = "tour_go"  # the step lives on another page
    RESTORE = "tour_restore"  # the student moved a widget away from the step's settings
    NEXT_LESSON = "tour_next_lesson"  # the last step's button to the next lesson's tour
    PICK = "_tour_pick"  # the sidebar's tour picker (unbound; "_" like the tour's other session-state names)
    QUESTION = Family("tour_q_")  # a question step's answers: question(lesson, step, lang)
    REVEAL = Family("tour_reveal_")  # show a question step's figure without answering: reveal(lesson, step)

    @staticmethod
    def question(lesson: str, number: int, lang: str) -> str:
        """A question's radio; per language, because its options are the translated answers."""
        return Tour.QUESTION(f"{lesson}_{number}_{lang}")

    @staticmethod
    def reveal(lesson: str, number: int) -> str:
        return Tour.REVEAL(f"{lesson}_{number}")


class Classroom(PageKeys):
    """A class's controls and the student's follow widget (embedviz/app/classroom_view.py), drawn in the tour
    popover and the panel on whichever page a step opens. Session state, not URL parameters (the class is
    ?class=&teacher=); the load benchmarks (benchmarks/load/) press them by these keys."""
    PREFIX = "cls_"
    START, JOIN, LEAVE = "cls_start", "cls_join", "cls_leave"
    CODE_INPUT = "_cls_code"  # the typed join code (unbound; "_" like the class's other session-state names)
    AWAY, BACK = "cls_away", "cls_back"  # a student explores on their own, then comes back to the class
    FOLLOW = "cls_follow"  # the component that asks the follow route where the class is
    REVEAL = Family("cls_reveal_")  # the teacher shows a question's answer to the class: reveal(lesson, step)
    AGAIN = Family("cls_again_")  # the teacher asks the class to vote again (peer instruction): again(lesson, step)
    SHOW = Family("cls_show_")  # the teacher shows the spread to the class before the reveal: show(lesson, step)
    PEEK = Family("cls_peek_")  # the teacher's own look at a spread the class does not see: peek(lesson, step)
    SUMMARY = "cls_summary"  # the class summary at the end of a tour (a popover)
    SUMMARY_CSV = "cls_summary_csv"  # its download

    @staticmethod
    def reveal(lesson: str, number: int) -> str:
        return Classroom.REVEAL(f"{lesson}_{number}")

    @staticmethod
    def again(lesson: str, number: int) -> str:
        return Classroom.AGAIN(f"{lesson}_{number}")

    @staticmethod
    def show(lesson: str, number: int) -> str:
        return Classroom.SHOW(f"{lesson}_{number}")

    @staticmethod
    def peek(lesson: str, number: int) -> str:
        return Classroom.PEEK(f"{lesson}_{number}")


BY_PAGE: dict[str, type[PageKeys]] = {  # url path (embedviz/app/pages.py) -> its keys
    "home": Home, "token-embeddings": Tokens, "dot-product": DotProduct, "trained-embedding": Training,
    "real-model": RealModel, "why-position": WhyPosition, "why-sine-cosine": WhySinusoidal,
    "sinusoidal": Sinusoidal, "learned-positions": LearnedPositions, "input-layer": InputLayer, "rope": Rope,
    "compare": Compare, "context-extension": Context, "past-length": PastLength, "modern-rope": ModernRope,
}

# a key renamed -> its name today. Links saved before the rename still name the old key; the frame moves its value
# to the new one before the page reads the URL (embedviz/app/frame.py). The page stem "naive_" became the page's
# own name, "why_sinusoidal_", so the page file, its keys and its catalog prefix share one stem.
RENAMED: dict[str, str] = {
    "naive_L": WhySinusoidal.LENGTH, "naive_L2": WhySinusoidal.OTHER_LENGTH, "naive_p": WhySinusoidal.POSITION,
    "naive_d": WhySinusoidal.D_MODEL, "naive_tab": WhySinusoidal.TAB,
}
