"""Where a mapping run's data facts come from: each Python file parsed in this run has its models
and accesses read from the tree its parse made (``early.py``; the syntax is all it takes), and
one resolved again with other nodes than foreseen is read once more; TypeScript files report
their accesses while they are resolved (``extract/typescript/web``) and are read once more for
the models they declare (only those importing an ORM: ``typescript.py``); schema files the map
does not parse as code (``schema.prisma``) are read on every run, being few and small."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

from groundkit.codemap.data import Data, dump_data, load_data
from groundkit.codemap.data.early import Early, reuse
from groundkit.codemap.data.prisma import prisma_data
from groundkit.codemap.data.python import python_data
from groundkit.codemap.data.resources import ReadFile
from groundkit.codemap.data.typescript import (
    SYNTAX_PROVENANCES,
    typeorm_configured,
    typescript_data,
)
from groundkit.codemap.extract.base import FileGraph
from groundkit.codemap.lines import decode
from groundkit.codemap.sources import Source

__all__ = ["collect_data", "load_schemas", "read_schemas", "schema_files"]


def collect_data(
    graphs: Mapping[str, tuple[FileGraph, object]],
    texts: Mapping[str, bytes | None],
    before: Mapping[str, str],
    source: Source | None = None,
    early: Mapping[str, Early | None] | None = None,
) -> dict[str, list[str]]:
    """Each resolved file's data facts read from its syntax: from its text when it was read in
    this run, else what the map held (its text, and so those facts, did not change). Of what
    a TypeScript file held, the accesses its resolution finds are made again: only its models
    and the accesses read from its syntax are taken (its counts of what stayed unresolved go
    with the others). Returns, for each Python file read in this run, the other files its facts
    were read from (a resource's SQL). ``early``: Python files' facts read at parse time from
    the tree that parse made (``early.py``), taken when resolution made the nodes foreseen.
    ``texts``: the files read in this run; a Python file's text may be None (let go after its
    parse, as most are foreseen): read again from ``source`` when it is needed."""
    reads: dict[str, list[str]] = {}
    foreseen: dict[str, Data | None] = {}
    for path, (graph, _) in graphs.items():
        if path in texts and path.endswith((".py", ".pyi")):
            foreseen[path] = reuse(early.get(path), graph.nodes) if early else None
    again = _read_again(source, [p for p, f in foreseen.items() if f is None and not texts[p]])
    for path, (graph, _) in graphs.items():
        python = path.endswith((".py", ".pyi"))
        raw = texts.get(path) or again.get(path)
        if path not in texts or (raw is None and foreseen.get(path) is None):
            found = _held(path, before)
        elif python:
            opened = reads.setdefault(path, [])
            found_early = foreseen.get(path)
            if found_early is None:
                assert raw is not None
                found_early = python_data(path, decode(raw), graph.nodes, _reader(source, opened))
            found = found_early
        else:
            assert raw is not None
            found = typescript_data(path, decode(raw), graph.nodes)
        if not python and path not in texts:
            kept = [a for a in found.accesses if a.provenance in SYNTAX_PROVENANCES]
            found.accesses[:] = kept
            found.unresolved.clear()
        graph.data.extend(found)
    return reads


def _read_again(source: Source | None, paths: list[str]) -> dict[str, bytes]:
    """The texts of files read earlier in this run and let go, in one read (a revision's
    files come from one ``git cat-file``)."""
    if source is None or not paths:
        return {}
    return {path: raw for path, raw in source.read(paths) if isinstance(raw, bytes)}


def _reader(source: Source | None, opened: list[str]) -> ReadFile | None:
    """Another file's text by its path, for a file whose facts name it (a resource's SQL);
    each path read is put in ``opened``."""
    if source is None:
        return None

    def read(path: str) -> str | None:
        for _, raw in source.read([path]):
            if not isinstance(raw, bytes):
                return None
            opened.append(path)
            return decode(raw)
        return None

    return read


def _held(path: str, before: Mapping[str, str]) -> Data:
    found = Data()
    held = json.loads(before[path]) if before.get(path) else {}
    if "data" in held:
        load_data(held["data"], found)
    return found


def schema_files(passed_over: Iterable[str]) -> dict[str, str]:
    """Of the files no extractor parses, those ``read_schemas`` reads, each with what it is."""
    paths = list(passed_over)
    kinds = {p: "a Prisma schema" for p in paths if p.endswith(".prisma")}
    return {**kinds, **{p: "ORM settings" for p in paths if _orm_settings(p)}}


def read_schemas(passed_over: Iterable[str], source: Source) -> str:
    """Every ``schema.prisma``'s data facts, and whether a TypeORM configuration file
    (``ormconfig.json``, ``.yml``, ``.env``...) or an ``.env`` file configures table naming,
    as JSON ('' for none)."""
    paths = sorted(schema_files(passed_over))
    if not paths:
        return ""
    out = {}
    for path, raw in source.read(paths):
        if not isinstance(raw, bytes):  # one unreadable is left out (the map says so elsewhere)
            continue
        if path.endswith(".prisma"):
            out[path] = dump_data(prisma_data(path, decode(raw)))
        elif typeorm_configured(decode(raw)):
            out[path] = dump_data(Data(configured={"typeorm"}))
    return json.dumps(out, sort_keys=True, separators=(",", ":")) if out else ""


def _orm_settings(path: str) -> bool:
    name = path.rpartition("/")[2]
    return name.startswith("ormconfig.") or name == ".env" or name.startswith(".env.")


def load_schemas(text: str) -> Data:
    data = Data()
    for raw in json.loads(text).values() if text else ():
        load_data(raw, data)
    return data
