"""A class decorator that returns a subclass it makes in its body (``class Wrapper(cls): ...;
return Wrapper``) binds the decorated name to that subclass: a class deriving from the name has
the made class's body and then the decorated class above it. The shape is tornado's
``abstract_base_test`` (precision draw 8)."""

from __future__ import annotations

from map_helpers import Repo, build

WRAPPER = """
                def abstract(cls):
                    class Wrapper(cls):
                        def setup(self):
                            return super().setup()
                    return Wrapper
"""


def test_a_class_a_decorator_applied_once_subclasses_finds_the_decorated_class_methods(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": """
                def describable(cls):
                    class Described(cls):
                        def describe(self):
                            return "a " + self.name
                    return Described
                @describable
                class Thing:
                    def __init__(self):
                        self.name = "thing"
                Thing().describe()
            """
        },
    )
    certain = repo.certain("calls")
    assert ("m", "m.Thing.__init__") in certain
    assert ("m", "m.describable.Described.describe") in certain
    assert ("m", "m.describable.Described") not in repo.pairs("calls")


def test_a_subclass_of_a_decorated_name_runs_the_decorated_class_methods(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": WRAPPER
            + """
                @abstract
                class Base:
                    def make(self):
                        raise NotImplementedError
                    def run(self):
                        return self.make()
                    def setup(self):
                        return 1
                @abstract
                class Middle(Base):
                    def make(self):
                        return "middle"
                class Leaf(Middle):
                    def make(self):
                        return "leaf"
                class Other(Base):
                    def make(self):
                        return "other"
                Leaf().run()
                Other().run()
                Leaf().setup()
            """
        },
    )
    certain = repo.certain("calls")
    assert ("m", "m.Base.run") in certain
    assert ("m.Base.run", "m.Leaf.make") in certain
    assert ("m.Base.run", "m.Other.make") in certain
    assert ("m", "m.abstract.Wrapper.setup") in certain  # the made class's body comes first
    assert ("m.abstract.Wrapper.setup", "m.Base.setup") in certain
    assert {("m.Leaf", "m.Middle"), ("m.Leaf", "m.abstract.Wrapper")} <= repo.pairs("inherits")


def test_a_class_a_decorator_makes_on_several_classes_keeps_its_base_unknown(
    repo: Repo,
) -> None:
    # Described is made on Thing and on Other: one body, two bases; what __init__ a made
    # instance runs is not Thing's alone.
    build(
        repo,
        {
            "m.py": """
                def describable(cls):
                    class Described(cls):
                        def describe(self):
                            return "a " + self.name
                    return Described
                @describable
                class Thing:
                    def __init__(self):
                        self.name = "thing"
                class Other:
                    def __init__(self):
                        self.name = "other"
                Also = describable(Other)
                Thing().describe()
                Also().describe()
            """
        },
    )
    certain = repo.certain("calls")
    assert ("m", "m.Thing.__init__") not in certain
    assert ("m", "m.Other.__init__") not in certain
