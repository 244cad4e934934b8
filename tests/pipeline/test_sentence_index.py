"""The sentences an answer may show are split and embedded once, at ingest, and kept in step
with the store: gone with their document, made anew from it, replaced by a re-ingest, and whole
or absent per chunk after a kill -9 mid-way."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import numpy as np

import groundkit
from groundkit import Collection
from groundkit.answer.shown import ShownSentences
from groundkit.testing import FakeEmbedder

SPLIT = ShownSentences(min_quote_chars=12)
HOOKS = Path(__file__).parents[1] / "crash_hooks.py"


def _open(index_dir: Path) -> Collection:
    return groundkit.open_collection("notes", index_dir=index_dir, embedder=FakeEmbedder())


def _rows(index_dir: Path) -> list[tuple[int, bytes, bytes]]:
    with sqlite3.connect(index_dir / "notes" / "store.sqlite") as conn:
        return conn.execute("SELECT chunk, spans, vectors FROM chunk_sentences").fetchall()


def _stored(collection: Collection) -> dict[str, list[str]]:
    ids = [chunk.chunk_id for chunk in collection.chunks()]
    return {k: v.texts for k, v in collection.sentences_of(ids).items()}


def _tree(root: Path) -> Path:
    root.mkdir()
    (root / "kettle.md").write_text(
        "# Kettle\n\nDescale the kettle once a month with white vinegar.\n\n"
        "Pour the first boil away after descaling.\n",
        encoding="utf-8",
    )
    (root / "wombat.md").write_text(
        "# Wombat\n\nThe wombat digs long burrows with its strong claws.\n", encoding="utf-8"
    )
    return root


def test_ingest_stores_each_chunks_sentences_with_their_vectors(tmp_path: Path) -> None:
    with _open(tmp_path / "index") as c:
        c.ingest([_tree(tmp_path / "docs")], dense=True, sentences=SPLIT)
        stored = _stored(c)
        texts = sorted(t for found in stored.values() for t in found)
        assert texts == [
            "Descale the kettle once a month with white vinegar.",
            "Pour the first boil away after descaling.",
            "The wombat digs long burrows with its strong claws.",
        ]
        found = c.sentences_of([c.chunks()[0].chunk_id])
        for chunk in found.values():
            assert np.allclose(chunk.vectors, FakeEmbedder().embed(chunk.texts, "document"))


def test_a_documents_sentences_are_removed_with_it(tmp_path: Path) -> None:
    index_dir = tmp_path / "index"
    with _open(index_dir) as c:
        c.ingest([_tree(tmp_path / "docs")], dense=True, sentences=SPLIT)
        c.delete_document("kettle.md")
        stored = _stored(c)
        assert [t for found in stored.values() for t in found] == [
            "The wombat digs long burrows with its strong claws."
        ]
    assert len(_rows(index_dir)) == 1  # the deleted chunks' rows are gone, not just unread


def test_a_re_ingest_replaces_a_changed_documents_sentences(tmp_path: Path) -> None:
    docs = _tree(tmp_path / "docs")
    with _open(tmp_path / "index") as c:
        c.ingest([docs], dense=True, sentences=SPLIT)
        (docs / "wombat.md").write_text(
            "# Wombat\n\nA wombat sleeps in its burrow through the day.\n", encoding="utf-8"
        )
        c.ingest([docs], dense=True, sentences=SPLIT)
        texts = [t for found in _stored(c).values() for t in found]
        assert "A wombat sleeps in its burrow through the day." in texts
        assert "The wombat digs long burrows with its strong claws." not in texts


def test_the_sentences_are_made_again_from_the_store(tmp_path: Path) -> None:
    index_dir = tmp_path / "index"
    with _open(index_dir) as c:
        c.ingest([_tree(tmp_path / "docs")], dense=True, sentences=SPLIT)
        before = sorted(_rows(index_dir))
        with sqlite3.connect(index_dir / "notes" / "store.sqlite") as conn:
            conn.execute("DELETE FROM chunk_sentences")
        assert _stored(c) == {}
        assert c.rebuild_sentences(SPLIT) == 3
        assert sorted(_rows(index_dir)) == before


_INGEST = """
import sys
sys.path.insert(0, sys.argv[4])
import crash_hooks
import groundkit
from groundkit.answer.shown import ShownSentences
from groundkit.testing import FakeEmbedder
if sys.argv[3] != "-":
    crash_hooks.install(sys.argv[3], "kill")
c = groundkit.open_collection("notes", index_dir=sys.argv[1], embedder=FakeEmbedder())
c.ingest([sys.argv[2]], dense=True, sentences=ShownSentences(12))
"""


def test_a_kill_9_mid_way_leaves_each_chunks_sentences_whole_or_absent_and_the_next_run_ends_it(
    tmp_path: Path,
) -> None:
    docs, index_dir = tmp_path / "docs", tmp_path / "index"
    docs.mkdir()
    for i in range(300):  # more than one commit of sentences (pipeline.vectors.COMMIT_EVERY)
        (docs / f"n{i:03}.md").write_text(
            f"# Note {i}\n\nNote {i} says the kettle wants descaling.\n", encoding="utf-8"
        )
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRK_")}
    env["PYTHONPATH"] = str(Path(groundkit.__file__).parents[1])  # this groundkit, wherever run
    run = [sys.executable, "-c", _INGEST, str(index_dir), str(docs)]
    killed = subprocess.run(
        [*run, "sentences-batch-committed", str(HOOKS.parent)], check=False, env=env
    )
    assert killed.returncode == -signal.SIGKILL
    rows = _rows(index_dir)
    assert 0 < len(rows) < 300
    for _chunk, spans, vectors in rows:  # each row whole: a vector for every span
        assert len(vectors) == len(spans) // 8 * 64 * 4
    assert subprocess.run([*run, "-", str(HOOKS.parent)], check=False, env=env).returncode == 0
    with _open(index_dir) as c:
        stored = _stored(c)
        assert len(stored) == 300 == len(_rows(index_dir))
        assert stored[c.chunks()[7].chunk_id] == ["Note 7 says the kettle wants descaling."]


def test_stored_sentences_of_another_embedders_width_are_never_read_as_this_ones(
    tmp_path: Path,
) -> None:
    with _open(tmp_path / "index") as c:
        c.ingest([_tree(tmp_path / "docs")], dense=True, sentences=SPLIT)
        ids = [chunk.chunk_id for chunk in c.chunks()]
        assert len(c._store.sentences_of(ids, 64)) == 2
        assert c._store.sentences_of(ids, 32) == {}
