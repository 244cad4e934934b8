"""An edit that changes a string literal whose text nothing reads is taken on from the last
solve by renaming its value (``values/relabel.py``), and ends where a fresh map would; one
whose text is read, or one that removes code, solves the whole program and says why."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from map_helpers import Repo
from test_continued_edits import _refuse_whole_solves
from test_incremental import fresh, snapshot

START = {
    "lib/__init__.py": "",
    "lib/core.py": """
        import logging
        log = logging.getLogger(__name__)
        class Engine:
            def run(self, how):
                return how
            def stop(self):
                pass
        def work(items):
            if not items:
                raise ValueError("no items given")
            label = "counting items"
            note = f"{label}: done"
            engine = Engine()
            engine.run(note)
            getattr(engine, "run")(label)
            log.warning("counted %d", len(items))
            return len(items)
    """,
}
START = {path: textwrap.dedent(text).lstrip("\n") for path, text in START.items()}


def test_a_changed_string_in_a_function_body_is_redrawn_without_a_whole_solve(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.write(START).build()
    _refuse_whole_solves(monkeypatch)
    edited = START["lib/core.py"].replace('"counting items"', '"counting the items given"')
    report = repo.write({"lib/core.py": edited}).build()
    assert report.solves == ("python: continued from the last solve (1 files changed)",)
    assert ("lib.core.work", "lib.core.Engine.run") in repo.pairs("calls")
    # An exception's and a log line's messages, changed too: the same file, from the same solve.
    edited = edited.replace('"no items given"', '"work() needs items"')
    edited = edited.replace('"counted %d"', '"items: %d"')
    report = repo.write({"lib/core.py": edited}).build()
    assert report.solves == ("python: continued from the last solve (1 files changed)",)
    repo.close()
    monkeypatch.undo()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)


@pytest.mark.parametrize(
    ("what", "text", "why"),
    [
        (
            "a string a getattr reads",
            START["lib/core.py"].replace('getattr(engine, "run")', 'getattr(engine, "stop")'),
            "the changed string is handed where its text matters",
        ),
        (
            "a call removed",
            START["lib/core.py"].replace("    engine.run(note)\n", ""),
            "the edit removed code or added a scope",
        ),
    ],
)
def test_an_edit_whose_change_the_solve_cannot_rename_solves_the_whole_program_and_says_why(
    repo: Repo, tmp_path: Path, what: str, text: str, why: str
) -> None:
    repo.write(START).build()
    report = repo.write({"lib/core.py": text}).build()
    assert report.solves == (f"python: {why}", "python: whole program"), what
    repo.close()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path), what
