"""The solve hands the C allocator's free pages back to the system between its rounds."""

from __future__ import annotations

import platform

import pytest

from groundkit.codemap.extract.python.values import release
from groundkit.codemap.extract.python.values.release import release_free_memory


def test_free_memory_is_handed_back_where_the_c_library_is_glibc() -> None:
    big = [set(range(n, n + 100)) for n in range(2_000)]  # (tables above 512 bytes: malloc's)
    del big

    assert release_free_memory() is (platform.libc_ver()[0] == "glibc")


def test_free_memory_is_not_asked_of_a_c_library_without_malloc_trim(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(release, "_trim", lambda: None)

    assert release_free_memory() is False
