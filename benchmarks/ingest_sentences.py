"""What storing the answer's sentences costs an ingest with vectors, in seconds.

    .venv/bin/python benchmarks/ingest_sentences.py FOLDER

Ingests FOLDER into a fresh temporary collection with vectors (the embedder loaded first, not
timed), then splits and embeds its chunks' sentences as `grk ingest` does after the vectors
(``Collection.rebuild_sentences`` with ``answer.shown.ShownSentences``: the same step, run on
its own so that it is timed apart), and prints how many chunks and sentences were stored and
the seconds of each: the ingest with its chunk vectors, against the sentences.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time

from groundkit.answer.shown import ShownSentences
from groundkit.collection import open_collection
from groundkit.config import Settings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="grk-ingest-sentences-") as tmp:
        settings = Settings().replace(index_dir=tmp, collection="c")
        with open_collection(settings=settings, create=True) as collection:
            collection.embedder()  # the model's load is not the ingest's
            t0 = time.perf_counter()
            collection.ingest([args.folder], dense=True)
            t1 = time.perf_counter()
            sentences = collection.rebuild_sentences(
                ShownSentences(settings.answer.min_quote_chars)
            )
            t2 = time.perf_counter()
            chunks = len(collection.chunks())
    print(f"chunks {chunks}, sentences {sentences}")
    print(f"ingest with chunk vectors {t1 - t0:.1f} s; sentences {t2 - t1:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
