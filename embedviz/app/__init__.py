"""The only part of embedviz that imports streamlit: cached core calls, shared widgets, URL state and i18n.

Importing it changes nothing in Streamlit: the frame installs embedviz's runtime patches (``compat.install``)."""
