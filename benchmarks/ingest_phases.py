"""Where an ingest's CPU goes, phase by phase, at one or more sizes of scale.py's corpus.

    .venv/bin/python benchmarks/ingest_phases.py [--sizes 25000,500000] [--workdir DIR]
    .venv/bin/python benchmarks/ingest_phases.py --folder PATH    # any folder instead
    .venv/bin/python benchmarks/ingest_phases.py --helpers 2      # the parallel path

Builds ``scale.py``'s synthetic corpus (fixed seed) at each size, ingests it into a fresh
collection in this one process (``ingest.helpers = 0``, so that every phase runs here), and
prints the process CPU time per document of the whole ingest (every thread), and the CPU time
of this thread in the calls of each phase: loading the records, chunking, fingerprinting,
``Store.put_documents`` (the SQLite writes, and the feed of the lexical index they call: the
texts to index and ``add_document``), and the lexical index's commit after the store's (and a
catch-up from the store, when the feed stood aside), and the near-duplicate join run over every
stored fingerprint after the store (``retrieve.near``; run on this thread while tantivy commits
on another, so the commit's row includes it). What this thread did not spend is the
threads tantivy indexes on, running beside it (``index.feed``). The collection is deleted
after each size; the corpus is kept in the work dir. ``--folder`` ingests that folder instead
(counted per document stored), and also prints the ten files that took longest to read.

``--helpers N`` ingests with N helper processes (``ingest.helpers = N``) instead: the rows then
split the CPU between the writer (its main thread, and its other threads: tantivy's, and those
that read the helpers' answers, ``receive``) and the helpers, each of which times its own phases
(a ``sitecustomize`` this script writes into the work dir and puts on the path the helpers are
started with) and writes them to a file at its exit. Making files in a helper is then rows
``helpers:``; the writer's ``loading`` / ``chunking`` / ``fingerprinting`` are the files it made
itself (before the helpers started, or left by one).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import groundkit
import scale
from groundkit.index import feed, lexical, store
from groundkit.pipeline import documents, helpers
from groundkit.retrieve import near

PHASES: list[tuple[Any, str, str]] = [
    (documents, "load", "loading"),
    (documents, "chunk_text", "chunking"),
    (documents, "stored_fingerprints", "fingerprinting"),
    (store.Store, "put_documents", "SQLite writes (put_documents, with the feed)"),
    (feed.LexicalFeed, "put", "  of which the feed of the lexical index"),
    # The near-duplicate join runs inside it, while tantivy commits on another thread.
    (feed.LexicalFeed, "finish", "lexical index commit (with the join below)"),
    (lexical.LexicalIndex, "_write", "lexical index caught up from the store"),
    (near.NearIndex, "rebuild", "near-duplicate join (after the store)"),
]
# Timed in the writer only with --helpers: its side of the pipes.
WRITER_PIPES: list[tuple[Any, str, str]] = [
    (helpers, "send", "  tasks sent to helpers"),
    (helpers, "receive", "  answers read from helpers (other threads)"),
]
# Timed in each helper process (``_HOOK``), as "helpers: <label>".
HELPER_PHASES = [
    ("groundkit.pipeline.helpers", "prepare_file", "making files"),
    ("groundkit.pipeline.documents", "load", "  loading"),
    ("groundkit.pipeline.documents", "chunk_text", "  chunking"),
    ("groundkit.pipeline.documents", "stored_fingerprints", "  fingerprinting"),
    ("groundkit.pipeline.helpers", "send", "answers sent"),
    ("groundkit.pipeline.helpers", "receive", "tasks read"),
]
_HOOK = """import os
if os.environ.get("GK_HELPER_PHASES"):
    import atexit, collections, importlib, json, resource, time
    spent = collections.Counter()
    def _wrap(module, name, label):
        module = importlib.import_module(module)
        call = getattr(module, name)
        def timed(*args, **kwargs):
            start = time.thread_time()
            try:
                return call(*args, **kwargs)
            finally:
                spent[label] += time.thread_time() - start
        setattr(module, name, timed)
    for _module, _name, _label in json.loads(os.environ["GK_HELPER_PHASES_LIST"]):
        _wrap(_module, _name, _label)
    def _dump():
        used = resource.getrusage(resource.RUSAGE_SELF)
        spent["whole process"] = used.ru_utime + used.ru_stime
        path = os.path.join(os.environ["GK_HELPER_PHASES"], f"{os.getpid()}.json")
        with open(path, "w") as fh:
            json.dump(spent, fh)
    atexit.register(_dump)
"""


def timed(spent: collections.Counter[str], label: str, call: Callable[..., Any]) -> Any:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.thread_time()
        try:
            return call(*args, **kwargs)
        finally:
            spent[label] += time.thread_time() - start

    return wrapper


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="25000,500000")
    parser.add_argument("--workdir", help="[default: a temporary folder]")
    parser.add_argument("--scifact", default=str(scale.REPO.parent / "shared" / "data" / "scifact"))
    parser.add_argument("--folder", help="ingest this folder instead of the synthetic corpus")
    parser.add_argument("--helpers", type=int, default=0, help="helper processes [default: 0]")
    args = parser.parse_args()
    work = Path(args.workdir or tempfile.mkdtemp(prefix="ingest-phases-"))
    spent: collections.Counter[str] = collections.Counter()
    for owner, name, label in PHASES + (WRITER_PIPES if args.helpers else []):
        setattr(owner, name, timed(spent, label, getattr(owner, name)))
    defaults = groundkit.Settings()
    alone = defaults.replace(ingest=defaults.ingest.replace(helpers=args.helpers))
    answers = work / "helper-phases"
    if args.helpers:
        # The helpers start with this process's sys.path as their PYTHONPATH: the hook's folder
        # first, so that their interpreter imports its sitecustomize.
        hook = work / "hook"
        hook.mkdir(parents=True, exist_ok=True)
        (hook / "sitecustomize.py").write_text(_HOOK)
        sys.path.insert(0, str(hook))
        os.environ["GK_HELPER_PHASES"] = str(answers)
        os.environ["GK_HELPER_PHASES_LIST"] = json.dumps(HELPER_PHASES)
    slowest: list[tuple[float, str]] = []
    documents.prepare = _noting(slowest, documents.prepare)
    if args.folder:
        corpora = [Path(args.folder)]
        what = args.folder
    else:
        pool = scale.sentences(Path(args.scifact))
        corpora = []
        for n in (int(s) for s in args.sizes.split(",")):
            corpora.append(work / f"corpus-{n}")
            scale.build_corpus(pool, n, corpora[-1])
        what = "scale.py corpus"
    first = "whole ingest, every thread" + (", helpers' included" if args.helpers else "")
    rows: dict[str, list[float]] = {first: [], "this thread": []}
    counts = []
    for corpus in corpora:
        index = work / "index"
        shutil.rmtree(index, ignore_errors=True)
        shutil.rmtree(answers, ignore_errors=True)
        answers.mkdir(parents=True, exist_ok=True)
        spent.clear()
        with groundkit.open_collection("p", index_dir=index, settings=alone) as coll:
            start, mine, kids = time.process_time(), time.thread_time(), _children()
            report = coll.ingest([str(corpus)])
            used, mine = time.process_time() - start, time.thread_time() - mine
            kids = _children() - kids  # the helpers, ended and waited for by the ingest
        n = report.new + report.changed
        counts.append(n)
        rows[first].append((used + kids) / n * 1e6)
        rows["this thread"].append(mine / n * 1e6)
        for _owner, _name, label in PHASES + (WRITER_PIPES if args.helpers else []):
            rows.setdefault(label, []).append(spent[label] / n * 1e6)
        if args.helpers:
            rows.setdefault("writer, every thread", []).append(used / n * 1e6)
            theirs: collections.Counter[str] = collections.Counter()
            for answer in answers.glob("*.json"):
                theirs.update(json.loads(answer.read_text()))
            for label in ["whole process", *(label for *_, label in HELPER_PHASES)]:
                rows.setdefault(f"helpers: {label}", []).append(theirs[label] / n * 1e6)
        shutil.rmtree(index, ignore_errors=True)
    how = f"{args.helpers} helper processes" if args.helpers else "one process"
    print(f"CPU us per document, {how} ({what}, load average {scale.load()})\n")
    print("| phase | " + " | ".join(f"{n:,} docs" for n in counts) + " |")
    print("|---|" + "---:|" * len(counts))
    for label, values in rows.items():
        print(f"| {label} | " + " | ".join(f"{v:.0f}" for v in values) + " |")
    if args.folder:
        print("\nslowest files to read, load, chunk and fingerprint (CPU s):")
        for used, origin in sorted(slowest, reverse=True)[:10]:
            print(f"  {used:6.2f}  {origin}")
    return 0


def _children() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _noting(slowest: list[tuple[float, str]], prepare: Callable[..., Any]) -> Callable[..., Any]:
    def noted(read: Any, origin: str, *rest: Any) -> Any:
        start = time.thread_time()
        try:
            return prepare(read, origin, *rest)
        finally:
            slowest.append((time.thread_time() - start, origin))

    return noted


if __name__ == "__main__":
    sys.exit(main())
