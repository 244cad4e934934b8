"""The code map page and its ask box for a chain: the paths from a node to a target, every hop
with its evidence re-checked (as `grk trace --to`), and a model asked about exactly those hops
(as `grk ask --to`)."""

# ruff: noqa: F811  (the shared fixture is imported by name, and named again as an argument)
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from test_ui_pages import answers, html_of, node_id  # noqa: F401  (a fixture, used by name)

from groundkit.testing.chat import ForbiddenTransport, RecordingTransport, openai_reply

ROUTE = "POST /orders/{order_id}"
HOPS = [
    "POST /orders/{order_id} handles shop.api.order at shop/api.py:8:"
    " @app.post('/orders/{order_id}')",
    "shop.api.order calls billing.invoice.bill at shop/api.py:11: bill(order_id)",
    "billing.invoice.bill calls billing.tax.rate at billing/invoice.py:5: return rate() * 2",
]
CLAIMS = [hop.split(" at ")[0] for hop in HOPS]


def _evidence(html: str) -> list[str]:
    found = re.findall(r'<p class="evidence"><code>(.*?)</code></p>', html, re.DOTALL)
    return [re.sub(r"<[^>]+>", "", e).replace("&#39;", "'") for e in found]


def test_the_paths_panel_shows_each_hop_with_its_evidence_checked_against_the_files(
    client: TestClient,
) -> None:
    rate = node_id(client, "billing.tax.rate")
    response = client.get("/ui/maps/shop/chains", params={"from": ROUTE, "to": rate})
    html = html_of(response)
    assert response.status_code == 200
    assert f"Paths from {ROUTE} to billing.tax.rate" in html
    assert "Path 1 <span" in html
    assert "3 hops" in html
    assert _evidence(html) == HOPS
    assert html.count("badge-verified") == 3
    node = html_of(client.get(f"/ui/maps/shop/node/{node_id(client, 'shop.api.order')}"))
    assert 'action="/ui/maps/shop/chains"' in node
    assert 'id="chains-to" name="to"' in node


def test_a_paths_panel_with_no_target_or_an_unknown_one_is_an_error_page(
    client: TestClient,
) -> None:
    assert client.get("/ui/maps/shop/chains", params={"from": ROUTE}).status_code == 400
    unknown = client.get("/ui/maps/shop/chains", params={"from": ROUTE, "to": "table:nope"})
    assert unknown.status_code == 404
    assert "codemap.symbol_not_found" in html_of(unknown)


def _ask(client: TestClient, **form: str) -> Any:
    data = {"symbol": ROUTE, "q": "how does an order reach the tax rate?", **form}
    return client.post("/ui/maps/shop/ask", data=data)


def test_asking_with_paths_to_sends_the_hops_and_marks_each_quote_in_its_hop(
    client: TestClient, answers: Any
) -> None:
    reply = {
        "items": [
            {"text": f"Step {n}.", "citations": [{"source": n, "quote": claim}]}
            for n, claim in enumerate(CLAIMS, start=1)
        ]
    }
    transport = answers(RecordingTransport([openai_reply(json.dumps(reply))]))
    html = html_of(_ask(client, to="billing.tax.rate"))
    assert "badge-state-answered" in html
    assert f"Hops of the paths from {ROUTE} to billing.tax.rate" in html
    sent = transport.sent[0].body.decode()
    assert all(json.dumps(hop)[1:-1] in sent for hop in HOPS)
    assert "shop.db.save" not in sent  # the route's other call is on no path to the target
    assert re.findall(r"<mark>([^<]*)</mark>", html) == CLAIMS
    assert "path 1 · hop 3" in html


def test_asking_with_paths_to_and_ai_off_shows_the_hops(
    client: TestClient, answers: Any, tmp_path: Path
) -> None:
    forbidden = answers(ForbiddenTransport(), opt_ins=tmp_path / "none.json")
    html = html_of(_ask(client, to="billing.tax.rate"))
    assert "badge-state-disabled" in html
    assert [e for e in _evidence(html) if e in HOPS] == HOPS
    assert forbidden.calls == 0
