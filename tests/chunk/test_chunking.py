from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from groundkit.chunk import ChunkSettings, Section, Span, chunk_text
from groundkit.chunk.markdown import heading, markdown_sections
from groundkit.chunk.rst import rst_sections
from groundkit.index.rows import NewChunk
from groundkit.index.store import Store

_ALPHABET = st.sampled_from(
    [
        *"abcdefgh xyz",
        *["\n", "\n\n", "# ", "## ", ". ", "```\n", "é", "e\u0301", "😀", "\t"],
        *[" ````\n", "~~~\n", "x ```\n", "====\n", "-----\n"],  # fences, rst adornments
        *["x" * 45, "longwordwithoutanyspaces" * 4],  # long words force hard cuts
    ]
)
texts = st.lists(_ALPHABET, max_size=400).map("".join)
chunk_settings = st.integers(min_value=20, max_value=300).flatmap(
    lambda size: st.builds(ChunkSettings, st.just(size), st.integers(0, size))
)
formats = st.sampled_from(["markdown", "text", "rst", "code", "html", "record"])


def sections_of(text: str, fmt: str) -> list[Section]:
    if fmt == "rst":
        return rst_sections(text)
    return markdown_sections(text, glued_fences=fmt == "html")


def _check_spans(text: str, spans: list[Span], cfg: ChunkSettings) -> None:
    covered = set()
    previous_end = 0
    for span in spans:
        piece = text[span.start : span.end]
        assert 0 <= span.start < span.end <= len(text)
        assert span.start >= previous_end, "chunks are ordered and never overlap"
        assert len(piece) <= cfg.size
        assert piece == piece.strip(), "chunks carry no surrounding whitespace"
        covered.update(range(span.start, span.end))
        previous_end = span.end
    missing = [i for i, ch in enumerate(text) if not ch.isspace() and i not in covered]
    assert not missing, "every non-space character lands in a chunk"


@settings(max_examples=400, deadline=None)
@given(text=texts, cfg=chunk_settings, fmt=formats)
def test_chunks_are_exact_ordered_bounded_slices_covering_the_text(
    text: str, cfg: ChunkSettings, fmt: str
) -> None:
    spans = chunk_text(text, format=fmt, settings=cfg)
    _check_spans(text, spans, cfg)


@settings(max_examples=200, deadline=None)
@given(pages=st.lists(texts, min_size=1, max_size=5), cfg=chunk_settings)
def test_pdf_chunks_carry_the_page_they_start_on(pages: list[str], cfg: ChunkSettings) -> None:
    text, bounds, pos = "", [], 0
    for i, page in enumerate(pages):
        if i:
            text += "\n\n"
            pos += 2
        bounds.append((pos, pos + len(page)))
        text += page
        pos += len(page)
    spans = chunk_text(text, format="pdf", settings=cfg, pages=bounds)
    _check_spans(text, spans, cfg)
    for span in spans:
        page = span.metadata["page"]
        start, _ = bounds[page - 1]
        next_start = bounds[page][0] if page < len(bounds) else len(text) + 1
        assert (start if page > 1 else 0) <= span.start < next_start


@settings(max_examples=300, deadline=None)
@given(text=texts, cfg=chunk_settings, fmt=formats)
def test_no_fragment_below_min_size_could_have_joined_a_neighbour(
    text: str, cfg: ChunkSettings, fmt: str
) -> None:
    spans = chunk_text(text, format=fmt, settings=cfg)
    for i, span in enumerate(spans):
        if span.end - span.start >= cfg.min_size or len(spans) == 1:
            continue
        if i > 0:
            assert span.end - spans[i - 1].start > cfg.size
        if i + 1 < len(spans):
            assert spans[i + 1].end - span.start > cfg.size


@settings(max_examples=200, deadline=None)
@given(text=texts.filter(lambda t: t.strip() != ""), cfg=chunk_settings, fmt=formats)
def test_a_document_within_the_chunk_size_stays_whole(
    text: str, cfg: ChunkSettings, fmt: str
) -> None:
    stripped = text.strip()
    if len(stripped) > cfg.size:
        return
    spans = chunk_text(text, format=fmt, settings=cfg)
    assert [text[s.start : s.end] for s in spans] == [stripped]


@settings(max_examples=60, deadline=None)
@given(text=texts.filter(lambda t: t.strip() != ""), cfg=chunk_settings, fmt=formats)
def test_the_store_reads_back_each_chunk_exactly_as_python_slices_it(
    text: str, cfg: ChunkSettings, fmt: str
) -> None:
    # SQLite's substr counts characters like Python does, astral-plane emoji included.
    spans = chunk_text(text, format=fmt, settings=cfg)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "s.sqlite")
        try:
            with store.transaction():
                store.put_document(
                    rowid=None,
                    document_id="d1",
                    source="s",
                    path="s",
                    origin="o",
                    external_id=None,
                    format=fmt,
                    title=None,
                    text=text,
                    content_hash="h",
                    fingerprint="f",
                    metadata={},
                    chunks=[
                        NewChunk(f"c{i}", s.start, s.end, s.metadata, 1, 1)
                        for i, s in enumerate(spans)
                    ],
                )
            rows = store.chunks_by_rowid([rowid for rowid, _, _ in store.indexed_texts()])
        finally:
            store.close()
    assert sorted((r.start, r.end, r.text) for r in rows.values()) == [
        (s.start, s.end, text[s.start : s.end]) for s in spans
    ]


def test_markdown_chunks_keep_their_heading_path() -> None:
    body = "Calibrate the widget with the torque gauge every ninety days. " * 12
    text = f"# Manual\n\n## Setup\n\n{body}\n\n## Safety\n### Gloves\n\n{body}"
    spans = chunk_text(text, format="markdown", settings=ChunkSettings(400, 100))
    paths = [s.metadata["heading_path"] for s in spans]
    assert paths[0] == ["Manual"]
    assert ["Manual", "Setup"] in paths
    assert paths[-1] == ["Manual", "Safety", "Gloves"]


def test_a_heading_path_shows_escaped_punctuation_as_the_character_it_stands_for() -> None:
    # As trafilatura writes Node's "Stream[src]" heading; a backslash before a letter stays.
    assert heading("## Stream\\[src\\] \\*and\\* C:\\dir\n") == (2, "Stream[src] *and* C:\\dir")
    text = "# Stream\\[src\\]\n\nReadable streams.\n"
    spans = chunk_text(text, format="markdown", settings=ChunkSettings(400, 100))
    assert spans[0].metadata["heading_path"] == ["Stream[src]"]


def test_a_heading_is_never_left_alone_in_a_chunk() -> None:
    para = "word " * 70
    text = f"# Title\n\n## Empty section\n\n### Child\n\n{para}\n\n{para}"
    spans = chunk_text(text, format="markdown", settings=ChunkSettings(400, 100))
    for span in spans:
        piece = text[span.start : span.end]
        assert not all(line.startswith("#") for line in piece.splitlines() if line.strip())


def test_headings_inside_fenced_code_do_not_start_sections() -> None:
    text = "# Real\n\n```\n# not a heading\n```\n\n" + "text " * 100
    spans = chunk_text(text, format="markdown", settings=ChunkSettings(200, 50))
    assert all(s.metadata["heading_path"] == ["Real"] for s in spans)


@settings(max_examples=400, deadline=None)
@given(text=texts, cfg=chunk_settings, fmt=st.sampled_from(["markdown", "html", "rst"]))
# Found by Hypothesis: the heading line and the space before its text fill the chunk exactly.
@example(text="## " + "w" * 96 + "```\n a", cfg=ChunkSettings(104, 0), fmt="markdown")
@example(text="# a\n\n" + "x" * 45, cfg=ChunkSettings(20, 0), fmt="markdown")
@example(text="# a## ```\n\n\naaaa# ```\n", cfg=ChunkSettings(20, 0), fmt="markdown")
def test_a_heading_always_shares_a_chunk_with_the_start_of_its_text(
    text: str, cfg: ChunkSettings, fmt: str
) -> None:
    spans = chunk_text(text, format=fmt, settings=cfg)
    for section in sections_of(text, fmt):
        if not section.lead:
            continue
        body = text[section.start + section.lead : section.end]
        if not body.strip():
            continue  # a heading with no text of its own
        first_char = section.start + section.lead + (len(body) - len(body.lstrip()))
        heading_line = text[section.start : section.start + section.lead]
        heading_at = section.start + len(heading_line) - len(heading_line.lstrip())
        if first_char + 1 - heading_at > cfg.size:
            continue  # no chunk can hold the heading and the first character of its text
        holding = [s for s in spans if s.start <= heading_at < s.end]
        assert holding, "the heading is in some chunk"
        assert holding[0].end > first_char, "and so is the first character of its text"


def test_a_heading_keeps_its_text_when_a_blank_line_precedes_one_unbreakable_word() -> None:
    # Found by Hypothesis: the blank line became an atom of its own, so the heading was glued to
    # it alone and the word, cut at the chunk size, started the next chunk.
    text = "# a\n\n" + "x" * 45
    spans = chunk_text(text, format="markdown", settings=ChunkSettings(20, 0))
    assert text[spans[0].start : spans[0].end] == "# a\n\n" + "x" * 15


def test_a_heading_before_a_paragraph_that_nearly_fills_a_chunk_stays_with_it() -> None:
    intro = "Intro paragraph about wombats and their habits. " * 10
    para = ("Wombats dig burrows " * 60)[:990].rstrip() + "."
    text = f"{intro}\n\n## Burrows\n\n{para}\n\nMore text."
    spans = chunk_text(text, format="markdown", settings=ChunkSettings(1000, 200))
    assert not text[spans[0].start : spans[0].end].endswith("## Burrows")
    assert text[spans[1].start :].startswith("## Burrows\n\nWombats")
