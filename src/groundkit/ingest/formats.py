"""Which loader handles a file, decided by its name."""

from __future__ import annotations

from pathlib import PurePath
from typing import Literal

__all__ = ["Format", "format_for"]

Format = Literal["markdown", "text", "rst", "code", "html", "pdf", "records"]

_BY_SUFFIX: dict[str, Format] = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".mdx": "markdown",
    ".txt": "text",
    ".text": "text",
    ".rst": "rst",
    ".adoc": "text",
    ".html": "html",
    ".htm": "html",
    ".xhtml": "html",
    ".pdf": "pdf",
    ".jsonl": "records",
    ".ndjson": "records",
}
_CODE_SUFFIXES = frozenset(
    ".py .pyi .js .mjs .cjs .ts .tsx .jsx .go .rs .java .kt .kts .scala .c .h .cc .cpp .cxx .hpp"
    " .cs .rb .php .swift .m .sh .bash .zsh .sql .toml .yaml .yml .json .ini .cfg .css .scss"
    " .vue .svelte .lua .r .jl .ex .exs .erl .hs .ml .clj .dart .zig .nim .proto .tf".split()
)
_TEXT_NAMES = frozenset(
    "readme license licence copying changelog authors contributing notice makefile dockerfile"
    " gemfile rakefile procfile".split()
)


def format_for(path: str | PurePath, *, explicit: bool) -> Format | None:
    """The format of a file, or None when a directory walk should pass over it.

    A file named explicitly is always tried, as text when its name says nothing; inside a
    directory walk only names groundkit knows are read, so that images and archives are not
    reported as failures.
    """
    p = PurePath(path)
    suffix = p.suffix.lower()
    if suffix in _BY_SUFFIX:
        return _BY_SUFFIX[suffix]
    if suffix in _CODE_SUFFIXES:
        return "code"
    # Only a bare name: "changelog.gz" is a compressed changelog, not text.
    if not suffix and p.name.lower() in _TEXT_NAMES:
        return "text"
    return "text" if explicit else None
