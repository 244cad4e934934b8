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

from groundkit.codemap.extract.base import FileFacts, Unparsable
from groundkit.codemap.extract.typescript.parse.facts import Package, TsConfig

__all__ = ["Options", "is_config", "join", "merge", "parse_config"]

_TSCONFIG = re.compile(r"^(tsconfig|jsconfig)([.\w-]*)\.json$")
_PACKAGE_ENTRIES = ("types", "typings", "module", "main")
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


def is_config(path: str) -> bool:
    name = path.rpartition("/")[2]
    return name == "package.json" or _TSCONFIG.match(name) is not None


def parse_config(path: str, text: str) -> FileFacts:
    """A configuration file's facts: ``TsConfig`` or ``Package`` (no body). Fields of the
    wrong type are left out, as TypeScript ignores them."""
    try:
        data = json.loads(_strip_jsonc(text))
    except (json.JSONDecodeError, RecursionError) as exc:
        line = getattr(exc, "lineno", 0)
        raise Unparsable(f"not valid JSON (line {line})") from None
    data = data if isinstance(data, dict) else {}
    if path.rpartition("/")[2] == "package.json":
        name = data.get("name")
        entries = {k: data[k] for k in _PACKAGE_ENTRIES if isinstance(data.get(k), str)}
        exports = _exports(data.get("exports"))
        imports = _imports(data.get("imports"))
        package = Package(name if isinstance(name, str) else None, entries, exports, imports)
        return FileFacts(package, None)
    return FileFacts(_tsconfig(data), None)


def _exports(value: object) -> dict[str, list[str]]:
    """``exports`` as subpath -> targets: ``"./x.js"`` and a map of conditions are the
    package's ``"."``; keys that start with a dot are subpaths."""
    if isinstance(value, dict) and any(isinstance(k, str) and k.startswith(".") for k in value):
        return {
            k: _targets(v) for k, v in value.items() if isinstance(k, str) and k.startswith(".")
        }
    targets = _targets(value)
    return {".": targets} if targets else {}


def _imports(value: object) -> dict[str, list[str]]:
    """``imports`` as specifier -> targets: keys start with ``#``; a target that names a
    package instead of a file of this one is left out (the specifier is then the package's)."""
    if not isinstance(value, dict):
        return {}
    return {k: _targets(v) for k, v in value.items() if isinstance(k, str) and k.startswith("#")}


def _targets(value: object, depth: int = 0) -> list[str]:
    """Every target of a subpath, conditions (``types``, ``import``, ``require``, ``node``,
    ``default``, nested) and fallback arrays flattened in the order written: resolution takes
    the first that is a file of the repository (a built ``dist/`` one usually is not)."""
    if isinstance(value, str):
        return [value] if value.startswith("./") else []
    if depth > 8:  # nesting deeper than any real package's: read no further
        return []
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    return [t for item in items for t in _targets(item, depth + 1)]


def _tsconfig(data: dict[str, object]) -> TsConfig:
    options = data.get("compilerOptions")
    options = options if isinstance(options, dict) else {}
    extends = data.get("extends")
    parents = (
        [extends] if isinstance(extends, str) else extends if isinstance(extends, list) else []
    )
    base_url = options.get("baseUrl")
    paths = options.get("paths")
    return TsConfig(
        [p for p in parents if isinstance(p, str)],
        base_url if isinstance(base_url, str) else None,
        {
            pattern: [s for s in subs if isinstance(s, str)]
            for pattern, subs in paths.items()
            if isinstance(pattern, str) and isinstance(subs, list)
        }
        if isinstance(paths, dict)
        else None,
    )


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


def merge(base: Options, own: TsConfig, folder: str, consulted: tuple[str, ...]) -> Options:
    """``own`` (a config's facts, in ``folder``) over what it extends."""
    base_url = base.base_url
    if own.base_url is not None:
        base_url = join(folder, own.base_url)
    paths, paths_dir = base.paths, base.paths_dir
    if own.paths is not None:
        paths = tuple((pattern, tuple(subs)) for pattern, subs in own.paths.items())
        paths_dir = folder
    return Options(base_url, paths, paths_dir, consulted)
