"""Pages from the web: which inputs are URLs, fetching one through the guarded client, and
turning what the server sent into bytes a loader reads."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from groundkit.config import IngestConfig
from groundkit.errors import GroundkitError
from groundkit.ingest.formats import Format, format_for
from groundkit.ingest.loaders import Rejected
from groundkit.net import FetchPolicy, fetch_url

__all__ = ["Inputs", "as_utf8", "fetch_page", "split_inputs"]

# "name:" followed by "//": how a URL is told from a path. A Windows drive ("C:\\") and a plain
# path with a colon in a name ("notes:v2.md") have no "//" after the colon.
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
_FETCHED = frozenset({"http", "https"})

_MEDIA: dict[str, Format] = {
    "text/html": "html",
    "application/xhtml+xml": "html",
    "application/pdf": "pdf",
    "text/markdown": "markdown",
    "text/x-markdown": "markdown",
    "text/x-rst": "rst",
    "text/plain": "text",
}


@dataclass(frozen=True, slots=True)
class Inputs:
    """What a user named, sorted: local paths, URLs to fetch, and URLs of other schemes."""

    paths: tuple[str, ...]
    urls: tuple[str, ...]
    unsupported: tuple[tuple[str, str], ...]  # (input, scheme)


def split_inputs(inputs: Sequence[str]) -> Inputs:
    """Tell URLs from paths. ``HTTP://`` is http; ``file://``, ``ftp://`` and the like are
    refused by name rather than looked for on disk."""
    paths: list[str] = []
    urls: list[str] = []
    unsupported: list[tuple[str, str]] = []
    for item in inputs:
        found = _SCHEME.match(item)
        if found is None:
            paths.append(item)
            continue
        scheme = found.group(1).lower()
        if scheme in _FETCHED:
            urls.append(scheme + item[len(found.group(1)) :])
        else:
            unsupported.append((item, scheme))
    return Inputs(tuple(paths), tuple(urls), tuple(unsupported))


def fetch_page(url: str, config: IngestConfig) -> tuple[bytes, Format]:
    """The page's bytes (UTF-8 for text formats) and its format, or ``Rejected`` with why."""
    policy = FetchPolicy(max_bytes=config.url_max_bytes, timeout_s=config.url_timeout_s)
    try:
        got = fetch_url(url, policy)
    except GroundkitError as exc:
        raise Rejected(f"{exc.code}: {exc.message}") from None
    fmt = _url_format(got.media_type, got.final_url)
    if fmt is None:
        raise Rejected(f"unsupported content type {got.media_type or 'unknown'!r}")
    return as_utf8(got.body, got.charset, fmt), fmt


def as_utf8(body: bytes, charset: str | None, fmt: Format) -> bytes:
    """Text loaders read UTF-8; a server that names another charset is taken at its word.

    HTML is left alone: its extraction reads the page's own declaration.
    """
    if fmt not in ("text", "markdown", "rst", "code") or charset in (None, "utf-8", "utf8"):
        return body
    try:
        return body.decode(charset).encode("utf-8")
    except (LookupError, UnicodeDecodeError):
        raise Rejected(f"not valid {charset} as the server declared") from None


def _url_format(media_type: str, final_url: str) -> Format | None:
    if media_type in _MEDIA:
        return _MEDIA[media_type]
    path = final_url.split("?", 1)[0].split("#", 1)[0]
    return format_for(path, explicit=False)
