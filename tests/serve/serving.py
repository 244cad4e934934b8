"""Helpers the serve tests share (imported by name: tests/serve is on sys.path)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from groundkit import Settings
from groundkit.serve.app import create_app
from groundkit.serve.guards import allowed_hosts_for
from groundkit.serve.runtime import Runtime
from groundkit.serve.secret import SharedSecret

SECRET = "correct horse battery staple"
SECRET_ENV = "GROUNDKIT_SERVE_SECRET"
BASE_URL = "http://127.0.0.1:8765"
HOSTS = allowed_hosts_for("127.0.0.1", 8765)


def make_runtime(settings: Settings, *, secret: str | None = None) -> Runtime:
    return Runtime(settings, secret=SharedSecret(secret) if secret else None)


def client_for(runtime: Runtime, **kwargs: object) -> TestClient:
    app = create_app(runtime, allowed_hosts=HOSTS)
    return TestClient(app, base_url=BASE_URL, **kwargs)  # type: ignore[arg-type]
