"""Import edges: module -> module by grimp's rules, resolved against the repository's own
package roots, with the conditional ones kept but flagged."""

from __future__ import annotations

from map_helpers import Repo, build

from groundkit.codemap.model import EdgeFlag, Provenance

PKG = {
    "pkg/__init__.py": "from .core import Engine\n",
    "pkg/core.py": "class Engine:\n    pass\n",
    "pkg/sub/__init__.py": "",
    "pkg/sub/leaf.py": "VALUE = 1\n",
}


def test_absolute_imports_point_at_the_module_named_and_no_parent(repo: Repo) -> None:
    build(repo, {**PKG, "app.py": "import pkg.sub.leaf\nimport pkg.core as c\n"})
    assert repo.pairs("imports") >= {("app", "pkg.sub.leaf"), ("app", "pkg.core")}
    assert ("app", "pkg.sub") not in repo.pairs("imports")
    assert ("app", "pkg") not in repo.pairs("imports")
    edge = repo.edge("imports", "app", "pkg.core")
    assert edge.provenance == Provenance.IMPORT_ABSOLUTE  # type: ignore[attr-defined]


def test_from_package_import_points_at_the_submodule_when_it_is_one_else_the_package(
    repo: Repo,
) -> None:
    build(repo, {**PKG, "app.py": "from pkg import core\nfrom pkg import Engine\n"})
    assert {("app", "pkg.core"), ("app", "pkg")} <= repo.pairs("imports")


def test_relative_imports_resolve_against_the_importing_package(repo: Repo) -> None:
    build(
        repo,
        {
            **PKG,
            "pkg/sub/rel.py": (
                "from . import leaf\nfrom ..core import Engine\nfrom .. import core\n"
            ),
        },
    )
    found = {p for p in repo.pairs("imports") if p[0] == "pkg.sub.rel"}
    assert found == {("pkg.sub.rel", "pkg.sub.leaf"), ("pkg.sub.rel", "pkg.core")}
    edge = repo.edge("imports", "pkg.sub.rel", "pkg.sub.leaf")
    assert edge.provenance == Provenance.IMPORT_RELATIVE  # type: ignore[attr-defined]


def test_a_relative_import_beyond_the_top_package_is_not_an_edge(repo: Repo) -> None:
    build(repo, {**PKG, "pkg/bad.py": "from ... import nothing\n"})
    assert not {p for p in repo.pairs("imports") if p[0] == "pkg.bad"}


def test_outside_modules_are_external_nodes_named_by_their_top_level_name(repo: Repo) -> None:
    build(repo, {"app.py": "import os.path\nimport requests\nfrom email.mime import text\n"})
    assert repo.pairs("imports") == {("app", "os"), ("app", "requests"), ("app", "email")}
    kinds = {n.qualname: str(n.kind) for n in repo.map.nodes()}
    assert kinds["requests"] == "external"


def test_a_missing_module_of_the_repository_is_not_taken_for_an_outside_one(
    repo: Repo,
) -> None:
    build(repo, {**PKG, "app.py": "import pkg.gone\n"})
    assert not {p for p in repo.pairs("imports") if p[0] == "app"}


def test_type_checking_optional_and_lazy_imports_are_kept_and_flagged(repo: Repo) -> None:
    build(
        repo,
        {
            **PKG,
            "app.py": """
                from typing import TYPE_CHECKING
                if TYPE_CHECKING:
                    from pkg import core
                try:
                    import ujson as json
                except ImportError:
                    import json
                def late():
                    import pkg.sub.leaf
            """,
        },
    )

    def flags(target: str) -> set[EdgeFlag]:
        return set(repo.edge("imports", "app", target).flags)  # type: ignore[attr-defined]

    assert flags("pkg.core") == {EdgeFlag.TYPE_CHECKING}
    assert flags("ujson") == {EdgeFlag.OPTIONAL}
    assert flags("json") == {EdgeFlag.OPTIONAL}
    assert flags("pkg.sub.leaf") == {EdgeFlag.LAZY}
    assert flags("typing") == set()


def test_a_src_layout_names_modules_from_inside_src(repo: Repo) -> None:
    build(
        repo,
        {
            "src/shop/__init__.py": "",
            "src/shop/api.py": "from shop import db\n",
            "src/shop/db.py": "",
            "tests/test_api.py": "import shop.api\n",
            "scripts/tool.py": "from shop.db import *\n",
        },
    )
    assert repo.pairs("imports") == {
        ("shop.api", "shop.db"),
        ("tests.test_api", "shop.api"),  # in no package: named by its path, as a namespace
        ("scripts.tool", "shop.db"),
    }
    paths = {n.qualname: n.path for n in repo.map.nodes()}
    assert paths["shop.api"] == "src/shop/api.py"
    assert paths["tests.test_api"] == "tests/test_api.py"


def test_a_module_in_no_package_is_also_found_by_its_bare_name_from_its_own_folder(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "tests/helpers.py": "def h(): pass\n",
            "tests/test_a.py": "from helpers import h\nimport tests.helpers\nh()\n",
            "other/helpers.py": "",
        },
    )
    assert repo.pairs("imports") == {("tests.test_a", "tests.helpers")}
    assert repo.pairs("calls") == {("tests.test_a", "tests.helpers.h")}


def test_a_star_import_brings_the_names_in_all_and_only_those(repo: Repo) -> None:
    build(
        repo,
        {
            "lib.py": """
                __all__ = ["shown"]
                def shown(): pass
                def hidden(): pass
            """,
            "plain.py": """
                def public(): pass
                def _private(): pass
            """,
            "app.py": """
                from lib import *
                from plain import *
                def run():
                    shown()
                    hidden()
                    public()
                    _private()
            """,
        },
    )
    assert {p for p in repo.pairs("calls") if p[0] == "app.run"} == {
        ("app.run", "lib.shown"),
        ("app.run", "plain.public"),
    }
    assert repo.edge("imports", "app", "lib").provenance == Provenance.IMPORT_STAR  # type: ignore[attr-defined]


def test_names_re_exported_through_an_init_reach_their_definition_flagged(repo: Repo) -> None:
    build(repo, {**PKG, "app.py": "from pkg import Engine\ndef run():\n    Engine()\n"})
    edge = repo.edge("calls", "app.run", "pkg.core.Engine")
    assert EdgeFlag.REEXPORT in edge.flags  # type: ignore[attr-defined]


def test_a_mapped_folder_that_is_itself_a_package_still_resolves_imports_naming_it(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "__init__.py": "",
            "mod.py": "from . import other\nimport repo.third\n",
            "other.py": "",
            "third.py": "",
        },
    )
    assert repo.pairs("imports") == {("mod", "other"), ("mod", "third")}


def test_a_package_calls_through_the_submodules_its_own_init_imports(repo: Repo) -> None:
    build(
        repo,
        {
            "pkg/__init__.py": (
                "from . import sub\nfrom pkg import other\n\n"
                "def run():\n    sub.f()\n    other.g()\n"
            ),
            "pkg/sub.py": "def f():\n    return 1\n",
            "pkg/other.py": "def g():\n    return 1\n",
        },
    )
    assert {("pkg.run", "pkg.sub.f"), ("pkg.run", "pkg.other.g")} <= repo.certain("calls")


def test_a_name_a_package_binds_over_its_submodule_is_what_others_import(repo: Repo) -> None:
    build(
        repo,
        {
            "pkg/__init__.py": "from .tool import tool\n",
            "pkg/tool.py": "def tool():\n    return 1\n",
            "app.py": "from pkg import tool\n\ndef main():\n    tool()\n",
        },
    )
    assert ("app.main", "pkg.tool.tool") in repo.certain("calls")
