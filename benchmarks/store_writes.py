"""CPU per document of an ingest's SQLite writes as the store grows, with synthetic documents.

    .venv/bin/python benchmarks/store_writes.py [--documents 200000] [--window 50000]
        [--keys-kept]

Writes ``--documents`` documents of scale.py's shape (1,590 characters, three chunks, each with
a near-duplicate fingerprint; ids hashed from the source) in files of 100, into a new store, in
one transaction inside ``large_cache``, as an ingest does (``Store.put_documents``: the rows, the
change log). Prints the CPU time of this process per document in each window of ``--window``
documents, and that of the commit (where an empty store's id indexes are built, ``index.keys``).
``--keys-kept``: the id indexes kept up row by row instead, as before migration 12 and as an
ingest into a collection that holds documents still does. No lexical index, no chunking: only
what SQLite does.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from groundkit.index import keys
from groundkit.index.rows import NewChunk, NewDocument
from groundkit.index.store import Store

FILE = 100


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def _file(n: int, text: str) -> list[NewDocument]:
    origin = f"/corpus/shard-{n:05}.jsonl"
    out = []
    for i in range(n * FILE, (n + 1) * FILE):
        source = f"{origin}#{i}"
        doc_id = "d" + _digest(source)
        chunks = [
            NewChunk(
                "c" + _digest(f"{doc_id}|{k}"), k * 530, (k + 1) * 530, {}, 1, 1, os.urandom(40)
            )
            for k in range(3)
        ]
        out.append(
            NewDocument(None, doc_id, source, f"shard-{n:05}.jsonl#{i}", origin, str(i), "jsonl",
                        "title", text, _digest(source + "h"), _digest(source + "f"), {}, chunks)
        )  # fmt: skip
    return out


@contextlib.contextmanager
def _kept(conn: object) -> Iterator[None]:
    yield


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--documents", type=int, default=200_000)
    parser.add_argument("--window", type=int, default=50_000)
    parser.add_argument("--keys-kept", action="store_true")
    args = parser.parse_args()
    if args.keys_kept:
        keys.built_at_end = _kept  # type: ignore[assignment]
    rnd = random.Random(1)
    words = [_digest(str(i))[: rnd.randint(3, 9)] for i in range(5000)]
    text = " ".join(rnd.choice(words) for _ in range(260))[:1590]
    folder = Path(tempfile.mkdtemp(prefix="store_writes-"))
    store = Store(folder / "store.sqlite")
    print(f"| documents stored | CPU us/doc ({'keys kept' if args.keys_kept else 'as ingest'}) |")
    print("|---:|---:|")
    spent = 0.0
    try:
        with store.large_cache():
            with store.transaction():
                for n in range(args.documents // FILE):
                    documents = _file(n, text)
                    start = time.process_time()
                    store.put_documents(documents)
                    spent += time.process_time() - start
                    if ((n + 1) * FILE) % args.window == 0:
                        print(f"| {(n + 1) * FILE:,} | {spent / args.window * 1e6:.1f} |")
                        spent = 0.0
                start = time.process_time()
            commit = time.process_time() - start
        print(f"| commit | {commit / args.documents * 1e6:.1f} |")
    finally:
        store.close()
        shutil.rmtree(folder)
    print(f"load average: {'/'.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
