"""A router made from the repository's own subclass of a framework router (``class
AdminAPIRouter(APIRouter)``, ``class ApiBlueprint(Blueprint)``) is a router: its routes and
mounts count, under the prefix it is given at the call or passes to the framework itself."""

from __future__ import annotations

from map_helpers import Repo, build


def routes(repo: Repo) -> dict[str, str]:
    """route -> the handler's qualified name."""
    return dict(repo.pairs("handles"))


ROUTERS = """
    from fastapi import APIRouter, Depends

    class AdminAPIRouter(APIRouter):
        def __init__(self, tags=None, prefix: str = "", **kwargs):
            super().__init__(tags=tags, prefix=prefix, dependencies=[Depends(admin)], **kwargs)

    class UserAPIRouter(APIRouter):
        def __init__(self, tags=None, prefix: str = "", **kwargs):
            super().__init__(tags=tags, prefix=prefix, **kwargs)

    def admin(): pass
"""


def test_a_subclassed_router_mounts_routers_under_the_prefix_it_forwards(repo: Repo) -> None:
    build(
        repo,
        {
            "app/__init__.py": "",
            "app/base.py": ROUTERS,
            "app/admin/__init__.py": """
                from app.base import AdminAPIRouter
                from . import users
                router = AdminAPIRouter(prefix="/admin")
                router.include_router(users.router, tags=["Admin: Users"])
            """,
            "app/admin/users.py": """
                from fastapi import APIRouter
                router = APIRouter(prefix="/users")
                @router.get("/{item_id}")
                def get_user(item_id: int): pass
            """,
            "app/main.py": """
                from fastapi import FastAPI
                from app import admin
                app = FastAPI()
                app.include_router(admin.router, prefix="/api")
            """,
        },
    )
    assert routes(repo) == {"GET /api/admin/users/{item_id}": "app.admin.users.get_user"}


def test_each_instance_of_a_subclassed_router_has_its_own_prefix_and_routes(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "app/__init__.py": "",
            "app/base.py": ROUTERS,
            "app/groups.py": """
                from app.base import UserAPIRouter
                router = UserAPIRouter(prefix="/groups", tags=["Groups"])
                @router.get("/self")
                def get_group(): pass
            """,
            "app/tokens.py": """
                from app.base import UserAPIRouter
                router = UserAPIRouter(tags=["Tokens"])
                @router.post("/tokens")
                def make_token(): pass
            """,
            "app/recipes.py": """
                from app.base import UserAPIRouter
                from app.controller import controller
                router = UserAPIRouter(prefix="/recipes")
                @controller(router)
                class RecipeController:
                    @router.put("/{slug}")
                    def update_one(self, slug: str): pass
            """,
            "app/controller.py": """
                def controller(router):
                    def decorator(cls):
                        return cls
                    return decorator
            """,
            "app/main.py": """
                from fastapi import FastAPI
                from app import groups, recipes, tokens
                app = FastAPI()
                app.include_router(groups.router, prefix="/api")
                app.include_router(tokens.router, prefix="/api")
                app.include_router(recipes.router, prefix="/api")
            """,
        },
    )
    assert routes(repo) == {
        "GET /api/groups/self": "app.groups.get_group",
        "POST /api/tokens": "app.tokens.make_token",
        "PUT /api/recipes/{slug}": "app.recipes.RecipeController.update_one",
    }


def test_a_positional_prefix_reaches_the_framework_through_the_subclass(repo: Repo) -> None:
    build(
        repo,
        {
            "api.py": """
                from fastapi import APIRouter, FastAPI
                class VersionedRouter(APIRouter):
                    def __init__(self, prefix, **kwargs):
                        super().__init__(prefix=prefix, **kwargs)
                class PlainRouter(APIRouter):
                    pass
                v2 = VersionedRouter("/v2")
                plain = PlainRouter(prefix="/plain")
                @v2.get("/items")
                def items(): pass
                @plain.get("/things")
                def things(): pass
                app = FastAPI()
                app.include_router(v2)
                app.include_router(plain)
            """,
        },
    )
    assert routes(repo) == {"GET /v2/items": "api.items", "GET /plain/things": "api.things"}


def test_a_blueprint_subclass_that_names_its_own_prefix_serves_under_it(repo: Repo) -> None:
    build(
        repo,
        {
            "site.py": """
                from flask import Blueprint, Flask
                class ApiBlueprint(Blueprint):
                    def __init__(self, name):
                        super().__init__(name, __name__, url_prefix="/api")
                app = Flask(__name__)
                shop = ApiBlueprint("shop")
                @shop.route("/cart")
                def cart(): pass
                app.register_blueprint(shop)
            """,
        },
    )
    assert routes(repo) == {"GET /api/cart": "site.cart"}


def test_a_starlette_router_subclass_serves_its_routes_where_it_is_mounted(repo: Repo) -> None:
    build(
        repo,
        {
            "web.py": """
                from starlette.applications import Starlette
                from starlette.routing import Router
                class ApiRouter(Router):
                    pass
                async def health(request): pass
                api = ApiRouter()
                api.add_route("/health", health)
                app = Starlette()
                app.mount("/api", api)
            """,
        },
    )
    assert routes(repo) == {"GET /api/health": "web.health"}


def test_a_subclass_prefix_nobody_can_read_leaves_the_routes_at_their_own_paths(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "api.py": """
                import os
                from fastapi import APIRouter, FastAPI
                class EnvRouter(APIRouter):
                    def __init__(self, **kwargs):
                        super().__init__(prefix=os.environ["PREFIX"], **kwargs)
                router = EnvRouter()
                @router.get("/items")
                def items(): pass
                app = FastAPI()
                app.include_router(router, prefix="/api")
            """,
        },
    )
    assert routes(repo) == {"GET /api/items": "api.items"}


def test_editing_the_prefix_a_subclass_forwards_moves_routes_made_in_other_files(
    repo: Repo,
) -> None:
    files = {
        "app/__init__.py": "",
        "app/base.py": ROUTERS,
        "app/groups.py": """
            from app.base import UserAPIRouter
            router = UserAPIRouter(prefix="/groups")
            @router.get("/self")
            def get_group(): pass
        """,
    }
    build(repo, files)
    assert routes(repo) == {"GET /groups/self": "app.groups.get_group"}
    forwarded = "super().__init__(tags=tags, prefix=prefix, **kwargs)"
    edited = ROUTERS.replace(forwarded, 'super().__init__(tags=tags, prefix="/fixed")')
    build(repo, {**files, "app/base.py": edited})
    assert routes(repo) == {"GET /fixed/self": "app.groups.get_group"}
