"""Routes from FastAPI/Starlette, Flask and Django with prefixes composed; HTTP client calls
matched to them (any parameter syntax, a base-URL prefix allowed) or to an outside host."""

from __future__ import annotations

import pytest
from map_helpers import Repo, build

from groundkit.codemap.model import Location, NodeKey, NodeKind, Provenance
from groundkit.codemap.routes import HttpCallSite, Route, RouteDecl, match, normalise


def routes(repo: Repo) -> dict[str, str]:
    """route -> the handler's qualified name."""
    return dict(repo.pairs("handles"))


FASTAPI = {
    "app/__init__.py": "",
    "app/items.py": """
        from fastapi import APIRouter
        router = APIRouter(prefix="/items")
        @router.get("/{item_id}")
        def read_item(item_id: int): pass
        @router.api_route("/", methods=["POST", "PUT"])
        def write_item(): pass
    """,
    "app/main.py": """
        from fastapi import FastAPI
        from app import items
        from app.users import users
        app = FastAPI()
        app.include_router(items.router, prefix="/v1")
        app.include_router(users)
        @app.get("/health")
        async def health(): pass
        def ping(): pass
        app.add_api_route("/ping", ping, methods=["HEAD"])
    """,
    "app/users.py": """
        import fastapi
        users = fastapi.APIRouter()
        @users.delete("/users/{uid}")
        def drop(uid): pass
    """,
}


def test_fastapi_routes_compose_router_and_include_prefixes(repo: Repo) -> None:
    build(repo, FASTAPI)
    assert routes(repo) == {
        "GET /v1/items/{item_id}": "app.items.read_item",
        "POST /v1/items/": "app.items.write_item",
        "PUT /v1/items/": "app.items.write_item",
        "GET /health": "app.main.health",
        "DELETE /users/{uid}": "app.users.drop",
        "HEAD /ping": "app.main.ping",
    }
    edge = repo.edge("handles", "GET /health", "app.main.health")
    assert edge.provenance == Provenance.ROUTE_DECORATOR  # type: ignore[attr-defined]
    assert edge.location.path == "app/main.py"  # type: ignore[attr-defined]


def test_a_routers_prefix_reaches_routers_its_package_init_includes_from_submodules(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "app/__init__.py": "",
            "app/routes/__init__.py": """
                from fastapi import APIRouter
                from . import items
                router = APIRouter(prefix="/api")
                router.include_router(items.router)
            """,
            "app/routes/items.py": """
                from fastapi import APIRouter
                router = APIRouter(prefix="/items")
                @router.get("/{item_id}")
                def read_item(item_id: int): pass
            """,
            "app/main.py": """
                from fastapi import FastAPI
                from app.routes import router
                app = FastAPI()
                app.include_router(router)
            """,
        },
    )
    assert routes(repo) == {"GET /api/items/{item_id}": "app.routes.items.read_item"}


def test_flask_routes_with_methods_and_blueprint_prefixes(repo: Repo) -> None:
    build(
        repo,
        {
            "site.py": """
                from flask import Flask, Blueprint
                app = Flask(__name__)
                shop = Blueprint("shop", __name__, url_prefix="/shop")
                admin = Blueprint("admin", __name__, url_prefix="/ignored")
                @app.route("/")
                def index(): pass
                @shop.route("/cart/<int:cart_id>", methods=["GET", "POST"])
                def cart(cart_id): pass
                @admin.post("/reset")
                def reset(): pass
                app.register_blueprint(shop)
                app.register_blueprint(admin, url_prefix="/admin")
            """
        },
    )
    assert routes(repo) == {
        "GET /": "site.index",
        "GET /shop/cart/<int:cart_id>": "site.cart",
        "POST /shop/cart/<int:cart_id>": "site.cart",
        "POST /admin/reset": "site.reset",
    }


def test_a_flask_app_made_in_a_factory_still_has_its_routes(repo: Repo) -> None:
    build(
        repo,
        {
            "factory.py": """
                from flask import Flask
                def create_app():
                    app = Flask(__name__)
                    @app.get("/ready")
                    def ready(): pass
                    return app
            """
        },
    )
    assert routes(repo) == {"GET /ready": "factory.create_app.ready"}


def test_django_urlconfs_compose_include_prefixes(repo: Repo) -> None:
    build(
        repo,
        {
            "site/__init__.py": "",
            "site/urls.py": """
                from django.urls import include, path, re_path
                from polls import views as poll_views
                urlpatterns = [
                    path("polls/", include("polls.urls")),
                    re_path(r"^about/(?P<page>[a-z]+)/$", poll_views.about),
                    path("api/", include([path("ping/", poll_views.ping)])),
                ]
            """,
            "polls/__init__.py": "",
            "polls/views.py": """
                def index(request): pass
                def detail(request, question_id): pass
                def about(request, page): pass
                def ping(request): pass
                class ResultsView:
                    @classmethod
                    def as_view(cls): pass
            """,
            "polls/urls.py": """
                from django.urls import path
                from . import views
                urlpatterns = [
                    path("", views.index, name="index"),
                    path("<int:question_id>/", views.detail),
                    path("<int:pk>/results/", views.ResultsView.as_view()),
                ]
            """,
        },
    )
    assert routes(repo) == {
        "ANY /polls/": "polls.views.index",
        "ANY /polls/<int:question_id>/": "polls.views.detail",
        "ANY /polls/<int:pk>/results/": "polls.views.ResultsView",
        "ANY /about/{page}/": "polls.views.about",
        "ANY /api/ping/": "polls.views.ping",
    }


def test_client_calls_reach_routes_or_outside_hosts(repo: Repo) -> None:
    build(
        repo,
        {
            **FASTAPI,
            "client.py": """
                import httpx
                import requests
                from aiohttp import ClientSession
                BASE = "http://localhost:8000"
                def fetch(item_id, host):
                    requests.get(f"{BASE}/v1/items/{item_id}")
                    requests.get("https://api.github.com/repos")
                    with httpx.Client(base_url=host) as client:
                        client.delete("/users/" + str(item_id))
                    httpx.request("POST", host + "/v1/items/")
                async def later():
                    async with ClientSession() as session:
                        await session.get("/health")
                def nowhere():
                    requests.get("/not/a/route")
            """,
        },
    )
    assert repo.pairs("http_call") == {
        ("client.fetch", "GET /v1/items/{item_id}"),
        ("client.fetch", "api.github.com"),
        ("client.fetch", "DELETE /users/{uid}"),
        ("client.fetch", "POST /v1/items/"),
        ("client.later", "GET /health"),
    }
    host = next(n for n in repo.map.nodes() if n.qualname == "api.github.com")
    assert host.kind == NodeKind.EXTERNAL
    literal = repo.edge("http_call", "client.fetch", "api.github.com")
    assert literal.provenance == Provenance.HTTP_LITERAL  # type: ignore[attr-defined]
    template = repo.edge("http_call", "client.fetch", "GET /v1/items/{item_id}")
    assert template.provenance == Provenance.HTTP_TEMPLATE  # type: ignore[attr-defined]


_HERE = Location("x.py", 1, 0, 1, 1)


def _route(method: str, path: str) -> Route:
    key = NodeKey(NodeKind.ROUTE, f"{method} {path}", "x.py")
    handler = NodeKey(NodeKind.FUNCTION, "x.h", "x.py")
    decl = RouteDecl("r", (method,), path, handler, Provenance.ROUTE_DECORATOR, _HERE, "")
    return Route(key, method, path, decl)


def _call(method: str, *url: str | None) -> HttpCallSite:
    caller = NodeKey(NodeKind.FUNCTION, "x.c", "x.py")
    return HttpCallSite(caller, method, url, Provenance.HTTP_TEMPLATE, _HERE, "")


@pytest.mark.parametrize("served", ["/items/{id}", "/items/<int:id>", "/items/:id", "/items/${id}"])
def test_every_parameter_syntax_matches_a_literal_or_a_field(served: str) -> None:
    table = [_route("GET", served), _route("GET", "/items/new/edit")]
    for url in [("/items/42",), ("/items/", None), ("http://localhost:3000/items/", None)]:
        found = match(_call("GET", *url), table)
        assert found is not None
        assert found.route is table[0]
    assert normalise(served) == "/items/{}"


def test_a_base_url_prefix_is_allowed_and_the_whole_match_preferred() -> None:
    table = [_route("GET", "/items"), _route("GET", "/api/items")]
    whole = match(_call("GET", None, "/api/items"), table)
    assert whole is not None
    assert whole.route is table[1]
    prefixed = match(_call("GET", "http://backend:8000/v2/items"), [table[0]])
    assert prefixed is not None
    assert prefixed.route is table[0]
    assert match(_call("GET", "/v2/items"), [table[0]]) is None  # no unknown base: no prefix


def test_a_call_matching_two_routes_equally_is_not_guessed() -> None:
    table = [_route("GET", "/a/{x}"), _route("GET", "/{y}/b")]
    assert match(_call("GET", "/a/b"), table) is None
    assert match(_call("POST", "/a/z"), table) is None  # wrong method


def test_a_router_bound_to_two_names_at_once_serves_its_routes_under_its_prefix(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "app/__init__.py": "",
            "app/users.py": (
                "from fastapi import APIRouter\n\nusers_router = r = APIRouter()\n\n\n"
                '@r.get("/users")\nasync def users_list():\n    return 1\n'
            ),
            "app/main.py": (
                "from fastapi import FastAPI\nfrom app.users import users_router\n\n"
                'app = FastAPI()\napp.include_router(users_router, prefix="/api/v1")\n'
            ),
        },
    )
    assert dict(repo.pairs("handles")) == {"GET /api/v1/users": "app.users.users_list"}


def test_drf_router_registers_a_viewsets_routes_under_its_include(repo: Repo) -> None:
    build(
        repo,
        {
            "shop/__init__.py": "",
            "shop/views.py": """
from rest_framework import mixins, viewsets


class ItemViewSet(viewsets.ModelViewSet):
    def list(self, request):
        return []


class TagViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    pass
""",
            "shop/urls.py": """
from django.urls import include, path
from rest_framework.routers import DefaultRouter

from shop.views import ItemViewSet, TagViewSet

router = DefaultRouter()
router.register(r"items", ItemViewSet, basename="item")
router.register("tags", TagViewSet)

urlpatterns = [path("api/", include(router.urls))]
""",
        },
    )
    assert repo.pairs("handles") == {
        ("GET /api/items/", "shop.views.ItemViewSet.list"),
        ("POST /api/items/", "shop.views.ItemViewSet"),
        ("GET /api/items/{pk}/", "shop.views.ItemViewSet"),
        ("PUT /api/items/{pk}/", "shop.views.ItemViewSet"),
        ("PATCH /api/items/{pk}/", "shop.views.ItemViewSet"),
        ("DELETE /api/items/{pk}/", "shop.views.ItemViewSet"),
        ("GET /api/tags/", "shop.views.TagViewSet"),
    }
