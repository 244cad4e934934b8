"""The rules where Python's own semantics decide what runs: decorators, properties, lambdas,
rebinding from outside, dynamic code, context managers, Django list urlconfs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from map_helpers import Repo, build

from groundkit.codemap.model import EdgeFlag, Location


def calls_from(repo: Repo, caller: str) -> set[str]:
    return {b for a, b in repo.pairs("calls") if a == caller}


def test_a_decorated_function_is_what_its_decorator_returns(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                import functools
                def logged(fn):
                    @functools.wraps(fn)
                    def wrapper():
                        return fn()
                    return wrapper
                def register(fn):
                    return fn
                @logged
                def wrapped(): pass
                @register
                def kept(): pass
                @functools.lru_cache
                def cached(): pass
                def run():
                    wrapped()
                    kept()
                    cached()
            """
        },
    )
    assert calls_from(repo, "m.run") == {"m.logged.wrapper", "m.kept", "m.cached"}


def test_reading_or_setting_a_property_runs_its_getter_or_setter(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                class Temp:
                    @property
                    def celsius(self):
                        return 1
                    @celsius.setter
                    def celsius(self, value):
                        pass
                    def plain(self):
                        pass
                def use(t: Temp):
                    t.celsius = 3
                    print(t.celsius)
                    t.plain
            """
        },
    )
    assert calls_from(repo, "m.use") == {"m.Temp.celsius"}
    assert repo.edge("calls", "m.use", "m.Temp.celsius").sites == 2  # type: ignore[attr-defined]


def test_a_lambda_is_a_function_of_its_own(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                def helper(): pass
                square = lambda: helper()
                square()
                (lambda: helper())()
            """
        },
    )
    assert calls_from(repo, "m") == {"m.<lambda>"}
    assert calls_from(repo, "m.<lambda>") == {"m.helper"}


def test_a_name_rebound_from_an_inner_function_reaches_both_targets_partially(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": """
                def first(): pass
                def second(): pass
                def run(flag):
                    f = first
                    def swap():
                        nonlocal f
                        f = second
                    if flag:
                        swap()
                    f()
            """
        },
    )
    assert calls_from(repo, "m.run") == {"m.run.swap", "m.first", "m.second"}
    for target in ("m.first", "m.second"):  # one or the other, chosen at run time
        assert EdgeFlag.PARTIAL in repo.edge("calls", "m.run", target).flags  # type: ignore[attr-defined]
    assert repo.report is not None
    assert repo.report.unresolved_calls == 1


def test_a_star_import_after_a_definition_rebinds_the_name(repo: Repo) -> None:
    build(
        repo,
        {
            "util.py": "def a(): pass\n",
            "main.py": "def a(): pass\nfrom util import *\na()\n",
            "early.py": "from util import *\ndef a(): pass\na()\n",
        },
    )
    assert calls_from(repo, "main") == {"util.a"}
    assert calls_from(repo, "early") == {"early.a"}


def test_a_class_patched_from_outside_and_dynamic_code_are_unresolved(repo: Repo) -> None:
    """The patched method is either of two functions at run time: both drawn, partial."""
    build(
        repo,
        {
            "m.py": """
                import os
                class Service:
                    def handle(self): pass
                    def other(self): pass
                def patched(self): pass
                if os.environ.get("X"):
                    Service.handle = patched
                s = Service()
                s.handle()
                s.other()
                eval("s.handle()")
            """
        },
    )
    assert calls_from(repo, "m") == {
        "m.Service",
        "m.Service.other",
        "m.Service.handle",
        "m.patched",
    }
    for target in ("m.Service.handle", "m.patched"):
        assert EdgeFlag.PARTIAL in repo.edge("calls", "m", target).flags  # type: ignore[attr-defined]
    assert EdgeFlag.PARTIAL not in repo.edge("calls", "m", "m.Service.other").flags  # type: ignore[attr-defined]
    assert repo.report is not None
    assert repo.report.unresolved_calls == 2  # s.handle() and eval(...)


def test_with_binds_what_enter_returns(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                class Session:
                    def __enter__(self):
                        return self
                    def __exit__(self, *exc):
                        pass
                    def query(self): pass
                class Opener:
                    def __enter__(self):
                        return Session()
                    def __exit__(self, *exc):
                        pass
                def run():
                    with Session() as s:
                        s.query()
                    with Opener() as t:
                        t.query()
            """
        },
    )
    assert repo.edge("calls", "m.run", "m.Session.query").sites == 2  # type: ignore[attr-defined]


def test_django_urlpatterns_built_from_lists_and_extended_across_modules(repo: Repo) -> None:
    build(
        repo,
        {
            "app/__init__.py": "",
            "app/views.py": "def a(r): pass\ndef b(r): pass\ndef c(r): pass\n",
            "app/urls.py": """
                from django.urls import path
                from django.views.generic import TemplateView
                from . import views
                first = [path("a/", views.a)]
                second = [path("b/", views.b)]
                urlpatterns = first + second
                urlpatterns += [path("about/", TemplateView.as_view())]
            """,
            "site_urls.py": """
                from django.urls import path
                from app.urls import urlpatterns
                from app import views
                urlpatterns += [path("c/", views.c)]
            """,
        },
    )
    handles = repo.pairs("handles")
    assert {
        ("ANY /a/", "app.views.a"),
        ("ANY /b/", "app.views.b"),
        ("ANY /about/", "django"),  # a view from a library: an outside node
        ("ANY /c/", "app.views.c"),
    } <= handles


def test_a_location_is_repository_relative_and_never_leaves_it(repo: Repo, tmp_path: Path) -> None:
    for bad in ("/etc/passwd", "../x.py", "a/../../x.py", "C:\\x.py"):
        with pytest.raises(ValueError, match="repository-relative"):
            Location(bad, 1, 0, 1, 0)
    build(repo, {"a.py": "def g(): pass\ndef f():\n    g()\n"})
    edge = next(e for e in repo.map.edges(["calls"]))
    outside = tmp_path / "outside.py"
    outside.write_text("def g(): pass\ndef f():\n    g()\n")
    (repo.root / "a.py").unlink()
    os.symlink(outside, repo.root / "a.py")  # now a link out of the repository
    assert repo.map.verify([edge]) == ["missing"]


def test_a_walrus_on_a_later_line_of_a_statement_binds_in_its_function(repo: Repo) -> None:
    """``:=`` is looked for only on the lines where it is written: the second line of a
    condition, or a ``with`` item (which has no lines of its own)."""
    build(
        repo,
        {
            "m.py": """
                def helper(): pass
                def other(): pass
                f = g = other
                def run(items):
                    if (
                        items
                        and (f := helper)
                    ):
                        pass
                    f()
                def opened(path, wrap):
                    with open(path) as handle, wrap(
                        g := helper
                    ):
                        pass
                    g()
            """
        },
    )
    assert calls_from(repo, "m.run") == {"m.helper"}
    assert calls_from(repo, "m.opened") == {"m.helper"}


def test_a_global_declared_inside_a_try_block_is_rebound_for_module_reads(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                def helper(): pass
                def other(): pass
                handler = helper
                def install():
                    try:
                        global handler
                        handler = other
                    finally:
                        pass
                install()
                handler()
            """
        },
    )
    assert calls_from(repo, "m") == {"m.install", "m.helper", "m.other"}
