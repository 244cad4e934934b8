"""Which edges an answer about a map shows: ``EdgeFilter``, the one filter trace, blast, ask,
diff and the drawing apply, on every surface (``--min-confidence``, ``--certain``,
``--exclude GLOB``; the same fields over REST, MCP and the page).

An edge is shown when its confidence is at least ``min_confidence``, when it is not ``partial``
under ``certain``, and when neither of its ends lies in a file an ``exclude`` glob names
(gitignore syntax on repository-relative paths: ``tests/**``) — the symbol asked about aside,
so that ``grk trace tests.test_api.test_buy --exclude 'tests/**'`` still leads somewhere. A
walk does not go on through an edge it does not show. What was hidden is counted, never
silently dropped: every answer says how many edges the filter hid.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pathspec

from groundkit.codemap.model import Edge, EdgeFlag, NodeKey
from groundkit.errors import ErrorCode, UsageError

__all__ = ["NO_FILTER", "EdgeFilter"]

_MAX_GLOBS = 50


@dataclass(frozen=True, slots=True)
class EdgeFilter:
    """What to leave out of an answer (the defaults leave out nothing)."""

    min_confidence: float = 0.0
    certain: bool = False  # leave out ``partial`` edges (one of several run-time targets)
    exclude: tuple[str, ...] = ()  # gitignore globs on the files an edge's ends lie in
    _spec: pathspec.GitIgnoreSpec | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not 0.0 <= self.min_confidence <= 1.0:
            raise UsageError(ErrorCode.USAGE, "min confidence must be between 0 and 1")
        globs = tuple(g.strip() for g in self.exclude if g.strip())
        if len(globs) > _MAX_GLOBS:
            raise UsageError(ErrorCode.USAGE, f"at most {_MAX_GLOBS} --exclude globs")
        object.__setattr__(self, "exclude", globs)
        spec = pathspec.GitIgnoreSpec.from_lines(globs) if globs else None
        object.__setattr__(self, "_spec", spec)

    @classmethod
    def of(
        cls,
        min_confidence: float | None = None,
        certain: bool = False,
        exclude: Sequence[str] = (),
    ) -> EdgeFilter:
        return cls(min_confidence or 0.0, certain, tuple(exclude))

    @property
    def active(self) -> bool:
        return self.min_confidence > 0.0 or self.certain or bool(self.exclude)

    def excludes(self, key: NodeKey) -> bool:
        """Whether a node lies in an excluded file."""
        return self._spec is not None and bool(key.path) and self._spec.match_file(key.path)

    def admits(self, edge: Edge, start: NodeKey | None = None) -> bool:
        """Whether ``edge`` is shown (``start``: the symbol asked about, never excluded)."""
        if edge.confidence < self.min_confidence:
            return False
        if self.certain and EdgeFlag.PARTIAL in edge.flags:
            return False
        if self._spec is None:
            return True
        return not any(end != start and self.excludes(end) for end in (edge.source, edge.target))

    def to_dict(self) -> dict[str, Any]:
        return {
            "min_confidence": self.min_confidence,
            "certain": self.certain,
            "exclude": list(self.exclude),
        }

    def describe(self) -> str:
        """The filter in a person's words (``certain, confidence >= 0.9, not tests/**``)."""
        parts = []
        if self.certain:
            parts.append("certain")
        if self.min_confidence > 0.0:
            parts.append(f"confidence >= {self.min_confidence:g}")
        parts.extend(f"not {glob}" for glob in self.exclude)
        return ", ".join(parts)


NO_FILTER = EdgeFilter()
