"""The extracted answer over REST and MCP (issue 35): the evidence and the pieces of it that
best match a question, marked in the best passage, each cut from the stored text at offsets; no
model is reached, whatever the collection allows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_mcp import call

import groundkit.answer.access
import groundkit.answer.session
from groundkit.serve.runtime import Runtime

QUESTION = "what does the wombat dig"


def _stored(docs: Path) -> str:
    return (docs / "wombats.md").read_text(encoding="utf-8")


def _check(body: dict[str, Any], docs: Path) -> None:
    assert body["no_searchable_words"] is False
    assert body["evidence"]
    digs = [p for p in body["pieces"] if "digs long burrows" in p["text"]]
    assert digs
    stored = _stored(docs)
    for piece in body["pieces"]:
        if piece["source"] == "wombats.md":
            assert stored[piece["start"] : piece["end"]] == piece["text"]
    excerpt = body["excerpt"]
    assert excerpt["verification"] == "verified"
    assert stored[excerpt["start"] : excerpt["end"]] == excerpt["text"]
    texts = {p["marker"]: p["text"] for p in body["pieces"]}
    for mark in excerpt["marks"]:
        assert excerpt["text"][mark["start"] : mark["end"]] == texts[mark["marker"]]


def test_rest_extract_gives_the_marked_excerpt_and_pieces_cut_from_the_stored_text(
    client: TestClient, docs: Path
) -> None:
    response = client.post("/v1/extract", json={"collection": "notes", "query": QUESTION})
    assert response.status_code == 200, response.text
    _check(response.json(), docs)


def test_mcp_extract_answers_as_rest_does(runtime: Runtime, docs: Path) -> None:
    result = call(runtime, "extract", query=QUESTION, collection="notes")
    assert not result.is_error
    _check(json.loads(result.content[0].text), docs)  # type: ignore[union-attr]


def test_a_question_of_stop_words_says_it_has_no_searchable_words(client: TestClient) -> None:
    body = client.post("/v1/extract", json={"collection": "notes", "query": "the of and"}).json()
    assert body["no_searchable_words"] is True
    assert body["pieces"] == []


def test_extract_never_resolves_a_model_even_where_ai_is_allowed(
    client: TestClient, docs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def forbidden(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the extract reached for a model")

    monkeypatch.setattr(groundkit.answer.access, "resolve_chat", forbidden)
    monkeypatch.setattr(groundkit.answer.session, "open_session", forbidden)
    response = client.post("/v1/extract", json={"collection": "notes", "query": QUESTION})
    assert response.status_code == 200
