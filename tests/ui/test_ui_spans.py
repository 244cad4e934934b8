"""How a page cuts stored text: the marked span is exactly ``text[start:end]``, every quote's
pieces join back to exactly that quote, and a document is found by its id alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from groundkit import open_collection
from groundkit.errors import ErrorCode, GroundkitError
from groundkit.serve.ui.spans import WINDOW, document_view, quote_pieces

TEXT = "The wombat digs long burrows with its strong claws."


def test_the_document_view_marks_exactly_the_span_inside_the_chunk() -> None:
    view = document_view("intro. " + TEXT + " outro.", (7, 7 + len(TEXT)), (18, 35))

    assert view.mark == ("intro. " + TEXT)[18:35]
    assert (
        view.before + view.lead + view.mark + view.tail + view.after == "intro. " + TEXT + " outro."
    )
    assert view.lead == "The wombat "


@pytest.mark.parametrize("mark", [(0, 5), (7, 100), (10, 10)])
def test_a_span_outside_the_chunk_or_empty_is_refused(mark: tuple[int, int]) -> None:
    with pytest.raises(GroundkitError) as caught:
        document_view("intro. " + TEXT, (7, 7 + len(TEXT)), mark)

    assert caught.value.code == ErrorCode.USAGE


def test_a_long_document_shows_a_window_around_the_chunk_and_counts_the_rest() -> None:
    text = "a" * (WINDOW + 10) + "CITED" + "b" * (WINDOW + 20)
    view = document_view(text, (WINDOW + 10, WINDOW + 15))

    assert view.mark == "CITED"
    assert (view.hidden_before, view.hidden_after) == (10, 20)
    assert len(view.before) == len(view.after) == WINDOW


def test_overlapping_quotes_each_light_exactly_their_own_text() -> None:
    quotes = [(1, 4, 20), (2, 11, 28), (3, 38, 50)]
    pieces = quote_pieces(TEXT, quotes)

    assert "".join(p.text for p in pieces) == TEXT
    for marker, start, end in quotes:
        assert "".join(p.text for p in pieces if marker in p.markers) == TEXT[start:end]


def test_a_quote_out_of_range_is_left_unmarked() -> None:
    pieces = quote_pieces(TEXT, [(1, 40, 99)])

    assert [p.markers for p in pieces] == [()]


@given(
    st.text(min_size=1, max_size=40),
    st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40)), max_size=6),
)
def test_pieces_always_join_back_to_the_text_and_to_each_quote(
    text: str, spans: list[tuple[int, int]]
) -> None:
    quotes = [(n, min(a, b), max(a, b)) for n, (a, b) in enumerate(spans, start=1)]
    pieces = quote_pieces(text, quotes)

    assert "".join(p.text for p in pieces) == text
    for marker, start, end in quotes:
        if 0 <= start < end <= len(text):
            assert "".join(p.text for p in pieces if marker in p.markers) == text[start:end]


def test_a_document_is_found_by_its_id_and_not_by_its_source(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("Alpha text.\n")
    with open_collection("c", index_dir=tmp_path / "index") as collection:
        collection.ingest([tmp_path / "docs"])
        stored = collection.documents()[0]
        found = collection.document(stored.document_id)
        with pytest.raises(GroundkitError) as by_source:
            collection.document(stored.source)

    assert found == stored
    assert by_source.value.code == ErrorCode.DOCUMENT_NOT_FOUND
