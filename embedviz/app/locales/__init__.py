"""Per-page string tables, each named after its page and declaring its keys' PREFIX; see embedviz.app.i18n."""
