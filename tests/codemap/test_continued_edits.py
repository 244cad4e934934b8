"""An edit that only adds code reaching nothing old is taken on from the last solve (kept with
the map) instead of solving the whole program again, and ends where a map made from scratch
would; any other edit says why and solves the whole program."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from map_helpers import Repo
from test_incremental import fresh, snapshot

START = {
    "lib/__init__.py": "from .core import work\n",
    "lib/core.py": """
        class Engine:
            def run(self):
                return helper()
        def helper(): pass
        def work(items):
            Engine().run()
            total = len(items)
    """,
    "app.py": """
        import lib
        from lib.core import Engine, helper
        def main():
            lib.work([1])
            Engine().run()
    """,
}
START = {path: textwrap.dedent(text).lstrip("\n") for path, text in START.items()}


def _refuse_whole_solves(monkeypatch: pytest.MonkeyPatch) -> None:
    from groundkit.codemap.extract.python import PythonResolver

    def refuse(self: object, paths: object) -> None:
        raise AssertionError("the whole program was solved again")

    monkeypatch.setattr(PythonResolver, "resolve_all", refuse)


def test_a_line_added_to_a_function_body_continues_the_last_solve_and_equals_a_fresh_map(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.write(START).build()
    assert ("lib.core.work", "lib.core.helper") not in repo.pairs("calls")
    _refuse_whole_solves(monkeypatch)
    # (the function's own variable is numbered after its body: the edit shifts it)
    body = START["lib/core.py"] + "    helper()\n"
    report = repo.write({"lib/core.py": body}).build()
    assert report.solves == ("python: continued from the last solve (1 files changed)",)
    assert ("lib.core.work", "lib.core.helper") in repo.pairs("calls")  # drawn again
    # A second edit in another file continues from the same solve, the first one's with it.
    main = START["app.py"] + "    helper()\n"
    report = repo.write({"app.py": main}).build()
    assert report.solves == ("python: continued from the last solve (2 files changed)",)
    repo.close()
    monkeypatch.undo()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)
    # Edited back to what the solve saw: nothing is left to add, and its edge goes again.
    _refuse_whole_solves(monkeypatch)
    report = repo.write({"lib/core.py": START["lib/core.py"]}).build()
    assert report.solves == ("python: continued from the last solve (1 files changed)",)
    assert ("lib.core.work", "lib.core.helper") not in repo.pairs("calls")
    repo.close()
    monkeypatch.undo()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)


@pytest.mark.parametrize(
    ("what", "path", "text", "why"),
    [
        (
            "a new function",
            "lib/core.py",
            START["lib/core.py"] + "def later(): pass\n",
            "the edit removed code or added a scope",
        ),
        (
            "a value handed to another file's function",
            "app.py",
            START["app.py"] + "    lib.work(Engine())\n",
            "the edit flows into an old variable",
        ),
        (
            "a module's name bound again (what the module ends with changes)",
            "lib/core.py",
            START["lib/core.py"] + "helper = Engine\n",
            "the edit changed or removed an operation",
        ),
        (
            "a call inserted before another (the sites after it are numbered again)",
            "lib/core.py",
            START["lib/core.py"].replace("    Engine().run()", "    helper()\n    Engine().run()"),
            "the edit changed or removed an operation",
        ),
        (
            "an instance given an attribute by a computed name (its class's reads change)",
            "app.py",
            START["app.py"] + "    setattr(Engine(), input(), 1)\n",
            "the edit calls a function nothing called, or patches a class",
        ),
        (
            "a class given None by a computed name (its reads may find None)",
            "app.py",
            START["app.py"] + "    setattr(Engine, input(), None)\n",
            "the edit calls a function nothing called, or patches a class",
        ),
    ],
)
def test_an_edit_that_reaches_what_other_files_see_solves_the_whole_program_and_says_why(
    repo: Repo, tmp_path: Path, what: str, path: str, text: str, why: str
) -> None:
    repo.write(START).build()
    report = repo.write({path: text}).build()
    assert report.solves == (f"python: {why}", "python: whole program"), what
    repo.close()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path), what


def test_a_map_without_kept_solver_state_solves_the_whole_program_and_keeps_it(
    repo: Repo,
) -> None:
    import sqlite3

    repo.write(START).build()
    repo.close()
    (path,) = repo.index_dir.glob("**/map.sqlite")
    with sqlite3.connect(path) as db:  # as a map made before the state was kept
        db.execute("DELETE FROM solver_state")
    db.close()
    report = repo.write({"lib/core.py": START["lib/core.py"] + "    helper()\n"}).build()
    assert report.solves == (
        "python: no solver state kept for this map",
        "python: whole program",
    )
    report = repo.write({"app.py": START["app.py"] + "    helper()\n"}).build()
    assert report.solves == ("python: continued from the last solve (1 files changed)",)


def test_a_read_added_on_a_class_given_none_by_name_continues_and_equals_a_fresh_map(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    start = dict(START, **{"app.py": START["app.py"] + "    setattr(Engine, input(), None)\n"})
    repo.write(start).build()
    _refuse_whole_solves(monkeypatch)
    edited = start["lib/core.py"] + "    if Engine().name:\n        Engine().run()\n"
    report = repo.write({"lib/core.py": edited}).build()
    assert report.solves == ("python: continued from the last solve (1 files changed)",)
    repo.close()
    monkeypatch.undo()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)


def test_an_open_map_reads_again_the_facts_another_handle_wrote_since_its_last_run(
    repo: Repo, tmp_path: Path
) -> None:
    # An open map keeps every file's decoded facts (and what its program found of them) for
    # its next edit: a file another handle mapped again in between must not be read from them.
    from groundkit.codemap.api import open_codemap

    repo.write(START).build()
    report = repo.write({"lib/core.py": START["lib/core.py"] + "    helper()\n"}).build()
    assert report.solves == ("python: continued from the last solve (1 files changed)",)
    repo.write({"app.py": START["app.py"] + "    helper()\n"})
    with open_codemap("repo", index_dir=repo.index_dir) as other:
        other.update(repo.root, workers=1)
    # A new function: the whole program is solved, from every file's facts.
    report = repo.write({"lib/core.py": START["lib/core.py"] + "def later(): pass\n"}).build()
    assert report.solves[-1] == "python: whole program"
    assert ("app.main", "lib.core.helper") in repo.pairs("calls")
    repo.close()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)


def test_a_map_keeps_the_solvers_cells_in_pieces_and_continues_from_them(repo: Repo) -> None:
    import sqlite3

    repo.write(START).build()
    repo.close()
    (path,) = repo.index_dir.glob("**/map.sqlite")
    with sqlite3.connect(path) as db:
        names = {name for (name,) in db.execute("SELECT name FROM solver_state")}
    db.close()
    assert {name for name in names if "cells" in name} == {
        f"python:cells.{piece}" for piece in range(8)
    }
    report = repo.write({"app.py": START["app.py"] + "    helper()\n"}).build()
    assert report.solves == ("python: continued from the last solve (1 files changed)",)


def test_a_new_call_of_a_classmethod_returning_cls_continues_and_equals_a_fresh_map(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each call of Key.load gives an instance of the class it is called on (not the return
    # every call shares): a new call in an edit must get what a fresh solve gives it.
    keys = textwrap.dedent(
        """
        class Key:
            @classmethod
            def load(cls):
                key = cls()
                return key
            def sign(self): pass
        class RSAKey(Key):
            def sign(self): pass
        class ECKey(Key):
            def sign(self): pass
        def rsa():
            RSAKey.load().sign()
        def ec():
            ECKey.load().sign()
        def later():
            pass
        """
    ).lstrip("\n")
    repo.write({"keys.py": keys}).build()
    _refuse_whole_solves(monkeypatch)
    added = keys.replace("def later():\n    pass\n", "def later():\n    RSAKey.load().sign()\n")
    report = repo.write({"keys.py": added}).build()
    assert report.solves == ("python: continued from the last solve (1 files changed)",)
    assert ("keys.later", "keys.RSAKey.sign") in repo.certain("calls")
    assert ("keys.later", "keys.ECKey.sign") not in repo.pairs("calls")
    repo.close()
    monkeypatch.undo()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)


def test_a_call_added_beside_a_wrapper_choosing_decorator_continues_and_equals_a_fresh_map(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # requires(func) returns the wrapper of the branch func's test takes (facts.Tested, a
    # return's guard): a continued solve restores that and adds the new call to it.
    views = textwrap.dedent(
        """
        import inspect
        def requires(func):
            if inspect.iscoroutinefunction(func):
                async def async_wrapper():
                    return await func()
                return async_wrapper
            def sync_wrapper():
                return func()
            return sync_wrapper
        @requires
        def page():
            pass
        @requires
        async def home():
            pass
        def show():
            page()
        async def run():
            await home()
        """
    ).lstrip("\n")
    repo.write({"views.py": views}).build()
    _refuse_whole_solves(monkeypatch)
    report = repo.write({"views.py": views + "    page()\n"}).build()
    assert report.solves == ("python: continued from the last solve (1 files changed)",)
    certain = repo.certain("calls")
    for pair in (
        ("views.run", "views.requires.async_wrapper"),
        ("views.run", "views.requires.sync_wrapper"),
        ("views.requires.async_wrapper", "views.home"),
        ("views.requires.sync_wrapper", "views.page"),
    ):
        assert pair in certain, pair
    assert ("views.requires.sync_wrapper", "views.home") not in repo.pairs("calls")
    repo.close()
    monkeypatch.undo()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)


def test_a_descriptor_read_added_in_an_edit_is_drawn_as_in_a_fresh_map(
    repo: Repo, tmp_path: Path
) -> None:
    descriptor = "class Desc:\n    def __get__(self, o, t): return len\n"
    finder = "class Finder:\n    storage = Desc()\n    other = Desc()\n"
    core = descriptor + finder + START["lib/core.py"]
    app = START["app.py"].replace("Engine, helper", "Engine, Finder, helper")
    repo.write(dict(START, **{"lib/core.py": core, "app.py": app + "    Finder.storage = str\n"}))
    repo.build()
    # (a read of a descriptor gives its __get__'s parameters values: the whole program again)
    repo.write({"lib/core.py": core + "    Finder().storage\n    Finder().other\n"}).build()
    assert ("lib.core.work", "lib.core.Desc.__get__") in repo.pairs("calls")
    assert ("lib.core.work", "lib.core.Desc.__get__") in repo.certain("calls")  # other's
    repo.close()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)
