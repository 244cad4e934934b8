"""The REST API through the test client: answers as the library gives them, errors as codes."""

from __future__ import annotations

import inspect
import os
from pathlib import Path

from fastapi.testclient import TestClient
from serving import SECRET, client_for, make_runtime

import groundkit
from groundkit.serve.runtime import Runtime


def search(client: TestClient, query: str, **more: object) -> list[dict[str, object]]:
    response = client.post("/v1/search", json={"collection": "notes", "query": query, **more})
    assert response.status_code == 200, response.text
    hits: list[dict[str, object]] = response.json()["hits"]
    return hits


def test_search_gives_the_same_hits_as_the_library(client: TestClient, index_dir: Path) -> None:
    hits = search(client, "wombat burrows", top_k=3)

    with groundkit.open_collection("notes", index_dir=index_dir) as notes:
        expected = [hit.to_dict() for hit in notes.search("wombat burrows", top_k=3)]
    assert hits == expected
    assert hits[0]["source"].endswith("wombats.md")  # type: ignore[union-attr]


def test_search_is_not_reachable_with_the_query_in_the_url(client: TestClient) -> None:
    response = client.get("/v1/search", params={"collection": "notes", "query": "wombat"})

    assert response.status_code == 405
    assert response.json()["code"] == "serve.method_not_allowed"


def test_collections_lists_every_collection(client: TestClient, runtime: Runtime) -> None:
    assert client.get("/v1/collections").json() == {"collections": ["notes"]}


def test_collection_status_reports_counts_embedder_and_health(client: TestClient) -> None:
    status = client.get("/v1/collections/notes").json()

    assert status["collection"] == "notes"
    assert status["documents"] == 2
    assert status["chunks"] == status["lexical_chunks"] > 0
    assert status["embedder"] is None
    assert status["health"] == "ok"


def test_a_chunk_comes_back_with_its_text_and_verification(client: TestClient) -> None:
    hit = search(client, "echidna egg")[0]

    chunk = client.get(f"/v1/chunks/notes/{hit['chunk_id']}").json()

    assert chunk["text"] == hit["text"]
    assert chunk["verification"] == "verified"
    assert (chunk["start"], chunk["end"]) == (hit["start"], hit["end"])


def test_a_chunk_whose_source_changed_is_reported_drifted(client: TestClient, docs: Path) -> None:
    hit = search(client, "echidna egg")[0]
    (docs / "guides" / "echidnas.txt").write_text("Echidnas now lay two eggs.\n")

    chunk = client.get(f"/v1/chunks/notes/{hit['chunk_id']}").json()

    assert chunk["verification"] == "drifted"


def test_verify_finds_a_verbatim_quote_at_its_offsets_in_the_stored_document(
    client: TestClient, index_dir: Path
) -> None:
    hit = search(client, "wombat diet grasses")[0]
    quote = "eats grasses, roots and bark \u2014 and the odd caf\u00e9"

    by_chunk = client.post(
        "/v1/verify", json={"collection": "notes", "chunk_id": hit["chunk_id"], "quote": quote}
    ).json()
    by_document = client.post(
        "/v1/verify",
        json={"collection": "notes", "document_id": hit["document_id"], "quote": quote},
    ).json()

    assert by_chunk["verbatim"] is True
    assert by_chunk == {**by_document, "chunk_id": hit["chunk_id"]}
    with groundkit.open_collection("notes", index_dir=index_dir) as notes:
        chunk = notes.show(str(hit["chunk_id"]))
    # The chunk is the stored document's [start, end): the quote's offsets land inside it.
    lo = by_chunk["start"] - chunk.citation.start
    assert chunk.text[lo : lo + len(quote)] == quote
    assert by_chunk["end"] - by_chunk["start"] == len(quote)


def test_verify_says_no_to_a_quote_that_is_not_verbatim(client: TestClient) -> None:
    hit = search(client, "wombat burrows")[0]

    verdict = client.post(
        "/v1/verify",
        json={"collection": "notes", "chunk_id": hit["chunk_id"], "quote": "wombat digs SHORT"},
    ).json()

    assert verdict["verbatim"] is False
    assert verdict["start"] is None
    assert verdict["occurrences"] == 0


def test_verify_wants_exactly_one_of_chunk_or_document(client: TestClient) -> None:
    response = client.post("/v1/verify", json={"collection": "notes", "quote": "wombat"})

    assert response.status_code == 422
    assert response.json()["code"] == "serve.invalid_request"


def test_health_and_readiness_answer_ok(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json() == {"status": "ok"}


def test_an_unknown_collection_is_404_collection_not_found(client: TestClient) -> None:
    response = client.post("/v1/search", json={"collection": "nope", "query": "wombat"})

    assert response.status_code == 404
    body = response.json()
    assert body["code"] == "collection.not_found"
    assert body["request_id"] == response.headers["x-request-id"]
    assert client.get("/v1/collections/nope").status_code == 404


def test_an_unknown_chunk_is_404_chunk_not_found(client: TestClient) -> None:
    response = client.get("/v1/chunks/notes/c0000000000000000")

    assert response.status_code == 404
    assert response.json()["code"] == "chunk.not_found"


def test_a_malformed_body_is_422_without_echoing_the_input(client: TestClient) -> None:
    response = client.post(
        "/v1/search", json={"collection": "notes", "query": "wombat", "top_k": "zebra-secret"}
    )

    assert response.status_code == 422
    assert response.json()["code"] == "serve.invalid_request"
    assert "zebra-secret" not in response.text


def test_a_blank_query_is_422_invalid_query(client: TestClient) -> None:
    response = client.post("/v1/search", json={"collection": "notes", "query": "   "})

    assert response.status_code == 422
    assert response.json()["code"] == "usage.invalid_query"


def test_an_unknown_route_is_404_with_a_code(client: TestClient) -> None:
    response = client.get("/v2/nothing")

    assert response.status_code == 404
    assert response.json()["code"] == "serve.route_not_found"


def test_a_caller_request_id_is_kept_and_echoed(client: TestClient) -> None:
    response = client.get("/v1/collections", headers={"X-Request-ID": "abc-123"})

    assert response.headers["x-request-id"] == "abc-123"


def test_an_ingest_through_rest_is_searchable_at_once(admin: TestClient, more: Path) -> None:

    report = admin.post(
        "/v1/ingest",
        json={"collection": "notes", "inputs": [str(more)]},
        headers={"X-Groundkit-Secret": SECRET},
    )

    assert report.status_code == 200, report.text
    assert report.json()["new"] == 1
    assert search(admin, "quokka")[0]["source"].endswith("quokka.md")  # type: ignore[union-attr]


def test_deleting_a_document_and_a_collection_through_rest(admin: TestClient) -> None:
    hit = search(admin, "echidna")[0]
    auth = {"X-Groundkit-Secret": SECRET}

    gone = admin.delete(f"/v1/collections/notes/documents/{hit['document_id']}", headers=auth)
    assert gone.json() == {"collection": "notes", "document_id": hit["document_id"]}
    assert all(h["document_id"] != hit["document_id"] for h in search(admin, "echidna"))

    assert admin.delete("/v1/collections/notes", headers=auth).status_code == 200
    assert admin.get("/v1/collections").json() == {"collections": []}
    assert admin.get("/v1/collections/notes").json()["code"] == "collection.not_found"


def test_a_second_runtime_writes_nothing_without_the_secret(runtime: Runtime) -> None:
    with client_for(runtime) as client:
        refused = client.post("/v1/ingest", json={})
        assert (refused.status_code, refused.json()["code"]) == (403, "auth.invalid")


def test_every_kind_of_error_carries_the_request_id_of_its_response(client: TestClient) -> None:
    for response in (
        client.get("/v2/nothing"),  # 404 from the router
        client.get("/v1/search"),  # 405 from the router
        client.post("/v1/search", json={"collection": "notes"}),  # 422 from validation
        client.get("/v1/collections", headers={"Host": "evil.example"}),  # 421 from a guard
        client.post("/v1/search", json={"collection": "nope", "query": "x"}),  # 404, library
    ):
        assert response.json()["request_id"] == response.headers["x-request-id"], response.url


def test_search_and_verify_without_a_collection_use_the_configured_one(
    runtime: Runtime, settings: groundkit.Settings
) -> None:
    configured = make_runtime(settings.replace(collection="notes"))
    try:
        client = client_for(configured)
        found = client.post("/v1/search", json={"query": "wombat burrows"})
        assert found.status_code == 200, found.text
        assert found.json()["collection"] == "notes"
        chunk_id = found.json()["hits"][0]["chunk_id"]
        verdict = client.post("/v1/verify", json={"chunk_id": chunk_id, "quote": "wombat"})
        assert verdict.json()["verbatim"] is True
    finally:
        configured.close()
    elsewhere = client_for(runtime).post("/v1/search", json={"query": "wombat burrows"})
    assert (elsewhere.status_code, elsewhere.json()["code"]) == (404, "collection.not_found")


def test_a_chunk_whose_source_became_a_fifo_answers_not_checked_with_the_reason(
    client: TestClient, docs: Path
) -> None:
    hit = client.post("/v1/search", json={"query": "wombat burrows", "collection": "notes"})
    chunk_id = hit.json()["hits"][0]["chunk_id"]
    (docs / "wombats.md").unlink()
    os.mkfifo(docs / "wombats.md")  # before: the worker blocked in open() for ever

    chunk = client.get(f"/v1/chunks/notes/{chunk_id}").json()

    assert chunk["verification"] == "not_checked"
    assert chunk["reason"].startswith("not a regular file")
    assert client.get("/healthz").json() == {"status": "ok"}


def test_healthz_runs_on_the_event_loop_so_busy_workers_never_hold_it() -> None:
    from groundkit.serve.rest import healthz

    assert inspect.iscoroutinefunction(healthz)
