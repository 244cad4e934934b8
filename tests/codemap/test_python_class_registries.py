"""A handler read from a class attribute registry through the receiver and handed that receiver
sees only the classes whose registry holds it. Where the classes find different registries (a
classmethod gives each class its own copy, pyyaml's ``add_constructor(..., Loader=MyLoader)``)
what the handler calls on the receiver is partial; where they all share one, it stays
certain."""

from __future__ import annotations

import textwrap

from map_helpers import Repo, build

REGISTRY = textwrap.dedent(
    """
    class Base:
        handlers = {}

        @classmethod
        def add_handler(cls, tag, handler):
            {copy}
            cls.handlers[tag] = handler

        def build(self, tag):
            return self.handlers[tag](self)

        def read(self):
            return "base"


    class Loader(Base):
        def read(self):
            return "loader"


    def on_tag(loader):
        return loader.read()


    Base.add_handler("p", len)
    Loader.add_handler("t", on_tag)
    Base().build("p")
    Loader().build("t")
    """
)

COPY = 'if "handlers" not in cls.__dict__: cls.handlers = cls.handlers.copy()'


def test_a_handler_kept_in_one_subclass_s_own_registry_calls_the_receiver_partially(
    repo: Repo,
) -> None:
    build(repo, {"m.py": REGISTRY.replace("{copy}", COPY)})
    assert ("m.on_tag", "m.Loader.read") in repo.pairs("calls")
    assert ("m.on_tag", "m.Base.read") not in repo.certain("calls")
    assert ("m.on_tag", "m.Loader.read") not in repo.certain("calls")


def test_a_handler_of_a_subclass_binding_its_own_registry_calls_the_receiver_partially(
    repo: Repo,
) -> None:
    source = textwrap.dedent(
        """
        def on_tag(loader):
            return loader.read()


        class Base:
            handlers = {"p": len}

            def build(self, tag):
                return self.handlers[tag](self)

            def read(self):
                return "base"


        class Loader(Base):
            handlers = {"t": on_tag}

            def read(self):
                return "loader"


        Base().build("p")
        Loader().build("t")
        """
    )
    build(repo, {"m.py": source})
    assert ("m.on_tag", "m.Base.read") not in repo.certain("calls")


def test_a_registry_read_through_the_receiver_s_class_counts_as_the_receiver_s(
    repo: Repo,
) -> None:
    for through in ("type(self)", "self.__class__"):
        source = REGISTRY.replace("{copy}", COPY).replace(
            "return self.handlers[tag](self)",
            f"handler = {through}.handlers[tag]\n        return handler(self)",
        )
        build(repo, {"m.py": source})
        assert ("m.on_tag", "m.Base.read") not in repo.certain("calls"), through


def test_a_handler_in_the_one_registry_every_class_shares_stays_certain(repo: Repo) -> None:
    build(repo, {"m.py": REGISTRY.replace("{copy}", "pass")})
    assert ("m.on_tag", "m.Base.read") in repo.certain("calls")
    assert ("m.on_tag", "m.Loader.read") in repo.certain("calls")
