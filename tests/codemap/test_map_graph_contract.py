"""The ``MapGraph`` contract, passed by the map's SQLite store and by the graph held in memory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from groundkit.codemap.graph import MapGraph
from groundkit.codemap.memory import MemoryGraph
from groundkit.codemap.store import MapStore
from groundkit.testing import GraphBuilder, MakeGraph, MapGraphContract


class TestMemoryGraph(MapGraphContract):
    @pytest.fixture
    def make_graph(self) -> MakeGraph:
        def make(built: GraphBuilder) -> MemoryGraph:
            return built.memory()

        return make


class TestMapStore(MapGraphContract):
    @pytest.fixture
    def make_graph(self, tmp_path: Path) -> Iterator[MakeGraph]:
        stores: list[MapStore] = []

        def make(built: GraphBuilder) -> MapGraph:
            store = MapStore(tmp_path / f"{len(stores)}.sqlite")
            stores.append(store)
            built.write(store)
            return store

        yield make
        for store in stores:
            store.close()
