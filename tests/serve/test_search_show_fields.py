"""REST and MCP carry what the CLI shows: missing vectors, folded near-duplicates, lines, and
drift judged on the cited span with moved offsets."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import anyio
import numpy as np
import numpy.typing as npt
import pytest
from fastapi.testclient import TestClient
from mcp import Client
from serving import client_for, make_runtime

import groundkit
import groundkit.collection as collection_module
from groundkit import Settings
from groundkit.embed.base import EmbedderIdentity, InputType
from groundkit.ops.collections import IngestOrder, ingest
from groundkit.serve.mcp_server import create_mcp_server
from groundkit.serve.runtime import Runtime
from groundkit.testing import FakeEmbedder

PLATYPUS = (
    "The platypus hunts at dusk in slow rivers, closing its eyes and ears underwater and finding "
    "shrimp and larvae by the faint electric fields their muscles make, which the receptors in "
    "its soft bill pick up from a few centimetres away."
)
INTRO = "# Field guide\n\n" + "A guide to the creek, its banks and its animals. " * 25 + "\n\n"
CITED = "## Platypus\n\n" + PLATYPUS + "\n"


def mcp(runtime: Runtime, tool: str, **arguments: Any) -> dict[str, Any]:
    async def run() -> dict[str, Any]:
        async with Client(create_mcp_server(runtime)) as client:
            result = await client.call_tool(tool, arguments)
        assert not result.is_error, result.content
        assert result.structured_content is not None
        return result.structured_content

    out: dict[str, Any] = anyio.run(run)
    return out


@pytest.fixture
def shelf(tmp_path: Path) -> Path:
    docs = tmp_path / "shelf"
    docs.mkdir()
    (docs / "platypus.md").write_text(f"# Platypus\n\n{PLATYPUS}\n")
    page = f"<h1>Platypus</h1><p>{PLATYPUS}</p>"
    (docs / "platypus.html").write_text(f"<html><body><main>{page}</main></body></html>")
    (docs / "all.html").write_text(f"<html><body><main>{page}<p>More.</p></main></body></html>")
    (docs / "rivers.md").write_text("# Rivers\n\nThe platypus lives in slow rivers at dusk.\n")
    (docs / "guide.md").write_text(INTRO + CITED)
    return docs


@pytest.fixture
def served(settings: Settings, shelf: Path) -> Iterator[tuple[Runtime, TestClient]]:
    runtime = make_runtime(settings)
    ingest(runtime, IngestOrder("shelf", [str(shelf)]))
    with client_for(runtime) as client:
        yield runtime, client
    runtime.close()


def rest_search(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/v1/search", json={"collection": "shelf", **body})
    assert response.status_code == 200, response.text
    out: dict[str, Any] = response.json()
    return out


COPIES = {"platypus.md", "platypus.html", "all.html", "guide.md"}  # the guide quotes it whole


def test_search_folds_near_duplicates_over_rest_and_mcp_alike(
    served: tuple[Runtime, TestClient],
) -> None:
    runtime, client = served
    query = {"query": "platypus electric bill", "top_k": 3}
    rest = rest_search(client, **query)
    over_mcp = mcp(runtime, "search", collection="shelf", **query)
    unfolded = rest_search(client, **query, collapse=False)
    unfolded_mcp = mcp(runtime, "search", collection="shelf", collapse=False, **query)

    assert rest == over_mcp
    assert unfolded == unfolded_mcp
    assert rest["missing_vectors"] == 0
    [best] = [h for h in rest["hits"] if h["source"] in COPIES]
    assert best["folded"] == 3
    assert {f["source"] for f in best["folded_hits"]} | {best["source"]} == COPIES
    assert all(f["line"] is not None for f in best["folded_hits"])
    assert sum(h["source"] in COPIES for h in unfolded["hits"]) >= 2


def test_a_chunk_and_a_quote_are_verified_where_the_source_moved_them(
    served: tuple[Runtime, TestClient], shelf: Path
) -> None:
    runtime, client = served
    [hit] = [
        h
        for h in rest_search(client, query="platypus electric", source="guide.md")["hits"]
        if "## Platypus" in h["text"]
    ]
    guide = shelf / "guide.md"
    guide.write_text(INTRO.replace("Field guide", "Creek guide, second edition") + CITED)
    added = len(", second edition") + len("Creek guide") - len("Field guide")

    chunk = client.get(f"/v1/chunks/shelf/{hit['chunk_id']}").json()
    fetched = mcp(runtime, "fetch_chunk", collection="shelf", chunk_id=hit["chunk_id"])
    quote = {"collection": "shelf", "chunk_id": hit["chunk_id"], "quote": "electric fields"}
    verdict = client.post("/v1/verify", json=quote).json()
    verdict_mcp = mcp(runtime, "verify_citation", **quote)

    assert chunk == fetched
    assert chunk["verification"] == "verified"
    assert chunk["moved_to"]["start"] == hit["start"] + added
    assert chunk["moved_to"]["line"] == hit["line"]  # the same line: only its offset moved
    assert verdict == verdict_mcp
    assert verdict["verification"] == "verified"
    assert verdict["moved_to"]["start"] == verdict["start"] + added
    now = guide.read_text()
    assert now[verdict["moved_to"]["start"] : verdict["moved_to"]["end"]] == "electric fields"


def test_a_chunk_whose_cited_text_changed_is_drifted_but_not_for_an_edit_elsewhere(
    served: tuple[Runtime, TestClient], shelf: Path
) -> None:
    runtime, client = served
    [hit] = rest_search(client, query="platypus electric", source="rivers.md", top_k=1)["hits"]
    rivers = shelf / "rivers.md"
    rivers.write_text(rivers.read_text() + "\n## Later\n\nAn added section.\n")
    kept = client.get(f"/v1/chunks/shelf/{hit['chunk_id']}").json()
    rivers.write_text("# Rivers\n\nThe platypus lives in fast rivers at dusk.\n")
    changed = mcp(runtime, "fetch_chunk", collection="shelf", chunk_id=hit["chunk_id"])

    assert (kept["verification"], kept["moved_to"]) == ("verified", None)
    assert (changed["verification"], changed["moved_to"]) == ("drifted", None)


class Interrupted:
    """The fake embedder, with Ctrl-C at its second batch of documents."""

    def __init__(self) -> None:
        self._inner = FakeEmbedder()
        self.batches = 0

    @property
    def identity(self) -> EmbedderIdentity:
        return self._inner.identity

    def embed(self, texts: Sequence[str], input_type: InputType) -> npt.NDArray[np.float32]:
        if input_type == "document":
            self.batches += 1
            if self.batches == 2:
                raise KeyboardInterrupt
        return self._inner.embed(texts, input_type)


def test_a_half_embedded_collection_reports_its_missing_vectors(
    settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import groundkit.pipeline.vectors as vectors_module
    from groundkit.pipeline import Interrupted as Stopped

    notes = tmp_path / "notes"
    notes.mkdir()
    for i in range(12):
        (notes / f"n{i:02}.md").write_text(f"# Note {i}\n\nThe numbat{i} eats termites.\n")
    embedder = Interrupted()
    monkeypatch.setattr(collection_module, "create_embedder", lambda config: embedder)
    monkeypatch.setattr("groundkit.serve.runtime.create_embedder", lambda config: embedder)
    monkeypatch.setattr(vectors_module, "COMMIT_EVERY", 4)
    small = settings.replace(embed=settings.embed.replace(batch_size=4))
    with groundkit.open_collection("half", settings=small) as coll, pytest.raises(Stopped):
        coll.ingest([str(notes)], dense=True)

    runtime = make_runtime(small)
    try:
        with client_for(runtime) as client:
            body = {"collection": "half", "query": "numbat3 termites"}
            hybrid = client.post("/v1/search", json=body).json()
            bm25 = client.post("/v1/search", json={**body, "mode": "bm25"}).json()
            status = client.get("/v1/collections/half").json()
        dense = mcp(runtime, "search", collection="half", query="numbat3", mode="dense")
        indexed = mcp(runtime, "index_status", collection="half")
    finally:
        runtime.close()

    assert (hybrid["missing_vectors"], dense["missing_vectors"], bm25["missing_vectors"]) == (
        8,
        8,
        0,
    )
    assert status == indexed
    assert (status["chunks"], status["vectors"], status["missing_vectors"]) == (12, 4, 8)
