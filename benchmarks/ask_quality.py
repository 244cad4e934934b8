"""`grk ask` on groundkit's own repository: 20 architecture questions, answered by the extractive
answerer and by the offline model in each mode; is the answer among the cited edges?

    .venv/bin/python benchmarks/ask_quality.py                    # map this checkout, ask all 20
    .venv/bin/python benchmarks/ask_quality.py --systems extractive,pick --limit 5 --show 3 \
        --json out.json --replies replies.jsonl

The repository is mapped into a scratch index (as `grk map .` would), then each question goes
through the real `grk ask` path (``answer.service.ask_code``: the symbol's trace and/or blast
edges in order, the bundle, one call, ``validate_answer``, and for prose the gate on useless
prose) for each of ``--systems``: ``extractive`` (no model: the edges whose evidence best
matches the question), or SmolLM2-135M in process (``--model`` takes another .gguf) in mode
``pick`` (it picks edges by number), ``constrained`` or ``free`` (it writes prose). Each
question carries the strings a reader needs (``QUESTIONS``, written before any answer was
read): an answer *contains the answer* when a cited edge's evidence line holds one; *shown*
counts what a reader sees above the evidence (the answer, else the extracted one). Prints one
row per question and system, a summary per system (contains answer, shown, refused, median
seconds), and the first ``--show`` answers of each system verbatim as `grk ask` prints them.
Every cited edge is re-read from the map: a quote that does not re-read is a bug, and the
script exits 1.
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
from groundkit.answer.extractive import Answerer, Extractive
from groundkit.answer.providers.llamacpp import LlamaCppChat
from groundkit.answer.report import AnswerReport
from groundkit.answer.service import ask_code
from groundkit.cli.answer_render import render_report
from groundkit.codemap.api import CodeMap, open_codemap
from groundkit.config import Settings
from groundkit.eval.answers import contains_answer

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
    outcome = str(report.ai.state)
    if answer is not None:
        outcome = "abstained" if answer.abstained else "answered"
    rereads = True
    for cited in [*(answer.citations if answer else ()), *(c for c in _extracted(report))]:
        assert isinstance(cited, CitedEdge)
        stored = codemap.edge(cited.edge.id).evidence
        rereads &= stored[cited.start : cited.end] == cited.cited_text
    return {
        "symbol": report.bundle.symbol,
        "outcome": outcome,
        "edges": len(report.bundle.items),
        "omitted": report.bundle.omitted,
        "citations": len(answer.citations) if answer else 0,
        "rereads": rereads,
        "seconds": round(seconds, 2),
        "reason": report.ai.error.message if report.ai.error else "",
    }


def _extracted(report: AnswerReport) -> tuple[Any, ...]:
    return report.extracted.citations if report.extracted else ()


def _reply(system: str, question: str, chat: Any, report: AnswerReport) -> dict[str, Any] | None:
    """The model's prose reply, with the contract's and the gate's verdicts (``--replies``)."""
    raw = getattr(chat, "last_reply", None)
    if raw is None or system not in ("constrained", "free"):
        return None
    row: dict[str, Any] = {"system": f"code/{system}", "question": question, "reply": raw}
    error = report.ai.error
    row["contract"] = error.message if error and error.code == "ai.invalid_output" else "passed"
    if report.answer is None and row["contract"] == "passed" and error is not None:
        row["gate"] = error.message.split("unhelpful: ", 1)[-1]
    elif report.answer is not None:
        row["gate"] = "passed"
    answer = report.answer
    if answer is not None:
        row["items"] = [
            {
                "text": item.text,
                "quotes": [answer.citations[m - 1].cited_text for m in item.markers],
                "sources": [
                    report.bundle.items[answer.citations[m - 1].source - 1].text
                    for m in item.markers
                ],
            }
            for item in answer.items
        ]
    return row


class _Keeping(LlamaCppChat):
    """The in-process model, keeping its last reply (for ``--replies``)."""

    last_reply: str | None = None

    def complete(self, system: str, user: str, *, response_schema: Any = None) -> str:
        self.last_reply = None
        self.last_reply = super().complete(system, user, response_schema=response_schema)
        return self.last_reply


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repo", default=str(Path(__file__).resolve().parents[1]))
    parser.add_argument("--model", default=None, help="a .gguf path [default: SmolLM2-135M]")
    parser.add_argument("--systems", default="extractive,pick,constrained,free")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--top-k", type=int, default=20)
    parser.add_argument("--limit", type=int, default=len(QUESTIONS))
    parser.add_argument("--show", type=int, default=3, help="answers to print verbatim")
    parser.add_argument("--json", help="write the rows and the summary to this file")
    parser.add_argument("--replies", help="write each prose reply to this JSON lines file")
    args = parser.parse_args()

    systems = args.systems.split(",")
    chat = _Keeping(args.model, n_threads=args.threads) if systems != ["extractive"] else None
    replies = open(args.replies, "w", encoding="utf-8") if args.replies else None  # noqa: SIM115
    rows, reports = [], []
    with tempfile.TemporaryDirectory(prefix="grk-ask-") as work:
        settings = Settings(index_dir=work)
        with open_codemap("repo", settings=settings, create=True) as codemap:
            t0 = time.perf_counter()
            mapped = codemap.update(args.repo)
            print(f"mapped {mapped.files} files in {time.perf_counter() - t0:.1f} s", flush=True)
            for symbol, scope, question, wanted in QUESTIONS[: args.limit]:
                for system in systems:  # one question's systems back to back
                    asker: Answerer = Extractive() if system == "extractive" else chat  # type: ignore[assignment]
                    quotes = None if system == "extractive" else system
                    t1 = time.perf_counter()
                    report = ask_code(
                        codemap, symbol, question, asker, scope=scope, depth=args.depth,  # type: ignore[arg-type]
                        top_k=args.top_k, quotes=quotes,  # type: ignore[arg-type]
                    )  # fmt: skip
                    row = _row(codemap, report, time.perf_counter() - t1)
                    shown = report.answer if report.answer is not None else report.extracted
                    row |= {
                        "system": system,
                        "question": question,
                        "scope": scope,
                        "contains_answer": bool(contains_answer(report.answer, wanted)),
                        "shown_contains_answer": bool(contains_answer(shown, wanted)),
                    }
                    rows.append(row)
                    reports.append(report)
                    kept = _reply(system, question, chat, report) if replies else None
                    if kept is not None and replies is not None:
                        replies.write(json.dumps(kept, ensure_ascii=False) + "\n")
                    print(
                        f"{len(rows):>3}. {system:<11} {row['outcome']:<9} {row['edges']:>2} edges"
                        f" {row['citations']} cited {row['seconds']:>6.2f} s"
                        f" contains={row['contains_answer']} shown={row['shown_contains_answer']}"
                        f"  {question}",
                        flush=True,
                    )
    print()
    print("| system | questions | contains answer | shown contains answer | answered | refused |"
          " median s | quotes re-read |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|")
    summary = {}
    for system in systems:
        mine = [r for r in rows if r["system"] == system]
        n = len(mine)
        got = {
            k: sum(bool(r[k]) for r in mine) for k in ("contains_answer", "shown_contains_answer")
        }
        outcomes = {k: sum(r["outcome"] == k for r in mine) for k in ("answered", "refused")}
        median = statistics.median(r["seconds"] for r in mine)
        summary[system] = {**got, **outcomes, "questions": n, "median_seconds": median}
        print(
            f"| {system} | {n} | {got['contains_answer']}/{n} | {got['shown_contains_answer']}/{n}"
            f" | {outcomes['answered']} | {outcomes['refused']} | {median:.2f}"
            f" | {all(r['rereads'] for r in mine)} |"
        )
    for row in rows:
        if row["reason"] and row["outcome"] == "refused":
            print(f"  {row['system']} refused: {row['symbol']}: {row['reason']}")
    for system in systems:
        shown = [
            (row, rep)
            for row, rep in zip(rows, reports, strict=True)
            if row["system"] == system and rep.answer and rep.answer.items
        ][: args.show]
        for row, rep in shown:
            print(f"\n$ grk ask {row['symbol']} {json.dumps(row['question'])} --scope"
                  f" {row['scope']}   # {system}")  # fmt: skip
            render_report(rep, as_json=False)
    if args.json:
        data = {"model": chat.model_name if chat else None, "summary": summary, "rows": rows}
        Path(args.json).write_text(json.dumps(data, indent=2), encoding="utf-8")
    return 0 if all(r["rereads"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
