from pathlib import Path

from groundkit.codemap.store import LARGE_MAP_FILES, MapStore


def _cache_size(store: MapStore) -> int:
    return int(store._conn.execute("PRAGMA cache_size").fetchone()[0])


def test_a_large_run_writes_with_a_larger_page_cache_and_gives_it_back(tmp_path: Path) -> None:
    store = MapStore(tmp_path / "map.sqlite")
    default = _cache_size(store)
    with store.page_cache(LARGE_MAP_FILES), store.transaction():
        during = _cache_size(store)
    assert default < 0  # (a negative size is KiB)
    assert during < 16 * default
    assert _cache_size(store) == default
    store.close()


def test_a_small_run_keeps_the_default_page_cache(tmp_path: Path) -> None:
    store = MapStore(tmp_path / "map.sqlite")
    default = _cache_size(store)
    with store.page_cache(LARGE_MAP_FILES - 1), store.transaction():
        assert _cache_size(store) == default
    store.close()
