"""Where the extractive answer's time goes, on the sample documents, cold and warm.

    .venv/bin/python benchmarks/extract_speed.py [--docs docs/samples] [--rounds 5]

Ingests ``--docs`` with vectors into a scratch collection (as the README's quick start does),
then asks each question of ``QUESTIONS`` with the extractive answerer at 3 and at 10 passages,
twice in a row: cold (no sentence vector kept: a one-off ``grk answer``) and warm (the vectors
kept by the first ask: ``grk serve``, the UI, an evaluation asking again about the same
evidence). Runs interleave the two passage counts and cold with warm, round after round, so a
busy machine slows each alike. Prints, per passage count, the median seconds per answer cold
and warm, the median seconds spent embedding sentences, how many sentences were embedded, and
the CPU seconds of a cold answer (all threads: a figure a busy machine does not inflate).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from groundkit.answer.extract import VECTORS
from groundkit.answer.extractive import Extractive
from groundkit.answer.service import answer_question
from groundkit.collection import open_collection
from groundkit.config import Settings
from groundkit.embed.factory import create_embedder

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from groundkit.embed.base import Embedder, EmbedderIdentity, InputType

QUESTIONS = [  # asked of docs/samples; written for this script, none of them tuned on
    "how do I know a quote is genuine",
    "What exit status does grk give when some files could not be read?",
    "What is the default chunk size?",
    "Does groundkit follow symlinks outside the folder?",
    "What happens if two ingests run at once?",
    "Which library loads PDF files?",
    "How do I rebuild the search index?",
    "What happens to a chunk id when I edit the file?",
]


class Timed:
    """The collection's embedder, timing what it spends on sentences (``document`` texts)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.seconds = 0.0
        self.texts = 0

    @property
    def identity(self) -> EmbedderIdentity:
        return self.inner.identity

    def embed(self, texts: Sequence[str], input_type: InputType) -> npt.NDArray[np.float32]:
        t0 = time.perf_counter()
        out = self.inner.embed(texts, input_type)
        if input_type == "document":
            self.seconds += time.perf_counter() - t0
            self.texts += len(texts)
        return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", default="docs/samples")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    settings = Settings()
    timed = Timed(create_embedder(settings.embed))
    rows: dict[tuple[int, str], list[tuple[float, float, int, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="grk-extract-speed-") as tmp:
        where = settings.replace(index_dir=tmp, collection="samples")
        with open_collection(settings=where, create=True, embedder=timed) as collection:
            collection.ingest([Path(args.docs)], dense=True)
            answer_question(collection, QUESTIONS[0], Extractive())  # loads the model once
            load = os.getloadavg()[0]
            for _ in range(args.rounds):
                for question in QUESTIONS:
                    for top_k in (3, 10):
                        VECTORS.clear()
                        for state in ("cold", "warm"):
                            timed.seconds, timed.texts = 0.0, 0
                            t0, c0 = time.perf_counter(), time.process_time()
                            answer_question(collection, question, Extractive(), top_k=top_k)
                            spent, cpu = time.perf_counter() - t0, time.process_time() - c0
                            rows.setdefault((top_k, state), []).append(
                                (spent, timed.seconds, timed.texts, cpu)
                            )
            after = os.getloadavg()[0]
    print(
        f"{len(QUESTIONS)} questions x {args.rounds} rounds; load average {load:.1f} -> {after:.1f}"
    )
    print("passages\tsentences embedded\tembedding s\tcold answer s\tcold CPU s\twarm answer s")
    for top_k in (3, 10):
        cold, warm = rows[(top_k, "cold")], rows[(top_k, "warm")]
        print(
            f"{top_k}\t{statistics.median(r[2] for r in cold):.0f}"
            f"\t{statistics.median(r[1] for r in cold):.3f}"
            f"\t{statistics.median(r[0] for r in cold):.3f}"
            f"\t{statistics.median(r[3] for r in cold):.3f}"
            f"\t{statistics.median(r[0] for r in warm):.3f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
