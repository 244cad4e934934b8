"""The sentences an extractive answer may show, split at ingest and recalled when it ranks.

Embedding the evidence's sentences while the reader waits was most of a cold ``grk answer``
(issue 35, point 3). Ingest is handed ``ShownSentences``: for each chunk, the text each of its
candidate units is weighed by meaning on (``Sentence.meaning``), found as the extract finds them
for any question, so only what can be shown is embedded; the store keeps their offsets and
vectors (``pipeline.sentences``). ``recall`` hands the stored vectors of a bundle's passages to
the extract's vector store (``extract.VECTORS``), keyed by text as every vector there is: the
ranking then embeds only what ingest did not store (a passage ingested before, a question's own
rule), and a text whose unit the extract cuts differently today is simply embedded as before.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from groundkit.answer.bundle import EvidenceBundle
from groundkit.answer.contract import QuoteRules
from groundkit.answer.extract import VECTORS, candidates
from groundkit.answer.passages import BundleItem

if TYPE_CHECKING:
    from groundkit.collection import Collection

__all__ = ["ShownSentences", "recall"]


@dataclass(frozen=True, slots=True)
class ShownSentences:
    """A ``pipeline.sentences.Splitter``: where, in a chunk's text, each text lies that the
    extract would weigh by meaning, for a question that shares no word with it."""

    min_quote_chars: int

    def __call__(self, text: str, source: str) -> list[tuple[int, int]]:
        item = BundleItem(1, "", "", source, 0, len(text), text)
        bundle = EvidenceBundle(None, "", (item,), 0, 0, "")
        out: dict[tuple[int, int], None] = {}
        for sentence in candidates(bundle, QuoteRules.of(self.min_quote_chars)):
            at = text.find(sentence.meaning, sentence.start)
            at = text.find(sentence.meaning) if at < 0 else at
            if at >= 0:
                out[(at, at + len(sentence.meaning))] = None
        return list(out)


def recall(collection: Collection, bundle: EvidenceBundle) -> int:
    """Give the extract the stored vectors of ``bundle``'s passages' sentences; returns how
    many it was given."""
    identity = collection.embedder_identity
    if identity is None:
        return 0
    stored = collection.sentences_of([p.chunk_id for p in bundle.passages])
    for found in stored.values():
        VECTORS.keep(identity.key(), "document", found.texts, found.vectors)
    return sum(len(found.texts) for found in stored.values())
