"""Hand-written PDFs for tests, so no PDF writer is needed.

``make_pdf`` builds the smallest valid PDF pypdf reads text from: one Helvetica Type1 font, one
content stream per page, one ``Tj`` per line. Run ``python tests/pdfs.py`` to regenerate the
sample ``docs/samples/ingest-formats.pdf``.
"""

from __future__ import annotations

import sys
from pathlib import Path

__all__ = ["make_pdf"]

_LEADING = 14  # points between lines


def _escape(line: str) -> bytes:
    try:
        raw = line.encode("ascii")
    except UnicodeEncodeError:
        raise ValueError("make_pdf writes ASCII text only (Helvetica, no font encoding)") from None
    return raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def _content(text: str) -> bytes:
    ops = [b"BT", b"/F1 12 Tf", b"%d TL" % _LEADING, b"72 720 Td"]
    for i, line in enumerate(text.split("\n")):
        if i:
            ops.append(b"T*")
        ops.append(b"(" + _escape(line) + b") Tj")
    ops.append(b"ET")
    return b"\n".join(ops)


def make_pdf(pages: list[str]) -> bytes:
    """A PDF with one page per string; ``\\n`` in a string starts a new line on the page."""
    if not pages:
        raise ValueError("a PDF needs at least one page")
    # Objects: 1 catalog, 2 page tree, 3 font, then a (page, content) pair per page.
    page_ids = [4 + 2 * i for i in range(len(pages))]
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>"
        % (b" ".join(b"%d 0 R" % p for p in page_ids), len(pages)),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for page_id, text in zip(page_ids, pages, strict=True):
        stream = _content(text)
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]"
            b" /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % (page_id + 1)
        )
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))

    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets: list[int] = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref_at = len(out)
    out += b"xref\n0 %d\n" % (len(objects) + 1)
    out += b"0000000000 65535 f \n"
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref_at,
    )
    return bytes(out)


# The two pages of docs/samples/ingest-formats.pdf.
SAMPLE_PAGES = [
    "\n".join(
        [
            "Ingest formats",
            "",
            "groundkit decides how to read a file from its name.",
            "Markdown (.md, .markdown, .mdx) is split at its headings, and each chunk",
            "remembers its heading path.",
            "Plain text (.txt, .text, .rst, .adoc) and source code are read as UTF-8,",
            "or as UTF-16 when the file starts with a byte-order mark.",
            "HTML (.html, .htm, .xhtml) keeps the main article and drops navigation,",
            "footers and other boilerplate; its headings become Markdown headings.",
            "A file with an unknown extension is passed over in a folder walk, but a",
            "file you name on the command line is always tried as text.",
        ]
    ),
    "\n".join(
        [
            "PDF and JSONL records",
            "",
            "A PDF is read page by page, and every chunk records the page it starts on,",
            "so a hit can say p. 2. A scanned PDF without a text layer is skipped: run",
            "OCR on it first. A password-protected PDF is skipped too.",
            "A JSONL file (.jsonl, .ndjson) holds one record per line, BEIR style:",
            'an "id" or "_id", an optional "title", the "text" and optional "metadata".',
            "A bad line is skipped with its line number; the other records are kept.",
            "Skipped files never stop a run: grk ingest lists each one with its reason",
            "and exits with status 3.",
        ]
    ),
]


def _write_sample() -> Path:
    target = Path(__file__).resolve().parent.parent / "docs" / "samples" / "ingest-formats.pdf"
    target.write_bytes(make_pdf(SAMPLE_PAGES))
    return target


if __name__ == "__main__":
    sys.stdout.write(f"wrote {_write_sample()}\n")
