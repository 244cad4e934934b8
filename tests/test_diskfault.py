"""The disk-fault shim (tests/diskfault.c) behaves as a small disk at its folder, and only
there: the full-disk tests that run over it are only as good as this."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from disk_layers import LAYERS

FAULT = LAYERS[1]


def on_small_disk(tmp_path: Path, size: str, code: str, status: int = 0) -> str:
    """Run Python ``code`` with the shim preloaded, a disk of ``size`` at ``tmp_path/mnt``
    (``MNT`` in the code), expecting exit ``status``; return what it printed."""
    missing = FAULT.missing()
    if missing:
        pytest.skip(missing)
    mnt = tmp_path / "mnt"
    _script, env = FAULT.command(mnt, size, [])
    program = f"MNT = {str(mnt)!r}\n" + textwrap.dedent(code)
    done = subprocess.run(
        [sys.executable, "-c", program],
        env=os.environ | env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == status, done.stderr
    return done.stdout


def test_a_write_past_the_budget_is_short_then_fails_with_enospc(tmp_path: Path) -> None:
    out = on_small_disk(
        tmp_path,
        "64k",
        """
        import os
        fd = os.open(MNT + "/f", os.O_WRONLY | os.O_CREAT)
        print(os.write(fd, b"x" * 40000))
        print(os.write(fd, b"x" * 40000))
        try:
            os.write(fd, b"x")
        except OSError as exc:
            print(exc.strerror)
        """,
    )
    assert out.split("\n")[:3] == ["40000", "25536", "No space left on device"]


def test_statvfs_reports_the_budget_and_a_removed_file_gives_room_back(tmp_path: Path) -> None:
    out = on_small_disk(
        tmp_path,
        "1m",
        """
        import os, shutil
        with open(MNT + "/f", "wb") as fh:
            fh.write(b"x" * (256 << 10))
        print(shutil.disk_usage(MNT).total, shutil.disk_usage(MNT).free)
        os.unlink(MNT + "/f")
        print(shutil.disk_usage(MNT).free)
        """,
    )
    assert out.split() == [str(1 << 20), str(768 << 10), str(1 << 20)]


def test_files_outside_the_folder_are_not_limited(tmp_path: Path) -> None:
    out = on_small_disk(
        tmp_path,
        "4k",
        f"""
        with open({str(tmp_path / "outside")!r}, "wb") as fh:
            print(fh.write(b"x" * (1 << 20)))
        """,
    )
    assert out.strip() == str(1 << 20)


def test_sqlite_meets_the_full_disk(tmp_path: Path) -> None:
    out = on_small_disk(
        tmp_path,
        "256k",
        """
        import sqlite3
        db = sqlite3.connect(MNT + "/s.db")
        db.execute("CREATE TABLE t (v)")
        try:
            for _ in range(1000):
                db.execute("INSERT INTO t VALUES (?)", (b"x" * 4096,))
                db.commit()
        except sqlite3.Error as exc:
            print(exc.sqlite_errorname)
        """,
    )
    assert out.strip() == "SQLITE_FULL"


def test_a_read_only_remount_refuses_writes_and_says_so(tmp_path: Path) -> None:
    out = on_small_disk(
        tmp_path,
        "1m",
        """
        import os
        open(MNT + "/f", "w").close()
        open(os.environ["DISKFAULT_READONLY"], "w").close()
        for act in (lambda: open(MNT + "/f", "a"), lambda: os.unlink(MNT + "/f"),
                    lambda: os.mkdir(MNT + "/d")):
            try:
                act()
            except OSError as exc:
                print(exc.strerror)
        print(bool(os.statvfs(MNT).f_flag & os.ST_RDONLY), os.access(MNT, os.W_OK))
        print(open(MNT + "/f").read() == "")
        """,
    )
    assert out.splitlines() == ["Read-only file system"] * 3 + ["True False", "True"]


def test_mapping_holes_the_free_bytes_cannot_back_dies_of_sigbus_as_on_a_tmpfs(
    tmp_path: Path,
) -> None:
    out = on_small_disk(
        tmp_path,
        "64k",
        """
        import mmap, os
        fd = os.open(MNT + "/small", os.O_RDWR | os.O_CREAT)
        os.ftruncate(fd, 32 << 10)
        mmap.mmap(fd, 32 << 10)[0] = 1
        print("a hole the disk can back", flush=True)
        fd = os.open(MNT + "/sparse", os.O_RDWR | os.O_CREAT)
        os.ftruncate(fd, 1 << 20)
        mmap.mmap(fd, 1 << 20)
        print("never")
        """,
        status=-signal.SIGBUS,
    )
    assert out.splitlines() == ["a hole the disk can back"]
