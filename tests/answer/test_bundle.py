"""The evidence bundle: numbered in rank order, capped by size with truncation reported, hashed."""

from __future__ import annotations

from answer_helpers import bundle_for

from groundkit import Collection
from groundkit.answer.prompts import answer_user


def test_items_are_numbered_from_one_in_rank_order(col: Collection) -> None:
    hits = col.search("wombat echidna")
    bundle = bundle_for(col, "wombat echidna")
    assert [i.number for i in bundle.items] == [1, 2]
    assert [i.chunk_id for i in bundle.items] == [h.citation.chunk_id for h in hits]
    assert not bundle.truncated


def test_the_size_cap_drops_whole_items_and_reports_how_many(col: Collection) -> None:
    full = bundle_for(col, "wombat echidna")
    first = len(full.prompt_text().encode()) - len(full.items[1].text) - 10
    capped = bundle_for(col, "wombat echidna", max_bytes=first)
    assert len(capped.items) == 1
    assert capped.truncated
    assert capped.omitted == 1
    assert capped.to_dict()["truncated"] is True
    assert len(capped.prompt_text().encode()) <= first


def test_the_scope_hash_is_stable_and_names_exactly_this_evidence(col: Collection) -> None:
    a = bundle_for(col, "wombat echidna")
    assert a.scope_hash == bundle_for(col, "wombat echidna").scope_hash
    assert a.scope_hash != bundle_for(col, "wombat").scope_hash
    assert a.scope_hash.startswith("sha256:")


def test_the_prompt_carries_numbers_and_text_but_no_path_or_id(col: Collection) -> None:
    bundle = bundle_for(col, "wombat echidna")
    prompt = answer_user("q", bundle)
    for entry in bundle.items:
        assert f'<source id="{entry.number}">\n{entry.text}\n</source>' in prompt
        assert entry.source not in prompt
        assert entry.chunk_id not in prompt
        assert entry.document_id not in prompt


def test_the_answer_package_has_no_facade_of_its_own() -> None:
    from groundkit import answer

    # One way to each name: its module (groundkit.answer.session, .contract...).
    assert not hasattr(answer, "__all__")
    assert not hasattr(answer, "__getattr__")
