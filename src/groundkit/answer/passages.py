"""Document passages as evidence: a retrieved chunk, and a quote of it resolved in the store."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from groundkit.answer.evidence import Origins, refuse
from groundkit.answer.spans import cut_spans

__all__ = ["BundleItem", "CitedQuote"]


@dataclass(frozen=True, slots=True)
class BundleItem:
    """One numbered passage. ``text`` is exactly what the model is shown: its chunk, or wider,
    read back to the API name it describes and on to the end of the code it introduces
    (``answer.overrun``): ``document.text[start:end]``."""

    number: int
    chunk_id: str
    document_id: str
    source: str
    start: int
    end: int
    text: str
    line: int | None = None  # the 1-based line of its first character, as search reports it
    # Its rank by meaning alone in the search (the dense arm), when that ranked it: the extract
    # embeds the sentences of the passages ranked best by meaning first (``answer.extract``).
    dense_rank: int | None = field(default=None, compare=False)

    @property
    def kind(self) -> str:
        return "passage"

    def prompt_block(self) -> str:
        # Only the number and the text go to a model, never the source path or ids. The text is
        # raw, not JSON-escaped: redaction then sees values as the store holds them.
        return f'<source id="{self.number}">\n{self.text}\n</source>\n'

    def spans(self, min_chars: int) -> list[str]:
        return cut_spans(self.text, min_chars=min_chars)

    def scope_row(self) -> list[Any]:
        digest = hashlib.sha256(self.text.encode("utf-8", "surrogatepass")).hexdigest()
        return [self.chunk_id, self.start, self.end, digest]

    def cite(self, quote: str, marker: int, origins: Origins) -> CitedQuote:
        """Offsets in the stored document; ``cited_text`` cut from the stored text."""
        found = origins.passage(self.chunk_id, self.number)
        chunk, text = found.citation, found.text
        if (self.start, self.end) != (chunk.start, chunk.end):
            # sent wider than its chunk (``answer.overrun``): the rest is the document's
            if not self.start <= chunk.start <= chunk.end <= self.end:
                refuse(f"source {self.number} changed in the store since it was retrieved")
            text = origins.document(self.document_id, self.number)[self.start : self.end]
        if text != self.text:
            refuse(f"source {self.number} changed in the store since it was retrieved")
        at = text.index(quote)  # present: the contract checked it against the same text
        start = self.start + at
        line = end_line = None
        if chunk.line is not None:
            line = chunk.line - text.count("\n", 0, chunk.start - self.start)
            line += text.count("\n", 0, at)
            end_line = line + text.count("\n", at, at + max(len(quote) - 1, 0))
        return CitedQuote(
            marker,
            self.number,
            self.chunk_id,
            self.document_id,
            found.citation.source,
            start,
            start + len(quote),
            text[at : at + len(quote)],
            str(found.verification),
            text.find(quote, at + 1) >= 0,
            line,
            end_line,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "kind": self.kind,
            "chunk_id": self.chunk_id,
            "document_id": self.document_id,
            "source": self.source,
            "start": self.start,
            "end": self.end,
            "line": self.line,
            "text": self.text,
        }


@dataclass(frozen=True, slots=True)
class CitedQuote:
    """One citation of a passage, resolved: ``cited_text`` is the stored document's
    ``[start, end)``."""

    marker: int  # the [n] shown in the answer text, numbered across the whole answer
    source: int  # the bundle item it cites
    chunk_id: str
    document_id: str
    source_name: str
    start: int
    end: int
    cited_text: str
    verification: str  # whether the source file still holds what was ingested (Verification)
    # The quote occurs more than once in its passage: start/end name the first place, and the
    # model's words cannot say which one it meant (the text is the same at each).
    ambiguous: bool
    line: int | None = None  # 1-based lines of the cited text's first and last character
    end_line: int | None = None

    @property
    def kind(self) -> str:
        return "passage"

    def to_dict(self) -> dict[str, Any]:
        return {
            "marker": self.marker,
            "source": self.source,
            "kind": self.kind,
            "chunk_id": self.chunk_id,
            "document_id": self.document_id,
            "source_name": self.source_name,
            "start": self.start,
            "end": self.end,
            "cited_text": self.cited_text,
            "verification": self.verification,
            "ambiguous": self.ambiguous,
            "line": self.line,
            "end_line": self.end_line,
        }
