"""The only part of embedviz that imports streamlit: cached core calls, shared widgets, URL state and i18n."""
