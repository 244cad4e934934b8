"""Redaction sees each evidence item, and the question, on its own: a pattern never spans the
boundary between two sources (a PEM block's BEGIN in one document and its END in another)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from answer_helpers import reply

from groundkit.answer.redact import DEFAULT_PATTERNS, RedactingChat
from groundkit.answer.service import answer_question
from groundkit.testing.chat import ScriptedChat


def test_a_pem_begin_in_one_source_and_its_end_in_another_swallow_nothing_between(
    open_col: Any, tmp_path: Path
) -> None:
    docs = tmp_path / "certs"
    docs.mkdir()
    (docs / "a.md").write_text("Wombat certificates start with\n-----BEGIN CERTIFICATE-----\n")
    (docs / "b.md").write_text("Wombat burrows are long and the wombat digs them at night.\n")
    (docs / "c.md").write_text("-----END CERTIFICATE-----\nends a wombat certificate.\n")
    collection = open_col(name="certs")
    collection.ingest([docs])
    inner = ScriptedChat([reply()], local=False)
    answer_question(collection, "wombat", RedactingChat(inner, DEFAULT_PATTERNS), top_k=3)
    sent = inner.calls[0].user
    assert sent.count('<source id="') == 3
    assert "the wombat digs them at night" in sent
    assert "Wombat certificates start with" in sent
    assert "ends a wombat certificate" in sent


def test_a_value_spanning_the_question_and_a_source_is_not_one_match() -> None:
    inner = ScriptedChat(["{}"], local=False)
    user = (
        "Question:\nwhere is -----BEGIN KEY-----\n\nSources:\n"
        '<source id="1">\nthe burrow map\n-----END KEY-----\n</source>\n'
    )
    RedactingChat(inner, DEFAULT_PATTERNS).complete("s", user)
    assert "the burrow map" in inner.calls[0].user
