"""Disguises a provider may put on the profile's own key when it echoes it back: each one the
fourth fault round printed (answer ``answered``, exit 0), and more. Read by
``test_echo_disguises.py`` and by ``benchmarks/hostile_secrets.py``.

``DISGUISES`` are one piece of prose each; ``SPLITS`` are a reply's several items (or a refused
reply's strings) that hold the key between them. ``leaks`` is the check, independent of the
scrubber's own reading: what is shown is decoded (%XX, HTML references, JSON escapes), reduced to
its ASCII letters and digits after NFKC and in lower case, and no 8-character piece of the key
may be in it, forwards or reversed. Ciphers (rot13, base64, hex of the bytes) are not disguises
the scrubber undoes: a reader needs a tool to read them, and any text could be one. A key behind a
right-to-left override is not here: the contract refuses any item holding a bidi control.
"""

from __future__ import annotations

import html
import re
import unicodedata
import urllib.parse

KEY = "opaque-PLANTEDkey-0123456789abcdef"  # no secret shape: only the echo check finds it

_LATIN_C = "aeopcxyAEOPCXKHMTB"
_CYRILLIC_LOOKALIKES = (
    "\u0430\u0435\u043e\u0440\u0441\u0445\u0443"
    "\u0410\u0415\u041e\u0420\u0421\u0425\u041a\u041d\u041c\u0422\u0412"
)
_CYRILLIC = str.maketrans(_LATIN_C, _CYRILLIC_LOOKALIKES)
_LATIN_G = "opABEHKMNTXZ"
_GREEK_LOOKALIKES = "\u03bf\u03c1\u0391\u0392\u0395\u0397\u039a\u039c\u039d\u03a4\u03a7\u0396"
_GREEK = str.maketrans(_LATIN_G, _GREEK_LOOKALIKES)


def _between(mark: str) -> str:
    return mark.join(KEY)


def _math_bold(text: str) -> str:
    def one(c: str) -> str:
        if "A" <= c <= "Z":
            return chr(0x1D400 + ord(c) - ord("A"))
        if "a" <= c <= "z":
            return chr(0x1D41A + ord(c) - ord("a"))
        if "0" <= c <= "9":
            return chr(0x1D7CE + ord(c) - ord("0"))
        return c

    return "".join(one(c) for c in text)


def _circled(text: str) -> str:
    def one(c: str) -> str:
        if "a" <= c <= "z":
            return chr(0x24D0 + ord(c) - ord("a"))
        if "A" <= c <= "Z":
            return chr(0x24B6 + ord(c) - ord("A"))
        if "1" <= c <= "9":
            return chr(0x2460 + ord(c) - ord("1"))
        return c

    return "".join(one(c) for c in text)


DISGUISES = {
    "U+034F between characters": _between("\u034f"),
    "U+FE0F between characters": _between("\ufe0f"),
    "U+E0100 between characters": _between("\U000e0100"),
    "U+3164 between characters": _between("\u3164"),
    "U+FFA0 between characters": _between("\uffa0"),
    "U+115F between characters": _between("\u115f"),
    "U+2800 between characters": _between("\u2800"),
    "U+17B4 between characters": _between("\u17b4"),
    "U+0300 on every character": _between("\u0300"),
    "tag characters": "".join(chr(0xE0000 + ord(c)) for c in KEY),
    "reversed": KEY[::-1],
    "url-encoded": "".join(f"%{ord(c):02X}" for c in KEY),
    "url-encoded, partly": urllib.parse.quote(KEY, safe="").replace("-", "%2D"),
    "html entities": "".join(f"&#{ord(c)};" for c in KEY),
    "html hex entities": "".join(f"&#x{ord(c):x};" for c in KEY),
    "lower case": KEY.lower(),
    "upper case": KEY.upper(),
    "zero-width spaces": _between("\u200b"),
    "spaces": _between(" "),
    "fullwidth": "".join(chr(ord(c) + 0xFEE0) for c in KEY),
    "Cyrillic look-alike letters": KEY.translate(_CYRILLIC),
    "Greek look-alike letters": KEY.translate(_GREEK),
    "mathematical bold letters": _math_bold(KEY),
    "circled letters and digits": _circled(KEY),
    "a hyphen between characters": _between("-"),
    "dots between characters": _between("."),
    "one character a line": _between("\n"),
    "markdown emphasis between characters": _between("*"),
    "JSON unicode escapes": "".join(f"\\u{ord(c):04x}" for c in KEY),
    "url-encoded twice": "".join(f"%25{ord(c):02X}" for c in KEY),
    "quoted pieces joined with +": '"' + KEY[:11] + '" + "' + KEY[11:22] + '" + "' + KEY[22:] + '"',
}

SPLITS = {
    "split across two items": [f"The first half is {KEY[:17]}.", f"The rest is {KEY[17:]}."],
    "split across three items": [KEY[:11], f"then {KEY[11:22]}", f"and {KEY[22:]} at last"],
    "split across two items, zero-width spaces in each": [
        "\u200b".join(KEY[:17]),
        "\u200b".join(KEY[17:]),
    ],
}

_BACK = str.maketrans(_CYRILLIC_LOOKALIKES + _GREEK_LOOKALIKES, _LATIN_C + _LATIN_G)
_JSON_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")


def _plain(shown: str) -> str:
    decoded = shown
    for _ in range(2):  # what is encoded twice
        decoded = html.unescape(urllib.parse.unquote(decoded))
    decoded = _JSON_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), decoded)
    decoded = decoded.translate(_BACK)
    text = unicodedata.normalize("NFKC", decoded)
    text = "".join(chr(ord(c) - 0xE0000) if 0xE0020 <= ord(c) < 0xE007F else c for c in text)
    return "".join(c for c in text if c.isascii() and c.isalnum()).lower()


def leaks(shown: str) -> bool:
    """Whether ``shown`` still gives an 8-character piece of ``KEY`` away."""
    plain, key = _plain(shown), _plain(KEY)
    pieces = {key[i : i + 8] for i in range(len(key) - 7)}
    return any(p in plain or p[::-1] in plain for p in pieces)
