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


@pytest.mark.parametrize(("x", "text"), [(10_000.0, "10,000"), (1e6, "1,000,000"), (0.5, "0.5")])
def test_human_number(x, text):
    assert human_number(x) == text
