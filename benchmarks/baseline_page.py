"""The floor for benchmarks/feel.py: a bare Streamlit page with one slider and one small plotly heatmap.

Whatever embedviz adds to a slider step or a page open is measured against this page, served by the same
Streamlit with the same settings and timed by the same harness in the same run. Run alone with
`streamlit run benchmarks/baseline_page.py`. ``floor()`` is its slider and heatmap, which the probes of
benchmarks/element_cost.py add one thing to.
"""
import numpy as np
import plotly.graph_objects as go
import streamlit as st


def floor() -> None:
    n = st.slider("size", 2, 64, 16)
    z = np.sin(np.outer(np.arange(n), np.arange(n)) / n).astype(np.float32)  # (n, n) a few KB of JSON
    st.plotly_chart(go.Figure(go.Heatmap(z=z)))


if __name__ == "__main__":  # served by Streamlit (which runs a page as __main__), not imported by a probe
    st.title("Baseline")
    floor()
