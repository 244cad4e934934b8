"""Drift is judged on the cited span, not the whole file: the source is read again the way it was
ingested and the cited text looked for where it was, near there, then anywhere."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import groundkit
from groundkit import Verification
from pdfs import make_pdf

INTRO = "# Field guide\n\nA short guide to the animals of the creek.\n\n"
CITED = "## Platypus\n\nThe platypus hunts shrimp at dusk with its electric bill.\n"
TAIL = "\n## Numbat\n\nThe numbat eats termites by day and never swims.\n"


@pytest.fixture
def coll(tmp_path: Path) -> Iterator[groundkit.Collection]:
    settings = groundkit.Settings().replace(
        chunk=groundkit.Settings().chunk.replace(size=80, min_size=20)
    )
    with groundkit.open_collection("d", index_dir=tmp_path / "index", settings=settings) as c:
        yield c


def cited_hit(coll: groundkit.Collection, source: Path, query: str) -> groundkit.Hit:
    coll.ingest([str(source)])
    return coll.search(query, top_k=1)[0]


def test_an_edit_far_from_the_cited_text_leaves_it_verified(
    coll: groundkit.Collection, tmp_path: Path
) -> None:
    guide = tmp_path / "guide.md"
    guide.write_text(INTRO + CITED + TAIL)
    hit = cited_hit(coll, guide, "platypus electric bill")

    guide.write_text(INTRO.replace("Field guide", "Creek guide") + CITED + TAIL)
    shown = coll.show(hit.citation.chunk_id)

    assert shown.verification == Verification.VERIFIED  # it was "drifted" when the file was hashed
    assert shown.moved_to is None  # same length title: the span did not move


def test_an_edit_of_the_cited_text_is_drift(coll: groundkit.Collection, tmp_path: Path) -> None:
    guide = tmp_path / "guide.md"
    guide.write_text(INTRO + CITED + TAIL)
    hit = cited_hit(coll, guide, "platypus electric bill")

    guide.write_text(INTRO + CITED.replace("shrimp", "yabbies") + TAIL)

    assert coll.show(hit.citation.chunk_id).verification == Verification.DRIFTED


def test_a_moved_span_is_verified_with_its_new_offsets_and_lines(
    coll: groundkit.Collection, tmp_path: Path
) -> None:
    guide = tmp_path / "guide.md"
    guide.write_text(INTRO + CITED + TAIL)
    hit = cited_hit(coll, guide, "platypus electric bill")
    added = "## Echidna\n\nThe echidna lays an egg.\n\nIt has spines.\n\n"

    guide.write_text(INTRO + added + CITED + TAIL)
    shown = coll.show(hit.citation.chunk_id)

    now = guide.read_text()
    assert shown.verification == Verification.VERIFIED
    assert shown.moved_to is not None
    moved = shown.moved_to
    assert (moved.start, moved.end) == (
        hit.citation.start + len(added),
        hit.citation.end + len(added),
    )
    assert now[moved.start : moved.end] == hit.text
    assert hit.citation.line is not None
    assert moved.line == hit.citation.line + added.count("\n")
    assert now.splitlines()[moved.line - 1] == hit.text.splitlines()[0]


def test_a_deleted_source_is_missing_and_a_binary_one_unreadable(
    coll: groundkit.Collection, tmp_path: Path
) -> None:
    guide = tmp_path / "guide.md"
    guide.write_text(INTRO + CITED + TAIL)
    hit = cited_hit(coll, guide, "platypus electric bill")

    guide.write_bytes(b"\x00\x01binary now")
    unreadable = coll.show(hit.citation.chunk_id).verification
    guide.unlink()
    missing = coll.show(hit.citation.chunk_id).verification

    assert (unreadable, missing) == (Verification.UNREADABLE, Verification.MISSING)


def test_html_is_read_again_through_the_same_extraction(
    coll: groundkit.Collection, tmp_path: Path
) -> None:
    page = tmp_path / "guide.html"
    cited = "<h2>Platypus</h2><p>The platypus hunts shrimp at dusk with its electric bill.</p>"
    other = "<h2>Numbat</h2><p>The numbat eats termites by day and never swims.</p>"
    html = "<html><head><title>{}</title></head><body><main><h1>{}</h1>{}{}</main></body></html>"
    page.write_text(html.format("Old", "Creek", cited, other))
    hit = cited_hit(coll, page, "platypus electric bill")

    page.write_text(html.format("New", "Creek", cited, other.replace("day", "night")))
    elsewhere = coll.show(hit.citation.chunk_id)
    page.write_text(html.format("Old", "Creek", cited.replace("dusk", "dawn"), other))
    drifted = coll.show(hit.citation.chunk_id)

    assert "Numbat" not in hit.text
    assert (elsewhere.verification, elsewhere.moved_to) == (Verification.VERIFIED, None)
    assert drifted.verification == Verification.DRIFTED


def test_a_pdf_with_a_page_added_before_still_holds_the_cited_text(
    coll: groundkit.Collection, tmp_path: Path
) -> None:
    pdf = tmp_path / "guide.pdf"
    pdf.write_bytes(make_pdf(["The platypus hunts shrimp at dusk.", "The numbat eats termites."]))
    hit = cited_hit(coll, pdf, "platypus shrimp")

    pdf.write_bytes(
        make_pdf(
            ["Preface page.", "The platypus hunts shrimp at dusk.", "The numbat eats termites."]
        )
    )
    shown = coll.show(hit.citation.chunk_id)

    assert shown.verification == Verification.VERIFIED
    assert shown.moved_to is not None
    assert shown.moved_to.start > hit.citation.start


def test_a_record_whose_other_fields_changed_still_holds_the_cited_text(
    coll: groundkit.Collection, tmp_path: Path
) -> None:
    records = tmp_path / "r.jsonl"
    record = {"id": "p", "text": "The platypus hunts shrimp at dusk.", "metadata": {"v": 1}}
    records.write_text(json.dumps(record) + "\n")
    hit = cited_hit(coll, records, "platypus shrimp")

    records.write_text(json.dumps({**record, "metadata": {"v": 2}}) + "\n")
    kept = coll.show(hit.citation.chunk_id).verification
    records.write_text(json.dumps({**record, "text": "The platypus sleeps."}) + "\n")
    changed = coll.show(hit.citation.chunk_id).verification

    assert (kept, changed) == (Verification.VERIFIED, Verification.DRIFTED)
