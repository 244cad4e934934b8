"""The planted values: every sensitive value a cloud profile must never receive, each sent in a
document through the whole answer path, and the near misses that must reach it unchanged.

The list began as the 53 values planted from outside against the cloud profile, 14 of which got
through (a 16-digit card without separators, the last group of a spaced or dashed card, an SSN,
``api_key=`` with 32 hex digits, a Twilio key, an unsigned JWT, an AWS key id glued to capital
letters, a quoted or apostrophed e-mail local part, a 7-digit phone number). Add to it whenever a
value is found to get through.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from answer_helpers import reply

from groundkit.answer.redact import DEFAULT_PATTERNS, RedactingChat, Redactor
from groundkit.answer.service import answer_question
from groundkit.testing.chat import ScriptedChat

# (what it is, the text planted, the part of it that must not be sent; None: all of it)
PLANTED: list[tuple[str, str, str | None]] = [
    ("card, no separators", "4111111111111111", None),
    ("card, spaced", "4012 8888 8888 1881", "1881"),
    ("card, dashed", "5500-0000-0000-0004", "0004"),
    ("card, amex spaced", "3782 822463 10005", None),
    ("card, discover", "6011111111111117", None),
    ("card, dashed visa", "4012-8888-8888-1881", None),
    ("ssn", "078-05-1120", None),
    ("ssn", "219-09-9999", None),
    ("api key assignment", "api_key=0123456789abcdef0123456789abcdef", "0123456789abcdef" * 2),
    ("api key, quoted", "API_KEY: '9f86d081884c7d659a2feaa0c55ad015'", "9f86d081884c7d659a2feaa0"),
    ("secret assignment", "client_secret = 'Zx9wVu8tSr7qPo6n'", "Zx9wVu8tSr7qPo6n"),
    ("password assignment", 'password="correct-horse-battery"', "correct-horse-battery"),
    ("twilio key", "SK0123456789abcdef0123456789abcdef", None),
    ("twilio key", "SKa1b2c3d4e5f60718293a4b5c6d7e8f90", None),
    (
        "unsigned jwt",
        "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiIxMjM0NTY3ODkwIn0.",
        "eyJzdWIiOiIxMjM0NTY3ODkwIn0",
    ),
    (
        "signed jwt",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ3b21iYXQifQ.c2lnbmF0dXJlLXZhbHVlLWhlcmU",
        None,
    ),
    ("aws key id, glued", "AWS_KEYAKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"),
    ("aws key id", "AKIAIOSFODNN7EXAMPLE", None),
    ("aws session key id", "ASIAY34FZKBOKMUTVV7A", None),
    ("email, quoted local part", '"john doe"@example.org', "john doe"),
    ("email, apostrophe", "Bob.O'Neil@example.com", "Bob.O'"),
    ("email", "keeper@example.org", None),
    ("email, plus", "keeper+zoo@example.co.uk", None),
    ("email, unicode", "jörg@exämple.de", None),
    ("phone, 7 digits", "555-0100", None),
    ("phone, 7 digits dotted", "555.0199", None),
    ("phone, international", "+44 20 7946 0958", None),
    ("phone, north american", "(415) 555-2671", None),
    ("phone, dashed", "415-555-2671", None),
    ("phone, e164", "+14155552671", None),
    ("ipv4", "203.0.113.42", None),
    ("ipv4, end of sentence", "10.20.30.40", None),
    ("ipv6", "2001:db8:85a3::8a2e:370:7334", None),
    ("ipv6, full", "2001:0db8:0000:0000:0000:ff00:0042:8329", None),
    ("url with password", "https://admin:hunter2@db.example.org/x", None),
    ("url with password", "postgres://app:s3cr3t@10.0.0.5:5432/zoo", "s3cr3t"),
    ("openai key", "sk-proj-abcdefghijklmnop0123", None),
    ("groq key", "gsk_abcdefghijklmnopqrstuvwx", None),
    ("github token", "ghp_abcdefghijklmnopqrstuvwxyz0123456789", None),
    ("github fine-grained", "github_pat_11ABCDEFG0123456789_abcdefghijklmnop", None),
    ("gitlab token", "glpat-Ab3dEf6hIj9kLm2nOp5q", None),
    ("hugging face token", "hf_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z", None),
    ("npm token", "npm_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z", None),
    ("slack token", "xoxb-1234567890-abcdefghijklmn", None),
    ("key glued", "xsk-Ab3dEf6hIj9kLm2nOp5qRs8t", "sk-Ab3dEf6hIj9kLm2nOp5qRs8t"),
    ("google api key", "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW", None),
    ("bearer token", "Bearer abcdefghijklmnop.qrstuv", "abcdefghijklmnop.qrstuv"),
    (
        "pem block",
        "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----",
        "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC",
    ),
    ("base64 key", "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVowMTIzNDU2Nzg5YWJjZA==", None),
    ("url-safe key", "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3dEf6hIj9k", None),
    ("aws secret key", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", None),
    ("stripe key", "sk_live_Ab3dEf6hIj9kLm2nOp5qRs8t", None),
    ("basic auth header", "Authorization: Basic dXNlcjpwYXNzd29yZA==", "dXNlcjpwYXNzd29yZA=="),
]

# What looks a little like a sensitive value and must reach the model as written.
NEAR_MISSES = [
    "order number 1234567812345678 shipped",  # 16 digits, fails the Luhn check
    "upgrade to 1.2.3.4.5 first",
    "the years 1999-2004 and 2010-2020",
    "room 12-34 on floor 3",
    "risk-assessment-overview-of-the-plan",
    "desk_booking_system_for_the_office",
    "a token= is named in the form",
    "the secret is patience",
    "pages 100-120 and 555 wombats",
]


def _sent(value: str) -> str:
    return Redactor(DEFAULT_PATTERNS).redact_parts(f"Note: {value} is on file.\n")


@pytest.mark.parametrize(("kind", "text", "part"), PLANTED, ids=[p[0] for p in PLANTED])
def test_a_planted_value_never_reaches_the_provider(kind: str, text: str, part: str | None) -> None:
    assert (part or text) not in _sent(text)


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_a_near_miss_reaches_the_provider_as_written(text: str) -> None:
    assert _sent(text) == f"Note: {text} is on file.\n"


def test_every_planted_value_in_a_document_stays_on_the_machine_through_the_answer_path(
    open_col: Any, tmp_path: Path
) -> None:
    docs = tmp_path / "planted"
    docs.mkdir()
    lines = [f"Wombat record {i}: {text} is on file." for i, (_, text, _) in enumerate(PLANTED)]
    (docs / "records.md").write_text("# Wombat records\n\n" + "\n\n".join(lines) + "\n")
    collection = open_col(name="planted")
    collection.ingest([docs])
    inner = ScriptedChat([reply()], local=False)
    answer_question(collection, "wombat record", RedactingChat(inner, DEFAULT_PATTERNS), top_k=50)
    sent = inner.calls[0].user + json.dumps(inner.calls[0].response_schema)
    assert "Wombat record 0" in sent
    leaked = [kind for kind, text, part in PLANTED if (part or text) in sent]
    assert leaked == []
