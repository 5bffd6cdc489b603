"""embedviz: the Streamlit entry point. Run with `make run` (or `streamlit run app.py`)."""
from embedviz.app.frame import run

run()
