"""The only part of embedviz that imports streamlit: cached core calls, shared widgets, URL state and i18n."""
from embedviz.app import url_guard

# Every entry point (the frame, each page script, AppTest) imports this package before any widget is made.
url_guard.install()
