"""Shared widget helpers that hold logic: the stops of a log-scale slider and number labels."""
import pytest

from embedviz.app.widgets import human_number, log_options


def test_log_options_cover_every_decade_with_1_2_5_steps():
    assert log_options(100.0, 10_000.0) == [100.0, 200.0, 500.0, 1000.0, 2000.0, 5000.0, 10_000.0]


def test_log_options_below_one_are_exact_decimals():
    stops = log_options(1e-4, 1.0)
    assert stops[:3] == [0.0001, 0.0002, 0.0005]
    assert 0.01 in stops and stops[-1] == 1.0
    assert len(stops) == 13


def test_log_options_add_presets_inside_the_range_only():
    stops = log_options(100.0, 1e7, extra=(500_000.0, 1e9))
    assert 500_000.0 in stops and 1e9 not in stops
    assert stops == sorted(stops)


def test_log_options_refuse_an_empty_range():
    with pytest.raises(ValueError, match="0 < lo <= hi"):
        log_options(10.0, 1.0)


@pytest.mark.parametrize(("x", "text"), [(10_000.0, "10,000"), (1e6, "1,000,000"), (0.5, "0.5"),
                                         (1e14, "100,000,000,000,000"), (1e23, "1e+23"), (1e300, "1e+300")])
def test_human_number(x, text):
    assert human_number(x) == text


def test_plot_through_a_builder_draws_the_builders_figure_and_caches_it():
    """plot(builder, *args) shows exactly the figure builder(*args) makes, and a rerun does not rebuild it."""
    import json

    import numpy as np
    import plotly.io as pio
    from streamlit.testing.v1 import AppTest

    import embedviz.figures as figures
    from embedviz.app import widgets

    def script():
        import numpy as np

        from embedviz.app.widgets import plot
        from embedviz.figures import heatmap

        z = np.outer(np.arange(30), np.arange(20)) / 600.0
        plot(heatmap, z, title="through the cache", key="cached")
        plot(heatmap(z, title="through the cache"), key="direct")

    z = np.outer(np.arange(30), np.arange(20)) / 600.0
    expected = json.loads(pio.to_json(figures.heatmap(z, title="through the cache"), validate=False))
    real, calls = figures.heatmap, []

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    counted.__module__, counted.__qualname__ = real.__module__, real.__qualname__  # the same cache key
    widgets._figure_spec.clear()
    figures.heatmap = counted
    try:
        at = AppTest.from_function(script).run()
        assert not at.exception, at.exception
        assert [json.loads(c.proto.spec) for c in at.get("plotly_chart")] == [expected, expected]
        assert len(calls) == 2  # first run: the cache was empty
        at.run()
        assert not at.exception, at.exception
        assert len(calls) == 3  # the rerun built only the direct figure; the builder form came from the cache
        assert json.loads(at.get("plotly_chart")[0].proto.spec) == expected
    finally:
        figures.heatmap = real
        widgets._figure_spec.clear()


def test_plot_refuses_arguments_beside_a_built_figure():
    import plotly.graph_objects as go

    from embedviz.app.widgets import plot

    with pytest.raises(TypeError, match="builds one"):
        plot(go.Figure(), 1)
