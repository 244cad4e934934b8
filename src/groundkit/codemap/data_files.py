"""The files no extractor parses that a mapping run reads anyway, for what they declare: a
Prisma schema (models, tables), ORM settings (``ormconfig.*``, ``.env``: table naming), SQL an
app runs from a file it ships (``open_resource``). They count as read, not as passed over; what
no part of the map reads is passed over with its reason.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from groundkit.codemap.data.collect import read_schemas, schema_files
from groundkit.codemap.sources import Source
from groundkit.codemap.store import MapStore
from groundkit.types import Skipped

__all__ = ["DataFiles", "data_files"]


@dataclass(frozen=True, slots=True)
class DataFiles:
    """The files no extractor parses that the map reads for data, and what they hold."""

    schemas: str  # the schemas' data facts, as the manifest keeps them
    passed_over: list[Skipped]  # what no part of the map reads
    read: list[Skipped]  # what it reads for data, each with what it is
    reads: dict[str, list[str]]  # the files each source file's data facts were read from


def data_files(
    store: MapStore,
    source: Source,
    passed_over: Sequence[Skipped],
    fresh: dict[str, list[str]],
    removed: Sequence[str],
) -> DataFiles:
    """``passed_over`` split into what no part of the map reads and what it reads for data.
    The files a resource's SQL was read from are ``fresh`` for the files read in this run, as
    the map held them for the rest (their facts are held too)."""
    held: dict[str, list[str]] = json.loads(store.manifest().get("resource_reads") or "{}")
    gone = set(removed)
    reads = {caller: paths for caller, paths in held.items() if caller not in gone}
    reads.update(fresh)
    reads = {caller: sorted(set(paths)) for caller, paths in reads.items() if paths}
    why = schema_files(s.source for s in passed_over)
    for paths in reads.values():
        for path in paths:
            why.setdefault(path, "SQL the app runs (open_resource)")
    return DataFiles(
        read_schemas((s.source for s in passed_over), source),
        [s for s in passed_over if s.source not in why],
        [
            Skipped(s.source, f"read for data: {why[s.source]}")
            for s in passed_over
            if s.source in why
        ],
        reads,
    )
