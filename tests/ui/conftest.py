"""Fixtures for the web UI: the fixture site, in-process clients, real `grk serve` processes and a
real browser (Debian's chromium driven by Playwright; never a downloaded one)."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser_helpers import RECORDER
from fastapi.testclient import TestClient
from ui_site import BAD_REPLY, GOOD_REPLY, MAP_GOOD_REPLY, SECRET, SECRET_ENV, Site, make_site

from chromium import CHROMIUM, missing_browser
from groundkit.config import parse_settings
from groundkit.serve.app import create_app
from groundkit.serve.guards import allowed_hosts_for
from groundkit.serve.runtime import Runtime
from groundkit.serve.secret import SharedSecret
from groundkit.testing.chat import ForbiddenKeyring
from groundkit.testing.chat_server import FakeChatServer

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
BASE_URL = "http://127.0.0.1:8765"
SCREENSHOTS = Path(__file__).parent / "screenshots"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


# -- the site ------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def chat() -> Iterator[FakeChatServer]:
    """The local model `grk serve` asks (profile ``box``): a good answer, then a bad one."""
    with FakeChatServer([GOOD_REPLY, BAD_REPLY]) as server:
        yield server


@pytest.fixture(scope="session")
def map_chat() -> Iterator[FakeChatServer]:
    """The local model the code map's ask box asks (profile ``coder``): a good answer."""
    with FakeChatServer([MAP_GOOD_REPLY]) as server:
        yield server


@pytest.fixture(scope="session")
def site(
    tmp_path_factory: pytest.TempPathFactory, chat: FakeChatServer, map_chat: FakeChatServer
) -> Site:
    return make_site(tmp_path_factory.mktemp("site"), chat.url, map_chat.url)


def settings_for(site: Site, **serve: Any) -> Any:
    return parse_settings(
        {
            "index_dir": str(site.index_dir),
            "profiles": {
                name: {
                    "provider": "openai_compatible",
                    "base_url": "http://127.0.0.1:9/v1",
                    "model": "fake",
                    "local": True,
                }
                for name in ("box", "coder")
            },
            "serve": serve,
        }
    )


def client_for(runtime: Runtime, **kwargs: Any) -> TestClient:
    app = create_app(runtime, allowed_hosts=allowed_hosts_for("127.0.0.1", 8765))
    return TestClient(app, base_url=BASE_URL, **kwargs)


@pytest.fixture(autouse=True)
def user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads the machine's AI opt-ins or touches its keychain."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr("keyring.core._keyring_backend", ForbiddenKeyring())


@pytest.fixture
def client(site: Site, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """The site served in process, read-only (no secret), with the site's AI opt-ins, from the
    site's folder (where its eval runs are)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(site.xdg))
    monkeypatch.chdir(site.root)
    runtime = Runtime(settings_for(site))
    with client_for(runtime) as c:
        yield c
    runtime.close()


@pytest.fixture
def own_site(tmp_path: Path) -> Site:
    """A site of the test's own, for tests that change it (the chat URL is never called)."""
    return make_site(tmp_path / "own", "http://127.0.0.1:9")


@pytest.fixture
def admin(own_site: Site, tmp_path: Path) -> Iterator[TestClient]:
    """``own_site`` served in process with the shared secret; clients may ingest its folders."""
    runtime = Runtime(
        settings_for(own_site, ingest_roots=[str(tmp_path)]), secret=SharedSecret(SECRET)
    )
    with client_for(runtime) as c:
        yield c
    runtime.close()


# -- real servers --------------------------------------------------------------------------------


@dataclass
class Served:
    base: str
    process: subprocess.Popen[bytes]
    log: Path


def start_grk_serve(site: Site, log: Path, *, secret: str | None = None) -> Served:
    """`grk serve` in the site's folder on a free loopback port, as a person would start it."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRK_", SECRET_ENV))}
    env["XDG_CONFIG_HOME"] = str(site.xdg)  # the opt-in file lives in the site
    if secret is not None:
        env[SECRET_ENV] = secret
    command = [
        *(sys.executable, "-m", "groundkit.cli.main", "--index-dir", str(site.index_dir)),
        *("--config", str(site.config), "serve", "--port", str(port)),
    ]
    with log.open("wb") as out:
        process = subprocess.Popen(command, cwd=site.root, env=env, stdout=out, stderr=out)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"grk serve exited: {log.read_text(errors='replace')[-2000:]}")
        try:
            if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                return Served(base, process, log)
        except httpx.TransportError:
            pass
        time.sleep(0.1)  # a bounded wait for a process to start listening
    process.kill()
    raise RuntimeError("grk serve did not start within 60 s")


def stop(served: Served) -> None:
    served.process.terminate()
    try:
        served.process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        served.process.kill()
        served.process.wait(timeout=15)


@pytest.fixture(scope="session")
def server(site: Site, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """`grk serve` over the site, read-only (no secret in its environment)."""
    served = start_grk_serve(site, tmp_path_factory.mktemp("logs") / "serve.log")
    yield served
    stop(served)


@pytest.fixture(scope="session")
def writable_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, Site]]:
    """`grk serve` with the shared secret, over a site of its own (its tests delete things)."""
    root = tmp_path_factory.mktemp("writable")
    own = make_site(root / "site", "http://127.0.0.1:9")
    with own.config.open("a", encoding="utf-8") as toml:
        toml.write(f'\n[serve]\ningest_roots = ["{root}"]\n')
    served = start_grk_serve(own, root / "serve.log", secret=SECRET)
    yield served, own
    stop(served)


# -- the browser ---------------------------------------------------------------------------------


# Module scope: Playwright's sync API keeps an asyncio loop running in this thread while it is
# open, and any later test that runs a loop of its own (a TestClient, anyio) would fail.
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    problem = missing_browser(2)
    if problem is not None:
        pytest.fail(problem)  # never a skip: a whole family left out unseen (tests/chromium.py)
    from playwright.sync_api import sync_playwright  # in the dev extra: missing is an error

    with sync_playwright() as playwright:
        # launch() gives every run a fresh, empty profile (user-data dir) of its own.
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class Tab:
    """One page in a fresh context that records what a person would not see: console errors,
    script errors, and every request the page made (each must stay on the server's origin)."""

    def __init__(self, context: Any, base: str, scheme: str, width: int, record: bool) -> None:
        self.context = context
        self.base = base
        self.scheme = scheme
        self.width = width
        if record:
            context.add_init_script(RECORDER)
        self.page = context.new_page()
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        self.page.on("request", lambda request: self.requests.append(request.url))

    def _console(self, message: Any) -> None:
        if message.type in ("error", "warning"):
            where = message.location
            place = f"{where.get('url', '')}:{where.get('lineNumber', '')}" if where else ""
            self.errors.append(f"console {message.type} at {place}: {message.text}")

    def go(self, path: str) -> Any:
        response = self.page.goto(self.base + path)
        self.page.wait_for_load_state("load")
        return response

    def allow(self, pattern: str) -> None:
        """Errors the test itself provoked (a refused form logs its 403 in the console)."""
        self.errors = [e for e in self.errors if not re.search(pattern, e)]

    def shot(self, name: str) -> Path:
        path = SCREENSHOTS / f"{name}-{self.scheme}-{self.width}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(path), full_page=True)
        return path

    def foreign_requests(self) -> list[str]:
        return [u for u in self.requests if u != self.base and not u.startswith(self.base + "/")]


@pytest.fixture
def open_tab(browser: Any) -> Iterator[Callable[..., Tab]]:
    """Open a tab on a server; at the end every tab must have had no console or script error
    and made no request off the server's origin."""
    tabs: list[Tab] = []

    def opener(
        base: str,
        *,
        scheme: str = "light",
        width: int = 1280,
        height: int = 900,
        record: bool = True,
    ) -> Tab:
        context = browser.new_context(
            viewport={"width": width, "height": height}, color_scheme=scheme
        )
        tab = Tab(context, base, scheme, width, record)
        tabs.append(tab)
        return tab

    yield opener
    for tab in tabs:
        tab.context.close()
    problems = [e for t in tabs for e in t.errors]
    foreign = [u for t in tabs for u in t.foreign_requests()]
    assert problems == [], problems
    assert foreign == [], foreign


@pytest.fixture(scope="session", autouse=True)
def fresh_screenshots() -> None:
    """Screenshots of each page, light and dark, go to tests/ui/screenshots/ (git-ignored)."""
    shutil.rmtree(SCREENSHOTS, ignore_errors=True)
