"""Does a chunk's vector depend on the texts it is batched with? (Issue 24 changed the order.)

    .venv/bin/python benchmarks/embed_batch_order.py [--scifact ../shared/data/scifact] [--n 320]

Embeds the first ``--n`` SciFact records (``title + "\\n" + text``, cut at 1,000 characters) with
the default embedder in batches of 32, twice: in the order ``embed_missing`` used before issue 24
(sorted by length within each commit group of 256) and in its order now (sorted over all of
them), and compares each text's two vectors. Identical vectors mean the order cannot move dense
or hybrid retrieval quality. Needs the ``embed`` extra.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

BATCH, GROUP = 32, 256  # embed.batch_size's default; COMMIT_EVERY before issue 24


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--scifact", default=str(Path(__file__).parents[1] / "../shared/data/scifact")
    )
    parser.add_argument("--n", type=int, default=320)
    args = parser.parse_args()

    import numpy as np

    from groundkit.config import EmbedConfig
    from groundkit.embed.local import load_local_embedder

    texts: list[str] = []
    with (Path(args.scifact) / "corpus.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            record = json.loads(line)
            texts.append((record["title"] + "\n" + record["text"])[:1000])
            if len(texts) == args.n:
                break
    embedder = load_local_embedder(EmbedConfig())

    def by_length(ids: range) -> list[int]:
        return sorted(ids, key=lambda i: len(texts[i]))

    def vectors(order: list[int]) -> object:
        out: dict[int, object] = {}
        for at in range(0, len(order), BATCH):
            ids = order[at : at + BATCH]
            out.update(zip(ids, embedder.embed([texts[i] for i in ids], "document"), strict=True))
        return np.stack([out[i] for i in range(len(texts))])

    n = len(texts)
    before = [i for g in range(0, n, GROUP) for i in by_length(range(g, min(g + GROUP, n)))]
    now = by_length(range(n))
    a, b = np.asarray(vectors(before)), np.asarray(vectors(now))
    differ = sum(
        set(before[at : at + BATCH]) != set(now[at : at + BATCH]) for at in range(0, n, BATCH)
    )
    print(
        f"{n} texts; batches made of different texts: {differ} of {-(-n // BATCH)};"
        f" max |difference| {np.abs(a - b).max():.2e}; min cosine {(a * b).sum(1).min():.6f};"
        f" identical vectors {(np.abs(a - b).max(1) == 0).sum()} of {n}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
