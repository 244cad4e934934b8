"""The weight of what names a chunk (title, file name, headings) in BM25, on SciFact train.

    .venv/bin/python benchmarks/named_weight.py --dataset ../shared/data/scifact \
        --workdir /tmp/named-scifact --weights 0,0.25,0.5,1

SciFact is ingested once, bm25 only, into ``--workdir`` (kept between runs). Each weight is then
set as ``groundkit.index.lexical.NAMED_WEIGHT`` and every train query searched in bm25 mode
(top 100 chunks, collapsed to documents as ``grk eval`` does); the table is the mean nDCG@10 and
MRR@10 per weight. Weight 0 is the index without the field, as it ranked before the field was
added. A SciFact record's title is its first line and its name field (no file names a record);
the reader questions (``benchmarks/reader_questions.py``) measure the field on documentation.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from groundkit.collection import open_collection
from groundkit.config import Settings
from groundkit.eval.datasets import load_beir
from groundkit.eval.metrics import collapse, mrr_at, ndcg_at
from groundkit.index import lexical


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", type=Path, required=True)
    parser.add_argument("--split", default="train")
    parser.add_argument("--workdir", type=Path, required=True)
    parser.add_argument("--weights", default="0,0.25,0.5,1")
    args = parser.parse_args()
    dataset = load_beir(args.dataset, args.split)
    settings = Settings().replace(index_dir=str(args.workdir), collection="scifact")
    marker = args.workdir / ".scifact.done"
    if not marker.exists():
        args.workdir.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        with open_collection(settings=settings, create=True) as collection:
            collection.ingest([args.dataset / "corpus.jsonl"])
        marker.write_text(f"{time.perf_counter() - t0:.1f}\n")
    print(f"SciFact {args.split}: {len(dataset.queries)} queries, load {os.getloadavg()[0]:.1f}")
    print("named weight\tnDCG@10\tMRR@10")
    with open_collection(settings=settings) as collection:
        for weight in (float(w) for w in args.weights.split(",")):
            lexical.NAMED_WEIGHT = weight
            ndcg, mrr = [], []
            for query in dataset.queries:
                hits = collection.search(query.text, top_k=100, mode="bm25")
                ranked = collapse(
                    dataset.document_key(h.citation.source, h.citation.external_id) for h in hits
                )
                qrels = dataset.qrels[query.id]
                ndcg.append(ndcg_at(ranked, qrels, 10))
                mrr.append(mrr_at(ranked, qrels, 10))
            print(f"{weight:g}\t{statistics.mean(ndcg):.4f}\t{statistics.mean(mrr):.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
