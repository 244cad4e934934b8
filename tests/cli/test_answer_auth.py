"""`grk auth` and `grk ai`: keys through a prompt or stdin, never argv; opt-in per collection."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from groundkit.answer.access import AIEnvironment
from groundkit.answer.credentials import SERVICE, KeyStore
from groundkit.answer.optin import AISettings
from groundkit.cli import answer as answer_cli
from groundkit.cli.main import main
from groundkit.testing.chat import ForbiddenKeyring, ForbiddenTransport, MemoryKeyring

KEY = "gsk_FIXTUREkey0123456789abcdef"


@pytest.fixture(autouse=True)
def no_machine_keychain(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Only the in-memory keychain given to the runtime may be used; the opt-in file is the
    test's own."""
    monkeypatch.setattr("keyring.core._keyring_backend", ForbiddenKeyring())
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))


@pytest.fixture
def keychain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MemoryKeyring:
    backend = MemoryKeyring()
    runtime = AIEnvironment(
        keys=KeyStore(backend),
        ai_settings=AISettings(tmp_path / "ai.json"),
        transport=ForbiddenTransport(),
    )
    monkeypatch.setattr(answer_cli, "make_ai_environment", lambda: runtime)
    (tmp_path / "grk.toml").write_text('[profiles.cloud]\nprovider = "groq"\n')
    return backend


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_auth_set_reads_the_key_from_stdin_and_status_never_prints_it(
    keychain: MemoryKeyring, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(KEY + "\n"))
    assert run(capsys, "auth", "set", "cloud")[0] == 0
    assert keychain.entries == {(SERVICE, "cloud"): KEY}
    _, out, err = run(capsys, "auth", "status", "cloud", "--json")
    assert json.loads(out) == {"profile": "cloud", "key": "stored"}
    assert KEY not in out + err


def test_auth_set_never_takes_the_key_from_the_command_line(
    keychain: MemoryKeyring, capsys: pytest.CaptureFixture[str]
) -> None:
    for args in (["cloud", KEY], ["cloud", "--key", KEY], ["cloud", f"--key={KEY}"]):
        status, out, err = run(capsys, "auth", "set", *args)
        assert status == 2
        assert KEY not in out + err
    assert keychain.entries == {}
    assert KEY not in out + err


def test_auth_set_refuses_a_profile_that_is_not_configured(
    keychain: MemoryKeyring, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(KEY))
    status, out, _ = run(capsys, "auth", "set", "typo", "--json")
    assert status == 2
    assert json.loads(out)["error"]["code"] == "ai.unknown_profile"
    assert keychain.entries == {}


def test_auth_delete_removes_the_entry_and_status_then_says_missing(
    keychain: MemoryKeyring, capsys: pytest.CaptureFixture[str]
) -> None:
    keychain.entries[(SERVICE, "cloud")] = KEY
    assert run(capsys, "auth", "delete", "cloud")[1] == "deleted\n"
    assert run(capsys, "auth", "status", "cloud")[1] == "missing\n"
    assert run(capsys, "auth", "delete", "cloud")[1] == "no key was stored\n"


def test_auth_status_tells_a_locked_keychain_from_an_unavailable_one(
    keychain: MemoryKeyring, capsys: pytest.CaptureFixture[str]
) -> None:
    from keyring.errors import KeyringLocked, NoKeyringError

    keychain.fail_with = KeyringLocked()
    assert run(capsys, "auth", "status", "cloud")[1] == "denied\n"
    keychain.fail_with = NoKeyringError()
    assert run(capsys, "auth", "status", "cloud")[1] == "unavailable\n"


def test_ai_is_off_until_enabled_and_status_lists_each_collection_with_its_profile(
    keychain: MemoryKeyring, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    index = str(tmp_path / "index")
    (tmp_path / "a.txt").write_text("text")
    assert (
        run(capsys, "--index-dir", index, "-c", "notes", "ingest", str(tmp_path / "a.txt"))[0] == 0
    )
    assert json.loads(run(capsys, "--index-dir", index, "ai", "status", "--json")[1]) == {
        "enabled": {},
        "warning": None,
    }
    assert run(capsys, "--index-dir", index, "ai", "enable", "notes", "--profile", "cloud")[0] == 0
    shown: Any = json.loads(run(capsys, "--index-dir", index, "ai", "status", "--json")[1])
    assert shown["enabled"] == {str((tmp_path / "index" / "notes").resolve()): "cloud"}
    assert run(capsys, "--index-dir", index, "ai", "disable", "notes")[0] == 0
    assert (
        json.loads(run(capsys, "--index-dir", index, "ai", "status", "--json")[1])["enabled"] == {}
    )


def test_ai_enable_refuses_a_profile_that_is_not_configured(
    keychain: MemoryKeyring, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, "ai", "enable", "notes", "--profile", "typo", "--json")
    assert status == 2
    assert json.loads(out)["error"]["code"] == "ai.unknown_profile"


def test_a_key_typed_in_place_of_the_profile_name_is_not_echoed_back(
    keychain: MemoryKeyring, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    for as_json in ((), ("--json",)):
        status, out, err = run(capsys, "auth", "set", KEY, *as_json)
        assert status == 2
        assert KEY not in out + err
