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


SHARED = textwrap.dedent(
    """
    import logging
    from pathlib import Path
    log = logging.getLogger(__name__)
    class Engine:
        def run(self, how):
            return how
        def stop(self):
            pass
    def work(root, flag):
        engine = Engine()
        log.warning("locale")
        here = Path(root) / "locale"
        log.warning("run")
        name = "run"
        getattr(engine, name)(here)
        either = "done" if flag else root
        log.warning(either if root else "done")
        return here
    """
).lstrip("\\n")


@pytest.mark.parametrize(
    ("what", "old", "new"),
    [
        ("a later one of two", 'Path(root) / "locale"', 'Path(root) / "locales"'),
        ("the first of two", 'log.warning("locale")', 'log.warning("no locale")'),
    ],
)
def test_one_of_equal_strings_changed_is_redrawn_without_a_whole_solve(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, what: str, old: str, new: str
) -> None:
    # (the parser keeps one variable for a file's equal literals: the edit adds one)
    repo.write({"lib/__init__.py": "", "lib/core.py": SHARED}).build()
    _refuse_whole_solves(monkeypatch)
    report = repo.write({"lib/core.py": SHARED.replace(old, new)}).build()
    assert report.solves == ("python: continued from the last solve (1 files changed)",), what
    assert ("lib.core.work", "lib.core.Engine.run") in repo.pairs("calls")
    repo.close()
    monkeypatch.undo()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path), what


def test_one_of_equal_strings_changed_that_other_files_write_too_is_redrawn_without_a_whole_solve(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (the old string stays a value of other files: only the changed literal's reach moves)
    other = 'from lib.core import work\nNAME = "locale"\nwork(NAME, True)\n'
    repo.write({"lib/__init__.py": "", "lib/core.py": SHARED, "lib/other.py": other}).build()
    _refuse_whole_solves(monkeypatch)
    edited = SHARED.replace('Path(root) / "locale"', 'Path(root) / "locales"')
    report = repo.write({"lib/core.py": edited}).build()
    assert report.solves == ("python: continued from the last solve (1 files changed)",)
    repo.close()
    monkeypatch.undo()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)


READ = textwrap.dedent(
    """
    class Engine:
        def run(self):
            pass
        def stop(self):
            pass
        def __truediv__(self, name):
            return getattr(self, name)()
    def call(name):
        return getattr(Engine(), name)()
    def work():
        print("run")
        call("run")
        return Engine() / "run"
    """
).lstrip("\n")


@pytest.mark.parametrize(
    ("what", "old", "new"),
    [
        ("handed to a function of the repository that reads it", 'call("run")', 'call("stop")'),
        ("given to an instance's dunder that reads it", 'Engine() / "run"', 'Engine() / "stop"'),
    ],
)
def test_one_of_equal_strings_changed_whose_text_is_read_elsewhere_gives_the_fresh_map(
    repo: Repo, tmp_path: Path, what: str, old: str, new: str
) -> None:
    repo.write({"lib/__init__.py": "", "lib/core.py": READ}).build()
    report = repo.write({"lib/core.py": READ.replace(old, new)}).build()
    why = "the changed string is handed where its text matters"
    if "dunder" in what:
        why = "the changed string is read where its text matters"
    assert report.solves == (f"python: {why}", "python: whole program"), what
    assert ("lib.core.Engine.__truediv__" if "dunder" in what else "lib.core.call",
            "lib.core.Engine.stop") in repo.pairs("calls"), what  # fmt: skip
    repo.close()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path), what


@pytest.mark.parametrize(
    ("what", "old", "new", "why"),
    [
        (
            "one of two equal strings a getattr reads",
            'name = "run"',
            'name = "stop"',
            "the changed string is handed where its text matters",
        ),
        (
            "one of two equal strings that meet again",
            '"done" if flag',
            '"finished" if flag',
            "the changed string meets the one it was split from",
        ),
    ],
)
def test_one_of_equal_strings_changed_where_the_split_is_not_exact_solves_the_whole_program(
    repo: Repo, tmp_path: Path, what: str, old: str, new: str, why: str
) -> None:
    repo.write({"lib/__init__.py": "", "lib/core.py": SHARED}).build()
    report = repo.write({"lib/core.py": SHARED.replace(old, new)}).build()
    assert report.solves == (f"python: {why}", "python: whole program"), what
    if "getattr" in what:  # (the text is read: the map follows it)
        assert ("lib.core.work", "lib.core.Engine.stop") in repo.pairs("calls")
    repo.close()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path), what


def test_a_changed_string_asked_of_by_hasattr_or_isinstance_is_redrawn_without_a_whole_solve(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (the solver gives these builtins a literal: which attribute is asked is not read)
    text = textwrap.dedent(
        """
        class Engine:
            def run(self):
                pass
        def work(engine, kind):
            if hasattr(engine, "natural_key") and not isinstance(kind, str):
                Engine().run()
            return callable(engine) or id("plain")
        """
    ).lstrip("\n")
    repo.write({"lib/__init__.py": "", "lib/core.py": text}).build()
    _refuse_whole_solves(monkeypatch)
    edited = text.replace('"natural_key"', '"natural_key_of"').replace('"plain"', '"other"')
    report = repo.write({"lib/core.py": edited}).build()
    assert report.solves == ("python: continued from the last solve (1 files changed)",)
    assert ("lib.core.work", "lib.core.Engine.run") in repo.pairs("calls")
    repo.close()
    monkeypatch.undo()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)


KEYED = {
    "lib/__init__.py": "",
    "lib/headers.py": """
        class Response:
            def __setitem__(self, key, value):
                pass
            def __getitem__(self, key):
                return key
        class Holder:
            def keep(self, value):
                self.__dict__["kept"] = value
        def protect(response, options):
            response["X-Frame-Options"] = "DENY"
            options["mode"] = response["Mode"]
            return options["mode"]
        def make():
            return protect(Response(), {})
    """,
}
KEYED = {path: textwrap.dedent(text).lstrip("\n") for path, text in KEYED.items()}


def test_a_changed_key_of_an_instance_subscript_is_redrawn_without_a_whole_solve(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.write(KEYED).build()
    _refuse_whole_solves(monkeypatch)
    edited = KEYED["lib/headers.py"].replace('"X-Frame-Options"', '"X-Frame-Options (edit 1)"')
    report = repo.write({"lib/headers.py": edited}).build()
    assert report.solves == ("python: continued from the last solve (1 files changed)",)
    edited = edited.replace('response["Mode"]', 'response["Kind"]')  # read, as well
    report = repo.write({"lib/headers.py": edited}).build()
    assert report.solves == ("python: continued from the last solve (1 files changed)",)
    assert ("lib.headers.protect", "lib.headers.Response.__setitem__") in repo.pairs("calls")
    repo.close()
    monkeypatch.undo()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)


@pytest.mark.parametrize(
    ("old", "new", "why"),
    [
        ('options["mode"] = ', 'options["kind"] = ', "the changed key is a container's"),
        ('__dict__["kept"]', '__dict__["held"]', "the changed key names an attribute"),
    ],
)
def test_a_changed_key_the_solve_reads_solves_the_whole_program_and_says_why(
    repo: Repo, tmp_path: Path, old: str, new: str, why: str
) -> None:
    repo.write(KEYED).build()
    report = repo.write({"lib/headers.py": KEYED["lib/headers.py"].replace(old, new)}).build()
    assert report.solves == (f"python: {why}", "python: whole program")
    repo.close()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)
