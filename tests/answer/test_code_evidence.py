"""Code-map edges as evidence: which edges are sent and in what order, what the model sees, and
how a validated quote of an edge resolves back to the map and the working tree."""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from answer_helpers import item, reply
from evidence_kits import EdgeKit

import groundkit
from groundkit import Collection
from groundkit.answer import contract, service
from groundkit.answer.bundle import EvidenceBundle, build_bundle
from groundkit.answer.code import matching_edges, symbol_edges
from groundkit.answer.contract import validate_answer
from groundkit.answer.edges import CitedEdge
from groundkit.answer.evidence import Origins
from groundkit.answer.menu import constrained_schema
from groundkit.answer.prompts import CODE_SYSTEM, answer_user
from groundkit.answer.report import AIState, AIStatus
from groundkit.answer.service import answer_question, ask_code
from groundkit.codemap.api import CodeMap, open_codemap
from groundkit.errors import AIError, ErrorCode
from groundkit.testing.chat import ScriptedChat

SHOP = {
    "shop/__init__.py": "",
    "shop/db.py": (
        "class Store:\n"
        "    def put(self, row):\n"
        "        return self._write(row)\n\n"
        "    def _write(self, row):\n"
        "        return row\n"
    ),
    "shop/api.py": (
        "from shop.db import Store\n\n\n"
        "def save(row):\n"
        "    store = Store()\n"
        "    return store.put(row)\n\n\n"
        "def save_typed(store: Store, row):\n"
        "    return store.put(row)\n\n\n"
        "def handler(row):\n"
        "    return save(row)\n"
    ),
    "shop/cli.py": "def save():\n    return None\n",
    "shop/secrets.py": "TOKEN = 'never-sent-line-7731'\n",
}


@pytest.fixture
def shop(tmp_path: Path) -> Iterator[CodeMap]:
    root = tmp_path / "shop-repo"
    for rel, text in SHOP.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    with open_codemap("shop", index_dir=tmp_path / "index", create=True) as codemap:
        codemap.update(root, workers=1)
        yield codemap


def _bundle(codemap: CodeMap, symbol: str, scope: Any = "both", **kw: Any) -> EvidenceBundle:
    name, found = symbol_edges(codemap, symbol, scope=scope, depth=kw.pop("depth", 2))
    return build_bundle(
        (), collection=None, query="q", max_bytes=kw.pop("max_bytes", 24_000), edges=found,
        code_map=codemap.name, symbol=name, code_scope=scope,
    )  # fmt: skip


def _pairs(bundle: EvidenceBundle) -> list[tuple[str, str, str, int]]:
    return [(i.edge.source.qualname, i.edge.target.qualname, i.role, i.depth) for i in bundle.edges]


# -- one gate


def test_there_is_exactly_one_validate_answer_in_the_package() -> None:
    src = Path(groundkit.__file__).parent
    defined = [
        path.relative_to(src).as_posix()
        for path in src.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.name == "validate_answer"
    ]
    assert defined == ["answer/contract.py"]


def test_documents_and_code_edges_pass_through_the_same_validate_answer(
    col: Collection, shop: CodeMap, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[set[str]] = []
    gate = service.validate_answer
    assert gate is contract.validate_answer

    def spy(raw: str, bundle: EvidenceBundle, *args: Any, **kw: Any) -> Any:
        seen.append({i.kind for i in bundle.items})
        return gate(raw, bundle, *args, **kw)

    monkeypatch.setattr(service, "validate_answer", spy)
    abstain = '{"items": []}'
    answer_question(col, "wombat burrows", ScriptedChat([abstain]))
    ask_code(shop, "shop.db.Store.put", "what breaks?", ScriptedChat([abstain]))
    answer_question(col, "wombat burrows store", ScriptedChat([abstain]), code=shop)
    assert seen == [{"passage"}, {"edge"}, {"passage", "edge"}]


# -- which edges, in which order


def test_edges_are_ordered_by_path_confidence_then_depth_then_identity(shop: CodeMap) -> None:
    bundle = _bundle(shop, "shop.db.Store.put")
    assert _pairs(bundle) == [
        ("shop.api.save", "shop.db.Store.put", "blast", 1),  # call-instance 0.98
        ("shop.api.handler", "shop.api.save", "blast", 2),  # 0.99 behind 0.98: 0.98, deeper
        ("shop.db.Store.put", "shop.db.Store._write", "trace", 1),  # call-self 0.94
        ("shop.api.save_typed", "shop.db.Store.put", "blast", 1),  # call-annotation 0.75
    ]
    assert [i.number for i in bundle.items] == [1, 2, 3, 4]
    assert [round(i.path_confidence, 2) for i in bundle.edges] == [0.99, 0.99, 0.96, 0.75]
    assert _pairs(_bundle(shop, "shop.db.Store.put")) == _pairs(bundle)  # deterministic


def test_the_scope_chooses_the_trace_the_blast_or_both(shop: CodeMap) -> None:
    trace = _bundle(shop, "shop.db.Store.put", "trace")
    blast = _bundle(shop, "shop.db.Store.put", "blast")
    assert {i.role for i in trace.edges} == {"trace"}
    assert {i.role for i in blast.edges} == {"blast"}
    assert len(trace.items) + len(blast.items) == len(_bundle(shop, "shop.db.Store.put").items)
    assert [p[:2] for p in _pairs(_bundle(shop, "shop.db.Store.put", "blast", depth=1))] == [
        ("shop.api.save", "shop.db.Store.put"),
        ("shop.api.save_typed", "shop.db.Store.put"),
    ]


def test_containment_is_not_sent_but_a_module_is_traced_through_its_members(
    shop: CodeMap,
) -> None:
    bundle = _bundle(shop, "shop.api", "trace")
    assert bundle.items
    assert all(i.edge.kind != "defines" for i in bundle.edges)
    assert ("shop.api.save", "shop.db.Store.put", "trace", 2) in _pairs(bundle)


def test_a_symbol_not_found_or_ambiguous_raises_before_any_model_is_asked(
    shop: CodeMap,
) -> None:
    chat = ScriptedChat([])
    with pytest.raises(groundkit.GroundkitError) as missing:
        ask_code(shop, "shop.db.Store.pot", "q", chat)
    assert missing.value.code == ErrorCode.SYMBOL_NOT_FOUND
    with pytest.raises(groundkit.GroundkitError) as ambiguous:
        ask_code(shop, "save", "q", chat)  # shop.api.save and shop.cli.save
    assert ambiguous.value.code == ErrorCode.SYMBOL_AMBIGUOUS
    assert chat.calls == []


def test_the_size_cap_drops_whole_edges_from_the_end_and_says_how_many(shop: CodeMap) -> None:
    full = _bundle(shop, "shop.db.Store.put")
    two = sum(len(i.prompt_block().encode()) for i in full.items[:2])
    capped = _bundle(shop, "shop.db.Store.put", max_bytes=two + 5)
    assert [i.edge.id for i in capped.edges] == [i.edge.id for i in full.edges[:2]]
    assert (capped.truncated, capped.omitted) == (True, 2)
    assert capped.to_dict()["omitted"] == 2


def test_in_a_mixed_bundle_the_passages_give_way_so_the_edges_are_sent(
    col: Collection, shop: CodeMap
) -> None:
    hits = col.search("wombat echidna")
    edges = matching_edges(shop, "which code calls the store put method?", top_k=1)
    full = build_bundle(hits, collection="test", query="q", max_bytes=24_000, edges=edges)
    passages = sum(len(i.prompt_block().encode()) for i in full.items if i.kind == "passage")
    # Room for the passages alone: the edge must still go, one passage must give way.
    tight = build_bundle(hits, collection="test", query="q", max_bytes=passages + 5, edges=edges)
    assert [i.kind for i in tight.items] == ["passage", "edge"]
    assert [i.number for i in tight.items] == [1, 2]
    assert (tight.truncated, tight.omitted) == (True, 1)


def test_the_scope_hash_names_exactly_the_edges_sent(shop: CodeMap) -> None:
    a = _bundle(shop, "shop.db.Store.put")
    assert a.scope_hash == _bundle(shop, "shop.db.Store.put").scope_hash
    assert a.scope_hash != _bundle(shop, "shop.db.Store.put", "trace").scope_hash
    assert a.scope_hash.startswith("sha256:")


def test_only_evidence_lines_and_numbers_reach_the_model(shop: CodeMap, tmp_path: Path) -> None:
    bundle = _bundle(shop, "shop.db.Store.put")
    prompt = answer_user("what breaks?", bundle)
    blocks = "".join(
        f'<source id="{i.number}">\n{i.edge.evidence}\n</source>\n' for i in bundle.edges
    )
    assert prompt.endswith("Sources:\n" + blocks)
    assert str(tmp_path) not in prompt  # never an absolute path
    assert "never-sent-line-7731" not in prompt  # never file contents beyond the statements
    for entry in bundle.edges:
        assert entry.edge.id not in prompt


def test_the_code_system_text_goes_with_a_bundle_that_holds_an_edge(shop: CodeMap) -> None:
    chat = ScriptedChat(['{"items": []}'])
    ask_code(shop, "shop.db.Store.put", "what breaks?", chat)
    assert chat.calls[0].system == CODE_SYSTEM
    assert "Symbol:\nshop.db.Store.put\n" in chat.calls[0].user


# -- quotes of edges


def test_the_quotable_spans_of_an_edge_are_its_evidence_line_or_parts_of_it(
    shop: CodeMap,
) -> None:
    bundle = _bundle(shop, "shop.db.Store.put")
    _, menu = constrained_schema(bundle, min_chars=16)
    first = bundle.edges[0].edge.evidence
    assert menu.spans[0] == (
        first,
        "shop.api.save calls shop.db.Store.put",
        "return store.put(row)",
    )
    for entry, spans in zip(bundle.edges, menu.spans, strict=True):
        assert all(span in entry.text for span in spans)


def test_a_validated_edge_citation_reports_the_edge_its_place_and_its_re_check(
    shop: CodeMap,
) -> None:
    bundle = _bundle(shop, "shop.db.Store.put")
    quote = "shop.api.save_typed calls shop.db.Store.put"
    answer = validate_answer(
        reply(item("It is called there.", (4, quote))), bundle, Origins(code=shop)
    )
    cited = answer.citations[0]
    assert isinstance(cited, CitedEdge)
    data = cited.to_dict()
    assert data["kind"] == "edge"
    assert (data["edge_kind"], data["source_name"], data["target_name"]) == (
        "calls",
        "shop.api.save_typed",
        "shop.db.Store.put",
    )
    assert (data["provenance"], data["confidence"]) == ("call-annotation", 0.75)
    assert data["location"]["path"] == "shop/api.py"
    assert data["location"]["line"] == 10
    assert data["cited_text"] == quote == data["evidence"][data["start"] : data["end"]]
    assert data["verification"] == "verified"
    assert json.loads(json.dumps(data)) == data


def test_an_edge_citation_says_drifted_or_missing_when_the_working_tree_moved_on(
    shop: CodeMap,
) -> None:
    bundle = _bundle(shop, "shop.db.Store.put")
    raw = reply(item("Saved.", (1, "return store.put(row)")))
    api = Path(str(shop.root)) / "shop" / "api.py"
    api.write_text(api.read_text().replace("return store.put(row)", "return None"))
    assert validate_answer(raw, bundle, Origins(code=shop)).citations[0].verification == "drifted"
    api.unlink()
    assert validate_answer(raw, bundle, Origins(code=shop)).citations[0].verification == "missing"


def test_an_edge_whose_evidence_changed_in_the_map_since_it_was_sent_refuses_the_answer(
    tmp_path: Path,
) -> None:
    kit = EdgeKit(tmp_path)
    try:
        bundle = kit.bundle()
        zoo = kit.root / "zoo.py"
        zoo.write_text(zoo.read_text().replace("strong claws", "sharp claws"))
        kit.map.update(kit.root, workers=1)
        with pytest.raises(AIError) as caught:
            validate_answer(reply(item("Dig.", (1, "digs long burrows"))), bundle, kit.resolve)
        assert caught.value.code == ErrorCode.AI_INVALID_OUTPUT
        assert "changed in the code map" in caught.value.message
    finally:
        kit.close()


def test_an_edge_cannot_be_cited_without_the_map_to_re_read_it(shop: CodeMap) -> None:
    bundle = _bundle(shop, "shop.db.Store.put")
    with pytest.raises(AIError) as caught:
        validate_answer(reply(item("Saved.", (1, "return store.put(row)"))), bundle, Origins())
    assert caught.value.code == ErrorCode.AI_INVALID_OUTPUT


# -- mixed evidence


def test_edges_that_match_the_question_follow_the_passages_and_either_can_be_cited(
    col: Collection, shop: CodeMap
) -> None:
    found = matching_edges(shop, "which code calls the store put method?", top_k=2)
    assert [(e.edge.source.qualname, e.edge.target.qualname) for e in found][:1] == [
        ("shop.api.save", "shop.db.Store.put")
    ]

    def both(system: str, user: str) -> str:
        assert system == CODE_SYSTEM
        return reply(
            item("Wombats dig.", (1, "digs long burrows")),
            item("Saving puts it.", (2, "shop.api.save calls shop.db.Store.put")),
        )

    report = answer_question(
        col, "wombat burrows store put", ScriptedChat([both]), code=shop, code_top_k=1
    )
    assert [i.kind for i in report.bundle.items] == ["passage", "edge"]
    assert report.answer is not None, report.ai.error
    assert [c.kind for c in report.answer.citations] == ["passage", "edge"]
    data = report.to_dict()["evidence"]
    assert (data["collection"], data["map"], data["code_scope"]) == ("test", "shop", "search")


def test_with_no_model_the_report_still_carries_the_edges(shop: CodeMap) -> None:
    off = AIStatus(AIState.DISABLED)
    report = ask_code(shop, "shop.db.Store.put", "what breaks?", off)
    assert report.ai.state == "disabled"
    assert len(report.bundle.items) == 4
    assert report.to_dict()["evidence"]["symbol"] == "shop.db.Store.put"


def test_a_symbol_with_no_edges_asks_no_model(shop: CodeMap) -> None:
    chat = ScriptedChat([])
    report = ask_code(shop, "shop.db.Store._write", "q", chat, scope="trace")
    assert report.ai.state == "no_evidence"
    assert chat.calls == []
