"""A Qdrant ``path`` collection indexes only what its filters read: qdrant-edge rebuilds every
payload index of the appendable segment each time a process opens the shard, most of a cold
`grk search` on it, so an index no filter reads only slowed every search (``origin``,
``chunk_id``; and ``born``, ``died``, ``doc`` had both integer indexes, each filter using one)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import groundkit
from groundkit.config import parse_settings


def _schema(tmp_path: Path) -> dict[str, Any]:
    """The payload indexes of a `path` collection made by an ingest of one note."""
    edge = pytest.importorskip("qdrant_edge")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nGranite tors weather slowly.\n")
    shard = tmp_path / "qpath"
    settings = parse_settings(
        {
            "index_dir": str(tmp_path / "index"),
            "collections": {"notes": {"backend": "qdrant", "path": str(shard)}},
        }
    )
    with groundkit.open_collection("notes", settings=settings, create=True) as notes:
        notes.ingest([str(docs)])
        assert [h.citation.source for h in notes.search("granite")] == ["a.md"]
    shard_of = edge.EdgeShard.load(str(shard))
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
