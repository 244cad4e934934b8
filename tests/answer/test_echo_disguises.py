"""The profile's own key echoed by a provider in disguise is never shown: each disguise the
fourth fault round printed (answer `answered`, exit 0), and more, is a case
(``echo_disguises``), through the contract's scrub; a key split across a reply's items is cut
from each.

The check is independent of the scrubber's reading: what is shown is decoded and reduced to its
ASCII letters and digits (``echo_disguises.leaks``), and no 8-character piece of the key may be
left in it."""

from __future__ import annotations

import pytest
from answer_helpers import item, reply
from echo_disguises import DISGUISES, KEY, SPLITS, leaks
from evidence_kits import EdgeKit, PassageKit

from groundkit.answer.contract import validate_answer
from groundkit.answer.scrub import Scrubber
from groundkit.secret import Secret

QUOTE = "digs long burrows"
Kit = PassageKit | EdgeKit


@pytest.mark.parametrize("disguise", DISGUISES)
def test_a_disguised_echo_of_the_profiles_key_is_never_shown(kit: Kit, disguise: str) -> None:
    bundle = kit.bundle("wombat burrows")
    raw = reply(item(f"Wombats dig. The key is {DISGUISES[disguise]} today.", (1, QUOTE)))
    answer = validate_answer(raw, bundle, kit.resolve, scrub=Scrubber([Secret(KEY)]))
    shown = answer.items[0].text
    assert shown.startswith("Wombats dig. The key is ")
    assert shown.endswith(" today.")
    assert not leaks(shown), shown


@pytest.mark.parametrize("split", SPLITS)
def test_a_key_split_across_the_items_of_a_reply_is_cut_from_each(kit: Kit, split: str) -> None:
    # Before: three pieces of a third of the key each were shown (a piece had to be half).
    bundle = kit.bundle("wombat burrows")
    raw = reply(*(item(f"Wombats dig. {piece}", (1, QUOTE)) for piece in SPLITS[split]))
    answer = validate_answer(raw, bundle, kit.resolve, scrub=Scrubber([Secret(KEY)]))
    shown = "\n".join(i.text for i in answer.items)
    assert shown.count("Wombats dig.") == len(SPLITS[split])
    assert not leaks(shown), shown


def test_the_leak_check_itself_sees_every_disguise() -> None:
    for disguise, text in DISGUISES.items():
        assert leaks(text), disguise
    for split, pieces in SPLITS.items():
        assert leaks("".join(pieces)), split


def test_ordinary_prose_next_to_the_key_is_kept() -> None:
    shown = Scrubber([Secret(KEY)])("The opaque wombat digs 0123 burrows; keys are kept safe.")
    assert shown == "The opaque wombat digs 0123 burrows; keys are kept safe."


def test_prose_with_dots_and_dashes_near_pieces_of_the_key_is_kept() -> None:
    text = "Opaque-ish. Keys: 0-1-2-3 and a.b.c.d.e.f; see section 4.5.6 (key-0123)."
    assert Scrubber([Secret(KEY)])(text) == text
