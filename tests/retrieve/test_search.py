from __future__ import annotations

from pathlib import Path

import pytest

import groundkit
from groundkit import ErrorCode, GroundkitError


@pytest.fixture
def collection(tmp_path: Path) -> groundkit.Collection:
    docs = tmp_path / "docs"
    (docs / "guides").mkdir(parents=True)
    (docs / "guides" / "torque.md").write_text(
        "# Torque\n\nCalibrate the widget with the torque gauge every ninety days.\n"
    )
    (docs / "notes.txt").write_text("The torque gauge lives in the blue cabinet.\n")
    (docs / "records.jsonl").write_text(
        '{"id": "r1", "text": "Torque specs in French.", "metadata": {"lang": "fr", "rev": 2}}\n'
        '{"id": "r2", "text": "Torque specs in English.", "metadata": {"lang": "en", "rev": 3}}\n'
    )
    coll = groundkit.open_collection("t", index_dir=tmp_path / "index")
    coll.ingest([str(docs)])
    return coll


@pytest.mark.parametrize(
    "query", ["title:(x torque", "foo AND (bar torque", '"unbalanced torque', "*", "torque~2^3 -+!"]
)
def test_query_syntax_is_searched_as_plain_words(
    collection: groundkit.Collection, query: str
) -> None:
    hits = collection.search(query)
    if query == "*":
        assert hits == []
    else:
        assert hits
        assert all("torque" in h.text.lower() for h in hits)


def test_every_hit_cites_the_exact_stored_span(collection: groundkit.Collection) -> None:
    hits = collection.search("torque gauge")
    assert [h.rank for h in hits] == list(range(1, len(hits) + 1))
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    for hit in hits:
        shown = collection.show(hit.citation.chunk_id)
        assert shown.text == hit.text
        assert shown.citation == hit.citation
        assert shown.verification == groundkit.Verification.VERIFIED


def test_top_k_limits_the_hits(collection: groundkit.Collection) -> None:
    assert len(collection.search("torque", top_k=2)) == 2


def test_source_glob_filters_before_top_k(collection: groundkit.Collection) -> None:
    hits = collection.search("torque", top_k=1, source="*/guides/*")
    assert [Path(h.citation.source).name for h in hits] == ["torque.md"]


def test_metadata_equality_filters_records(collection: groundkit.Collection) -> None:
    assert [h.citation.external_id for h in collection.search("torque", where={"lang": "en"})] == [
        "r2"
    ]
    assert [h.citation.external_id for h in collection.search("torque", where={"rev": 2})] == ["r1"]
    assert collection.search("torque", where={"lang": "de"}) == []


def test_a_snippet_shows_the_matching_words(tmp_path: Path) -> None:
    long_text = "filler words here. " * 40 + "The zephyr valve is critical. " + "more filler. " * 40
    (tmp_path / "long.txt").write_text(long_text)
    with groundkit.open_collection("s", index_dir=tmp_path / "index") as coll:
        coll.ingest([str(tmp_path / "long.txt")])
        hit = coll.search("zephyr")[0]
    assert "zephyr" in hit.snippet
    assert len(hit.snippet) <= coll.settings.search.snippet_chars + 2


@pytest.mark.parametrize("top_k", [0, -1])
def test_a_top_k_below_one_is_a_usage_error(collection: groundkit.Collection, top_k: int) -> None:
    with pytest.raises(GroundkitError) as err:
        collection.search("torque", top_k=top_k)
    assert err.value.code == ErrorCode.INVALID_QUERY


@pytest.mark.parametrize("query", ["", "   ", "x" * 10_001])
def test_an_empty_or_huge_query_is_a_usage_error(
    collection: groundkit.Collection, query: str
) -> None:
    with pytest.raises(GroundkitError) as err:
        collection.search(query)
    assert err.value.code == ErrorCode.INVALID_QUERY


def test_a_query_of_only_stopwords_finds_nothing_rather_than_everything(
    collection: groundkit.Collection,
) -> None:
    assert collection.search("the and of") == []


def test_a_collection_that_does_not_exist_is_not_found(tmp_path: Path) -> None:
    with pytest.raises(GroundkitError) as err:
        groundkit.open_collection("nope", index_dir=tmp_path, create=False)
    assert err.value.code == ErrorCode.COLLECTION_NOT_FOUND


@pytest.mark.parametrize("name", ["../escape", "a/b", "", ".hidden", "x" * 65])
def test_a_collection_name_cannot_leave_the_index_dir(tmp_path: Path, name: str) -> None:
    with pytest.raises(GroundkitError) as err:
        groundkit.open_collection(name, index_dir=tmp_path)
    assert err.value.code == ErrorCode.INVALID_NAME


@pytest.mark.parametrize(
    ("stored", "given", "matches"),
    [
        ("2020", "2020", True),
        (2020, "2020", True),
        (2020, 2020, True),
        ("2020", 2020, False),
        (True, "true", True),
        (False, "true", False),
        (1.5, "1.5", True),
        ("en", "en", True),
        ("en", "fr", False),
    ],
)
def test_a_text_filter_value_matches_the_stored_value_spelled_that_way(
    tmp_path: Path, stored: object, given: object, matches: bool
) -> None:
    import json

    record = {"id": "r", "text": "Torque specs.", "metadata": {"k": stored}}
    (tmp_path / "r.jsonl").write_text(json.dumps(record) + "\n")
    with groundkit.open_collection("w", index_dir=tmp_path / "index") as coll:
        coll.ingest([str(tmp_path / "r.jsonl")])
        assert bool(coll.search("torque", where={"k": given})) is matches


def test_auto_reaching_the_search_core_is_a_usage_error_not_a_crash(
    collection: groundkit.Collection,
) -> None:
    from groundkit.retrieve.search import SearchRequest, run_search

    request = SearchRequest(query="torque", top_k=3, mode="auto")  # type: ignore[arg-type]
    with pytest.raises(GroundkitError) as caught:
        run_search(
            request,
            collection="t",
            engine=collection._backend.engine,
            embedder=None,
        )
    assert caught.value.code == ErrorCode.USAGE


def test_the_collection_resolves_auto_and_refuses_an_unknown_mode(
    collection: groundkit.Collection,
) -> None:
    assert collection.search("torque", mode="auto") == collection.search("torque", mode="bm25")
    with pytest.raises(GroundkitError) as caught:
        collection.search("torque", mode="semantic")
    assert caught.value.code == ErrorCode.USAGE


def test_the_modes_are_listed_once_for_settings_cli_rest_and_mcp() -> None:
    import click

    from groundkit.cli.search import search
    from groundkit.config import KEYS
    from groundkit.serve.models import SearchRequest as RestSearch
    from groundkit.types import SearchMode

    modes = [m.value for m in SearchMode]
    option = next(p for p in search.params if p.name == "mode")
    assert isinstance(option.type, click.Choice)
    assert list(option.type.choices) == modes
    assert KEYS["search.mode"].__origin__ is SearchMode
    assert RestSearch.model_json_schema()["$defs"]["SearchMode"]["enum"] == modes
