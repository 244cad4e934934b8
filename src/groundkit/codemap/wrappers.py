"""Client calls made through a frontend's own wrappers: each call of a wrapper with a path is a
client call with the wrapper's method and URL (``codemap.routes`` holds the facts; the
extractors find wrappers and their calls, this joins them across files)."""

from __future__ import annotations

from collections.abc import Sequence

from groundkit.codemap.model import NodeKey, Provenance
from groundkit.codemap.routes import HttpCallSite, UrlArgument

__all__ = ["WRAPPER_DEPTH", "through_wrappers"]

# How many wrappers deep a URL is followed: a call of a wrapper of a wrapper of a wrapper.
WRAPPER_DEPTH = 4


def through_wrappers(
    calls: Sequence[HttpCallSite], arguments: Sequence[UrlArgument]
) -> list[HttpCallSite]:
    """The client calls made through wrappers: each call of a wrapper with a path, with the
    wrapper's method and URL, the path in the parameter's place. A call handing on a parameter
    of its own function makes that function a wrapper in turn, up to ``WRAPPER_DEPTH`` levels
    (a circle of wrappers ends there, or sooner when nothing new is made)."""
    handed: dict[tuple[NodeKey, int], list[UrlArgument]] = {}
    for arg in arguments:
        handed.setdefault((arg.callee, arg.position), []).append(arg)
    frontier = [call for call in calls if call.param >= 0]
    seen: set[HttpCallSite] = set()
    out: list[HttpCallSite] = []
    for _ in range(WRAPPER_DEPTH):
        made = []
        for wrapper in frontier:
            for arg in handed.get((wrapper.caller, wrapper.param), ()):
                call = _filled(wrapper, arg)
                if call is not None and call not in seen:
                    seen.add(call)
                    made.append(call)
        out.extend(made)
        frontier = [call for call in made if call.param >= 0]
    return out


def _filled(wrapper: HttpCallSite, arg: UrlArgument) -> HttpCallSite | None:
    """The call ``arg`` makes through ``wrapper``; None when the wrapper's method is a parameter
    this call does not fill with a client's method."""
    method = wrapper.method
    if wrapper.verb >= 0:
        method = dict(arg.verbs).get(wrapper.verb, "")
        if not method:
            return None
    hole = wrapper.hole
    url = (*wrapper.url[:hole], *arg.url, *wrapper.url[hole + 1 :])
    at = hole + arg.hole if arg.param >= 0 else -1
    return HttpCallSite(
        arg.caller,
        method,
        url,
        Provenance.HTTP_TEMPLATE,
        arg.location,
        arg.quote,
        param=arg.param,
        hole=at,
        partial=wrapper.partial or arg.partial,
    )
