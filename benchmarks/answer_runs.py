"""What padding costs a cold answer's embedding: runs of 24 sentences against runs of like length.

    .venv/bin/python benchmarks/answer_runs.py --index-dir DIR --corpus requests --rounds 2

Asks each question of ``--corpus`` (``--labels``) of that collection (ingested with vectors and
no stored sentences: ``grk ingest --dense``) as `grk answer` does with AI off, with no sentence
vector kept (a one-off `grk answer`), and keeps the texts it sends the embedder. Those texts are
then embedded again, question by question and round after round, in the runs the answer used to
make (sorted by length, 24 a run) and in the runs it makes now (``sentence_vectors.like_length``),
the two in turn so a busy machine slows each alike. Prints, for each, the runs, the characters
sent padded to each run's longest against the texts' own, the seconds (all questions, median of
the rounds) and the largest difference between the two ways' vectors.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from groundkit.answer.extract import EMBEDDED, VECTORS
from groundkit.answer.report import AIState, AIStatus
from groundkit.answer.sentence_vectors import like_length
from groundkit.answer.service import answer_question
from groundkit.collection import open_collection
from groundkit.config import Settings
from groundkit.embed.factory import create_embedder

if TYPE_CHECKING:
    import numpy.typing as npt

    from groundkit.embed.base import Embedder, EmbedderIdentity, InputType

Plan = Callable[[Sequence[str], int], list[list[int]]]


class Kept:
    """The collection's embedder, keeping the sentences (``document`` texts) it is sent."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.texts: list[str] = []

    @property
    def identity(self) -> EmbedderIdentity:
        return self.inner.identity

    def embed(self, texts: Sequence[str], input_type: InputType) -> npt.NDArray[np.float32]:
        if input_type == "document":
            self.texts.extend(texts)
        return self.inner.embed(texts, input_type)


def by_24(texts: Sequence[str], most: int) -> list[list[int]]:
    """The runs an answer made before: sorted by length, ``most`` a run."""
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    return [order[first : first + most] for first in range(0, len(order), most)]


def _embed(embedder: Embedder, texts: list[str], plan: Plan) -> npt.NDArray[np.float32]:
    out = np.empty((len(texts), embedder.identity.dimensions), np.float32)
    for run in plan(texts, EMBEDDED):
        out[run] = embedder.embed([texts[i] for i in run], "document")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index-dir", required=True)
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--labels", default="benchmarks/labels/readers.json")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    labels = json.loads(Path(args.labels).read_text(encoding="utf-8"))
    questions = [q["question"] for q in labels["questions"] if q["corpus"] == args.corpus]
    settings = Settings().replace(index_dir=args.index_dir, collection=args.corpus)
    kept = Kept(create_embedder(settings.embed))
    asked: list[list[str]] = []
    with open_collection(settings=settings, embedder=kept) as collection:
        for question in questions:
            VECTORS.clear()
            kept.texts = []
            answer_question(collection, question, AIStatus(AIState.DISABLED))
            asked.append(kept.texts)
    plans: dict[str, Plan] = {"runs of 24": by_24, "like length": like_length}
    seconds: dict[str, list[float]] = {name: [] for name in plans}
    load = os.getloadavg()[0]
    apart = 0.0
    for _ in range(args.rounds):
        spent = dict.fromkeys(plans, 0.0)
        for texts in asked:
            made = {}
            for name, plan in plans.items():
                t0 = time.perf_counter()
                made[name] = _embed(kept.inner, texts, plan)
                spent[name] += time.perf_counter() - t0
            apart = max(apart, float(np.abs(made["runs of 24"] - made["like length"]).max()))
        for name in plans:
            seconds[name].append(spent[name])
    print(f"{args.corpus}: {len(asked)} questions, {sum(map(len, asked))} sentences embedded,"
          f" {args.rounds} rounds, load {load:.1f} -> {os.getloadavg()[0]:.1f}")  # fmt: skip
    print("runs\truns made\tcharacters sent / own\tseconds (median of rounds)")
    own = sum(len(t) for texts in asked for t in texts)
    for name, plan in plans.items():
        runs = [[texts[i] for i in run] for texts in asked for run in plan(texts, EMBEDDED)]
        sent = sum(len(run) * max(map(len, run)) for run in runs)
        print(f"{name}\t{len(runs)}\t{sent / own:.2f}\t{statistics.median(seconds[name]):.2f}")
    print(f"largest difference between the two ways' vectors: {apart:.1e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
