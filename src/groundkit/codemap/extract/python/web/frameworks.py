"""Which objects are web frameworks' and HTTP clients': known by the package they come from and
the class's name there, never by a variable's name."""

from __future__ import annotations

__all__ = ["CLIENTS", "DRF_ROUTERS", "METHODS", "ROUTERS", "role_of"]

METHODS = frozenset("get post put patch delete head options trace".split())
# (package, class name) -> (is an app, the keyword naming its own prefix)
ROUTERS: dict[tuple[str, str], tuple[bool, str | None]] = {
    ("fastapi", "FastAPI"): (True, None),
    ("fastapi", "APIRouter"): (False, "prefix"),
    ("starlette", "Starlette"): (True, None),
    ("starlette", "Router"): (False, None),
    ("flask", "Flask"): (True, None),
    ("flask", "Blueprint"): (False, "url_prefix"),
    ("rest_framework", "DefaultRouter"): (False, None),
    ("rest_framework", "SimpleRouter"): (False, None),
}
DRF_ROUTERS = frozenset({("rest_framework", "DefaultRouter"), ("rest_framework", "SimpleRouter")})
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


def role_of(name: str | None) -> tuple[str, str] | None:
    """A framework object's (package, class name), from its dotted name."""
    if not name:
        return None
    parts = name.split(".")
    return parts[0], parts[-1]
