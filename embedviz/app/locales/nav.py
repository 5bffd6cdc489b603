"""The navigation's section headings (embedviz/app/pages.py); each page's own entry is its module's "<prefix>.nav"."""
PREFIX = "nav."  # every key of STRINGS starts with it (tests/app/test_page_stems.py)
STRINGS = {
    "nav.start": {"en": "Start", "zh": "开始"},
    "nav.positions": {"en": "Positions", "zh": "位置编码"},
    "nav.tokens": {"en": "Token embeddings", "zh": "词嵌入"},
    "nav.models": {"en": "Real models", "zh": "真实模型"},
}
