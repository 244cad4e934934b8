"""Shared fixtures: every test runs in its own empty working directory with no GRK_* settings."""

from __future__ import annotations

import ipaddress
import os
import socket
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

# The contract suites shipped in groundkit.testing: their asserts explain a failure as a test's do.
pytest.register_assert_rewrite("groundkit.testing.map_graph", "groundkit.testing.backends")

import groundkit  # noqa: E402
from chromium import NO_BROWSER, missing_browser  # noqa: E402
from groundkit import Collection, Settings  # noqa: E402
from small_disk import Disk, disk_params  # noqa: E402

OpenCollection = Callable[..., Collection]


@pytest.fixture(autouse=True)
def hermetic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI reads ./grk.toml and GRK_* variables: neither may leak in from the machine."""
    monkeypatch.chdir(tmp_path)
    for name in list(os.environ):
        if name.startswith(("GRK_", "_GRK_")):
            monkeypatch.delenv(name)


_real_connect = socket.socket.connect


def _loopback_only(sock: socket.socket, address: object) -> None:
    """Tests may talk to servers they start on loopback, and to nothing else."""
    inet = sock.family in (socket.AF_INET, socket.AF_INET6) and isinstance(address, tuple)
    if inet and not ipaddress.ip_address(str(address[0]).split("%")[0]).is_loopback:
        raise AssertionError(f"a test tried to reach {address[0]}: tests never use the network")
    _real_connect(sock, address)  # type: ignore[arg-type]


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket.socket, "connect", _loopback_only)


@pytest.fixture(params=disk_params())
def disk(request: pytest.FixtureRequest) -> Disk:
    """A small disk of its own for a full-disk test, over each layer that can run here
    (tests/small_disk.py)."""
    return Disk.ready(request.param)


@pytest.fixture
def index_dir(tmp_path: Path) -> Path:
    return tmp_path / "index"


@pytest.fixture
def open_col(index_dir: Path) -> Iterator[OpenCollection]:
    """Open the test collection (optionally with settings); everything opened is closed after."""
    opened: list[Collection] = []

    def factory(settings: Settings | None = None, name: str = "test") -> Collection:
        collection = groundkit.open_collection(name, index_dir=index_dir, settings=settings)
        opened.append(collection)
        return collection

    yield factory
    for collection in opened:
        collection.close()


_HELPER_MARK = "GROUNDKIT_TEST_HELPERS_OF"


@pytest.fixture
def helper_processes(monkeypatch: pytest.MonkeyPatch) -> Callable[[], list[int]]:
    """Lists the helper processes (``pipeline.helpers``) of this test's ingests still running.

    Only this test's: other ingests may run on the machine at the same time (another test run,
    a benchmark), so helpers are told apart by a marker in the environment they inherit."""
    marker = f"{_HELPER_MARK}={uuid.uuid4().hex}".encode()
    monkeypatch.setenv(_HELPER_MARK, marker.split(b"=", 1)[1].decode())

    def running() -> list[int]:
        found = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    command = (entry / "cmdline").read_bytes()
                    if b"groundkit.pipeline.helper\0" not in command + b"\0":
                        continue
                    environment = (entry / "environ").read_bytes().split(b"\0")
                except OSError:
                    continue
                if marker in environment:
                    found.append(int(entry.name))
        return found

    return running


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        NO_BROWSER,
        action="store_true",
        help="skip the web UI's browser tests on purpose (they need Debian's chromium)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With ``-n`` (pytest-xdist, ``--dist loadgroup``), a module's tests run in one worker, so
    its module fixtures are made once; the web UI's tests share session fixtures (one site, one
    server, a fake model whose replies come in order) and run in one worker together.

    ``--no-browser`` skips the browser tests on purpose; without it, on a machine without the
    browser, they fail saying why (``chromium.py``, the ``browser`` fixture of ``ui/``)."""
    for item in items:
        path = item.path.relative_to(Path(__file__).parent).as_posix()
        group = "ui" if path.startswith("ui/") else path
        item.add_marker(pytest.mark.xdist_group(group))
    in_browser = [item for item in items if "browser" in getattr(item, "fixturenames", ())]
    if config.getoption(NO_BROWSER):
        skip = pytest.mark.skip(reason=f"{NO_BROWSER}: the browser tests are skipped on purpose")
        for item in in_browser:
            item.add_marker(skip)
        return


def pytest_report_header(config: pytest.Config) -> str | None:
    """Said before any test runs (the browser tests themselves fail only when they start)."""
    problem = missing_browser(2)
    if config.getoption(NO_BROWSER) or problem is None:
        return None
    return f"browser tests will fail: {problem}"
