"""Citations a person can jump to: every hit and citation has its lines, old collections too."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import groundkit
from groundkit.collection import STORE_FILE


def make_notes(tmp_path: Path) -> Path:
    notes = tmp_path / "notes.md"
    paragraphs = [f"## Part {i}\n\nThe quoll number {i} hunts at night.\n" for i in range(30)]
    notes.write_text("# Quolls\n\n" + "\n".join(paragraphs))
    return notes


def test_each_hit_carries_the_lines_of_its_passage(tmp_path: Path) -> None:
    notes = make_notes(tmp_path)
    settings = groundkit.Settings().replace(
        chunk=groundkit.Settings().chunk.replace(size=120, min_size=20)
    )
    with groundkit.open_collection("q", index_dir=tmp_path / "i", settings=settings) as coll:
        coll.ingest([str(notes)])
        hits = coll.search("quoll number 17", top_k=3)

    lines = notes.read_text().splitlines()
    for hit in hits:
        c = hit.citation
        assert c.line is not None
        assert c.end_line is not None
        assert lines[c.line - 1 : c.end_line] == hit.text.rstrip("\n").splitlines()


def test_rows_stored_before_lines_were_kept_get_them_counted_at_read_time(tmp_path: Path) -> None:
    notes = make_notes(tmp_path)
    settings = groundkit.Settings().replace(
        chunk=groundkit.Settings().chunk.replace(size=120, min_size=20)
    )
    index = tmp_path / "i"
    with groundkit.open_collection("q", index_dir=index, settings=settings) as coll:
        coll.ingest([str(notes)])
        before = coll.search("quoll number 17", top_k=3)
    with sqlite3.connect(index / "q" / STORE_FILE) as db:  # as an older groundkit stored them
        db.execute("UPDATE chunks SET line = NULL, end_line = NULL")
    db.close()
    with groundkit.open_collection("q", index_dir=index, settings=settings) as coll:
        after = coll.search("quoll number 17", top_k=3)
        shown = coll.show(after[0].citation.chunk_id)

    assert [h.citation for h in after] == [h.citation for h in before]
    assert shown.citation == before[0].citation
