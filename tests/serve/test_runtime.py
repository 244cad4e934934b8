"""The shared runtime: sees writes made elsewhere without a restart, and stays correct under
concurrent readers and one writer."""

from __future__ import annotations

import fcntl
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from serving import make_runtime

import groundkit
from groundkit import Settings
from groundkit.errors import ErrorCode, GroundkitError
from groundkit.ops.collections import IngestOrder, ingest
from groundkit.serve.runtime import Runtime

GRK = [sys.executable, "-m", "groundkit.cli.main"]


def sources(runtime: Runtime, query: str, name: str = "notes") -> set[str]:
    with runtime.reading(name) as collection:
        return {Path(hit.citation.source).name for hit in collection.search(query)}


def served(runtime: Runtime, name: str = "notes") -> groundkit.Collection:
    """The view of ``name`` the runtime serves now: a new object after each reopen."""
    with runtime.reading(name) as collection:
        return collection


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_an_ingest_by_another_process_is_seen_without_a_restart(
    runtime: Runtime, index_dir: Path, tmp_path: Path
) -> None:
    assert sources(runtime, "quokka") == set()
    before = served(runtime)
    more = write(tmp_path / "more", "quokka.md", "The quokka smiles on Rottnest Island.\n")

    done = subprocess.run(
        [*GRK, "--index-dir", str(index_dir), "-c", "notes", "ingest", "-q", str(more)],
        capture_output=True,
        text=True,
        check=False,
    )

    assert done.returncode == 0, done.stderr
    assert sources(runtime, "quokka") == {"quokka.md"}
    after = served(runtime)
    assert after is not before  # reopened once...
    assert served(runtime) is after  # ...and only once


def test_a_separately_opened_collection_s_ingest_is_seen_by_the_next_read(
    runtime: Runtime, index_dir: Path, tmp_path: Path
) -> None:
    assert sources(runtime, "platypus") == {"echidnas.txt"}
    more = write(tmp_path / "more", "platypus.md", "The platypus hunts with its bill.\n")

    with groundkit.open_collection("notes", index_dir=index_dir) as other:
        other.ingest([more])

    assert sources(runtime, "platypus") == {"echidnas.txt", "platypus.md"}


def test_reads_without_writes_never_reopen(runtime: Runtime) -> None:
    first = served(runtime)
    for _ in range(5):
        sources(runtime, "wombat")

    assert served(runtime) is first


def test_a_collection_deleted_and_made_again_is_reopened(
    runtime: Runtime, index_dir: Path, tmp_path: Path
) -> None:
    assert sources(runtime, "wombat") == {"wombats.md"}
    groundkit.delete_collection("notes", index_dir)
    with pytest.raises(GroundkitError) as gone:
        sources(runtime, "wombat")
    assert gone.value.code == ErrorCode.COLLECTION_NOT_FOUND

    more = write(tmp_path / "again", "wombat2.md", "A second wombat, in a new collection.\n")
    with groundkit.open_collection("notes", index_dir=index_dir) as again:
        again.ingest([more])

    assert sources(runtime, "wombat") == {"wombat2.md"}


def test_a_handle_is_closed_only_after_its_last_reader_leaves(
    runtime: Runtime, index_dir: Path, tmp_path: Path
) -> None:
    more = write(tmp_path / "more", "quokka.md", "The quokka smiles.\n")
    with runtime.reading("notes") as old:
        with groundkit.open_collection("notes", index_dir=index_dir) as other:
            other.ingest([more])
        assert sources(runtime, "quokka") == {"quokka.md"}  # a newer handle serves new reads
        assert [Path(h.citation.source).name for h in old.search("wombat")] == ["wombats.md"]


def test_a_second_writer_is_refused_with_index_locked(
    runtime: Runtime, index_dir: Path, docs: Path
) -> None:
    with groundkit.open_collection("notes", index_dir=index_dir) as holder:
        from groundkit.collection import _write_lock

        with _write_lock(holder.path), pytest.raises(GroundkitError) as locked:
            ingest(runtime, IngestOrder("notes", [str(docs)]))

    assert locked.value.code == ErrorCode.INDEX_LOCKED


def test_concurrent_readers_stay_correct_while_one_writer_ingests(
    settings: Settings, docs: Path, tmp_path: Path
) -> None:
    runtime = make_runtime(settings)
    ingest(runtime, IngestOrder("notes", [str(docs)]))
    batches = [
        write(tmp_path / f"batch{i}", f"animal{i}.md", f"Animal {i}: the numbat number {i}.\n")
        for i in range(8)
    ]
    failures: list[BaseException] = []
    stop = threading.Event()
    reads = [0]

    def reader() -> None:
        try:
            while not stop.is_set():
                with runtime.reading("notes") as collection:
                    hits = collection.search("wombat burrows")
                    # Every hit is the wombat document, and its citation re-reads to its text.
                    assert {Path(h.citation.source).name for h in hits} == {"wombats.md"}
                    for hit in hits:
                        assert collection.show(hit.citation.chunk_id).text == hit.text
                reads[0] += 1
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=reader) for _ in range(4)]
    for thread in threads:
        thread.start()
    try:
        for batch in batches:  # one writer: each batch is its own ingest, its own commit
            ingest(runtime, IngestOrder("notes", [str(batch)]))
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    assert failures == []
    assert reads[0] > 0
    assert len(sources(runtime, "numbat")) == 8
    runtime.close()


def test_while_a_writer_holds_the_lock_a_reopen_that_needs_it_keeps_the_older_view(
    runtime: Runtime, index_dir: Path
) -> None:
    assert sources(runtime, "wombat") == {"wombats.md"}
    older = served(runtime)
    # Another process leaves the lexical index needing a rebuild (built by "another analyzer"),
    # which only a holder of the write lock may do, and keeps holding the lock.
    store = sqlite3.connect(index_dir / "notes" / "store.sqlite")
    with store:
        store.execute(
            "UPDATE manifest SET value = 'older_analyzer' WHERE key = 'derived.lexical.build'"
        )
    store.close()
    lock = os.open(index_dir / "notes" / "write.lock", os.O_RDWR)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        assert sources(runtime, "wombat") == {"wombats.md"}  # served, not index.locked
        assert served(runtime) is older
    finally:
        os.close(lock)
    assert sources(runtime, "wombat") == {"wombats.md"}  # now reopened, and rebuilt
    assert served(runtime) is not older


def test_a_collection_made_again_on_a_reused_inode_number_is_still_reopened(
    runtime: Runtime, index_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ext4 hands a freed inode number to the next new file: the store made again can carry the
    # number the deleted one had. Model that filesystem: every store has the same number.
    import groundkit.serve.runtime as runtime_module

    real = runtime_module._inode
    monkeypatch.setattr(runtime_module, "_inode", lambda p: real(p) and (1, 1))
    assert sources(runtime, "wombat") == {"wombats.md"}
    groundkit.delete_collection("notes", index_dir)
    more = write(tmp_path / "again", "numbat.md", "A numbat, in a new collection.\n")
    with groundkit.open_collection("notes", index_dir=index_dir) as again:
        again.ingest([more])

    assert sources(runtime, "wombat") == set()  # not the deleted collection's wombats
    assert sources(runtime, "numbat") == {"numbat.md"}


def test_a_slow_reopen_of_one_collection_does_not_hold_up_readers_of_another(
    runtime: Runtime, index_dir: Path, docs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import groundkit.serve.runtime as runtime_module

    ingest(runtime, IngestOrder("other", [str(docs)]))  # a name whose gate is not "notes"'s
    assert sources(runtime, "wombat", name="other") == {"wombats.md"}
    more = write(tmp_path / "more", "quokka.md", "The quokka smiles.\n")
    with groundkit.open_collection("notes", index_dir=index_dir) as elsewhere:
        elsewhere.ingest([more])  # "notes" must now be reopened, and its reopen will be slow
    entered, release = threading.Event(), threading.Event()
    real_open = runtime_module.open_collection

    def slow_open(name: str, **kwargs: object) -> object:
        if name == "notes":
            entered.set()
            release.wait(10)
        return real_open(name, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(runtime_module, "open_collection", slow_open)
    slow_reader = threading.Thread(target=sources, args=(runtime, "quokka"))
    slow_reader.start()
    try:
        assert entered.wait(10)
        other_done = threading.Event()

        def read_other() -> None:
            sources(runtime, "wombat", name="other")
            other_done.set()

        threading.Thread(target=read_other, daemon=True).start()
        assert other_done.wait(5)  # answered while "notes" is still reopening
    finally:
        release.set()
        slow_reader.join()
    assert sources(runtime, "quokka") == {"quokka.md"}


_WRITER = """
import sys, time
from pathlib import Path
import groundkit
folder, index_dir, rounds = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
for i in range(rounds):
    for n in range(8):
        note = f"# Wombat {n}\\n\\nround {i} of burrow notes {n}.\\n"
        (folder / f"w{n}.md").write_text(note * 20)
    with groundkit.open_collection("notes", index_dir=index_dir) as coll:
        coll.ingest([str(folder)])
"""


def test_searches_never_fail_while_another_process_writes_to_the_same_collection(
    runtime: Runtime, index_dir: Path, tmp_path: Path
) -> None:
    # Closing a descriptor of store.sqlite of its own (as the runtime once did on each reopen)
    # drops every SQLite lock the process holds on it; the writer could then reset the WAL
    # under a live read: "database disk image is malformed".
    folder = tmp_path / "written"
    folder.mkdir()
    writer = subprocess.Popen([sys.executable, "-c", _WRITER, str(folder), str(index_dir), "30"])
    failures: list[BaseException] = []
    searches = [0]
    views: list[groundkit.Collection] = []  # kept, so that no two views share an id

    def reader() -> None:
        while writer.poll() is None:
            try:
                with runtime.reading("notes") as collection:
                    collection.search("wombat burrow", top_k=5)
                    collection.status()
                views.append(collection)
                searches[0] += 1
            except GroundkitError as exc:
                if exc.code != ErrorCode.INDEX_LOCKED:
                    failures.append(exc)
            except BaseException as exc:  # anything else is what the bug looked like
                failures.append(exc)

    threads = [threading.Thread(target=reader) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert writer.returncode == 0
    assert len({id(view) for view in views}) > 5  # reopened after the writes
    assert searches[0] > 50
    assert failures == []


def test_a_runtime_that_reopened_still_sees_every_later_write_by_another_process(
    runtime: Runtime, index_dir: Path, tmp_path: Path
) -> None:
    # The old runtime closed its own descriptor of store.sqlite when it retired a view. On
    # Linux that drops every POSIX lock the process holds on the file, SQLite's shared locks
    # included; the next writer to close then took the store for unused, checkpointed and
    # deleted the WAL and its index under the live connections, which from then on read a stale
    # or "malformed" store (deterministically: the third round here saw nothing).
    folder = tmp_path / "rounds"
    folder.mkdir()
    assert sources(runtime, "wombat") == {"wombats.md"}
    views = [served(runtime)]
    for round_ in range(6):
        write(folder, f"r{round_}.md", f"# Round {round_}\n\nkookaburra{round_} laughs.\n" * 30)
        done = subprocess.run(
            [*GRK, "--index-dir", str(index_dir), "-c", "notes", "ingest", "-q", str(folder)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert sources(runtime, f"kookaburra{round_}") == {f"r{round_}.md"}, round_
        views.append(served(runtime))
    assert len({id(view) for view in views}) == 7  # one reopen after each write


def test_the_reranker_is_loaded_once_and_shared_across_reopens(
    index_dir: Path, docs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import groundkit.serve.runtime as runtime_module
    from groundkit.config import parse_settings
    from groundkit.testing.tiny_models import write_tiny_cross_encoder

    folder = write_tiny_cross_encoder(tmp_path / "ce", favour="wombat")
    loads: list[str] = []
    real = runtime_module.load_reranker

    def counting(config: object) -> object:
        loads.append("load")
        return real(config)  # type: ignore[arg-type]

    monkeypatch.setattr(runtime_module, "load_reranker", counting)
    settings = parse_settings(
        {
            "index_dir": str(index_dir),
            "rerank": {"model": str(folder)},
            "serve": {"ingest_roots": [str(tmp_path)]},
        }
    )
    runtime = make_runtime(settings)
    ingest(runtime, IngestOrder("notes", [str(docs)]))
    views = []
    for round_ in range(3):
        with runtime.reading("notes") as collection:
            assert collection.search("wombat", rerank=True)
        views.append(collection)
        write(tmp_path / "more", f"m{round_}.md", f"The wombat round {round_}.\n")
        ingest(
            runtime, IngestOrder("notes", [str(tmp_path / "more")])
        )  # each write makes the next read reopen
    assert len({id(view) for view in views}) == 3  # reopened after each write
    assert loads == ["load"]
    runtime.close()
