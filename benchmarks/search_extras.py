"""What folding near-duplicates and re-locating cited spans cost, and how often folding is wrong.

    .venv/bin/python benchmarks/search_extras.py [--scifact ../shared/data/scifact]
        [--workdir benchmarks/.work/extras] [--queries 300] [--repeat 5]

1. SciFact (5,183 distinct abstracts, one chunk or a few each) is ingested, lexical only, once
   per work dir. For the first ``--queries`` queries:
   - the false-fold rate: the top 100 hits with folding off, every pair of them put to the
     near-duplicate test; a folded pair of distinct abstracts is a false fold. Pairs whose texts
     share at least half their 3-grams are printed, so a person can judge them;
   - the cost of the test alone: fingerprinting the top 100 texts and walking them through
     ``Folding`` (median per query);
   - BM25 top-10 latency with ``collapse`` on and off, interleaved query by query (the machine
     is shared: the ratio, measured in one run, is the figure to quote), median and p95 of
     ``--repeat`` passes.
2. Span re-location: the samples in ``docs/samples`` (Markdown, HTML, PDF) and a 1 MB Markdown
   file made of SciFact abstracts are ingested; then ``Collection.show`` is timed for every
   chunk (a) with the source unchanged (its bytes are hashed, nothing is parsed) and (b) after
   an edit at the top of the file that shifts every span (the file is loaded again as at
   ingest, then the span is searched where it was, near there, anywhere). Medians in ms.

``--latency-only`` times BM25 top-10 ``Collection.search`` with the default settings alone, so
that another revision can be timed on the same collection: run it with
``PYTHONPATH=<a checkout of that revision>/src``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import shutil
import statistics
import time
from pathlib import Path

import groundkit

REPO = Path(__file__).resolve().parent.parent


def load_queries(root: Path, limit: int) -> list[str]:
    with (root / "queries.jsonl").open(encoding="utf-8") as fh:
        return [json.loads(line)["text"] for line in itertools.islice(fh, limit)]


def scifact_collection(root: Path, work: Path) -> groundkit.Collection:
    index = work / "index"
    if not (index / "scifact" / "store.sqlite").is_file():
        with groundkit.open_collection("scifact", index_dir=index) as coll:
            coll.ingest([str(root / "corpus.jsonl")])
    return groundkit.open_collection("scifact", index_dir=index, create=False)


def false_folds(coll: groundkit.Collection, queries: list[str]) -> dict[str, object]:
    # Here, not at the top: --latency-only also runs on revisions without this module.
    from groundkit.retrieve.duplicates import Folding, fingerprint, near_duplicates

    pairs = folded = 0
    shown: list[tuple[float, str, str]] = []
    shown_folds: list[tuple[str, str, str, str]] = []
    costs: list[float] = []
    seen: set[tuple[str, str]] = set()
    for query in queries:
        hits = coll.search(query, top_k=100, mode="bm25", collapse=False)
        texts = [h.text for h in hits]
        began = time.perf_counter()
        folding = Folding()
        for text in texts:
            folding.place(fingerprint(text))
        costs.append((time.perf_counter() - began) * 1000)
        prints = [fingerprint(t) for t in texts]
        for (i, a), (j, b) in itertools.combinations(enumerate(prints), 2):
            pairs += 1
            key = tuple(sorted((hits[i].citation.chunk_id, hits[j].citation.chunk_id)))
            small = min(len(a.shingles), len(b.shingles)) or 1
            overlap = len(a.shingles & b.shingles) / small
            if near_duplicates(a, b):
                folded += 1
                if key not in seen:
                    pair = (hits[i].text[:70], hits[j].text[:70])
                    shown_folds.append((hits[i].citation.source, hits[j].citation.source, *pair))
            if (
                overlap >= 0.5
                and key not in seen
                and hits[i].citation.document_id != hits[j].citation.document_id
            ):
                seen.add(key)  # type: ignore[arg-type]
                shown.append((overlap, hits[i].citation.source, hits[j].citation.source))
    return {
        "pairs": pairs,
        "folded": folded,
        "cost_ms": statistics.median(costs),
        "close": shown,
        "folds": shown_folds,
    }


def latency(coll: groundkit.Collection, queries: list[str], repeat: int) -> dict[str, float]:
    on: list[float] = []
    off: list[float] = []
    for query in queries[:20]:  # warm up both paths
        coll.search(query, mode="bm25", collapse=True)
        coll.search(query, mode="bm25", collapse=False)
    for _ in range(repeat):
        for query in queries:
            for collapse, into in ((True, on), (False, off)):
                began = time.perf_counter()
                coll.search(query, mode="bm25", top_k=10, collapse=collapse)
                into.append((time.perf_counter() - began) * 1000)
    return {
        "on_p50": statistics.median(on),
        "off_p50": statistics.median(off),
        "on_p95": statistics.quantiles(on, n=20)[18],
        "off_p95": statistics.quantiles(off, n=20)[18],
    }


def default_latency(coll: groundkit.Collection, queries: list[str], repeat: int) -> None:
    times: list[float] = []
    for query in queries[:20]:
        coll.search(query, mode="bm25")
    for _ in range(repeat):
        for query in queries:
            began = time.perf_counter()
            coll.search(query, mode="bm25", top_k=10)
            times.append((time.perf_counter() - began) * 1000)
    p95 = statistics.quantiles(times, n=20)[18]
    print(f"{groundkit.__file__}: BM25 top-10 p50 {statistics.median(times):.2f} ms, p95 {p95:.2f}")


def relocation(root: Path, work: Path) -> list[tuple[str, int, float, float]]:
    files = work / "files"
    shutil.rmtree(files, ignore_errors=True)
    files.mkdir(parents=True)
    samples = REPO / "docs" / "samples"
    for name in ("getting-started.md", "architecture.html", "ingest-formats.pdf"):
        shutil.copy(samples / name, files / name)
    big = []
    with (root / "corpus.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            record = json.loads(line)
            big.append(f"## {record.get('title') or record['_id']}\n\n{record['text']}\n")
            if sum(map(len, big)) > 1_000_000:
                break
    (files / "abstracts.md").write_text("# Abstracts\n\n" + "\n".join(big), encoding="utf-8")
    index = work / "reloc-index"
    shutil.rmtree(index, ignore_errors=True)
    rows = []
    with groundkit.open_collection("r", index_dir=index) as coll:
        coll.ingest([str(files)])
        by_source: dict[str, list[str]] = {}
        for chunk in coll.chunks():
            by_source.setdefault(chunk.document_id, []).append(chunk.chunk_id)
        for document in coll.documents():
            chunks = by_source[document.document_id]
            if len(chunks) > 60:  # the big file: a spread of chunks is enough
                chunks = chunks[:: len(chunks) // 60]
            path = Path(document.location)
            same = [_timed_show(coll, c, "verified") for c in chunks]
            original = path.read_bytes()
            _edit_top(path)
            edited = [_timed_show(coll, c, "verified") for c in chunks]
            path.write_bytes(original)
            rows.append(
                (document.source, len(chunks), statistics.median(same), statistics.median(edited))
            )
    return rows


def _timed_show(coll: groundkit.Collection, chunk_id: str, expect: str) -> float:
    began = time.perf_counter()
    found = coll.show(chunk_id)
    took = (time.perf_counter() - began) * 1000
    if found.verification not in (expect, "drifted"):
        raise SystemExit(f"{chunk_id}: {found.verification}")
    return took


def _edit_top(path: Path) -> None:
    """An edit far from most cited spans: a sentence added at the top (for a PDF, an extra first
    page would need a PDF writer; its bytes are rewritten with a changed trailer comment, which
    changes the hash and makes the text be extracted again)."""
    data = path.read_bytes()
    if path.suffix == ".pdf":
        path.write_bytes(data + b"\n% edited\n")
    elif path.suffix == ".html":
        path.write_bytes(data.replace(b"<body>", b"<body><p>A sentence added at the top.</p>", 1))
    else:
        path.write_bytes(b"A sentence added at the top.\n\n" + data)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scifact", type=Path, default=REPO.parent / "shared/data/scifact")
    parser.add_argument("--workdir", type=Path, default=REPO / "benchmarks/.work/extras")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--latency-only", action="store_true")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    queries = load_queries(args.scifact, args.queries)
    if args.latency_only:
        with scifact_collection(args.scifact, args.workdir) as coll:
            default_latency(coll, queries, args.repeat)
        return 0

    with scifact_collection(args.scifact, args.workdir) as coll:
        folds = false_folds(coll, queries)
        times = latency(coll, queries, args.repeat)
    from groundkit.retrieve.duplicates import MIN_SHINGLES, THRESHOLD

    print(
        f"SciFact, {len(queries)} queries, top 100 with folding off"
        f" (threshold {THRESHOLD}, at least {MIN_SHINGLES} 3-grams)"
    )
    print("| pairs tested | folded | false-fold rate | fold test per query (p50) |")
    print("|---:|---:|---:|---:|")
    rate = folds["folded"] / folds["pairs"]  # type: ignore[operator]
    print(f"| {folds['pairs']:,} | {folds['folded']} | {rate:.2e} | {folds['cost_ms']:.2f} ms |")
    print("\nFolded pairs (sources, first words):")
    for a, b, text_a, text_b in folds["folds"]:  # type: ignore[attr-defined]
        print(f"  {a}  {b}\n    {text_a!r}\n    {text_b!r}")
    print("\nPairs of different documents sharing at least half their 3-grams (overlap, sources):")
    for overlap, a, b in sorted(folds["close"], reverse=True)[:10]:  # type: ignore[call-overload]
        print(f"  {overlap:.2f}  {a}  {b}")
    print("\nBM25 top-10 latency (ms), collapse on vs off, interleaved")
    print("| | p50 | p95 |\n|---|---:|---:|")
    print(f"| collapse on | {times['on_p50']:.2f} | {times['on_p95']:.2f} |")
    print(f"| collapse off | {times['off_p50']:.2f} | {times['off_p95']:.2f} |")
    print(
        f"| ratio on/off | {times['on_p50'] / times['off_p50']:.2f} | "
        f"{times['on_p95'] / times['off_p95']:.2f} |"
    )

    print("\nCollection.show (ms, median per chunk): source unchanged vs edited at the top")
    print("| source | chunks | unchanged | edited (re-read + re-located) |\n|---|---:|---:|---:|")
    for source, chunks, same, edited in relocation(args.scifact, args.workdir):
        print(f"| {source} | {chunks} | {same:.2f} | {edited:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
