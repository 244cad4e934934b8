"""`grk ingest --watch`: a real folder, a real watcher, a real Ctrl-C."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from grk_runner import Grk
from groundkit.cli.watch import Watched
from groundkit.ingest.walk import Filters

GRK = [sys.executable, "-m", "groundkit.cli.main"]
WAIT_S = 60.0  # generous: the machine is shared; every wait below ends as soon as it can


@pytest.fixture
def grk(index_dir: Path, capsys: pytest.CaptureFixture[str]) -> Grk:
    return Grk(index_dir, capsys)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "notes"
    (root / "guides").mkdir(parents=True)
    (root / "wombats.md").write_text("# Wombats\n\nThe wombat digs burrows.\n", encoding="utf-8")
    return root


class Lines:
    """A stream's lines, read in a thread so a test can wait for one with a deadline."""

    def __init__(self, stream: IO[str]) -> None:
        self._queue: queue.SimpleQueue[str] = queue.SimpleQueue()
        self.seen: list[str] = []
        self._stream = stream
        self._thread = threading.Thread(target=self._pump, args=(stream,), daemon=True)
        self._thread.start()

    def close(self) -> None:
        """After the process has exited: the pump has met the end of the stream."""
        self._thread.join(timeout=WAIT_S)
        self._stream.close()

    def _pump(self, stream: IO[str]) -> None:
        for line in stream:
            self._queue.put(line)

    def wait_for(self, wanted: Callable[[str], bool]) -> str:
        deadline = time.monotonic() + WAIT_S
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self._queue.get(timeout=left)
            except queue.Empty:
                break
            self.seen.append(line)
            if wanted(line):
                return line
        raise AssertionError(f"not seen in {WAIT_S}s; seen: {self.seen}")


def eventually(check: Callable[[], Any]) -> Any:
    """Poll ``check`` until it returns something truthy, up to ``WAIT_S``."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if result := check():
            return result
        time.sleep(0.1)  # a poll interval, not a wait for something to happen
    raise AssertionError(f"still false after {WAIT_S}s")


@pytest.fixture
def watching(folder: Path, index_dir: Path) -> Iterator[tuple[subprocess.Popen[str], Lines]]:
    process = subprocess.Popen(
        [*GRK, "--index-dir", str(index_dir), "ingest", "--watch", "-q", str(folder)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    out = Lines(process.stdout)  # type: ignore[arg-type]
    try:
        yield process, out
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=WAIT_S)
        out.close()
        process.stderr.close()  # type: ignore[union-attr]


def test_watch_ingests_at_once_then_each_change_and_stops_on_ctrl_c(
    watching: tuple[subprocess.Popen[str], Lines], folder: Path, grk: Grk
) -> None:
    process, out = watching
    first = out.wait_for(lambda line: "round 1:" in line)
    assert "new 1," in first

    (folder / "guides" / "quokka.md").write_text("The quokka smiles on Rottnest.\n")

    def quokka_found() -> bool:
        grk("search", "quokka", "--json")
        return '"guides/quokka.md"' in grk.out

    eventually(quokka_found)
    assert "new 1, changed 0, unchanged 1" in out.wait_for(lambda line: "round 2:" in line)
    # Between rounds the watcher holds no lock: another writer gets the collection at once.
    assert grk("reindex") == 0, grk.err

    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=WAIT_S) == 130
    assert "stopped watching" in process.stderr.read()  # type: ignore[union-attr]


def test_watch_sees_an_edit_and_a_deletion(
    watching: tuple[subprocess.Popen[str], Lines], folder: Path, grk: Grk
) -> None:
    _, out = watching
    out.wait_for(lambda line: "round 1:" in line)

    (folder / "wombats.md").write_text("# Wombats\n\nThe wombat eats bark at dusk.\n")
    assert "changed 1" in out.wait_for(lambda line: "round 2:" in line)
    (folder / "wombats.md").unlink()
    assert "removed 1" in out.wait_for(lambda line: "round 3:" in line)

    assert grk.json("search", "wombat")["hits"] == []


def test_watch_refuses_urls(grk: Grk, folder: Path) -> None:
    assert grk.error("ingest", "--watch", str(folder), "https://example.com/a") == (2, "usage")


def test_without_watchfiles_watch_names_the_extra_to_install(
    grk: Grk, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "watchfiles", None)  # import watchfiles: ImportError

    status, code = grk.error("ingest", "--watch", str(folder))

    assert (status, code) == (2, "dependency.missing_extra")
    assert "groundkit[watch]" in grk.out


def test_the_changes_that_start_a_round_follow_the_walks_rules(
    folder: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other.md"
    other.write_text("elsewhere\n")
    (folder / ".gitignore").write_text("build/\n")
    (folder / ".grkignore").write_text("*.log.md\n")
    index = folder / "index"  # an index dir inside the watched folder, not hidden
    made = {
        "guides/new.md": True,
        "new-folder": True,  # moved in whole: its contents are walked
        "wombats.md": True,
        ".hidden.md": False,
        ".git/config": False,
        "guides/.cache/x.md": False,
        "build/out.md": False,  # .gitignore
        "trace.log.md": False,  # .grkignore
        "drafts/idea.md": False,  # --exclude drafts/
        "photo.png": False,  # not a type groundkit reads
        "index/default/store.sqlite": False,  # groundkit's own writes
        "index/default/notes.md": False,
    }
    for name in made:
        path = folder / name
        if name == "new-folder":
            path.mkdir()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("text\n")
    watched = Watched(
        (str(folder), str(other)), Filters(exclude=("drafts/",)), os.path.realpath(index)
    )

    for name, matters in made.items():
        change = (None, str(folder / name))
        assert watched.affected([change]) == ([str(folder)] if matters else []), name
    # An ignore file changes the rules; a file named on its own is watched as itself.
    assert watched.affected([(None, str(folder / ".grkignore"))]) == [str(folder)]
    assert watched.affected([(None, str(other))]) == [str(other)]
    # A deleted file of a readable type may have been stored: it starts a round.
    (folder / "wombats.md").unlink()
    assert watched.affected([(None, str(folder / "wombats.md"))]) == [str(folder)]
    assert watched.affected([(None, str(folder / "build" / "gone.md"))]) == []


def test_a_round_of_one_of_two_watched_folders_names_files_as_the_whole_command_does(
    folder: Path, tmp_path: Path, index_dir: Path, grk: Grk
) -> None:
    other = tmp_path / "site"
    other.mkdir()
    (other / "wombats.md").write_text("The site's wombat page.\n")
    process = subprocess.Popen(
        [*GRK, "--index-dir", str(index_dir), "ingest", "--watch", "-q", str(folder), str(other)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    out = Lines(process.stdout)  # type: ignore[arg-type]
    try:
        out.wait_for(lambda line: "round 1:" in line)
        (folder / "guides" / "quokka.md").write_text("The quokka smiles on Rottnest.\n")
        out.wait_for(lambda line: "round 2:" in line)  # only notes/ is ingested again
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=WAIT_S)
        out.close()

    shown = sorted(hit["source"] for hit in grk.json("search", "wombat quokka")["hits"])
    assert shown == ["notes/guides/quokka.md", "notes/wombats.md", "site/wombats.md"]
