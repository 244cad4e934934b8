"""Which objects are web frameworks' and HTTP clients': known by the package they come from and
the class's name there, never by a variable's name."""

from __future__ import annotations

from typing import Any

from groundkit.codemap.extract.python.values import ExtInst, Inst, Value

__all__ = [
    "CLIENTS",
    "METHODS",
    "ROUTERS",
    "constructs_router",
    "role_of",
    "type_name",
]

METHODS = frozenset("get post put patch delete head options trace".split())
# (package, class name) -> (is an app, the keyword naming its own prefix)
ROUTERS: dict[tuple[str, str], tuple[bool, str | None]] = {
    ("fastapi", "FastAPI"): (True, None),
    ("fastapi", "APIRouter"): (False, "prefix"),
    ("starlette", "Starlette"): (True, None),
    ("starlette", "Router"): (False, None),
    ("flask", "Flask"): (True, None),
    ("flask", "Blueprint"): (False, "url_prefix"),
}
_ROUTER_NAMES = frozenset(name for _, name in ROUTERS)
CLIENTS = frozenset(
    {
        ("requests", "Session"),
        ("requests", "session"),
        ("httpx", "Client"),
        ("httpx", "AsyncClient"),
        ("aiohttp", "ClientSession"),
        ("starlette", "TestClient"),
        ("fastapi", "TestClient"),
    }
)


def type_name(value: Value) -> str | None:
    if isinstance(value, ExtInst):
        return value.name
    if isinstance(value, Inst):
        return value.cls.dotted
    return None


def role_of(name: str | None) -> tuple[str, str] | None:
    if not name:
        return None
    parts = name.split(".")
    return parts[0], parts[-1]


def constructs_router(value: list[Any]) -> bool:
    """A binding that may hold an app or router: a call of a name such as ``APIRouter``."""
    base, rest = value[0], value[1]
    if base[0] != "name" or not rest or rest[-1] != "()":
        return False
    name = rest[-2] if len(rest) >= 2 else base[1]
    return name in _ROUTER_NAMES
