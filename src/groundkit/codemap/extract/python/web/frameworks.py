"""Which objects are web frameworks' and HTTP clients': known by the package they come from and
the class's name there, never by a variable's name."""

from __future__ import annotations

__all__ = ["CLIENTS", "DRF_ROUTERS", "LIBRARY_ROUTERS", "METHODS", "ROUTERS", "role_of"]

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
# A library's method that makes a router of the library's own routes: (package, class name,
# method) -> each route as (method, path). fastapi-users 13.0 (fastapi_users/fastapi_users.py
# and fastapi_users/router/*.py: auth, register, reset, verify, users, oauth), read from its
# source; the handlers are the library's.
_OAUTH = (("GET", "/authorize"), ("GET", "/callback"))
LIBRARY_ROUTERS: dict[tuple[str, str, str], tuple[tuple[str, str], ...]] = {
    ("fastapi_users", "FastAPIUsers", "get_auth_router"): (("POST", "/login"), ("POST", "/logout")),
    ("fastapi_users", "FastAPIUsers", "get_register_router"): (("POST", "/register"),),
    ("fastapi_users", "FastAPIUsers", "get_reset_password_router"): (
        ("POST", "/forgot-password"),
        ("POST", "/reset-password"),
    ),
    ("fastapi_users", "FastAPIUsers", "get_verify_router"): (
        ("POST", "/request-verify-token"),
        ("POST", "/verify"),
    ),
    ("fastapi_users", "FastAPIUsers", "get_users_router"): (
        ("GET", "/me"),
        ("PATCH", "/me"),
        ("GET", "/{id}"),
        ("PATCH", "/{id}"),
        ("DELETE", "/{id}"),
    ),
    ("fastapi_users", "FastAPIUsers", "get_oauth_router"): _OAUTH,
    ("fastapi_users", "FastAPIUsers", "get_oauth_associate_router"): _OAUTH,
}
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
