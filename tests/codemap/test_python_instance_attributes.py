"""An instance attribute is one cell for every instance of its class, but a method runs on one
instance, holding what its own constructor call gave it. Where different calls store different
callables, a call through the attribute is partial; where every call stores the same, or one
instance is made, it stays certain. The shape is httpx's ``MockTransport(handler)``."""

from __future__ import annotations

import textwrap

from map_helpers import Repo, build

TRANSPORT = textwrap.dedent(
    """
    class Transport:
        def __init__(self, handler):
            self.handler = handler
        def send(self, request):
            return self.handler(request)
    def hello(request): return request
    def goodbye(request): return request
    """
)


def test_a_handler_each_constructor_call_gives_its_instance_is_partial_where_read(
    repo: Repo,
) -> None:
    build(repo, {"m.py": TRANSPORT + "Transport(hello).send(1)\nspare = Transport(goodbye)\n"})
    assert ("m.Transport.send", "m.hello") in repo.pairs("calls")
    assert ("m.Transport.send", "m.hello") not in repo.certain("calls")
    assert ("m.Transport.send", "m.goodbye") not in repo.certain("calls")


def test_a_handler_handed_on_by_a_factory_s_parameter_is_partial_where_read(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": TRANSPORT
            + "def make(handler): return Transport(handler)\n"
            + "make(hello).send(1)\nspare = make(goodbye)\n"
        },
    )
    assert ("m.Transport.send", "m.hello") in repo.pairs("calls")
    assert ("m.Transport.send", "m.hello") not in repo.certain("calls")


def test_the_handler_of_the_only_instance_stays_certain(repo: Repo) -> None:
    build(repo, {"m.py": TRANSPORT + "t = Transport(hello)\nt.send(1)\nt.send(2)\n"})
    assert ("m.Transport.send", "m.hello") in repo.certain("calls")


def test_a_handler_every_constructor_call_gives_stays_certain(repo: Repo) -> None:
    build(repo, {"m.py": TRANSPORT + "Transport(hello).send(1)\nTransport(hello).send(2)\n"})
    assert ("m.Transport.send", "m.hello") in repo.certain("calls")


def test_a_handler_one_call_gives_beside_another_giving_none_stays_certain(repo: Repo) -> None:
    build(repo, {"m.py": TRANSPORT + "Transport(hello).send(1)\nidle = Transport(None)\n"})
    assert ("m.Transport.send", "m.hello") in repo.certain("calls")


def test_a_handler_one_constructor_call_in_a_loop_gives_each_instance_is_partial_where_read(
    repo: Repo,
) -> None:
    # pluggy's register: one call site makes an instance per function of a list
    build(
        repo,
        {"m.py": TRANSPORT + "for h in [hello, goodbye]:\n    Transport(h).send(1)\n"},
    )
    assert ("m.Transport.send", "m.hello") in repo.pairs("calls")
    assert ("m.Transport.send", "m.hello") not in repo.certain("calls")
    assert ("m.Transport.send", "m.goodbye") not in repo.certain("calls")


def test_a_handler_every_call_gives_from_the_same_list_is_partial_where_read(
    repo: Repo,
) -> None:
    # each call's argument holds both functions: agreeing calls are no single handler
    build(
        repo,
        {
            "m.py": TRANSPORT
            + "def make(hs): return [Transport(h) for h in hs]\n"
            + "make([hello, goodbye])[0].send(1)\nmake([hello, goodbye])\n"
        },
    )
    assert ("m.Transport.send", "m.hello") not in repo.certain("calls")


def test_a_bound_method_of_instances_of_two_classes_sharing_it_stays_certain(
    repo: Repo,
) -> None:
    # one function runs whichever instance it is bound to
    build(
        repo,
        {
            "m.py": TRANSPORT
            + "class Base:\n    def run(self, request): return request\n"
            + "class A(Base): pass\nclass B(Base): pass\n"
            + "for o in [A(), B()]:\n    Transport(o.run).send(1)\n"
        },
    )
    assert ("m.Transport.send", "m.Base.run") in repo.certain("calls")


def test_a_handler_stored_with_an_annotation_is_partial_where_read(repo: Repo) -> None:
    # pluggy's HookImpl: ``self.function: Final = function``
    source = TRANSPORT.replace("self.handler = handler", "self.handler: Final = handler")
    build(
        repo,
        {
            "m.py": "from typing import Final\n"
            + source
            + "Transport(hello).send(1)\nspare = Transport(goodbye)\n"
        },
    )
    assert ("m.Transport.send", "m.hello") in repo.pairs("calls")
    assert ("m.Transport.send", "m.hello") not in repo.certain("calls")
