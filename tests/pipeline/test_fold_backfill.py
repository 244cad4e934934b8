"""Chunks stored before fingerprints were kept get theirs at the next ingest, so that search
reads them rather than making them for every hit of every query."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import groundkit
import groundkit.pipeline.folds as folds_module
from groundkit.retrieve.batch_prints import stored_fingerprint

PARAGRAPH = (
    "The {0} forages at night among leaf litter and fallen logs, turning stones with its snout"
    " and listening for beetles, and by day it sleeps in a nest of grass under a {0} bush."
)


def _folder(root: Path) -> Path:
    docs = root / "docs"
    docs.mkdir()
    for animal in ("bandicoot", "bettong", "potoroo", "quoll", "numbat"):
        (docs / f"{animal}.md").write_text(f"# {animal}\n\n" + PARAGRAPH.format(animal) + "\n")
    (docs / "copy.md").write_text("# bandicoot\n\n" + PARAGRAPH.format("bandicoot") + "\n")
    return docs


def _forget_folds(store: Path) -> None:
    """As a store migrated from before schema 7 has them: no fingerprint on any chunk."""
    with sqlite3.connect(store) as conn:
        conn.execute("UPDATE chunks SET fold = NULL")


def _folds(store: Path) -> dict[int, tuple[bytes | None, str]]:
    with sqlite3.connect(store) as conn:
        rows = conn.execute(
            'SELECT c.id, c.fold, substr(d.text, c.start + 1, c."end" - c.start)'
            " FROM chunks c JOIN documents d ON d.id = c.doc"
        )
        return {r[0]: (r[1], r[2]) for r in rows}


def test_an_ingest_gives_every_chunk_without_a_fingerprint_its_own(tmp_path: Path) -> None:
    docs = _folder(tmp_path)
    store = tmp_path / "index" / "c" / "store.sqlite"
    with groundkit.open_collection("c", index_dir=tmp_path / "index") as coll:
        coll.ingest([str(docs)])
        folded = coll.search("bandicoot night beetles", top_k=3)
    made_at_ingest = _folds(store)
    _forget_folds(store)

    with groundkit.open_collection("c", index_dir=tmp_path / "index") as coll:
        assert coll.search("bandicoot night beetles", top_k=3) == folded  # made at search
        report = coll.ingest([str(docs)])
        assert (report.unchanged, report.chunks_written) == (6, 0)
        assert coll.search("bandicoot night beetles", top_k=3) == folded

    after = _folds(store)
    assert after == made_at_ingest
    assert all(fold == stored_fingerprint(text) for fold, text in after.values())


def test_the_missing_fingerprints_are_found_through_their_index_and_made_a_group_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = _folder(tmp_path)
    store = tmp_path / "index" / "c" / "store.sqlite"
    with groundkit.open_collection("c", index_dir=tmp_path / "index") as coll:
        coll.ingest([str(docs)])
    _forget_folds(store)
    with sqlite3.connect(store) as conn:
        plan = conn.execute(
            'EXPLAIN QUERY PLAN SELECT id, doc, start, "end" FROM chunks WHERE fold IS NULL'
            " AND id > 0"
            " ORDER BY id LIMIT 2"
        ).fetchall()
    assert "chunks_unfolded" in str(plan)

    monkeypatch.setattr(folds_module, "FOLD_EVERY", 4)
    seen: list[tuple[str, int, int | None]] = []
    with groundkit.open_collection("c", index_dir=tmp_path / "index") as coll:
        coll.ingest(
            [str(docs)],
            progress=lambda phase, done, total, item=None: seen.append((phase, done, total)),
        )
    assert [s for s in seen if s[0] == "fingerprinting"] == [
        ("fingerprinting", 4, 6),
        ("fingerprinting", 6, 6),
    ]
    assert all(fold is not None for fold, _ in _folds(store).values())
