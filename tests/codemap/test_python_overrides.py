"""A base method runs on a subclass's instance only when the subclass's lookup of it finds the
base's, or when an override along the way calls it (``super()``): what the base method's
``self`` reaches through a subclass that overrides it without such a call is partial, never
certain. The shapes are those of flask's ``JSONTag.tag`` and click's ``ClickException.show``."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from map_helpers import Repo, build
from test_incremental import fresh, snapshot

from groundkit.codemap.model import EdgeFlag

COMMANDS = """
    class Command:
        def run(self):
            return self.body()
        def body(self):
            return "plain"
    class Timed(Command):
        def body(self):
            return "timed"
    class Quiet(Command):
        def run(self):
            return "quiet"
        def body(self):
            return "never"
"""


def flags(repo: Repo, source: str, target: str) -> frozenset[EdgeFlag]:
    found = [
        e.flags
        for e in repo.map.edges(["calls"])
        if e.source.qualname == source and e.target.qualname == target
    ]
    assert len(found) == 1, f"no calls edge {source} -> {target}"
    return found[0]


def test_a_base_method_reaches_a_subclass_that_overrides_it_without_super_only_partially(
    repo: Repo,
) -> None:
    build(repo, {"m.py": COMMANDS + "    Command().run(); Timed().run(); Quiet().run()\n"})
    assert EdgeFlag.PARTIAL in flags(repo, "m.Command.run", "m.Quiet.body")
    assert EdgeFlag.PARTIAL not in flags(repo, "m.Command.run", "m.Timed.body")
    assert EdgeFlag.PARTIAL not in flags(repo, "m.Command.run", "m.Command.body")


def test_a_subclass_binding_the_method_to_another_function_is_an_override_too(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": """
                class Tag:
                    def tag(self, value):
                        return self.to_json(value)
                    def to_json(self, value):
                        return value
                class Pass(Tag):
                    def to_json(self, value):
                        return value
                    tag = to_json
                Tag().tag(0)
                Pass().tag(1)
            """
        },
    )
    assert EdgeFlag.PARTIAL in flags(repo, "m.Tag.tag", "m.Pass.to_json")
    assert EdgeFlag.PARTIAL not in flags(repo, "m.Tag.tag", "m.Tag.to_json")


def test_an_override_calling_super_keeps_the_base_method_s_edges_certain(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                class Base:
                    def __init__(self):
                        self.setup()
                    def setup(self):
                        pass
                class Child(Base):
                    def __init__(self):
                        super().__init__()
                    def setup(self):
                        pass
                class Grandchild(Child):
                    def __init__(self):
                        super().__init__()
                    def setup(self):
                        pass
                Grandchild()
            """
        },
    )
    assert EdgeFlag.PARTIAL not in flags(repo, "m.Base.__init__", "m.Child.setup")
    assert EdgeFlag.PARTIAL not in flags(repo, "m.Base.__init__", "m.Grandchild.setup")


def test_a_property_and_a_dunder_of_a_subclass_that_overrides_the_method_are_partial(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": """
                class Shape:
                    def describe(self):
                        return self.name, len(self)
                    @property
                    def name(self):
                        return "shape"
                    def __len__(self):
                        return 0
                class Square(Shape):
                    def describe(self):
                        return "square"
                    @property
                    def name(self):
                        return "square"
                    def __len__(self):
                        return 4
                Shape().describe()
                Square().describe()
            """
        },
    )
    assert EdgeFlag.PARTIAL in flags(repo, "m.Shape.describe", "m.Square.name")
    assert EdgeFlag.PARTIAL in flags(repo, "m.Shape.describe", "m.Square.__len__")
    assert EdgeFlag.PARTIAL not in flags(repo, "m.Shape.describe", "m.Shape.name")


def test_an_edit_adding_a_super_call_to_an_override_draws_the_base_method_again(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"m.py": textwrap.dedent(COMMANDS), "app.py": "from m import Command\n"}
    files["app.py"] += "Command().run()\n"
    files["sub.py"] = "from m import Command\nclass Loud(Command):\n    def run(self):\n"
    files["sub.py"] += "        return 'loud'\n    def body(self):\n        return 'LOUD'\n"
    repo.write(files).build()
    assert EdgeFlag.PARTIAL in flags(repo, "m.Command.run", "sub.Loud.body")
    # Only sub.py changed, but the edge is m.py's: the last solve is not taken on.
    call = "        super().run()\n        return 'loud'"
    report = repo.write({"sub.py": files["sub.py"].replace("        return 'loud'", call)}).build()
    assert report.solves[0] == "python: the edit calls a base method a subclass overrides"
    assert EdgeFlag.PARTIAL not in flags(repo, "m.Command.run", "sub.Loud.body")
    repo.close()
    monkeypatch.undo()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)


def test_a_class_made_in_a_branch_on_a_class_attribute_subclasses_set_is_partial(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": """
                class View:
                    once = False
                    @classmethod
                    def as_view(cls):
                        if cls.once:
                            return cls()
                        made = cls()
                        return made
                    @classmethod
                    def plain(cls):
                        return cls()
                class Page(View):
                    pass
                class Cached(View):
                    once = True
                Page.as_view()
                Cached.as_view()
                Page.plain()
            """
        },
    )
    assert EdgeFlag.PARTIAL in flags(repo, "m.View.as_view", "m.Page")
    assert EdgeFlag.PARTIAL in flags(repo, "m.View.as_view", "m.Cached")
    assert EdgeFlag.PARTIAL not in flags(repo, "m.View.plain", "m.Page")


def test_a_branch_on_an_attribute_no_subclass_binds_again_keeps_its_calls_certain(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": """
                class Job:
                    verbose = False
                    def __init__(self, verbose):
                        self.verbose = verbose
                    def run(self):
                        if self.verbose:
                            self.log()
                        if not self.verbose:
                            return self.work()
                        return self.work()
                    def log(self):
                        pass
                    def work(self):
                        pass
                class Nightly(Job):
                    def work(self):
                        pass
                Job(True).run()
                Nightly(False).run()
            """
        },
    )
    assert EdgeFlag.PARTIAL not in flags(repo, "m.Job.run", "m.Job.log")
    assert EdgeFlag.PARTIAL not in flags(repo, "m.Job.run", "m.Nightly.work")


def test_after_both_branches_of_a_class_attribute_test_every_class_is_certain_again(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": """
                class Base:
                    fast = False
                    def go(self):
                        if self.fast:
                            self.note()
                        else:
                            self.note()
                        return self.finish()
                    def note(self):
                        pass
                    def finish(self):
                        pass
                class Quick(Base):
                    fast = True
                    def finish(self):
                        pass
                Base().go()
                Quick().go()
            """
        },
    )
    assert EdgeFlag.PARTIAL in flags(repo, "m.Base.go", "m.Base.note")
    assert EdgeFlag.PARTIAL not in flags(repo, "m.Base.go", "m.Quick.finish")


def test_what_a_branch_reads_of_the_attribute_it_tested_stays_certain(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                def parachute(view):
                    return view
                class View:
                    decorators = []
                    @classmethod
                    def as_view(cls):
                        view = cls
                        if cls.decorators:
                            for decorator in cls.decorators:
                                view = decorator(view)
                            cls.setup()
                        return view
                    @classmethod
                    def setup(cls):
                        pass
                class Index(View):
                    decorators = [parachute]
                class Other(View):
                    @classmethod
                    def setup(cls):
                        pass
                Index.as_view()
                Other.as_view()
            """
        },
    )
    assert EdgeFlag.PARTIAL not in flags(repo, "m.View.as_view", "m.parachute")
    assert EdgeFlag.PARTIAL in flags(repo, "m.View.as_view", "m.Other.setup")


def test_self_handed_on_from_such_a_branch_is_no_choice_in_the_function_it_reaches(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": """
                def helper(job):
                    return job.work()
                class Job:
                    quick = False
                    def run(self):
                        if self.quick:
                            return helper(self)
                    def work(self):
                        pass
                class Quick(Job):
                    quick = True
                    def work(self):
                        pass
                Job().run()
                Quick().run()
            """
        },
    )
    assert EdgeFlag.PARTIAL not in flags(repo, "m.helper", "m.Quick.work")


CLIENTS = """
    class Client:
        def open(self, path):
            return path
        def get(self, path):
            return self.open(path)
        def head(self, path):
            return self.open(path)
    class Counting(Client):
        def open(self, path):
            return Client.open(self, path.upper())
"""


def test_a_base_method_reaches_only_the_overrides_of_the_classes_it_is_sent_to(
    repo: Repo,
) -> None:
    files = {"m.py": textwrap.dedent(CLIENTS) + 'Client().head("/")\nCounting().get("/")\n'}
    repo.write(files).build()
    assert EdgeFlag.PARTIAL in flags(repo, "m.Client.head", "m.Counting.open")
    assert EdgeFlag.PARTIAL in flags(repo, "m.Client.get", "m.Client.open")
    assert EdgeFlag.PARTIAL not in flags(repo, "m.Client.head", "m.Client.open")
    assert EdgeFlag.PARTIAL not in flags(repo, "m.Client.get", "m.Counting.open")


def test_a_base_method_sent_to_self_reaches_every_class_of_its_cone(repo: Repo) -> None:
    files = {
        "m.py": textwrap.dedent(CLIENTS).replace(
            "    class Counting",
            "    def fetch(self, path):\n        return self.head(path)\nclass Counting",
        )
    }
    files["m.py"] += 'Counting().fetch("/")\nClient().get("/")\n'
    repo.write(files).build()
    assert EdgeFlag.PARTIAL not in flags(repo, "m.Client.head", "m.Counting.open")
    assert EdgeFlag.PARTIAL not in flags(repo, "m.Client.head", "m.Client.open")


def test_an_edit_sending_a_base_method_to_a_subclass_draws_the_base_method_again(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"m.py": textwrap.dedent(CLIENTS), "app.py": "from m import Client, Counting\n"}
    files["app.py"] += 'counting = Counting()\nClient().head("/")\ncounting.get("/")\n'
    repo.write(files).build()
    assert EdgeFlag.PARTIAL in flags(repo, "m.Client.head", "m.Counting.open")
    # Only app.py changed, but the edge is m.py's: a new call of an old method passes its
    # receiver into the method's parameter, so the last solve is not taken on.
    report = repo.write({"app.py": files["app.py"] + 'counting.head("/")\n'}).build()
    assert report.solves[0] == "python: the edit flows into an old variable"
    assert EdgeFlag.PARTIAL not in flags(repo, "m.Client.head", "m.Counting.open")
    repo.close()
    monkeypatch.undo()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)


def _continued_equals_fresh(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, app: str, added: str
) -> str:
    """Build m.py (CLIENTS) with ``app``, add ``added`` to app.py, and check the edited map
    is the fresh map, and that the edit moved ``Client.head -> Counting.open``; the edit's
    solve reason is returned."""
    repo.write({"m.py": textwrap.dedent(CLIENTS), "app.py": app}).build()
    before = flags(repo, "m.Client.head", "m.Counting.open")
    report = repo.write({"app.py": app + added}).build()
    after = flags(repo, "m.Client.head", "m.Counting.open")
    repo.close()
    monkeypatch.undo()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)
    assert after != before  # (the edit did change the base method's edge)
    return report.solves[0]


APP = 'from m import Client, Counting\nClient().head("/")\nCounting().get("/")\n'


@pytest.mark.parametrize(
    "added",
    [
        '    x.head("/")\n',
        "    getattr(x, 'head')('/')\n",
    ],
    ids=["call", "getattr"],
)
def test_an_edit_calling_a_barred_method_name_on_an_unknown_object_is_drawn_as_a_fresh_map(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, added: str
) -> None:
    # (the unknown object is a parameter nothing passes: its body may be sent anything)
    app = APP + "def use(x):\n    print(x)\n"
    reason = _continued_equals_fresh(repo, tmp_path, monkeypatch, app, added)
    assert reason == "python: the edit changes the classes a base method is sent to"


def test_an_edit_making_a_subclass_never_made_before_is_drawn_as_a_fresh_map(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = "from m import Client, Counting\nClient().head('/')\nclient = Client()\n"
    reason = _continued_equals_fresh(repo, tmp_path, monkeypatch, app, "counting = Counting()\n")
    assert reason == "python: the edit changes the classes a base method is sent to"


def test_an_edit_calling_another_name_on_an_unknown_object_is_still_continued(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = APP + "def use(x):\n    print(x)\n"
    repo.write({"m.py": textwrap.dedent(CLIENTS), "app.py": app}).build()
    report = repo.write({"app.py": app + '    x.fetch("/")\n'}).build()
    assert report.solves == ("python: continued from the last solve (1 files changed)",)
    assert EdgeFlag.PARTIAL in flags(repo, "m.Client.head", "m.Counting.open")
    repo.close()
    monkeypatch.undo()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)


def test_an_edit_sending_a_base_method_with_no_arguments_to_a_subclass_is_drawn_as_a_fresh_map(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (nothing but the receiver is passed: no old variable is given anything)
    repo.write({"m.py": textwrap.dedent(CLIENTS).replace(", path", "").replace("(path)", "()")})
    app = "from m import Client, Counting\ncounting = Counting()\nClient().head()\ncounting.get()\n"
    repo.write({"app.py": app}).build()
    assert EdgeFlag.PARTIAL in flags(repo, "m.Client.head", "m.Counting.open")
    report = repo.write({"app.py": app + "counting.head()\n"}).build()
    assert EdgeFlag.PARTIAL not in flags(repo, "m.Client.head", "m.Counting.open")
    repo.close()
    monkeypatch.undo()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)
    assert report.solves[0] == "python: the edit changes the classes a base method is sent to"


CONTEXTS = """
    class Context:
        def __enter__(self):
            self.set(1)
        def __exit__(self, *exc):
            self.set(None)
        def set(self, value):
            "Each subclass sets its own."
            raise NotImplementedError("set")
    class Env(Context):
        def set(self, value):
            self.value = value
    class Registry(Context):
        def set(self, value):
            self.value = value
"""


def test_a_placeholder_every_made_class_overrides_is_reached_only_partially(repo: Repo) -> None:
    # dateutil's TZContextBase: nobody makes the base, whose set_current_tz only raises
    build(
        repo,
        {"m.py": CONTEXTS + "    with Env():\n        pass\n    with Registry():\n        pass\n"},
    )
    assert EdgeFlag.PARTIAL in flags(repo, "m.Context.__enter__", "m.Context.set")
    assert EdgeFlag.PARTIAL not in flags(repo, "m.Context.__enter__", "m.Env.set")
    assert EdgeFlag.PARTIAL not in flags(repo, "m.Context.__exit__", "m.Registry.set")


@pytest.mark.parametrize(
    ("made", "body"),
    [
        ("with Context():\n        pass\n", 'raise NotImplementedError("set")'),
        ("with Env():\n        pass\n", "print(value)\n            raise NotImplementedError"),
    ],
    ids=["the base made", "more than a raise"],
)
def test_a_placeholder_a_made_class_runs_or_a_method_doing_more_stays_certain(
    repo: Repo, made: str, body: str
) -> None:
    source = CONTEXTS.replace('raise NotImplementedError("set")', body)
    build(repo, {"m.py": source + "    " + made})
    assert EdgeFlag.PARTIAL not in flags(repo, "m.Context.__enter__", "m.Context.set")


def test_an_edit_making_the_base_of_a_placeholder_is_drawn_as_a_fresh_map(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        "m.py": textwrap.dedent(CONTEXTS),
        "app.py": "from m import Context, Env\nwith Env():\n    pass\n",
    }
    repo.write(files).build()
    assert EdgeFlag.PARTIAL in flags(repo, "m.Context.__enter__", "m.Context.set")
    # (made and not used: no old variable is given anything)
    report = repo.write({"app.py": files["app.py"] + "base = Context()\n"}).build()
    assert EdgeFlag.PARTIAL not in flags(repo, "m.Context.__enter__", "m.Context.set")
    repo.close()
    monkeypatch.undo()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)
    assert report.solves[0] == "python: the edit changes the classes a base method is sent to"


ELEMENTS = """
    class Element:
        def __init__(self, text):
            self.text = text
        @classmethod
        def using_each(cls, seq):
            return [cls(item) for item in seq]
        @classmethod
        def parse(cls, text):
            return cls(text)
    class Literal(Element):
        def __init__(self, text):
            super().__init__(text)
    class Keyword(Element):
        def __init__(self, text):
            super().__init__(text.upper())
    class Block(Element):
        def __init__(self, column):
            super().__init__("")
"""


def test_a_classmethod_s_cls_makes_for_certain_only_the_classes_it_is_called_through(
    repo: Repo,
) -> None:
    main = 'Literal.using_each("()")\nKeyword.using_each(["if"])\nBlock(4)\nKeyword.parse("x")\n'
    repo.write({"m.py": textwrap.dedent(ELEMENTS) + main}).build()
    assert EdgeFlag.PARTIAL not in flags(repo, "m.Element.using_each", "m.Literal.__init__")
    assert EdgeFlag.PARTIAL not in flags(repo, "m.Element.using_each", "m.Keyword.__init__")
    assert EdgeFlag.PARTIAL in flags(repo, "m.Element.using_each", "m.Block.__init__")
    assert EdgeFlag.PARTIAL in flags(repo, "m.Element.using_each", "m.Element.__init__")
    # (an alternative constructor called through one known class stays certain)
    assert EdgeFlag.PARTIAL not in flags(repo, "m.Element.parse", "m.Keyword.__init__")
    assert EdgeFlag.PARTIAL in flags(repo, "m.Element.parse", "m.Literal.__init__")


def test_a_classmethod_called_through_an_unknown_object_stays_open_to_its_whole_cone(
    repo: Repo,
) -> None:
    main = 'Literal.using_each("()")\ndef use(x):\n    return x.using_each("ab")\n'
    repo.write({"m.py": textwrap.dedent(ELEMENTS) + main}).build()
    assert EdgeFlag.PARTIAL not in flags(repo, "m.Element.using_each", "m.Literal.__init__")
    assert EdgeFlag.PARTIAL not in flags(repo, "m.Element.using_each", "m.Block.__init__")


def test_an_edit_calling_a_classmethod_through_another_class_draws_it_again(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = 'from m import Literal, Block\nLiteral.using_each("()")\nBlock(4)\n'
    repo.write({"m.py": textwrap.dedent(ELEMENTS), "app.py": app}).build()
    assert EdgeFlag.PARTIAL in flags(repo, "m.Element.using_each", "m.Block.__init__")
    repo.write({"app.py": app + 'Block.using_each("ab")\n'}).build()
    assert EdgeFlag.PARTIAL not in flags(repo, "m.Element.using_each", "m.Block.__init__")
    repo.close()
    monkeypatch.undo()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)
