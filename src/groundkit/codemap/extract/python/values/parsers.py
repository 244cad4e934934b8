"""Command lines a reader follows: ``argparse`` sub-commands dispatched through the namespace.

    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    sub.add_parser("serve").set_defaults(func=serve)
    args = parser.parse_args()
    args.func(args)          # -> serve

Every parser, sub-parser action and sub-parser made from one ``ArgumentParser(...)`` call shares
that call's *namespace* (a container whose slots are its attributes): ``set_defaults(k=v)``
writes slot ``k``, ``parse_args()`` gives the namespace, and reading ``args.k`` reads the slot.
Several sub-commands setting ``func`` write the slot several times: which one runs is decided
by the command line, so the call is a run-time choice (partial).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundkit.codemap.extract.python.values import objects
from groundkit.codemap.extract.python.values.keys import Args, SiteKey

if TYPE_CHECKING:
    from groundkit.codemap.extract.python.values.state import Flow

__all__ = ["NAMESPACE", "CommandLines"]

NAMESPACE = "namespace"  # the tag of a namespace's SYN value
_PARSER = "argparse.ArgumentParser"
# Methods whose result is another parser-like object of the same command line.
_SAME_LINE = {
    "add_subparsers": "argparse._SubParsersAction",
    "add_parser": _PARSER,
    "add_argument_group": _PARSER,
    "add_mutually_exclusive_group": _PARSER,
}
_PARSE = frozenset({"parse_args", "parse_intermixed_args"})
_PARSE_KNOWN = frozenset({"parse_known_args", "parse_known_intermixed_args"})


class CommandLines:
    def __init__(self, flow: Flow) -> None:
        self.flow = flow

    @staticmethod
    def owns(name: str) -> bool:
        return name.startswith("argparse.")

    def made(self, name: str, site: SiteKey) -> int:
        """``argparse.ArgumentParser(...)`` at ``site``: a parser that roots a command line."""
        return self.flow.value(objects.EXTINST, name, site)

    def method(
        self,
        receiver: int,
        method: str,
        args: Args,
        keywords: list[tuple[str, int]],
        dst: int,
    ) -> bool:
        """A method of a parser-like object (``receiver``, an EXTINST of argparse); whether
        argparse may call what it is given (``type=``, ``action=``): only ``set_defaults``
        keeps its values for the code to call."""
        flow = self.flow
        root = flow.values.made_at(receiver)
        if root is None:
            flow.engine.add(dst, [flow.value(objects.EXTINST, "?", None)])
            return True
        namespace = flow.value(objects.SYN, NAMESPACE, root)
        if method in _SAME_LINE:
            flow.engine.add(dst, [flow.value(objects.EXTINST, _SAME_LINE[method], root)])
        elif method == "set_defaults":
            for key, var in keywords:
                if key:
                    flow.engine.flow(var, flow.slot(namespace, key))
            flow.engine.add(dst, [objects.LIT_ID])
            return False
        elif method in _PARSE:
            flow.engine.add(dst, [namespace])
        elif method in _PARSE_KNOWN:
            pair = flow.value(objects.SYN, "parsed", root)
            flow.engine.add(flow.slot(pair, 0), [namespace])
            flow.engine.add(flow.slot(pair, 1), [objects.LIT_ID])
            flow.engine.add(dst, [pair])
        else:
            flow.engine.add(dst, [flow.value(objects.EXTINST, "?", None)])
        return True
