"""A Qdrant cluster's failures are ordinary errors of errors.OUTCOMES: exit 1 when retrying may
help, 2 when the set-up must change; never a traceback, never a payload or key, in what grk
prints or in any log."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from grk_runner import Grk
from groundkit.testing.qdrant_server import FakeQdrantServer, Fault

KEY = "qdrant-key-0123456789abcdef"
SECRET_TEXT = "PAYLOAD-MARKER-5b1e"  # in a document and in the server's error bodies


@pytest.fixture
def server() -> Iterator[FakeQdrantServer]:
    with FakeQdrantServer(api_key=KEY) as running:
        yield running


@pytest.fixture
def grk(
    tmp_path: Path,
    server: FakeQdrantServer,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> Grk:
    (tmp_path / "grk.toml").write_text(
        f'[collections.default]\nbackend = "qdrant"\nurl = "{server.url}"\n'
        'api_key_env = "TEST_QDRANT_KEY"\ntimeout_s = 1\n'
    )
    monkeypatch.setenv("TEST_QDRANT_KEY", KEY)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text(f"# A\n\nThe basalt quarry note holds {SECRET_TEXT}.\n")
    runner = Grk(tmp_path / "index", capsys)
    assert runner("ingest", "--quiet", str(docs)) == 0, runner.err
    return runner


def _clean(grk: Grk, caplog: pytest.LogCaptureFixture) -> None:
    for text in (grk.out, grk.err, caplog.text):
        assert KEY not in text
        assert SECRET_TEXT not in text
        assert "Traceback" not in text


@pytest.mark.parametrize(
    ("fault", "code", "status"),
    [
        (Fault(status=429), "backend.rate_limited", 1),
        (
            Fault(status=500, body=f'{{"status": {{"error": "{SECRET_TEXT}"}}}}'),
            "backend.failed",
            1,
        ),
        (Fault(status=503), "backend.failed", 1),
        (Fault(delay_s=1.6), "backend.timeout", 1),
        (Fault(drop=True), "backend.unreachable", 1),
        (
            Fault(status=403, body=f'{{"status": {{"error": "{SECRET_TEXT}"}}}}'),
            "backend.auth_refused",
            2,
        ),
        (
            Fault(status=403, body='{"status": {"error": "Strict mode: max points exceeded"}}'),
            "backend.quota_exceeded",
            2,
        ),
        (Fault(status=413), "backend.quota_exceeded", 2),
    ],
)
def test_a_cluster_failure_is_an_error_with_its_exit_status_and_nothing_leaks(
    grk: Grk,
    server: FakeQdrantServer,
    caplog: pytest.LogCaptureFixture,
    fault: Fault,
    code: str,
    status: int,
) -> None:
    caplog.set_level(logging.DEBUG)
    server.fail(fault)
    assert grk.error("search", "basalt quarry") == (status, code)
    _clean(grk, caplog)
    assert grk("search", "basalt quarry") == status  # as text too: one line, no internals
    assert grk.err.count("\n") <= 2
    _clean(grk, caplog)


def test_a_refused_key_is_set_up_to_change(
    grk: Grk, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv("TEST_QDRANT_KEY", "not-the-key-at-all")
    assert grk.error("search", "basalt") == (2, "backend.auth_refused")
    monkeypatch.delenv("TEST_QDRANT_KEY")
    assert grk.error("status") == (2, "auth.missing")
    _clean(grk, caplog)


def test_an_unreachable_cluster_may_come_back(
    tmp_path: Path, grk: Grk, server: FakeQdrantServer
) -> None:
    url = server.url
    server.stop()
    assert grk.error("search", "basalt") == (1, "backend.unreachable")
    assert url in (tmp_path / "grk.toml").read_text()


def test_a_write_refused_midway_ends_the_ingest_and_shows_nothing_of_it(
    tmp_path: Path, grk: Grk, server: FakeQdrantServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    (tmp_path / "docs" / "a.md").write_text(f"# A\n\nNow a granite tor, {SECRET_TEXT}.\n")
    server.fail(Fault(status=429, paths=("/points?",)))
    assert grk.error("ingest", str(tmp_path / "docs")) == (1, "backend.rate_limited")
    _clean(grk, caplog)
    server.faults.clear()
    found = grk.json("search", "basalt quarry", "--mode", "bm25")
    assert [h["source"] for h in found["hits"]] == ["a.md"]  # the version before
    assert grk.json("search", "granite tor", "--mode", "bm25")["hits"] == []


def test_a_collection_groundkit_did_not_make_is_refused(
    tmp_path: Path, server: FakeQdrantServer, capsys: pytest.CaptureFixture[str]
) -> None:
    from qdrant_client import models

    server.client.create_collection(
        "theirs", vectors_config={"v": models.VectorParams(size=4, distance=models.Distance.DOT)}
    )
    server.client.upsert("theirs", [models.PointStruct(id=1, vector={"v": [1, 0, 0, 0]})])
    (tmp_path / "grk.toml").write_text(
        f'[collections.theirs]\nbackend = "qdrant"\nurl = "{server.url}"\n'
        'api_key_env = "TEST_QDRANT_KEY"\n'
    )
    grk = Grk(tmp_path / "index", capsys)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TEST_QDRANT_KEY", KEY)
        assert grk.error("-c", "theirs", "status") == (2, "backend.schema_mismatch")
        assert grk.error("-c", "theirs", "delete", "--all", "--yes") == (
            2,
            "backend.schema_mismatch",
        )
    assert server.client.collection_exists("theirs")


def test_a_key_goes_only_over_https_or_to_this_machine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "grk.toml").write_text(
        '[collections.far]\nbackend = "qdrant"\nurl = "http://qdrant.example:6333"\n'
        'api_key_env = "TEST_QDRANT_KEY"\n'
    )
    monkeypatch.setenv("TEST_QDRANT_KEY", KEY)
    grk = Grk(tmp_path / "index", capsys)
    assert grk.error("-c", "far", "status") == (2, "config.invalid_value")
    assert KEY not in grk.out + grk.err


def test_a_key_in_grk_toml_is_refused_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "grk.toml").write_text(
        f'[collections.far]\nbackend = "qdrant"\nurl = "https://q.example"\napi_key = "{KEY}"\n'
    )
    grk = Grk(tmp_path / "index", capsys)
    assert grk.error("collections") == (2, "config.invalid_value")
    assert KEY not in grk.out + grk.err
    assert "grk auth set qdrant:far" in grk.out
