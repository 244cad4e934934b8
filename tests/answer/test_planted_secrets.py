"""At least 150 planted secrets, each in a document sent to a hosted provider through the whole
answer path and the provider's real request: none reaches the request body, in any quotes mode;
and ordinary prose and code that only mention secrets reach it as written.

The fault round this answers planted 69 and 41 got through (docs/answer.md); every family it
found, and more, is in ``planted_secrets``. The leak check is independent of the redaction's own
folding: both sides are reduced to their ASCII letters and digits after NFKC, so a key that got
through with a zero-width space or a combining mark still counts as leaked.
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from planted_secrets import NOT_SECRETS, cases

from groundkit.answer.credentials import KeyStore
from groundkit.answer.providers import build_chat
from groundkit.answer.redact import DEFAULT_PATTERNS, Redactor
from groundkit.answer.service import answer_question
from groundkit.config import ProfileConfig, Settings
from groundkit.testing.chat import MemoryKeyring, RecordingTransport, openai_reply

CASES = cases()


def core(text: str) -> str:
    """``text`` reduced to its ASCII letters and digits (after NFKC)."""
    return "".join(c for c in unicodedata.normalize("NFKC", text) if c.isascii() and c.isalnum())


def test_the_planted_set_covers_at_least_150_shapes_in_every_family() -> None:
    assert len(CASES) >= 150
    families = {kind.split(",")[0] for kind, _, _ in CASES}
    assert len(families) >= 90


@pytest.mark.parametrize(("kind", "text", "secret"), CASES, ids=[c[0] for c in CASES])
def test_a_planted_secret_is_redacted_from_the_prompt(kind: str, text: str, secret: str) -> None:
    sent = Redactor(DEFAULT_PATTERNS).redact_parts(f"Note: {text} is on file.\n")
    assert core(secret) not in core(sent), sent


@pytest.mark.parametrize("text", NOT_SECRETS)
def test_ordinary_prose_and_code_reach_the_provider_as_written(text: str) -> None:
    assert Redactor(DEFAULT_PATTERNS).redact_parts(f"Note: {text} is on file.\n") == (
        f"Note: {text} is on file.\n"
    )


def _cloud(transport: RecordingTransport) -> Any:
    profile = ProfileConfig(provider="groq", api_key_env="PLANTED_TEST_KEY")
    return build_chat(
        "cloud",
        profile,
        keys=KeyStore(MemoryKeyring()),
        patterns=DEFAULT_PATTERNS,
        transport=transport,
        environ={"PLANTED_TEST_KEY": "gsk_PLANTEDtestKEY0123456789abcd"},
    )


def _strings(node: Any) -> str:
    if isinstance(node, dict):
        return "\n".join(_strings(v) for v in node.values())
    if isinstance(node, list):
        return "\n".join(_strings(v) for v in node)
    return node if isinstance(node, str) else ""


@pytest.mark.parametrize("quotes", ["free", "constrained", "pick"])
def test_no_planted_secret_reaches_the_providers_request_body_in_any_quotes_mode(
    open_col: Any, tmp_path: Path, quotes: str
) -> None:
    docs = tmp_path / "planted"
    docs.mkdir()
    for i, (_, text, _) in enumerate(CASES):
        (docs / f"r{i:03}.md").write_text(f"# Wombat record {i}\n\nWombat record {i}: {text}\n")
    (docs / "plain.md").write_text("# Plain\n\n" + "\n\n".join(NOT_SECRETS) + "\n")
    settings = Settings().replace(search=Settings().search.replace(collapse=False))
    collection = open_col(settings)
    collection.ingest([str(docs)])
    transport = RecordingTransport([openai_reply('{"items": []}')] * 3)
    answer_question(
        collection,
        "wombat record",
        _cloud(transport),
        top_k=len(CASES) + 1,
        max_bundle_bytes=2_000_000,
        quotes=quotes,  # type: ignore[arg-type]
    )
    # What the provider read: every request's JSON, its strings as they decode.
    body = "\n".join(_strings(json.loads(r.body)) for r in transport.sent)
    sent = core(body)
    if quotes != "pick":  # pick sends a few best sentences; the others send every record
        missing = [CASES[i][0] for i in range(len(CASES)) if f"Wombat record {i}:" not in body]
        assert missing == []
    leaked = [kind for kind, _, secret in CASES if core(secret) in sent]
    assert leaked == []
