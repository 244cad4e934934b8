"""Vue single-file components (``.vue``): the code in their ``<script>`` blocks, in place.

A component's ``<script>`` and ``<script setup>`` blocks are its code (``<template>``,
``<style>`` and custom blocks are not). They are read as one TypeScript or JavaScript file
whose every other character is blanked out (a space; line breaks kept), so each line and
column the parse reports is the component's own: evidence quotes and re-checks read the
``.vue`` file itself. Two blocks share one module, as Vue's compiler merges them.
"""

from __future__ import annotations

import re

__all__ = ["VUE_SUFFIX", "script_of"]

VUE_SUFFIX = ".vue"

# A top-level block's opening tag and its attributes; the block ends at the first closing tag,
# as in Vue's own SFC parser (a ``</script>`` inside a string of the script ends it there too).
_SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.IGNORECASE | re.DOTALL)
_TEMPLATE = re.compile(r"^<template\b.*?^</template\s*>", re.IGNORECASE | re.DOTALL | re.MULTILINE)
_LANG = re.compile(r"""\blang\s*=\s*["']?([A-Za-z]+)""", re.IGNORECASE)
_DIALECTS = {"ts": "typescript", "tsx": "tsx", "js": "javascript", "jsx": "javascript"}
_NOT_BREAK = re.compile(r"[^\n\r]")


def script_of(text: str) -> tuple[str, str]:
    """``(code, dialect)``: the component's text with everything outside its script blocks
    blanked, and the grammar that reads them (TypeScript when any block says ``lang="ts"``;
    JavaScript when none names a language); a block in another language stays blank."""
    # a <script> written inside the top-level <template> (say, in a <pre>) is markup
    templates = [(m.start(), m.end()) for m in _TEMPLATE.finditer(text)]
    blocks = [
        m
        for m in _SCRIPT.finditer(text)
        if not any(start <= m.start() < end for start, end in templates)
    ]
    dialects = set()
    out = _NOT_BREAK.sub(" ", text)
    for block in blocks:
        lang = _LANG.search(block.group(1))
        dialect = _DIALECTS.get(lang.group(1).lower(), "") if lang else "javascript"
        if not dialect:
            continue  # lang="coffee" and the like: not a language the map reads
        dialects.add(dialect)
        out = out[: block.start(2)] + block.group(2) + out[block.end(2) :]
    for dialect in ("tsx", "typescript", "javascript"):
        if dialect in dialects:
            return out, dialect
    return out, "typescript"
