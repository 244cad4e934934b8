"""The languages the map reads come from one list, ``extract.LANGUAGES``."""

from __future__ import annotations

import pytest

from groundkit.codemap import extract
from groundkit.codemap.api import default_extractors
from groundkit.codemap.extract import LANGUAGES, Language
from groundkit.codemap.extract.base import Extractor


def test_the_map_reads_every_registered_language_in_the_order_listed() -> None:
    assert [lang.name for lang in LANGUAGES] == ["python", "typescript"]
    assert [e.language for e in default_extractors()] == ["python", "typescript"]


def _missing() -> Extractor:
    raise ImportError("No module named 'tree_sitter_cobol'")


def test_an_optional_language_that_cannot_be_imported_is_left_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(extract, "LANGUAGES", (*LANGUAGES, Language("cobol", _missing, True)))
    assert [e.language for e in default_extractors()] == [lang.name for lang in LANGUAGES]


def test_a_required_language_that_cannot_be_imported_fails_the_map(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(extract, "LANGUAGES", (*LANGUAGES, Language("cobol", _missing)))
    with pytest.raises(ImportError):
        default_extractors()
