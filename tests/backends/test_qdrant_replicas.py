"""Servers over one Qdrant collection hold nothing of their own: an ingest through one is
visible through the other at once, and a search through either never fails while the other is
writing. (Two runtimes in one process here, over a loopback server; benchmarks/backends.py runs
two `grk serve` processes and a writer process.)"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from groundkit.config import parse_settings
from groundkit.errors import ErrorCode, GroundkitError
from groundkit.ops import collections as ops
from groundkit.serve.runtime import Runtime
from groundkit.testing import FakeEmbedder
from groundkit.testing.qdrant_server import FakeQdrantServer


@pytest.fixture
def runtimes(tmp_path: Path) -> Iterator[tuple[Runtime, Runtime]]:
    with FakeQdrantServer() as server:
        settings = parse_settings(
            {
                "index_dir": str(tmp_path / "index"),
                "collection": "shared",
                "serve": {"ingest_roots": [str(tmp_path)]},
                "collections": {"shared": {"backend": "qdrant", "url": server.url}},
            }
        )
        one, other = (
            Runtime(settings, embedder=FakeEmbedder()),
            Runtime(settings, embedder=FakeEmbedder()),
        )
        yield one, other
        one.close()
        other.close()


def _notes(root: Path, version: int, count: int = 30) -> Path:
    root.mkdir(exist_ok=True)
    for i in range(count):
        (root / f"n{i}.md").write_text(
            f"# N{i}\n\nNote {i} version {version} says word{version}x{i}.\n"
        )
    return root


def test_an_ingest_through_one_server_is_seen_by_the_other_at_once(
    tmp_path: Path, runtimes: tuple[Runtime, Runtime]
) -> None:
    one, other = runtimes
    docs = _notes(tmp_path / "docs", 1)
    ops.ingest(one, ops.IngestOrder("shared", [str(docs)], dense=True))
    found = ops.search(other, ops.SearchQuery("word1x3", mode="bm25"))
    assert [h.citation.source for h in found.hits] == ["n3.md"]
    _notes(docs, 2)
    ops.ingest(other, ops.IngestOrder("shared", [str(docs)]))
    assert [h.citation.source for h in ops.search(one, ops.SearchQuery("word2x3")).hits][:1] == [
        "n3.md"
    ]
    assert ops.search(one, ops.SearchQuery("word1x3", mode="bm25")).hits == []
    assert ops.status(one).documents == ops.status(other).documents == 30


def test_searches_through_both_never_fail_while_one_writes(
    tmp_path: Path, runtimes: tuple[Runtime, Runtime]
) -> None:
    one, other = runtimes
    docs = _notes(tmp_path / "docs", 1)
    ops.ingest(one, ops.IngestOrder("shared", [str(docs)], dense=True))
    errors: list[BaseException] = []
    sizes: list[int] = []
    done = threading.Event()

    def read(runtime: Runtime) -> None:
        while not done.is_set():
            try:
                hits = ops.search(runtime, ops.SearchQuery("note version says", top_k=50)).hits
                sizes.append(len({h.citation.document_id for h in hits}))
            except BaseException as exc:
                errors.append(exc)

    readers = [threading.Thread(target=read, args=(r,)) for r in (one, other, one, other)]
    for thread in readers:
        thread.start()
    try:
        for version in range(2, 5):
            _notes(docs, version)
            ops.ingest(other, ops.IngestOrder("shared", [str(docs)]))
    finally:
        done.set()
        for thread in readers:
            thread.join()
    assert errors == []
    assert sizes
    assert set(sizes) == {30}  # every search saw each note once: never twice, never none


def test_a_second_writer_waits_for_the_first_then_is_refused(
    tmp_path: Path, runtimes: tuple[Runtime, Runtime]
) -> None:
    one, other = runtimes
    docs = _notes(tmp_path / "docs", 1, count=3)
    with one.writing("shared", create=True) as writer, writer._backend.write_lock(0.0):
        with pytest.raises(GroundkitError) as caught:
            ops.ingest(other, ops.IngestOrder("shared", [str(docs)]))
        assert caught.value.code == ErrorCode.INDEX_LOCKED
    ops.ingest(other, ops.IngestOrder("shared", [str(docs)]))


def test_rest_and_the_pages_serve_a_qdrant_collection_as_any_other(
    tmp_path: Path, runtimes: tuple[Runtime, Runtime]
) -> None:
    from fastapi.testclient import TestClient

    from groundkit.serve.app import create_app
    from groundkit.serve.guards import allowed_hosts_for

    one, _ = runtimes
    ops.ingest(one, ops.IngestOrder("shared", [str(_notes(tmp_path / "docs", 1, count=4))]))
    app = create_app(one, allowed_hosts=allowed_hosts_for("127.0.0.1", 8765))
    with TestClient(app, base_url="http://127.0.0.1:8765") as client:
        found = client.post("/v1/search", json={"query": "word1x2", "mode": "bm25"}).json()
        assert [h["source"] for h in found["hits"]] == ["n2.md"]
        chunk = found["hits"][0]["chunk_id"]
        shown = client.get(f"/v1/chunks/shared/{chunk}").json()
        assert (shown["verification"], shown["text"]) == ("verified", found["hits"][0]["text"])
        status = client.get("/v1/status").json()
        assert (status["backend"], status["documents"], status["health"]) == ("qdrant", 4, "ok")
        assert client.get("/v1/collections").json()["collections"] == ["shared"]
        assert "shared" in client.get("/").text
