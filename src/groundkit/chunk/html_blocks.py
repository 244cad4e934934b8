"""Raw HTML blocks and front matter, as CommonMark and static-site generators define them, so
that a ``#`` line inside a comment, a ``<div>`` or YAML front matter is no heading.

An HTML block starts on a line that begins (after at most three spaces) with one of seven kinds
of opening (CommonMark 0.31.2, section 4.6). Kinds 1 to 5 (``<script``/``<pre``/``<style``/
``<textarea``, a comment, a processing instruction, a declaration, CDATA) run to the line that
holds their closing sequence, blank lines included; kinds 6 (a known block tag) and 7 (any
complete tag alone on its line) run to the next blank line, and kind 7 cannot interrupt a
paragraph. Front matter is a first line of ``---`` (YAML, closed by ``---`` or ``...``) or
``+++`` (TOML), up to its closing line; left open, it is no front matter.

tests/chunk/test_html_blocks.py holds these rules to markdown-it-py's parser on generated
documents; its block parse is about 13 times slower than the chunker's line scan, so it is the
reference in tests rather than the parser at ingest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["BLOCK_TAGS", "HtmlBlock", "front_matter_end", "html_block_start"]

# CommonMark's block tag names (kind 6).
BLOCK_TAGS = frozenset(
    "address article aside base basefont blockquote body caption center col colgroup dd details"
    " dialog dir div dl dt fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5"
    " h6 head header hr html iframe legend li link main menu menuitem nav noframes ol optgroup"
    " option p param search section summary table tbody td tfoot th thead title tr track ul".split()
)

_RAW = re.compile(r"<(script|pre|style|textarea)(?=[ \t>]|$)", re.IGNORECASE)
_RAW_END = re.compile(r"</(?:script|pre|style|textarea)>", re.IGNORECASE)
_CLOSED_BY = (("<!--", "-->"), ("<?", "?>"), ("<![CDATA[", "]]>"))
_DECLARATION = re.compile(r"<![A-Za-z]")
_TAG = re.compile(r"</?([A-Za-z][A-Za-z0-9-]*+)(?=[ \t>]|/>|$)")
# A complete open or closing tag, then nothing but blanks (kind 7). Possessive: no backtracking
# on a long line of attributes.
_VALUE = r"""(?:[^"'=<>`\x00-\x20]++|'[^']*+'|"[^"]*+")"""
_ATTRIBUTE = rf"(?:[ \t]++[A-Za-z_:][A-Za-z0-9_.:-]*+(?:[ \t]*+=[ \t]*+{_VALUE})?+)"
_WHOLE_TAG = re.compile(
    rf"(?:<[A-Za-z][A-Za-z0-9-]*+{_ATTRIBUTE}*+[ \t]*+/?>|</[A-Za-z][A-Za-z0-9-]*+[ \t]*+>)[ \t]*+"
)


@dataclass(frozen=True, slots=True)
class HtmlBlock:
    """An HTML block being read: it ends on the line holding ``closer`` (a pattern), or, when
    there is none, on the first blank line (which is no longer part of it)."""

    closer: re.Pattern[str] | str | None

    def ends_on(self, content: str) -> bool:
        """Whether this line (without its line break) is the block's last."""
        if self.closer is None:
            return not content.strip(" \t")
        if isinstance(self.closer, str):
            return self.closer in content
        return self.closer.search(content) is not None


_BLANK_ENDED = HtmlBlock(None)


def html_block_start(content: str, *, in_paragraph: bool) -> HtmlBlock | None:
    """The HTML block a line opens (the line without its line break), or None. The line's
    own closing sequence counts: ``<!-- note -->`` is a block of one line."""
    body = content.lstrip(" ")
    if len(content) - len(body) > 3 or not body.startswith("<"):
        return None
    if _RAW.match(body):
        return HtmlBlock(_RAW_END)
    for opener, closer in _CLOSED_BY:
        if body.startswith(opener):
            return HtmlBlock(closer)
    if _DECLARATION.match(body):
        return HtmlBlock(">")
    tag = _TAG.match(body)
    if tag is not None and tag.group(1).lower() in BLOCK_TAGS:
        return _BLANK_ENDED
    if not in_paragraph and _WHOLE_TAG.fullmatch(body):
        return _BLANK_ENDED
    return None


# The opening line, the lines that close it, and what one of its lines must look like: a
# document that merely opens with a thematic break (``---``) and has another later is no front
# matter unless a key is set between them.
_FRONT_MATTER = {
    "---": (("---", "..."), re.compile(r"[A-Za-z0-9_-][^:\n]*:")),
    "+++": (("+++",), re.compile(r"[A-Za-z0-9_-][^=\n]*=")),
}


def front_matter_end(text: str) -> int:
    """Where the text after a front matter block starts (0: there is none)."""
    first, _, _ = text.partition("\n")
    found = _FRONT_MATTER.get(first.rstrip(" \t"))
    if found is None:
        return 0
    closers, key = found
    keyed = False
    at = len(first) + 1
    while at < len(text):
        end = text.find("\n", at)
        line = text[at:] if end < 0 else text[at:end]
        if line.rstrip(" \t") in closers:
            if not keyed:
                return 0
            return len(text) if end < 0 else end + 1
        keyed = keyed or key.match(line) is not None
        if end < 0:
            break
        at = end + 1
    return 0
