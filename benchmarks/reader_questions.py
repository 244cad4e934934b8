"""Does the extract name what search already found? Real questions over real projects' docs.

    # the documents, once, from the commits benchmarks/labels/readers.json names:
    git --git-dir=MIRROR/psf+requests/repo archive COMMIT docs | tar -x -C /tmp/d35/requests
    ...                                   (one folder per corpus, holding the paths it names)
    .venv/bin/python benchmarks/reader_questions.py --root /tmp/d35 --workdir /tmp/d35-index
    .venv/bin/python benchmarks/reader_questions.py --root /tmp/d35 --workdir /tmp/d35-index \
        --time 3 --show r02,s01,x08

Each corpus is ingested with vectors (``--dense``) into its own collection under ``--workdir``
(kept between runs: delete it to ingest again). Each question of ``--labels`` is then asked of
its corpus as ``grk answer`` asks with AI off: hybrid retrieval, 10 passages, the extracted
answer. A question counts as *named* by a system when a text it shows holds one of the
question's ``needs`` (case and runs of whitespace folded): for search's top 3, the three hits'
texts; for the extract, the cited text of each extracted sentence (with the code block it brings,
when it brings one). The target (issue 35): the extract names it for at least 85% of the
questions where search's top 3 does.

``--time N`` also times, in fresh processes (a one-off command each, as a user runs it),
``grk answer Q`` against ``grk search Q --mode hybrid`` for every question, N rounds, the two
commands in turn; it prints the median seconds of each and the median of the per-question
ratios. ``--show IDS`` prints those questions' ``grk answer`` output verbatim.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from groundkit.answer.report import AIState, AIStatus
from groundkit.answer.service import answer_question
from groundkit.answer.shown import ShownSentences
from groundkit.collection import open_collection
from groundkit.config import Settings

GRK = str(Path(sys.executable).with_name("grk"))


def _fold(text: str) -> str:
    return " ".join(text.casefold().split())


def _names(texts: list[str], needs: list[str]) -> bool:
    folded = [_fold(t) for t in texts]
    return any(_fold(n) in t for n in needs for t in folded)


def _ingest(settings: Settings, root: Path, corpus: str, paths: list[str]) -> None:
    where = settings.replace(collection=corpus)
    marker = Path(settings.index_dir) / f".{corpus}.done"
    if marker.exists():
        return
    t0 = time.perf_counter()
    with open_collection(settings=where, create=True) as collection:
        split = ShownSentences(settings.answer.min_quote_chars)  # as `grk ingest` stores them
        collection.ingest([root / corpus / p for p in paths], dense=True, sentences=split)
    marker.write_text(f"{time.perf_counter() - t0:.1f}\n")
    print(f"ingested {corpus} in {time.perf_counter() - t0:.1f} s", file=sys.stderr)


def _score(settings: Settings, questions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    off = AIStatus(AIState.DISABLED)
    rows = []
    by_corpus: dict[str, list[dict[str, Any]]] = {}
    for q in questions:
        by_corpus.setdefault(q["corpus"], []).append(q)
    for corpus, asked in by_corpus.items():
        with open_collection(settings=settings.replace(collection=corpus)) as collection:
            for q in asked:
                hits = collection.search(q["question"], top_k=3)
                report = answer_question(collection, q["question"], off)
                shown = (
                    [c.cited_text for c in report.extracted.citations] if report.extracted else []
                )
                rows.append(
                    {
                        "id": q["id"],
                        "search_top3": _names([h.text for h in hits], q["needs"]),
                        "extract": _names(shown, q["needs"]),
                        "expect": q.get("expect", "pass"),
                        "kind": q.get("kind", "how-to"),
                    }
                )
    return rows


def timed(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system, all threads) of one fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(args, env=env, check=True, capture_output=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def _times(workdir: Path, questions: list[dict[str, Any]], rounds: int) -> None:
    env = {**os.environ, "NO_COLOR": "1"}
    answer: dict[str, list[tuple[float, float]]] = {}
    search: dict[str, list[tuple[float, float]]] = {}
    load = os.getloadavg()[0]
    for _ in range(rounds):
        for q in questions:
            base = [GRK, "--index-dir", str(workdir), "-c", q["corpus"]]
            search.setdefault(q["id"], []).append(
                timed([*base, "search", q["question"], "--mode", "hybrid"], env)
            )
            answer.setdefault(q["id"], []).append(timed([*base, "answer", q["question"]], env))
    after = os.getloadavg()[0]
    print(f"\ncold processes, {len(questions)} questions x {rounds} rounds,"
          f" load {load:.1f} -> {after:.1f}")  # fmt: skip
    print("measure\tgrk search --mode hybrid\tgrk answer\tanswer / search:"
          " median of per-question ratios (max)")  # fmt: skip
    for k, what in ((0, "wall s"), (1, "CPU s")):
        s_med = {i: statistics.median(x[k] for x in v) for i, v in search.items()}
        a_med = {i: statistics.median(x[k] for x in v) for i, v in answer.items()}
        ratios = [a_med[i] / s_med[i] for i in a_med]
        print(f"{what}\t{statistics.median(s_med.values()):.2f}\t"
              f"{statistics.median(a_med.values()):.2f}\t"
              f"{statistics.median(ratios):.2f} ({max(ratios):.2f})")  # fmt: skip


def _show(workdir: Path, questions: list[dict[str, Any]], ids: list[str]) -> None:
    env = {**os.environ, "NO_COLOR": "1"}
    for q in questions:
        if q["id"] in ids:
            base = [GRK, "--index-dir", str(workdir), "-c", q["corpus"]]
            out = subprocess.run([*base, "answer", q["question"]], env=env, check=True,
                                 capture_output=True, text=True).stdout  # fmt: skip
            print(f"\n$ grk -c {q['corpus']} answer {json.dumps(q['question'])}\n{out}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--labels", default="benchmarks/labels/readers.json")
    parser.add_argument("--root", required=True, help="a folder per corpus, holding its paths")
    parser.add_argument("--workdir", required=True, help="where the collections are kept")
    parser.add_argument("--time", type=int, default=0, help="rounds of cold-process timing")
    parser.add_argument("--show", default="", help="question ids whose answer to print")
    parser.add_argument("--only", default="", help="ask these corpora only (comma-separated)")
    args = parser.parse_args()
    labels = json.loads(Path(args.labels).read_text(encoding="utf-8"))
    only = set(filter(None, args.only.split(",")))
    questions = [q for q in labels["questions"] if not only or q["corpus"] in only]
    workdir = Path(args.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    settings = Settings().replace(index_dir=str(workdir))
    for corpus, source in labels["sources"].items():
        if not only or corpus in only:
            _ingest(settings, Path(args.root), corpus, source["paths"])
    rows = _score(settings, questions)
    print("id\tsearch top 3\textract\texpected")
    for r in rows:
        print(f"{r['id']}\t{'yes' if r['search_top3'] else 'no'}\t{'yes' if r['extract'] else 'no'}"
              f"\t{r['expect']}")  # fmt: skip
    found = [r for r in rows if r["search_top3"]]
    named = [r for r in found if r["extract"]]
    print(f"\nquestions: {len(rows)}; search's top 3 names it: {len(found)}; the extract names it:"
          f" {sum(r['extract'] for r in rows)}, of those search found: {len(named)}"
          f" ({len(named) / max(len(found), 1):.0%}; target 85%)")  # fmt: skip
    if args.show:
        _show(workdir, questions, args.show.split(","))
    if args.time:
        _times(workdir, questions, args.time)
    return 0


if __name__ == "__main__":
    sys.exit(main())
