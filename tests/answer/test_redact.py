"""Redaction on the chat seam: values out, per-call tokens in, values restored before validation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from answer_helpers import bundle_for, item, reply

from groundkit import Collection
from groundkit.answer.contract import ANSWER_SCHEMA, validate_answer
from groundkit.answer.redact import DEFAULT_PATTERNS, RedactingChat, Redactor, build_patterns
from groundkit.answer.service import answer_question
from groundkit.errors import AIError, ErrorCode
from groundkit.testing.chat import ScriptedChat

SAMPLES = {
    "EMAIL": "keeper@example.org",
    "PHONE": "+44 20 7946 0958",
    "IP": "203.0.113.42",
    "URL": "https://admin:hunter2@db.example.org/x",
    "SECRET": "sk-proj-abcdefghijklmnop0123",
}
MORE_SECRETS = [
    "gsk_abcdefghijklmnopqrstuvwx",
    "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
    "AKIAIOSFODNN7EXAMPLE",
    "Bearer abcdefghijklmnop.qrstuv",
    "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----",
    "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVowMTIzNDU2Nzg5YWJjZA==",
]


@pytest.mark.parametrize(("label", "value"), SAMPLES.items())
def test_each_default_pattern_replaces_its_value_with_a_numbered_token(
    label: str, value: str
) -> None:
    out = Redactor(DEFAULT_PATTERNS).redact(f"see {value} now")
    assert out == f"see [{label}_1] now"


@pytest.mark.parametrize("value", MORE_SECRETS)
def test_secret_shaped_tokens_are_redacted(value: str) -> None:
    out = Redactor(DEFAULT_PATTERNS).redact(f"x {value} y")
    assert value not in out
    assert "[SECRET_1]" in out


@pytest.mark.parametrize(
    "value",
    [
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0"
        ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",  # a JWT: no part may stay behind
        "dGhpcyBpcyBhIHNlY3JldCB0b2tlbg_dGhpcyBpcyBhIHNlY3JldCB0b2tlbg-ab",  # URL-safe base64
        "AIzaSyD-1234567890abcdefghijklmnopqrstu",  # Google API key
        "glpat-abcdefghij0123456789",  # GitLab
        "hf_abcdefghijklmnopqrstuvwxyzABCDEFGH",  # Hugging Face
        "npm_abcdefghijklmnopqrstuvwxyz0123456789",
    ],
)
def test_url_safe_keys_and_tokens_are_redacted_whole(value: str) -> None:
    assert Redactor(DEFAULT_PATTERNS).redact(f"x {value} y") == "x [SECRET_1] y"


def test_a_long_snake_case_name_is_not_taken_for_a_key() -> None:
    name = "a_very_long_function_name_that_goes_on_and_on_forever"
    assert Redactor(DEFAULT_PATTERNS).redact(f"call {name}()") == f"call {name}()"


def test_ipv6_addresses_are_redacted() -> None:
    out = Redactor(DEFAULT_PATTERNS).redact("host 2001:db8:85a3::8a2e:370:7334 and fe80::1")
    assert out == "host [IP_1] and [IP_2]"


def test_the_same_value_gets_the_same_token_and_comes_back_on_restore() -> None:
    redactor = Redactor(DEFAULT_PATTERNS)
    sent = redactor.redact("a@example.org, b@example.org, a@example.org")
    assert sent == "[EMAIL_1], [EMAIL_2], [EMAIL_1]"
    assert redactor.restore("[EMAIL_2] then [EMAIL_1]", json_strings=False) == (
        "b@example.org then a@example.org"
    )


def test_operator_regexes_and_literal_names_are_redacted_too() -> None:
    patterns = build_patterns([r"PRJ-\d{4}"], ["Ada Lovelace"])
    out = Redactor(patterns).redact("Ada Lovelace owns PRJ-1234.")
    assert out == "[NAME_1] owns [CUSTOM_1]."


def test_a_non_local_provider_with_no_pattern_is_refused_at_construction() -> None:
    with pytest.raises(AIError) as caught:
        RedactingChat(ScriptedChat([], local=False), ())
    assert caught.value.code == ErrorCode.AI_REDACTION_REQUIRED


def test_a_token_from_one_request_never_expands_into_another_requests_values() -> None:
    inner = ScriptedChat(["first", "[EMAIL_1] again"], local=False)
    chat = RedactingChat(inner, DEFAULT_PATTERNS)
    chat.complete("s", "mail keeper@example.org")
    assert inner.calls[0].user == "mail [EMAIL_1]"
    assert chat.complete("s", "no address here") == "[EMAIL_1] again"  # literal, not expanded


def test_a_token_already_written_in_the_text_is_never_minted_so_restoring_keeps_it_literal() -> (
    None
):
    inner = ScriptedChat(['"[EMAIL_1] and [EMAIL_2]"'], local=False)
    chat = RedactingChat(inner, DEFAULT_PATTERNS)
    sent = "the template says [EMAIL_1]; write to keeper@example.org"
    restored = chat.complete("s", sent, response_schema=ANSWER_SCHEMA)
    assert inner.calls[0].user == "the template says [EMAIL_1]; write to [EMAIL_2]"
    assert restored == '"[EMAIL_1] and keeper@example.org"'


def test_the_model_never_sees_the_value_and_a_restored_quote_still_validates(
    col: Collection,
) -> None:
    quote = "Write to [EMAIL_1] about"
    inner = ScriptedChat([reply(item("Write to the keeper.", (1, quote)))], local=False)
    report = answer_question(
        col, "who do I write to about wombats?", RedactingChat(inner, DEFAULT_PATTERNS)
    )
    assert "keeper@example.org" not in inner.calls[0].user + inner.calls[0].system
    assert report.answer is not None
    assert report.answer.citations[0].cited_text == "Write to keeper@example.org about"


def test_restored_values_are_escaped_inside_json_strings() -> None:
    pem = MORE_SECRETS[4]
    inner = ScriptedChat(['{"q": "[SECRET_1]"}'], local=False)
    out = RedactingChat(inner, DEFAULT_PATTERNS).complete("s", pem, response_schema=ANSWER_SCHEMA)
    assert json.loads(out) == {"q": pem}


def test_an_unrestored_token_in_a_quote_is_refused(col: Collection) -> None:
    bundle = bundle_for(col, "keeper wombats")
    with pytest.raises(AIError):
        validate_answer(reply(item("Mail them.", (1, "Write to [EMAIL_1]"))), bundle, col.show)


def test_a_value_at_the_start_of_a_line_is_redacted_whole_and_restored_exactly(
    open_col: Any, tmp_path: Path
) -> None:
    docs = tmp_path / "lined"
    docs.mkdir()
    (docs / "contact.md").write_text('Wombat contact:\nkeeper@example.org\n"ops@example.org"\n')
    collection = open_col(name="lined")
    collection.ingest([docs])
    quote = 'contact:\n[EMAIL_1]\n"[EMAIL_2]"'
    inner = ScriptedChat([reply(item("Two addresses.", (1, quote)))], local=False)
    report = answer_question(collection, "wombat contact", RedactingChat(inner, DEFAULT_PATTERNS))
    sent = inner.calls[0].user
    assert "example.org" not in sent
    assert 'contact:\n[EMAIL_1]\n"[EMAIL_2]"' in sent
    assert report.answer is not None
    assert report.answer.citations[0].cited_text == (
        'contact:\nkeeper@example.org\n"ops@example.org"'
    )
