"""A planted key and planted document text never reach logs, errors, reprs or --json errors."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from groundkit.answer import logguard
from groundkit.answer.access import AIEnvironment
from groundkit.answer.credentials import KeyStore
from groundkit.answer.logguard import install_log_guard
from groundkit.answer.optin import AISettings
from groundkit.cli import answer as answer_cli
from groundkit.cli.main import main
from groundkit.testing.chat import MemoryKeyring, RecordingTransport, openai_reply

KEY = "gsk_PLANTEDkey0123456789abcdefXYZ"
DOC_MARKER = "zanzibar-quokka-7731"
PROFILE = '[profiles.cloud]\nprovider = "groq"\napi_key_env = "PLANTED_KEY"\n'


@pytest.fixture
def setup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> dict[str, Any]:
    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv("PLANTED_KEY", KEY)
    (tmp_path / "grk.toml").write_text(PROFILE)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "secret.md").write_text(f"The vault code word is {DOC_MARKER} for wombats.\n")
    assert main(["--index-dir", str(tmp_path / "i"), "ingest", str(docs), "-q"]) == 0
    state: dict[str, Any] = {"index": str(tmp_path / "i")}

    def use(replies: list[Any]) -> RecordingTransport:
        transport = RecordingTransport(replies)
        runtime = AIEnvironment(
            keys=KeyStore(MemoryKeyring()),
            ai_settings=AISettings(tmp_path / "ai.json"),
            transport=transport,
        )
        monkeypatch.setattr(answer_cli, "make_ai_environment", lambda: runtime)
        return transport

    state["use"] = use
    return state


@pytest.mark.parametrize(
    "provider_reply",
    [
        openai_reply("", status=500),
        openai_reply("", status=401),
        openai_reply("", status=429, retry_after="3"),
        openai_reply(json.dumps({"items": [{"text": DOC_MARKER, "citations": []}]})),
        openai_reply(f"not json {DOC_MARKER} {KEY}"),
    ],
)
def test_a_failed_answer_leaks_neither_key_nor_document_text_into_logs_or_errors(
    setup: dict[str, Any],
    provider_reply: Any,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    transport = setup["use"]([provider_reply])
    index = setup["index"]
    assert main(["--index-dir", index, "ai", "enable", "default", "--profile", "cloud"]) == 0
    capsys.readouterr()
    assert main(["--index-dir", index, "answer", "vault code word", "--json"]) == 0
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert report["ai"]["state"] in ("failed", "refused")
    reason = json.dumps(report["ai"])
    for planted in (KEY, DOC_MARKER):
        assert planted not in reason
        assert planted not in err
        assert planted not in caplog.text
    assert KEY not in out
    assert DOC_MARKER.encode() in transport.sent[0].body  # it was the evidence, and was sent
    assert KEY.encode() not in transport.sent[0].body


def test_a_json_error_never_carries_the_key(
    setup: dict[str, Any], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "grk.toml").write_text(PROFILE + f'bogus = "{KEY}"\n')
    capsys.readouterr()
    assert main(["--index-dir", setup["index"], "answer", "vault", "--json"]) == 2
    out, err = capsys.readouterr()
    assert json.loads(out)["error"]["code"] == "config.invalid_value"
    assert KEY not in out + err


def test_the_log_guard_redacts_secret_shaped_values_in_every_record(
    caplog: pytest.LogCaptureFixture,
) -> None:
    install_log_guard()
    caplog.set_level(logging.DEBUG)
    logging.getLogger("groundkit.anything").warning("calling with %s", f"Bearer {KEY}")
    logging.getLogger("elsewhere").error("key=%s", KEY)
    assert KEY not in caplog.text
    assert caplog.text.count("<redacted>") == 2


def test_a_record_the_guard_cannot_check_is_withheld_and_the_log_call_does_not_raise(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The shapes are imported at the first record; at interpreter shutdown an import fails.
    install_log_guard()
    caplog.set_level(logging.DEBUG)

    def unimportable(text: str) -> str:
        raise ImportError("sys.meta_path is None, Python is likely shutting down")

    monkeypatch.setattr(logguard, "scrub", unimportable)
    logging.getLogger("groundkit.anything").warning("calling with %s", f"Bearer {KEY}")
    assert KEY not in caplog.text
    assert "withheld" in caplog.text


@pytest.mark.parametrize(
    "value",
    [
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0"
        ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
        "https://admin:hunter2@db.example.org/x",
        "AIzaSyD-1234567890abcdefghijklmnopqrstu",
    ],
)
def test_the_log_guard_scrubs_every_secret_shape_redaction_knows(
    caplog: pytest.LogCaptureFixture, value: str
) -> None:
    install_log_guard()
    caplog.set_level(logging.DEBUG)
    logging.getLogger("elsewhere").error("got %s", value)
    assert caplog.messages == ["got <redacted>"]


def test_the_http_client_loggers_are_held_at_warning() -> None:
    install_log_guard()
    for name in ("httpx", "httpcore"):
        assert logging.getLogger(name).level == logging.WARNING


def test_reprs_of_the_chat_stack_never_show_the_key(setup: dict[str, Any]) -> None:
    from groundkit.answer.access import resolve_chat
    from groundkit.config import load

    settings = load().settings
    runtime = AIEnvironment(keys=KeyStore(MemoryKeyring()), ai_settings=AISettings(Path("ai.json")))
    runtime.opt_ins().enable(Path(setup["index"]) / "default", "cloud")
    chat = resolve_chat(
        settings, Path(setup["index"]) / "default", "default", profile=None, environment=runtime
    )
    assert "groq" in repr(chat)
    assert KEY not in repr(chat)
    assert KEY not in repr(vars(chat))


def test_the_log_guard_keeps_code_paths_of_a_server_traceback_readable(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # What the REST server logs for a 500: the frames of the traceback, as format_tb gives them.
    frames = (
        '  File "/home/alice/projects/groundkit/lib/python3/site/packages/groundkit/serve/rest.py"'
        ", line 200, in __call__\n"
        '  File "/srv/deployments/groundkit/releases/current/src/groundkit/retrieve/search.py"'
        ", line 88, in run_search\n"
    )
    install_log_guard()
    caplog.set_level(logging.DEBUG)
    logging.getLogger("groundkit.serve").error("request 7 failed with KeyError\n%s", frames)
    logging.getLogger("groundkit.serve").error("with %s", f"Bearer {KEY}")
    assert caplog.messages[0] == "request 7 failed with KeyError\n" + frames
    assert "<redacted>.py" not in caplog.text
    assert KEY not in caplog.text  # secrets are still scrubbed


def test_a_base64_key_that_contains_slashes_is_still_scrubbed_from_logs(
    caplog: pytest.LogCaptureFixture,
) -> None:
    key = "Zm9vYmFy/QmF6cXV4/V0FaZ2xvYmFsS2V5MTIzNDU2Nzg5MGFi"
    install_log_guard()
    caplog.set_level(logging.DEBUG)
    logging.getLogger("elsewhere").error("secret %s end", key)
    assert caplog.messages == ["secret <redacted> end"]


@pytest.mark.parametrize(
    "disguised",
    [
        "gh\u200bp_R8x2Lq9Vt4Zk7Wm3Np6Yc1Hb5Jd0Fs2Ga4E",  # a zero-width space in the prefix
        "\uff47\uff48\uff50_R8x2Lq9Vt4Zk7Wm3Np6Yc1Hb5Jd0Fs2Ga4E",  # a fullwidth prefix
        "\u0410KIAQ7Z2M4X8R6T1W3YP",  # a Cyrillic A
    ],
)
def test_the_log_guard_reads_a_key_in_disguise(
    caplog: pytest.LogCaptureFixture, disguised: str
) -> None:
    # Before: each was logged as it came (the guard read the text as written, not folded).
    install_log_guard()
    caplog.set_level(logging.DEBUG)
    logging.getLogger("elsewhere").error("got %s end", disguised)
    assert caplog.messages == ["got <redacted> end"]
