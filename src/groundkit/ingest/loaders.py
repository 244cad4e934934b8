"""Bytes of one source -> normalised text, per format.

A loader either returns what it loaded or raises ``Rejected`` with a reason a person can act on;
the ingest run turns that into a per-file entry in its summary and goes on with the rest.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import io
import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from groundkit.errors import missing_extra
from groundkit.ingest.formats import Format
from groundkit.text import normalize_text
from groundkit.types import Metadata, Skipped

__all__ = ["Empty", "Loaded", "Loading", "Rejected", "content_hash", "decode_text", "load"]

_SNIFF_BYTES = 8192


class Rejected(Exception):  # control flow inside ingest; never escapes it
    """This input cannot be ingested; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Empty(Rejected):
    """This input holds nothing to ingest (an empty file, blank text, no records): passed over,
    not a failure, since nothing in it is lost."""


@dataclass(frozen=True, slots=True)
class Loaded:
    """One document's normalised text, ready to chunk and store."""

    source: str  # unique key within a collection: a path, a URL, or "path#record-id"
    origin: str  # the file or URL it was read from
    format: str
    text: str
    content_hash: str
    external_id: str | None = None
    title: str | None = None
    metadata: Metadata = field(default_factory=dict)
    pages: tuple[tuple[int, int], ...] = ()  # PDF: [start, end) of page i + 1 in ``text``

    def __reduce__(self) -> tuple[type[Loaded], tuple[object, ...]]:
        # As ``Span.__reduce__``: what a helper process sends the writer, rebuilt by ``__init__``.
        return Loaded, (
            self.source, self.origin, self.format, self.text, self.content_hash,
            self.external_id, self.title, self.metadata, self.pages,
        )  # fmt: skip


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def decode_text(data: bytes) -> str:
    """Decode text bytes strictly: UTF-8 (with or without BOM), or UTF-16 with a BOM."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise Rejected("not valid UTF-16 despite its byte-order mark") from exc
    if b"\x00" in data[:_SNIFF_BYTES]:
        raise Rejected("binary file (contains NUL bytes)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise Rejected(
            f"not valid UTF-8 (first bad byte at offset {exc.start}); convert it to UTF-8"
        ) from exc


def _require_text(text: str, *, blank: type[Rejected] = Empty) -> str:
    if not text.strip():
        raise blank("empty (no text after normalisation)")
    return text


@dataclass(slots=True)
class Loading:
    """What one file or URL held: documents to store, inputs skipped, sources unchanged."""

    loaded: list[Loaded] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)


def load(
    data: bytes, *, origin: str, fmt: Format, known: Mapping[str, str] | None = None
) -> Loading:
    """Load one file's or URL's bytes. Raises ``Rejected`` when nothing in it can be used.

    ``known`` maps the content hash of each stored, up-to-date document to its source: content
    with one of those hashes is reported unchanged without being parsed or extracted again.
    """
    known = known or {}
    if not data:
        raise Empty("empty file")
    if fmt == "records":
        return _load_records(data, origin, known)
    digest = content_hash(data)
    if known.get(digest) == origin:
        return Loading(unchanged=[origin])
    if fmt == "html":
        item = Loaded(origin, origin, "html", _html_to_markdown(data), digest)
    elif fmt == "pdf":
        text, pages = _pdf_text(data)
        item = Loaded(origin, origin, "pdf", text, digest, pages=pages)
    else:
        text = _require_text(normalize_text(decode_text(data)))
        item = Loaded(origin, origin, fmt, text, digest)
    return Loading(loaded=[item])


def _optional(module: str, extra: str) -> Any:
    """Import a heavy format library; without it the file is skipped with an install hint."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        error = missing_extra(module, extra)
        raise Rejected(f"{error.message}: {error.hint}") from None


def _html_to_markdown(data: bytes) -> str:
    if b"\x00" in data[:_SNIFF_BYTES]:
        raise Rejected("binary file (contains NUL bytes)")
    trafilatura = _optional("trafilatura", "html")
    limit = _parser_limit(data)
    if limit is not None:
        raise Rejected(
            f"HTML beyond the parser's limits ({limit}): the text after it would be lost"
        )
    # Markdown output keeps the page's headings, so the structure-aware chunker can use them.
    main = trafilatura.extract(
        data, output_format="markdown", include_comments=False, include_tables=True
    )
    if not main:
        baseline = trafilatura.baseline(data)
        main = baseline[1] if baseline else ""
    # A page whose main text extraction finds nothing may still hold text (drawn by a script,
    # say): that is a failure to report, not an empty file.
    return _require_text(normalize_text(main or ""), blank=Rejected)


def _parser_limit(data: bytes) -> str | None:
    """What limit of libxml2's HTML parser (which trafilatura uses) ``data`` runs into, if any.
    Past 255 nested elements it stops building the tree and drops the rest of the page without
    an error: the page would be ingested cut short (or, deep enough, as empty)."""
    from lxml import etree

    parser = etree.HTMLParser()
    with contextlib.suppress(etree.LxmlError):  # nothing parsed: trafilatura will say so
        etree.fromstring(data, parser)
    for entry in parser.error_log:
        if entry.type_name == "ERR_RESOURCE_LIMIT":
            return str(entry.message).split(",")[0].strip().lower()
    return None


def _pdf_text(data: bytes) -> tuple[str, tuple[tuple[int, int], ...]]:
    pypdf = _optional("pypdf", "pdf")
    from pypdf.errors import PyPdfError

    # pypdf logs a warning, with a whole font dictionary in it, for every page whose fonts it can
    # only half read: hundreds of lines on a real folder, on a terminal showing progress. What
    # matters (no text at all) is reported per file below.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise Rejected("encrypted PDF; decrypt it first")
        page_texts = [normalize_text(page.extract_text() or "").strip() for page in reader.pages]
    except Rejected:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, OSError) as exc:
        raise Rejected(f"not a readable PDF ({type(exc).__name__})") from exc
    parts: list[str] = []
    pages: list[tuple[int, int]] = []
    pos = 0
    for page_text in page_texts:
        if parts:
            parts.append("\n\n")
            pos += 2
        parts.append(page_text)
        pages.append((pos, pos + len(page_text)))
        pos += len(page_text)
    text = "".join(parts)
    if not text.strip():
        raise Rejected("no extractable text (a scanned PDF needs OCR first)")
    return text, tuple(pages)


def _load_records(data: bytes, origin: str, known: Mapping[str, str]) -> Loading:
    """BEIR-style JSONL: ``{"id" or "_id", "title"?, "text", "metadata"?}`` per line.

    Each line is hashed as raw bytes before it is parsed, so that re-ingesting a large record
    file with a few changes parses only those few.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        data = decode_text(data).encode("utf-8")
    elif b"\x00" in data[:_SNIFF_BYTES]:
        raise Rejected("binary file (contains NUL bytes)")
    data = data.removeprefix(b"\xef\xbb\xbf")
    out = Loading()
    seen: set[str] = set()
    for lineno, raw in enumerate(data.split(b"\n"), start=1):
        line = raw.removesuffix(b"\r")
        if not line.strip():
            continue
        where = f"{origin}:{lineno}"
        digest = content_hash(line)
        source = known.get(digest)
        if source is None:
            try:
                rid, title, body, metadata = _parse_record(line)
            except Rejected as exc:
                out.skipped.append(Skipped(where, exc.reason))
                continue
            source = f"{origin}#{rid}"
        if source in seen:
            reason = f"duplicate record id {source.rsplit('#', 1)[1]!r}; the first one is kept"
            out.skipped.append(Skipped(where, reason))
        elif digest in known:
            out.unchanged.append(source)
        else:
            text = normalize_text(f"{title}\n{body}" if title else body)
            out.loaded.append(Loaded(source, origin, "record", text, digest, rid, title, metadata))
        seen.add(source)
    if not (out.loaded or out.skipped or out.unchanged):
        raise Empty("empty (no records)")
    return out


def _parse_record(line: bytes) -> tuple[str, str | None, str, Metadata]:
    try:
        obj: Any = json.loads(line.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise Rejected(f"not valid UTF-8 (first bad byte at offset {exc.start})") from exc
    except json.JSONDecodeError as exc:
        raise Rejected(f"not valid JSON (column {exc.colno})") from exc
    except RecursionError:  # deeper than the parser's stack: this record only, not the file
        raise Rejected("nested too deeply to parse") from None
    if not isinstance(obj, dict):
        raise Rejected("a record must be a JSON object")
    rid = obj.get("id", obj.get("_id"))
    if isinstance(rid, bool) or not isinstance(rid, str | int) or rid == "":
        raise Rejected('a record needs a non-empty "id" or "_id" (string or integer)')
    text = obj.get("text")
    if not isinstance(text, str):
        raise Rejected('a record needs a "text" string')
    title = obj.get("title") or None
    if title is not None and not isinstance(title, str):
        raise Rejected('"title" must be a string')
    metadata = obj.get("metadata") or {}
    if not isinstance(metadata, dict):
        raise Rejected('"metadata" must be an object')
    if title:
        title = " ".join(title.split())  # the title is one line of the stored text
    try:  # JSON escapes can spell lone surrogates, which no UTF-8 store can hold
        f"{title}{text}".encode()
    except UnicodeEncodeError:
        raise Rejected("text holds a lone surrogate escape (not valid Unicode)") from None
    if not (title or text.strip()):
        raise Rejected("empty record (no title and no text)")
    return str(rid), title, text, metadata
