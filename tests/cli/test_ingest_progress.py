"""The ingest's progress on a terminal: a phase that is over shows as done, not as a spinner
counting 0/1 while a later phase (say, an hour of embedding) runs."""

from __future__ import annotations

import io
import re

import pytest

import groundkit.cli.progress as progress_module


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _last_frame(out: str) -> list[str]:
    """The rows of the last frame drawn (each frame begins after rich's cursor-up erases)."""
    frames = re.split(r"(?:\r?\x1b\[2K(?:\x1b\[1A\x1b\[2K)+)", out)
    drawn = [f for f in frames if "embedding" in f][-1]
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", drawn)
    return [row for row in plain.splitlines() if row.strip()]


def test_phases_that_are_over_show_as_done_while_embedding_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    screen = Terminal()
    monkeypatch.setattr(progress_module, "raw_stderr", lambda: screen)
    with progress_module.progress_display(enabled=True) as update:
        assert update is not None
        update("walking", 0, None)
        update("reading", 0, 2, "a.md")
        update("reading", 2, 2)
        update("writing", 0, None)
        update("indexing", 0, None)
        update("embedding", 10, 20)
    rows = _last_frame(screen.getvalue())
    spinner = re.compile("[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]")
    for phase in ("walking", "reading and chunking", "writing", "indexing"):
        row = next(r for r in rows if phase in r)
        assert not spinner.search(row), row
        assert "0/1" not in row, row
    assert "2/2" in next(r for r in rows if "reading" in r)
    assert "10/20" in next(r for r in rows if "embedding" in r)


def test_no_progress_is_drawn_when_standard_error_is_not_a_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(progress_module, "raw_stderr", io.StringIO)
    with progress_module.progress_display(enabled=True) as update:
        assert update is None


@pytest.mark.parametrize(
    "name",
    [
        "\x1b]52;c;cm0gLXJmIH4=\x07notes.md",  # OSC 52: write the clipboard
        "[link=mailto:someone@example.org]click[/link].md",  # rich's own markup: a hyperlink
        "[bold red]loud[/].md",
    ],
)
def test_a_file_name_reaches_the_progress_display_as_text_not_as_sequences_or_markup(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    screen = Terminal()
    monkeypatch.setattr(progress_module, "raw_stderr", lambda: screen)
    with progress_module.progress_display(enabled=True) as update:
        assert update is not None
        update("reading", 0, 2, name)
        update("reading", 1, 2, name)
    drawn = screen.getvalue()
    assert "\x1b]52" not in drawn
    assert "\x1b]8;" not in drawn  # no hyperlink made of a name
    assert "\x07" not in drawn
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", drawn)
    if name.startswith("["):
        assert name[: name.index("]") + 1] in plain  # the brackets are shown as typed
