"""Columns are counted in characters, in time linear in a line's length: a minified bundle is
one line of hundreds of kilobytes, and one non-ASCII character in it must not make every node
on that line re-encode the whole line."""

from __future__ import annotations

import time

from map_helpers import Repo, build

from groundkit.codemap.extract.base import SourceFile
from groundkit.codemap.extract.typescript import TypeScriptExtractor


def _parse_cpu_seconds(text: str) -> float:
    started = time.process_time()
    TypeScriptExtractor().parse(SourceFile("bundle.min.js", text))
    return time.process_time() - started


def test_a_long_line_with_one_non_ascii_character_parses_in_linear_time() -> None:
    calls = "f(a,b);" * 28_600  # 200 KB on one line, 28,600 call sites
    ascii_only = _parse_cpu_seconds("function f(){}" + 'var s="e";' + calls + "\n")
    one_accent = _parse_cpu_seconds("function f(){}" + 'var s="é";' + calls + "\n")
    # Quadratic column conversion took 12.7 s here against 0.75 s for the ASCII twin; linear
    # conversion costs about the same as no conversion at all. CPU time, not wall time, so a
    # busy machine does not fail the test; the budget is generous all the same.
    assert one_accent < 3 * ascii_only + 1.0


def test_columns_after_a_non_ascii_character_count_characters(repo: Repo) -> None:
    build(repo, {"main.ts": 'function f() {}\nconst s = "çé"; f();\n'})
    edge = repo.edge("calls", "main", "main.f")
    assert edge.location.line == 2  # type: ignore[attr-defined]
    assert edge.location.col == 16  # type: ignore[attr-defined]
    assert edge.location.end_col == 19  # type: ignore[attr-defined]
