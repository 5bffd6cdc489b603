"""The app's pages: file, title key, icon and URL path of each, in reading order; data only, so the frame, the
class view and the tests read one table without importing each other."""
from __future__ import annotations

# The page scripts live in app_pages/, not pages/: Streamlit treats a folder named pages/ next to app.py as an
# old-style multipage app until st.navigation has run once, so the first request to a fresh server for a deep link
# (a teacher's shared URL) ran the bare page without this frame. tests/e2e checks that cold visit.
# (section i18n key, [(file, title i18n key, icon, url path)]) in reading order: ids -> vectors -> positions.
PAGES: list[tuple[str, list[tuple[str, str, str, str]]]] = [
    ("nav.start", [("app_pages/home.py", "home.nav", ":material/home:", "home")]),
    (
        "nav.tokens",
        [
            ("app_pages/token_embeddings.py", "tok.nav", ":material/table_rows:", "token-embeddings"),
            ("app_pages/dot_product.py", "dot.nav", ":material/straighten:", "dot-product"),
            ("app_pages/trained_embedding.py", "train.nav", ":material/model_training:", "trained-embedding"),
            # the payoff of the token story: a real model's token table, right after the one trained here
            ("app_pages/real_model.py", "real.nav", ":material/psychology:", "real-model"),
        ],
    ),
    (
        "nav.positions",
        [
            ("app_pages/why_position.py", "why.nav", ":material/shuffle:", "why-position"),
            ("app_pages/why_sinusoidal.py", "why_sinusoidal.nav", ":material/help:", "why-sine-cosine"),
            ("app_pages/sinusoidal.py", "sin.nav", ":material/waves:", "sinusoidal"),
            # learned positions get their place before RoPE: the road BERT and GPT-2 took, the paper's alternative
            ("app_pages/learned_positions.py", "learn.nav", ":material/view_list:", "learned-positions"),
            ("app_pages/input_layer.py", "inl.nav", ":material/input:", "input-layer"),
            ("app_pages/rope.py", "rope.nav", ":material/rotate_right:", "rope"),
            ("app_pages/compare.py", "cmp.nav", ":material/compare:", "compare"),
            ("app_pages/context_extension.py", "ctx.nav", ":material/open_in_full:", "context-extension"),
            # the methods above, run on a real RoPE model past its trained length
            ("app_pages/past_length.py", "past.nav", ":material/trending_up:", "past-length"),
            ("app_pages/modern_rope.py", "mod.nav", ":material/layers:", "modern-rope"),
        ],
    ),
]
