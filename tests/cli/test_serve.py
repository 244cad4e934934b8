"""`grk serve` and `grk serve-mcp` as commands: binding rules, configuration, a real start."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from groundkit.cli.main import main

GRK = [sys.executable, "-m", "groundkit.cli.main"]


# 192.0.2.1 (TEST-NET-1) is on no interface here: if the check were gone, binding would fail at
# once instead of serving the machine's network during the test.
UNASSIGNED = "192.0.2.1"


def test_binding_beyond_loopback_needs_allow_remote(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["serve", "--host", UNASSIGNED, "--port", "8765"])

    assert status == 2
    assert "--allow-remote" in capsys.readouterr().err


def test_allow_remote_lifts_the_loopback_rule(tmp_path: Path) -> None:
    done = subprocess.run(
        [*GRK, "--index-dir", str(tmp_path), "serve", "--host", UNASSIGNED, "--allow-remote"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert done.returncode not in (0, 2)  # it tried to bind, and the address is not ours
    assert "--allow-remote" not in done.stderr


def test_a_secret_env_named_like_a_setting_is_a_config_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GRK_SERVE_SECRET_ENV", "GRK_MY_SECRET")

    assert main(["serve"]) == 2
    assert "GRK_" in capsys.readouterr().err


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_grk_serve_starts_on_loopback_and_answers(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "GROUNDKIT_SERVE_SECRET": "s3cret-value"}
    server = subprocess.Popen(
        [*GRK, "--index-dir", str(tmp_path / "index"), "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
                break
            except httpx.TransportError:
                assert server.poll() is None, server.stderr.read() if server.stderr else ""
                assert time.monotonic() < deadline, "grk serve did not start in 30 s"
                time.sleep(0.1)
        listed = httpx.get(f"http://127.0.0.1:{port}/v1/collections", timeout=5)
        # uvicorn's own access log would print this path: only ours, with the template, runs.
        httpx.get(f"http://127.0.0.1:{port}/v1/chunks/zzcollection/zzchunkid", timeout=5)
    finally:
        server.terminate()
        out, err = server.communicate(timeout=30)
    assert health.json() == {"status": "ok"}
    assert listed.json() == {"collections": []}
    assert out == b""
    assert b"changes enabled" in err
    assert b"path ingest off (list folders in serve.ingest_roots)" in err
    assert b"s3cret-value" not in err
    assert b"zzchunkid" not in err
    assert b"zzcollection" not in err
    assert b'"route": "/v1/chunks/{collection}/{chunk_id}"' in err
