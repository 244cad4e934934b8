"""A Qdrant collection ranks as the embedded one does: the same BM25 scores (our analyzer's
sparse vectors with Qdrant's IDF), the same dense ranking and the same fused scores, on Qdrant's
own engine (qdrant-edge) and in qdrant-client's local mode alike."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import groundkit
from groundkit.backends.qdrant.backend import QdrantBackend
from groundkit.backends.qdrant.edge import EdgeTransport
from groundkit.backends.qdrant.transport import ClientTransport, Spec, Transport
from groundkit.backends.qdrant.writer import indexed_text
from groundkit.collection import Collection
from groundkit.config import Settings
from groundkit.testing import FakeEmbedder

_WORDS = (
    "falcon quarry basalt lantern cobalt sparrow orchard ember quince medlar harbour tidal "
    "granite slate chalk flint survey valley river delta marsh heron willow reed otter badger "
    "copper tin bronze forge anvil smith loom weaver thread spindle mill grain barley oat rye"
).split()


def _corpus(root: Path) -> Path:
    rng = random.Random(7)
    docs = root / "docs"
    docs.mkdir()
    for n in range(60):
        sections = []
        for s in range(rng.randint(1, 3)):
            words = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(20, 160)))
            sections.append(f"## Part {s}\n\n{words}.\n")
        (docs / f"note{n:02}.md").write_text(f"# Note {n}\n\n" + "\n".join(sections))
    return docs


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _corpus(tmp_path_factory.mktemp("parity"))


@pytest.fixture(scope="module")
def embedded(docs: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Collection]:
    index = tmp_path_factory.mktemp("index")
    with groundkit.open_collection("p", index_dir=index, embedder=FakeEmbedder()) as collection:
        collection.ingest([docs], dense=True)
        yield collection


def _qdrant(transport: Transport, docs: Path) -> Collection:
    backend = QdrantBackend("p", transport, Spec(dense=None), create=True)
    collection = Collection("p", docs, Settings(), FakeEmbedder(), backend=backend)
    collection.ingest([docs], dense=True)
    return collection


@pytest.fixture(scope="module", params=["edge", "local"])
def qdrant(
    request: pytest.FixtureRequest, docs: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Collection]:
    if request.param == "edge":
        transport: Transport = EdgeTransport("p", tmp_path_factory.mktemp("edge") / "p")
    else:
        transport = ClientTransport("p", location=":memory:")
    collection = _qdrant(transport, docs)
    yield collection
    collection.close()


def _queries() -> list[str]:
    rng = random.Random(11)
    return [" ".join(rng.sample(_WORDS, rng.randint(1, 4))) for _ in range(40)]


def test_bm25_scores_are_the_embedded_scores(embedded: Collection, qdrant: Collection) -> None:
    for query in _queries():
        mine = {
            h.citation.chunk_id: h.score
            for h in embedded.search(query, mode="bm25", top_k=20, collapse=False)
        }
        theirs = {
            h.citation.chunk_id: h.score
            for h in qdrant.search(query, mode="bm25", top_k=20, collapse=False)
        }
        shared = set(mine) & set(theirs)
        assert len(shared) >= 18, query  # ties at the cut may differ
        for chunk in shared:
            assert theirs[chunk] == pytest.approx(mine[chunk], rel=1e-5), query


def test_dense_and_hybrid_rank_as_the_embedded_collection(
    embedded: Collection, qdrant: Collection
) -> None:
    # The fake embedder gives many chunks the same vector: ties may fall either way.
    for query in _queries():
        for mode in ("dense", "hybrid"):
            mine = embedded.search(query, mode=mode, top_k=10, collapse=False)
            theirs = qdrant.search(query, mode=mode, top_k=10, collapse=False)
            shared = {h.citation.chunk_id for h in mine} & {h.citation.chunk_id for h in theirs}
            assert len(shared) >= 8, (query, mode)


def test_the_servers_fusion_scores_each_hit_by_its_ranks_in_the_arms(qdrant: Collection) -> None:
    for query in _queries():
        for hit in qdrant.search(query, mode="hybrid", top_k=10, collapse=False):
            arms = [hit.ranks[arm] for arm in ("bm25", "dense") if arm in hit.ranks]
            assert hit.score == pytest.approx(sum(1 / (60 + rank) for rank in arms), rel=1e-5)


def test_a_chunk_is_indexed_as_the_embedded_store_indexes_it(embedded: Collection) -> None:
    store = embedded._store
    texts = {rowid: text for rowid, _doc, text in store.indexed_texts()}
    documents = {d.document_id: d for d in embedded._backend.all_documents()}
    for row in store.all_chunks():
        title = documents[row.document_id].title
        assert indexed_text(title, row.start, row.text, row.metadata) == texts[row.rowid]
