"""Deterministic fakes for groundkit's extension points, shipped for users' tests too."""

from groundkit.testing.embedder import FakeEmbedder

__all__ = ["FakeEmbedder"]
