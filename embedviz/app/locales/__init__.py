"""Per-page string tables; see embedviz.app.i18n."""
