"""The citation contract: every rule refuses the whole answer, and only validation makes one.

Most tests take ``kit``: they run once with document passages and once with code-map edges whose
evidence carries the same sentences, through the same ``validate_answer``.
"""

from __future__ import annotations

import dataclasses
import json
import unicodedata

import pytest
from answer_helpers import bundle_for, item, reply
from evidence_kits import EdgeKit, PassageKit

from groundkit import Collection
from groundkit.answer.contract import Answer, AnswerItem, validate_answer
from groundkit.errors import AIError, ErrorCode

QUOTE = "digs long burrows"
Kit = PassageKit | EdgeKit


def refused(kit: Kit, raw: str) -> None:
    bundle = kit.bundle("wombat burrows")
    with pytest.raises(AIError) as caught:
        validate_answer(raw, bundle, kit.resolve)
    assert caught.value.code == ErrorCode.AI_INVALID_OUTPUT


def test_a_valid_answer_resolves_every_quote_to_offsets_in_its_origin(kit: Kit) -> None:
    bundle = kit.bundle("wombat burrows")
    answer = validate_answer(
        reply(
            item("Wombats dig burrows.", (1, QUOTE)),
            item("They eat bark.", (1, "grasses, roots and bark")),
        ),
        bundle,
        kit.resolve,
    )
    assert [i.markers for i in answer.items] == [(1,), (2,)]
    stored = kit.origin_text(bundle, 1)  # the document, or the edge's evidence line
    for cited in answer.citations:
        assert stored[cited.start : cited.end] == cited.cited_text
        assert cited.kind == kit.kind
    assert [c.cited_text for c in answer.citations] == [QUOTE, "grasses, roots and bark"]


def test_cited_text_is_cut_from_the_store_not_copied_from_the_model(col: Collection) -> None:
    bundle = bundle_for(col, "wombat burrows")
    answer = validate_answer(reply(item("x", (1, QUOTE))), bundle, col.show)
    resolved = col.show(bundle.items[0].chunk_id)
    at = answer.citations[0].start - resolved.citation.start
    assert resolved.text[at : at + len(QUOTE)] == answer.citations[0].cited_text


def test_an_empty_item_list_is_a_valid_abstention(kit: Kit) -> None:
    answer = validate_answer('{"items": []}', kit.bundle("wombat"), kit.resolve)
    assert answer.abstained
    assert answer.citations == ()


@pytest.mark.parametrize(
    "quote",
    [
        "digs  long burrows",  # a doubled space
        "strong claws. A wombat",  # a space where the text has a blank line
        "digs\nlong burrows",  # a newline for a space
        "Digs long burrows",  # case
    ],
)
def test_a_quote_differing_only_in_whitespace_or_case_is_refused(kit: Kit, quote: str) -> None:
    refused(kit, reply(item("Wombats dig.", (1, quote))))


def test_a_quote_differing_only_in_unicode_normal_form_is_refused(kit: Kit) -> None:
    decomposed = unicodedata.normalize("NFD", "the odd caf\u00e9 crumb")
    assert decomposed != "the odd caf\u00e9 crumb"
    refused(kit, reply(item("Crumbs.", (1, decomposed))))


@pytest.mark.parametrize("source", [True, 1.0, "1", None, [1]])
def test_a_source_that_is_not_an_integer_is_refused(kit: Kit, source: object) -> None:
    refused(kit, reply(item("Wombats dig.", (source, QUOTE))))


@pytest.mark.parametrize("source", [0, -1, 2, 99])
def test_a_source_outside_the_bundle_is_refused(kit: Kit, source: int) -> None:
    assert len(kit.bundle("wombat burrows").items) == 1  # the echidna was not retrieved
    refused(kit, reply(item("Wombats dig.", (source, QUOTE))))


def test_one_bad_citation_rejects_the_whole_answer(kit: Kit) -> None:
    good = item("Wombats dig burrows.", (1, QUOTE))
    # The second citation is not verbatim; the first is.
    half = item("They eat bark.", (1, "grasses, roots and bark"), (1, "eats bark and grasses"))
    refused(kit, reply(good, half))


def test_a_quote_from_another_source_than_the_one_named_is_refused(kit: Kit) -> None:
    bundle = kit.two()  # [echidna, wombat]
    with pytest.raises(AIError) as caught:
        validate_answer(reply(item("Eggs.", (2, "the echidna lays an egg"))), bundle, kit.resolve)
    assert caught.value.code == ErrorCode.AI_INVALID_OUTPUT
    answer = validate_answer(
        reply(item("Eggs.", (1, "the echidna lays an egg"))), bundle, kit.resolve
    )
    assert "echidna" in kit.named(answer.citations[0])


@pytest.mark.parametrize(
    "raw",
    [
        '{"items": [], "note": "x"}',
        '{"items": [{"text": "t", "citations": [{"source": 1, "quote": "digs"}], "x": 1}]}',
        '{"items": [{"text": "t", "citations": [{"source": 1, "quote": "digs", "page": 2}]}]}',
    ],
)
def test_extra_json_properties_are_refused_at_every_level(kit: Kit, raw: str) -> None:
    refused(kit, raw)


@pytest.mark.parametrize(
    "raw",
    [
        "{}",
        '{"items": [{"citations": [{"source": 1, "quote": "digs"}]}]}',
        '{"items": [{"text": "t"}]}',
        '{"items": [{"text": "t", "citations": [{"quote": "digs"}]}]}',
        '{"items": [{"text": "t", "citations": [{"source": 1}]}]}',
        '{"items": {"text": "t"}}',
        '{"items": ["t"]}',
        "[]",
    ],
)
def test_missing_fields_and_wrong_shapes_are_refused(kit: Kit, raw: str) -> None:
    refused(kit, raw)


def test_an_item_without_a_citation_is_refused(kit: Kit) -> None:
    refused(kit, reply(item("Wombats dig burrows.")))


@pytest.mark.parametrize("text", ["", "   ", 7])
def test_an_item_without_text_is_refused(kit: Kit, text: object) -> None:
    refused(
        kit, json.dumps({"items": [{"text": text, "citations": [{"source": 1, "quote": "digs"}]}]})
    )


def test_an_empty_quote_is_refused(kit: Kit) -> None:
    # Even with no minimum length: an empty string is in every text.
    bundle = kit.bundle("wombat burrows")
    with pytest.raises(AIError) as caught:
        validate_answer(
            reply(item("Wombats dig.", (1, ""))), bundle, kit.resolve, min_quote_chars=0
        )
    assert caught.value.code == ErrorCode.AI_INVALID_OUTPUT
    assert "quote is empty" in caught.value.message  # its own rule, not a later one


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "The wombat digs.",
        '```json\n{"items": []}\n```',
        '{"items": []} {"items": []}',
        '{"items": [], "items": []}',
        '{"items": [{"text": "t", "citations": [{"source": NaN, "quote": "digs"}]}]}',
    ],
)
def test_anything_but_one_strict_json_object_is_refused_never_repaired(kit: Kit, raw: str) -> None:
    refused(kit, raw)


def test_a_redaction_token_in_the_text_is_never_read_as_a_citation(kit: Kit) -> None:
    # "[1]" and "[EMAIL_1]" in prose cite nothing: only the citations list does.
    refused(kit, reply(item("Write to [EMAIL_1] [1].")))
    # Unrestored, the token is not the evidence's text, so it cannot be quoted either.
    refused(kit, reply(item("Write to them.", (1, "[EMAIL_1]"))))


def test_an_answer_cannot_be_built_without_validation() -> None:
    with pytest.raises(TypeError):
        Answer((), (), object())


def test_a_refusal_message_never_carries_the_model_text_or_the_evidence(kit: Kit) -> None:
    bundle = kit.bundle("wombat burrows")
    with pytest.raises(AIError) as caught:
        validate_answer(reply(item("SECRET-PROSE", (1, "SECRET-QUOTE"))), bundle, kit.resolve)
    for leaked in ("SECRET-PROSE", "SECRET-QUOTE", "wombat", "burrows"):
        assert leaked not in str(caught.value)


@pytest.mark.parametrize("text", ["\u200b", "\ufeff", "\u200b\u00a0\u2028", "\x00"])
def test_an_item_of_invisible_characters_only_has_no_text_and_is_refused(
    kit: Kit, text: str
) -> None:
    refused(kit, reply(item(text, (1, QUOTE))))


@pytest.mark.parametrize(
    "text",
    [
        "Wombats \ud800 dig.",  # a lone surrogate: no UTF-8 encoder can write it
        "Wombats \u001b[2J dig.",  # an escape sequence would drive the user's terminal
        "Wombats\x07 dig.",
    ],
)
def test_prose_with_a_lone_surrogate_or_a_control_character_is_refused(kit: Kit, text: str) -> None:
    refused(kit, reply(item(text, (1, QUOTE))))


def test_line_breaks_and_tabs_in_prose_are_still_text(kit: Kit) -> None:
    raw = reply(item("Wombats\n\tdig burrows.", (1, QUOTE)))
    assert validate_answer(raw, kit.bundle("wombat burrows"), kit.resolve).items


def test_a_validated_answer_cannot_be_copied_into_a_forged_one(kit: Kit) -> None:
    answer = validate_answer(
        reply(item("Wombats dig.", (1, QUOTE))), kit.bundle("wombat"), kit.resolve
    )
    with pytest.raises(TypeError):
        dataclasses.replace(answer, items=(AnswerItem("The moon is cheese.", (1,)),))


def test_a_quote_found_more_than_once_names_its_first_place_and_says_it_is_ambiguous(
    kit: Kit,
) -> None:
    bundle = kit.bundle("burrows")
    answer = validate_answer(
        reply(item("Wombats.", (1, "wombat"), (1, QUOTE))), bundle, kit.resolve, min_quote_chars=1
    )
    repeated, once = answer.citations
    stored = kit.origin_text(bundle, 1)
    assert repeated.start == stored.index("wombat")
    assert (repeated.ambiguous, once.ambiguous) == (True, False)
    assert repeated.to_dict()["ambiguous"] is True


def test_a_source_deleted_from_its_origin_since_it_was_sent_refuses_the_answer(kit: Kit) -> None:
    bundle = kit.bundle("wombat burrows")
    kit.take_away(bundle, 1)
    with pytest.raises(AIError) as caught:
        validate_answer(reply(item("Wombats dig.", (1, QUOTE))), bundle, kit.resolve)
    assert caught.value.code == ErrorCode.AI_INVALID_OUTPUT


def test_a_reply_nested_too_deep_to_parse_is_refused_not_a_crash(kit: Kit) -> None:
    refused(kit, '{"items": ' + "[" * 100_000 + "]" * 100_000 + "}")


def test_a_quote_shorter_than_the_minimum_is_refused(kit: Kit) -> None:
    # A one-character quote is in almost any passage: it would validate behind any claim.
    bundle = kit.bundle("wombat burrows")
    with pytest.raises(AIError) as caught:
        validate_answer(reply(item("Wombats eat bark.", (1, "a"))), bundle, kit.resolve)
    assert caught.value.code == ErrorCode.AI_INVALID_OUTPUT
    assert "shorter than 16 characters" in caught.value.message


def test_the_minimum_quote_length_is_a_setting(kit: Kit) -> None:
    bundle = kit.bundle("wombat burrows")
    raw = reply(item("Wombats dig.", (1, QUOTE)))  # 17 characters
    assert validate_answer(raw, bundle, kit.resolve, min_quote_chars=17).citations
    with pytest.raises(AIError):
        validate_answer(raw, bundle, kit.resolve, min_quote_chars=18)


def test_the_contract_default_minimum_is_the_configured_default() -> None:
    from groundkit.answer.contract import MIN_QUOTE_CHARS
    from groundkit.config import AnswerConfig

    assert AnswerConfig().min_quote_chars == MIN_QUOTE_CHARS


def test_a_quote_that_only_restates_the_question_is_refused(kit: Kit) -> None:
    bundle = kit.bundle("wombat burrows")
    question = "Does the wombat dig long burrows?"
    with pytest.raises(AIError) as caught:
        validate_answer(
            reply(item("Yes.", (1, "The wombat digs long burrows"))),
            bundle,
            kit.resolve,
            question="What does the wombat dig, long burrows or the wombat digs?",
        )
    assert "only restates the question" in caught.value.message
    # The same quote carries meaning when the question did not already say it.
    answer = validate_answer(
        reply(item("Yes.", (1, "The wombat digs long burrows with its strong claws"))),
        bundle,
        kit.resolve,
        question=question,
    )
    assert answer.citations


def test_a_quote_made_of_punctuation_only_is_refused(kit: Kit) -> None:
    bundle = kit.bundle("wombat burrows")
    with pytest.raises(AIError) as caught:
        validate_answer(
            reply(item("Dash.", (1, " \u2014 "))), bundle, kit.resolve, min_quote_chars=1
        )
    assert "no letter or digit" in caught.value.message


@pytest.mark.parametrize(
    "text",
    [
        "Wombats dig \u202egnol\u202c burrows.",  # RIGHT-TO-LEFT OVERRIDE
        "Wombats \u2067dig\u2069 burrows.",  # an isolate
        "\u0301\u0301\u0301",  # combining marks with nothing to sit on
    ],
)
def test_answer_text_that_could_spoof_the_terminal_is_refused(kit: Kit, text: str) -> None:
    bundle = kit.bundle("wombat burrows")
    with pytest.raises(AIError) as caught:
        validate_answer(reply(item(text, (1, QUOTE))), bundle, kit.resolve)
    assert caught.value.code == ErrorCode.AI_INVALID_OUTPUT


def test_a_secret_in_the_answer_text_is_scrubbed_and_the_quote_still_validates(
    kit: Kit,
) -> None:
    from groundkit.answer.scrub import Scrubber
    from groundkit.secret import Secret

    bundle = kit.bundle("wombat burrows")
    key = "opaque-provider-key-7731"
    text = f"Wombats dig. Bearer gsk_{'a1B2' * 12} and {key}."
    answer = validate_answer(
        reply(item(text, (1, QUOTE))), bundle, kit.resolve, scrub=Scrubber([Secret(key)])
    )
    shown = answer.items[0].text
    assert "gsk_" not in shown
    assert key not in shown
    assert shown.startswith("Wombats dig.")
    assert answer.citations[0].cited_text == QUOTE


_KEY = "opaque-PLANTEDkey-0123456789abcdef"  # no secret shape: only the key itself tells
_ZWSP, _SHY = "\u200b", "\u00ad"
_LOOKALIKE = _KEY.replace("a", "\u0430").replace("e", "\u0435")  # Cyrillic a and ie


@pytest.mark.parametrize(
    ("texts", "why"),
    [
        ([f"Wombats dig. The key is {_ZWSP.join(_KEY)}."], "zero-width spaces inside"),
        ([f"Wombats dig. The key is {' '.join(_KEY)}."], "spaces between its characters"),
        ([f"Wombats dig. The key is {_LOOKALIKE}."], "Cyrillic look-alike letters"),
        ([f"Wombats dig: {_KEY[:14]}", f"{_KEY[14:]} is what they use."], "split across items"),
        ([f"Wombats dig. The key is {_KEY}."], "as it is"),
        ([f"Wombats dig: {_KEY[:14]}{_SHY}{_KEY[14:]}."], "a soft hyphen inside"),
    ],
)
def test_a_disguised_echo_of_the_providers_key_is_never_shown(
    kit: Kit, texts: list[str], why: str
) -> None:
    import unicodedata

    from groundkit.answer.scrub import Scrubber
    from groundkit.secret import Secret

    bundle = kit.bundle("wombat burrows")
    raw = reply(*(item(text, (1, QUOTE)) for text in texts))
    answer = validate_answer(raw, bundle, kit.resolve, scrub=Scrubber([Secret(_KEY)]))
    shown = "".join(i.text for i in answer.items)
    unfolded = unicodedata.normalize("NFKC", shown).translate({0x430: "a", 0x435: "e"})
    folded = "".join(ch for ch in unfolded if ch.isascii() and not ch.isspace())
    assert "PLANTEDkey" not in folded, why
    assert "0123456789abcdef" not in folded, why
    assert answer.items[0].text.startswith("Wombats dig"), why


@pytest.mark.parametrize(
    "texts",
    [
        ["Wombats dig burrows."] * 2,
        ["Wombats dig burrows.", "wombats  dig\nburrows."],  # case and spacing do not count
        ["Wombats dig burrows."] * 10_000,
    ],
)
def test_an_item_that_repeats_an_earlier_item_is_refused(kit: Kit, texts: list[str]) -> None:
    bundle = kit.bundle("wombat burrows")
    raw = reply(*(item(text, (1, QUOTE)) for text in texts))
    with pytest.raises(AIError) as caught:
        validate_answer(raw, bundle, kit.resolve)
    assert caught.value.code == ErrorCode.AI_INVALID_OUTPUT
    assert "item 2 repeats item 1" in caught.value.message


@pytest.mark.parametrize("times", [2, 5_000])
def test_an_item_that_repeats_a_citation_is_refused(kit: Kit, times: int) -> None:
    bundle = kit.bundle("wombat burrows")
    raw = reply(item("Wombats dig burrows.", *[(1, QUOTE)] * times))
    with pytest.raises(AIError) as caught:
        validate_answer(raw, bundle, kit.resolve)
    assert "citation 2 repeats citation 1" in caught.value.message


def test_two_items_may_cite_the_same_quote_and_one_item_two_quotes(kit: Kit) -> None:
    bundle = kit.bundle("wombat burrows")
    raw = reply(
        item("Wombats dig burrows.", (1, QUOTE), (1, "grasses, roots and bark")),
        item("Their burrows are long.", (1, QUOTE)),
    )
    assert len(validate_answer(raw, bundle, kit.resolve).citations) == 3
