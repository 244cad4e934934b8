"""HTTP client calls in TypeScript/JavaScript, as language-neutral facts (``codemap.routes``):
``fetch`` (``fetch(new Request(url, {method}))`` too), ``axios`` (and ``axios.create({baseURL})``
instances, and Nuxt's ``$axios``), ``ky``, ``ofetch`` (and Nuxt's ``$fetch``) and
``superagent`` calls; a generated API client's calls with the URL in an options object
(``_generated_client``); calls of the frontend's own wrappers (``web/wrappers.py``).

A client call whose URL has no literal part is not an HTTP call, unless the URL is a parameter
of the calling function: then the function is a wrapper, its callers' URLs filled in
(``routes.through_wrappers``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.values.evaluate import Evaluator
from groundkit.codemap.extract.typescript.values.flow import Flow
from groundkit.codemap.extract.typescript.values.objects import (
    Ext,
    Feed,
    Global,
    Scope,
    Str,
    Value,
    Web,
    node_key,
)
from groundkit.codemap.extract.typescript.web.wrappers import (
    NUXT_AXIOS,
    called_through,
    handed_verb,
    subclass_urls,
    url_text,
)
from groundkit.codemap.model import Location, NodeKey, Provenance
from groundkit.codemap.routes import HttpCallSite, UrlArgument

__all__ = ["ClientCalls", "whole_text"]

_VERBS = frozenset("get post put patch delete head options".split())
_FETCH = frozenset({"fetch", "window.fetch", "globalThis.fetch", "self.fetch", "$fetch"})
_FETCH_PACKAGES = frozenset({"node-fetch", "cross-fetch", "undici", "isomorphic-fetch"})


class ClientCalls:
    """The client calls of one file and the URLs it hands to the repository's functions."""

    def __init__(self, ev: Evaluator, text: Callable[[int], str], flow: Flow) -> None:
        self.ev = ev
        self.flow = flow
        self.text = text
        self.http: list[HttpCallSite] = []
        self.arguments: list[UrlArgument] = []

    def call(
        self,
        ref: list[str],
        receiver: Value | None,
        value: Value,
        args: list[facts.Expr],
        scope: Scope,
        caller: NodeKey,
        where: Location,
    ) -> None:
        """A call that is not a server's: a client's, a wrapper's through a parameter, or a
        generated client's."""
        attr = ref[-1]
        if type(value) is Feed:
            self._through(value, args, scope, caller, where)
            return
        client = self._client(receiver, value, attr)
        if client is not None:
            self._http(client, attr if receiver is not None else "", args, scope, caller, where)
        elif _generated_client(ref, receiver, value, args):
            self._options(attr, args, scope, caller, where)

    def argument(
        self,
        args: list[facts.Expr] | None,
        callee: NodeKey,
        scope: Scope,
        caller: NodeKey,
        where: Location,
    ) -> None:
        """A repository function called with a path, or with a parameter of the caller in its
        URL: a client call, or a wrapper of its own, if the callee is a wrapper."""
        found = self._urls(args, scope, caller, where)
        for url in found:
            self.arguments.append(replace(url, callee=callee))

    def _urls(
        self, args: list[facts.Expr] | None, scope: Scope, caller: NodeKey, where: Location
    ) -> list[UrlArgument]:
        """The URL arguments of a call (the callee left to fill in), each with the client
        methods handed on beside it."""
        found: list[UrlArgument] = []
        verbs: list[tuple[int, str]] = []
        for position, arg in enumerate(args or ()):
            verb = handed_verb(self.ev, arg, scope)
            if verb:
                verbs.append((position, verb))
                continue
            if not isinstance(arg, facts.Str | facts.Template | facts.Call | facts.Ref):
                continue
            unsure: set[str] = set()
            url = url_text(self.ev, arg, scope, unsure=unsure)
            hole = self._parameter(arg, scope, caller)
            text = self.text(where.line)
            if hole is None and (url is None or url.pieces[:1] == (None,)):
                # this.itemRoute(id) in a base class: each subclass's URL, one of the call's
                for each in subclass_urls(self.ev, self.flow, arg, scope):
                    made = UrlArgument(caller, caller, position, each.pieces, where, text)
                    found.append(replace(made, partial=True))
                continue
            if url is None:
                url = Str((None,))
            if hole is None and not _a_path(url.pieces):
                continue
            param, at = hole if hole is not None else (-1, -1)
            made = UrlArgument(caller, caller, position, url.pieces, where, text, param, at)
            found.append(replace(made, partial=True) if unsure else made)
        return [replace(url, verbs=tuple(verbs)) for url in found]

    def _through(
        self, feed: Feed, args: list[facts.Expr], scope: Scope, caller: NodeKey, where: Location
    ) -> None:
        """A call through a parameter: of the caller's own (``funcCall(url, data)``, a client's
        method its callers hand in) a wrapper's call whose method they give; else each function
        the value flow says it runs is called with these arguments."""
        if not feed.path and node_key(feed.func) == caller:
            self._http(Web("axios"), "", args, scope, caller, where, feed.position)
            return
        found = self._urls(args, scope, caller, where)
        if not found:
            return  # no URL handed: the flow is not asked
        for target in called_through(self.flow, feed):
            callee = node_key(target)
            self.arguments.extend(replace(url, callee=callee) for url in found)

    def _client(self, receiver: Value | None, value: Value, attr: str) -> Web | None:
        if type(value) is Web and value.is_client:
            return value  # api(url): an axios instance called
        if type(receiver) is Web and receiver.is_client:
            return receiver if attr in _VERBS or attr == "request" else None
        if type(value) is Global and value.name in _FETCH:
            return Web("fetch")
        if type(value) is not Ext:
            return None
        package, attrs = value.package, value.attrs
        if package in _FETCH_PACKAGES and attrs in ((), ("default",), ("fetch",)):
            return Web("fetch")
        if package in ("axios", "ky") and (not attrs or attrs[-1] in (*_VERBS, "request")):
            return Web(package)
        if (package, attrs[:-1]) == NUXT_AXIOS and attrs[-1] in _VERBS:
            return Web("axios")  # useContext().$axios.get(url): @nuxtjs/axios's instance
        if (package, attrs) == NUXT_AXIOS:
            return Web("axios")  # $axios({url, method}): the instance called with a config
        if package == "ofetch" and attrs in ((), ("default",), ("ofetch",), ("$fetch",)):
            return Web("fetch")
        # superagent.get(url), or through superagent-promise's wrapper of it
        if package in ("superagent", "superagent-promise") and attrs and attrs[-1] in _VERBS:
            return Web("superagent")
        return None

    def _http(
        self,
        client: Web,
        attr: str,
        args: list[facts.Expr],
        scope: Scope,
        caller: NodeKey,
        where: Location,
        verb_param: int = -1,
    ) -> None:
        """A client call; ``verb_param``: the method is the caller's parameter there (its
        callers hand the client's method in)."""
        method, url_arg, options = "", None, None
        verb = attr if attr in _VERBS else ""
        if not args:
            return
        first = args[0]
        if type(first) is facts.Ref and len(first.parts) == 1:
            bound = self._bound(first.parts[0], scope)  # const request = new Request(...)
            if bound is not None and isinstance(bound[0], facts.New):
                first, scope = bound
        if type(first) is facts.New and first.ref == ["Request"] and first.args:
            args = first.args  # fetch(new Request(url, {method})): the request's own
            first = args[0]
        if type(first) is facts.ObjectLit and client.role == "axios":  # axios({url, method})
            options = first.fields
            url_arg = options.get("url")
        else:
            url_arg = args[0]
            at = 2 if client.role == "axios" and verb in ("post", "put", "patch") else 1
            item = args[at] if at < len(args) else None
            options = item.fields if type(item) is facts.ObjectLit else None
        if verb:
            method = verb.upper()
        elif options is not None and "method" in options:
            method = (whole_text(self.ev, options["method"], scope) or "").upper()
        elif options is None or "method" not in options:
            method = "GET"
        unsure: set[str] = set()
        url = url_text(self.ev, url_arg, scope, unsure=unsure) if url_arg is not None else None
        hole = self._parameter(url_arg, scope, caller)
        if url is None and hole is not None:
            url = Str((None,))  # (url) => axios.get(url): the whole URL is the callers'
        if verb_param >= 0:
            method = ""
            if hole is None:
                return  # a function handed in, called with a URL of its own: not followed
        elif not method:
            return
        unknown_head = url is None or url.pieces[:1] == (None,)
        if unknown_head and hole is None and url_arg is not None:
            # this.itemRoute(id) in a base class: each subclass's URL, one of the call's
            per_class = subclass_urls(self.ev, self.flow, url_arg, scope)
            for each in per_class:
                self._site(client, method, each.pieces, None, caller, where, -1, True)
            if per_class or url is None:
                return
        if url is None or (hole is None and not any(url.pieces)):
            return
        self._site(client, method, url.pieces, hole, caller, where, verb_param, bool(unsure))

    def _site(
        self,
        client: Web,
        method: str,
        pieces: tuple[str | None, ...],
        hole: tuple[int, int] | None,
        caller: NodeKey,
        where: Location,
        verb_param: int,
        partial: bool,
    ) -> None:
        """A client call site, the client's base URL before a path."""
        literal = len(pieces) == 1 and pieces[0] is not None
        fallback = partial  # the base is an environment variable's literal fallback
        if client.base and not _absolute(pieces):
            fallback = fallback or client.fallback
            if hole is not None:
                hole = (hole[0], hole[1] + len(client.base) + 1)
            pieces = _join(client.base, pieces)
            literal = False
        provenance = Provenance.HTTP_LITERAL if literal else Provenance.HTTP_TEMPLATE
        text = self.text(where.line)
        param, at = hole if hole is not None else (-1, -1)
        self.http.append(
            HttpCallSite(
                caller,
                method,
                tuple(pieces),
                provenance,
                where,
                text,
                param,
                at,
                fallback,
                verb_param,
            )
        )

    def _bound(self, name: str, scope: Scope) -> tuple[facts.Expr, Scope] | None:
        """What a local name of a function (or the module) is bound to, as written, with the
        scope it is bound in (a name bound to two values is bound to Unknown)."""
        path, index = scope
        body = self.ev.body_of(path)
        while body is not None and index > 0:
            table = body.binds.get(index)
            if table and name in table:
                return table[name], (path, index)
            index = body.scopes[index].parent
        names = self.ev.interface(path).names
        return (names[name], (path, 0)) if name in names else None

    def _parameter(
        self, url: facts.Expr | None, scope: Scope, caller: NodeKey
    ) -> tuple[int, int] | None:
        """(parameter position, piece) when one piece of the URL is a parameter of the calling
        function itself, as in a wrapper: ``(url) => superagent.get(`${API_ROOT}${url}`)``."""
        parts = url.parts if type(url) is facts.Template else [url] if url else []
        found: tuple[int, int] | None = None
        index = 0
        for part in parts:
            if isinstance(part, str):
                index += 1
                continue
            value = self.ev.value(part, scope)
            if type(value) is Feed and not value.path and node_key(value.func) == caller:
                if found is not None:
                    return None  # two parameters: not one path to fill in
                found = (value.position, index)
            inner = url_text(self.ev, part, scope)
            index += len(inner.pieces) if inner is not None else 1
        return found

    def _options(
        self, attr: str, args: list[facts.Expr], scope: Scope, caller: NodeKey, where: Location
    ) -> None:
        """A generated client's call: the URL (and the method, when the function's name does
        not say it) in an options object."""
        objects = (a for a in args if type(a) is facts.ObjectLit)
        options = next(o.fields for o in objects if "url" in o.fields)
        method = (
            attr if attr in _VERBS else (whole_text(self.ev, options.get("method"), scope) or "")
        )
        url = self.ev.text(options["url"], scope)
        if method.lower() not in _VERBS or url is None or not isinstance(url.pieces[0], str):
            return
        if not url.pieces[0].startswith(("/", "http://", "https://")):
            return  # a URL with a base known only at run time before it: no path to match
        literal = len(url.pieces) == 1
        provenance = Provenance.HTTP_LITERAL if literal else Provenance.HTTP_TEMPLATE
        text = self.text(where.line)
        self.http.append(
            HttpCallSite(caller, method.upper(), tuple(url.pieces), provenance, where, text)
        )


def whole_text(ev: Evaluator, summary: facts.Expr | None, scope: Scope) -> str | None:
    """A string known as a whole, or None."""
    found = ev.text(summary, scope) if summary is not None else None
    if found is None or None in found.pieces:
        return None
    return "".join(p for p in found.pieces if p is not None)


_GENERATED_RUNTIMES = ("@hey-api/", "@orval/", "openapi-fetch")


def _generated_client(
    ref: list[str], receiver: Value | None, value: Value, args: list[facts.Expr]
) -> bool:
    """A call made the way generated API clients make them, with the URL in an options object:
    ``client.post({url: '/users/', ...})`` on a client of a generated-client runtime (or on a
    receiver with no name: ``(options?.client ?? client).post({...})``), or ``__request(OpenAPI,
    {method: 'POST', url: '/users/'})`` (openapi-typescript-codegen and hey-api's legacy
    services)."""
    if not any(type(a) is facts.ObjectLit and "url" in a.fields for a in args):
        return False
    attr = ref[-1]
    if attr in _VERBS:
        if ref[0] == "?":
            return True
        held = receiver if type(receiver) is Ext else value
        return type(held) is Ext and held.package.startswith(_GENERATED_RUNTIMES)
    first = args[0] if args else None
    return "request" in attr.lower() and type(first) is facts.Ref and first.parts == ["OpenAPI"]


def _a_path(pieces: tuple[str | None, ...]) -> bool:
    """Whether a URL handed to a function starts as a path: ``/tags``, `` `/lists/${id}` ``."""
    first = pieces[0] if pieces else None
    return isinstance(first, str) and first[:1] == "/"


def _absolute(pieces: tuple[str | None, ...]) -> bool:
    first = pieces[0] if pieces else None
    return isinstance(first, str) and first.startswith(("http://", "https://", "//"))


def _join(base: tuple[str | None, ...], url: tuple[str | None, ...]) -> tuple[str | None, ...]:
    """``baseURL`` + ``url`` with exactly one ``/`` between them, as axios and ky join them."""
    head, tail = list(base), list(url)
    if head and isinstance(head[-1], str):
        head[-1] = head[-1].rstrip("/")
    if tail and isinstance(tail[0], str):
        tail[0] = tail[0].lstrip("/")
    return (*head, "/", *tail)
