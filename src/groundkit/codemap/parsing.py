"""Reading and parsing one mapping run's files: only those whose bytes (or extractor) changed,
generated ones skipped with the reason, each parse within its budget, in two processes when there
are enough files to pay for the fork."""

from __future__ import annotations

import hashlib
import math
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from groundkit.codemap.data.early import Early, EarlyData
from groundkit.codemap.data.typescript import ORM_PACKAGES
from groundkit.codemap.extract.base import Extractor, FileFacts, SourceFile, Unparsable
from groundkit.codemap.generated import generated, marked
from groundkit.codemap.lines import decode
from groundkit.codemap.sources import Source
from groundkit.codemap.store import FileState, MapStore
from groundkit.source_files import Unread
from groundkit.types import Skipped

_ORM_IMPORTS = tuple(p.encode() for p in ORM_PACKAGES)

__all__ = ["PARALLEL_FROM", "Parsed", "Progress", "Run", "digest", "read_and_parse", "tag"]

Progress = Callable[[str, int, int], None]  # (stage, done, in all)

PARALLEL_FROM = 200  # files to parse (or resolve) before a second process pays for itself


def digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


@dataclass(slots=True)
class Parsed:
    language: str
    digest: str
    size: int
    extractor: str
    facts: FileFacts | None  # None when it came from a worker: decoded where it is needed
    interface: bytes
    body: bytes
    interface_digest: str
    generated: str = ""  # why the file is generated source ("" for written by hand)
    early: Early | None = None  # its data facts, read from the tree its parse made


def tag(extractor: Extractor) -> str:
    return f"{extractor.language}:{extractor.version}"


def _parse_one(
    extractor: Extractor,
    path: str,
    data: bytes,
    seconds: float = math.inf,
    early: EarlyData | None = None,
) -> Parsed | str:
    try:
        text = decode(data)
        facts = extractor.parse(SourceFile(path, text, time.monotonic() + seconds))
        interface, body = extractor.encode(facts)
    except Unparsable as exc:
        return exc.reason
    except Exception as exc:  # a fault barrier: one file's bug, not the run's
        # A bug an extractor meets on one file (a literal too large to pack) skips that file,
        # named, and the run ends partial (exit 3); the rest of the repository is still mapped.
        return (
            f"the {extractor.language} extractor failed on it ({type(exc).__name__});"
            " a bug in groundkit, please report it"
        )
    found = early(path, text, facts) if early is not None and facts.syntax is not None else None
    return Parsed(
        extractor.language,
        digest(data),
        len(data),
        tag(extractor),
        FileFacts(facts.interface, facts.body),  # the tree let go: it is the largest part
        interface,
        body,
        digest(interface),
        early=found,
    )


def _parse_batch(
    items: list[tuple[Extractor, str, bytes]],
    seconds: float = math.inf,
    early: EarlyData | None = None,
) -> list[tuple[str, Parsed | str]]:
    out = [
        (path, _parse_one(extractor, path, data, seconds, early)) for extractor, path, data in items
    ]
    for _, result in out:
        if isinstance(result, Parsed):
            result.facts = None  # the packed bytes travel back; the objects would cost twice
    return out


@dataclass(slots=True)
class Run:
    skipped: list[Skipped] = field(default_factory=list)
    fresh: dict[str, Parsed] = field(default_factory=dict)
    unchanged: int = 0
    ignored: int = 0
    touched: list[tuple[int, int, str]] = field(default_factory=list)  # same content, new mtime
    generated: set[str] = field(default_factory=set)  # skipped as made, not written: dropped
    # Python files read, and others naming an ORM package: for their data facts. A Python
    # file's text is let go (None): the facts its parse read are most often all it takes, and
    # every text held to the end was the size of the repository's code at the map's peak.
    texts: dict[str, bytes | None] = field(default_factory=dict)
    early: dict[str, Early] = field(default_factory=dict)  # data facts read as they were parsed
    solves: list[str] = field(default_factory=list)  # how each program language was solved


def read_and_parse(
    run: Run,
    source: Source,
    owners: dict[str, Extractor],
    old: dict[str, FileState],
    stamps: dict[str, tuple[int, int]],
    store: MapStore,
    cache: MapStore | None,
    max_file_bytes: int,
    progress: Progress | None,
    workers: int | None,
    parse_seconds: float = 10.0,
) -> None:
    pending: list[tuple[Extractor, str, bytes]] = []
    flags: dict[str, str] = {}
    to_read = []
    for path in sorted(owners):
        state = old.get(path)
        size, mtime = stamps[path]
        # Same size and modification time (to the nanosecond) as when it was read: as git
        # does, the content is taken to be the same without reading it.
        same = state is not None and mtime and (state.size, state.mtime) == (size, mtime)
        if same and state is not None and state.extractor == tag(owners[path]):
            run.unchanged += 1
        else:
            to_read.append(path)
    for path, data in source.read(to_read):
        if isinstance(data, Unread):
            run.skipped.append(Skipped(path, data.reason))
            continue
        if isinstance(data, OSError):
            reason = (data.strerror or str(data) or type(data).__name__).lower()
            run.skipped.append(Skipped(path, f"unreadable: {reason}"))
            continue
        if len(data) > max_file_bytes:  # it grew since it was listed
            run.skipped.append(Skipped(path, "oversized (codemap.max_file_bytes)"))
            continue
        made = generated(path, data)
        if made is not None:  # a bundle, compiled output: not the code people wrote
            run.skipped.append(Skipped(path, made))
            run.generated.add(path)
            continue
        flag = marked(data) or ""
        if path.endswith((".py", ".pyi")) or any(p in data for p in _ORM_IMPORTS):
            # (read again for its data facts: codemap.data.collect)
            run.texts[path] = None if path.endswith((".py", ".pyi")) else data
        extractor = owners[path]
        hashed = digest(data)
        state = old.get(path)
        if state is not None and state.digest == hashed and state.extractor == tag(extractor):
            run.unchanged += 1
            run.touched.append((len(data), stamps[path][1], path))
            continue
        cached = cache.raw_facts_by_digest(hashed, tag(extractor)) if cache is not None else None
        if cached is not None:
            interface, body = cached
            run.fresh[path] = Parsed(
                extractor.language,
                hashed,
                len(data),
                tag(extractor),
                None,
                interface,
                body,
                digest(interface),
                flag,
            )
            continue
        pending.append((extractor, path, data))
        flags[path] = flag
    early = _early_data(owners, source)
    for path, result in _parse_all(pending, progress, workers, parse_seconds, early):
        if isinstance(result, str):
            run.skipped.append(Skipped(path, result))
        else:
            result.generated = flags[path]
            if result.early is not None:
                run.early[path], result.early = result.early, None
            run.fresh[path] = result


def _early_data(owners: dict[str, Extractor], source: Source) -> EarlyData | None:
    """Python files' data facts read from the trees their parse makes: with the module names
    the files listed foretell (resolution names them from the files parsed)."""
    python = sorted(p for p, e in owners.items() if e.language == "python")
    return EarlyData(python, source.top_name()) if python else None


def _parse_all(
    items: list[tuple[Extractor, str, bytes]],
    progress: Progress | None,
    workers: int | None,
    seconds: float = math.inf,
    early: EarlyData | None = None,
) -> list[tuple[str, Parsed | str]]:
    count = workers if workers is not None else min(2, os.cpu_count() or 1)
    # Forking is only safe from a process with one thread (the CLI); a server parses in line.
    if count < 2 or len(items) < PARALLEL_FROM or threading.active_count() > 1:
        out = []
        for done, (extractor, path, data) in enumerate(items, start=1):
            out.append((path, _parse_one(extractor, path, data, seconds, early)))
            if progress and done % 25 == 0:
                progress("parsing", done, len(items))
        return out
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    size = max(16, len(items) // (count * 8))
    batches = [items[i : i + size] for i in range(0, len(items), size)]
    results: list[tuple[str, Parsed | str]] = []
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=count, mp_context=context) as pool:
        for batch in pool.map(
            _parse_batch, batches, [seconds] * len(batches), [early] * len(batches)
        ):
            results.extend(batch)
            if progress:
                progress("parsing", len(results), len(items))
    return results
