"""The names documents are shown by: unique in a collection, refreshed by every ingest.

A document's identity is where it was read from (its absolute path), never its name, so naming
never adds, drops or re-chunks anything: citations, drift checks and vectors are untouched. Each
ingest names its files from the common parent of its inputs (``ingest.walk.name_base``) and
gives every file it met that name, read or passed over unchanged, so the names always say what
the last ingest that met a file was told. A name another file's documents already show is
widened with the file's parent folders until it is free: two documents never show the same
source. See docs/decisions/0014-document-names.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import PurePath

from groundkit.ingest.walk import FileInput
from groundkit.pipeline.store import DocumentStore

__all__ = ["name_files"]


def name_files(store: DocumentStore, files: Iterable[FileInput]) -> None:
    """Show the documents of each file by a name no other file's documents show."""
    for file in files:
        store.name_origin(file.path, _free_name(store, file))


def _free_name(store: DocumentStore, file: FileInput) -> str:
    """``file.shown``, or, when another file's documents show that, the shortest name made of
    the file's path that none does (at worst the whole path, which only this file has)."""
    if not store.name_taken(file.shown, file.path):
        return file.shown
    parts = PurePath(file.path).parts[1:]  # the root ("/") is no name
    for size in range(len(PurePath(file.shown).parts) + 1, len(parts) + 1):
        name = "/".join(parts[-size:])
        if not store.name_taken(name, file.path):
            return name
    return file.path
