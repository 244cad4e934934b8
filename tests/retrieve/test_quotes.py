"""Quote verification through the library: verbatim or not, and where in the stored text."""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Any

import pytest

from groundkit import Citation, Collection
from groundkit.errors import ErrorCode, GroundkitError

TEXT = "# Notes\n\nThe caf\u00e9 opens at nine. The caf\u00e9 closes at six. aaa\n"


@pytest.fixture
def notes(open_col: Any, tmp_path: Path) -> Collection:
    source = tmp_path / "notes.md"
    source.write_text(TEXT, encoding="utf-8")
    collection: Collection = open_col()
    collection.ingest([source])
    return collection


def first_chunk(collection: Collection) -> Citation:
    return collection.search("cafe opens")[0].citation


def test_a_verbatim_quote_is_found_at_its_offsets_in_the_stored_document(notes: Collection) -> None:
    cited = first_chunk(notes)

    check = notes.verify_quote("closes at six", chunk_id=cited.chunk_id)

    assert check.verbatim
    assert TEXT[check.start : check.end] == "closes at six"
    assert check.document_id == cited.document_id


def test_every_occurrence_is_counted_and_the_first_is_located(notes: Collection) -> None:
    document_id = first_chunk(notes).document_id

    assert notes.verify_quote("The caf\u00e9", document_id=document_id).occurrences == 2
    overlapping = notes.verify_quote("aa", document_id=document_id)
    assert overlapping.occurrences == 2
    assert overlapping.start == TEXT.index("aaa")


def test_a_quote_is_normalised_as_ingested_text_is_and_nothing_more(notes: Collection) -> None:
    document_id = first_chunk(notes).document_id
    decomposed = unicodedata.normalize("NFD", "caf\u00e9 opens")

    assert notes.verify_quote(decomposed, document_id=document_id).verbatim
    assert not notes.verify_quote("CAF\u00c9 OPENS", document_id=document_id).verbatim
    assert not notes.verify_quote("cafe opens", document_id=document_id).verbatim


def test_a_quote_outside_the_chunk_is_not_verbatim_in_it(open_col: Any, tmp_path: Path) -> None:
    source = tmp_path / "long.md"
    source.write_text("# One\n\n" + "alpha " * 300 + "\n\n# Two\n\n" + "omega " * 300 + "\n")
    collection = open_col()
    collection.ingest([source])
    alpha = collection.search("alpha")[0].citation

    assert not collection.verify_quote("omega omega", chunk_id=alpha.chunk_id).verbatim
    assert collection.verify_quote("omega omega", document_id=alpha.document_id).verbatim


def test_unknown_targets_and_bad_calls_raise_their_codes(notes: Collection) -> None:
    cases = [
        ({"chunk_id": "cnope"}, "x", ErrorCode.CHUNK_NOT_FOUND),
        ({"document_id": "dnope"}, "x", ErrorCode.DOCUMENT_NOT_FOUND),
        ({}, "x", ErrorCode.USAGE),
        ({"document_id": first_chunk(notes).document_id}, "", ErrorCode.USAGE),
    ]
    for target, quote, code in cases:
        with pytest.raises(GroundkitError) as raised:
            notes.verify_quote(quote, **target)
        assert raised.value.code == code


def test_counting_a_long_quote_in_a_repetitive_document_takes_linear_time(
    open_col: Any, tmp_path: Path
) -> None:
    # Finding each overlapping occurrence anew re-reads the whole quote: 20,000 characters
    # times ~500,000 occurrences is minutes of CPU from one read-only request.
    import time

    source = tmp_path / "rule.txt"
    source.write_text("=" * 500_000 + "\n", encoding="utf-8")
    collection: Collection = open_col()
    collection.ingest([source])
    [document] = collection.documents()

    began = time.perf_counter()
    check = collection.verify_quote("=" * 20_000, document_id=document.document_id)
    elapsed = time.perf_counter() - began

    assert (check.start, check.occurrences) == (0, 500_000 - 20_000 + 1)
    assert elapsed < 5  # linear: well under a second; quadratic: about half a minute


def test_overlapping_occurrences_are_counted_exactly_however_many_there_are() -> None:
    from groundkit.retrieve.quotes import occurrences

    cases = [("ab" * 300, "abab"), ("a" * 500, "aaa"), ("abcab" * 100, "abcab"), ("xyz", "q")]
    for text, quote in cases:
        brute = [i for i in range(len(text)) if text.startswith(quote, i)]
        expected = (brute[0] if brute else -1, len(brute))
        assert occurrences(text, quote, 0, len(text)) == expected, quote
        inner = [i for i in brute if i >= 7 and i + len(quote) <= len(text) - 3]
        assert occurrences(text, quote, 7, len(text) - 3)[1] == len(inner), quote
