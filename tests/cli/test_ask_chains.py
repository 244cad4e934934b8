"""`grk ask SYMBOL QUESTION --to TARGET`: a model explains the paths from a symbol to a table, an
env var or another symbol, quoting their hops: the edges sent are exactly `grk trace --to`'s, and
the boundary is `grk ask`'s (one bad quote refuses the answer; AI off shows the chain)."""

# ruff: noqa: F811  (the shared fixtures are imported by name, and named again as arguments)
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_answer_cli import (  # noqa: F401  (fixtures, used by name)
    grk,
    keychain,
    no_machine_keychain,
    use,
)

from grk_runner import Grk
from groundkit.testing.chat import ForbiddenTransport, RecordingTransport, openai_reply

SHOP = {
    "app/__init__.py": "",
    "app/models.py": "from sqlmodel import Field, SQLModel\n\n\n"
    "class User(SQLModel, table=True):\n"
    "    id: int | None = Field(default=None, primary_key=True)\n",
    "app/crud.py": "from sqlmodel import Session, select\n\nfrom app.models import User\n\n\n"
    "def list_users(session: Session) -> list[User]:\n"
    "    return list(session.exec(select(User)).all())\n",
    "app/main.py": "from fastapi import FastAPI\n\nfrom app import crud\n\napp = FastAPI()\n\n\n"
    '@app.get("/users")\ndef read_users(session):\n    return crud.list_users(session)\n',
}
CLAIMS = [
    "GET /users handles app.main.read_users",
    "app.main.read_users calls app.crud.list_users",
    "app.crud.list_users reads app.models.User",
    "app.models.User maps to table:user",
]
ASK = ("ask", "GET /users", "how does this route reach the user table?", "--map", "shop")
TO = ("--to", "table:user")


@pytest.fixture
def shop(grk: Grk, tmp_path: Path) -> Grk:
    for rel, text in SHOP.items():
        (tmp_path / "shop" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "shop" / rel).write_text(text, encoding="utf-8")
    assert grk("map", str(tmp_path / "shop"), "--name", "shop", "--quiet") == 0
    return grk


def _reply(*cited: tuple[int, str]) -> str:
    items = [
        {"text": f"Step {n}.", "citations": [{"source": n, "quote": quote}]} for n, quote in cited
    ]
    return json.dumps({"items": items})


def test_ask_to_a_table_sends_exactly_the_hops_grk_trace_to_lists(shop: Grk, use: Any) -> None:
    use(ForbiddenTransport())
    paths = shop.json("trace", "GET /users", *TO, "--map", "shop")["paths"]
    hops = [e["id"] for p in paths for e in p["edges"]]
    evidence = shop.json(*ASK, *TO)["evidence"]
    assert [i["edge"]["id"] for i in evidence["items"]] == hops
    assert [(i["role"], i["chain"], i["depth"]) for i in evidence["items"]] == [
        ("chain", 1, 1),
        ("chain", 1, 2),
        ("chain", 1, 3),
        ("chain", 1, 4),
    ]
    assert (evidence["symbol"], evidence["to"], evidence["code_scope"]) == (
        "GET /users",
        "table:user",
        "chain",
    )


def test_an_answer_citing_each_hop_verbatim_is_answered_with_every_hop_cited(
    shop: Grk, use: Any
) -> None:
    sent = use(RecordingTransport([openai_reply(_reply(*enumerate(CLAIMS, start=1)))])).transport
    assert shop("ai", "enable", "map:shop", "--profile", "box") == 0
    report = shop.json(*ASK, *TO)
    assert report["ai"]["state"] == "answered", report["ai"]
    cited = report["answer"]["citations"]
    assert [(c["source"], c["cited_text"], c["verification"]) for c in cited] == [
        (n, claim, "verified") for n, claim in enumerate(CLAIMS, start=1)
    ]
    assert [c["edge_id"] for c in cited] == [i["edge"]["id"] for i in report["evidence"]["items"]]
    for c in cited:
        assert c["evidence"][c["start"] : c["end"]] == c["cited_text"]
    body = json.loads(sent.sent[0].body)["messages"][-1]["content"]
    assert "Symbol:\nGET /users\n\nPaths to:\ntable:user\n\nSources:\n" in body


def test_a_quote_that_is_not_in_its_hops_evidence_refuses_the_whole_answer(
    shop: Grk, use: Any
) -> None:
    # Hop 2's claim is true of the code, but cited as source 3 it is not that hop's evidence.
    wrong = _reply((1, CLAIMS[0]), (3, CLAIMS[1]), (4, CLAIMS[3]))
    use(RecordingTransport([openai_reply(wrong)] * 2))
    assert shop("ai", "enable", "map:shop", "--profile", "box") == 0
    report = shop.json(*ASK, *TO)
    assert (report["ai"]["state"], report["ai"]["reason"]["code"]) == (
        "refused",
        "ai.invalid_output",
    )
    assert report["answer"] is None
    assert len(report["evidence"]["items"]) == 4
    assert shop(*ASK, *TO) == 0
    assert "no explanation (refused)" in shop.out
    assert CLAIMS[1] + " at app/main.py:10: return crud.list_users(session)" in shop.out


def test_with_ai_off_ask_to_shows_each_path_hop_by_hop_and_how_to_turn_it_on(
    shop: Grk, use: Any
) -> None:
    use(ForbiddenTransport())
    assert shop(*ASK, *TO) == 0
    lines = shop.out.splitlines()
    at = lines.index("no explanation (disabled): AI is off for map 'shop'")
    assert lines[at + 1] == "hint: turn it on with `grk ai enable map:shop --profile NAME`"
    assert lines[at + 3 :] == [
        "evidence: hops of the paths from GET /users to table:user (map 'shop'):",
        "  1. app/main.py:8  [handles; path 1 hop 1; 0.95]",
        '     GET /users handles app.main.read_users at app/main.py:8: @app.get("/users")',
        "  2. app/main.py:10  [calls; path 1 hop 2; 0.95]",
        "     app.main.read_users calls app.crud.list_users at app/main.py:10:"
        " return crud.list_users(session)",
        "  3. app/crud.py:7  [reads; path 1 hop 3; 0.95]",
        "     app.crud.list_users reads app.models.User at app/crud.py:7:"
        " return list(session.exec(select(User)).all())",
        "  4. app/models.py:4  [maps_to; path 1 hop 4; 0.95]",
        "     app.models.User maps to table:user at app/models.py:4:"
        " class User(SQLModel, table=True):",
    ]


def test_a_target_not_found_exits_5_before_anything_is_read_or_sent(shop: Grk, use: Any) -> None:
    forbidden = use(ForbiddenTransport()).transport
    assert shop("ai", "enable", "map:shop", "--profile", "box") == 0
    assert shop.error(*ASK, "--to", "table:nobody") == (5, "codemap.symbol_not_found")
    assert forbidden.calls == 0


def test_with_no_path_to_the_target_no_model_is_asked(shop: Grk, use: Any) -> None:
    forbidden = use(ForbiddenTransport()).transport
    assert shop("ai", "enable", "map:shop", "--profile", "box") == 0
    report = shop.json("ask", "app.models.User", "q?", "--map", "shop", "--to", "GET /users")
    assert (report["ai"]["state"], report["evidence"]["items"]) == ("no_evidence", [])
    assert forbidden.calls == 0
