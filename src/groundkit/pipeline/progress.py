"""What an ingest says while it runs: a phase, how far it is, and the item at hand."""

from __future__ import annotations

from typing import Protocol

__all__ = ["PHASES", "Progress"]

# In the order a run goes through them. "writing" is the store's commit; "indexing" brings the
# lexical index in line; "fingerprinting" gives chunks stored before schema 7 their near-duplicate
# fingerprint; "embedding" gives chunks vectors, a batch per commit.
PHASES = ("walking", "reading", "writing", "indexing", "fingerprinting", "embedding")


class Progress(Protocol):
    def __call__(self, phase: str, done: int, total: int | None, item: str | None = None) -> None:
        """``total`` None: not known yet (walking) or not countable (a commit)."""
        ...
