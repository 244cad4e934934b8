"""Monkeypatches stay where they are made: a test, benchmark or script that assigns to a
package's class or module attribute makes partial edges in that file, and leaves the package's
own calls through the attribute as certain as they were."""

from __future__ import annotations

from map_helpers import Repo, build, calls

from groundkit.codemap.model import EdgeFlag

STORE = """
    class Store:
        def put_documents(self, docs):
            return len(docs)
        def put_document(self, doc):
            return self.put_documents([doc])
"""


def test_a_benchmark_timing_a_method_leaves_the_packages_self_calls_certain(repo: Repo) -> None:
    build(
        repo,
        {
            "shop/__init__.py": "",
            "shop/store.py": STORE,
            "benchmarks/phases.py": """
                from shop.store import Store
                def timed(fn):
                    def wrapper(*args):
                        return fn(*args)
                    return wrapper
                Store.put_documents = timed(Store.put_documents)
                def main():
                    Store().put_documents([1])
            """,
        },
    )
    own = calls(repo, "shop.store.Store.put_document", "shop.store.Store.put_documents")
    assert EdgeFlag.PARTIAL not in own.flags
    assert ("shop.store.Store.put_document", "benchmarks.phases.timed.wrapper") not in repo.pairs(
        "calls"
    )
    # In the benchmark itself the method is the patch or the original: one of them, partial.
    here = calls(repo, "benchmarks.phases.main", "benchmarks.phases.timed.wrapper")
    assert EdgeFlag.PARTIAL in here.flags


def test_setattr_over_a_table_of_methods_in_a_script_leaves_the_package_alone(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "shop/__init__.py": "",
            "shop/store.py": STORE,
            "scripts/profile.py": """
                import os
                from shop.store import Store
                PHASES = [(Store, "put_documents"), (Store, "put_document")]
                for owner, name in PHASES:
                    setattr(owner, os.environ.get("X", name), print)
            """,
        },
    )
    own = calls(repo, "shop.store.Store.put_document", "shop.store.Store.put_documents")
    assert EdgeFlag.PARTIAL not in own.flags


def test_a_test_replacing_a_module_function_leaves_the_packages_calls_certain(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "shop/__init__.py": "",
            "shop/net.py": """
                def fetch(url):
                    return url
                def load(url):
                    return fetch(url)
            """,
            "tests/test_net.py": """
                from shop import net
                def fake(url):
                    return "cached"
                def test_load():
                    net.fetch = fake
                    assert net.fetch("x") == "cached"
            """,
        },
    )
    assert EdgeFlag.PARTIAL not in calls(repo, "shop.net.load", "shop.net.fetch").flags
    assert ("shop.net.load", "tests.test_net.fake") not in repo.pairs("calls")
    assert EdgeFlag.PARTIAL in calls(repo, "tests.test_net.test_load", "tests.test_net.fake").flags


def test_the_package_patching_its_own_class_is_still_a_choice(repo: Repo) -> None:
    build(
        repo,
        {
            "shop/__init__.py": "",
            "shop/store.py": STORE,
            "shop/compat.py": """
                from shop.store import Store
                def put_many(self, docs):
                    return 0
                Store.put_documents = put_many
            """,
        },
    )
    own = calls(repo, "shop.store.Store.put_document", "shop.store.Store.put_documents")
    assert EdgeFlag.PARTIAL in own.flags


def test_a_test_calling_the_real_method_from_its_patch_leaves_self_calls_certain(
    repo: Repo,
) -> None:
    # pytest's monkeypatch.setattr hands the fake to outside code: its `self` may be anything
    # as far as the map knows, and `real(self, docs)` passes that to the package's method.
    build(
        repo,
        {
            "shop/__init__.py": "",
            "shop/store.py": STORE,
            "tests/test_store.py": """
                import pytest
                from shop.store import Store
                def test_put(monkeypatch: pytest.MonkeyPatch):
                    real = Store.put_document
                    def failing(self, doc):
                        return real(self, doc)
                    monkeypatch.setattr(Store, "put_document", failing)
                    Store().put_document(1)
            """,
        },
    )
    edge = calls(repo, "shop.store.Store.put_document", "shop.store.Store.put_documents")
    assert EdgeFlag.PARTIAL not in edge.flags
    assert ("tests.test_store.test_put.failing", "shop.store.Store.put_document") in repo.pairs(
        "calls"
    )


def test_fields_set_on_an_instance_by_a_computed_name_leave_its_methods_certain(
    repo: Repo,
) -> None:
    # `setattr(self, key, value)` over keyword arguments sets the instance's data: its class's
    # methods are still what `self.m()` and `obj.m()` call; a data attribute it reads may be
    # anything the caller passed.
    build(
        repo,
        {
            "shop/__init__.py": "",
            "shop/env.py": """
                def plain(text):
                    return text
                class Env:
                    def __init__(self):
                        self.finalize = plain
                    def extend(self, **attributes):
                        for key, value in attributes.items():
                            if not hasattr(self, key):
                                setattr(self, key, value)
                    def make_globals(self, d):
                        return dict(d or {})
                    def from_string(self, source):
                        return self.finalize(self.make_globals({}))
            """,
            "tests/test_env.py": """
                from shop.env import Env
                def test_from_string():
                    env = Env()
                    env.extend(cache=None)
                    env.from_string("x")
            """,
        },
    )
    own = calls(repo, "shop.env.Env.from_string", "shop.env.Env.make_globals")
    assert EdgeFlag.PARTIAL not in own.flags
    test = calls(repo, "tests.test_env.test_from_string", "shop.env.Env.from_string")
    assert EdgeFlag.PARTIAL not in test.flags
    data = calls(repo, "shop.env.Env.from_string", "shop.env.plain")
    assert EdgeFlag.PARTIAL in data.flags


CONTROLLER = """
    class Flag:
        def __bool__(self):
            return True
    class Service:
        def run(self):
            return 1
    def controller(cls):
        for name in dir(cls):
            if name.startswith("_f"):
                setattr(cls, name, VALUE)
        return cls
    @controller
    class Recipes:
        def __init__(self):
            self._flag = Flag()
        def helper(self):
            return Service()
        def get(self):
            if self._flag:
                return self.helper().run()
    def main():
        return Recipes().get()
"""


def test_a_class_given_none_by_a_computed_name_leaves_its_methods_certain(repo: Repo) -> None:
    # `setattr(cls, name, None)` over a class's annotations (a controller decorator) cannot
    # replace a method with another function: a call that runs still goes to the method.
    source = CONTROLLER.replace("VALUE", "None")
    build(repo, {"shop/__init__.py": "", "shop/routes.py": source})
    own = calls(repo, "shop.routes.Recipes.get", "shop.routes.Recipes.helper")
    assert EdgeFlag.PARTIAL not in own.flags
    assert (
        EdgeFlag.PARTIAL
        not in calls(repo, "shop.routes.Recipes.get", "shop.routes.Service.run").flags
    )


def test_a_truth_test_on_an_attribute_set_to_none_by_name_is_not_a_certain_dunder(
    repo: Repo,
) -> None:
    source = CONTROLLER.replace("VALUE", "None")
    build(repo, {"shop/__init__.py": "", "shop/routes.py": source})
    dunder = calls(repo, "shop.routes.Recipes.get", "shop.routes.Flag.__bool__")
    assert EdgeFlag.PARTIAL in dunder.flags


def test_a_class_given_a_function_by_a_computed_name_is_still_a_choice(repo: Repo) -> None:
    source = CONTROLLER.replace("VALUE", "print_it").replace(
        "def controller(cls):", "def print_it(self):\n        return 0\n    def controller(cls):"
    )
    build(repo, {"shop/__init__.py": "", "shop/routes.py": source})
    own = calls(repo, "shop.routes.Recipes.get", "shop.routes.Recipes.helper")
    assert EdgeFlag.PARTIAL in own.flags


def test_a_class_given_a_function_by_name_late_in_the_solve_is_still_a_choice(
    repo: Repo,
) -> None:
    # The function reaches the setattr only through the default of a function nothing calls,
    # which the second round fills in: the class is patched then.
    source = """
        class Service:
            def run(self):
                return 1
        class Recipes:
            def helper(self):
                return Service()
            def get(self):
                return self.helper().run()
        def print_it(self):
            return 0
        def patch(value=print_it):
            for name in dir(Recipes):
                setattr(Recipes, name, value)
    """
    build(repo, {"shop/__init__.py": "", "shop/routes.py": source})
    own = calls(repo, "shop.routes.Recipes.get", "shop.routes.Recipes.helper")
    assert EdgeFlag.PARTIAL in own.flags
