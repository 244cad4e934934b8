"""What calling a class gives when its ``__new__`` returns something else than the instance it
made, and which methods no instance runs: an ``@abstractmethod`` (``ABCMeta`` refuses an
instance that leaves one abstract) and a ``typing.Protocol``'s own methods. The shapes are
anyio's (precision draw 14)."""

from __future__ import annotations

from map_helpers import Repo, build, calls

from groundkit.codemap.model import EdgeFlag

_BACKEND = """
import sys
class CancelScope:
    def __new__(cls, *, shield=False):
        return getattr(sys.modules[__name__], "Backend").create(shield)
    def __enter__(self): raise NotImplementedError
    def __exit__(self, *exc): raise NotImplementedError
"""


def test_with_on_a_class_whose_new_returns_an_unknown_object_draws_none_of_its_dunders(
    repo: Repo,
) -> None:
    build(repo, {"m.py": _BACKEND + "def run():\n    with CancelScope():\n        pass\n"})
    pairs = repo.pairs("calls")
    assert ("m.run", "m.CancelScope.__new__") in repo.certain("calls")
    assert ("m.run", "m.CancelScope.__enter__") not in pairs
    assert ("m.run", "m.CancelScope.__exit__") not in pairs


def test_a_new_returning_another_class_s_instance_gives_that_instance(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
class FileLock:
    def acquire(self): return True
class Lock:
    def __new__(cls): return FileLock()
    def acquire(self): return False
def run():
    return Lock().acquire()
"""
        },
    )
    assert ("m.run", "m.FileLock.acquire") in repo.certain("calls")
    assert ("m.run", "m.Lock.acquire") not in repo.pairs("calls")


def test_a_new_returning_its_instance_on_one_branch_only_makes_a_choice(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
import os
class Other:
    def run(self): return 1
class Base:
    def __new__(cls):
        return super().__new__(cls) if os.environ.get("X") else Other()
    def run(self): return 2
def use():
    return Base().run()
"""
        },
    )
    assert EdgeFlag.PARTIAL in calls(repo, "m.use", "m.Base.run").flags
    assert EdgeFlag.PARTIAL in calls(repo, "m.use", "m.Other.run").flags


def test_a_singleton_new_made_by_super_new_keeps_its_class_s_methods_certain(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
class Registry:
    _instance = None
    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance
    def __enter__(self): return self
    def __exit__(self, *exc): return False
    def names(self): return []
def run():
    with Registry():
        pass
    return Registry().names()
"""
        },
    )
    certain = repo.certain("calls")
    for method in ("__enter__", "__exit__", "names"):
        assert ("m.run", f"m.Registry.{method}") in certain, method


_STREAMS = """
from abc import ABC, abstractmethod
class ByteStream(ABC):
    @abstractmethod
    def receive(self):
        return b""
    def describe(self): return "stream"
class SocketStream(ByteStream):
    def receive(self):
        return super().receive()
def handle(stream: ByteStream):
    return stream.receive(), stream.describe()
handle(SocketStream())
"""


def test_an_abstract_method_reached_through_an_annotation_is_no_target(repo: Repo) -> None:
    build(repo, {"m.py": _STREAMS})
    certain = repo.certain("calls")
    assert ("m.handle", "m.ByteStream.receive") not in repo.pairs("calls")
    assert ("m.handle", "m.SocketStream.receive") in certain
    assert ("m.handle", "m.ByteStream.describe") in certain  # (inherited: it runs)
    assert ("m.SocketStream.receive", "m.ByteStream.receive") in certain  # super() runs its body


def test_a_protocol_s_own_method_is_no_target_but_one_a_subclass_inherits_is(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
from typing import Protocol
class Greeter(Protocol):
    def greet(self) -> str:
        return "hello"
    def name(self) -> str: ...
class English(Greeter):
    def name(self) -> str:
        return "en"
def welcome(greeter: Greeter):
    return greeter.greet() + greeter.name()
welcome(English())
"""
        },
    )
    certain = repo.certain("calls")
    assert ("m.welcome", "m.Greeter.greet") in certain
    assert ("m.welcome", "m.English.name") in certain
    assert ("m.welcome", "m.Greeter.name") not in repo.pairs("calls")
