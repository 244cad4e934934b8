"""What each format stores: normalised text, HTML main text, PDF pages, JSONL records."""

from __future__ import annotations

import json
from pathlib import Path

import pypdf
import pytest

from groundkit import Collection, Hit, Settings
from groundkit.config import ChunkConfig
from pdfs import make_pdf

# Small chunks that never merge across a section, so each heading or page gets its own chunk.
SMALL_CHUNKS = Settings(chunk=ChunkConfig(size=120, min_size=0))


def only_hit(collection: Collection, query: str) -> Hit:
    hits = collection.search(query)
    assert len(hits) == 1, [h.citation.source for h in hits]
    return hits[0]


def stored(collection: Collection, hit: Hit) -> str:
    """The hit's passage read back from the stored document through its citation."""
    resolved = collection.show(hit.citation.chunk_id)
    assert resolved.text == hit.text
    assert len(resolved.text) == hit.citation.end - hit.citation.start
    return resolved.text


# -- the PDF helper itself ----------------------------------------------------------------------


def test_make_pdf_writes_pages_pypdf_reads_back(tmp_path: Path) -> None:
    path = tmp_path / "two.pdf"
    path.write_bytes(make_pdf(["first page words\nsecond line (with parens)", "page two"]))

    with path.open("rb") as fh:
        reader = pypdf.PdfReader(fh, strict=True)  # strict: a wrong xref offset raises
        texts = [page.extract_text() for page in reader.pages]

    assert texts == ["first page words\nsecond line (with parens)", "page two"]


# -- normalisation ------------------------------------------------------------------------------


def test_a_utf8_byte_order_mark_is_not_stored(tmp_path: Path, open_col) -> None:
    (tmp_path / "bom.txt").write_bytes(b"\xef\xbb\xbfbombay words\n")

    col = open_col()
    col.ingest(["bom.txt"])
    hit = only_hit(col, "bombay")

    assert hit.citation.start == 0
    assert stored(col, hit) == "bombay words"


@pytest.mark.parametrize(
    "raw", [b"one\r\ntwo\r\nthree\r\n", b"one\rtwo\rthree\r", b"one\r\ntwo\rthree\n"]
)
def test_every_newline_spelling_is_stored_as_a_line_feed(
    raw: bytes, tmp_path: Path, open_col
) -> None:
    (tmp_path / "lines.txt").write_bytes(raw)

    col = open_col()
    col.ingest(["lines.txt"])
    hit = only_hit(col, "two")

    assert stored(col, hit) == "one\ntwo\nthree"
    assert (hit.citation.start, hit.citation.end) == (0, len("one\ntwo\nthree"))


def test_decomposed_accents_are_stored_composed(tmp_path: Path, open_col) -> None:
    (tmp_path / "menu.md").write_text("un cafe\u0301 cre\u0300me\n", encoding="utf-8")

    col = open_col()
    col.ingest(["menu.md"])
    hit = only_hit(col, "caf\u00e9")

    assert stored(col, hit) == "un caf\u00e9 cr\u00e8me"


def test_a_decomposed_query_finds_composed_text(tmp_path: Path, open_col) -> None:
    (tmp_path / "menu.md").write_text("un caf\u00e9 cr\u00e8me\n", encoding="utf-8")

    col = open_col()
    col.ingest(["menu.md"])

    assert len(col.search("cafe\u0301")) == 1


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_with_a_byte_order_mark_is_accepted(encoding: str, tmp_path: Path, open_col) -> None:
    text = "na\u00efve r\u00e9sum\u00e9 of the wallaby\r\n"
    bom = {"utf-16": b"", "utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff"}[encoding]
    (tmp_path / "wide.txt").write_bytes(bom + text.encode(encoding))

    col = open_col()
    report = col.ingest(["wide.txt"])
    hit = only_hit(col, "wallaby")

    assert not report.partial
    assert stored(col, hit) == "na\u00efve r\u00e9sum\u00e9 of the wallaby"


def test_offsets_count_characters_outside_the_basic_plane(tmp_path: Path, open_col) -> None:
    text = "\U0001f600 smile " * 150 + "\n\nfinal paragraph about the numbat\n"
    (tmp_path / "emoji.txt").write_text(text, encoding="utf-8")

    col = open_col(SMALL_CHUNKS)
    col.ingest(["emoji.txt"])
    hit = only_hit(col, "numbat")

    # The file is already normalised, so its own code-point offsets are the stored ones.
    assert stored(col, hit) == text[hit.citation.start : hit.citation.end]
    assert hit.citation.start > 0
    assert stored(col, hit).endswith("final paragraph about the numbat")


# -- HTML ---------------------------------------------------------------------------------------

GUIDE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Field guide</title></head><body>
<header><nav><a href="/">Home</a> | <a href="/atlas">Atlas</a> | <a href="/blog">Blog</a></nav>
</header>
<main><article>
<h1>Field guide</h1>
<p>This guide describes the animals of the southern forests and where to find them at dawn.</p>
<h2>Marsupials</h2>
<p>The quokka lives on a few islands and is most active in the cool hours after sunrise.</p>
<h3>Night walkers</h3>
<p>The bilby digs burrows in sandy soil and comes out to feed well after the sun has set.</p>
<h2>Birds</h2>
<p>The lyrebird copies the calls of other birds, even the sounds of cameras and chainsaws.</p>
</article></main>
<footer><p>Copyright 2024 Bandicoot Publishing. Sitemap. Privacy policy.</p></footer>
</body></html>
"""


def test_html_keeps_the_main_text_and_drops_nav_and_footer(tmp_path: Path, open_col) -> None:
    (tmp_path / "guide.html").write_text(GUIDE, encoding="utf-8")

    col = open_col()
    report = col.ingest(["guide.html"])

    assert report.new == 1
    assert col.status().formats == {"html": 1}
    assert len(col.search("lyrebird")) == 1
    assert col.search("bandicoot") == []  # footer only
    assert col.search("atlas") == []  # navigation only


def test_html_headings_give_each_chunk_its_heading_path(tmp_path: Path, open_col) -> None:
    (tmp_path / "guide.html").write_text(GUIDE, encoding="utf-8")

    col = open_col(SMALL_CHUNKS)
    col.ingest(["guide.html"])

    paths = {
        word: only_hit(col, word).metadata["heading_path"]
        for word in ("dawn", "quokka", "bilby", "lyrebird")
    }
    assert paths == {
        "dawn": ["Field guide"],
        "quokka": ["Field guide", "Marsupials"],
        "bilby": ["Field guide", "Marsupials", "Night walkers"],
        "lyrebird": ["Field guide", "Birds"],
    }


def test_markdown_headings_give_each_chunk_its_heading_path(tmp_path: Path, open_col) -> None:
    (tmp_path / "notes.md").write_text(
        "# Setup\n\nInstall the wombat package first, then configure it.\n\n"
        "## Linux\n\nOn Linux the echidna service starts at boot.\n\n"
        "```sh\n# not a heading: a shell comment\necho platypus\n```\n",
        encoding="utf-8",
    )

    col = open_col(SMALL_CHUNKS)
    col.ingest(["notes.md"])

    assert only_hit(col, "wombat").metadata["heading_path"] == ["Setup"]
    assert only_hit(col, "platypus").metadata["heading_path"] == ["Setup", "Linux"]


# -- PDF ----------------------------------------------------------------------------------------


def page(word: str) -> str:
    """About 250 characters of one page, on several lines, naming ``word`` once."""
    lines = [f"This page is about the {word}."] + [
        f"Line {i} of filler text that says nothing in particular here." for i in range(4)
    ]
    return "\n".join(lines)


def test_each_pdf_chunk_knows_its_page(tmp_path: Path, open_col) -> None:
    (tmp_path / "atlas.pdf").write_bytes(make_pdf([page("kangaroo"), page("koala"), page("emu")]))

    col = open_col(Settings(chunk=ChunkConfig(size=400, min_size=0)))
    report = col.ingest(["atlas.pdf"])

    assert report.new == 1
    assert col.status().formats == {"pdf": 1}
    pages = {word: only_hit(col, word).metadata["page"] for word in ("kangaroo", "koala", "emu")}
    assert pages == {"kangaroo": 1, "koala": 2, "emu": 3}
    assert stored(col, only_hit(col, "koala")).startswith("This page is about the koala.")


def test_a_pdf_chunk_on_page_two_has_page_two_even_after_an_empty_page(
    tmp_path: Path, open_col
) -> None:
    (tmp_path / "gap.pdf").write_bytes(make_pdf(["", page("dingo"), page("quoll")]))

    col = open_col(Settings(chunk=ChunkConfig(size=400, min_size=0)))
    col.ingest(["gap.pdf"])

    assert only_hit(col, "dingo").metadata["page"] == 2
    assert only_hit(col, "quoll").metadata["page"] == 3


def test_the_sample_pdf_is_what_make_pdf_writes() -> None:
    from pdfs import SAMPLE_PAGES

    sample = Path(__file__).resolve().parents[2] / "docs" / "samples" / "ingest-formats.pdf"
    assert sample.read_bytes() == make_pdf(SAMPLE_PAGES), "run `python tests/pdfs.py`"


# -- JSONL records ------------------------------------------------------------------------------


def write_records(path: Path, *lines: object) -> Path:
    path.write_text(
        "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines),
        encoding="utf-8",
    )
    return path


def test_records_take_their_id_from_id_or_underscore_id(tmp_path: Path, open_col) -> None:
    records = write_records(
        tmp_path / "corpus.jsonl",
        {"id": "doc-1", "text": "the first record mentions a potoroo"},
        {"_id": 42, "text": "the second record mentions a bettong"},
    )

    col = open_col()
    report = col.ingest([str(records)])

    assert report.new == 2
    first, second = only_hit(col, "potoroo"), only_hit(col, "bettong")
    assert first.citation.external_id == "doc-1"
    assert second.citation.external_id == "42"
    assert first.citation.source == "corpus.jsonl#doc-1"
    assert first.citation.location == f"{records}#doc-1"
    assert second.citation.source == "corpus.jsonl#42"
    assert first.citation.document_id != second.citation.document_id
    assert col.status().formats == {"record": 2}


def test_a_record_title_is_the_first_line_of_its_stored_text(tmp_path: Path, open_col) -> None:
    write_records(
        tmp_path / "corpus.jsonl",
        {"id": "a", "title": "Numbat   habits\n", "text": "It eats termites, thousands a day."},
    )

    col = open_col()
    col.ingest(["corpus.jsonl"])
    hit = only_hit(col, "numbat")  # a word of the title only

    assert hit.citation.start == 0
    assert stored(col, hit) == "Numbat habits\nIt eats termites, thousands a day."
    assert only_hit(col, "termites").citation.chunk_id == hit.citation.chunk_id


def test_record_metadata_can_filter_a_search(tmp_path: Path, open_col) -> None:
    write_records(
        tmp_path / "corpus.jsonl",
        {"id": "en", "text": "the glider sleeps all day", "metadata": {"lang": "en", "n": 1}},
        {"id": "de", "text": "the glider schlaeft", "metadata": {"lang": "de", "n": 2}},
        {"id": "none", "text": "the glider has no metadata"},
    )

    col = open_col()
    col.ingest(["corpus.jsonl"])

    assert len(col.search("glider")) == 3
    assert [h.citation.external_id for h in col.search("glider", where={"lang": "en"})] == ["en"]
    assert [h.citation.external_id for h in col.search("glider", where={"n": 2})] == ["de"]
    assert col.search("glider", where={"lang": "fr"}) == []


def test_bad_record_lines_are_skipped_one_by_one(tmp_path: Path, open_col) -> None:
    records = write_records(
        tmp_path / "corpus.jsonl",
        {"id": "ok-1", "text": "a good record about the dunnart"},
        '{"id": "broken", "text": ',
        {"text": "a record without an id"},
        {"id": "no-text", "title": "no text either"},
        {"id": "ok-1", "text": "a duplicate id about the dunnart"},
        "",
        '["not", "an", "object"]',
        {"id": "", "text": "an empty id"},
        {"id": True, "text": "a boolean id"},
        {"id": "ok-2", "text": "another fine record about the dunnart"},
    )

    col = open_col()
    report = col.ingest([str(records)])

    assert report.new == 2
    assert report.partial
    assert sorted(s.source for s in report.skipped) == sorted(
        f"corpus.jsonl:{n}" for n in (2, 3, 4, 5, 7, 8, 9)
    )
    hits = col.search("dunnart")
    assert sorted(h.citation.external_id for h in hits) == ["ok-1", "ok-2"]
    assert stored(col, only_hit(col, "good")) == "a good record about the dunnart"


def test_one_record_nested_too_deeply_skips_that_line_only(tmp_path: Path, open_col) -> None:
    records = write_records(
        tmp_path / "corpus.jsonl",
        {"id": "ok-1", "text": "a good record about the quoll"},
        "[" * 100_000,
        {"id": "ok-2", "text": "another good record about the quoll"},
    )

    report = open_col().ingest([str(records)])

    assert report.new == 2
    assert [(s.source, s.reason) for s in report.skipped] == [
        ("corpus.jsonl:2", "nested too deeply to parse")
    ]


def test_a_record_removed_from_its_file_is_removed_from_the_collection(
    tmp_path: Path, open_col
) -> None:
    a = {"id": "a", "text": "the antechinus"}
    b = {"id": "b", "text": "the phascogale"}
    write_records(tmp_path / "corpus.jsonl", a, b)
    col = open_col()
    col.ingest(["corpus.jsonl"])

    write_records(tmp_path / "corpus.jsonl", a)
    report = col.ingest(["corpus.jsonl"])

    assert (report.unchanged, report.removed) == (1, 1)
    assert col.search("phascogale") == []
    assert len(col.search("antechinus")) == 1


def test_reading_a_pdf_leaves_pypdfs_per_page_warnings_out_of_the_output(
    tmp_path: Path, open_col, caplog: pytest.LogCaptureFixture
) -> None:
    import logging

    pdf = tmp_path / "doc.pdf"
    pdf.write_bytes(make_pdf(["the potoroo page"]))
    open_col().ingest([str(pdf)])
    logging.getLogger("pypdf").warning("a font dictionary it could only half read")
    assert not [r for r in caplog.records if r.name.startswith("pypdf")]
