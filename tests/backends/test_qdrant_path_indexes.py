"""A Qdrant ``path`` collection indexes only what its filters read: qdrant-edge rebuilds every
payload index of the appendable segment each time a process opens the shard, most of a cold
`grk search` on it, so an index no filter reads only slowed every search (``origin``,
``chunk_id``; and ``born``, ``died``, ``doc`` had both integer indexes, each filter using one;
and the source, path and external id of every chunk, though only documents are looked up by
them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import groundkit
from groundkit.config import Settings, parse_settings


def _settings(tmp_path: Path) -> Settings:
    shard = str(tmp_path / "qpath")
    return parse_settings(
        {
            "index_dir": str(tmp_path / "index"),
            "collections": {"notes": {"backend": "qdrant", "path": shard}},
        }
    )


def _ingested(tmp_path: Path) -> Settings:
    """A `path` collection made by an ingest of two notes, the second of three chunks."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nGranite tors weather slowly.\n")
    long = "\n\n".join(f"## Part {i}\n\n" + f"Basalt columns cool {i}. " * 60 for i in range(3))
    (docs / "b.md").write_text(f"# B\n\n{long}\n")
    settings = _settings(tmp_path)
    with groundkit.open_collection("notes", settings=settings, create=True) as notes:
        notes.ingest([str(docs)])
        assert [h.citation.source for h in notes.search("granite")] == ["a.md"]
    return settings


def _schema(tmp_path: Path) -> dict[str, Any]:
    """The payload indexes of a `path` collection made by an ingest of two notes."""
    edge = pytest.importorskip("qdrant_edge")
    _ingested(tmp_path)
    shard_of = edge.EdgeShard.load(str(tmp_path / "qpath"))
    try:
        return dict(shard_of.info().payload_schema)
    finally:
        shard_of.close()


def test_a_qdrant_path_collection_indexes_only_the_payload_fields_a_filter_reads(
    tmp_path: Path,
) -> None:
    schema = _schema(tmp_path)
    assert sorted(schema) == [
        "born",
        "died",
        "doc",
        "document_id",
        "external_id",
        "kind",
        "path",
        "source",
    ]


def test_a_qdrant_path_collection_indexes_an_integer_only_for_the_comparison_read(
    tmp_path: Path,
) -> None:
    schema = _schema(tmp_path)
    wanted = {"born": (False, True), "died": (False, True), "doc": (True, False)}
    found = {}
    for field in wanted:
        params = schema[field].params
        found[field] = (None, None) if params is None else (params.lookup, params.range)
    assert found == wanted


def test_only_documents_are_indexed_by_source_path_and_external_id(tmp_path: Path) -> None:
    schema = _schema(tmp_path)
    points = {field: schema[field].points for field in ("document_id", "source", "path")}
    assert points["source"] == points["path"] == 2  # the two documents, none of their chunks
    assert points["document_id"] > 4  # chunks are filtered by their document's id


def _hits(settings: Settings) -> list[dict[str, Any]]:
    with groundkit.open_collection("notes", settings=settings) as notes:
        return [h.to_dict() for q in ("granite", "basalt columns") for h in notes.search(q)]


def test_chunks_written_with_their_source_at_the_top_level_show_it_as_before(
    tmp_path: Path,
) -> None:
    pytest.importorskip("qdrant_edge")
    settings = _ingested(tmp_path)
    hits = _hits(settings)
    _as_written_before(tmp_path / "qpath")
    assert {h["source"] for h in hits} == {"a.md", "b.md"}
    assert _hits(settings) == hits


def _as_written_before(shard_folder: Path) -> None:
    """Each chunk as a writer before ``layout.SHOWN`` left it: its document's fields on top."""
    edge = pytest.importorskip("qdrant_edge")
    shard = edge.EdgeShard.load(str(shard_folder))
    try:
        chunk = edge.FieldCondition(key="kind", match=edge.MatchValue("chunk"))
        records, _ = shard.scroll(
            edge.ScrollRequest(limit=100, filter=edge.Filter(must=[chunk]), with_payload=True)
        )
        for record in records:
            payload = dict(record.payload or {})
            shown = dict(payload.pop("shown", None) or {})
            shard.update(edge.UpdateOperation.overwrite_payload([record.id], {**payload, **shown}))
    finally:
        shard.close()


def test_chunks_written_with_their_source_at_the_top_level_show_their_new_name(
    tmp_path: Path,
) -> None:
    pytest.importorskip("qdrant_edge")
    alpha, beta = tmp_path / "alpha", tmp_path / "beta"
    for folder, animal in ((alpha, "wombat"), (beta, "quokka")):
        folder.mkdir()
        (folder / "README.md").write_text(f"The {animal} readme.\n", encoding="utf-8")
    settings = _settings(tmp_path)

    def shown() -> list[str]:
        with groundkit.open_collection("notes", settings=settings) as notes:
            return sorted(h.citation.source for h in notes.search("wombat quokka readme"))

    with groundkit.open_collection("notes", settings=settings, create=True) as notes:
        notes.ingest([str(alpha)])
        notes.ingest([str(beta)])
    assert shown() == ["README.md", "beta/README.md"]
    _as_written_before(tmp_path / "qpath")
    with groundkit.open_collection("notes", settings=settings) as notes:
        notes.ingest([str(alpha), str(beta)])  # named from their parent now: alpha's renamed
    assert shown() == ["alpha/README.md", "beta/README.md"]
