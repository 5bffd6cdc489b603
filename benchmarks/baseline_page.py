"""The bare page for benchmarks/bench_live.py: a Streamlit page with one slider and one small plotly heatmap.

A live figure's key step is compared with this page's full rerun, served by the same Streamlit with the same
settings and timed in the same run and browser. Run alone with `streamlit run benchmarks/baseline_page.py`.
"""
import numpy as np
import plotly.graph_objects as go
import streamlit as st

st.title("Baseline")
n = st.slider("size", 2, 64, 16)
z = np.sin(np.outer(np.arange(n), np.arange(n)) / n).astype(np.float32)  # (n, n) a few KB of JSON
st.plotly_chart(go.Figure(go.Heatmap(z=z)))
