"""The values every chunker shares: settings, sections in, spans out, and the version."""

from __future__ import annotations

from dataclasses import dataclass, field

from groundkit.types import Metadata

__all__ = ["CHUNKER_VERSION", "ChunkSettings", "Section", "Span"]

# Part of every document fingerprint: bump it whenever chunk boundaries or their metadata could
# change, so that the next ingest re-chunks everything instead of mixing old and new chunks.
# 6: backslash escapes in heading titles are resolved (`Stream\[src\]` is `Stream[src]`).
# 7: no heading inside raw HTML blocks (comments, `<div>`...) or front matter.
CHUNKER_VERSION = "7"


@dataclass(frozen=True, slots=True)
class ChunkSettings:
    """``size``: the most characters a chunk may hold. ``min_size``: smaller chunks are merged
    into a neighbour when the result still fits."""

    size: int = 1000
    min_size: int = 200

    def __post_init__(self) -> None:
        if self.size < 1 or not 0 <= self.min_size <= self.size:
            raise ValueError("need 1 <= size and 0 <= min_size <= size")


@dataclass(frozen=True, slots=True)
class Section:
    """A region that chunks should not straddle, with the metadata its chunks inherit.

    ``lead``: the length of a heading at its start, kept in the same chunk as what follows.
    """

    start: int
    end: int
    metadata: Metadata = field(default_factory=dict)
    lead: int = 0


@dataclass(frozen=True, slots=True)
class Span:
    start: int
    end: int
    metadata: Metadata = field(default_factory=dict)

    def __reduce__(self) -> tuple[type[Span], tuple[int, int, Metadata]]:
        # Helper processes send spans to the writer: rebuilt by ``__init__``, a span unpickles
        # in a third of the time the frozen dataclass's own ``__setstate__`` takes.
        return Span, (self.start, self.end, self.metadata)
