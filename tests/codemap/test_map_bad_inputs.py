"""Files the analyser cannot take are skipped with a reason, the rest is mapped, and what a bad
read would lose is kept."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
from map_helpers import Repo, build

from groundkit.codemap.api import open_codemap
from groundkit.codemap.build import MapReport
from groundkit.codemap.extract.python import PythonExtractor
from groundkit.codemap.sources import Selection, WorkTree
from groundkit.config import CodemapConfig, Settings
from groundkit.source_files import NOT_REGULAR, Unread


def reasons(repo: Repo) -> dict[str, str]:
    assert repo.report is not None
    return {s.source: s.reason for s in repo.report.skipped}


def test_a_syntax_error_skips_that_file_with_its_line(repo: Repo) -> None:
    repo.write({"good.py": "def f(): pass\n", "bad.py": "def f(:\n"}).build()
    assert reasons(repo) == {"bad.py": "syntax error at line 1"}
    assert {n.qualname for n in repo.map.nodes()} == {"good", "good.f"}


def test_a_file_that_is_not_utf8_nor_declares_its_encoding_is_skipped(repo: Repo) -> None:
    (repo.root / "latin.py").write_bytes("x = 'café'\n".encode("latin-1"))
    (repo.root / "declared.py").write_bytes(
        "# -*- coding: latin-1 -*-\ndef caf\xe9(): pass\n".encode("latin-1")
    )
    (repo.root / "nul.py").write_bytes(b"x = 1\x00\n")
    repo.build()
    found = reasons(repo)
    assert found["latin.py"].startswith("undecodable")
    assert found["nul.py"] == "cannot be parsed (it holds a NUL byte)"  # was: "at line None"
    assert "declared.py" not in found
    assert "declared.café" in {n.qualname for n in repo.map.nodes()}


def test_a_file_larger_than_the_limit_is_skipped_as_oversized(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "big.py").write_text("x = 1\n" * 100)
    (root / "small.py").write_text("y = 2\n")
    settings = Settings(codemap=CodemapConfig(max_file_bytes=100))
    with open_codemap("r", index_dir=tmp_path / "i", settings=settings, create=True) as codemap:
        report = codemap.update(root)
    assert [(s.source, s.reason.split(" ")[0]) for s in report.skipped] == [("big.py", "oversized")]
    assert report.files == 1


def test_a_symlink_leaving_the_repository_is_refused_quietly(repo: Repo, tmp_path: Path) -> None:
    outside = tmp_path / "outside.py"
    outside.write_text("def secret(): pass\n")
    repo.write({"inside.py": "def f(): pass\n"})
    os.symlink(outside, repo.root / "link.py")
    os.symlink(repo.root / "inside.py", repo.root / "alias.py")  # inside: followed
    repo.build()
    # Passed over on purpose, as `grk ingest` does: not a failure, and never read.
    assert reasons(repo) == {}
    assert "link.secret" not in {n.qualname for n in repo.map.nodes()}
    assert "alias.f" in {n.qualname for n in repo.map.nodes()}


def test_vendored_and_generated_trees_are_skipped_unless_included(repo: Repo) -> None:
    repo.write(
        {
            "app.py": "",
            "node_modules/pkg/x.py": "",
            "build/lib/y.py": "",
            "venv/lib/z.py": "",
            "venv/pyvenv.cfg": "",
            "site/__pycache__/w.py": "",
            "keep/it.py": "",
        }
    )
    repo.build()
    assert {n.path for n in repo.map.nodes() if n.path} == {"app.py", "keep/it.py"}
    repo.build(include=["build/**"], exclude=["keep/"])
    assert {n.path for n in repo.map.nodes() if n.path} == {"build/lib/y.py"}


class _Vanishing(WorkTree):
    """A file listed, then deleted before it is read: what a concurrent `git checkout` does."""

    def read(self, paths: Sequence[str]) -> Iterator[tuple[str, bytes | OSError | Unread]]:
        (self.root / "gone.py").unlink()
        yield from super().read(paths)


def test_a_file_deleted_mid_run_is_reported_and_what_was_mapped_from_it_is_kept(
    repo: Repo,
) -> None:
    from groundkit.codemap.build import build_map

    repo.write({"gone.py": "def g(): pass\n", "stays.py": "from gone import g\ng()\n"}).build()
    repo.write({"gone.py": "def g(): pass\ndef h(): pass\n"})
    source = _Vanishing(repo.root, Selection(claims=PythonExtractor().claims))
    report = build_map(repo.map.store, source, [PythonExtractor()], max_file_bytes=10**6)
    assert {s.source: s.reason for s in report.skipped} == {"gone.py": "the file is gone"}
    assert ("stays", "gone.g") in repo.pairs("calls")  # the last good map of it stays
    report = repo.build()  # the next run sees it gone
    assert report.removed == 1
    assert ("stays", "gone.g") not in repo.pairs("calls")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_an_unreadable_file_is_skipped(repo: Repo) -> None:
    repo.write({"locked.py": "x = 1\n"})
    (repo.root / "locked.py").chmod(0)
    repo.build()
    assert reasons(repo)["locked.py"].startswith("unreadable")


def test_a_file_whose_path_is_not_utf8_is_skipped_and_a_root_like_that_is_refused(
    repo: Repo,
) -> None:
    from groundkit import ErrorCode, GroundkitError

    repo.write({"good.py": "def f(): pass\n"})
    (repo.root / os.fsdecode(b"caf\xe9.py")).write_text("def g(): pass\n")
    repo.build()
    assert reasons(repo) == {
        "caf\\xe9.py": "its path is not valid UTF-8 (rename it so that groundkit can read it)"
    }
    assert {n.qualname for n in repo.map.nodes()} == {"good", "good.f"}

    latin = repo.root / os.fsdecode(b"d\xe9p\xf4t")
    latin.mkdir()
    with pytest.raises(GroundkitError) as caught:
        WorkTree(latin, Selection(claims=PythonExtractor().claims))
    assert caught.value.code == ErrorCode.USAGE
    assert "d\\xe9p\\xf4t" in caught.value.message


def test_string_literals_that_are_not_valid_utf8_text_are_mapped_as_plain_values(
    repo: Repo,
) -> None:
    # "\udce2" is a valid literal (a lone surrogate) but cannot be stored as UTF-8 text: found
    # in httpx's tests, it made the whole map fail (UnicodeEncodeError).
    build(
        repo,
        {
            "m.py": """
                def f(): pass
                TABLE = {"\\udce2": f, "ok": f}
                NAME = "\\udce2"
                TEMPLATE = f"{NAME}\\udce2"
                __all__ = ["\\udce2"]
                TABLE["ok"]()
            """
        },
    )
    assert repo.report is not None
    assert not repo.report.skipped
    assert ("m", "m.f") in repo.pairs("calls")


BUNDLE = Path(__file__).parents[2] / "src/groundkit/serve/static/swagger-ui/swagger-ui-bundle.js"


def test_a_minified_bundle_is_skipped_as_generated_whatever_its_name(repo: Repo) -> None:
    # The vendored Swagger UI bundle (1.7 MB on two lines) is not named *.min.js: parsing it
    # took minutes and filled the map with its internals.
    (repo.root / "web").mkdir(parents=True)
    (repo.root / "web" / "app.js").write_bytes(BUNDLE.read_bytes())
    build(repo, {"web/real.js": "export function f() { return 1; }\n"})
    assert repo.report is not None
    # Passed over, not skipped: made, not written, so no failure of the run (exit 0).
    assert not repo.report.skipped
    assert [(s.source, s.reason.split(" (")[0]) for s in repo.report.passed_over] == [
        ("web/app.js", "generated: a bundle")
    ]
    assert {n.path for n in repo.map.nodes() if n.path} == {"web/real.js"}


@pytest.mark.parametrize(
    ("name", "text", "why"),
    [
        ("out.js", "export const a = 1;\n//# sourceMappingURL=out.js.map\n", "compiled output"),
        ("long.js", "var a=1;" * 2000 + "\n", "minified"),
    ],
)
def test_generated_files_are_told_by_what_they_hold(
    repo: Repo, name: str, text: str, why: str
) -> None:
    build(repo, {name: text, "keep.py": "# Generated by Django 5.2 on 2025-01-01\nX = 1\n"})
    assert repo.report is not None
    assert not repo.report.skipped
    generated = [s for s in repo.report.passed_over if s.reason.startswith("generated")]
    assert [s.source for s in generated] == [name]
    assert why in generated[0].reason


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("gen.py", "# @generated by a tool\ndef f(): pass\n"),
        ("msg_pb2.py", "# Generated by the protocol buffer compiler.  DO NOT EDIT!\nX = 1\n"),
    ],
)
def test_generated_source_is_mapped_and_flagged(repo: Repo, name: str, text: str) -> None:
    build(repo, {name: text, "keep.py": "# Generated by Django 5.2 on 2025-01-01\nX = 1\n"})
    assert repo.report is not None
    assert not repo.report.skipped
    assert not repo.report.passed_over
    made = repo.map.overview().data["generated"]
    assert made == [{"path": name, "reason": "generated: it says so in its first lines"}]


def test_a_file_found_to_be_minified_loses_what_the_map_held_from_it(repo: Repo) -> None:
    build(repo, {"m.js": "export function f() { return 1; }\n"})
    assert "m.f" in {n.qualname for n in repo.map.nodes()}
    build(repo, {"m.js": "export function f() { return 1; }" + " " * 6000 + "\n"})
    assert "m.f" not in {n.qualname for n in repo.map.nodes()}


def test_a_file_that_becomes_generated_source_is_flagged_and_keeps_its_nodes(repo: Repo) -> None:
    build(repo, {"m.py": "def f(): pass\n"})
    assert repo.map.overview().data["generated"] == []
    build(repo, {"m.py": "# @generated\ndef f(): pass\n"})
    assert "m.f" in {n.qualname for n in repo.map.nodes()}
    assert [g["path"] for g in repo.map.overview().data["generated"]] == ["m.py"]


def test_a_file_slower_to_parse_than_its_budget_is_skipped_as_too_slow(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "slow.py").write_text(
        "".join(f"def f{i}(a):\n    return a(a(a))\n" for i in range(3000))
    )
    (root / "quick.py").write_text("x = 1\n")
    settings = Settings(codemap=CodemapConfig(parse_seconds=1e-9))
    with open_codemap("r", index_dir=tmp_path / "i", settings=settings, create=True) as codemap:
        report = codemap.update(root)
    assert [(s.source, s.reason.split(":")[0]) for s in report.skipped] == [("slow.py", "too_slow")]
    assert report.files == 1


def test_columns_on_a_long_line_with_one_non_ascii_character_cost_linear_time(
    repo: Repo,
) -> None:
    # Columns are characters, ast gives bytes: the line was encoded again for every node on
    # it once it held any non-ASCII character (an 80 KB line took seconds).
    import time

    line = "def f(): pass\nX = [" + "f(), " * 20_000 + "]"
    plain = {"a.py": line + "  # a\n"}
    accented = {"a.py": line + "  # é\n"}
    started = time.process_time()
    repo.write(plain).build()
    ascii_seconds = time.process_time() - started
    repo.write(accented)
    started = time.process_time()
    repo.build()
    accented_seconds = time.process_time() - started
    assert accented_seconds < 3 * ascii_seconds + 0.5


def test_a_file_that_only_talks_about_generated_code_is_mapped(repo: Repo) -> None:
    text = '"""Files marked ``@generated`` are skipped."""\n\ndef f(): pass\n'
    build(repo, {"about.py": text})
    assert repo.report is not None
    assert not repo.report.skipped


def _finishes(work: Callable[[], object], seconds: float = 60.0) -> bool:
    """Whether ``work`` returns within ``seconds`` (on a daemon thread: one that hangs in open()
    on a FIFO fails the test instead of hanging the suite)."""
    done = threading.Event()

    def run() -> None:
        work()
        done.set()

    threading.Thread(target=run, daemon=True).start()
    return done.wait(seconds)


def test_manifests_and_configs_that_are_fifos_are_never_waited_on(repo: Repo) -> None:
    repo.write({"pkg/__init__.py": "", "pkg/a.py": "def f(): pass\n", "web/x.ts": "export {}\n"})
    for name in ("pyproject.toml", "package.json", "tsconfig.json"):
        os.mkfifo(repo.root / name)  # before: `grk map` blocked in open() for ever
    assert _finishes(repo.build)
    assert "pkg.a.f" in {n.qualname for n in repo.map.nodes()}


class _Swapped(WorkTree):
    """A file listed, then replaced by a FIFO before it is read."""

    def read(self, paths: Sequence[str]) -> Iterator[tuple[str, bytes | OSError | Unread]]:
        (self.root / "swapped.py").unlink()
        os.mkfifo(self.root / "swapped.py")
        yield from super().read(paths)


def test_a_file_swapped_for_a_fifo_mid_run_is_skipped_as_not_a_regular_file(repo: Repo) -> None:
    from groundkit.codemap.build import build_map

    repo.write({"swapped.py": "def g(): pass\n", "stays.py": "def s(): pass\n"})
    source = _Swapped(repo.root, Selection(claims=PythonExtractor().claims))
    reports: list[MapReport] = []
    work = lambda: reports.append(  # noqa: E731
        build_map(repo.map.store, source, [PythonExtractor()], max_file_bytes=10**6)
    )
    assert _finishes(work)
    assert {s.source: s.reason for s in reports[0].skipped} == {"swapped.py": NOT_REGULAR}


def test_an_empty_template_literal_handed_to_a_repository_function_maps_as_an_empty_string(
    repo: Repo,
) -> None:
    # Found on babel's test fixtures: `f(``)` made a URL of no pieces and the whole map failed
    # with an internal IndexError.
    source = "function get(url) { return url; }\nexport function main() { get(``); get(''); }\n"
    build(repo, {"app.js": source})
    assert repo.report is not None
    assert repo.report.skipped == ()
    calls = {(e.source.qualname, e.target.qualname) for e in repo.map.edges(["calls"])}
    assert ("app.main", "app.get") in calls
