"""`grk` end to end, in process: exit statuses, JSON outputs, and citations that re-check."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import groundkit
from grk_runner import Grk
from groundkit.cli.main import main

CITATION_KEYS = (
    "collection",
    "document_id",
    "external_id",
    "chunk_id",
    "source",
    "location",
    "start",
    "end",
    "line",
    "end_line",
)
HIT_KEYS = {
    *CITATION_KEYS,
    *("rank", "score", "snippet", "text", "metadata", "ranks", "folded", "folded_hits"),
}


@pytest.fixture
def grk(index_dir: Path, capsys: pytest.CaptureFixture[str]) -> Grk:
    return Grk(index_dir, capsys)


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    (root / "guides").mkdir(parents=True)
    (root / "a.md").write_text(
        "# Wombats\n\nThe wombat digs long burrows with its strong claws.\n\n"
        "## Diet\n\nA wombat eats grasses, roots and bark \u2014 and the odd caf\u00e9 crumb.\n",
        encoding="utf-8",
    )
    (root / "guides" / "b.txt").write_text(
        "A guide to echidnas: the echidna lays an egg, like the platypus.\n", encoding="utf-8"
    )
    (root / "notes.txt").write_text(
        "Field notes \U0001f43e: the title of this note mentions foo and bar, unbalanced.\n",
        encoding="utf-8",
    )
    return root


@pytest.fixture
def ingested(grk: Grk, docs: Path) -> Path:
    assert grk("ingest", "--quiet", str(docs)) == 0, grk.err
    return docs


def test_ingest_then_search_prints_the_hits(grk: Grk, docs: Path) -> None:
    assert grk("ingest", str(docs)) == 0
    assert grk("search", "echidna") == 0

    assert "guides/b.txt" in grk.out  # shown relative to the folder ingested
    assert "a.md" not in grk.out


def test_ingest_json_reports_what_it_did(grk: Grk, docs: Path) -> None:
    assert grk.json("ingest", str(docs)) == {
        "new": 3,
        "changed": 0,
        "unchanged": 0,
        "removed": 0,
        "skipped": [],
        "passed_over": [],
        "ignored": 0,
        "chunks_written": 3,
        "chunks_embedded": 0,
        "chunks_split": 0,
    }
    assert grk.json("ingest", str(docs))["unchanged"] == 3


def test_search_finds_nothing_and_still_succeeds(grk: Grk, ingested: Path) -> None:
    assert grk.json("search", "kookaburra") == {
        "hits": [],
        "missing_vectors": 0,
        "no_searchable_words": False,
        "pending": 0,
    }
    assert grk("search", "kookaburra") == 0


def test_every_json_hit_is_its_citation_slice_of_the_stored_text(
    grk: Grk, ingested: Path, index_dir: Path
) -> None:
    hits = grk.json("search", "wombat echidna title caf\u00e9")["hits"]

    assert {h["source"] for h in hits} == {
        "a.md",
        "guides/b.txt",
        "notes.txt",
    }
    with groundkit.open_collection(index_dir=index_dir, create=False) as collection:
        for rank, hit in enumerate(hits, start=1):
            assert set(hit) == HIT_KEYS
            assert hit["rank"] == rank
            assert hit["collection"] == "default"
            resolved = collection.show(hit["chunk_id"])
            assert resolved.text == hit["text"]
            assert len(hit["text"]) == hit["end"] - hit["start"]
            citation = {k: hit[k] for k in CITATION_KEYS}
            assert resolved.citation.to_dict() == citation


def test_search_options_limit_and_filter_the_hits(grk: Grk, ingested: Path) -> None:
    everything = grk.json("search", "wombat echidna title")["hits"]
    top = grk.json("search", "-k", "1", "wombat echidna title")["hits"]
    guides = grk.json("search", "--source", "*/guides/*", "wombat echidna title")["hits"]

    assert len(everything) == 3
    assert top == everything[:1]
    assert [h["source"] for h in guides] == ["guides/b.txt"]


def test_search_where_filters_on_record_metadata(grk: Grk, tmp_path: Path) -> None:
    records = tmp_path / "r.jsonl"
    records.write_text(
        '{"id": "1", "text": "the glider", "metadata": {"lang": "en", "year": 2020}}\n'
        '{"id": "2", "text": "the glider", "metadata": {"lang": "de", "year": 2021}}\n',
        encoding="utf-8",
    )
    assert grk("ingest", str(records)) == 0

    by_lang = grk.json("search", "--where", "lang=en", "glider")["hits"]
    by_year = grk.json("search", "--where", "year=2021", "glider")["hits"]

    assert [h["external_id"] for h in by_lang] == ["1"]
    assert [h["external_id"] for h in by_year] == ["2"]
    assert grk.error("search", "--where", "no-equals-sign", "glider") == (2, "usage")


def test_show_verifies_then_reports_drift_then_a_missing_source(grk: Grk, ingested: Path) -> None:
    [hit] = grk.json("search", "echidna")["hits"]
    source = Path(hit["location"])

    verified = grk.json("show", hit["chunk_id"])
    source.write_text("Someone rewrote the echidna guide.\n", encoding="utf-8")
    drifted = grk.json("show", hit["chunk_id"])
    source.unlink()
    missing = grk.json("show", hit["chunk_id"])

    assert verified["verification"] == "verified"
    assert verified["text"] == hit["text"]
    assert drifted["verification"] == "drifted"
    assert drifted["text"] == hit["text"]  # what was cited, read from the store
    assert missing["verification"] == "missing"
    assert missing["text"] == hit["text"]


def test_show_of_an_unknown_chunk_fails_with_chunk_not_found(grk: Grk, ingested: Path) -> None:
    assert grk.error("show", "c0000000000000000") == (2, "chunk.not_found")


def test_a_record_citation_drifts_only_when_its_own_line_changes(grk: Grk, tmp_path: Path) -> None:
    records = tmp_path / "r.jsonl"
    records.write_text(
        '{"id": "a", "text": "the antechinus"}\n{"id": "b", "text": "the phascogale"}\n',
        encoding="utf-8",
    )
    grk("ingest", str(records))
    [hit] = grk.json("search", "antechinus")["hits"]

    records.write_text(
        '{"id": "a", "text": "the antechinus"}\n{"id": "b", "text": "the dibbler"}\n',
        encoding="utf-8",
    )
    unaffected = grk.json("show", hit["chunk_id"])["verification"]
    records.write_text('{"id": "b", "text": "the dibbler"}\n', encoding="utf-8")
    gone = grk.json("show", hit["chunk_id"])["verification"]

    assert (unaffected, gone) == ("verified", "missing")


@pytest.mark.parametrize(
    "query", ["title:(x", "foo AND (bar", '"unbalanced', "a:b:c -", "*", "bar)", "foo^2 ~1"]
)
def test_query_syntax_characters_are_searched_as_plain_words(
    query: str, grk: Grk, ingested: Path
) -> None:
    status = grk("search", "--json", query)

    assert status == 0, grk.out
    sources = {h["source"] for h in json.loads(grk.out)["hits"]}
    assert sources <= {"notes.txt"}


def test_a_query_of_syntax_finds_the_words_in_it(grk: Grk, ingested: Path) -> None:
    for query in ("title:(x", "foo AND (bar", '"unbalanced'):
        hits = grk.json("search", query)["hits"]
        assert [h["source"] for h in hits] == ["notes.txt"]


def test_batch_queries_print_one_json_line_per_query(
    grk: Grk, ingested: Path, tmp_path: Path
) -> None:
    queries = tmp_path / "q.jsonl"
    queries.write_text(
        '{"id": "q1", "text": "wombat burrows"}\n'
        "\n"
        '{"_id": 7, "text": "echidna egg"}\n'
        '{"id": "q3", "text": "kookaburra"}\n',
        encoding="utf-8",
    )

    assert grk("search", "--queries", str(queries), "--json") == 0
    lines = [json.loads(line) for line in grk.out.splitlines()]

    assert [line["query_id"] for line in lines] == ["q1", "7", "q3"]
    assert all(
        set(line) == {"query_id", "hits", "missing_vectors", "no_searchable_words", "pending"}
        for line in lines
    )
    assert [h["source"] for h in lines[0]["hits"]] == ["a.md"]
    assert [h["source"] for h in lines[1]["hits"]] == ["guides/b.txt"]
    assert lines[2]["hits"] == []
    single = grk.json("search", "echidna egg")
    assert {k: v for k, v in lines[1].items() if k != "query_id"} == single


def test_a_bad_batch_query_line_is_a_usage_error(grk: Grk, ingested: Path, tmp_path: Path) -> None:
    queries = tmp_path / "q.jsonl"
    queries.write_text('{"text": "no id"}\n', encoding="utf-8")

    assert grk.error("search", "--queries", str(queries)) == (2, "usage")
    assert grk.error("search", "--queries", str(tmp_path / "missing.jsonl")) == (2, "usage")


def test_collections_lists_every_collection(grk: Grk, docs: Path) -> None:
    assert grk.json("collections") == {"collections": []}
    grk("ingest", str(docs))
    grk("-c", "second", "ingest", str(docs / "a.md"))

    assert grk.json("collections") == {"collections": ["default", "second"]}
    assert grk("collections") == 0
    assert grk.out.split() == ["default", "second"]


def test_collections_with_none_says_so_and_how_to_make_one(grk: Grk) -> None:
    assert grk("collections") == 0
    assert grk.out.startswith("no collections yet in ")
    assert "grk ingest PATH" in grk.out


def test_status_json_counts_documents_and_chunks(grk: Grk, ingested: Path) -> None:
    status = grk.json("status")

    assert status["collection"] == "default"
    assert status["documents"] == 3
    assert status["chunks"] == status["lexical_chunks"] == 3
    assert status["pending"] == 0
    assert status["formats"] == {"markdown": 1, "text": 2}
    assert status["size_bytes"] > 0


def test_delete_a_document_by_path_removes_its_hits(grk: Grk, ingested: Path) -> None:
    [hit] = grk.json("search", "echidna")["hits"]

    assert grk.json("delete", "docs/guides/b.txt") == {"deleted_document": hit["document_id"]}
    assert grk.json("search", "echidna")["hits"] == []
    assert grk.json("status")["documents"] == 2
    assert grk.error("delete", "docs/guides/b.txt") == (2, "document.not_found")


def test_delete_a_document_by_id_or_absolute_path(grk: Grk, ingested: Path) -> None:
    [hit] = grk.json("search", "echidna")["hits"]

    assert grk("delete", hit["document_id"]) == 0
    assert grk("delete", str(ingested / "a.md")) == 0
    assert grk.json("status")["documents"] == 1


def test_delete_by_an_external_id_that_two_files_share_deletes_nothing(
    grk: Grk, tmp_path: Path
) -> None:
    (tmp_path / "a.jsonl").write_text('{"id": "1", "text": "the quoll"}\n', encoding="utf-8")
    (tmp_path / "b.jsonl").write_text('{"id": "1", "text": "the quoll"}\n', encoding="utf-8")
    grk("ingest", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl"))

    status = grk("delete", "1")

    assert grk.json("status")["documents"] == 2
    assert status == 2


def test_delete_all_removes_the_collection_folder(
    grk: Grk, ingested: Path, index_dir: Path
) -> None:
    assert (index_dir / "default").is_dir()

    assert grk.json("delete", "--all", "--yes") == {"deleted_collection": "default"}
    assert not (index_dir / "default").exists()
    assert grk.json("collections") == {"collections": []}
    assert grk.error("search", "wombat") == (2, "collection.not_found")


def test_delete_needs_a_document_or_all_but_not_both(grk: Grk, ingested: Path) -> None:
    assert grk.error("delete") == (2, "usage")
    assert grk.error("delete", "--all", "docs/a.md") == (2, "usage")
    assert (grk.index_dir / "default").is_dir()


def test_reindex_rebuilds_and_search_still_works(grk: Grk, ingested: Path) -> None:
    before = grk.json("search", "wombat")

    assert grk.json("reindex") == {"chunks_indexed": 3}
    assert grk.json("search", "wombat") == before
    status = grk.json("status")
    assert status["lexical_chunks"] == status["chunks"] == 3


def test_an_unknown_collection_is_a_usage_error_creating_nothing(grk: Grk, ingested: Path) -> None:
    for command in (["search", "wombat"], ["status"], ["show", "c1"], ["reindex"]):
        assert grk.error("-c", "nope", *command) == (2, "collection.not_found")
    assert grk.error("-c", "nope", "delete", "--all") == (2, "collection.not_found")
    assert not (grk.index_dir / "nope").exists()


def test_an_invalid_collection_name_is_a_usage_error(grk: Grk, docs: Path) -> None:
    assert grk.error("-c", "../escape", "ingest", str(docs)) == (2, "usage.invalid_name")
    assert not (grk.index_dir.parent / "escape").exists()


def test_search_without_a_query_is_a_usage_error(grk: Grk, ingested: Path) -> None:
    assert grk("search") == 2
    assert grk.out == ""
    assert grk.err  # said on stderr
    assert grk.error("search") == (2, "usage")
    assert grk.error("search", "   ") == (2, "usage.invalid_query")


def test_json_failures_print_an_error_object_on_stdout(grk: Grk) -> None:
    assert grk("status", "--json") == 2

    assert set(json.loads(grk.out)) == {"error"}
    assert json.loads(grk.out)["error"]["code"] == "collection.not_found"
    assert json.loads(grk.out)["error"]["message"]


def test_click_usage_errors_are_usage_errors_too(grk: Grk) -> None:
    assert grk.error("show") == (2, "usage")  # missing CHUNK_ID
    assert grk.error("search", "-k", "many", "x") == (2, "usage")
    assert grk.error("frobnicate") == (2, "usage")


def test_an_out_of_range_flag_is_a_config_error(grk: Grk, docs: Path) -> None:
    assert grk.error("ingest", "--chunk-size", "10", str(docs)) == (2, "config.invalid_value")
    assert grk.error("search", "-k", "0", "x") == (2, "config.invalid_value")


def test_ingest_chunk_size_flag_re_chunks(
    grk: Grk, ingested: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GRK_CHUNK_MIN_SIZE", "0")
    report = grk.json("ingest", "--chunk-size", "60", str(ingested))

    assert report["changed"] == 3
    assert report["chunks_written"] > 3
    assert grk.json("status")["chunks"] == report["chunks_written"]


# -- configuration -----------------------------------------------------------------------------


def config_show(grk: Grk, *flags: str) -> dict[str, tuple[Any, str]]:
    shown = grk.json(*flags, "config", "show")
    return {key: (row["value"], row["source"]) for key, row in shown.items()}


def test_config_show_lists_every_key_with_its_default(grk: Grk) -> None:
    shown = config_show(grk)

    assert shown["chunk.size"] == (1000, "default")
    assert shown["search.top_k"] == (10, "default")
    assert shown["ingest.url_timeout_s"] == (20.0, "default")
    assert shown["index_dir"] == (str(grk.index_dir), "flag")  # the fixture passes --index-dir
    assert set(shown) == {
        "index_dir",
        "collection",
        "chunk.size",
        "chunk.min_size",
        "ingest.max_file_bytes",
        "ingest.helpers",
        "ingest.url_max_bytes",
        "ingest.url_timeout_s",
        "ingest.dense",
        "ingest.sentences",
        "search.top_k",
        "search.snippet_chars",
        "search.mode",
        "search.rrf_k",
        "search.candidates",
        "search.min_similarity",
        "search.rerank",
        "search.collapse",
        "search.ann_threshold",
        "embed.provider",
        "embed.model",
        "embed.runtime",
        "embed.query_prefix",
        "embed.document_prefix",
        "embed.base_url",
        "embed.api_key_env",
        "embed.batch_size",
        "embed.timeout_s",
        "rerank.model",
        "rerank.top_n",
        "answer.max_bundle_bytes",
        "answer.redact_patterns",
        "answer.redact_names",
        "answer.min_quote_chars",
        "profiles",
        "collections",
        "serve.host",
        "serve.port",
        "serve.secret_env",
        "serve.public_host",
        "serve.max_body_bytes",
        "serve.max_concurrent",
        "serve.ingest_roots",
        "codemap.max_file_bytes",
        "codemap.parse_seconds",
    }
    assert grk("config", "show") == 0
    assert "chunk.size" in grk.out


def test_config_precedence_is_file_then_env_then_flag(
    grk: Grk, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "grk.toml").write_text(
        'collection = "from-file"\n[chunk]\nsize = 800\n[search]\ntop_k = 3\n', encoding="utf-8"
    )
    from_file = config_show(grk)
    monkeypatch.setenv("GRK_COLLECTION", "from-env")
    monkeypatch.setenv("GRK_SEARCH_TOP_K", "4")
    from_env = config_show(grk)
    from_flag = config_show(grk, "-c", "from-flag")

    assert from_file["collection"] == ("from-file", "grk.toml")
    assert from_file["chunk.size"] == (800, "grk.toml")
    assert from_file["search.top_k"] == (3, "grk.toml")
    assert from_env["collection"] == ("from-env", "env GRK_COLLECTION")
    assert from_env["search.top_k"] == (4, "env GRK_SEARCH_TOP_K")
    assert from_env["chunk.size"] == (800, "grk.toml")
    assert from_flag["collection"] == ("from-flag", "flag")
    assert from_flag["search.top_k"] == (4, "env GRK_SEARCH_TOP_K")


def test_settings_from_config_change_what_commands_do(
    grk: Grk, docs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "grk.toml").write_text('collection = "zoo"\n', encoding="utf-8")
    grk("ingest", str(docs))
    monkeypatch.setenv("GRK_SEARCH_TOP_K", "1")

    assert grk.json("collections") == {"collections": ["zoo"]}
    assert len(grk.json("search", "wombat echidna title")["hits"]) == 1


def test_config_flag_names_another_file(grk: Grk, tmp_path: Path) -> None:
    other = tmp_path / "conf" / "other.toml"
    other.parent.mkdir()
    other.write_text("[chunk]\nsize = 600\n", encoding="utf-8")

    shown = config_show(grk, "--config", str(other))

    assert shown["chunk.size"] == (600, "other.toml")
    assert grk.error("--config", str(tmp_path / "nope.toml"), "config", "show") == (
        2,
        "config.unreadable_file",
    )


def test_an_unknown_key_in_grk_toml_is_a_usage_error(grk: Grk, tmp_path: Path, docs: Path) -> None:
    (tmp_path / "grk.toml").write_text("[chunk]\nsizes = 800\n", encoding="utf-8")

    assert grk.error("config", "show") == (2, "config.unknown_key")
    assert grk.error("ingest", str(docs)) == (2, "config.unknown_key")
    assert not grk.index_dir.exists()


def test_an_unknown_grk_environment_variable_is_a_usage_error(
    grk: Grk, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GRK_FOO", "1")

    assert grk.error("config", "show") == (2, "config.unknown_key")
    assert grk("config", "show") == 2
    assert grk.err


def test_a_wrongly_typed_value_in_grk_toml_is_a_usage_error(grk: Grk, tmp_path: Path) -> None:
    (tmp_path / "grk.toml").write_text('[chunk]\nsize = "800"\n', encoding="utf-8")

    assert grk.error("config", "show") == (2, "config.invalid_value")


def test_a_small_chunk_size_flag_works_with_the_default_min_size(grk: Grk, docs: Path) -> None:
    assert grk("ingest", "--chunk-size", "100", str(docs)) == 0


def test_global_options_also_work_after_the_command_name_and_win_there(
    grk: Grk, docs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert grk("ingest", "--quiet", "--collection", "notes", str(docs)) == 0
    assert grk.json("collections") == {"collections": ["notes"]}
    # The group-level flag names a collection that does not exist; the command-level one wins.
    status = main(
        ["--index-dir", str(grk.index_dir), "-c", "nope", "status", "--json", "-c", "notes"]
    )
    assert status == 0
    assert json.loads(capsys.readouterr().out)["collection"] == "notes"


def test_ingest_draws_no_progress_bar_when_stderr_is_not_a_terminal(grk: Grk, docs: Path) -> None:
    assert grk("ingest", str(docs)) == 0
    assert grk.err == ""


def test_a_bad_query_in_a_batch_gets_an_error_line_and_the_rest_are_answered(
    grk: Grk, ingested: Path, tmp_path: Path
) -> None:
    queries = tmp_path / "q.jsonl"
    queries.write_text(
        '{"id": "q1", "text": "wallaroo"}\n{"id": "q2", "text": "   "}\n{"id": "q3", "text": "x"}\n'
    )

    assert grk("search", "--queries", str(queries), "--json") == 3

    lines = [json.loads(line) for line in grk.out.splitlines()]
    assert [line["query_id"] for line in lines] == ["q1", "q2", "q3"]
    assert lines[1]["error"]["code"] == "usage.invalid_query"
    assert "hits" in lines[0]
    assert "hits" in lines[2]


def test_a_missing_queries_file_is_a_usage_error(grk: Grk, ingested: Path, tmp_path: Path) -> None:
    assert grk("search", "--queries", str(tmp_path / "nope.jsonl"), "--json") == 2
    assert json.loads(grk.out)["error"]["code"] == "usage"


def test_an_unexpected_failure_still_answers_with_a_json_error_and_status_1(
    grk: Grk, ingested: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("secret document text must not leak")

    monkeypatch.setattr(groundkit.Collection, "searched", broken)

    assert grk("search", "wallaroo", "--json") == 1
    assert json.loads(grk.out) == {
        "error": {
            "code": "internal",
            "message": "internal error (RuntimeError)",
            "hint": "this is a bug in groundkit; please report it with the command you ran",
        }
    }
    assert "secret" not in grk.out + grk.err


def test_query_bytes_that_are_not_utf8_are_refused_as_that_query_not_a_crash(
    grk: Grk, ingested: Path, tmp_path: Path
) -> None:
    # Python hands a command line's non-UTF-8 bytes over as lone surrogates ($'cell \xff').
    assert grk.error("search", "wombat \udcff burrow") == (2, "usage.invalid_query")
    assert grk.error("show", "c\udcff") == (2, "usage")
    assert grk.error("delete", "d\udcff") == (2, "usage")
    queries = tmp_path / "q.jsonl"
    queries.write_text(
        '{"id": "1", "text": "wombat"}\n{"id": "2", "text": "bad \\ud800 one"}\n'
        '{"id": "3", "text": "echidna"}\n'
    )
    assert grk("search", "--queries", str(queries), "--json") == 3
    lines = [json.loads(line) for line in grk.out.splitlines()]
    assert [line["query_id"] for line in lines] == ["1", "2", "3"]
    assert lines[1]["error"]["code"] == "usage.invalid_query"
    assert lines[0]["hits"]
    assert lines[2]["hits"]


@pytest.mark.parametrize("special", ["/dev/zero", "fifo"])
def test_a_config_or_queries_file_that_is_not_a_regular_file_is_a_usage_error_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], special: str
) -> None:
    # Before: MemoryError, "internal error ... this is a bug" (a FIFO: a hang).
    path = special
    if special == "fifo":
        path = str(tmp_path / "fifo")
        os.mkfifo(path)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nalpha text\n")
    index = str(tmp_path / "idx")
    assert main(["--index-dir", index, "ingest", str(docs), "-q"]) == 0
    capsys.readouterr()
    assert main(["--config", path, "--index-dir", index, "status", "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "config.unreadable_file"
    assert main(["--index-dir", index, "search", "--queries", path, "--json"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["code"] == "usage"
    assert "not a regular file" in error["message"]


def test_a_config_file_over_the_cap_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = tmp_path / "grk.toml"
    big.write_text("# " + "x" * 1_000_001 + "\n")
    assert main(["--config", str(big), "--index-dir", str(tmp_path / "i"), "status", "--json"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert (error["code"], "larger than" in error["message"]) == ("config.unreadable_file", True)


@pytest.mark.parametrize("command", [["ingest", "DOCS"], ["map", "DOCS"]])
def test_an_index_dir_that_is_a_file_is_a_set_up_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    # Before: `--index-dir /dev/null` exited 1 (store.failed), and `map` was an internal error.
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "m.py").write_text("def f():\n    return 1\n")
    args = [str(docs) if a == "DOCS" else a for a in command]
    assert main(["--index-dir", "/dev/null", *args, "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "config.invalid_value"
