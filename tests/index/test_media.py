"""A full disk and read-only media, for real: each scenario runs `grk` on a small disk of its
own (tests/small_disk.py: a tmpfs in a private mount namespace, or the disk-fault shim), so the
file system really says ENOSPC or EROFS, and nothing outside the test changes."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from small_disk import FULL, Disk


def test_a_full_disk_after_the_store_commit_is_a_clear_error_and_reads_go_on(
    disk: Disk,
    tmp_path: Path,
) -> None:
    (first, full, status, old, new, again, found, healed) = disk.scenario(
        tmp_path,
        "3m",
        [
            "GRK ingest -q docs",
            # The store commits; then the disk fills up before the search index is written.
            "HOOKS after-store-commit fill=MNT/filler --index-dir MNT/index ingest -q docs2",
            # The store's write-ahead log, folded in as that run closes it, gives room back:
            # fill it again, or the next command finds room to finish the index.
            "@cat /dev/zero > MNT/refill 2>/dev/null; true",
            "GRK status",
            "GRK search granite",
            "GRK search obsidian",
            "@rm MNT/filler MNT/refill",
            "GRK ingest -q docs2",
            "GRK search obsidian",
            "GRK status",
        ],
    )
    assert first[0] == 0
    assert full[0] == 1
    error = full[1]["error"]
    assert isinstance(error, dict)
    assert error["code"] == "store.disk_full"
    assert "disk is full" in error["message"]
    assert "free" in error["message"]
    assert "delete" not in json.dumps(error)
    # Until there is room, reads answer from the last good index: the old documents.
    assert status[0] == 0
    assert status[1]["pending"]
    assert old[0] == 0
    assert len(old[1]["hits"]) == 10  # type: ignore[arg-type]
    # Not silently: the search says documents are stored that it cannot find yet.
    assert new[0] == 0
    assert new[1]["hits"] == []
    assert new[1]["pending"] == 20
    assert old[1]["pending"] == 20
    # Then the next run finishes what the full disk interrupted.
    assert again[0] == 0
    assert len(found[1]["hits"]) == 10  # type: ignore[arg-type]
    assert healed[0] == 0
    assert healed[1]["health"] == "ok"


def test_read_only_media_say_read_only_and_never_suggest_deleting(
    disk: Disk, tmp_path: Path
) -> None:
    outcomes = disk.scenario(
        tmp_path,
        "8m",
        [
            "GRK ingest -q docs",
            "@mount -o remount,ro MNT",
            "GRK status",
            "GRK search granite",
            "GRK ingest -q docs",
            "GRK delete docs/d1.md",
            "GRK delete --all --yes",
            "GRK -c other ingest -q docs",
        ],
    )
    made, status, *refused = outcomes
    assert made[0] == 0
    assert status[0] == 0
    assert status[1]["documents"] == 20
    for code, body in refused:
        error = body["error"]
        assert isinstance(error, dict)
        assert (code, error["code"]) == (2, "store.read_only")
        assert "read-only file system" in error["message"]
        assert "delete" not in str(error.get("hint", ""))


def test_reads_go_on_at_zero_bytes_free_with_no_other_process_holding_the_collection(
    disk: Disk,
    tmp_path: Path,
) -> None:
    # SQLite cannot make the -shm file a WAL reader needs once no byte is free: the store is
    # then read without making any file.
    grk = f"{sys.executable} -m groundkit.cli.main --index-dir {tmp_path}/mnt/index"
    first_chunk = (
        f"@CID=$({grk} search granite --json | {sys.executable} -c"
        ' \'import json, sys; print(json.load(sys.stdin)["hits"][0]["chunk_id"])\')'
    )
    made, status, found, shown = disk.scenario(
        tmp_path,
        "3m",
        [
            "GRK ingest -q docs",
            FULL,
            "GRK status",
            "GRK search granite",
            first_chunk,
            "GRK show $CID",
        ],
    )
    assert made[0] == 0
    assert status[0] == 0, status
    assert status[1]["documents"] == 20
    assert found[0] == 0, found
    assert len(found[1]["hits"]) == 10  # type: ignore[arg-type]
    assert shown[0] == 0, shown
    assert shown[1]["verification"] == "verified"


def test_a_disk_that_fills_while_documents_are_written_is_reported_as_full(
    disk: Disk,
    tmp_path: Path,
) -> None:
    # Large documents, so that SQLite writes pages out inside a document's savepoint: the
    # failed ROLLBACK TO that follows must not be what is reported.
    made, full, status = disk.scenario(
        tmp_path,
        "12m",
        [
            "GRK ingest -q docs",
            "@mkdir MNT/big",
            *(
                f"@yes 'Basalt quarry {i} stone.' | head -c 250000 > MNT/big/b{i}.md"
                for i in range(12)
            ),
            "HOOKS mid-ingest fill=MNT/filler --index-dir MNT/index ingest -q big",
            "GRK status",
        ],
    )
    assert made[0] == 0
    assert full[0] == 1, full
    error = full[1]["error"]
    assert isinstance(error, dict)
    assert error["code"] == "store.disk_full", error
    assert status[0] == 0  # the store is as it was
    assert status[1]["documents"] == 20


def test_a_map_that_fills_the_disk_says_the_disk_is_full(disk: Disk, tmp_path: Path) -> None:
    code = "".join(f"def f{i}():\\n    return f{i + 1}()\\n" for i in range(60))
    made, full, again = disk.scenario(
        tmp_path,
        "8m",
        [
            "@mkdir -p MNT/repo/pkg",
            *(f"@printf '{code}' > MNT/repo/pkg/m{i}.py" for i in range(12)),
            "GRK map -q MNT/repo",
            *(
                f"@printf 'def g{i}():\\n    return 1\\n' >> MNT/repo/pkg/m{i}.py"
                for i in range(12)
            ),
            # The disk fills halfway through the run's one transaction.
            "HOOKS mid-map fill=MNT/filler --index-dir MNT/index map -q MNT/repo",
            "GRK map -q MNT/repo",  # and at 0 bytes free, before anything is written
        ],
    )
    assert made[0] == 0, made
    for code_, body in (full, again):
        assert code_ == 1, body
        error = body["error"]
        assert isinstance(error, dict)
        assert error["code"] == "store.disk_full", error


def test_changed_documents_the_search_index_has_not_caught_up_with_are_said_pending(
    disk: Disk,
    tmp_path: Path,
) -> None:
    # The case: the disk fills right after the store commits a run that changed
    # documents; until there is room, neither their old nor their new text is found, and the
    # search must say so rather than stay silent.
    (first, full, old, new, status) = disk.scenario(
        tmp_path,
        "3m",
        [
            "GRK ingest -q docs",
            "@for f in MNT/docs/d1*.md; do printf '# Changed\\n\\nBasalt note.\\n' > $f; done",
            "HOOKS after-store-commit fill=MNT/filler --index-dir MNT/index ingest -q docs",
            "@cat /dev/zero > MNT/refill 2>/dev/null; true",
            "GRK search granite",
            "GRK search basalt",
            "GRK status",
        ],
    )
    assert (first[0], full[0]) == (0, 1)
    assert old[1]["pending"] == new[1]["pending"] == 11  # d1 and d10-d19
    assert new[1]["hits"] == []
    assert status[1]["pending"]  # counted per stored row, old and new


def test_an_ingest_that_starts_on_a_full_disk_says_the_disk_is_full(
    disk: Disk, tmp_path: Path
) -> None:
    made, again, other, status = disk.scenario(
        tmp_path,
        "3m",
        [
            "GRK ingest -q docs",
            "@printf '# Late\\n\\nA late note.\\n' > MNT/docs/late.md",
            FULL,
            "GRK ingest -q docs",  # was: "the collection's files are read-only", exit 2
            "GRK -c other ingest -q docs",  # was: internal error (OperationalError)
            "GRK status",
        ],
    )
    assert made[0] == 0
    for code, body in (again, other):
        error = body["error"]
        assert isinstance(error, dict)
        assert (code, error["code"]) == (1, "store.disk_full"), body
    assert status[0] == 0
    assert status[1]["documents"] == 20


def test_a_code_map_is_read_at_zero_bytes_free(disk: Disk, tmp_path: Path) -> None:
    made, shown, traced = disk.scenario(
        tmp_path,
        "3m",
        [
            "@mkdir -p MNT/repo/pkg && touch MNT/repo/pkg/__init__.py",
            "@printf 'def a():\\n    return b()\\n\\n\\ndef b():\\n    return 1\\n'"
            " > MNT/repo/pkg/m.py",
            "GRK map -q MNT/repo",
            FULL,
            "GRK map show",  # was: "cannot open the code map: the disk is full", exit 1
            "GRK trace pkg.m.a --map repo",
        ],
    )
    assert made[0] == 0
    assert shown[0] == 0, shown
    assert traced[0] == 0, traced
    assert traced[1]["steps"][0]["edge"]["target_name"] == "pkg.m.b"  # type: ignore[index]


_QDRANT_PATH = (
    '@printf \'[collections.notes]\\nbackend = "qdrant"\\npath = "MNT/qpath"\\n\' > MNT/grk.toml'
)


@pytest.mark.parametrize("size", ["2m", "300m"])
def test_a_qdrant_path_collection_on_a_small_or_full_disk_says_disk_full_never_sigbus(
    disk: Disk, tmp_path: Path, size: str
) -> None:
    # Before: SIGBUS (exit 135) from the engine's memory-mapped files, on ingest, status and
    # search alike; other reads said "the Qdrant cluster failed ... report it".
    outcomes = disk.scenario(
        tmp_path,
        size,
        [
            _QDRANT_PATH,
            "GRK -c notes ingest -q docs",
            FULL,
            "GRK -c notes status",
            "GRK -c notes search granite",
            "GRK -c notes ingest -q docs2",
        ],
    )
    first, *after = outcomes
    if size == "300m":
        assert first[0] == 0, first
        # Reads go on at 0 bytes free, from a copy on a disk with room (they were refused as
        # store.disk_full); the write is still refused.
        (status, found), after = after[:2], after[2:]
        assert status[0] == 0, status
        assert status[1]["documents"] == 20
        assert found[0] == 0, found
        assert len(found[1]["hits"]) == 10  # type: ignore[arg-type]
    else:
        after = outcomes  # too small even to make the collection
    for code, body in after:
        assert code != 135
        error = body["error"]
        assert isinstance(error, dict)
        if error["code"] == "collection.not_found":  # the 2 MB disk never held it
            assert size == "2m"
            continue
        assert (code, error["code"]) == (1, "store.disk_full"), body
        assert "disk is" in str(error["message"])
