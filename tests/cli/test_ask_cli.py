"""`grk ask` and `grk answer --with-code` as a person would try them: the map's own opt-in,
symbol errors before anything is sent, citations back to the code, and what the text shows.

The degraded-mode matrix and the hostile replies for `grk ask` are in test_answer_cli.py, where
each runs on both surfaces.
"""

# ruff: noqa: F811  (the shared fixtures are imported by name, and named again as arguments)
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from test_answer_cli import (  # noqa: F401  (fixtures, used by name)
    GOOD,
    LOCAL,
    REMOTE,
    ZOO_EVIDENCE,
    grk,
    keychain,
    no_machine_keychain,
    use,
)

from grk_runner import Grk
from groundkit.testing.chat import ForbiddenTransport, RecordingTransport, openai_reply

ASK = ("ask", "zoo.wombat", "what does the wombat dig?", "--map", "zoo")
EDGE_QUOTE = "zoo.wombat calls zoo.dig"
CITES_EDGE = json.dumps(
    {"items": [{"text": "It digs.", "citations": [{"source": 1, "quote": EDGE_QUOTE}]}]}
)


def test_a_symbol_not_found_exits_5_before_anything_is_read_or_sent(grk: Grk, use: Any) -> None:
    forbidden = use(ForbiddenTransport()).transport
    assert grk("ai", "enable", "map:zoo", "--profile", "box") == 0
    assert grk.error("ask", "zoo.wombot", "q", "--map", "zoo") == (5, "codemap.symbol_not_found")
    assert "zoo.wombat" in json.loads(grk.out)["error"]["suggestions"]
    assert forbidden.calls == 0


def test_an_ambiguous_symbol_exits_6_like_grk_trace(grk: Grk, use: Any, tmp_path: Path) -> None:
    forbidden = use(ForbiddenTransport()).transport
    (tmp_path / "zoo" / "pen.py").write_text("def wombat():\n    return None\n")
    assert grk("map", str(tmp_path / "zoo"), "--name", "zoo", "-q") == 0
    assert grk.error("ask", "wombat", "q", "--map", "zoo") == (6, "codemap.symbol_ambiguous")
    assert grk.error("trace", "wombat", "--map", "zoo") == (6, "codemap.symbol_ambiguous")
    assert forbidden.calls == 0


def test_with_ai_off_ask_prints_the_edges_and_how_to_turn_it_on(grk: Grk, use: Any) -> None:
    use(ForbiddenTransport())
    assert grk(*ASK) == 0
    lines = grk.out.splitlines()
    assert lines[0].startswith("extracted from the evidence, no model:")
    at = lines.index("no explanation (disabled): AI is off for map 'zoo'")
    assert lines[at + 1] == "hint: turn it on with `grk ai enable map:zoo --profile NAME`"
    assert lines[at + 3] == "evidence: edges of the trace and blast of zoo.wombat (map 'zoo'):"
    assert lines[at + 4] == "  1. zoo.py:2  [calls; trace d1; 0.99]"
    assert lines[at + 5] == f"     {ZOO_EVIDENCE}"


def test_an_answer_shows_markers_then_each_citation_at_file_line_with_the_quote_marked(
    grk: Grk, use: Any
) -> None:
    use(RecordingTransport([openai_reply(CITES_EDGE)]))
    assert grk("ai", "enable", "map:zoo", "--profile", "box") == 0
    assert grk(*ASK) == 0
    lines = grk.out.splitlines()
    assert lines[0] == "It digs. [1]"
    assert lines[2] == "citations:"
    assert lines[3] == "  [1] zoo.py:2  calls  (call-local 0.99, verified)"
    assert lines[4] == "      zoo.wombat -> zoo.dig"
    assert (
        lines[5] == "      \u00abzoo.wombat calls zoo.dig\u00bb" + ZOO_EVIDENCE[len(EDGE_QUOTE) :]
    )
    assert lines[7].startswith("evidence: edges of the trace and blast of zoo.wombat")


def test_a_json_citation_names_the_edge_its_place_and_re_reads_from_the_map(
    grk: Grk, use: Any, tmp_path: Path
) -> None:
    use(RecordingTransport([openai_reply(GOOD)] * 2))
    assert grk("ai", "enable", "map:zoo", "--profile", "box") == 0
    report = grk.json(*ASK)
    assert report["ai"]["state"] == "answered"
    cited = report["answer"]["citations"][0]
    assert (cited["kind"], cited["edge_kind"]) == ("edge", "calls")
    assert (cited["source_name"], cited["target_name"]) == ("zoo.wombat", "zoo.dig")
    assert (cited["provenance"], cited["confidence"]) == ("call-local", 0.99)
    assert (cited["location"]["path"], cited["location"]["line"]) == ("zoo.py", 2)
    assert cited["cited_text"] == "digs long burrows"
    assert cited["verification"] == "verified"
    edge = grk.json("edge", cited["edge_id"], "--map", "zoo")  # the same edge, read back
    assert edge["evidence"][cited["start"] : cited["end"]] == cited["cited_text"]
    evidence = report["evidence"]
    assert (evidence["map"], evidence["symbol"], evidence["code_scope"]) == (
        "zoo",
        "zoo.wombat",
        "both",
    )
    assert evidence["scope_hash"].startswith("sha256:")
    zoo = tmp_path / "zoo" / "zoo.py"
    zoo.write_text(zoo.read_text().replace("strong claws", "sharp claws"))  # not re-mapped
    assert grk.json(*ASK)["answer"]["citations"][0]["verification"] == "drifted"


def test_what_is_sent_holds_no_absolute_path_and_no_line_beyond_the_edges(
    grk: Grk, use: Any, tmp_path: Path
) -> None:
    (tmp_path / "zoo" / "zoo.py").write_text(
        (tmp_path / "zoo" / "zoo.py").read_text() + "\nSECRET_LINE = 'never-sent-4412'\n"
    )
    assert grk("map", str(tmp_path / "zoo"), "--name", "zoo", "-q") == 0
    sent = use(RecordingTransport([openai_reply('{"items": []}')])).transport
    assert grk("ai", "enable", "map:zoo", "--profile", "box") == 0
    assert grk(*ASK) == 0
    body = sent.sent[0].body.decode()
    assert ZOO_EVIDENCE.replace('"', '\\"') in body
    assert str(tmp_path) not in body
    assert "never-sent-4412" not in body


def test_the_size_cap_applies_to_edges_and_says_how_many_were_left_out(
    grk: Grk, use: Any, tmp_path: Path
) -> None:
    use(ForbiddenTransport())
    zoo = tmp_path / "zoo" / "zoo.py"
    callers = "".join(f"\n\ndef keeper_number_{n}():\n    return wombat()\n" for n in range(6))
    zoo.write_text(zoo.read_text() + callers)
    assert grk("map", str(tmp_path / "zoo"), "--name", "zoo", "-q") == 0
    assert len(grk.json(*ASK)["evidence"]["items"]) == 7  # the call it makes, six callers
    top = grk.json(*ASK, "--top-k", "2")["evidence"]
    assert (len(top["items"]), top["code_found"], top["omitted"]) == (2, 7, 0)
    assert grk(*ASK, "--top-k", "2") == 0
    assert "(5 more edges beyond --top-k were not sent)" in grk.out
    (tmp_path / "grk.toml").write_text(REMOTE + LOCAL + "[answer]\nmax_bundle_bytes = 500\n")
    evidence = grk.json(*ASK)["evidence"]
    kept = len(evidence["items"])
    assert 0 < kept < 7
    assert (evidence["truncated"], evidence["omitted"]) == (True, 7 - kept)
    assert sum(len(i["text"].encode()) + 25 for i in evidence["items"]) <= 500
    assert grk(*ASK) == 0
    assert f"({7 - kept} more edges left out: answer.max_bundle_bytes = 500)" in grk.out


def test_grk_ai_names_a_code_map_with_a_prefix_and_lists_it(grk: Grk, use: Any) -> None:
    use(ForbiddenTransport())
    assert grk.error("ai", "enable", "zoo", "--profile", "box") == (2, "collection.not_found")
    assert json.loads(grk.out)["error"]["hint"] == "for the code map, name it map:zoo"
    assert grk.error("ai", "enable", "map:nowhere", "--profile", "box") == (2, "codemap.not_found")
    assert grk.json("ai", "enable", "map:zoo", "--profile", "box") == {
        "map": "zoo",
        "ai": "enabled",
        "profile": "box",
    }
    assert grk("ai", "status") == 0
    assert "_maps/zoo  profile=box" in grk.out
    assert grk.out.startswith("map ")
    assert grk.json("ai", "disable", "map:zoo")["was_enabled"] is True
    assert grk.json(*ASK)["ai"]["state"] == "disabled"


# -- grk answer --with-code


def test_with_code_needs_the_map_opted_in_as_well_as_the_collection(grk: Grk, use: Any) -> None:
    forbidden = use(ForbiddenTransport()).transport
    assert grk("ai", "enable", "default", "--profile", "box") == 0
    report = grk.json("answer", "what does the wombat dig?", "--with-code", "zoo")
    assert report["ai"]["state"] == "disabled"
    assert report["ai"]["reason"]["message"] == "AI is off for map 'zoo'"
    assert [i["kind"] for i in report["evidence"]["items"]] == ["passage", "edge"]
    assert forbidden.calls == 0
    assert grk("ai", "enable", "map:zoo", "--profile", "cloud") == 0
    other = grk.json("answer", "what does the wombat dig?", "--with-code", "zoo")
    assert other["ai"]["reason"]["message"] == "map 'zoo' allows AI only with profile 'cloud'"


def test_with_code_the_model_can_cite_a_passage_and_an_edge_in_one_answer(
    grk: Grk, use: Any
) -> None:
    both = json.dumps(
        {
            "items": [
                {
                    "text": "Wombats dig.",
                    "citations": [{"source": 1, "quote": "digs long burrows"}],
                },
                {"text": "In code too.", "citations": [{"source": 2, "quote": EDGE_QUOTE}]},
            ]
        }
    )
    use(RecordingTransport([openai_reply(both)] * 2))
    assert grk("ai", "enable", "default", "--profile", "box") == 0
    assert grk("ai", "enable", "map:zoo", "--profile", "box") == 0
    report = grk.json("answer", "what does the wombat dig?", "--with-code", "zoo")
    assert report["ai"]["state"] == "answered", report["ai"]
    assert [c["kind"] for c in report["answer"]["citations"]] == ["passage", "edge"]
    assert report["evidence"]["map"] == "zoo"
    assert grk("answer", "what does the wombat dig?", "--with-code", "zoo") == 0
    assert "  [2] zoo.py:2  calls  (call-local 0.99, verified)" in grk.out.splitlines()


def test_with_code_names_a_map_that_must_exist(grk: Grk, use: Any) -> None:
    use(ForbiddenTransport())
    assert grk.error("answer", "wombat", "--with-code", "nowhere") == (2, "codemap.not_found")


def test_the_judge_gives_its_advisory_verdict_on_an_answer_about_code(grk: Grk, use: Any) -> None:
    verdict = '{"faithful": true, "unsupported_claims": [], "reasoning": "the edge says so"}'
    sent = use(RecordingTransport([openai_reply(CITES_EDGE), openai_reply(verdict)])).transport
    assert grk("ai", "enable", "map:zoo", "--profile", "box") == 0
    report = grk.json(*ASK, "--judge")
    assert report["judge"] == {
        "advisory": True,
        "faithful": True,
        "unsupported_claims": [],
        "reasoning": "the edge says so",
    }
    assert ZOO_EVIDENCE.replace('"', '\\"') in sent.sent[1].body.decode()  # judged on the edges


def test_the_scopes_grk_ask_offers_are_the_scopes_the_answer_path_knows() -> None:
    from groundkit.answer.code import SCOPES
    from groundkit.cli.ask import ask_command

    scope = next(p for p in ask_command.params if p.name == "scope")
    assert tuple(scope.type.choices) == SCOPES  # type: ignore[attr-defined]


def test_who_calls_this_is_answered_from_the_edges_coming_in(grk: Grk, use: Any) -> None:
    use(ForbiddenTransport())
    # zoo.dig is called by zoo.wombat: that edge, from the blast, is the answer's evidence.
    assert grk("ask", "zoo.dig", "who calls this?", "--map", "zoo") == 0
    assert "evidence: edges of the blast of zoo.dig (map 'zoo'):" in grk.out
    assert ZOO_EVIDENCE in grk.out
    # zoo.wombat calls zoo.dig but nothing calls it: its own outgoing call is no answer.
    assert grk("ask", "zoo.wombat", "who calls this?", "--map", "zoo") == 0
    assert ZOO_EVIDENCE not in grk.out
    assert grk("ask", "zoo.wombat", "what does it call?", "--map", "zoo") == 0
    assert "evidence: edges of the trace of zoo.wombat (map 'zoo'):" in grk.out
    assert ZOO_EVIDENCE in grk.out
    # An explicit --scope wins over the question.
    assert grk("ask", "zoo.wombat", "who calls this?", "--map", "zoo", "--scope", "both") == 0
    assert ZOO_EVIDENCE in grk.out


def test_ask_leaves_out_the_edges_a_filter_names(grk: Grk, use: Any) -> None:
    use(ForbiddenTransport())
    assert (
        grk("ask", "zoo.wombat", "what does it call?", "--map", "zoo", "--exclude", "zoo.py") == 0
    )
    assert ZOO_EVIDENCE not in grk.out
    assert (
        grk("ask", "zoo.wombat", "what does it call?", "--map", "zoo", "--min-confidence", "0.5")
        == 0
    )
    assert ZOO_EVIDENCE in grk.out  # call-local is 0.99
