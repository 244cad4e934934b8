"""What `grk` prints cannot drive the terminal: stored control sequences are shown as escapes in
text output, and --json carries them exactly, as JSON escapes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from grk_runner import Grk

# OSC 52 (write the clipboard), OSC 8 (a hyperlink), DCS, an 8-bit CSI, a bidi override.
HOSTILE = (
    "# Burrows\n\nThe wombat burrow \x1b]52;c;cm0gLXJmIH4=\x07 goes \x1b]8;;https://x.test\x1b\\"
    "deep\x1b]8;;\x1b\\ under \x1bP1$qm\x1b\\ the \x9b2J hill \u202egnol si tI.\n"
)
# What a terminal acts on: any C0 control but newline and tab, DEL, C1, bidi controls.
ACTIVE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


@pytest.fixture
def grk(index_dir: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Grk:
    (tmp_path / "hostile.md").write_text(HOSTILE, encoding="utf-8")
    runner = Grk(index_dir, capsys)
    assert runner("ingest", "-q", str(tmp_path / "hostile.md")) == 0
    return runner


@pytest.mark.parametrize("command", [["search", "wombat burrow"], ["answer", "wombat burrow"]])
def test_text_output_shows_control_sequences_as_escapes(grk: Grk, command: list[str]) -> None:
    assert grk(*command) == 0
    assert not ACTIVE.search(grk.out + grk.err)
    assert "\\x1b]52;c;" in grk.out


def test_show_prints_the_stored_text_with_its_escapes_spelled_out(grk: Grk) -> None:
    chunk = grk.json("search", "wombat burrow")["hits"][0]["chunk_id"]
    assert grk("show", chunk) == 0
    assert not ACTIVE.search(grk.out)
    assert "\\x9b2J" in grk.out
    assert "\\u202egnol" in grk.out


def test_json_output_is_exact_and_still_drives_no_terminal(grk: Grk) -> None:
    assert grk("search", "wombat burrow", "--json") == 0
    assert not ACTIVE.search(grk.out)
    hit = json.loads(grk.out)["hits"][0]
    assert hit["text"] == HOSTILE.strip()
    assert grk("show", hit["chunk_id"], "--json") == 0
    assert not ACTIVE.search(grk.out)
    assert json.loads(grk.out)["text"] == HOSTILE.strip()


@pytest.mark.parametrize("command", [["search", "serve-mcp"], ["answer", "serve-mcp"]])
def test_an_argument_spelled_serve_mcp_does_not_turn_the_guard_off(
    index_dir: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str]
) -> None:
    # The guard is off only for the command that speaks a protocol, decided on the parsed
    # command: a query that happens to be the word is searched like any other.
    (tmp_path / "notes.md").write_text(HOSTILE + "\nRun serve-mcp for agents.\n", encoding="utf-8")
    grk = Grk(index_dir, capsys)
    assert grk("ingest", "-q", str(tmp_path / "notes.md")) == 0
    assert grk(*command) == 0
    assert "serve" in grk.out
    assert not ACTIVE.search(grk.out + grk.err)
    assert "\\x1b]52;c;" in grk.out
