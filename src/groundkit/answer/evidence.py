"""One boundary, two kinds of evidence: what every item a model may quote has in common.

An evidence item is a document passage (``passages.BundleItem``) or a code-map edge
(``edges.EdgeItem``). The contract, the schemas, redaction, the report, the judge and the echo
check see only this interface: a number, the text the model is shown, the spans it may quote,
and how a validated quote resolves back to its origin (``cite``). ``Origins`` holds the handles
a quote is re-read through: the collection's store for passages, the code map for edges.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, Protocol, TypeVar

from groundkit.errors import AIError, ErrorCode, NotFoundError
from groundkit.types import ResolvedCitation

if TYPE_CHECKING:
    from groundkit.codemap.model import Edge

__all__ = [
    "Citation",
    "CodeOrigin",
    "EvidenceItem",
    "Origins",
    "ShowPassage",
    "StoredText",
    "refuse",
]

T = TypeVar("T")
ShowPassage = Callable[[str], ResolvedCitation]  # Collection.show: a chunk read back
# A document's stored text by its id (``Collection.document(id).text``): where a passage sent
# past its chunk's end (``answer.overrun``) is read back.
StoredText = Callable[[str], str]


class Citation(Protocol):
    """A validated quote, resolved: ``cited_text`` is cut from the origin, never from the reply."""

    @property
    def marker(self) -> int: ...  # the [n] shown in the answer text, across the whole answer

    @property
    def source(self) -> int: ...  # the bundle item it cites

    @property
    def cited_text(self) -> str: ...

    @property
    def verification(self) -> str: ...

    def to_dict(self) -> dict[str, Any]: ...


class EvidenceItem(Protocol):
    """One numbered item of a bundle. ``text`` is exactly what the model is shown, and what a
    quote must be a byte-for-byte substring of."""

    @property
    def number(self) -> int: ...

    @property
    def kind(self) -> str: ...  # "passage" | "edge"

    @property
    def text(self) -> str: ...

    def prompt_block(self) -> str:
        """The item as it is sent: ``<source id="N">`` + text; never a path outside the text."""
        ...

    def spans(self, min_chars: int) -> list[str]:
        """The substrings of ``text`` a quote-constrained schema offers, in order."""
        ...

    def scope_row(self) -> list[Any]:
        """What names this item in the bundle's ``scope_hash`` (JSON values only)."""
        ...

    def cite(self, quote: str, marker: int, origins: Origins) -> Citation:
        """Resolve a quote the contract has checked against ``text``: re-read the origin (and
        refuse when it changed since it was sent), cut the cited text from it."""
        ...

    def to_dict(self) -> dict[str, Any]: ...


class CodeOrigin(Protocol):
    """What a validated edge citation is re-read through (``groundkit.codemap.api.CodeMap``)."""

    def edge(self, edge_id: str) -> Edge:
        """The edge as the map holds it now; ``NotFoundError`` when it is gone."""
        ...

    def verify(self, edges: Sequence[Edge]) -> list[str]:
        """Each edge's evidence re-read from the working tree: verified/drifted/missing/..."""
        ...


class Origins:
    """Where validated quotes are re-read, memoised for one validation.

    ``show`` reads a passage back from the collection's store; ``code`` is the code map;
    ``documents`` reads a document's stored text, for a passage sent past its chunk's end. A
    bundle that holds an item of a kind whose origin is absent cannot be cited: the answer is
    refused.
    """

    def __init__(
        self,
        show: ShowPassage | None = None,
        code: CodeOrigin | None = None,
        documents: StoredText | None = None,
    ) -> None:
        self.show = show
        self.code = code
        self.documents = documents
        self._texts: dict[str, str] = {}
        self._passages: dict[str, ResolvedCitation] = {}
        self._edges: dict[str, Edge] = {}
        self._checks: dict[str, str] = {}

    @classmethod
    def of(cls, origin: Origins | ShowPassage) -> Origins:
        """``origin`` as ``Origins``: a bare ``Collection.show`` reads passages only."""
        return origin if isinstance(origin, Origins) else cls(show=origin)

    def passage(self, chunk_id: str, number: int) -> ResolvedCitation:
        return _read_once(self._passages, chunk_id, self.show, number)

    def document(self, document_id: str, number: int) -> str:
        """The stored text of the document source ``number`` is a passage of."""
        return _read_once(self._texts, document_id, self.documents, number)

    def edge(self, edge_id: str, number: int) -> Edge:
        if edge_id not in self._edges:
            if self.code is None:
                refuse(f"source {number} cannot be read back: no code map was given")
            try:
                self._edges[edge_id] = self.code.edge(edge_id)
            except NotFoundError:
                refuse(f"source {number} is no longer in the code map")
        return self._edges[edge_id]

    def verify(self, edge: Edge) -> str:
        """The edge's evidence re-checked against the working tree (once per edge)."""
        if edge.id not in self._checks:
            assert self.code is not None  # edge() was asked first, and refused without a map
            self._checks[edge.id] = self.code.verify([edge])[0]
        return self._checks[edge.id]


def _read_once(read: dict[str, T], key: str, reader: Callable[[str], T] | None, number: int) -> T:
    """``reader(key)``, once per validation: from the collection's store, or a refusal."""
    if key not in read:
        if reader is None:
            refuse(f"source {number} cannot be read back: no collection was given")
        try:
            read[key] = reader(key)
        except NotFoundError:
            refuse(f"source {number} is no longer in the store")
    return read[key]


def refuse(reason: str) -> NoReturn:
    """Refuse the whole reply, naming the broken rule and never quoting the model's text."""
    raise AIError(
        ErrorCode.AI_INVALID_OUTPUT,
        f"the model's answer was refused: {reason}",
        hint="the evidence is shown instead; nothing from the refused answer is used",
    )
