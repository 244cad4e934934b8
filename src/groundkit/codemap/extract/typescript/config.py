"""``tsconfig.json`` / ``jsconfig.json`` and ``package.json``: what module resolution needs.

These files are claimed by the TypeScript extractor like source files, so that a change to one
(an alias added, a ``baseUrl`` moved) re-resolves exactly the files that consulted it. Their facts
keep only the fields resolution reads: an edit elsewhere in the file changes nothing downstream.
tsconfig files are JSON with comments and trailing commas (as TypeScript reads them).
"""

from __future__ import annotations

import json
import posixpath
import re
from dataclasses import dataclass, field
from typing import Any

from groundkit.codemap.extract.base import FileFacts, Unparsable

__all__ = ["Options", "is_config", "join", "merge", "parse_config"]

_TSCONFIG = re.compile(r"^(tsconfig|jsconfig)([.\w-]*)\.json$")
_PACKAGE_FIELDS = ("name", "types", "typings", "main", "module", "exports")
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


def is_config(path: str) -> bool:
    name = path.rpartition("/")[2]
    return name == "package.json" or _TSCONFIG.match(name) is not None


def parse_config(path: str, text: str) -> FileFacts:
    try:
        data = json.loads(_strip_jsonc(text))
    except (json.JSONDecodeError, RecursionError) as exc:
        line = getattr(exc, "lineno", 0)
        raise Unparsable(f"not valid JSON (line {line})") from None
    if not isinstance(data, dict):
        return FileFacts({}, {})
    if path.rpartition("/")[2] == "package.json":
        kept = {k: data[k] for k in _PACKAGE_FIELDS if k in data}
        return FileFacts(kept, {})
    options = data.get("compilerOptions")
    options = options if isinstance(options, dict) else {}
    interface = {
        "extends": data.get("extends"),
        "baseUrl": options.get("baseUrl"),
        "paths": options.get("paths"),
    }
    return FileFacts(interface, {})


def _strip_jsonc(text: str) -> str:
    """Comments out, trailing commas out; strings left exactly as they are."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            out.append(" ")
            i = n if j < 0 else j + 2
        else:
            out.append(char)
            i += 1
    return _TRAILING_COMMA.sub(r"\1", "".join(out))


def join(folder: str, rel: str) -> str | None:
    """``folder`` + ``rel`` normalised, repository-relative; None when it leaves the repository."""
    joined = posixpath.normpath(posixpath.join(folder, rel)) if folder else posixpath.normpath(rel)
    if joined == ".":
        return ""
    if joined == ".." or joined.startswith("../") or joined.startswith("/"):
        return None
    return joined


@dataclass(frozen=True, slots=True)
class Options:
    """The compiler options one file resolves with: ``baseUrl`` and ``paths`` (each relative to
    the config that declared it), and the config files consulted to get them."""

    base_url: str | None = None
    paths: tuple[tuple[str, tuple[str, ...]], ...] = ()
    paths_dir: str = ""  # where `paths` is relative to when there is no baseUrl
    consulted: tuple[str, ...] = field(default=())

    @property
    def substitution_base(self) -> str:
        return self.base_url if self.base_url is not None else self.paths_dir


def merge(base: Options, own: dict[str, Any], folder: str, consulted: tuple[str, ...]) -> Options:
    """``own`` (a config's facts, in ``folder``) over what it extends."""
    base_url = base.base_url
    if isinstance(own.get("baseUrl"), str):
        base_url = join(folder, own["baseUrl"])
    paths, paths_dir = base.paths, base.paths_dir
    if isinstance(own.get("paths"), dict):
        paths = tuple(
            (pattern, tuple(s for s in subs if isinstance(s, str)))
            for pattern, subs in own["paths"].items()
            if isinstance(pattern, str) and isinstance(subs, list)
        )
        paths_dir = folder
    return Options(base_url, paths, paths_dir, consulted)
