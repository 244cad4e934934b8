"""A full disk and read-only media, for real: each scenario runs `grk` in a private mount
namespace (``unshare``) on a small tmpfs of its own, so the file system really says ENOSPC or
EROFS, and nothing outside the test changes."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).parents[1]


def _namespaces_work() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-rm", "true"], capture_output=True, check=False)
    return probe.returncode == 0


pytestmark = pytest.mark.skipif(
    not _namespaces_work(), reason="needs unshare -rm (user and mount namespaces)"
)


def _scenario(tmp_path: Path, size: str, steps: list[str]) -> list[tuple[int, dict[str, object]]]:
    """Run each `grk` step (arguments after ``grk --index-dir MNT/index``; ``@`` words are shell
    commands) on a fresh tmpfs at MNT; return each step's exit status and JSON output."""
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    grk = f"{sys.executable} -m groundkit.cli.main --index-dir {mnt}/index"
    hooks = f"{sys.executable} {TESTS / 'crash_hooks.py'}"
    lines = [f"mount -t tmpfs -o size={size} tmpfs {mnt} || exit 99", f"cd {mnt}"]
    lines += ["mkdir docs docs2"]
    lines += [f'printf "# Doc {i}\\n\\nGranite note {i}.\\n" > docs/d{i}.md' for i in range(20)]
    lines += [f'printf "# New {i}\\n\\nObsidian note {i}.\\n" > docs2/n{i}.md' for i in range(20)]
    for step in steps:
        if step.startswith("@"):
            lines.append(step[1:].replace("MNT", str(mnt)))
            continue
        command = step.replace("GRK", grk).replace("HOOKS", hooks).replace("MNT", str(mnt))
        lines.append(f'{command} --json; echo "exit $?"')
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRK_")}
    done = subprocess.run(
        ["unshare", "-rm", "sh", "-c", "\n".join(lines)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out: list[tuple[int, dict[str, object]]] = []
    body: list[str] = []
    for line in done.stdout.splitlines():
        if line.startswith("exit "):
            out.append((int(line.split()[1]), json.loads("\n".join(body)) if body else {}))
            body = []
        else:
            body.append(line)
    return out


def test_a_full_disk_after_the_store_commit_is_a_clear_error_and_reads_go_on(
    tmp_path: Path,
) -> None:
    (first, full, status, old, new, again, found, healed) = _scenario(
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
    assert new == (0, {"hits": [], "missing_vectors": 0, "no_searchable_words": False})
    # Then the next run finishes what the full disk interrupted.
    assert again[0] == 0
    assert len(found[1]["hits"]) == 10  # type: ignore[arg-type]
    assert healed[0] == 0
    assert healed[1]["health"] == "ok"


def test_read_only_media_say_read_only_and_never_suggest_deleting(tmp_path: Path) -> None:
    outcomes = _scenario(
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


def _full(mnt: str = "MNT") -> str:
    """A shell step that fills the file system to its last byte."""
    return (
        f"@dd if=/dev/zero of={mnt}/filler bs=65536 2>/dev/null;"
        f" dd if=/dev/zero of={mnt}/filler2 bs=1 2>/dev/null; true"
    )


def test_reads_go_on_at_zero_bytes_free_with_no_other_process_holding_the_collection(
    tmp_path: Path,
) -> None:
    # SQLite cannot make the -shm file a WAL reader needs once no byte is free: the store is
    # then read without making any file.
    grk = f"{sys.executable} -m groundkit.cli.main --index-dir {tmp_path}/mnt/index"
    first_chunk = (
        f"@CID=$({grk} search granite --json | {sys.executable} -c"
        ' \'import json, sys; print(json.load(sys.stdin)["hits"][0]["chunk_id"])\')'
    )
    made, status, found, shown = _scenario(
        tmp_path,
        "3m",
        [
            "GRK ingest -q docs",
            _full(),
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
    tmp_path: Path,
) -> None:
    # Large documents, so that SQLite writes pages out inside a document's savepoint: the
    # failed ROLLBACK TO that follows must not be what is reported.
    made, full, status = _scenario(
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


def test_a_map_that_fills_the_disk_says_the_disk_is_full(tmp_path: Path) -> None:
    code = "".join(f"def f{i}():\\n    return f{i + 1}()\\n" for i in range(60))
    made, full, again = _scenario(
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
