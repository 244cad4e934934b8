"""`grk answer` shows what answers as a reader wants it (issue 35): the best passage with the
extracted sentences marked in it, the code a sentence introduces kept as code, the excerpt
checked at its origin like every quote; and a question of stop words alone says so, as
`grk search` does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grk_runner import Grk

ADVANCED = """SSL Cert Verification
---------------------

Requests verifies SSL certificates for HTTPS requests, just like a web browser.

Requests can also ignore verifying the SSL certificate if you set ``verify`` to False::

    >>> requests.get('https://example.org', verify=False)
    <Response [200]>

Note that when ``verify`` is set to ``False``, requests will accept any TLS certificate.
"""


@pytest.fixture
def grk(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Grk:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "advanced.rst").write_text(ADVANCED, encoding="utf-8")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))  # no opt-in: AI is off
    runner = Grk(tmp_path / "index", capsys)
    assert runner("ingest", str(docs), "--quiet") == 0
    return runner


QUESTION = "how do I disable SSL certificate verification"


def test_the_best_passage_is_shown_with_the_extracted_sentence_and_its_code_marked(
    grk: Grk,
) -> None:
    assert grk("answer", QUESTION) == 0
    head = grk.out.split("\nevidence:", 1)[0]
    assert "marked in the best passage:\n  advanced.rst:" in head
    assert "(verified)" in head
    assert (
        "    \u00abRequests can also ignore verifying the SSL certificate if you set ``verify``"
        " to False::\n\n        >>> requests.get('https://example.org', verify=False)\n"
        "        <Response [200]>\u00bb\n" in head
    )


def test_the_json_excerpt_is_cut_from_the_stored_document_and_marks_the_cited_sentences(
    grk: Grk, tmp_path: Path
) -> None:
    report = grk.json("answer", QUESTION)
    excerpt = report["excerpt"]
    stored = (tmp_path / "docs" / "advanced.rst").read_text(encoding="utf-8")
    assert stored[excerpt["start"] : excerpt["end"]] == excerpt["text"]
    assert excerpt["verification"] == "verified"
    cited = {c["marker"]: c for c in report["extracted"]["citations"]}
    assert excerpt["marks"]
    for mark in excerpt["marks"]:
        inside = excerpt["text"][mark["start"] : mark["end"]]
        assert inside == cited[mark["marker"]]["cited_text"]
    assert any("verify=False" in excerpt["text"][m["start"] : m["end"]] for m in excerpt["marks"])


def test_a_question_of_stop_words_says_it_has_no_searchable_words_as_search_does(
    grk: Grk,
) -> None:
    assert grk("answer", "the of and to is") == 0
    assert "no searchable words" in grk.out
    assert "no passages found" not in grk.out
    report = grk.json("answer", "the of and to is")
    assert report["no_searchable_words"] is True
    assert report["evidence"]["items"] == []
    assert grk.json("answer", QUESTION)["no_searchable_words"] is False
