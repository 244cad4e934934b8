"""Shared by the code map tests: a repository written from a dict of files, mapped through
the library, and read back as plain (source, target) name pairs per edge kind."""

from __future__ import annotations

import textwrap
from pathlib import Path

from groundkit.codemap.api import CodeMap, open_codemap
from groundkit.codemap.build import MapReport
from groundkit.codemap.model import Edge, EdgeFlag


class Repo:
    def __init__(self, root: Path, index_dir: Path) -> None:
        self.root = root
        self.index_dir = index_dir
        self.report: MapReport | None = None
        self._map: CodeMap | None = None

    def write(self, files: dict[str, str]) -> Repo:
        for rel, text in files.items():
            path = self.root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return self

    def remove(self, *rels: str) -> None:
        for rel in rels:
            (self.root / rel).unlink()

    @property
    def map(self) -> CodeMap:
        if self._map is None:
            self._map = open_codemap("repo", index_dir=self.index_dir, create=True)
        return self._map

    def build(self, **kw: object) -> MapReport:
        self.report = self.map.update(self.root, workers=1, **kw)  # type: ignore[arg-type]
        return self.report

    def pairs(self, kind: str) -> set[tuple[str, str]]:
        return {(e.source.qualname, e.target.qualname) for e in self.map.edges([kind])}

    def certain(self, kind: str) -> set[tuple[str, str]]:
        """The pairs of the edges of ``kind`` not flagged partial."""
        return {
            (e.source.qualname, e.target.qualname)
            for e in self.map.edges([kind])
            if EdgeFlag.PARTIAL not in e.flags
        }

    def edge(self, kind: str, source: str, target: str) -> object:
        found = [
            e
            for e in self.map.edges([kind])
            if e.source.qualname == source and e.target.qualname == target
        ]
        assert len(found) == 1, f"no {kind} edge {source} -> {target}"
        return found[0]

    def close(self) -> None:
        if self._map is not None:
            self._map.close()
            self._map = None


def build(repo: Repo, files: dict[str, str]) -> Repo:
    repo.write(files).build()
    return repo


def calls(repo: Repo, source: str, target: str) -> Edge:
    """The one ``calls`` edge from ``source`` to ``target``, typed."""
    edge = repo.edge("calls", source, target)
    assert isinstance(edge, Edge)
    return edge
