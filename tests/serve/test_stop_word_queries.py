"""A query of stop words alone finds nothing in any mode, and every surface says why."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from serving import client_for, make_runtime
from test_search_show_fields import mcp

import groundkit.collection as collection_module
from grk_runner import Grk
from groundkit import Settings
from groundkit.ops.collections import IngestOrder, ingest
from groundkit.serve.runtime import Runtime
from groundkit.testing import FakeEmbedder

STOP_WORDS = "the of and to is"


@pytest.fixture
def embedded(
    settings: Settings, docs: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[Runtime, TestClient]]:
    """The collection ``notes`` with vectors, so that its searches are hybrid by default."""
    monkeypatch.setattr(collection_module, "create_embedder", lambda config: FakeEmbedder())
    runtime = make_runtime(settings)
    ingest(runtime, IngestOrder("notes", [str(docs)], dense=True))
    with client_for(runtime) as client:
        yield runtime, client
    runtime.close()


def rest(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/v1/search", json={"collection": "notes", **body})
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


@pytest.mark.parametrize("mode", [None, "hybrid", "dense", "bm25"])
def test_stop_words_alone_find_nothing_in_any_mode_over_rest_and_mcp(
    embedded: tuple[Runtime, TestClient], mode: str | None
) -> None:
    runtime, client = embedded
    body = {"query": STOP_WORDS} | ({"mode": mode} if mode else {})

    over_rest = rest(client, **body)
    over_mcp = mcp(runtime, "search", collection="notes", **body)

    for found in (over_rest, over_mcp):
        assert (found["hits"], found["no_searchable_words"]) == ([], True)
    assert rest(client, query="the wombat", **({"mode": mode} if mode else {}))["hits"]
    assert rest(client, query="the quokka")["no_searchable_words"] is False  # words, no hits


def test_the_search_page_says_the_query_has_no_searchable_words(
    embedded: tuple[Runtime, TestClient],
) -> None:
    _, client = embedded
    page = client.get("/ui/c/notes/search", params={"q": STOP_WORDS})

    assert page.status_code == 200
    assert "0 results" in page.text
    assert "The query has no searchable words" in page.text


def test_grk_search_says_the_query_has_no_searchable_words_in_text_and_json(
    settings: Settings,
    docs: Path,
    index_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(collection_module, "create_embedder", lambda config: FakeEmbedder())
    grk = Grk(index_dir, capsys)
    assert grk("ingest", "--dense", "--quiet", str(docs)) == 0, grk.err
    queries = index_dir.parent / "queries.jsonl"
    queries.write_text('{"id": "q1", "text": "the of and to is"}\n{"id": "q2", "text": "wombat"}\n')

    assert grk("search", STOP_WORDS) == 0
    said = grk.out
    found = grk.json("search", STOP_WORDS)
    assert grk("search", "--queries", str(queries), "--json") == 0
    batch = [line for line in grk.out.splitlines() if line]

    assert said.startswith("no hits: the query has no searchable words")
    assert (found["hits"], found["no_searchable_words"]) == ([], True)
    assert '"no_searchable_words": true' in batch[0]
    assert '"no_searchable_words": false' in batch[1]
