"""Routes that real web apps report about themselves, for the code map's route extraction.

Usage (from the repository root, any Python 3.11; the script makes its own venv):
    python benchmarks/codemap/routes/collect.py [--projects NAME,...]

Each project's sdist is downloaded with pip into /tmp/codemap-bench and unpacked; the app is
imported there, in a subprocess of its own (Django's settings are per process), and the
framework is asked for its routes:

- FastAPI: `app.routes`, walking `Mount`s of sub-applications; `APIRoute` methods as declared;
  the routes FastAPI adds by itself (openapi.json, docs, redoc) are left out.
- Flask: `app.url_map`, methods minus HEAD and OPTIONS (Werkzeug adds them to every rule); the
  `static` endpoints Flask adds for static folders are left out.
- Django: the URL resolver walked recursively through `include()`; Django routes carry no
  method, so `method` is "ANY"; `path` joins the patterns as written (route syntax or regex),
  with a leading "/".

Writes `benchmarks/codemap/routes/<project>.json`: {"project", "version", "framework", "source",
"app": {how a static analyser finds the app: "root" folder inside the unpacked sdist,
"module", ...}, "routes": [{"method", "path", "handler", ...}]}. `handler` is the dotted
qualified name of the view, named as a static analyser rooted at app.root would name it.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from _venv import ensure_venv, fetch_sdist  # noqa: E402

REQUIREMENTS = [
    "fastapi==0.165.0",
    "flask==3.1.3",
    "django==5.2.19",
    "django-oauth-toolkit==3.4.1",
    "dj-rest-auth[with-social]==7.2.0",
    "django-allauth[socialaccount]==65.14.1",
    "djangorestframework==3.16.1",
    "djangorestframework-simplejwt==5.5.1",
    # What FastAPI's docs_src tutorials import besides fastapi and pydantic.
    "python-multipart==0.0.34",
    "jinja2==3.1.6",
    "pydantic-settings==2.16.3",
    "sqlmodel==0.0.50",
    "pyjwt==2.15.1",
    "pwdlib[argon2]==0.3.1",
    "orjson==3.13.0",
    "pyyaml==6.0.4",
    "email-validator==2.4.0",
]

Route = dict[str, Any]


def qualname(obj: Any, rename: dict[str, str]) -> str:
    obj = getattr(obj, "view_class", obj)  # Django class-based views: as_view() keeps the class
    module = obj.__module__
    for old, new in rename.items():
        if module == old or module.startswith(old + "."):
            module = new + module[len(old) :]
    # The benchmark's naming: __qualname__ without "<locals>" (create_app.hello).
    qual = ".".join(part for part in obj.__qualname__.split(".") if part != "<locals>")
    return f"{module}.{qual}"


# ------------------------------------------------------------------------------ FastAPI


def _flat_fastapi(routes: Any) -> list[tuple[Any, str, set[str] | None, Any]]:
    """(route, effective path, methods, endpoint) for each route, routers included.

    FastAPI 0.165 keeps `include_router` lazily as `_IncludedRouter` entries in `app.routes`;
    its own request routing and OpenAPI generation flatten them with
    `fastapi.routing._iter_routes_with_context`, which is used here too (older releases list
    the included APIRoutes directly, with the prefix already in `path`).
    """
    from fastapi import routing

    flatten = getattr(routing, "_iter_routes_with_context", None)
    pairs = flatten(routes) if flatten else ((r, None) for r in routes)
    out = []
    for route, ctx in pairs:
        if ctx is not None:
            out.append((route, ctx.path, set(ctx.methods or ()), ctx.endpoint or route.endpoint))
        else:
            methods = getattr(route, "methods", None)
            out.append(
                (route, getattr(route, "path", ""), methods, getattr(route, "endpoint", None))
            )
    return out


def fastapi_routes(app: Any, prefix: str = "", rename: dict[str, str] | None = None) -> list[Route]:
    from fastapi.routing import APIRoute, APIWebSocketRoute
    from starlette.routing import Mount, WebSocketRoute
    from starlette.routing import Route as StarletteRoute

    rename = rename or {}
    out: list[Route] = []
    for r, path, methods, endpoint in _flat_fastapi(app.routes):
        if isinstance(r, APIRoute):
            for m in sorted(methods or ()):
                out.append(
                    {"method": m, "path": prefix + path, "handler": qualname(endpoint, rename)}
                )
        elif isinstance(r, (APIWebSocketRoute, WebSocketRoute)):
            out.append(
                {
                    "method": "WEBSOCKET",
                    "path": prefix + path,
                    "handler": qualname(endpoint, rename),
                }
            )
        elif isinstance(r, Mount):
            inner = r.app
            if hasattr(inner, "routes"):
                out += fastapi_routes(inner, prefix + path, rename)
            else:
                out.append(
                    {
                        "method": "MOUNT",
                        "path": prefix + path,
                        "handler": f"{type(inner).__module__}.{type(inner).__qualname__}",
                    }
                )
        elif isinstance(r, StarletteRoute):
            if endpoint.__module__.startswith("fastapi."):
                continue  # openapi.json, /docs, /redoc: added by FastAPI itself
            for m in sorted((methods or set()) - {"HEAD"}):
                out.append(
                    {"method": m, "path": prefix + path, "handler": qualname(endpoint, rename)}
                )
    return out


def check_against_openapi(app: Any, routes: list[Route]) -> bool:
    """Every operation in the app's own OpenAPI document is among the collected routes."""
    # openapi() writes a converter-typed parameter {p:path} as {p}.
    ours = {(r["method"], re.sub(r"{(\w+):\w+}", r"{\1}", r["path"])) for r in routes}
    schema = app.openapi()
    theirs = {(m.upper(), p) for p, ops in schema.get("paths", {}).items() for m in ops}
    missing = theirs - ours
    assert not missing, f"routes in openapi() but not collected: {sorted(missing)}"
    return True


def fastapi_bigger_applications() -> dict[str, Any]:
    root = fetch_sdist("fastapi", "0.165.0")
    app_root = root / "docs_src" / "bigger_applications"
    sys.path.insert(0, str(app_root))
    app = importlib.import_module("app.main").app
    routes = fastapi_routes(app)
    return {
        "project": "fastapi-bigger-applications",
        "version": "0.165.0",
        "framework": "fastapi",
        "source": "pip download --no-deps --no-binary :all: fastapi==0.165.0; the app is "
        "docs_src/bigger_applications/app/main.py inside the unpacked sdist",
        "app": {"root": "docs_src/bigger_applications", "module": "app.main", "object": "app"},
        "routes": routes,
        "checked_against_openapi": check_against_openapi(app, routes),
    }


def fastapi_assignments(file: Path) -> set[str]:
    """Module-level names the file binds to a FastAPI(...) call (apps it defines itself)."""
    names = set()
    for node in ast.parse(file.read_bytes()).body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            func = node.value.func
            if getattr(func, "id", None) == "FastAPI" or getattr(func, "attr", None) == "FastAPI":
                names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def clear_sqlmodel_metadata() -> None:
    """Several examples declare the same SQLModel tables; each import starts afresh."""
    try:
        from sqlmodel import SQLModel
    except ImportError:
        return
    SQLModel.metadata.clear()


def fastapi_docs_src() -> dict[str, Any]:
    """Every FastAPI app that FastAPI's own documentation examples define, one file at a time."""
    import contextlib
    import importlib.util
    import io

    from fastapi import FastAPI

    root = fetch_sdist("fastapi", "0.165.0") / "docs_src"
    sys.path.insert(0, str(root))
    # Examples write files (sqlite) where they run and mount a ./static folder; one reads
    # its settings from the environment.
    os.chdir(tempfile.mkdtemp())
    Path("static").mkdir()
    os.environ.setdefault("ADMIN_EMAIL", "admin@example.com")
    apps, skipped = [], []
    for file in sorted(root.rglob("*.py")):
        rel = file.relative_to(root)
        parts = list(rel.with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        module = ".".join(parts)
        defined = fastapi_assignments(file)
        if not defined:
            continue
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                clear_sqlmodel_metadata()
                mod = importlib.import_module(module)
        except BaseException as exc:  # an example needing a package or a service we lack
            skipped.append({"file": str(rel), "error": f"{type(exc).__name__}: {exc}"[:200]})
            continue
        for name, value in sorted(vars(mod).items()):
            if isinstance(value, FastAPI) and name in defined:
                routes = fastapi_routes(value)
                try:
                    checked = check_against_openapi(value, routes)
                except Exception as exc:
                    checked = f"not checked: {type(exc).__name__}: {exc}"[:200]
                apps.append(
                    {
                        "file": str(rel),
                        "module": module,
                        "object": name,
                        "routes": sorted(routes, key=lambda r: (r["path"], r["method"])),
                        "checked_against_openapi": checked,
                    }
                )
    return {
        "project": "fastapi-docs-src",
        "version": "0.165.0",
        "framework": "fastapi",
        "source": "pip download --no-deps --no-binary :all: fastapi==0.165.0; every .py file "
        "under docs_src/ of the unpacked sdist, imported as a module named by its "
        "path relative to docs_src/",
        "app": {"root": "docs_src", "module": "*", "object": "every module-level FastAPI"},
        "notes": "Not the one-app format of the other files: `apps` holds one entry per "
        "FastAPI instance a file binds at module level (module, object, routes); "
        "files that define none (tests, helpers, routers only) are not listed. "
        "Handlers are named "
        "relative to docs_src/. `skipped` lists the files that could not be imported "
        "here, with the error.",
        "apps": apps,
        "skipped": skipped,
        "routes": [],
    }


# ------------------------------------------------------------------------------ Flask


def flask_routes(app: Any) -> list[Route]:
    out: list[Route] = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static" or rule.endpoint.endswith(".static"):
            continue
        # A rule may name an endpoint with no view of its own (flaskr's add_url_rule("/",
        # endpoint="index") only gives url_for a name): its handler is None.
        view = app.view_functions.get(rule.endpoint)
        handler = qualname(view, {}) if view is not None else None
        for m in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            out.append(
                {"method": m, "path": rule.rule, "handler": handler, "endpoint": rule.endpoint}
            )
    return out


def flask_tutorial() -> dict[str, Any]:
    root = fetch_sdist("flask", "3.1.3")
    sys.path.insert(0, str(root / "examples" / "tutorial"))
    flaskr = importlib.import_module("flaskr")
    db = Path(tempfile.mkdtemp()) / "flaskr.sqlite"
    app = flaskr.create_app({"TESTING": True, "DATABASE": str(db)})
    return {
        "project": "flask-tutorial-flaskr",
        "version": "3.1.3",
        "framework": "flask",
        "source": "pip download --no-deps --no-binary :all: flask==3.1.3; the app is the "
        "package examples/tutorial/flaskr (factory create_app) in the unpacked sdist",
        "app": {"root": "examples/tutorial", "module": "flaskr", "factory": "create_app"},
        "routes": flask_routes(app),
    }


def flask_javascript() -> dict[str, Any]:
    root = fetch_sdist("flask", "3.1.3")
    sys.path.insert(0, str(root / "examples" / "javascript"))
    app = importlib.import_module("js_example").app
    return {
        "project": "flask-javascript-example",
        "version": "3.1.3",
        "framework": "flask",
        "source": "pip download --no-deps --no-binary :all: flask==3.1.3; the app is the "
        "package examples/javascript/js_example in the unpacked sdist",
        "app": {"root": "examples/javascript", "module": "js_example", "object": "app"},
        "routes": flask_routes(app),
    }


# ------------------------------------------------------------------------------ Django


def literal_route_strings(root: Path) -> set[str]:
    """String literals passed as the first argument of path()/re_path()/url() under root."""
    found: set[str] = set()
    for file in root.rglob("*.py"):
        try:
            tree = ast.parse(file.read_bytes())
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            arg = node.args[0]
            if name in ("path", "re_path", "url") and isinstance(arg, ast.Constant):
                found.add(str(arg.value))
    return found


def django_routes(urlconf: str, rename: dict[str, str], root: Path) -> list[Route]:
    from django.urls import URLResolver, get_resolver
    from django.urls.resolvers import RegexPattern

    out: list[Route] = []
    written = literal_route_strings(root)

    def module_name(urlconf_module: Any, parent: str) -> str:
        name = getattr(urlconf_module, "__name__", parent)
        for old, new in rename.items():
            if name == old or name.startswith(old + "."):
                name = new + name[len(old) :]
        return name

    def walk(resolver: Any, parts: list[str], regex: bool, ns: list[str], mod: str) -> None:
        for p in resolver.url_patterns:
            part = str(p.pattern)
            is_regex = regex or isinstance(p.pattern, RegexPattern)
            if isinstance(p, URLResolver):
                inner = module_name(p.urlconf_module, mod)
                walk(p, [*parts, part], is_regex, [*ns, p.namespace] if p.namespace else ns, inner)
            else:
                name = ":".join([*ns, p.name]) if p.name else None
                out.append(
                    {
                        "method": "ANY",
                        "path": "/" + "".join([*parts, part]),
                        "handler": qualname(p.callback, rename),
                        "name": name,
                        "syntax": "regex" if is_regex else "path",
                        "urlconf": mod,
                        "declared_in_root": part in written,
                    }
                )

    top = get_resolver(urlconf)
    walk(top, [], False, [], module_name(top.urlconf_module, urlconf))
    return out


def django_oauth_toolkit() -> dict[str, Any]:
    root = fetch_sdist("django-oauth-toolkit", "3.4.1")
    sys.path.insert(0, str(root))
    import django
    from django.conf import settings

    settings.configure(
        SECRET_KEY="codemap-bench",
        INSTALLED_APPS=[
            "django.contrib.contenttypes",
            "django.contrib.auth",
            "django.contrib.sessions",
            "oauth2_provider",
        ],
        DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
        ROOT_URLCONF="oauth2_provider.urls",
    )
    django.setup()
    import oauth2_provider

    assert Path(oauth2_provider.__file__).is_relative_to(root), "imported the wrong copy"
    return {
        "project": "django-oauth-toolkit",
        "version": "3.4.1",
        "framework": "django",
        "source": "pip download --no-deps --no-binary :all: django-oauth-toolkit==3.4.1; the "
        "urlconf is oauth2_provider/urls.py in the unpacked sdist, used as the root "
        "urlconf (no prefix)",
        "app": {"root": ".", "module": "oauth2_provider.urls", "urlconf": "oauth2_provider.urls"},
        "routes": django_routes("oauth2_provider.urls", {}, root),
    }


def dj_rest_auth() -> dict[str, Any]:
    root = fetch_sdist("dj-rest-auth", "7.2.0")
    # Its own test set-up: the dj_rest_auth folder is on sys.path, so the test package is
    # importable as `tests` and the root urlconf is tests.urls (see its tests' override_settings).
    sys.path[:0] = [str(root / "dj_rest_auth"), str(root)]
    os.environ["DJANGO_SETTINGS_MODULE"] = "tests.settings"
    import django

    django.setup()
    rename = {"tests": "dj_rest_auth.tests"}
    return {
        "project": "dj-rest-auth-tests",
        "version": "7.2.0",
        "framework": "django",
        "source": "pip download --no-deps --no-binary :all: dj-rest-auth==7.2.0; the root "
        "urlconf is dj_rest_auth/tests/urls.py, with settings "
        "dj_rest_auth/tests/settings.py (the project's own test configuration)",
        "app": {
            "root": ".",
            "module": "dj_rest_auth.tests.urls",
            "urlconf": "dj_rest_auth.tests.urls",
            "settings": "dj_rest_auth.tests.settings",
        },
        "notes": "Its tests import the test package as `tests` with dj_rest_auth/ on sys.path; "
        "module names here are renamed to dj_rest_auth.tests.* as a static analyser "
        "rooted at the sdist names them. tests/django_urls.py appends routes to the "
        "list it imported from django.contrib.auth.urls (urlpatterns += [...]), so "
        "the routes under /^test-admin/ include Django's own auth routes, written in "
        "site-packages, and include('allauth.urls') brings allauth's routes under "
        "/^accounts/. Such routes cannot be found by reading the sdist alone: "
        "declared_in_root is false for them (their last pattern is not a literal "
        "argument of path()/re_path() in any .py file of the sdist).",
        "routes": django_routes("tests.urls", rename, root),
    }


PROJECTS = {
    "fastapi-bigger-applications": fastapi_bigger_applications,
    "fastapi-docs-src": fastapi_docs_src,
    "flask-tutorial-flaskr": flask_tutorial,
    "flask-javascript-example": flask_javascript,
    "django-oauth-toolkit": django_oauth_toolkit,
    "dj-rest-auth-tests": dj_rest_auth,
}


def main() -> int:
    ensure_venv("routes", REQUIREMENTS)
    parser = argparse.ArgumentParser()
    parser.add_argument("--projects", default=",".join(PROJECTS))
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        data = PROJECTS[args.one]()
        data["routes"] = sorted(data["routes"], key=lambda r: (r["path"], r["method"]))
        sys.stdout.write("\n@@ROUTES@@" + json.dumps(data))
        return 0
    print(f"{'project':<30}{'framework':>10}{'routes':>8}")
    for name in args.projects.split(","):
        proc = subprocess.run(
            [sys.executable, __file__, "--one", name], capture_output=True, text=True, check=False
        )
        if "@@ROUTES@@" not in proc.stdout:
            print(f"{name:<30} FAILED\n{proc.stderr[-2000:]}")
            continue
        data = json.loads(proc.stdout.rsplit("@@ROUTES@@", 1)[1])
        (HERE / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n")
        count = len(data["routes"]) + sum(len(a["routes"]) for a in data.get("apps", []))
        extra = (
            f"  ({len(data['apps'])} apps, {len(data['skipped'])} files skipped)"
            if ("apps" in data)
            else ""
        )
        print(f"{name:<30}{data['framework']:>10}{count:>8}{extra}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
