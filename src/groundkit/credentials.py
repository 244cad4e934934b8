"""Keys (a language-model provider's, a Qdrant cluster's): from the OS keychain through
``keyring``, or from a named environment variable.

A key is never read from a config file. The keychain holds one entry per profile under the
service ``groundkit``. Missing, locked or denied, and keychain unavailable are distinct outcomes
(``auth.missing``, ``auth.denied``, ``auth.keychain_unavailable``). Callers may pass a keyring
backend instance; tests always do, so the machine's keychain is never touched.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

from groundkit.errors import AuthError, ErrorCode, missing_extra
from groundkit.secret import Secret

__all__ = ["SERVICE", "KeyStore", "read_key"]

SERVICE = "groundkit"
_HEADER_SAFE = re.compile(r"[\x21-\x7e]+")


class KeyStore:
    """The keychain entries of groundkit, one per profile name."""

    def __init__(self, backend: Any | None = None) -> None:
        self._backend = backend

    def _keyring(self) -> Any:
        if self._backend is not None:
            return self._backend
        try:
            import keyring
            from keyring.backends import fail
        except ImportError:
            raise missing_extra("keyring", "ai") from None
        backend = keyring.get_keyring()
        if isinstance(backend, fail.Keyring):
            raise _unavailable()
        return backend

    def get(self, profile: str) -> Secret:
        """The stored key. Raises ``AuthError`` with one of the three auth codes."""
        value = self._call("get_password", profile)
        if not value:
            raise AuthError(
                ErrorCode.AUTH_MISSING,
                f"no key is stored for profile {profile!r}",
                hint=f"store one with `grk auth set {profile}`",
            )
        return _checked(value, f"the keychain entry of {profile!r}")

    def set(self, profile: str, key: str) -> None:
        _checked(key, "the key given")
        self._call("set_password", profile, key)

    def delete(self, profile: str) -> bool:
        """Remove the entry; False when there was none."""
        try:
            self._call("delete_password", profile)
        except AuthError as exc:
            if exc.code == ErrorCode.AUTH_MISSING:
                return False
            raise
        return True

    def status(self, profile: str) -> str:
        """``stored``, ``missing``, ``denied`` or ``unavailable``; never the key."""
        try:
            self.get(profile)
        except AuthError as exc:
            return {
                ErrorCode.AUTH_MISSING: "missing",
                ErrorCode.AUTH_DENIED: "denied",
            }.get(exc.code, "unavailable")
        return "stored"

    def _call(self, method: str, profile: str, *args: str) -> Any:
        backend = self._keyring()
        try:
            from keyring import errors
        except ImportError:
            raise missing_extra("keyring", "ai") from None
        try:
            return getattr(backend, method)(SERVICE, profile, *args)
        except errors.PasswordDeleteError:
            raise AuthError(
                ErrorCode.AUTH_MISSING, f"no key is stored for profile {profile!r}"
            ) from None
        except errors.KeyringLocked:
            raise AuthError(
                ErrorCode.AUTH_DENIED,
                "the keychain is locked or access to it was denied",
                hint="unlock the keychain (or allow groundkit), then run the command again",
            ) from None
        except (errors.NoKeyringError, errors.InitError):
            raise _unavailable() from None
        except errors.KeyringError as exc:
            raise AuthError(
                ErrorCode.AUTH_DENIED,
                f"the keychain refused the request ({type(exc).__name__})",
                hint="check the keychain's permissions for groundkit",
            ) from None
        except Exception as exc:  # backends raise their own too (D-Bus, Secret Service)
            raise _unavailable(type(exc).__name__) from None


def read_key(
    profile: str,
    api_key_env: str | None,
    store: KeyStore,
    environ: Mapping[str, str] | None = None,
) -> Secret:
    """The key for ``profile``: from ``$api_key_env`` when that is configured, else the keychain."""
    if api_key_env:
        value = (os.environ if environ is None else environ).get(api_key_env, "").strip()
        if not value:
            raise AuthError(
                ErrorCode.AUTH_MISSING,
                f"the environment variable {api_key_env} (named by profile {profile!r}) is not"
                " set or empty",
                hint=f"export {api_key_env}, or remove api_key_env to use the keychain",
            )
        return _checked(value, f"the variable {api_key_env}")
    return store.get(profile)


def _checked(value: str, what: str) -> Secret:
    value = value.strip()
    if not _HEADER_SAFE.fullmatch(value):
        raise AuthError(
            ErrorCode.AUTH_MISSING,
            f"{what} is empty or has characters an HTTP header cannot carry",
            hint="store the key again: no spaces or line breaks inside it",
        )
    return Secret(value)


def _unavailable(failure: str | None = None) -> AuthError:
    # Only the exception's type is named: a backend's message could carry anything.
    why = f" (it failed with {failure})" if failure else ""
    return AuthError(
        ErrorCode.AUTH_KEYCHAIN_UNAVAILABLE,
        f"no OS keychain is available{why}",
        hint="name an environment variable holding the key in the profile's api_key_env",
    )
