"""The error table as documented: docs/errors.md is rendered from groundkit.errors.OUTCOMES."""

from __future__ import annotations

import os
from pathlib import Path

from groundkit.errors import OUTCOMES, ErrorCode, Kind

DOC = Path(__file__).parents[1] / "docs" / "errors.md"
_BEGIN = "<!-- table: rendered from groundkit.errors.OUTCOMES by tests/test_errors.py -->"
_END = "<!-- end of table -->"
_WHO = {
    Kind.REQUEST: "the caller",
    Kind.SETUP: "the operator",
    Kind.FAILURE: "nobody right now",
    Kind.BUG: "groundkit",
}


def render() -> str:
    rows = ["| code | who can fix it | `grk` exit | HTTP |", "|---|---|---:|---:|"]
    for code in sorted(ErrorCode, key=lambda c: c.value):
        outcome = OUTCOMES[code]
        rows.append(
            f"| `{code.value}` | {_WHO[outcome.kind]} | {int(outcome.exit_status)} |"
            f" {int(outcome.http)} {outcome.http.phrase} |"
        )
    return "\n".join([_BEGIN, *rows, _END])


def test_the_documented_table_is_the_table_in_the_code() -> None:
    text = DOC.read_text(encoding="utf-8")
    begin, end = text.index(_BEGIN), text.index(_END) + len(_END)
    if os.environ.get("UPDATE_DOCS") == "1":  # regenerate: UPDATE_DOCS=1 pytest this
        DOC.write_text(text[:begin] + render() + text[end:], encoding="utf-8")
        text = DOC.read_text(encoding="utf-8")
        begin, end = text.index(_BEGIN), text.index(_END) + len(_END)
    assert text[begin:end] == render()
