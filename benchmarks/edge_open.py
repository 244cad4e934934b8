"""What opening a `path` collection's shard costs in qdrant-edge, with its lookup indexes laid
out in other ways: copies of one shard, each opened cold by processes of their own.

    .venv/bin/python benchmarks/edge_open.py --shard DIR [--runs 11] [--workdir DIR]
        [--other DIR [--only-made]]

``--shard`` is a shard made by groundkit (``benchmarks/backends_cli.py`` leaves one in
``<workdir>/<hash>/edge-shard``). Copies under ``--workdir``: ``as made``; ``no keyword
indexes`` (``document_id``, ``source``, ``path``, ``external_id`` unindexed); ``one keyword
array`` (those four as one array of prefixed keys, one keyword index); ``hashed keys`` (the same
keys as 63-bit hashes, one integer lookup index); ``chunks' shown nested`` (each chunk's
``source``, ``path`` and ``external_id`` moved under ``shown``, as ``layout.SHOWN`` writes them
since issue 37: only documents are then in those three indexes; from a shard made before, it is
the layout of one made now); with ``--other``, a copy of that shard as made (one made by other
code from the same source, say), and with ``--only-made`` only the two shards as made (no
lookup times). Printed per copy: the median wall and CPU
seconds of ``--runs`` processes that load the shard, run one search and exit without closing
(alternating), then the time to find a document by its source on ``as made`` and on ``no keyword
indexes`` (what the indexes are for).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

_FIELDS = ["document_id", "source", "path", "external_id"]
_SHOWN = ["source", "path", "external_id"]

_OPEN = """
import os, sys, qdrant_edge as e
shard = e.EdgeShard.load(sys.argv[1])
query = e.Query.Nearest(e.SparseVector([1, 2, 3], [1.0, 1.0, 1.0]), using="bm25")
shard.query(e.QueryRequest(limit=10, query=query, with_payload=True))
os._exit(0)  # no close: what a command that only read pays (backends/qdrant/edge.py)
"""


def _keys(payload: dict[str, Any], hashed: bool) -> list[Any]:
    keys = [f"{f[0]}:{payload[f]}" for f in _FIELDS if payload.get(f) is not None]
    if not hashed:
        return keys
    return [int.from_bytes(hashlib.blake2b(k.encode(), digest_size=8).digest()) >> 1 for k in keys]


def _relaid(folder: Path, keys: str | None) -> None:
    """Drop the four keyword indexes; with ``keys`` ("text" or "hashed"), index them as one."""
    import qdrant_edge as e

    shard = e.EdgeShard.load(str(folder))
    for field in _FIELDS:
        shard.update(e.UpdateOperation.delete_field_index(field))
    if keys is not None:
        after = None
        while True:
            request = e.ScrollRequest(offset=after, limit=1000, with_payload=_FIELDS)
            records, after = shard.scroll(request)
            for r in records:
                found = _keys(dict(r.payload or {}), keys == "hashed")
                if found:
                    shard.update(e.UpdateOperation.set_payload([r.id], {"keys": found}))
            if after is None:
                break
        kind = e.PayloadSchemaType.Keyword
        if keys == "hashed":
            kind = e.IntegerIndexParams(lookup=True, range=False)
        shard.update(e.UpdateOperation.create_field_index("keys", kind))
    shard.close()


def _nested(folder: Path) -> None:
    """Move each chunk's shown fields under ``shown`` (a shard made before ``layout.SHOWN``)."""
    import qdrant_edge as e

    shard = e.EdgeShard.load(str(folder))
    chunks = e.Filter(must=[e.FieldCondition(key="kind", match=e.MatchValue("chunk"))])
    after = None
    while True:
        request = e.ScrollRequest(offset=after, limit=1000, filter=chunks, with_payload=_SHOWN)
        records, after = shard.scroll(request)
        for r in records:
            payload = dict(r.payload or {})
            if payload:
                shown = {f: payload.get(f) for f in _SHOWN}
                shard.update(e.UpdateOperation.set_payload([r.id], {"shown": shown}))
        if after is None:
            break
    shard.update(e.UpdateOperation.delete_payload_by_filter(chunks, _SHOWN))
    shard.close()


def _lookup_ms(folder: Path) -> tuple[float, float]:
    """The first and the median of five searches for one document by its source (ms)."""
    import qdrant_edge as e

    shard = e.EdgeShard.load(str(folder))
    try:
        is_doc = e.Filter(must=[e.FieldCondition(key="kind", match=e.MatchValue("doc"))])
        records, _ = shard.scroll(e.ScrollRequest(limit=1, filter=is_doc, with_payload=True))
        source = dict(records[0].payload or {})["source"]
        by_source = e.Filter(must=[e.FieldCondition(key="source", match=e.MatchValue(source))])
        took = []
        for _ in range(5):
            t0 = time.perf_counter()
            shard.scroll(e.ScrollRequest(limit=10, filter=by_source, with_payload=True))
            took.append((time.perf_counter() - t0) * 1000)
        return took[0], statistics.median(took)
    finally:
        shard.close()


def _cold(folder: Path) -> tuple[float, float]:
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", _OPEN, str(folder)])
    _pid, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        raise SystemExit(f"opening {folder} failed ({status})")
    return time.perf_counter() - t0, usage.ru_utime + usage.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--shard", type=Path, required=True)
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--workdir", type=Path, default=Path("benchmarks/.work/edge_open"))
    ap.add_argument("--other", type=Path, help="another shard, opened as made beside")
    ap.add_argument("--only-made", action="store_true", help="only the shards as made")
    a = ap.parse_args()
    layouts = {
        "as made": None,
        "no keyword indexes": "none",
        "one keyword array": "text",
        "hashed keys": "hashed",
        "chunks' shown nested": "nested",
    }
    if a.only_made:
        layouts = {"as made": None}
    if a.other is not None:
        layouts["other shard, as made"] = "other"
    copies = {}
    for name, keys in layouts.items():
        folder = a.workdir.resolve() / name.replace(" ", "-").replace("'", "").replace(",", "")
        shutil.rmtree(folder, ignore_errors=True)
        folder.parent.mkdir(parents=True, exist_ok=True)
        # cp keeps the files' holes (shutil.copytree fills them: opening such a copy cost twice
        # the CPU, every page of the 32 MB stores being real).
        shard = a.other if keys == "other" else a.shard
        subprocess.run(["cp", "-a", str(shard), str(folder)], check=True)
        if keys == "nested":
            _nested(folder)
        elif keys in ("none", "text", "hashed"):
            _relaid(folder, None if keys == "none" else keys)
        copies[name] = folder
        _cold(folder)  # untimed: settles what the copy's last write left
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in copies}
    load = os.getloadavg()[0]
    for _ in range(a.runs):
        for name, folder in copies.items():
            times[name].append(_cold(folder))
    print(f"{a.runs} cold opens each, alternating; load {load:.1f} before")
    print(f"{os.getloadavg()[0]:.1f} after")
    print("| layout | median wall s | median CPU s |")
    print("|---|---:|---:|")
    for name, runs in times.items():
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        print(f"| {name} | {wall:.3f} | {cpu:.3f} |")
    looked_up = ("as made", "no keyword indexes", "other shard, as made")
    for name in [n for n in looked_up if n in copies]:
        first, median = _lookup_ms(copies[name])
        print(f"{name}: a document by its source in {median:.1f} ms (the first {first:.1f} ms)")


if __name__ == "__main__":
    main()
