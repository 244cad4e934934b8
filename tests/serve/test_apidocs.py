"""`/docs` is served from the package alone: every file it loads is this server's own."""

from __future__ import annotations

import hashlib
import json
import logging
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from serving import BASE_URL, HOSTS

from groundkit.serve.app import create_app
from groundkit.serve.guards import ACCESS_LOGGER
from groundkit.serve.runtime import Runtime

VENDORED = Path(__file__).parents[2] / "src" / "groundkit" / "serve" / "static" / "swagger-ui"


class _Loads(HTMLParser):
    """Every URL the page makes a browser load: scripts, stylesheets, icons, images, frames."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.inline_scripts = 0
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        for name in ("src", "href", "data", "srcset", "poster"):
            if found.get(name):
                self.urls.append(str(found[name]))
        self._in_script = tag == "script"

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline_scripts += 1


def loads(page: str) -> _Loads:
    parser = _Loads()
    parser.feed(page)
    return parser


def test_docs_is_a_page_whose_every_asset_comes_from_this_server(client: TestClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    found = loads(page.text)

    assert len(found.urls) == 4  # favicon, stylesheet, Swagger UI, its starter
    for url in found.urls:
        assert url.startswith("/"), url  # a path on this server: no scheme, no host
        assert not url.startswith("//"), url
        asset = client.get(url)
        assert asset.status_code == 200, url
        assert asset.content
    types = {url.rsplit(".", 1)[-1]: client.get(url).headers["content-type"] for url in found.urls}
    assert types["js"].startswith(("text/javascript", "application/javascript"))
    assert types["css"].startswith("text/css")


def test_the_docs_page_forbids_the_browser_any_other_origin(client: TestClient) -> None:
    page = client.get("/docs")
    policy = dict(
        part.strip().split(" ", 1) for part in page.headers["content-security-policy"].split(";")
    )

    assert policy["default-src"] == "'self'"
    assert policy["script-src"] == "'self'"  # so no inline script either
    assert policy["connect-src"] == "'self'"
    assert loads(page.text).inline_scripts == 0  # what the policy would block
    for sources in policy.values():
        assert not re.search(r"https?:|\*|//", sources), sources


def test_swagger_ui_is_started_without_the_public_validator_and_reads_our_openapi(
    client: TestClient,
) -> None:
    page = client.get("/docs").text
    starter = client.get(next(u for u in loads(page).urls if u.endswith("docs.js"))).text

    assert 'data-openapi="/openapi.json"' in page
    assert "validatorUrl: null" in starter
    assert client.get("/openapi.json").status_code == 200


def test_behind_a_proxy_prefix_every_docs_url_carries_it(runtime: Runtime) -> None:
    app = create_app(runtime, allowed_hosts=HOSTS)
    with TestClient(app, base_url=BASE_URL, root_path="/grk") as client:
        page = client.get("/docs").text

    urls = loads(page).urls
    assert len(urls) == 4
    assert all(url.startswith("/grk/docs/assets/") for url in urls)
    assert 'data-openapi="/grk/openapi.json"' in page


def test_the_vendored_swagger_ui_files_are_the_ones_recorded_with_their_licence() -> None:
    record = (VENDORED / "VENDORED.md").read_text("utf-8")
    table = dict(re.findall(r"^\| `([^`]+)` \| `([0-9a-f]{64})` \|$", record, re.MULTILINE))
    present = {p.name for p in VENDORED.iterdir()} - {"VENDORED.md"}

    assert {"LICENSE", "NOTICE", "swagger-ui-bundle.js", "swagger-ui.css"} <= set(table)
    assert present == set(table)
    for name, digest in table.items():
        assert hashlib.sha256((VENDORED / name).read_bytes()).hexdigest() == digest, name
    assert "Apache License" in (VENDORED / "LICENSE").read_text("utf-8")


def test_the_docs_requests_are_logged_by_route_not_by_file(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=ACCESS_LOGGER)
    for url in ("/docs", "/docs/assets/docs.js", "/openapi.json", "/nowhere"):
        client.get(url)

    routes = [
        json.loads(r.getMessage())["route"] for r in caplog.records if r.name == ACCESS_LOGGER
    ]

    assert routes == ["/docs", "/docs/assets", "/openapi.json", "unmatched"]
