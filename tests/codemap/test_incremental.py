"""Re-mapping parses only what changed, re-resolves what an interface change can reach, and
always ends where a map made from scratch would."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
from map_helpers import Repo

from groundkit.codemap.api import open_codemap

START = {
    "lib/__init__.py": "from .core import work\n",
    "lib/core.py": """
        class Engine:
            def run(self):
                return helper()
        def helper(): pass
        def work():
            Engine().run()
    """,
    "app.py": """
        import lib
        from lib.core import Engine, helper
        from lib.core import later
        import lib.extra
        def main():
            lib.work()
            Engine().run()
            helper()
            later()
    """,
    "other.py": "def unrelated():\n    print('x')\n",
}
START = {path: textwrap.dedent(text).lstrip("\n") for path, text in START.items()}
WEB = "from fastapi import FastAPI\napp = FastAPI()\n@app.get('/a/{x}')\ndef h(x): pass\n"


def snapshot(index_dir: Path, name: str = "repo") -> dict[str, Any]:
    with open_codemap(name, index_dir=index_dir) as codemap:
        edges = {
            (e.id, str(e.provenance), e.confidence, e.location, e.evidence, e.flags, e.sites)
            for e in codemap.edges()
        }
        return {
            "nodes": {(n.key, n.line, n.end_line) for n in codemap.nodes()},
            "edges": edges,
            "unresolved": codemap.counts()["unresolved_calls"],
        }


def fresh(repo: Repo, tmp_path: Path) -> dict[str, Any]:
    index = tmp_path / f"fresh{len(list(tmp_path.glob('fresh*')))}"
    with open_codemap("repo", index_dir=index, create=True) as codemap:
        codemap.update(repo.root, workers=1)
    return snapshot(index)


EDITS: list[tuple[str, dict[str, str], tuple[str, ...], int]] = [
    # (what, files written, files removed, files to be parsed)
    ("a body-only edit", {"lib/core.py": START["lib/core.py"] + "\n# a comment\n"}, (), 1),
    ("a function removed", {"lib/core.py": "class Engine:\n    def run(self): pass\n"}, (), 1),
    (
        "a missing name appears",
        {"lib/core.py": START["lib/core.py"] + "def later(): pass\n"},
        (),
        1,
    ),
    ("a missing module appears", {"lib/extra.py": "X = 1\n"}, (), 1),
    ("a module deleted", {}, ("lib/extra.py",), 0),
    ("a folder becomes a package", {"tools/util.py": "def u(): pass\n"}, (), 1),
    ("...with an __init__", {"tools/__init__.py": ""}, (), 1),
    ("code moves down a file", {"other.py": "# moved\n\n\n" + START["other.py"]}, (), 1),
    ("a route appears", {"web.py": WEB}, (), 1),
    (
        "a client calls it",
        {"client.py": "import requests\ndef c():\n    requests.get('/a/1')\n"},
        (),
        1,
    ),
    ("the route moves", {"web.py": WEB.replace("/a/", "/b/")}, (), 1),
    ("the route's file goes", {}, ("web.py",), 0),
]


def test_each_edit_parses_only_what_changed_and_equals_a_map_from_scratch(
    repo: Repo, tmp_path: Path
) -> None:
    repo.write(START).build()
    for what, written, removed, parsed in EDITS:
        repo.write(written)
        repo.remove(*removed)
        report = repo.build()
        assert report.parsed == parsed, what
        assert report.removed == len(removed), what
        repo.close()
        assert snapshot(repo.index_dir) == fresh(repo, tmp_path), what


def test_a_body_only_edit_re_resolves_that_file_alone(repo: Repo) -> None:
    repo.write(START).build()
    edited = START["lib/core.py"].replace("Engine().run()", "Engine().run()\n    print(1)")
    repo.write({"lib/core.py": edited})
    report = repo.build()
    assert (report.parsed, report.resolved) == (1, 1)


def test_an_interface_change_re_resolves_the_files_that_consulted_it(repo: Repo) -> None:
    repo.write(START).build()
    assert ("app.main", "lib.core.helper") in repo.pairs("calls")
    repo.write({"lib/core.py": START["lib/core.py"].replace("def helper", "def helper2")})
    report = repo.build()
    # lib.core itself, and app (which looked helper up there); lib's own edges do not depend
    # on what lib.core defines.
    assert report.resolved == 2
    assert ("app.main", "lib.core.helper") not in repo.pairs("calls")


def test_a_deleted_file_takes_its_nodes_and_edges_with_it(repo: Repo) -> None:
    repo.write(START).build()
    repo.remove("lib/core.py")
    repo.build()
    assert not [n for n in repo.map.nodes() if n.path == "lib/core.py"]
    assert not [e for e in repo.map.edges() if "lib.core" in (e.source.qualname, e.target.qualname)]


def test_an_unchanged_tree_is_not_parsed_or_resolved_again(repo: Repo) -> None:
    repo.write(START).build()
    report = repo.build()
    assert (report.parsed, report.resolved, report.unchanged) == (0, 0, 4)


@pytest.mark.parametrize("workers", [1, 2])
def test_parsing_in_two_processes_gives_the_same_map(
    repo: Repo, tmp_path: Path, workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    from groundkit.codemap import parsing

    monkeypatch.setattr(parsing, "PARALLEL_FROM", 2)
    repo.write(START)
    with open_codemap("par", index_dir=tmp_path / "par", create=True) as codemap:
        codemap.update(repo.root, workers=workers)
    assert snapshot(tmp_path / "par", "par") == fresh(repo, tmp_path)


def test_a_lookup_shared_by_two_files_makes_both_depend_on_what_it_consulted(
    repo: Repo, tmp_path: Path
) -> None:
    # Both callers reach lib.core.work through lib's re-export; the second reuses the first's
    # (memoised) lookup, and must still depend on lib.core.
    files = {
        "lib/__init__.py": "from .core import work\n",
        "lib/core.py": "def work(): pass\n",
        "first.py": "import lib\ndef a():\n    lib.work()\n",
        "second.py": "import lib\ndef b():\n    lib.work()\n",
    }
    repo.write(files).build()
    assert {("first.a", "lib.core.work"), ("second.b", "lib.core.work")} <= repo.pairs("calls")
    repo.write({"lib/core.py": "def other(): pass\n"}).build()
    repo.close()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)


def test_a_second_language_plugs_into_the_same_map_through_the_seam(
    repo: Repo, tmp_path: Path
) -> None:
    from groundkit.codemap.extract.python import PythonExtractor
    from groundkit.testing.codemap import LinksExtractor

    languages = [PythonExtractor(), LinksExtractor()]
    repo.write({"a.links": "def f\nf calls b.g\n", "b.links": "def g\n", "p.py": "def h(): pass\n"})
    report = repo.map.update(repo.root, extractors=languages)
    assert report.files == 3
    assert ("a.f", "b.g") in repo.pairs("calls")
    repo.write({"b.links": "def other\n"})  # b's interface changes: a is resolved again
    report = repo.map.update(repo.root, extractors=languages)
    assert (report.parsed, report.resolved) == (1, 2)
    assert ("a.f", "b.g") not in repo.pairs("calls")
    assert repo.map.counts()["unresolved_calls"] == 1
    assert {n.language for n in repo.map.nodes() if n.path} == {"links", "python"}


def test_a_file_touched_but_unchanged_is_not_parsed_again(repo: Repo) -> None:
    import os

    repo.write(START).build()
    path = repo.root / "lib" / "core.py"
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    report = repo.build()  # read (the time changed), found the same, not parsed
    assert (report.parsed, report.resolved) == (0, 0)
    path.write_text(path.read_text().replace("Engine().run()", "Engine().run()  # same size?"))
    report = repo.build()
    assert report.parsed == 1


def test_an_edit_that_only_moves_code_relocates_without_resolving_again(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from groundkit.codemap.extract.python import PythonResolver

    repo.write(START).build()

    def refuse(self: object, paths: object) -> None:
        raise AssertionError("the value flow was solved again for an edit that moved code")

    monkeypatch.setattr(PythonResolver, "resolve_all", refuse)
    moved = "# a comment\n\n" + START["lib/core.py"].replace("class Engine:", "\nclass Engine:")
    repo.write({"lib/core.py": moved})
    report = repo.build()
    assert (report.parsed, report.resolved) == (1, 1)
    repo.close()
    monkeypatch.undo()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)


def test_the_shipped_extractors_store_typed_records_and_read_them_back_unchanged() -> None:
    from groundkit.codemap.extract.base import SourceFile
    from groundkit.codemap.extract.typescript import TypeScriptExtractor
    from groundkit.testing.codemap import Defs, LinksExtractor

    sources = [
        (LinksExtractor(), SourceFile("a.links", "def f\nf calls b.g\n")),
        (TypeScriptExtractor(), SourceFile("main.ts", 'import { g } from "./b";\ng(f);\n')),
        (
            TypeScriptExtractor(),
            SourceFile("tsconfig.json", '{"compilerOptions": {"baseUrl": "."}}'),
        ),
    ]
    for extractor, source in sources:
        facts = extractor.parse(source)
        interface, body = extractor.encode(facts)
        assert extractor.decode(interface, body) == facts
        assert not isinstance(facts.interface, dict | list)  # records, not JSON
    assert LinksExtractor().parse(sources[0][1]).interface == Defs(["f"])
