"""Keys: the keychain or a named variable, three distinct failures, a Secret that never leaks."""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path

import pytest
from keyring.errors import InitError, KeyringLocked, NoKeyringError

from groundkit.answer.credentials import SERVICE, KeyStore, read_key
from groundkit.answer.optin import AISettings
from groundkit.config import load
from groundkit.errors import AuthError, ConfigError, ErrorCode
from groundkit.secret import Secret
from groundkit.testing.chat import MemoryKeyring

KEY = "gsk_FIXTUREkey0123456789abcdef"


def test_a_key_is_read_from_the_keychain_entry_of_its_profile(keychain: MemoryKeyring) -> None:
    keychain.entries[(SERVICE, "cloud")] = KEY
    assert read_key("cloud", None, KeyStore(keychain)).reveal() == KEY


def test_a_key_is_read_from_the_environment_variable_named_in_config(
    keychain: MemoryKeyring,
) -> None:
    secret = read_key("cloud", "MY_KEY", KeyStore(keychain), {"MY_KEY": KEY})
    assert secret.reveal() == KEY


@pytest.mark.parametrize(
    ("failure", "code"),
    [
        (None, ErrorCode.AUTH_MISSING),
        (KeyringLocked(), ErrorCode.AUTH_DENIED),
        (NoKeyringError(), ErrorCode.AUTH_KEYCHAIN_UNAVAILABLE),
        (InitError(), ErrorCode.AUTH_KEYCHAIN_UNAVAILABLE),
    ],
)
def test_missing_denied_and_unavailable_are_distinct_outcomes(
    keychain: MemoryKeyring, failure: Exception | None, code: ErrorCode
) -> None:
    keychain.fail_with = failure
    with pytest.raises(AuthError) as caught:
        KeyStore(keychain).get("cloud")
    assert caught.value.code == code


def test_an_unset_key_variable_is_missing_and_names_the_variable_only() -> None:
    with pytest.raises(AuthError) as caught:
        read_key("cloud", "MY_KEY", KeyStore(MemoryKeyring()), {})
    assert caught.value.code == ErrorCode.AUTH_MISSING
    assert "MY_KEY" in caught.value.message


def test_a_key_written_in_the_config_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "grk.toml").write_text(f'[profiles.cloud]\nprovider = "groq"\napi_key = "{KEY}"\n')
    with pytest.raises(ConfigError) as caught:
        load()
    assert KEY not in str(caught.value)


def test_a_secret_prints_redacted_and_refuses_to_serialise() -> None:
    secret = Secret(KEY)
    assert repr(secret) == str(secret) == f"{secret}" == "<redacted>"
    assert KEY not in repr([secret, {"k": secret}])
    with pytest.raises(TypeError):
        pickle.dumps(secret)
    with pytest.raises(TypeError):
        json.dumps({"k": secret})
    assert copy.deepcopy(secret) is secret


def test_the_opt_in_file_holds_no_secret_and_no_document_text(tmp_path: Path) -> None:
    settings = AISettings(tmp_path / "ai.json")
    settings.enable(tmp_path / "index" / "notes", "cloud")
    data = json.loads((tmp_path / "ai.json").read_text())
    assert data == {"version": 1, "collections": {str(tmp_path / "index" / "notes"): "cloud"}}
    assert (tmp_path / "ai.json").stat().st_mode & 0o077 == 0


def test_a_missing_opt_in_file_means_all_off_without_a_warning(tmp_path: Path) -> None:
    settings = AISettings(tmp_path / "nothing.json")
    assert settings.load() == {}
    assert settings.warning is None


@pytest.mark.parametrize("content", ["{", "[]", '{"version": 1, "collections": {"a": 1}}'])
def test_a_corrupt_opt_in_file_means_all_off_with_a_warning(tmp_path: Path, content: str) -> None:
    (tmp_path / "ai.json").write_text(content)
    settings = AISettings(tmp_path / "ai.json")
    assert settings.get(tmp_path) is None
    assert settings.warning is not None


def test_the_machine_keychain_is_unreachable_from_these_tests() -> None:
    from groundkit.testing.chat import KeychainTouched

    with pytest.raises(KeychainTouched):
        KeyStore().get("cloud")  # the default backend: replaced by the autouse fixture
