"""Language extractors behind one seam (``base.Extractor``), and the one list of the languages the
map reads: ``LANGUAGES``.

A language is registered once, here: its name, how to make its extractor (imported only when a
map is built, so that importing the seam does not import every language), and whether a map can
be built without it. ``api.default_extractors`` and everything else that maps read this list.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from groundkit.codemap.extract.base import Extractor

__all__ = ["LANGUAGES", "Language", "extractors"]


@dataclass(frozen=True, slots=True)
class Language:
    name: str  # the extractor's ``language``
    make: Callable[[], Extractor]
    # The optional-dependency check: for an optional language, an ImportError while making its
    # extractor (its package, or what that imports, is not installed) leaves the language out
    # instead of failing every map.
    optional: bool = False

    def extractor(self) -> Extractor | None:
        """The language's extractor; None when it is optional and cannot be imported."""
        try:
            return self.make()
        except ImportError:
            if not self.optional:
                raise
            return None


def _python() -> Extractor:
    from groundkit.codemap.extract.python import PythonExtractor

    return PythonExtractor()


def _typescript() -> Extractor:
    # tree-sitter itself is imported when the first TypeScript file is parsed, not here: without
    # the ``codemap`` extra, those files are skipped with the install hint, not silently unmapped.
    from groundkit.codemap.extract.typescript import TypeScriptExtractor

    return TypeScriptExtractor()


LANGUAGES: tuple[Language, ...] = (
    Language("python", _python),
    Language("typescript", _typescript, optional=True),
)


def extractors() -> list[Extractor]:
    """An extractor for each registered language that is present, in the order listed."""
    return [made for language in LANGUAGES if (made := language.extractor()) is not None]
