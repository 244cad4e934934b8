"""What the parts of ``WebFacts`` share: the file being resolved, the routers, mounts, routes
and HTTP calls found in it so far.

Each part (``routers.py``, ``clients.py``, ``urlconfs.py``, ``arguments.py``) is a mixin over
``WebState``; ``WebFacts`` puts them together. The methods one part calls on another are
declared here, so that each part type-checks alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from groundkit.codemap.extract.base import FileGraph
from groundkit.codemap.extract.python.evaluate import Evaluator
from groundkit.codemap.routes import HttpCallSite, Mount, RouteDecl, RouterDef

if TYPE_CHECKING:
    from groundkit.codemap.extract.python.graph import _FileResolver
    from groundkit.codemap.extract.python.values import ExtInst
    from groundkit.codemap.model import Location, NodeKey, Provenance

__all__ = ["WebState"]


class WebState:
    """The file, its resolver and evaluator, and what has been found in it."""

    def __init__(self, evaluator: Evaluator, path: str, owner: _FileResolver) -> None:
        self.ev = evaluator
        self.path = path
        self.owner = owner
        self.module = evaluator.module_name(path)
        self.routers_found: list[RouterDef] = []
        self.mounts: list[Mount] = []
        self.routes: list[RouteDecl] = []
        self.http: list[HttpCallSite] = []
        self.external_handlers: set[str] = set()

    if TYPE_CHECKING:
        # Implemented by the parts: arguments.py, clients.py and routers.py.
        def _literal(self, summary: Any, scope: tuple[str, tuple[Any, ...]]) -> str | None: ...
        def _pieces(
            self, summary: Any, scope: tuple[str, tuple[Any, ...]]
        ) -> list[str | None] | None: ...
        def _methods(
            self, attr: str, keywords: dict[str, Any], scope: tuple[str, tuple[Any, ...]]
        ) -> tuple[str, ...]: ...
        def _handler(self, summary: Any, scope: tuple[str, tuple[Any, ...]]) -> NodeKey | None: ...
        def _object(self, summary: Any, scope: tuple[str, tuple[Any, ...]]) -> str | None: ...
        def _client_call(
            self,
            receiver: ExtInst,
            attr: str,
            call: list[Any],
            scope: tuple[str, tuple[Any, ...]],
            caller: NodeKey,
            where: Location,
        ) -> None: ...
        def _module_function(
            self,
            name: str,
            call: list[Any],
            scope: tuple[str, tuple[Any, ...]],
            caller: NodeKey,
            where: Location,
        ) -> None: ...
        def _route(
            self,
            router: str,
            methods: tuple[str, ...],
            path: str,
            handler: NodeKey,
            provenance: Provenance,
            where: Location,
        ) -> None: ...

    def finish(self, graph: FileGraph) -> None:
        for name in sorted(self.external_handlers):
            self.owner.external(name)
        graph.routers = self.routers_found
        graph.mounts = self.mounts
        graph.routes = self.routes
        graph.http_calls = self.http
