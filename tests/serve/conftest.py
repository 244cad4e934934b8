"""Fixtures for the servers: a small real collection, a runtime over it, REST clients."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from serving import SECRET, SECRET_ENV, client_for, make_runtime

from groundkit import Settings
from groundkit.config import parse_settings
from groundkit.ops.collections import IngestOrder, ingest
from groundkit.serve.runtime import Runtime


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    (root / "guides").mkdir(parents=True)
    (root / "wombats.md").write_text(
        "# Wombats\n\nThe wombat digs long burrows with its strong claws.\n\n"
        "## Diet\n\nA wombat eats grasses, roots and bark \u2014 and the odd caf\u00e9 crumb.\n",
        encoding="utf-8",
    )
    (root / "guides" / "echidnas.txt").write_text(
        "A guide to echidnas: the echidna lays an egg, like the platypus.\n", encoding="utf-8"
    )
    return root


@pytest.fixture
def more(tmp_path: Path) -> Path:
    """A folder holding one new document, about a quokka, for the ingest tests."""
    folder = tmp_path / "more"
    folder.mkdir()
    (folder / "quokka.md").write_text("The quokka smiles on Rottnest Island.\n")
    return folder


@pytest.fixture
def settings(index_dir: Path, tmp_path: Path) -> Settings:
    """Clients may ingest anything under the test's own folder (``serve.ingest_roots``)."""
    return parse_settings({"index_dir": str(index_dir), "serve": {"ingest_roots": [str(tmp_path)]}})


@pytest.fixture
def runtime(settings: Settings, docs: Path) -> Iterator[Runtime]:
    """A read-only runtime (no secret) over the collection ``notes``."""
    rt = make_runtime(settings)
    ingest(rt, IngestOrder("notes", [str(docs)]))
    yield rt
    rt.close()


@pytest.fixture
def writable(settings: Settings, docs: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Runtime]:
    """A runtime with the secret configured (and in the environment, as `grk serve` reads it)."""
    monkeypatch.setenv(SECRET_ENV, SECRET)
    rt = make_runtime(settings, secret=SECRET)
    ingest(rt, IngestOrder("notes", [str(docs)]))
    yield rt
    rt.close()


@pytest.fixture
def client(runtime: Runtime) -> Iterator[TestClient]:
    with client_for(runtime) as c:
        yield c


@pytest.fixture
def admin(writable: Runtime) -> Iterator[TestClient]:
    with client_for(writable) as c:
        yield c
