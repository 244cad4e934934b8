"""The settings loader: defaults < grk.toml < GRK_* < flags, and every mistake named."""

from __future__ import annotations

from pathlib import Path

import pytest

from groundkit import ErrorCode, Settings
from groundkit.config import load
from groundkit.errors import ConfigError


def toml(tmp_path: Path, text: str, name: str = "grk.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def config_error(**kwargs: object) -> ErrorCode:
    with pytest.raises(ConfigError) as caught:
        load(**kwargs)  # type: ignore[arg-type]
    return caught.value.code


def test_without_any_layer_every_setting_is_its_default() -> None:
    loaded = load(environ={})

    assert loaded.settings == Settings()
    assert set(loaded.sources.values()) == {"default"}
    assert [key for key, _, _ in loaded.rows()] == list(loaded.sources)
    assert ("chunk.size", 1000, "default") in loaded.rows()


def test_grk_toml_in_the_working_directory_is_read(tmp_path: Path) -> None:
    toml(tmp_path, 'index_dir = "idx"\n[chunk]\nsize = 800\nmin_size = 100\n')

    loaded = load(environ={})

    assert loaded.settings.index_dir == "idx"
    assert (loaded.settings.chunk.size, loaded.settings.chunk.min_size) == (800, 100)
    assert loaded.sources["chunk.size"] == "grk.toml"
    assert loaded.sources["search.top_k"] == "default"


def test_dotted_keys_in_toml_work_like_tables(tmp_path: Path) -> None:
    toml(tmp_path, "search.top_k = 7\n")

    assert load(environ={}).settings.search.top_k == 7


def test_each_layer_overrides_the_one_before(tmp_path: Path) -> None:
    toml(tmp_path, "[chunk]\nsize = 800\n[search]\ntop_k = 3\nsnippet_chars = 100\n")
    env = {"GRK_CHUNK_SIZE": "900", "GRK_SEARCH_TOP_K": "4"}

    loaded = load({"chunk.size": 950}, environ=env)

    assert loaded.settings.chunk.size == 950
    assert loaded.settings.search.top_k == 4
    assert loaded.settings.search.snippet_chars == 100
    assert loaded.sources["chunk.size"] == "flag"
    assert loaded.sources["search.top_k"] == "env GRK_SEARCH_TOP_K"
    assert loaded.sources["search.snippet_chars"] == "grk.toml"
    assert loaded.sources["chunk.min_size"] == "default"


def test_a_flag_left_unset_does_not_override(tmp_path: Path) -> None:
    loaded = load({"chunk.size": None, "collection": None}, environ={"GRK_COLLECTION": "notes"})

    assert loaded.settings.collection == "notes"
    assert loaded.sources["chunk.size"] == "default"


def test_environment_values_are_parsed_from_strings() -> None:
    loaded = load(environ={"GRK_INGEST_URL_TIMEOUT_S": "2.5", "GRK_INGEST_MAX_FILE_BYTES": "1000"})

    assert loaded.settings.ingest.url_timeout_s == 2.5
    assert loaded.settings.ingest.max_file_bytes == 1000


def test_the_process_environment_is_read_when_none_is_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GRK_SEARCH_SNIPPET_CHARS", "400")

    assert load().settings.search.snippet_chars == 400


def test_an_integer_in_toml_is_accepted_for_a_float_setting(tmp_path: Path) -> None:
    toml(tmp_path, "[ingest]\nurl_timeout_s = 30\n")

    timeout = load(environ={}).settings.ingest.url_timeout_s

    assert timeout == 30.0
    assert isinstance(timeout, float)


# -- unknown keys -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "colection = 'x'\n",
        "[chunk]\nsizes = 800\n",
        "[chunks]\nsize = 800\n",
        "[search.extra]\ndepth = 1\n",
    ],
)
def test_an_unknown_key_in_grk_toml_is_refused(text: str, tmp_path: Path) -> None:
    toml(tmp_path, text)

    assert config_error(environ={}) == ErrorCode.CONFIG_UNKNOWN_KEY


def test_an_unknown_grk_environment_variable_is_refused() -> None:
    assert config_error(environ={"GRK_FOO": "1"}) == ErrorCode.CONFIG_UNKNOWN_KEY
    assert config_error(environ={"GRK_CHUNK_SIZES": "1"}) == ErrorCode.CONFIG_UNKNOWN_KEY


def test_other_environment_variables_are_not_settings() -> None:
    loaded = load(environ={"HOME": "/root", "GRKX": "1", "MY_GRK_SIZE": "2"})

    assert set(loaded.sources.values()) == {"default"}


def test_an_unknown_flag_key_is_refused() -> None:
    assert config_error(flags={"chunk.sizes": 1}, environ={}) == ErrorCode.CONFIG_UNKNOWN_KEY


# -- invalid values -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        '[chunk]\nsize = "1000"\n',  # TOML is typed: a string is not a number
        "[chunk]\nsize = 1000.0\n",
        "[chunk]\nsize = true\n",
        "index_dir = 5\n",
        '[ingest]\nurl_timeout_s = "20"\n',
        "[chunk.size]\nvalue = 1000\n",  # a table where a number belongs
        "[chunk]\nsize = 10\n",  # below the minimum
        "[chunk]\nsize = 500\nmin_size = 600\n",
        "[search]\ntop_k = 0\n",
        "[ingest]\nurl_timeout_s = 601.0\n",
    ],
)
def test_an_invalid_value_in_grk_toml_is_refused(text: str, tmp_path: Path) -> None:
    toml(tmp_path, text)

    assert config_error(environ={}) == ErrorCode.CONFIG_INVALID


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("GRK_CHUNK_SIZE", "big"),
        ("GRK_CHUNK_SIZE", "1000.5"),
        ("GRK_CHUNK_SIZE", ""),
        ("GRK_CHUNK_SIZE", "49"),
        ("GRK_CHUNK_MIN_SIZE", "1001"),
        ("GRK_CHUNK_MIN_SIZE", "-1"),
        ("GRK_SEARCH_TOP_K", "1001"),
        ("GRK_INGEST_URL_TIMEOUT_S", "0"),
        ("GRK_INGEST_URL_TIMEOUT_S", "inf"),
        ("GRK_INGEST_URL_TIMEOUT_S", "nan"),
        ("GRK_INGEST_MAX_FILE_BYTES", "0"),
    ],
)
def test_an_invalid_environment_value_is_refused(name: str, value: str) -> None:
    assert config_error(environ={name: value}) == ErrorCode.CONFIG_INVALID


@pytest.mark.parametrize(
    "flags",
    [
        {"chunk.size": "1000"},
        {"chunk.size": 10},
        {"search.top_k": True},
        {"collection": 3},
    ],
)
def test_an_invalid_flag_value_is_refused(flags: dict[str, object]) -> None:
    assert config_error(flags=flags, environ={}) == ErrorCode.CONFIG_INVALID


def test_min_size_is_checked_against_the_size_from_another_layer(tmp_path: Path) -> None:
    toml(tmp_path, "[chunk]\nmin_size = 600\n")

    assert load({"chunk.size": 600}, environ={}).settings.chunk.min_size == 600
    assert config_error(flags={"chunk.size": 599}, environ={}) == ErrorCode.CONFIG_INVALID


# -- the config file itself ---------------------------------------------------------------------


def test_a_config_path_that_does_not_exist_is_a_config_error(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.toml")

    assert config_error(config_file=missing, environ={}) == ErrorCode.CONFIG_FILE
    assert config_error(environ={"GRK_CONFIG": missing}) == ErrorCode.CONFIG_FILE


def test_a_config_file_that_is_not_toml_is_a_config_error(tmp_path: Path) -> None:
    toml(tmp_path, "[chunk\nsize = \n")

    assert config_error(environ={}) == ErrorCode.CONFIG_FILE


def test_a_config_file_that_is_not_utf8_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "grk.toml").write_bytes(b'collection = "caf\xe9"\n')

    assert config_error(environ={}) == ErrorCode.CONFIG_FILE


def test_a_named_config_file_replaces_grk_toml(tmp_path: Path) -> None:
    toml(tmp_path, "[chunk]\nsize = 800\n")
    other = toml(tmp_path, "[search]\ntop_k = 2\n", name="other.toml")

    by_flag = load(config_file=str(other), environ={})
    by_env = load(environ={"GRK_CONFIG": str(other)})

    for loaded in (by_flag, by_env):
        assert loaded.settings.chunk.size == 1000  # grk.toml is not read as well
        assert loaded.settings.search.top_k == 2
        assert loaded.sources["search.top_k"] == "other.toml"


def test_the_config_flag_wins_over_grk_config(tmp_path: Path) -> None:
    flag_file = toml(tmp_path, "[search]\ntop_k = 2\n", name="flag.toml")
    env_file = toml(tmp_path, "[search]\ntop_k = 3\n", name="env.toml")

    loaded = load(config_file=str(flag_file), environ={"GRK_CONFIG": str(env_file)})

    assert loaded.settings.search.top_k == 2


def test_settings_are_frozen() -> None:
    settings = load(environ={}).settings

    with pytest.raises(AttributeError):
        settings.chunk.size = 5  # type: ignore[misc]
