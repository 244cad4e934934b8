"""The pages, in process: what each shows, the policy they are served under, and the guards."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from ui_site import (
    EDGE,
    EDGE_QUOTE,
    MAP_QUESTION,
    QUESTION,
    QUOTES,
    SECRET,
    SYMBOL,
    WOMBAT,
    Site,
)

from groundkit.answer.access import AIEnvironment
from groundkit.answer.credentials import KeyStore
from groundkit.answer.optin import AISettings
from groundkit.serve.guards import ACCESS_LOGGER
from groundkit.serve.ui.web import CSP
from groundkit.testing.chat import (
    ForbiddenTransport,
    MemoryKeyring,
    RecordingTransport,
    openai_reply,
)

PAGES = [
    "/",
    "/ui/c/notes/search",
    f"/ui/c/notes/search?q={QUESTION}",
    "/ui/c/notes/answer",
    "/ui/maps/shop",
    "/ui/evals",
]


def html_of(response: Any) -> str:
    assert response.headers["content-type"].startswith("text/html"), response.text[:200]
    return str(response.text)


def first_chunk(client: TestClient, query: str = "wombat burrows", **body: Any) -> dict[str, Any]:
    found = client.post("/v1/search", json={"collection": "notes", "query": query, **body})
    hit: dict[str, Any] = found.json()["hits"][0]
    return hit


@pytest.fixture
def answers(site: Site, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Serve the answer pages with a transport double, an in-memory keychain, the site's opt-ins
    (or, with ``opt_ins``, another opt-in file)."""

    def use(transport: Any, opt_ins: Path | None = None) -> Any:
        runtime = AIEnvironment(
            keys=KeyStore(MemoryKeyring()),
            ai_settings=AISettings(opt_ins or site.xdg / "groundkit" / "ai.json"),
            transport=transport,
        )
        monkeypatch.setattr("groundkit.serve.ui.make_ai_environment", lambda: runtime)
        return transport

    return use


# -- every page ---------------------------------------------------------------------------------


@pytest.mark.parametrize("path", PAGES)
def test_every_page_is_served_under_the_strict_policy_and_loads_only_its_own_files(
    client: TestClient, path: str
) -> None:
    response = client.get(path)
    html = html_of(response)

    assert response.status_code == 200
    assert response.headers["content-security-policy"] == CSP
    assert "default-src 'self'" in CSP
    assert "unsafe" not in CSP
    assert response.headers["x-frame-options"] == "DENY"
    assert not re.search(r"<script(?![^>]*\bsrc=)", html), "an inline script"
    assert "<style" not in html, "an inline stylesheet"
    assert " style=" not in html, "an inline style"
    assert not re.search(r"\bon[a-z]+=", html), "an inline event handler"
    for url in re.findall(r'(?:src|href|action)="([^"]*)"', html):
        assert url.startswith(("/", "#")), url  # only this server's own pages and files


def test_static_files_are_only_those_in_the_package(client: TestClient) -> None:
    script = client.get("/ui/static/app.js")
    again = client.get("/ui/static/app.js", headers={"If-None-Match": script.headers["etag"]})

    assert script.status_code == 200
    assert script.headers["content-type"].startswith("text/javascript")
    assert script.headers["x-content-type-options"] == "nosniff"
    assert again.status_code == 304
    assert client.get("/ui/static/vendor/cytoscape.LICENSE.txt").status_code == 200
    for path in ("/ui/static/../web.py", "/ui/static/%2e%2e/web.py", "/ui/static/nope.js"):
        assert client.get(path).status_code == 404, path


def test_the_first_page_lists_collections_and_maps_with_counts_and_ai(client: TestClient) -> None:
    html = html_of(client.get("/"))

    notes = re.search(r'<a href="/ui/c/notes/search">notes</a>.*?</tr>', html, re.DOTALL)
    plain = re.search(r'<a href="/ui/c/plain/search">plain</a>.*?</tr>', html, re.DOTALL)
    shop = re.search(r'<a href="/ui/maps/shop">shop</a>.*?</tr>', html, re.DOTALL)
    assert notes
    assert plain
    assert shop
    assert 'data-label="Documents">3<' in notes.group(0)
    assert "on, profile box" in notes.group(0)
    assert ">off<" in plain.group(0)
    assert "none (bm25 only)" in plain.group(0)
    assert 'data-label="Files">6<' in shop.group(0)
    assert "on, profile coder" in shop.group(0)  # `grk ai enable map:shop` in the site
    assert 'badge-verified">ok<' in notes.group(0)  # index health


def test_without_a_secret_no_mutating_form_or_route_exists(client: TestClient) -> None:
    html = html_of(client.get("/"))

    assert 'type="password"' not in html
    assert "/ui/ingest" not in html
    assert "Delete" not in html
    assert client.post("/ui/ingest", data={"collection": "x"}).status_code in (404, 405)
    assert client.post("/ui/c/notes/delete", data={"secret": "x"}).status_code in (404, 405)
    assert client.get("/v1/collections").json()["collections"] == ["notes", "plain"]


def test_a_foreign_origin_or_host_is_refused_on_pages_as_on_the_api(client: TestClient) -> None:
    post = client.post(
        "/ui/c/notes/answer", data={"q": QUESTION}, headers={"Origin": "http://evil.example"}
    )
    rebinding = client.get("/", headers={"Host": "evil.example:8765"})

    assert post.status_code == 403
    assert post.json()["code"] == "serve.origin_rejected"
    assert rebinding.status_code == 421


# -- search and the document view --------------------------------------------------------------


def test_search_shows_title_snippet_score_each_arms_rank_and_the_citation(
    client: TestClient,
) -> None:
    html = html_of(client.get("/ui/c/notes/search", params={"q": "wombat burrows", "k": "2"}))
    hit = first_chunk(client, top_k=2)

    results = re.findall(r'<li class="result">.*?</li>', html, re.DOTALL)
    assert len(results) == 2
    first = results[0]
    assert "Wombats" in first  # the heading it sits under
    assert f'/ui/c/notes/doc/{hit["chunk_id"]}"' in first
    assert f"{hit['source']}:{hit['line']}" in first
    assert f"offsets {hit['start']}\u2013{hit['end']}" in first
    assert "score 0." in first
    assert "bm25 #" in first
    assert "dense #" in first
    assert "fused #" in first
    assert "hybrid" in html


def test_the_search_url_carries_mode_top_k_and_filters(client: TestClient) -> None:
    html = html_of(
        client.get(
            "/ui/c/notes/search",
            params={"q": "egg", "mode": "bm25", "k": "5", "source": "guides/*"},
        )
    )

    results = re.findall(r'<li class="result">.*?</li>', html, re.DOTALL)
    assert len(results) == 1
    assert "echidnas.txt" in results[0]
    assert "dense #" not in results[0]
    assert 'value="guides/*"' in html
    assert '<option value="bm25" selected>' in html


def test_a_metadata_filter_that_matches_nothing_says_so(client: TestClient) -> None:
    html = html_of(client.get("/ui/c/notes/search", params={"q": "wombat", "where": "year=1999"}))

    assert "No passage matches" in html
    assert "fewer filters" in html


def test_a_bad_search_shows_its_error_where_the_results_would_be(client: TestClient) -> None:
    dense = client.get("/ui/c/plain/search", params={"q": "wombat", "mode": "dense"})
    huge = client.get("/ui/c/notes/search", params={"q": "wombat", "k": "1000"})
    missing = client.get("/ui/c/nowhere/search")

    assert dense.status_code == 409
    assert "search.no_vectors" in dense.text
    assert 'id="results"' in dense.text  # the page stands; the results region says why
    assert huge.status_code == 422
    assert "top_k" in huge.text
    assert missing.status_code == 404
    assert "collection.not_found" in missing.text


def test_the_first_pages_search_box_goes_to_the_chosen_collection(client: TestClient) -> None:
    response = client.get(
        "/ui/search", params={"collection": "plain", "q": "a b"}, follow_redirects=False
    )

    assert response.status_code == 303
    assert response.headers["location"] == "/ui/c/plain/search?q=a+b"


def test_the_document_view_highlights_exactly_the_cited_text(client: TestClient) -> None:
    hit = first_chunk(client)
    html = html_of(client.get(f"/ui/c/notes/doc/{hit['chunk_id']}"))

    marked = re.search(r'<mark id="hl" tabindex="-1">(.*?)</mark>', html, re.DOTALL)
    assert marked is not None
    assert marked.group(1) == hit["text"].replace("&", "&amp;")  # escaped, nothing else
    assert "badge-verified" in html
    assert "Verified" in html
    assert "Stored text beside the file now" not in html


def test_a_span_inside_the_chunk_is_highlighted_and_one_outside_is_refused(
    client: TestClient,
) -> None:
    hit = first_chunk(client)
    at = hit["text"].index("strong claws")
    start = hit["start"] + at
    inside = html_of(
        client.get(
            f"/ui/c/notes/doc/{hit['chunk_id']}",
            params={"start": start, "end": start + len("strong claws")},
        )
    )
    outside = client.get(
        f"/ui/c/notes/doc/{hit['chunk_id']}", params={"start": 0, "end": hit["end"] + 5}
    )

    assert '<mark id="hl" tabindex="-1">strong claws</mark>' in inside
    assert outside.status_code == 400
    assert "usage" in outside.text


def test_a_drifted_source_shows_what_the_file_says_now(admin: TestClient, own_site: Site) -> None:
    hit = first_chunk(admin, "quokka smiles")
    (own_site.docs / "quokka.md").write_text(
        "# Quokkas\n\nThe quokka frowns on Rottnest Island every evening.\n", encoding="utf-8"
    )
    html = html_of(admin.get(f"/ui/c/notes/doc/{hit['chunk_id']}"))

    assert "badge-drifted" in html
    assert "Stored text beside the file now" in html
    assert '<mark class="current">' in html
    assert "frowns on Rottnest" in html
    assert "smiles on Rottnest" in html  # the stored text is still what is highlighted


def test_a_missing_source_says_missing(admin: TestClient, own_site: Site) -> None:
    hit = first_chunk(admin, "quokka smiles")
    (own_site.docs / "quokka.md").unlink()

    html = html_of(admin.get(f"/ui/c/notes/doc/{hit['chunk_id']}"))

    assert "badge-missing" in html
    assert "Missing" in html


def test_an_unknown_chunk_is_a_404_page(client: TestClient) -> None:
    response = client.get("/ui/c/notes/doc/c0000000000000000")

    assert response.status_code == 404
    assert "chunk.not_found" in response.text


def test_the_search_query_never_reaches_the_access_log(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger=ACCESS_LOGGER):
        client.get("/ui/c/notes/search", params={"q": "zygomorphic platypus"})

    lines = [r.getMessage() for r in caplog.records if r.name == ACCESS_LOGGER]
    assert any('"route": "/ui/c/{name}/search"' in line for line in lines)
    assert not any("zygomorphic" in line for line in lines)


# -- the answer page ------------------------------------------------------------------------------


def test_with_ai_off_the_answer_page_shows_the_evidence_and_calls_no_model(
    client: TestClient, answers: Any
) -> None:
    forbidden = answers(ForbiddenTransport())
    html = html_of(client.post("/ui/c/plain/answer", data={"q": QUESTION}))

    assert "AI for this collection: <b>off</b>" in html
    assert 'class="evidence"' in html
    assert "digs long burrows" in html
    assert 'class="marker"' not in html
    assert forbidden.calls == 0


def test_with_ai_off_the_answer_page_shows_the_extracted_sentences_said_to_be_no_models(
    client: TestClient, answers: Any
) -> None:
    answers(ForbiddenTransport())
    html = html_of(client.post("/ui/c/plain/answer", data={"q": QUESTION}))
    extracted = html.split("<h2>Extracted from the evidence</h2>", 1)[1].split("<h2>", 1)[0]
    assert "No model wrote this" in extracted
    assert "digs long burrows" in extracted
    assert re.search(r"\.md:\d+</code>", extracted)  # path:line, as search cites it


def test_opening_the_answer_page_never_calls_a_model(client: TestClient, answers: Any) -> None:
    forbidden = answers(ForbiddenTransport())
    html = html_of(client.get("/ui/c/notes/answer", params={"q": QUESTION}))

    assert f'value="{QUESTION}"' in html
    assert "on, profile box" in html
    assert 'id="answer"' in html
    assert "badge-state-answered" not in html  # AI is on: still, a link asks no model
    assert forbidden.calls == 0


def test_a_link_with_q_shows_the_evidence_and_the_best_passage_marked_like_search_does(
    client: TestClient, answers: Any
) -> None:
    forbidden = answers(ForbiddenTransport())
    html = html_of(client.get("/ui/c/notes/answer", params={"q": QUESTION, "mode": "bm25"}))

    assert 'class="evidence"' in html
    excerpt = html.split('<pre class="text excerpt">', 1)[1].split("</pre>", 1)[0]
    assert re.search(r"<mark data-markers=\"\d+\">[^<]*digs long burrows", excerpt)
    assert "No model was asked" in html
    assert "Ask</button>" in html  # the model is asked only from the form
    assert forbidden.calls == 0


def test_with_ai_off_the_answer_page_says_so_once(client: TestClient, answers: Any) -> None:
    answers(ForbiddenTransport())
    for html in (
        html_of(client.post("/ui/c/plain/answer", data={"q": QUESTION})),
        html_of(client.get("/ui/c/plain/answer", params={"q": QUESTION})),
    ):
        said = re.findall(r"AI is off|AI for this collection: <b>off</b>|ai\.disabled", html)
        assert said == ["AI for this collection: <b>off</b>"]


def test_a_question_of_stop_words_says_it_has_no_searchable_words(
    client: TestClient, answers: Any
) -> None:
    answers(ForbiddenTransport())
    html = html_of(client.post("/ui/c/plain/answer", data={"q": "the of and to is"}))
    assert "no searchable words" in html
    assert "No passage was found" not in html


def test_an_answer_marks_each_quote_inside_its_evidence(client: TestClient, answers: Any) -> None:
    from ui_site import GOOD_REPLY

    answers(RecordingTransport([openai_reply(GOOD_REPLY)]))
    html = html_of(
        client.post("/ui/c/notes/answer", data={"q": QUESTION, "mode": "bm25", "k": "3"})
    )

    assert "badge-state-answered" in html
    markers = re.findall(r'<a class="marker" href="([^"]+)" data-marker="(\d)"', html)
    assert [m for _, m in markers] == ["1", "2"]
    for (href, marker), quote in zip(markers, QUOTES, strict=True):
        lit = re.findall(
            rf'<span class="q" data-markers="[^"]*\b{marker}\b[^"]*">([^<]*)</span>', html
        )
        assert "".join(lit) == quote
        start = WOMBAT.index(quote)
        assert href.endswith(f"start={start}&amp;end={start + len(quote)}")


def test_a_refused_answer_shows_its_reason_and_the_evidence(
    client: TestClient, answers: Any
) -> None:
    from ui_site import BAD_REPLY

    answers(RecordingTransport([openai_reply(BAD_REPLY)]))
    html = html_of(client.post("/ui/c/notes/answer", data={"q": QUESTION, "mode": "bm25"}))

    assert "badge-state-refused" in html
    assert "ai.invalid_output" in html
    assert "not in source 1 exactly as written" in html
    assert "Wombats fly" not in html  # nothing of a refused answer is shown
    assert "digs long burrows" in html  # the evidence is


def test_a_question_that_fails_validation_says_why_on_the_page(
    client: TestClient, answers: Any
) -> None:
    forbidden = answers(ForbiddenTransport())
    response = client.post("/ui/c/notes/answer", data={"q": ""})

    assert response.status_code == 422
    assert "serve.invalid_request" in response.text
    assert forbidden.calls == 0


# -- code map ------------------------------------------------------------------------------------


def test_the_graph_has_areas_then_modules_with_edges_counted_by_kind(client: TestClient) -> None:
    areas = client.get("/ui/maps/shop/graph.json").json()
    modules = client.get("/ui/maps/shop/graph.json", params={"level": "module"}).json()
    billing = client.get(
        "/ui/maps/shop/graph.json", params={"level": "module", "area": "billing"}
    ).json()

    assert sorted(n["label"] for n in areas["nodes"]) == ["(routes)", "billing", "shop"]
    crossing = {(e["source"], e["kind"], e["target"]): e["count"] for e in areas["edges"]}
    assert crossing[("area:shop", "calls", "area:billing")] == 1
    assert crossing[("area:shop", "imports", "area:billing")] == 1
    assert crossing[("area:(routes)", "handles", "area:shop")] == 1
    names = sorted(n["name"] for n in modules["nodes"] if n["kind"] in ("module", "package"))
    assert names == ["billing", "billing.invoice", "billing.tax", "shop", "shop.api", "shop.db"]
    # Each module within its area's box (a package alone in its area draws no box of its own).
    assert {n["name"] for n in modules["nodes"] if n["kind"] == "area"} == {
        "(routes)",
        "billing",
        "shop",
    }
    assert "defines" not in {e["kind"] for e in modules["edges"]}
    assert {e["level"] for e in modules["edges"]} == {"area", "package", "module"}
    assert sorted(n["name"] for n in billing["nodes"] if n["kind"] != "area") == [
        "billing",
        "billing.invoice",
        "billing.tax",
    ]


def test_a_node_shows_its_trace_and_blast_with_evidence(client: TestClient) -> None:
    graph = client.get("/ui/maps/shop/graph.json", params={"level": "module"}).json()
    invoice = next(n["id"] for n in graph["nodes"] if n["name"] == "billing.invoice")
    html = html_of(client.get(f"/ui/maps/shop/node/{invoice}"))

    assert "Trace: where it leads" in html
    assert "Blast: what depends on it" in html
    assert "billing.invoice.bill calls billing.tax.rate at billing/invoice.py:5" in html
    assert "shop.api imports billing.invoice at shop/api.py:3" in html  # its blast


def test_an_edge_shows_its_evidence_provenance_confidence_location_and_check(
    client: TestClient,
) -> None:
    html = html_of(
        client.get(
            "/ui/maps/shop/edges",
            params={"level": "area", "from": "area:shop", "kind": "calls", "to": "area:billing"},
        )
    )

    assert '<h2 id="panel-h">shop calls billing</h2>' in html
    assert "shop.api.order calls billing.invoice.bill at shop/api.py:11: bill(order_id)" in html
    assert "call-imported" in html
    assert "0.98" in html
    assert "shop/api.py:11:4" in html
    assert "badge-verified" in html


def test_an_edge_whose_line_changed_is_drifted(admin: TestClient, own_site: Site) -> None:
    api = own_site.repo / "shop" / "api.py"
    api.write_text(api.read_text().replace("bill(order_id)", "bill(order_id, 2)"))
    html = html_of(
        admin.get(
            "/ui/maps/shop/edges",
            params={"level": "area", "from": "area:shop", "kind": "calls", "to": "area:billing"},
        )
    )

    assert "badge-drifted" in html


def test_an_area_lists_its_modules_and_crossings(client: TestClient) -> None:
    html = html_of(client.get("/ui/maps/shop/node/area:billing"))

    assert "Draw its 3 modules" in html
    assert "billing.tax" in html
    assert "shop → billing" in html


def test_the_map_page_and_its_404_and_bad_level(client: TestClient) -> None:
    assert client.get("/ui/maps/nowhere").status_code == 404
    assert client.get("/ui/maps/shop", params={"level": "files"}).status_code == 400


# -- asking the code map ------------------------------------------------------------------------

ASK_FORM = 'action="/ui/maps/shop/ask"'


def node_id(client: TestClient, qualname: str) -> str:
    """A node's id, as the drawing names it."""
    from groundkit import open_codemap

    settings = client.app.state.runtime.settings  # type: ignore[attr-defined]
    with open_codemap("shop", settings=settings) as codemap:
        return codemap.find(qualname).key.id


def ask(client: TestClient, **form: str) -> Any:
    return client.post("/ui/maps/shop/ask", data={"symbol": SYMBOL, "q": MAP_QUESTION, **form})


def test_where_ai_is_on_for_the_map_its_panel_offers_an_ask_box_and_a_node_fills_the_symbol(
    client: TestClient, answers: Any
) -> None:
    forbidden = answers(ForbiddenTransport())
    empty = html_of(client.get("/ui/maps/shop"))
    node = html_of(client.get(f"/ui/maps/shop/node/{node_id(client, SYMBOL)}"))

    assert ASK_FORM in empty
    assert 'id="ask-symbol" name="symbol" type="text" value=""' in empty
    assert "on, profile coder" in empty
    assert ASK_FORM in node
    assert f'id="ask-symbol" name="symbol" type="text" value="{SYMBOL}"' in node
    for scope in ("both", "trace", "blast"):
        assert f'<option value="{scope}"' in node
    assert forbidden.calls == 0  # showing the box reads the opt-in file, never a model


def test_where_ai_is_off_for_the_map_there_is_no_box_and_asking_shows_the_edges(
    client: TestClient, answers: Any, tmp_path: Path
) -> None:
    forbidden = answers(ForbiddenTransport(), opt_ins=tmp_path / "none.json")
    empty = html_of(client.get("/ui/maps/shop"))
    node = html_of(client.get(f"/ui/maps/shop/node/{node_id(client, SYMBOL)}"))
    asked = html_of(ask(client))

    for html in (empty, node):
        assert ASK_FORM not in html
        assert "AI is off for this map" in html
        assert "grk ai enable map:shop --profile NAME" in html
    assert "badge-state-disabled" in asked  # a POST anyway is `grk ask` with AI off
    assert "ai.disabled" in asked
    assert EDGE in asked
    assert 'class="marker"' not in asked
    assert forbidden.calls == 0


def test_an_answer_about_a_symbol_cites_file_line_marks_exactly_the_quote_and_shows_the_edges(
    client: TestClient, answers: Any
) -> None:
    from ui_site import MAP_GOOD_REPLY

    transport = answers(RecordingTransport([openai_reply(MAP_GOOD_REPLY)]))
    response = ask(client, scope="both")
    html = html_of(response)

    assert response.status_code == 200
    assert len(transport.sent) == 1
    assert EDGE in transport.sent[0].body.decode()  # the edge's evidence line is what was sent
    assert "badge-state-answered" in html
    assert "bill asks for the tax rate." in html
    assert '<a class="marker" href="#cite-1" data-marker="1"' in html
    cite = re.search(r'<li id="cite-1" class="edge cite-item">(.*?)</li>', html, re.DOTALL)
    assert cite
    assert "<code>billing/invoice.py:5</code>" in cite.group(1)
    assert "badge-verified" in cite.group(1)
    assert re.findall(r"<mark>([^<]*)</mark>", cite.group(1)) == [EDGE_QUOTE]
    lit = re.findall(r'<span class="q" data-markers="1">([^<]*)</span>', html)
    assert lit == [EDGE_QUOTE]  # the sent edge's quoted part, which the marker lights
    assert "shop.api.order calls billing.invoice.bill at shop/api.py:11" in html  # its blast too
    assert len(re.findall(r'<li id="edge-\d+" class="edge">', html)) == 3


def test_a_refused_answer_about_a_symbol_shows_the_reason_and_the_edges_not_the_answer(
    client: TestClient, answers: Any
) -> None:
    from ui_site import MAP_BAD_REPLY

    answers(RecordingTransport([openai_reply(MAP_BAD_REPLY)]))
    html = html_of(ask(client, scope="trace"))

    assert "badge-state-refused" in html
    assert "ai.invalid_output" in html
    assert "bill sends an email" not in html  # nothing of a refused answer is shown
    assert 'class="marker"' not in html
    assert EDGE in html  # the edges are
    assert "shop.api.order calls" not in html  # and only the trace's


def test_a_symbol_not_in_the_map_is_an_error_on_the_page_before_any_model_is_asked(
    client: TestClient, answers: Any
) -> None:
    forbidden = answers(ForbiddenTransport())
    missing = ask(client, symbol="billing.invoice.refund")
    empty = ask(client, symbol=" ")
    bad_scope = ask(client, scope="everything")

    assert missing.status_code == 404
    assert "codemap.symbol_not_found" in html_of(missing)
    assert "no symbol &#39;billing.invoice.refund&#39; in the map" in missing.text
    assert ASK_FORM in missing.text  # the box is still there, to correct the name
    assert 'value="billing.invoice.refund"' in missing.text
    assert empty.status_code == 400
    assert bad_scope.status_code == 400
    assert forbidden.calls == 0


def test_a_symbol_that_names_several_nodes_lists_them_before_any_model_is_asked(
    admin: TestClient, own_site: Site, answers: Any
) -> None:
    from groundkit import open_codemap

    (own_site.repo / "shop" / "tax.py").write_text("def rate():\n    return 0.1\n")
    settings = admin.app.state.runtime.settings  # type: ignore[attr-defined]
    with open_codemap("shop", settings=settings) as codemap:
        codemap.update(own_site.repo)
    forbidden = answers(ForbiddenTransport())
    response = admin.post("/ui/maps/shop/ask", data={"symbol": "rate", "q": MAP_QUESTION})

    assert response.status_code == 409
    assert "codemap.symbol_ambiguous" in html_of(response)
    assert "2 symbols match &#39;rate&#39;" in response.text
    assert "billing.tax.rate" in response.text
    assert "shop.tax.rate" in response.text
    assert forbidden.calls == 0


def test_a_foreign_page_cannot_post_to_the_ask_box(client: TestClient, answers: Any) -> None:
    forbidden = answers(ForbiddenTransport())
    post = client.post(
        "/ui/maps/shop/ask",
        data={"symbol": SYMBOL, "q": MAP_QUESTION},
        headers={"Origin": "http://evil.example"},
    )

    assert post.status_code == 403
    assert forbidden.calls == 0
    assert client.get("/ui/maps/shop/ask").status_code == 405  # no GET asks a model


# -- eval reports ----------------------------------------------------------------------------------


def test_eval_runs_are_listed_and_each_opens_its_report(client: TestClient, site: Site) -> None:
    run_id = next(site.eval_dir.glob("*.json")).stem
    listing = html_of(client.get("/ui/evals"))
    report = client.get(f"/ui/evals/{run_id}")

    assert f'href="/ui/evals/{run_id}"' in listing
    assert "golden" in listing
    assert report.status_code == 200
    assert "grk eval" in report.text
    policy = report.headers["content-security-policy"]
    assert policy.startswith("default-src 'none'; style-src 'sha256-")
    assert "sandbox" in policy
    assert client.get("/ui/evals/..%2Fgrk").status_code == 404
    assert client.get("/ui/evals/nope").status_code == 404


def test_a_file_that_is_not_an_eval_run_is_listed_as_such(client: TestClient, site: Site) -> None:
    (site.eval_dir / "notes.json").write_text(json.dumps({"hello": 1}))
    try:
        html = html_of(client.get("/ui/evals"))
    finally:
        (site.eval_dir / "notes.json").unlink()

    assert "not a grk eval run" in html


# -- changes, with the secret ----------------------------------------------------------------------


def test_with_a_secret_the_forms_appear_and_ask_for_it(admin: TestClient) -> None:
    html = html_of(admin.get("/"))

    assert 'action="/ui/ingest"' in html
    assert 'action="/ui/c/notes/delete"' in html
    assert html.count('type="password"') == 3  # ingest, and a delete form per collection


def test_a_change_without_the_right_secret_is_refused_and_changes_nothing(
    admin: TestClient,
) -> None:
    none = admin.post("/ui/c/plain/delete", data={"secret": ""})
    wrong = admin.post("/ui/c/plain/delete", data={"secret": "guess"})
    as_json = admin.post(
        "/ui/c/plain/delete",
        content=json.dumps({"secret": "x"}),
        headers={"Content-Type": "application/json"},
    )

    assert none.status_code == 401
    assert "auth.required" in none.text
    assert wrong.status_code == 403
    assert "auth.invalid" in wrong.text
    assert as_json.status_code == 400
    assert admin.get("/v1/collections").json()["collections"] == ["notes", "plain"]


def test_the_secret_deletes_a_collection_and_ingests_a_folder(
    admin: TestClient, tmp_path: Path
) -> None:
    more = tmp_path / "more"
    more.mkdir()
    (more / "numbat.md").write_text("The numbat eats termites.\n")
    deleted = html_of(admin.post("/ui/c/plain/delete", data={"secret": SECRET}))
    ingested = html_of(
        admin.post(
            "/ui/ingest", data={"collection": "fresh", "inputs": str(more), "secret": SECRET}
        )
    )

    assert "Deleted the collection plain." in deleted
    assert "Ingested into fresh: 1 new" in ingested
    assert admin.get("/v1/collections").json()["collections"] == ["fresh", "notes"]
    assert SECRET not in deleted + ingested


def test_a_path_outside_the_ingest_roots_is_refused_on_the_page(admin: TestClient) -> None:
    response = admin.post(
        "/ui/ingest", data={"collection": "x", "inputs": "/etc", "secret": SECRET}
    )

    assert response.status_code == 403
    assert "serve.path_not_allowed" in response.text
    assert "/etc" not in re.sub(r"<textarea.*?</textarea>", "", response.text, flags=re.DOTALL)


def test_the_ask_box_takes_the_pages_filter_and_says_what_it_hid(
    client: TestClient, answers: Any, tmp_path: Path
) -> None:
    answers(ForbiddenTransport())
    page_html = html_of(client.get("/ui/maps/shop", params={"exclude": "shop/**"}))
    node = html_of(
        client.get(f"/ui/maps/shop/node/{node_id(client, SYMBOL)}", params={"certain": "true"})
    )
    answers(ForbiddenTransport(), opt_ins=tmp_path / "none.json")  # AI off: the edges alone
    whole = html_of(ask(client))
    left = html_of(ask(client, exclude="shop/**"))

    assert re.search(r'<input id="ask-exclude" [^>]*value="shop/\*\*"', page_html)
    assert re.search(r'<input id="ask-certain" [^>]*checked', node)
    assert "shop.api.order calls billing.invoice.bill" in whole  # the blast reaches shop
    assert "shop.api.order calls billing.invoice.bill" not in left
    assert EDGE in left  # the trace, inside billing, stays
    assert "The filter (not shop/**) hid 1 edge." in left
    assert "The filter" not in whole
