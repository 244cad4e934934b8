"""Code a framework runs before each request of a router is a call from each of its routes'
handlers: Flask's before_request / before_app_request, FastAPI's router dependencies."""

from __future__ import annotations

from pathlib import Path

from map_helpers import Repo, build
from test_incremental import fresh, snapshot

from groundkit.codemap.model import Provenance

FLASK = {
    "shop/__init__.py": """
from flask import Flask


def create_app():
    app = Flask(__name__)
    from . import auth, blog, admin
    app.register_blueprint(auth.bp)
    app.register_blueprint(blog.bp)
    app.register_blueprint(admin.bp)

    def stamp():
        return None

    app.before_request(stamp)

    @app.route("/hello")
    def hello():
        return "hi"

    return app
""",
    "shop/auth.py": """
from flask import Blueprint

bp = Blueprint("auth", __name__, url_prefix="/auth")


@bp.before_app_request
def load_user():
    return None


@bp.route("/login", methods=("POST",))
def login():
    return "ok"
""",
    "shop/blog.py": """
from flask import Blueprint

bp = Blueprint("blog", __name__)


@bp.route("/")
def index():
    return "posts"
""",
    "shop/admin.py": """
from flask import Blueprint

bp = Blueprint("admin", __name__, url_prefix="/admin")


@bp.before_request
def only_admins():
    return None


@bp.route("/users")
def users():
    return "users"
""",
    "lonely.py": """
from flask import Blueprint

bp = Blueprint("lonely", __name__)


@bp.before_app_request
def never_registered():
    return None


@bp.route("/alone")
def alone():
    return "alone"
""",
}


def test_flask_hooks_are_calls_from_the_handlers_they_run_before(repo: Repo) -> None:
    build(repo, FLASK)
    hooks = {
        pair
        for pair in repo.certain("calls")
        if repo.edge("calls", *pair).provenance == Provenance.FLASK_HOOK  # type: ignore[attr-defined]
    }
    app_wide = {"shop.auth.login", "shop.blog.index", "shop.admin.users", "shop.create_app.hello"}
    assert hooks == (
        {(handler, "shop.auth.load_user") for handler in app_wide}
        | {(handler, "shop.create_app.stamp") for handler in app_wide}
        | {("shop.admin.users", "shop.admin.only_admins")}
    )
    edge = repo.edge("calls", "shop.blog.index", "shop.auth.load_user")
    assert edge.location.path == "shop/auth.py"  # type: ignore[attr-defined]
    assert "@bp.before_app_request" in edge.quote  # type: ignore[attr-defined]


def test_fastapi_router_dependencies_are_calls_from_each_handler_of_the_router(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "app/deps.py": """
def verify_key():
    return None


def audit():
    return None
""",
            "app/main.py": """
from fastapi import APIRouter, Depends, FastAPI

from app.deps import audit, verify_key

app = FastAPI(dependencies=[Depends(audit)])
router = APIRouter(prefix="/items", dependencies=[Depends(verify_key)])
open_router = APIRouter()


@router.get("/")
def list_items():
    return []


@open_router.get("/health")
def health():
    return "ok"


app.include_router(router)
app.include_router(open_router)
""",
        },
    )
    calls = repo.certain("calls")
    assert ("app.main.list_items", "app.deps.verify_key") in calls
    assert ("app.main.health", "app.deps.verify_key") not in calls
    assert {("app.main.list_items", "app.deps.audit"), ("app.main.health", "app.deps.audit")} <= (
        calls
    )
    edge = repo.edge("calls", "app.main.list_items", "app.deps.verify_key")
    assert edge.provenance == Provenance.FASTAPI_DEPENDS  # type: ignore[attr-defined]


def test_a_handler_served_both_under_a_hook_and_outside_it_gets_a_partial_edge(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "two.py": """
from flask import Blueprint, Flask

from views import page

guarded = Blueprint("guarded", __name__)
public = Blueprint("public", __name__)


@guarded.before_request
def check():
    return None


guarded.add_url_rule("/g", view_func=page)
public.add_url_rule("/p", view_func=page)
app = Flask(__name__)
app.register_blueprint(guarded)
app.register_blueprint(public)
""",
            "views.py": """
def page():
    return "page"
""",
        },
    )
    assert ("views.page", "two.check") in repo.pairs("calls")
    assert ("views.page", "two.check") not in repo.certain("calls")


def test_hooks_and_django_tables_after_edits_equal_a_map_made_from_scratch(
    repo: Repo, tmp_path: Path
) -> None:
    django = {
        "base/models.py": (
            "from django.db import models\n\n\nclass Stamped(models.Model):\n"
            "    class Meta:\n        abstract = True\n"
        ),
        "team/__init__.py": "",
        "team/apps.py": (
            "from django.apps import AppConfig\n\n\nclass TeamConfig(AppConfig):\n"
            '    name = "team"\n'
        ),
        "team/models.py": "from base.models import Stamped\n\n\nclass Member(Stamped):\n    pass\n",
    }
    repo.write({**FLASK, **django}).build()
    edits = [
        {"shop/blog.py": "# moved down\n\n" + FLASK["shop/blog.py"]},
        {"shop/auth.py": FLASK["shop/auth.py"].replace("before_app_request", "before_request")},
        {"team/apps.py": django["team/apps.py"] + '    label = "crew"\n'},
        {"base/models.py": django["base/models.py"].replace("abstract = True", "ordering = []")},
    ]
    for written in edits:
        repo.write(written).build()
        repo.close()
        assert snapshot(repo.index_dir) == fresh(repo, tmp_path), written
    assert ("team.models.Member", "table:crew_member") in repo.pairs("maps_to")
    assert ("base.models.Stamped", "table:base_stamped") not in repo.pairs("maps_to")
