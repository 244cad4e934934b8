"""The profile's own key echoed by a provider in disguise is never shown: each disguise the
fourth fault round printed (answer `answered`, exit 0) is a case, through the contract's scrub.

The check is independent of the scrubber's folding: what is shown is reduced to its ASCII
letters and digits after NFKC (and %XX and HTML references decoded, and reversed, and lower
case), and no 8-character piece of the key may be left in it."""

from __future__ import annotations

import html
import unicodedata
import urllib.parse

import pytest
from answer_helpers import item, reply
from evidence_kits import EdgeKit, PassageKit

from groundkit.answer.contract import validate_answer
from groundkit.answer.scrub import Scrubber
from groundkit.secret import Secret

KEY = "opaque-PLANTEDkey-0123456789abcdef"  # no secret shape: only the echo check finds it
QUOTE = "digs long burrows"
Kit = PassageKit | EdgeKit


def _between(mark: str) -> str:
    return mark.join(KEY)


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
}


def _plain(shown: str) -> str:
    decoded = html.unescape(urllib.parse.unquote(shown))
    text = unicodedata.normalize("NFKC", decoded)
    text = "".join(chr(ord(c) - 0xE0000) if 0xE0020 <= ord(c) < 0xE007F else c for c in text)
    return "".join(c for c in text if c.isascii() and c.isalnum()).lower()


def _leaks(shown: str) -> bool:
    plain, key = _plain(shown), _plain(KEY)
    pieces = {key[i : i + 8] for i in range(len(key) - 7)}
    return any(p in plain or p[::-1] in plain for p in pieces)


@pytest.mark.parametrize("disguise", DISGUISES)
def test_a_disguised_echo_of_the_profiles_key_is_never_shown(kit: Kit, disguise: str) -> None:
    bundle = kit.bundle("wombat burrows")
    raw = reply(item(f"Wombats dig. The key is {DISGUISES[disguise]} today.", (1, QUOTE)))
    answer = validate_answer(raw, bundle, kit.resolve, scrub=Scrubber([Secret(KEY)]))
    shown = answer.items[0].text
    assert shown.startswith("Wombats dig. The key is ")
    assert shown.endswith(" today.")
    assert not _leaks(shown), shown


def test_the_leak_check_itself_sees_every_disguise() -> None:
    for disguise, text in DISGUISES.items():
        assert _leaks(text), disguise


def test_ordinary_prose_next_to_the_key_is_kept() -> None:
    shown = Scrubber([Secret(KEY)])("The opaque wombat digs 0123 burrows; keys are kept safe.")
    assert shown == "The opaque wombat digs 0123 burrows; keys are kept safe."
