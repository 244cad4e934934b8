"""Redaction gaps found from outside, each as its case, and a property over generated secrets.

Each case failed before the patterns were fixed: an IPv4 address closing a sentence, an email
address with non-ASCII letters, and keys glued to a word character.
"""

from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundkit.answer.redact import DEFAULT_PATTERNS, Redactor


def redacted(text: str) -> str:
    return Redactor(DEFAULT_PATTERNS).redact(text)


def test_an_ipv4_address_at_the_end_of_a_sentence_is_redacted() -> None:
    assert redacted("The database runs on host 10.20.30.40.") == "The database runs on host [IP_1]."


def test_a_dotted_version_number_longer_than_an_address_is_left_alone() -> None:
    assert redacted("upgrade to 1.2.3.4.5 first") == "upgrade to 1.2.3.4.5 first"


@pytest.mark.parametrize("email", ["jörg@exämple.de", "müller.sé@bücher.example.org"])
def test_an_email_address_with_non_ascii_letters_is_redacted(email: str) -> None:
    out = redacted(f"write to {email} today")
    assert email not in out
    assert out == "write to [EMAIL_1] today"


@pytest.mark.parametrize(
    "text",
    [
        "xsk-Ab3dEf6hIj9kLm2nOp5qRs8t",
        "key_gsk_Ab3dEf6hIj9kLm2nOp5qRs8tUv1w",
        "token=ghp_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z",
        "idAKIAIOSFODNN7EXAMPLE",
    ],
)
def test_a_key_glued_to_a_word_character_is_redacted(text: str) -> None:
    key = text[text.index(next(p for p in ("sk-", "gsk_", "ghp_", "AKIA") if p in text)) :]
    out = redacted(f"config: {text} end")
    assert key not in out
    assert "[SECRET_1]" in out


@pytest.mark.parametrize(
    "words", ["risk-assessment-overview-of-the-plan", "desk_booking_system_for_the_office"]
)
def test_words_that_merely_contain_a_key_prefix_are_left_alone(words: str) -> None:
    assert redacted(words) == words


# The property: a generated secret, embedded anywhere in random text, never survives redaction.
_ALNUM = string.ascii_letters + string.digits


@st.composite
def random_body(draw: st.DrawFn, size: int) -> str:
    """A key body as providers mint them: random, with a digit, a lower and an upper letter."""
    body = draw(st.text(_ALNUM, min_size=size, max_size=size))
    return "a7Q" + body[3:]


@st.composite
def glueable_secret(draw: st.DrawFn) -> str:
    prefix = draw(st.sampled_from(["sk-", "sk-proj-", "gsk_", "ghp_", "glpat-", "hf_", "npm_"]))
    return prefix + draw(random_body(draw(st.integers(20, 52))))


@st.composite
def standalone_secret(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["aws", "ip", "email", "jwt", "bearer"]))
    if kind == "aws":
        return "AKIA" + draw(
            st.text(string.ascii_uppercase + string.digits, min_size=16, max_size=16)
        )
    if kind == "ip":
        return ".".join(str(draw(st.integers(0, 255))) for _ in range(4))
    if kind == "email":
        local = draw(
            st.text("abcdéfgxyzö._", min_size=1, max_size=10).filter(lambda s: s[0].isalpha())
        )
        return f"{local}@{draw(st.sampled_from(['example.org', 'exämple.de', 'mail.test.io']))}"
    if kind == "jwt":
        part = random_body(12)
        return f"eyJ{draw(part)}.{draw(part)}.{draw(part)}"
    return "Bearer " + draw(random_body(24))


_FILLER = st.text(string.ascii_letters + string.digits + " .,;:!?()'\"\n-" + "äéßø", max_size=40)
_BREAK = st.sampled_from([" ", ". ", ", ", "\n", "(", ") ", ": ", '"', " - "])
_GLUE = st.sampled_from(["", "x", "_", "=", "9", " ", "key_", "/"])


@settings(max_examples=300, deadline=None)
@given(before=_FILLER, glue=_GLUE, secret=glueable_secret(), after=_FILLER, tail=_BREAK)
def test_a_generated_key_embedded_in_random_text_never_survives_redaction(
    before: str, glue: str, secret: str, after: str, tail: str
) -> None:
    text = before + glue + secret + tail + after
    assert secret not in redacted(text)


@settings(max_examples=300, deadline=None)
@given(before=_FILLER, lead=_BREAK, secret=standalone_secret(), tail=_BREAK, after=_FILLER)
def test_a_generated_address_or_token_embedded_in_random_text_never_survives_redaction(
    before: str, lead: str, secret: str, tail: str, after: str
) -> None:
    text = before + lead + secret + tail + after
    assert secret not in redacted(text)
