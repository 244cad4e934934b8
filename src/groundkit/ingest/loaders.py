"""Bytes of one source -> normalised text, per format.

A loader either returns what it loaded or raises ``Rejected`` with a reason a person can act on;
the ingest run turns that into a per-file entry in its summary and goes on with the rest.
"""

from __future__ import annotations

import hashlib
import importlib
import io
import json
from dataclasses import dataclass, field
from typing import Any

from groundkit.errors import missing_extra
from groundkit.ingest.formats import Format
from groundkit.ingest.normalize import normalize_text
from groundkit.types import Metadata, Skipped

__all__ = ["Loaded", "Rejected", "content_hash", "decode_text", "load"]

_SNIFF_BYTES = 8192


class Rejected(Exception):  # control flow inside ingest; never escapes it
    """This input cannot be ingested; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


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


def _require_text(text: str) -> str:
    if not text.strip():
        raise Rejected("empty (no text after normalisation)")
    return text


def load(data: bytes, *, origin: str, fmt: Format) -> tuple[list[Loaded], list[Skipped]]:
    """Load one file's or URL's bytes. Raises ``Rejected`` when nothing in it can be used."""
    if not data:
        raise Rejected("empty file")
    if fmt == "records":
        return _load_records(data, origin)
    digest = content_hash(data)
    if fmt == "html":
        text = _html_to_markdown(data)
        return [Loaded(origin, origin, "html", text, digest)], []
    if fmt == "pdf":
        text, pages = _pdf_text(data)
        return [Loaded(origin, origin, "pdf", text, digest, pages=pages)], []
    text = _require_text(normalize_text(decode_text(data)))
    return [Loaded(origin, origin, fmt, text, digest)], []


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
    # Markdown output keeps the page's headings, so the structure-aware chunker can use them.
    main = trafilatura.extract(
        data, output_format="markdown", include_comments=False, include_tables=True
    )
    if not main:
        baseline = trafilatura.baseline(data)
        main = baseline[1] if baseline else ""
    return _require_text(normalize_text(main or ""))


def _pdf_text(data: bytes) -> tuple[str, tuple[tuple[int, int], ...]]:
    pypdf = _optional("pypdf", "pdf")
    from pypdf.errors import PyPdfError

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


def _load_records(data: bytes, origin: str) -> tuple[list[Loaded], list[Skipped]]:
    """BEIR-style JSONL: ``{"id" or "_id", "title"?, "text", "metadata"?}`` per line."""
    lines = normalize_text(decode_text(data)).split("\n")
    loaded: list[Loaded] = []
    skipped: list[Skipped] = []
    seen: set[str] = set()
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{origin}:{lineno}"
        try:
            record = _parse_record(line)
        except Rejected as exc:
            skipped.append(Skipped(where, exc.reason))
            continue
        rid, title, body, metadata = record
        if rid in seen:
            skipped.append(Skipped(where, f"duplicate record id {rid!r}; the first one is kept"))
            continue
        seen.add(rid)
        text = normalize_text(f"{title}\n{body}" if title else body)
        digest = content_hash(line.encode("utf-8"))
        loaded.append(
            Loaded(f"{origin}#{rid}", origin, "record", text, digest, rid, title, metadata)
        )
    if not loaded and not skipped:
        raise Rejected("empty (no records)")
    return loaded, skipped


def _parse_record(line: str) -> tuple[str, str | None, str, Metadata]:
    try:
        obj: Any = json.loads(line)
    except json.JSONDecodeError as exc:
        raise Rejected(f"not valid JSON (column {exc.colno})") from exc
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
    if not (title or text.strip()):
        raise Rejected("empty record (no title and no text)")
    return str(rid), title, text, metadata
