"""The import graph flows one way down the pipeline, with every exception declared here."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import groundkit

SRC = Path(groundkit.__file__).parent

# Each top-level module or subpackage of groundkit, by layer. A unit may import its own modules
# and any unit of a lower layer; nothing else, unless the pair is in _DECLARED.
LAYERS: dict[str, int] = {
    # Leaves: they import nothing else of groundkit.
    "errors": 0,
    "version": 0,
    "types": 0,
    "secret": 0,
    "text": 0,
    "source_files": 0,
    "checkpoints": 0,
    "lifetime": 0,
    # The shared utilities every stage may use.
    "net": 1,
    "storage": 1,
    "config": 1,
    "credentials": 1,
    "ingest": 2,
    "chunk": 2,
    "embed": 2,
    "index": 3,
    "retrieve": 4,
    "pipeline": 5,
    "codemap": 5,
    # Where a collection lives (embedded, Qdrant), each ingesting through the pipeline.
    "backends": 6,
    "collection": 7,
    "answer": 8,
    "eval": 9,
    # The operations every surface calls; the surfaces (serve, cli) are adapters over them.
    "ops": 9,
    "serve": 10,
    "cli": 11,
    # The shipped fakes sit apart, above everything: production code does not reach them...
    "testing": 12,
    # ...and the public face imports the library, never the other way round.
    "__init__": 13,
}

_DECLARED: dict[tuple[str, str], str] = {
    ("cli", "testing"): "grk eval --fake-embedder: the CI gate scores with the shipped fake",
}


def _unit(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "groundkit":
        return None
    return parts[1] if len(parts) > 1 else "__init__"


def _module_name(path: Path, root: Path = SRC) -> str:
    rel = path.relative_to(root.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, root: Path = SRC) -> Iterator[tuple[str, int]]:
    """Every groundkit module ``path`` imports, at any depth (lazy and TYPE_CHECKING ones too),
    with relative imports made absolute."""
    here = _module_name(path, root)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            if base == "groundkit":  # a submodule, or a name of the public face
                for alias in node.names:
                    is_module = (root / alias.name).is_dir() or (root / f"{alias.name}.py").exists()
                    yield f"groundkit.{alias.name}" if is_module else "groundkit", node.lineno
                continue
            # `from groundkit.x import y` may import a submodule y; x itself counts only when
            # a name is taken from it, as `import groundkit.x.y` does not count x either.
            folder = root.joinpath(*base.split(".")[1:])
            names = [alias.name for alias in node.names]
            if not all((folder / n).is_dir() or (folder / f"{n}.py").exists() for n in names):
                yield base, node.lineno
            for name in names:
                yield f"{base}.{name}", node.lineno
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            yield node.args[0].value, node.lineno


def violations(root: Path = SRC) -> list[str]:
    wrong: set[str] = set()
    for path in sorted(root.rglob("*.py")):
        source = _unit(_module_name(path, root))
        assert source in LAYERS, f"{path.relative_to(root)} has no declared layer"
        for target_module, line in _imports(path, root):
            target = _unit(target_module)
            if target is None or target == source:
                continue
            if target not in LAYERS:
                continue  # `from groundkit import X` names an attribute, checked via its module
            if LAYERS[target] < LAYERS[source] or (source, target) in _DECLARED:
                continue
            rel = path.relative_to(root.parent)
            wrong.add(f"{rel}:{line} imports {'groundkit' if target == '__init__' else target}")
    return sorted(wrong)


def test_every_module_of_the_package_has_a_declared_layer() -> None:
    units = {_unit(_module_name(p)) for p in SRC.rglob("*.py")}
    assert units - set(LAYERS) == set()


def test_imports_flow_one_way_down_the_pipeline() -> None:
    assert violations() == []


def test_every_declared_exception_is_still_needed() -> None:
    used = set()
    for path in SRC.rglob("*.py"):
        source = _unit(_module_name(path))
        for target_module, _ in _imports(path):
            used.add((source, _unit(target_module)))
    assert set(_DECLARED) - used == set()


@pytest.mark.parametrize(
    ("where", "line"),
    [
        ("ingest/walk.py", "from groundkit.embed.base import Embedder\n"),  # a sibling stage
        ("index/store.py", "import groundkit.retrieve.search\n"),  # upward, `import x` form
        ("chunk/core.py", "def f():\n    from groundkit.collection import Collection\n"),  # lazy
        ("embed/base.py", "from ..index import store\n"),  # relative
        ("types.py", "from groundkit import collection\n"),  # a submodule via the root
        ("index/store.py", "from groundkit import Settings\n"),  # the public face itself
        ("retrieve/search.py", "import groundkit.testing\n"),  # the fakes
    ],
)
def test_a_rule_broken_on_purpose_is_caught(tmp_path: Path, where: str, line: str) -> None:
    copy = tmp_path / "groundkit"
    for path in SRC.rglob("*.py"):
        target = copy / path.relative_to(SRC)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    broken = copy / where
    broken.write_text(broken.read_text(encoding="utf-8") + "\n" + line, encoding="utf-8")
    found = violations(copy)
    assert found
    assert all(f.startswith(f"groundkit/{where}:") for f in found)


# Import circles between modules, at run time (lazy imports included, TYPE_CHECKING ones not).
# Each one declared here says why it is still there.
_CIRCLES_DECLARED: dict[frozenset[str], str] = {}


def _runtime_imports(path: Path, modules: set[str]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for inner in ast.walk(node)
    }
    found: set[str] = set()
    for imported, _line in _imports(path):
        module = imported
        while module and module not in modules:
            module = module.rpartition(".")[0]
        found.add(module)
    # _imports walks every node; drop what only a TYPE_CHECKING block imports.
    typed = {
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and id(node) in typing_only and node.module
    }
    runtime = {
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and id(node) not in typing_only and node.module
    }
    return {m for m in found if m and (m not in typed or m in runtime)} - {_module_name(path)}


def import_circles(root: Path = SRC) -> list[set[str]]:
    """Each set of modules that import one another, in a circle, at run time."""
    paths = {_module_name(p, root): p for p in root.rglob("*.py")}
    graph = {m: _runtime_imports(p, set(paths)) for m, p in paths.items()}
    circles: list[set[str]] = []
    for start in sorted(graph):  # a module is in a circle when it can reach itself
        seen = _reach(graph, start)
        if start in seen:
            circle = {m for m in seen if start in _reach(graph, m)} | {start}
            if circle not in circles:
                circles.append(circle)
    return circles


def _reach(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), list(graph[start])
    while todo:
        here = todo.pop()
        if here not in seen:
            seen.add(here)
            todo.extend(graph.get(here, ()))
    return seen


def test_no_module_imports_itself_round_a_circle() -> None:
    circles = [c for c in import_circles() if frozenset(c) not in _CIRCLES_DECLARED]
    assert circles == []


def test_every_declared_circle_is_still_there() -> None:
    assert set(_CIRCLES_DECLARED) <= {frozenset(c) for c in import_circles()}


# What only the operations layer (groundkit.ops) may call: a surface that opened a collection or
# a map, or asked a model, itself would be a second way through.
_OPERATIONS_ONLY = {
    "open_collection",
    "open_codemap",
    "answer_question",
    "ask_code",
    "answer_from",
    "ask_about",
    "resolve_chat",
    "run_search",
}
# The server's source of collections is what the operations open collections through.
_SOURCES = {"groundkit/serve/runtime.py"}


def surface_calls(root: Path = SRC) -> list[str]:
    """Each call a surface (cli, serve) makes that only the operations may make."""
    found = []
    for path in sorted([*(root / "cli").rglob("*.py"), *(root / "serve").rglob("*.py")]):
        rel = str(path.relative_to(root.parent))
        if rel in _SOURCES:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if name in _OPERATIONS_ONLY:
                    found.append(f"{rel}:{node.lineno} calls {name}")
    return found


def test_every_surface_enters_through_the_operations_layer() -> None:
    assert surface_calls() == []
