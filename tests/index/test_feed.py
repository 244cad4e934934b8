"""The lexical index written while an ingest stores its files: the same index as one caught up
from the store, without reading the chunks back, and nothing of a file its savepoint undid."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from groundkit import Collection
from groundkit.index import lexical
from groundkit.index.lexical import LexicalIndex
from groundkit.index.store import Store

OpenCollection = Callable[..., Collection]


def _tree(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "guide.md").write_text(
        "# Guide\n\nIntro about basalt.\n\n## Install\n\nRun the quartz installer.\n\n"
        "### Linux\n\n" + "Use the falcon package manager. " * 50 + "\n"
    )
    (root / "notes.txt").write_text("Plain notes mention obsidian and a heron.\n")
    records = [{"_id": f"r{i}", "title": f"Record {i} osprey", "text": f"kestrel {i} " * 80}
               for i in range(30)]  # fmt: skip
    (root / "records.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n")
    return root


def _postings(coll: Collection) -> set[tuple[str, str]]:
    """What the lexical index holds: each term a query finds, with the chunks it finds."""
    found = set()
    for term in ("guide", "basalt", "install", "linux", "falcon", "obsidian", "record", "kestrel"):
        for hit in coll.search(term, top_k=100, collapse=False):
            found.add((term, hit.citation.chunk_id))
    return found


def test_an_ingest_indexes_its_chunks_without_reading_them_back_from_the_store(
    tmp_path: Path, open_col: OpenCollection, monkeypatch: pytest.MonkeyPatch
) -> None:
    read_back: list[Sequence[int] | None] = []
    real = Store.indexed_texts

    def counted(self: Store, documents: Sequence[int] | None = None) -> Iterator[Any]:
        read_back.append(documents)
        return real(self, documents)

    coll = open_col()  # made with an index of its own (rebuilt from the empty store)
    monkeypatch.setattr(Store, "indexed_texts", counted)
    coll.ingest([str(_tree(tmp_path / "tree"))])
    assert read_back == []
    status = coll.status()
    assert status.pending == 0
    assert status.lexical_chunks == status.chunks > 30


def test_the_index_an_ingest_writes_is_the_one_a_rebuild_from_the_store_makes(
    tmp_path: Path, open_col: OpenCollection
) -> None:
    tree = _tree(tmp_path / "tree")
    coll = open_col()
    coll.ingest([str(tree)])
    (tree / "notes.txt").write_text("Changed notes: obsidian, twice obsidian, and a heron.\n")
    (tree / "guide.md").unlink()
    coll.ingest([str(tree)])
    fed = _postings(coll)
    assert ("obsidian", coll.search("twice obsidian", top_k=1)[0].citation.chunk_id) in fed
    assert not any(term == "falcon" for term, _ in fed)
    coll.reindex()
    assert _postings(coll) == fed


def test_a_large_ingest_streams_to_the_index_and_matches_a_rebuild(
    tmp_path: Path, open_col: OpenCollection, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("groundkit.index.feed.PARALLEL_FROM", 5)  # written as files are stored
    tree = _tree(tmp_path / "tree")
    coll = open_col()
    coll.ingest([str(tree)])
    fed = _postings(coll)
    coll.reindex()
    assert _postings(coll) == fed


def test_a_file_undone_by_its_savepoint_never_reaches_the_index(
    tmp_path: Path, open_col: OpenCollection, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("groundkit.index.feed.PARALLEL_FROM", 1)
    real = Store.delete_documents
    calls = [0]

    def second_file_fails(self: Store, rowids: Any) -> int:
        calls[0] += 1
        if calls[0] == 2:  # after its documents were put, inside its savepoint
            raise RuntimeError("a parser's own bug")
        return real(self, rowids)

    monkeypatch.setattr(Store, "delete_documents", second_file_fails)
    coll = open_col()
    report = coll.ingest([str(_tree(tmp_path / "tree"))])
    assert len(report.skipped) == 1
    status = coll.status()
    assert status.pending == 0
    assert status.lexical_chunks == status.chunks
    assert not coll.search("obsidian heron", top_k=5)  # notes.txt, the second file, is undone


def test_an_index_failing_while_fed_is_caught_up_from_the_store_after_the_commit(
    tmp_path: Path, open_col: OpenCollection, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("groundkit.index.feed.PARALLEL_FROM", 1)
    real = LexicalIndex.add
    calls = [0]

    def fails_once(writer: Any, chunks: Any) -> None:
        calls[0] += 1
        if calls[0] == 1:
            raise OSError(28, "No space left on device")
        real(writer, chunks)

    coll = open_col()
    monkeypatch.setattr(lexical.LexicalIndex, "add", staticmethod(fails_once))
    coll.ingest([str(_tree(tmp_path / "tree"))])
    status = coll.status()
    assert status.pending == 0
    assert status.lexical_chunks == status.chunks
    assert coll.search("obsidian heron", top_k=1)


def test_a_first_ingest_of_many_documents_writes_one_segment_so_ties_keep_the_ingest_order(
    tmp_path: Path, open_col: OpenCollection, index_dir: Path
) -> None:
    # Each indexing thread writes a segment of its own and takes documents as they come, so two
    # threads left equal-scored hits in an order that changed from one ingest of the same corpus
    # to the next (117 of SciFact's 600 top-10/top-100 lists), and every search read two segments.
    many = lexical.PARALLEL_FROM + 200
    records = [{"_id": f"r{i}", "text": f"dunlin {i} sandpiper"} for i in range(many)]
    corpus = tmp_path / "many.jsonl"
    corpus.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    coll = open_col()
    coll.ingest([str(corpus)])
    hits = coll.search("sandpiper", top_k=20, collapse=False)
    assert len({h.score for h in hits}) == 1
    assert [h.citation.external_id for h in hits] == [f"r{i}" for i in range(20)]
    assert LexicalIndex(index_dir / "test")._searcher.num_segments == 1
