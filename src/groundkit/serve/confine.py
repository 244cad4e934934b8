"""Which paths a client of the server may make it ingest: only those under ``serve.ingest_roots``.

Without this, a client holding the secret could have the server read any file its user can read
(``~/.ssh``, ``/etc``) and then read it back through search and ``fetch_chunk``. Each path is
resolved first (symlinks and ``..``), so a link or a ``..`` that leads out of a root is refused;
the ingest walker then follows a symlink only while it stays inside the tree it was given, which
is inside a root. URLs are not paths: the URL fetcher's SSRF guard vets them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from groundkit.errors import ErrorCode, ServeError

__all__ = ["IngestRoots"]

# The pipeline's own test for "this input is a URL": both must agree, or a path could pass as one.
_URL_SCHEMES = ("http://", "https://")


class IngestRoots:
    """The folders path ingest is confined to, resolved once when the server starts."""

    def __init__(self, roots: Sequence[str]) -> None:
        self._roots = tuple(Path(os.path.realpath(Path(root).expanduser())) for root in roots)

    def check(self, inputs: Sequence[str]) -> None:
        """Raise ``serve.path_not_allowed`` unless every path in ``inputs`` is inside a root."""
        for position, raw in enumerate(inputs, start=1):
            if raw.startswith(_URL_SCHEMES):
                continue
            if not self._roots:
                raise ServeError(
                    ErrorCode.SERVE_PATH_NOT_ALLOWED,
                    "this server ingests URLs only: serve.ingest_roots names no folder",
                    hint="the operator lists the folders clients may ingest in serve.ingest_roots",
                )
            if not self._inside(raw):
                # The path is the caller's own, but may be a machine path: it is not echoed.
                raise ServeError(
                    ErrorCode.SERVE_PATH_NOT_ALLOWED,
                    f"input {position} is outside the folders in serve.ingest_roots",
                    hint="ingest a path inside serve.ingest_roots, or a URL",
                )

    def _inside(self, raw: str) -> bool:
        try:
            real = Path(os.path.realpath(os.path.abspath(raw)))
        except ValueError:  # a NUL byte: no file has that name, and nothing is read
            return False
        return any(real.is_relative_to(root) for root in self._roots)
