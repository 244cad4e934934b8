"""Re-score a `grk eval` run with trec_eval (pytrec_eval) and print the largest disagreement.

    .venv/bin/python benchmarks/eval_reference.py evals/results/RUN.json \\
        --beir ../shared/data/scifact --split train

BEIR runs are judged by their qrels file. Golden runs are judged by the gold spans they record,
at document level. The chunk level is checked against trec_eval by tests/eval/test_runner.py.
Needs the dev extra (pytrec-eval-terrier).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytrec_eval

from groundkit.eval.datasets import load_beir
from groundkit.eval.results import EvalReport, read_report

MEASURES = {"ndcg_cut.10", "recall.1,5,10", "recip_rank", "success.1,5,10"}
PAIRS = {"ndcg@10": "ndcg_cut_10", "mrr@10": "recip_rank"} | {
    f"{ours}@{k}": f"{theirs}_{k}"
    for k in (1, 5, 10)
    for ours, theirs in (("set_recall", "recall"), ("hit_rate", "success"))
}


def golden_qrels(report: EvalReport) -> dict[str, dict[str, int]]:
    """Document-level qrels from the gold spans the run recorded."""
    out: dict[str, dict[str, int]] = {}
    for query in report.queries:
        for span in query.gold:
            grades = out.setdefault(query.id, {})
            grades[span.source] = max(grades.get(span.source, 0), span.grade)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--beir", type=Path, help="the BEIR folder the run was measured on")
    parser.add_argument("--split", default="test")
    args = parser.parse_args()
    report = read_report(args.run)
    if args.beir:
        dataset = load_beir(args.beir, args.split)
        assert dataset.hash == report.dataset.hash, "the run was measured on other data"
        assert dataset.qrels is not None
        qrels = {q: dict(r) for q, r in dataset.qrels.items()}
    else:
        qrels = golden_qrels(report)
    print("| stage | queries | metrics compared | largest |ours - trec_eval| |")
    print("|---|---:|---:|---:|")
    for stage in report.stages:
        run = {
            q.id: {d: 10.0 - i for i, d in enumerate(q.stages[stage].ranked["document"])}
            for q in report.queries
            if q.id in qrels
        }
        expected = pytrec_eval.RelevanceEvaluator(qrels, MEASURES).evaluate(run)
        worst, compared = 0.0, 0
        for q in report.queries:
            ours = q.stages[stage].metrics.get("document")
            if ours is None:
                continue
            for mine, theirs in PAIRS.items():
                worst = max(worst, abs(ours[mine] - expected[q.id][theirs]))
                compared += 1
        print(f"| {stage} | {len(run)} | {compared} | {worst:.2e} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
