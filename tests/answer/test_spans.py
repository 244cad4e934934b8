"""Quote-constrained decoding: the schema lists exact spans, and the contract still judges.

The schema only makes a valid reply likely; a reply that breaks it (from a server that ignores
schemas) meets the same ``validate_answer`` as ever.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from answer_helpers import bundle_for, item, reply
from evidence_kits import EdgeKit, PassageKit
from hypothesis import given, settings
from hypothesis import strategies as st

from groundkit import Collection
from groundkit.answer import menu as quote_menu
from groundkit.answer import spans
from groundkit.answer.bundle import BundleItem, EvidenceBundle
from groundkit.answer.contract import validate_answer
from groundkit.answer.menu import constrained_schema
from groundkit.answer.redact import DEFAULT_PATTERNS, RedactingChat
from groundkit.answer.service import answer_question, quote_mode
from groundkit.answer.spans import cut_spans
from groundkit.errors import AIError, ErrorCode
from groundkit.testing.chat import ScriptedChat

LONG = (
    "Glaciers advance in winter, when snow piles up faster than it melts, and they retreat in"
    " summer, when meltwater runs off the snout; over decades the balance of the two decides"
    " whether a glacier grows, which the survey measures every spring with stakes drilled into"
    " the ice at fixed points along the centre line."
)


def test_every_span_is_a_byte_exact_substring_of_its_text() -> None:
    text = "# Kettles\n\nTo descale the kettle, use vinegar.  Rinse twice!\n- Dry it.\n" + LONG
    got = cut_spans(text, min_chars=8)
    assert got
    for span in got:
        assert span in text
        assert span == span.strip()
    assert "To descale the kettle, use vinegar." in got
    assert "Rinse twice!" in got


def test_a_long_sentence_is_cut_into_clauses_no_longer_than_the_cap() -> None:
    got = cut_spans(LONG, min_chars=1)
    assert len(got) > 1
    assert all(len(s) <= spans.MAX_SPAN_CHARS and s in LONG for s in got)


def test_spans_shorter_than_the_minimum_quote_or_without_a_word_are_left_out() -> None:
    got = cut_spans("Yes. No! ---- ... The answer is forty-two.", min_chars=10)
    assert got == ["The answer is forty-two."]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=600))
def test_spans_of_any_text_are_substrings_of_it(text: str) -> None:
    for span in cut_spans(text, min_chars=1):
        assert span in text


def _item(number: int, text: str) -> BundleItem:
    return BundleItem(number, f"c{number}", f"d{number}", f"s{number}.md", 0, len(text), text)


def _bundle(*texts: str) -> EvidenceBundle:
    items = tuple(_item(i, t) for i, t in enumerate(texts, start=1))
    return EvidenceBundle("c", "q", items, 0, 10_000, "sha256:x")


def test_the_schema_pairs_each_source_number_with_only_its_own_spans() -> None:
    schema, menu = constrained_schema(
        _bundle("The wombat digs long burrows.", "The echidna lays an egg."), min_chars=8
    )
    entry = schema["properties"]["items"]["items"]
    choices = entry["properties"]["citations"]["items"]["anyOf"]
    assert [c["properties"]["source"] for c in choices] == [{"const": 1}, {"const": 2}]
    assert [c["properties"]["quote"]["enum"] for c in choices] == [
        ["The wombat digs long burrows."],
        ["The echidna lays an egg."],
    ]
    assert all(c["additionalProperties"] is False for c in choices)
    assert entry["additionalProperties"] is False
    assert schema["properties"]["items"]["maxItems"] == quote_menu.MAX_ITEMS
    assert menu.spans == (("The wombat digs long burrows.",), ("The echidna lays an egg.",))
    assert not menu.truncated


def test_with_nothing_quotable_the_schema_admits_only_the_abstention() -> None:
    schema, _ = constrained_schema(_bundle("Ok."), min_chars=16)
    assert schema["properties"]["items"] == {"type": "array", "maxItems": 0}


def test_spans_beyond_the_size_limits_are_left_out_and_counted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(quote_menu, "MAX_SPANS_PER_ITEM", 2)
    text = " ".join(f"Sentence number {n} is here." for n in range(5))
    _, menu = constrained_schema(_bundle(text), min_chars=8)
    assert len(menu.spans[0]) == 2
    assert menu.omitted == 3
    assert menu.to_dict()["truncated"] is True


def test_the_total_enum_bytes_are_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(quote_menu, "MAX_ENUM_BYTES", 60)
    text = " ".join(f"Sentence number {n} is here." for n in range(5))
    _, menu = constrained_schema(_bundle(text), min_chars=8)
    assert 0 < menu.enum_bytes <= 60
    assert menu.omitted == 5 - len(menu.spans[0])


def test_a_reply_that_breaks_the_constrained_schema_is_still_refused(col: Collection) -> None:
    # A server that ignores schemas: the quote is real text of source 1, but not one of the
    # spans the schema offered (it is half a sentence), and the next is not in the source at all.
    bundle = bundle_for(col, "wombat burrows")
    _, menu = constrained_schema(bundle, min_chars=16)
    offered = {q for s in menu.spans for q in s}
    assert "digs long burrows" not in offered
    answer = validate_answer(
        reply(item("Wombats dig.", (1, "digs long burrows"))), bundle, col.show
    )
    assert answer.citations  # off the schema but true to the source: the contract is unchanged
    for bad in (
        reply(item("Wombats dig.", (1, "digs long burrows with its claws"))),
        reply(item("Wombats dig.", (2, "The wombat digs long burrows"))),
        '{"items": [{"citations": [{"source": 1, "quote": "The wombat digs long burrows'
        ' with its strong claws."}], "text": "x", "extra": 1}]}',
    ):
        with pytest.raises(AIError) as caught:
            validate_answer(bad, bundle, col.show)
        assert caught.value.code == ErrorCode.AI_INVALID_OUTPUT


def test_a_local_model_is_asked_with_the_constrained_schema_by_default(col: Collection) -> None:
    chat = ScriptedChat(['{"items": []}'], local=True)
    report = answer_question(col, "wombat burrows", chat)
    sent = chat.calls[0].response_schema
    assert sent is not None
    choices = sent["properties"]["items"]["items"]["properties"]["citations"]["items"]["anyOf"]
    assert choices[0]["properties"]["quote"]["enum"]
    assert report.quotes is not None
    assert report.to_dict()["quotes"]["mode"] == "constrained"


def test_a_remote_model_gets_free_quotes_unless_the_profile_says_otherwise() -> None:
    remote = ScriptedChat([], local=False)
    assert quote_mode(remote, None) == "free"
    assert quote_mode(remote, "constrained") == "constrained"
    assert quote_mode(ScriptedChat([], local=True), "free") == "free"


def test_a_constrained_schema_sent_off_the_machine_carries_no_raw_evidence_values(
    col: Collection,
) -> None:
    # The enum holds evidence text; a remote provider must see it redacted like the prompt.
    seen: list[Any] = []

    def answer(system: str, user: str) -> str:
        return '{"items": []}'

    inner = ScriptedChat([answer], local=False)
    chat = RedactingChat(inner, DEFAULT_PATTERNS)
    report = answer_question(col, "wombat bark keeper", chat, quotes="constrained")
    seen.append(inner.calls[0].response_schema)
    assert report.ai.state == "answered"
    assert "keeper@example.org" not in json.dumps(seen[0])
    assert "[EMAIL_1]" in json.dumps(seen[0])


def test_a_span_chosen_through_redaction_comes_back_restored_and_validates(
    col: Collection,
) -> None:
    def pick(system: str, user: str) -> str:
        # The model copies the redacted span it was offered, token and all.
        return json.dumps(
            {
                "items": [
                    {
                        "citations": [
                            {"source": 1, "quote": "Write to [EMAIL_1] about the wombats."}
                        ],
                        "text": "Write to the keeper.",
                    }
                ]
            }
        )

    chat = RedactingChat(ScriptedChat([pick], local=False), DEFAULT_PATTERNS)
    report = answer_question(col, "wombat keeper", chat, quotes="constrained")
    assert report.answer is not None, report.ai.error
    assert report.answer.citations[0].cited_text == "Write to keeper@example.org about the wombats."


def test_the_contract_schema_fits_hosted_strict_mode_and_the_constrained_one_does_not() -> None:
    # Why hosted profiles default to free quotes: OpenAI's strict mode refuses anyOf
    # alternatives that begin with the same key, and one alternative per source always does.
    from groundkit.answer.contract import ANSWER_SCHEMA
    from groundkit.answer.menu import hosted_strict_problems

    assert hosted_strict_problems(ANSWER_SCHEMA) == []
    single, _ = constrained_schema(_bundle("The wombat digs long burrows."), min_chars=8)
    assert hosted_strict_problems(single) == []  # one source: no two alternatives
    schema, _ = constrained_schema(
        _bundle("The wombat digs long burrows.", "The echidna lays an egg."), min_chars=8
    )
    assert hosted_strict_problems(schema) == ["anyOf alternatives share their first key"]


def test_hosted_enum_limits_are_checked() -> None:
    from groundkit.answer.menu import hosted_strict_problems

    many = {
        "type": "object",
        "properties": {"q": {"enum": [f"value {n:04d}" * 8 for n in range(1001)]}},
    }
    problems = hosted_strict_problems(many)
    assert any("1001 enum values" in p for p in problems)
    assert any("characters" in p for p in problems)


def test_every_span_offered_for_either_kind_of_evidence_validates_when_cited(
    kit: PassageKit | EdgeKit,
) -> None:
    # The schema only offers what the one gate accepts: a model that picks any offered span of
    # any item, passage or edge, gets a validated answer.
    bundle = kit.bundle("wombat burrows")
    schema, menu = constrained_schema(bundle, min_chars=16)
    choices = schema["properties"]["items"]["items"]["properties"]["citations"]["items"]["anyOf"]
    assert len(choices) == len(bundle.items)
    offered = [
        (c["properties"]["source"]["const"], q)
        for c in choices
        for q in c["properties"]["quote"]["enum"]
    ]
    assert len(offered) == sum(len(s) for s in menu.spans) > 0
    for number, quote in offered:
        answer = validate_answer(reply(item("So.", (number, quote))), bundle, kit.resolve)
        assert answer.citations[0].cited_text == quote


def test_a_quote_span_runs_on_past_an_abbreviation_but_still_ends_at_a_line_break() -> None:
    text = "Invoices go to Hexley Ltd. in Leeds, e.g. by post.\nHexley Ltd.\nThe end of it."
    assert cut_spans(text, min_chars=1) == [
        "Invoices go to Hexley Ltd. in Leeds, e.g. by post.",
        "Hexley Ltd.",
        "The end of it.",
    ]
