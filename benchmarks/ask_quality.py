"""`grk ask` on groundkit's own repository: 20 architecture questions, the offline model.

    .venv/bin/python benchmarks/ask_quality.py                    # map this checkout, ask all 20
    .venv/bin/python benchmarks/ask_quality.py --repo PATH --limit 5 --show 3 --json out.json

The repository is mapped into a scratch index (as `grk map .` would), then each question goes
through the real `grk ask` path (``answer.service.ask_code``: the symbol's trace and/or blast
edges in order, the bundle, one call under the quote-constrained schema, ``validate_answer``)
with SmolLM2-135M in process (the ``llamacpp`` provider; ``--model`` takes another .gguf).
Prints one row per question (outcome, edges sent, citations, seconds), the counts of answered /
abstained / refused / failed, the median seconds, and the first ``--show`` answers verbatim as
`grk ask` prints them. Every cited edge is re-read from the map: a row whose quote does not
re-read is a bug, and the script exits 1.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from groundkit.answer.edges import CitedEdge
from groundkit.answer.providers.llamacpp import LlamaCppChat
from groundkit.answer.report import AnswerReport
from groundkit.answer.service import ask_code
from groundkit.cli.answer_render import render_report
from groundkit.codemap.api import CodeMap, open_codemap
from groundkit.config import Settings

# (symbol, scope, question, answers): what a newcomer to groundkit asks about its architecture, and
# what a reader needs from the answer: it holds the answer when a cited edge's evidence line
# contains one of ``answers``. Written from the code before any answer was looked at (issue 25);
# some are expected to fail (a question word no edge holds, many near-identical test callers).
QUESTIONS: list[tuple[str, str, str, tuple[str, ...]]] = [
    (
        "groundkit.index.store.Store.put_document",
        "blast",
        "What breaks if I change put_document?",
        ("groundkit.pipeline.documents._store calls",),
    ),
    (
        "groundkit.cli.main.main",
        "trace",
        "What does the grk entry point do before a command runs?",
        ("install_log_guard", "neutral_output"),
    ),
    (
        "groundkit.answer.contract.validate_answer",
        "blast",
        "Which code calls validate_answer?",
        ("groundkit.answer.service.explain calls",),
    ),
    (
        "groundkit.answer.service.explain",
        "trace",
        "What happens to the model's reply?",
        ("calls groundkit.answer.contract.validate_answer",),
    ),
    (
        "groundkit.collection.Collection.search",
        "trace",
        "Which retrieval code runs on a search?",
        ("calls groundkit.retrieve.search.run_search",),
    ),
    (
        "groundkit.retrieve.search.run_search",
        "both",
        "How are dense and bm25 results combined?",
        ("groundkit.retrieve.fusion.rrf",),
    ),
    (
        "groundkit.pipeline.run.run_ingest",
        "trace",
        "What does an ingest run write to the store?",
        ("groundkit.pipeline.run._store_all", "groundkit.pipeline.documents.write_file"),
    ),
    (
        "groundkit.net.fetch_url",
        "both",
        "Who fetches URLs, and through which guard?",
        ("groundkit.ingest.fetch.fetch_page calls", "groundkit.net._vet"),
    ),
    (
        "groundkit.retrieve.citations.resolve",
        "both",
        "How is a citation re-read and verified?",
        ("check_span",),
    ),
    (
        "groundkit.codemap.api.CodeMap.update",
        "trace",
        "What does updating a code map call?",
        ("calls groundkit.codemap.build.build_map",),
    ),
    (
        "groundkit.codemap.build.build_map",
        "blast",
        "Which commands build a code map?",
        (
            "groundkit.ops.codemap.build calls",
            "CodeMap.update calls groundkit.codemap.build.build_map",
        ),
    ),
    (
        "groundkit.answer.redact.RedactingChat.complete",
        "both",
        "How is a prompt redacted?",
        ("Redactor.redact_parts", "Redactor.redact at"),
    ),
    (
        "groundkit.index.lexical.LexicalIndex.search",
        "blast",
        "Who uses the lexical index?",
        ("groundkit.retrieve.search._search_arms calls",),
    ),
    (
        "groundkit.ops.answer.answer",
        "blast",
        "Which surfaces ask a question of a collection?",
        ("groundkit.cli.answer.answer_command", "groundkit.serve.ui.answer._answer"),
    ),
    (
        "groundkit.collection.open_collection",
        "blast",
        "Where are collections opened?",
        ("groundkit.ops.collections", "groundkit.serve.runtime", "groundkit.eval.runner.run_eval"),
    ),
    (
        "groundkit.chunk.core.pack",
        "blast",
        "Which code depends on the chunk packer?",
        ("groundkit.chunk.dispatch.chunk_text calls", "groundkit.pipeline.documents.prepare calls"),
    ),
    (
        "groundkit.embed.local.load_local_embedder",
        "both",
        "How is the local embedder loaded?",
        (
            "OnnxEmbedder.__init__",
            "groundkit.embed.local._require",
            "groundkit.embed.local._sha256",
        ),
    ),
    (
        "groundkit.answer.access.resolve_chat",
        "both",
        "What decides whether a model is asked?",
        ("groundkit.answer.providers.build_chat", "groundkit.answer.access._off"),
    ),
    (
        "groundkit.retrieve.quotes.verify_quote",
        "blast",
        "Where are quotes verified?",
        ("groundkit.collection.Collection.verify_quote calls", "groundkit.ops.collections.verify"),
    ),
    (
        "groundkit.ingest.walk.walk_tree",
        "blast",
        "Who walks a folder to ingest it?",
        ("groundkit.ingest.walk._walk calls", "groundkit.ingest.walk.discover calls"),
    ),
]


def _row(codemap: CodeMap, report: AnswerReport, seconds: float) -> dict[str, Any]:
    answer = report.answer
    state = str(report.ai.state)
    outcome = state
    if answer is not None:
        outcome = "abstained" if answer.abstained else "answered"
    rereads = True
    for cited in answer.citations if answer else ():
        assert isinstance(cited, CitedEdge)
        stored = codemap.edge(cited.edge.id).evidence
        rereads &= stored[cited.start : cited.end] == cited.cited_text
    reason = report.ai.error.message if report.ai.error else ""
    return {
        "symbol": report.bundle.symbol,
        "outcome": outcome,
        "edges": len(report.bundle.items),
        "omitted": report.bundle.omitted,
        "citations": len(answer.citations) if answer else 0,
        "rereads": rereads,
        "seconds": round(seconds, 2),
        "reason": reason,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repo", default=str(Path(__file__).resolve().parents[1]))
    parser.add_argument("--model", default=None, help="a .gguf path [default: SmolLM2-135M]")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--top-k", type=int, default=20)
    parser.add_argument("--limit", type=int, default=len(QUESTIONS))
    parser.add_argument("--show", type=int, default=3, help="answers to print verbatim")
    parser.add_argument("--json", help="write the rows and the summary to this file")
    args = parser.parse_args()

    chat = LlamaCppChat(args.model, n_threads=args.threads)
    rows, reports = [], []
    with tempfile.TemporaryDirectory(prefix="grk-ask-") as work:
        settings = Settings(index_dir=work)
        with open_codemap("repo", settings=settings, create=True) as codemap:
            t0 = time.perf_counter()
            mapped = codemap.update(args.repo)
            print(f"mapped {mapped.files} files in {time.perf_counter() - t0:.1f} s", flush=True)
            for symbol, scope, question in QUESTIONS[: args.limit]:
                t1 = time.perf_counter()
                report = ask_code(
                    codemap, symbol, question, chat, scope=scope, depth=args.depth,  # type: ignore[arg-type]
                    top_k=args.top_k, quotes="constrained",
                )  # fmt: skip
                row = _row(codemap, report, time.perf_counter() - t1)
                rows.append({"question": question, "scope": scope, **row})
                reports.append(report)
                print(
                    f"{len(rows):>2}. {row['outcome']:<9} {row['edges']:>2} edges"
                    f" {row['citations']} cited {row['seconds']:>6.1f} s  {question}",
                    flush=True,
                )
    counts = {k: sum(r["outcome"] == k for r in rows) for k in ("answered", "abstained")}
    counts |= {k: sum(r["outcome"] == k for r in rows) for k in ("refused", "failed")}
    counts["other"] = len(rows) - sum(counts.values())
    median = statistics.median(r["seconds"] for r in rows)
    print()
    print("| questions | answered | abstained | refused | failed | median s | quotes re-read |")
    print("|---|---|---|---|---|---|---|")
    print(
        f"| {len(rows)} | {counts['answered']} | {counts['abstained']} | {counts['refused']}"
        f" | {counts['failed']} | {median:.1f} | {all(r['rereads'] for r in rows)} |"
    )
    for row in rows:
        if row["reason"]:
            print(f"  {row['outcome']}: {row['symbol']}: {row['reason']}")
    shown = [(row, rep) for row, rep in zip(rows, reports, strict=True) if rep.answer][: args.show]
    for row, rep in shown:
        if rep.answer and rep.answer.items:
            print(
                f"\n$ grk ask {row['symbol']} {json.dumps(row['question'])} --scope {row['scope']}"
            )
            render_report(rep, as_json=False)
    if args.json:
        data = {"model": chat.model_name, "summary": counts, "median_seconds": median, "rows": rows}
        Path(args.json).write_text(json.dumps(data, indent=2), encoding="utf-8")
    return 0 if all(r["rereads"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
