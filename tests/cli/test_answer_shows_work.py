"""`grk answer` and `grk ask` show their work (issue 11, point 13): a spinner on a terminal while
a model runs, the refused reply on request, a reply cut off by the token limit named as such, and
AI that is off reported as off even without the `ai` extra.

Both surfaces run each test (the ``surface`` fixture of ``test_answer_cli``): a collection for
`grk answer`, a code map for `grk ask`. Providers are transport doubles; where no model may be
asked, the transport fails the test if it is called.
"""

from __future__ import annotations

import io
import json
import logging
import sys
from pathlib import Path
from typing import Any

import pytest
from test_answer_cli import (
    GOOD,
    LOCAL,
    REMOTE,
    Surface,
    grk,
    keychain,
    no_machine_keychain,
    surface,
    use,
)

from grk_runner import Grk
from groundkit.answer.access import AIEnvironment
from groundkit.answer.chat import HttpReply
from groundkit.answer.credentials import KeyStore
from groundkit.cli import answer as answer_cli
from groundkit.cli import answer_spinner
from groundkit.testing.chat import (
    ForbiddenTransport,
    MemoryKeyring,
    RecordingTransport,
    openai_reply,
)

# The fixtures of the answer CLI tests, used here by name (the autouse one guards the keychain).
SHARED_FIXTURES = (grk, keychain, no_machine_keychain, surface, use)
MARKER = "zanzibar-quokka-7731"  # in a refused reply only: wherever it shows up, the reply went
REFUSED = f'Sure! Here is the answer about {MARKER}: {{"items": []}}'
CUT = '{"items":[{"text":"Wombats dig burrows.","citations":[{"source":1,"quote":"digs lo'


class FakeTerminal(io.StringIO):
    """A standard error that says it is a terminal, and keeps what was drawn on it."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> FakeTerminal:
    screen = FakeTerminal()
    monkeypatch.setattr(answer_spinner, "raw_stderr", lambda: screen)
    monkeypatch.setenv("TERM", "xterm-256color")  # rich draws nothing on a dumb terminal
    return screen


class Watching:
    """A transport double that looks at the terminal while the request is in flight."""

    def __init__(self, screen: FakeTerminal, reply: HttpReply) -> None:
        self.inner = RecordingTransport([reply])
        self.screen = screen
        self.seen: list[str] = []

    def __call__(self, *_: Any) -> Watching:
        return self

    def post_json(self, url: str, headers: Any, body: bytes) -> HttpReply:
        self.seen.append(self.screen.getvalue())
        return self.inner.post_json(url, headers, body)


def _enable(grk: Grk, surface: Surface, profile: str = "box") -> None:
    assert grk("ai", "enable", surface.target, "--profile", profile) == 0


# -- the spinner


def test_a_spinner_names_the_model_on_a_terminal_while_it_answers(
    surface: Surface, grk: Grk, use: Any, terminal: FakeTerminal
) -> None:
    watching = use(Watching(terminal, openai_reply(GOOD))).transport
    _enable(grk, surface)
    assert grk(*surface.ask()) == 0
    (during,) = watching.seen
    assert "openai_compatible m: answering" in during  # drawn before the reply came back
    assert "answering" not in grk.out + grk.err  # on the terminal only, never in the output
    assert grk.out.startswith("Wombats dig burrows. [1]")


def test_a_model_name_that_looks_like_markup_is_shown_as_written(
    grk: Grk, use: Any, terminal: FakeTerminal, tmp_path: Path
) -> None:
    odd = LOCAL.replace('model = "m"', 'model = "m[/bold]"')
    (tmp_path / "grk.toml").write_text(odd, encoding="utf-8")
    watching = use(Watching(terminal, openai_reply(GOOD))).transport
    assert grk("ai", "enable", "default", "--profile", "box") == 0
    assert grk("answer", "what does the wombat dig?") == 0, grk.err
    assert "openai_compatible m[/bold]: answering" in watching.seen[0]


def test_no_spinner_is_drawn_for_json_output_even_on_a_terminal(
    surface: Surface, grk: Grk, use: Any, terminal: FakeTerminal
) -> None:
    watching = use(Watching(terminal, openai_reply(GOOD))).transport
    _enable(grk, surface)
    report = grk.json(*surface.ask())
    assert report["ai"]["state"] == "answered"
    assert watching.seen == [""]
    assert terminal.getvalue() == ""


def test_no_spinner_is_drawn_when_standard_error_is_not_a_terminal(
    surface: Surface, grk: Grk, use: Any
) -> None:
    use(RecordingTransport([openai_reply(GOOD)]))
    _enable(grk, surface)
    assert grk(*surface.ask()) == 0
    assert grk.err == ""
    assert "answering" not in grk.out


def test_the_spinner_runs_for_the_judge_call_too(
    grk: Grk, use: Any, terminal: FakeTerminal
) -> None:
    verdict = '{"faithful": true, "unsupported_claims": [], "reasoning": "ok"}'
    transport = use(Watching(terminal, openai_reply(GOOD))).transport
    transport.inner = RecordingTransport([openai_reply(GOOD), openai_reply(verdict)])
    assert grk("ai", "enable", "default", "--profile", "box") == 0
    assert grk("answer", "what does the wombat dig?", "--judge") == 0
    assert "judging the answer" in transport.seen[1]


# -- --show-reply


def test_show_reply_prints_the_refused_reply_with_the_reason(
    surface: Surface, grk: Grk, use: Any
) -> None:
    use(RecordingTransport([openai_reply(REFUSED)]))
    _enable(grk, surface)
    assert grk(*surface.ask(), "--show-reply") == 0
    lines = grk.out.splitlines()
    assert (
        "no explanation (refused): the model's answer was refused:"
        " the reply is not a single JSON object"
    ) in lines  # below the extracted answer
    at = lines.index("the model's reply, as it came back (--show-reply):")
    assert lines[at + 1 : at + 4] == ["-----", REFUSED, "-----"]
    assert "digs long burrows with its strong claws" in grk.out  # the evidence is still shown


def test_without_show_reply_the_refused_reply_is_not_printed(
    surface: Surface, grk: Grk, use: Any
) -> None:
    use(RecordingTransport([openai_reply(REFUSED)]))
    _enable(grk, surface)
    assert grk(*surface.ask()) == 0
    assert "no explanation (refused)" in grk.out
    assert MARKER not in grk.out + grk.err


def test_show_reply_never_puts_the_reply_in_json(surface: Surface, grk: Grk, use: Any) -> None:
    use(RecordingTransport([openai_reply(REFUSED)]))
    _enable(grk, surface)
    report = grk.json(*surface.ask(), "--show-reply")
    assert report["ai"]["state"] == "refused"
    assert MARKER not in grk.out + grk.err


def test_a_refused_reply_is_never_logged_even_at_debug(
    surface: Surface, grk: Grk, use: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)  # every logger, every level
    use(RecordingTransport([openai_reply(REFUSED)]))
    _enable(grk, surface)
    assert grk(*surface.ask(), "--show-reply") == 0
    assert MARKER in grk.out  # the reply was there to be logged
    logged = caplog.text + "".join(str(r.__dict__) for r in caplog.records)
    assert MARKER not in logged


def test_show_reply_cannot_drive_the_terminal(surface: Surface, grk: Grk, use: Any) -> None:
    hostile = "\x1b]52;c;cm0gLXJmIH4=\x07 \u202eevil\u202c \x9b2J " + MARKER
    use(RecordingTransport([openai_reply(hostile)]))
    _enable(grk, surface)
    assert grk(*surface.ask(), "--show-reply") == 0
    assert MARKER in grk.out
    for unsafe in ("\x1b", "\x07", "\u202e", "\x9b"):
        assert unsafe not in grk.out
    assert "\\x1b]52;c;cm0gLXJmIH4=\\x07 \\u202eevil\\u202c \\x9b2J" in grk.out


def test_show_reply_spells_out_a_lone_surrogate_instead_of_failing(
    surface: Surface, grk: Grk, use: Any
) -> None:
    use(RecordingTransport([openai_reply("broken \ud800 " + MARKER)]))
    _enable(grk, surface)
    assert grk(*surface.ask(), "--show-reply") == 0
    assert "broken \\ud800 " + MARKER in grk.out


def test_show_reply_scrubs_a_key_the_provider_echoed(
    surface: Surface, grk: Grk, use: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = "gsk_FIXTUREkey0123456789abcdef"
    monkeypatch.setenv("TEST_GROQ_KEY", key)
    use(RecordingTransport([openai_reply(f"Authorization: Bearer {key} {MARKER}")]))
    _enable(grk, surface, "cloud")
    assert grk(*surface.ask(), "--show-reply") == 0
    assert MARKER in grk.out
    assert "FIXTUREkey" not in grk.out + grk.err


def test_show_reply_with_nothing_refused_says_so(surface: Surface, grk: Grk, use: Any) -> None:
    use(ForbiddenTransport())
    assert grk(*surface.ask(), "--show-reply") == 0
    assert "no explanation (disabled)" in grk.out
    assert "(--show-reply: there is no refused reply to show)" in grk.out


# -- a reply cut off by the token limit


def test_a_reply_cut_off_by_max_tokens_says_so_with_the_limit(
    surface: Surface, grk: Grk, use: Any, tmp_path: Path
) -> None:
    (tmp_path / "grk.toml").write_text(REMOTE + LOCAL + "max_tokens = 64\n", encoding="utf-8")
    use(RecordingTransport([openai_reply(CUT, finish_reason="length")]))
    _enable(grk, surface)
    report = grk.json(*surface.ask())
    assert report["ai"]["state"] == "refused"
    reason = report["ai"]["reason"]
    assert reason["code"] == "ai.reply_cut_off"
    assert reason["message"] == (
        "the model's answer was refused: the reply was cut off at max_tokens=64 before it was"
        " complete"
    )
    assert "raise max_tokens in [profiles.box]" in reason["hint"]
    assert "not a single JSON object" not in json.dumps(report)


def test_a_cut_off_reply_in_text_names_the_limit_and_shows_what_came_back(
    surface: Surface, grk: Grk, use: Any
) -> None:
    use(RecordingTransport([openai_reply(CUT, finish_reason="length")]))
    _enable(grk, surface)
    assert grk(*surface.ask(), "--show-reply") == 0
    assert (
        "no explanation (refused): the model's answer was refused: the reply was cut off at"
        " max_tokens=1024 before it was complete"
    ) in grk.out
    assert "hint: raise max_tokens in [profiles.box] in grk.toml" in grk.out
    assert CUT in grk.out


def test_the_same_broken_reply_that_ended_on_its_own_is_invalid_output(
    surface: Surface, grk: Grk, use: Any
) -> None:
    use(RecordingTransport([openai_reply(CUT, finish_reason="stop")]))
    _enable(grk, surface)
    reason = grk.json(*surface.ask())["ai"]["reason"]
    assert reason["code"] == "ai.invalid_output"
    assert (
        reason["message"] == "the model's answer was refused: the reply is not a single JSON object"
    )


def test_a_valid_reply_is_answered_whatever_its_finish_reason(
    surface: Surface, grk: Grk, use: Any
) -> None:
    use(RecordingTransport([openai_reply(GOOD, finish_reason="length")]))
    _enable(grk, surface)
    assert grk.json(*surface.ask())["ai"]["state"] == "answered"


# -- AI off without the `ai` extra


def _default_runtime(
    monkeypatch: pytest.MonkeyPatch, keychain: MemoryKeyring
) -> ForbiddenTransport:
    """A runtime whose opt-in file is the user's (found by platformdirs, under the test's own
    XDG_CONFIG_HOME), as on a real install."""
    forbidden = ForbiddenTransport()
    # A fresh runtime per command, as in a real run: each reads the opt-in file anew.
    monkeypatch.setattr(
        answer_cli,
        "make_ai_environment",
        lambda: AIEnvironment(keys=KeyStore(keychain), transport=forbidden),
    )
    return forbidden


def _without_the_ai_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    for module in ("platformdirs", "keyring", "keyring.backends", "keyring.errors"):
        monkeypatch.setitem(sys.modules, module, None)  # `import` now raises ImportError


def test_without_the_ai_extra_ai_that_is_off_is_disabled_not_a_missing_package(
    surface: Surface, grk: Grk, monkeypatch: pytest.MonkeyPatch, keychain: MemoryKeyring
) -> None:
    forbidden = _default_runtime(monkeypatch, keychain)
    _without_the_ai_extra(monkeypatch)
    with pytest.raises(ImportError):
        import platformdirs  # noqa: F401
    report = grk.json(*surface.ask())
    assert report["ai"]["state"] == "disabled"
    assert report["ai"]["reason"]["code"] == "ai.disabled"
    assert "pip install 'groundkit[ai]'" in report["ai"]["reason"]["hint"]
    assert grk(*surface.ask()) == 0
    assert "no explanation (disabled): AI is off for" in grk.out
    assert forbidden.calls == 0


def test_without_the_ai_extra_ai_that_was_turned_on_is_unavailable_for_the_package(
    surface: Surface, grk: Grk, monkeypatch: pytest.MonkeyPatch, keychain: MemoryKeyring
) -> None:
    forbidden = _default_runtime(monkeypatch, keychain)
    _enable(grk, surface)  # while the extra is there
    _without_the_ai_extra(monkeypatch)
    report = grk.json(*surface.ask())
    assert report["ai"]["state"] == "unavailable"
    assert report["ai"]["reason"]["code"] == "dependency.missing_extra"
    assert report["ai"]["reason"]["hint"] == "pip install 'groundkit[ai]'"
    assert forbidden.calls == 0


def test_with_the_extra_but_no_keychain_package_ai_that_is_off_is_still_disabled(
    surface: Surface, grk: Grk, monkeypatch: pytest.MonkeyPatch, keychain: MemoryKeyring
) -> None:
    _default_runtime(monkeypatch, keychain)
    monkeypatch.setitem(sys.modules, "keyring", None)
    report = grk.json(*surface.ask())
    assert report["ai"]["state"] == "disabled"


_BLOCKING_GRK = r"""
import sys

class Block:  # the `ai` extra is not installed: importing either package fails
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("platformdirs", "keyring"):
            raise ImportError(f"No module named {name!r}")
        return None

sys.meta_path.insert(0, Block())
from groundkit.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_grk_process_without_the_ai_extra_reports_ai_off_as_disabled(tmp_path: Path) -> None:
    import os
    import subprocess

    (tmp_path / "wombat.md").write_text("The wombat digs long burrows.\n", encoding="utf-8")
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "xdg")}

    def grk_process(*args: str) -> subprocess.CompletedProcess[str]:
        argv = [sys.executable, "-c", _BLOCKING_GRK, "--index-dir", str(tmp_path / "i"), *args]
        return subprocess.run(
            argv, check=False, env=env, capture_output=True, text=True, timeout=120
        )

    assert grk_process("ingest", str(tmp_path / "wombat.md"), "-q").returncode == 0
    done = grk_process("answer", "what does the wombat dig?", "--json")
    assert done.returncode == 0, done.stderr
    ai = json.loads(done.stdout)["ai"]
    assert (ai["state"], ai["reason"]["code"]) == ("disabled", "ai.disabled")
    assert "groundkit[ai]" in ai["reason"]["hint"]


_OPAQUE = "opaqueKEY7x9q2WvLm4Rt8ZpB3"  # no secret shape: only the echo check finds it


def test_show_reply_scrubs_a_key_split_across_two_items_of_a_refused_reply(
    surface: Surface, grk: Grk, use: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Before: each half was printed (the whole reply was searched for the whole key).
    (tmp_path / "grk.toml").write_text(
        '[profiles.odd]\nprovider = "openai_compatible"\nbase_url = "https://llm.example.org/v1"\n'
        'model = "m"\napi_key_env = "ODD_KEY"\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("ODD_KEY", _OPAQUE)
    refused = json.dumps(
        {
            "items": [
                {"text": f"A {_OPAQUE[:13]}", "citations": []},
                {"text": f"{_OPAQUE[13:]} {MARKER}", "citations": []},
            ]
        }
    )
    use(RecordingTransport([openai_reply(refused)]))
    _enable(grk, surface, "odd")
    assert grk(*surface.ask(), "--show-reply") == 0
    assert MARKER in grk.out  # the refused reply was shown
    assert _OPAQUE[:13] not in grk.out
    assert _OPAQUE[13:] not in grk.out


def test_show_reply_scrubs_a_key_in_three_disguised_pieces_of_a_refused_reply(
    surface: Surface, grk: Grk, use: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Before: all three were printed (a piece had to be half the key, and dots hid each one).
    (tmp_path / "grk.toml").write_text(
        '[profiles.odd]\nprovider = "openai_compatible"\nbase_url = "https://llm.example.org/v1"\n'
        'model = "m"\napi_key_env = "ODD_KEY"\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("ODD_KEY", _OPAQUE)
    pieces = [".".join(_OPAQUE[i : i + 9]) for i in (0, 9, 18)]
    refused = json.dumps(
        {
            "items": [
                {"text": f"A {pieces[0]}", "citations": []},
                {"text": f"then {pieces[1]}", "citations": []},
                {"text": f"and {pieces[2]} {MARKER}", "citations": []},
            ]
        }
    )
    use(RecordingTransport([openai_reply(refused)]))
    _enable(grk, surface, "odd")
    assert grk(*surface.ask(), "--show-reply") == 0
    assert MARKER in grk.out  # the refused reply was shown
    shown = grk.out.replace(".", "")
    for i in range(0, len(_OPAQUE) - 7):
        assert _OPAQUE[i : i + 8] not in shown
