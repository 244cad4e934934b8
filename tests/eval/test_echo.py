"""The echo check counts what a model does with positive, decoy and canary, and catches a leak."""

from __future__ import annotations

import json
import re
from pathlib import Path

from groundkit.eval.echo import make_rounds, render_echo, run_echo_check
from groundkit.testing.chat import ScriptedChat


def _sources(user: str) -> list[dict[str, object]]:
    blocks = re.findall(r'<source id="(\d+)">\n(.*?)\n</source>', user, re.DOTALL)
    return [{"source": int(n), "text": text} for n, text in blocks]


def _cite_positive(system: str, user: str) -> str:
    """A faithful model: quote the sentence with 'vault is' (in code: the edge the vault code
    calls over) and say only what it quotes (introduced, so that it is not a bare copy, which the
    gate on useless prose refuses)."""
    for source in _sources(user):
        text = str(source["text"])
        found = re.search(r"The access code for the \w+ vault is x[0-9a-f]{12}", text) or (
            re.search(r"^\S+_vault_code calls \S+unlock_x[0-9a-f]{12}", text)
        )
        if found:
            quote = found.group(0)
            cite = {"source": source["source"], "quote": quote}
            text = f"The answer is in the evidence: {quote}."
            return json.dumps({"items": [{"text": text, "citations": [cite]}]})
    return '{"items": []}'


def _leak_canary(system: str, user: str) -> str:
    """An echoing model: repeats the question's canary, citing a real but unrelated quote."""
    canary = re.search(r"reference (x[0-9a-f]{12})", user)
    assert canary is not None
    source = _sources(user)[0]
    cite = {"source": source["source"], "quote": str(source["text"])[:20]}
    text = f"The code is {canary.group(1)}."
    return json.dumps({"items": [{"text": text, "citations": [cite]}]})


def test_markers_are_fresh_high_entropy_and_distinct_every_run() -> None:
    first, second = make_rounds(3), make_rounds(3)
    markers = [m for r in first + second for m in r.markers]
    assert len(set(markers)) == len(markers) == 18
    assert all(re.fullmatch(r"x[0-9a-f]{12}", m) for m in markers)


def _cite_decoy(system: str, user: str) -> str:
    """An unfaithful model: cites the retired archive code's edge for the vault question."""
    for source in _sources(user):
        found = re.search(r"^\S+_archive_code calls \S+unlock_x[0-9a-f]{12}", str(source["text"]))
        if found:
            cite = {"source": source["source"], "quote": found.group(0)}
            return json.dumps({"items": [{"text": "It calls that.", "citations": [cite]}]})
    return '{"items": []}'


FAITHFUL = {
    "questions": 4,
    "cited_positive": 2,
    "cited_decoy": 0,
    "abstained": 2,
    "refused": 0,
    "failed": 0,
    "leaked": 0,
}


def test_a_faithful_scripted_model_cites_the_positive_and_abstains_on_the_canary(
    tmp_path: Path,
) -> None:
    chat = ScriptedChat([_cite_positive, '{"items": []}'] * 4)
    report = run_echo_check(chat, workdir=tmp_path, rounds=2)
    assert report.to_dict() == {
        "provider": "scripted",
        "model": "scripted",
        **FAITHFUL,
        "code": FAITHFUL,  # the code round: the marker planted in an edge's evidence, cited
    }


def test_the_code_round_sends_the_positive_and_the_decoy_edge_in_one_bundle(
    tmp_path: Path,
) -> None:
    chat = ScriptedChat([_cite_positive, '{"items": []}'] * 2)
    run_echo_check(chat, workdir=tmp_path, rounds=1)
    code_question = chat.calls[2].user
    sources = [str(s["text"]) for s in _sources(code_question)]
    assert any("_vault_code calls" in s for s in sources)
    assert any("_archive_code calls" in s for s in sources)
    assert "/" + tmp_path.name not in code_question  # repository-relative places only


def test_the_code_round_counts_a_cited_decoy(tmp_path: Path) -> None:
    chat = ScriptedChat([_cite_positive, '{"items": []}', _cite_decoy, '{"items": []}'])
    report = run_echo_check(chat, workdir=tmp_path, rounds=1)
    assert report.cited_decoy == 0
    assert report.code is not None
    assert (report.code.cited_positive, report.code.cited_decoy) == (0, 1)


def test_the_checker_catches_a_planted_leak_of_the_canary(tmp_path: Path) -> None:
    chat = ScriptedChat([_cite_positive, _leak_canary] * 2)
    report = run_echo_check(chat, workdir=tmp_path, rounds=1)
    assert report.leaked == 1
    assert report.abstained == 0
    assert report.code is not None
    assert report.code.leaked == 1  # the canary echoed beside a quote of an edge


def test_a_refused_and_a_failed_answer_are_counted_apart(tmp_path: Path) -> None:
    chat = ScriptedChat(['{"items": [{"text": "x", "citations": []}]}'])  # then runs out: failed
    report = run_echo_check(chat, workdir=tmp_path, rounds=1, code=False)
    assert (report.refused, report.failed) == (1, 1)
    assert report.code is None
    assert "leaked                  0" in render_echo(report)
