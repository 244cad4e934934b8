"""Dispatch a reader follows: argparse sub-commands through the namespace, middleware stacks built
in a loop, methods wrapped by a decorator of the same module, ``with`` on what a method returns,
commands in a dict of classes."""

from __future__ import annotations

from map_helpers import Repo, build, calls

from groundkit.codemap.model import EdgeFlag


def test_args_func_calls_what_set_defaults_put_in_the_namespace(repo: Repo) -> None:
    build(
        repo,
        {
            "cli.py": """
                import argparse
                def serve(args):
                    return args.port
                def main(argv=None):
                    parser = argparse.ArgumentParser()
                    commands = parser.add_subparsers()
                    commands.add_parser("serve").set_defaults(func=serve)
                    args = parser.parse_args(argv)
                    return args.func(args)
            """
        },
    )
    assert EdgeFlag.PARTIAL not in calls(repo, "cli.main", "cli.serve").flags


def test_two_sub_commands_make_args_func_a_choice(repo: Repo) -> None:
    build(
        repo,
        {
            "cli.py": """
                import argparse
                def add(args): pass
                def remove(args): pass
                def main(argv=None):
                    parser = argparse.ArgumentParser()
                    commands = parser.add_subparsers()
                    commands.add_parser("add").set_defaults(func=add)
                    commands.add_parser("remove").set_defaults(func=remove)
                    args, _ = parser.parse_known_args(argv)
                    return args.func(args)
            """
        },
    )
    for target in ("cli.add", "cli.remove"):
        assert EdgeFlag.PARTIAL in calls(repo, "cli.main", target).flags


def test_a_middleware_stack_built_in_a_loop_constructs_and_calls_the_middleware(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "app.py": """
                class Middleware:
                    def __init__(self, cls, *args, **kwargs):
                        self.cls, self.args, self.kwargs = cls, args, kwargs
                    def __iter__(self):
                        return iter((self.cls, self.args, self.kwargs))
                class ServerErrorMiddleware:
                    def __init__(self, app, debug=False):
                        self.app = app
                    def __call__(self, scope):
                        return self.app(scope)
                class Router:
                    def __call__(self, scope): pass
                class App:
                    def __init__(self):
                        self.router = Router()
                        self.stack = None
                    def build(self):
                        middleware = [Middleware(ServerErrorMiddleware, debug=True)]
                        app = self.router
                        for cls, args, kwargs in reversed(middleware):
                            app = cls(app, *args, **kwargs)
                        return app
                    def __call__(self, scope):
                        if self.stack is None:
                            self.stack = self.build()
                        return self.stack(scope)
            """
        },
    )
    built = calls(repo, "app.App.build", "app.ServerErrorMiddleware.__init__")
    assert EdgeFlag.PARTIAL not in built.flags
    # the stack is the router or the middleware, as the loop left it: a dependent, partial
    assert (
        EdgeFlag.PARTIAL
        in calls(repo, "app.App.__call__", "app.ServerErrorMiddleware.__call__").flags
    )


def test_a_method_wrapped_with_functools_wraps_keeps_its_self(repo: Repo) -> None:
    build(
        repo,
        {
            "svc.py": """
                import contextlib
                import functools
                def logged(fn):
                    @functools.wraps(fn)
                    def wrapper(self, *args, **kwargs):
                        return fn(self, *args, **kwargs)
                    return wrapper
                class Service:
                    @logged
                    def run(self):
                        return self.step()
                    def step(self): pass
                    @contextlib.contextmanager
                    def session(self):
                        yield self.step()
                def main():
                    Service().run()
            """
        },
    )
    assert EdgeFlag.PARTIAL not in calls(repo, "svc.Service.run", "svc.Service.step").flags
    assert EdgeFlag.PARTIAL not in calls(repo, "svc.Service.session", "svc.Service.step").flags
    assert EdgeFlag.PARTIAL not in calls(repo, "svc.logged.wrapper", "svc.Service.run").flags


def test_a_tests_parameter_holds_what_the_fixture_of_that_name_returns(repo: Repo) -> None:
    build(
        repo,
        {
            "shop/__init__.py": "",
            "shop/store.py": """
                class Store:
                    def put(self, doc): pass
            """,
            "tests/conftest.py": """
                import pytest
                from shop.store import Store
                @pytest.fixture
                def store():
                    yield Store()
            """,
            "tests/test_store.py": """
                import pytest
                class TestStore:
                    @pytest.fixture
                    def doc(self):
                        return {"id": 1}
                    def test_put(self, store, doc):
                        store.put(doc)
            """,
        },
    )
    put = calls(repo, "tests.test_store.TestStore.test_put", "shop.store.Store.put")
    assert EdgeFlag.PARTIAL not in put.flags


def test_an_annotated_parameter_keeps_its_class_when_the_fixture_returns_an_unknown(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "shop/__init__.py": "",
            "shop/store.py": """
                class Store:
                    def put(self, doc): pass
            """,
            "tests/test_store.py": """
                import pytest
                from shop.store import Store
                @pytest.fixture(params=[Store])
                def store(request):
                    return request.param()
                def test_put(store: Store):
                    store.put(1)
            """,
        },
    )
    put = calls(repo, "tests.test_store.test_put", "shop.store.Store.put")
    assert EdgeFlag.PARTIAL not in put.flags


def test_a_visitor_method_named_by_a_prefix_is_a_choice_among_the_methods_so_named(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "visitor.py": """
                class NodeVisitor:
                    def visit(self, node):
                        visitor = getattr(self, f"visit_{type(node).__name__}", None)
                        if visitor is not None:
                            return visitor(node)
                        return self.generic_visit(node)
                    def generic_visit(self, node):
                        return None
                class Printer(NodeVisitor):
                    def visit_Name(self, node):
                        return "name"
                    def visit_Const(self, node):
                        return "const"
                    def show(self, node):
                        return getattr(self, "visit_" + node.__class__.__name__)(node)
            """
        },
    )
    for caller in ("visitor.NodeVisitor.visit", "visitor.Printer.show"):
        for target in ("visitor.Printer.visit_Name", "visitor.Printer.visit_Const"):
            assert EdgeFlag.PARTIAL in calls(repo, caller, target).flags
    from_show = {target for source, target in repo.pairs("calls") if source.endswith(".show")}
    assert from_show == {"visitor.Printer.visit_Name", "visitor.Printer.visit_Const"}


def test_a_module_function_named_by_a_prefix_is_a_choice_among_the_functions_so_named(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "commands.py": """
                def cmd_init(): pass
                def cmd_status(): pass
                def helper(): pass
            """,
            "cli.py": """
                import commands
                def main(name):
                    return getattr(commands, "cmd_" + name)()
            """,
        },
    )
    from_main = {target for source, target in repo.pairs("calls") if source == "cli.main"}
    assert from_main == {"commands.cmd_init", "commands.cmd_status"}
    for target in from_main:
        assert EdgeFlag.PARTIAL in calls(repo, "cli.main", target).flags


def test_a_visitor_method_named_by_the_node_class_is_handed_that_class_only(repo: Repo) -> None:
    build(
        repo,
        {
            "tree.py": """
                class Node:
                    children = ()
                    def accept_visitor(self, visitor):
                        def traverse(node):
                            for n in node.children:
                                n.accept_visitor(visitor)
                        method = getattr(visitor, "visit" + self.__class__.__name__, traverse)
                        method(self)
                class Code(Node):
                    def names(self):
                        return {"loop"}
                class Block(Node):
                    def __init__(self, *children):
                        self.children = children
                    def names(self):
                        return {"block"}
                class LoopFinder:
                    def _detect(self, node):
                        return "loop" in node.names()
                    def visitCode(self, node):
                        self._detect(node)
                Block(Code()).accept_visitor(LoopFinder())
            """
        },
    )
    certain = repo.certain("calls")
    assert ("tree.Node.accept_visitor", "tree.LoopFinder.visitCode") in certain
    assert ("tree.Node.accept_visitor", "tree.Node.accept_visitor.traverse") in certain
    assert ("tree.LoopFinder._detect", "tree.Code.names") in certain
    assert ("tree.LoopFinder._detect", "tree.Block.names") not in repo.pairs("calls")


def test_a_subclass_goes_to_the_default_not_to_the_method_named_for_its_base(repo: Repo) -> None:
    build(
        repo,
        {
            "tree.py": """
                class Node:
                    def accept(self, visitor):
                        method = getattr(visitor, f"visit{type(self).__name__}", visitor.default)
                        return method(self)
                class Block(Node):
                    def label(self):
                        return "block"
                class Loop(Block):
                    def label(self):
                        return "loop"
                class Visitor:
                    def visitBlock(self, node):
                        return node.label()
                    def default(self, node):
                        return node.label()
                Block().accept(Visitor())
                Loop().accept(Visitor())
            """
        },
    )
    from_block = {t for s, t in repo.pairs("calls") if s == "tree.Visitor.visitBlock"}
    from_default = {t for s, t in repo.pairs("calls") if s == "tree.Visitor.default"}
    assert from_block == {"tree.Block.label"}
    assert from_default == {"tree.Loop.label"}
    assert EdgeFlag.PARTIAL not in calls(repo, "tree.Visitor.visitBlock", "tree.Block.label").flags


def test_a_visitor_method_called_from_a_cache_is_handed_any_node_as_a_guess(repo: Repo) -> None:
    build(
        repo,
        {
            "tree.py": """
                class Const:
                    def value(self):
                        return 1
                class BinaryOp:
                    def __init__(self, left, right):
                        self.left, self.right = left, right
                    def value(self):
                        return 2
                class NodeVisitor:
                    def __init__(self):
                        self.cache = {}
                    def visit(self, node):
                        visitor = self.cache.get(node.__class__.__name__, None)
                        if visitor is None:
                            visitor = getattr(self, "visit_" + node.__class__.__name__, None)
                            self.cache[node.__class__.__name__] = visitor
                        return visitor(node)
                class ConstCounter(NodeVisitor):
                    def visit_Const(self, node):
                        return node.value()
                ConstCounter().visit(BinaryOp(Const(), Const()))
                ConstCounter().visit(Const())
            """
        },
    )
    for target in ("tree.Const.value", "tree.BinaryOp.value"):
        assert EdgeFlag.PARTIAL in calls(repo, "tree.ConstCounter.visit_Const", target).flags
