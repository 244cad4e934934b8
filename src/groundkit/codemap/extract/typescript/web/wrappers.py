"""What a frontend's own wrappers of an HTTP client hand on: URLs made by its route functions
(``routes.listLabels(id)``, an arrow returning `` `${prefix}/lists/${id}/labels` ``), a client's
method handed on as a value (``safe(axios.put, url, data)``), and the functions a call through
a parameter reaches (``this.requests.put(...)``, the value flow answering).
"""

from __future__ import annotations

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.values.evaluate import Evaluator
from groundkit.codemap.extract.typescript.values.flow import Flow
from groundkit.codemap.extract.typescript.values.objects import (
    Choice,
    Def,
    Ext,
    Feed,
    Inst,
    Scope,
    Str,
    Web,
)

__all__ = [
    "NUXT_AXIOS",
    "VERBS",
    "built_text",
    "called_through",
    "handed_verb",
    "subclass_urls",
    "url_text",
]

VERBS = frozenset("get post put patch delete head options".split())
# ``useContext().$axios`` of ``@nuxtjs/composition-api``: @nuxtjs/axios's instance.
NUXT_AXIOS = ("@nuxtjs/composition-api", ("useContext", "()", "$axios"))
# The packages whose ``package.verb`` is a client's method of that name.
_CLIENT_PACKAGES = frozenset({"axios", "ky", "superagent"})
# Route functions calling route functions: how deep a URL's text is read.
_DEPTH = 4


def url_text(
    ev: Evaluator,
    expr: facts.Expr | None,
    scope: Scope,
    depth: int = 0,
    unsure: set[str] | None = None,
) -> Str | None:
    """A URL in pieces (None for a piece not known): what ``ev.text`` reads, and what a call of
    a repository function returning a template or a concatenation gives, its arguments holes
    (``routes.listLabels(id)``; a route function's parameters are never filled in), or the
    path a query helper is handed (``built_text``). ``unsure`` collects why the text may not
    be the one sent (a literal the code may rewrite at run time)."""
    if type(expr) is facts.Call and expr.ref and depth < _DEPTH:
        func = ev.reference(expr.ref, scope)
        if type(func) is not Def or func.kind == "class":
            return None
        returned = ev.interface(func.path).paths.get(func.qual)
        if type(returned) is facts.Get:  # new URL(path, origin) with a query: the path given
            return built_text(ev, func, returned, expr.args, scope, depth, None, unsure)
        return url_text(ev, returned, (func.path, -1), depth + 1) if returned else None
    if type(expr) is not facts.Template:
        return ev.text(expr, scope)
    pieces: list[str | None] = []
    for part in expr.parts:
        inner = (
            Str((part,)) if isinstance(part, str) else url_text(ev, part, scope, depth + 1, unsure)
        )
        pieces.extend(inner.pieces if inner is not None else (None,))
    return Str(tuple(pieces) or ("",))


def built_text(
    ev: Evaluator,
    func: Def,
    built: facts.Get,
    args: list[facts.Expr],
    scope: Scope,
    depth: int,
    given: dict[int, Str] | None = None,
    unsure: set[str] | None = None,
) -> Str | None:
    """The URL a query helper returns (``parse/urls.py``): the path it was handed, its
    parameters filled with the call's arguments (``given`` holds those known otherwise, a
    subclass's ``this.baseRoute``); None when a part is not known or it is no path. A part
    read from a member of the helper's module-level object literal that the code also
    rewrites (``parts.prefix``, set by an ``overrideParts`` function) is its literal, and
    noted in ``unsure``: another value may be the one sent."""
    made = built.base
    path = made.args[0] if type(made) is facts.New and made.args else None
    parts = path.parts if type(path) is facts.Template else [path] if path else []
    pieces: list[str | None] = []
    for part in parts:
        if isinstance(part, str):
            pieces.append(part)
            continue
        if type(part) is facts.ParamOf and part.qual == func.qual and not part.path:
            at = part.position
            arg = args[at] if at < len(args) else None
            # the argument is read where the call stands: no level deeper
            inner = (given or {}).get(at) or url_text(ev, arg, scope, depth, unsure)
        else:
            inner = url_text(ev, part, (func.path, -1), depth + 1, unsure)
            if inner is None:
                inner = _initial(ev, func.path, part)
                if inner is not None and unsure is not None:
                    unsure.add("rewritten")
        if inner is None:
            return None  # a path not known whole: no route to match
        pieces.extend(inner.pieces)
    first = next((p for p in pieces if p != ""), None)
    if not isinstance(first, str) or not first.startswith(("/", "http://", "https://")):
        return None  # relative to the helper's placeholder origin: not the path as given
    return Str(tuple(p for p in pieces if p != "") or ("",))


def _initial(ev: Evaluator, path: str, part: facts.Expr | str) -> Str | None:
    """``obj.key`` where module ``path`` binds ``obj`` to an object literal whose ``key`` is a
    string literal: that literal (read when the value flow calls the member unknown because
    some function writes it)."""
    if type(part) is not facts.Ref or len(part.parts) != 2:
        return None
    bound = ev.interface(path).names.get(part.parts[0])
    field = bound.fields.get(part.parts[1]) if type(bound) is facts.ObjectLit else None
    return Str((field.text,)) if type(field) is facts.Str else None


def handed_verb(ev: Evaluator, arg: facts.Expr, scope: Scope) -> str:
    """The method, upper case, when ``arg`` is a client's method handed on as a value
    (``axios.put``, ``$axios.delete``); "" otherwise, and for a client with a base URL of its
    own (``api.post`` on ``axios.create({baseURL})``: the base is not carried along)."""
    if type(arg) is not facts.Ref or len(arg.parts) < 2 or arg.parts[-1] not in VERBS:
        return ""
    holder = ev.value(facts.Ref(arg.parts[:-1]), scope)
    if type(holder) is Web and holder.base:
        return ""
    value = ev.value(arg, scope)
    if type(value) is not Ext:
        return ""
    package, attrs = value.package, value.attrs
    own = package in _CLIENT_PACKAGES and len(attrs) == 1
    nuxt = (package, attrs[:-1]) == NUXT_AXIOS
    return attrs[-1].upper() if own or nuxt else ""


def called_through(flow: Flow, feed: Feed) -> list[Def]:
    """The repository's functions a call through ``feed`` runs, by the value flow (none when
    something unknown may reach it)."""
    found = flow.feeds(feed) or set()
    out: list[Def] = []
    for given in found:
        for option in given.options if type(given) is Choice else (given,):
            if type(option) is Def and option.kind != "class":
                out.append(option)
    return sorted(set(out), key=lambda d: (d.path, d.qual))


def subclass_urls(ev: Evaluator, flow: Flow, expr: facts.Expr, scope: Scope) -> list[Str]:
    """``this.baseRoute`` or ``this.itemRoute(id)`` in a method of a base class that leaves them
    to its subclasses (``itemRoute = routes.listId``, a field of each): the URL each class of
    the hierarchy gives, once each (not a subclass overriding the calling method); [] when
    ``expr`` is neither."""
    ref = expr.parts if type(expr) is facts.Ref else expr.ref if type(expr) is facts.Call else None
    if type(expr) is facts.Call and ref and ref[0] != "this":
        return _built_per_subclass(ev, flow, expr, scope)
    if type(expr) is facts.Template:
        return _template_per_subclass(ev, flow, expr, scope)
    if not ref or len(ref) != 2 or ref[0] != "this":
        return []
    cls = ev.this_class(scope)
    if cls is None:
        return []
    body = ev.body_of(scope[0])
    method = body.scopes[scope[1]].qual if body is not None and scope[1] > 0 else ""
    found: dict[tuple[str | None, ...], Str] = {}
    for each in (cls, *flow.subclasses(cls)):
        runs = ev.attribute(Inst(each), method.rpartition(".")[2]) if method else None
        if type(runs) is Def and runs.qual != method:
            continue  # the subclass overrides the method: this call never runs for it
        value = ev.attribute(Inst(each), ref[1])
        text: Str | None = None
        if type(expr) is facts.Call and type(value) is Def and value.kind != "class":
            returned = ev.interface(value.path).paths.get(value.qual)
            if returned is None:  # (id) => routes.groupTag(this.slug, id): that call's path
                returned = _route_call(ev.interface(value.path).returns.get(value.qual))
            text = url_text(ev, returned, (value.path, -1)) if returned else None
        elif type(expr) is facts.Ref and type(value) is Str:
            text = value
        elif type(expr) is facts.Ref:
            text = _field_url(ev, each, ref[1])
        if text is not None:
            found.setdefault(text.pieces, text)
    return list(found.values())


def _field_url(ev: Evaluator, cls: Def, name: str) -> Str | None:
    """The path a class's field is given by a route function where the class declares it
    (``baseRoute = routes.groupRecipes(this.groupSlug)``: its arguments holes); None when the
    field holds no such call or the text is no path."""
    written = ev.interface(cls.path).fields.get(cls.qual, {}).get(name)
    if type(written) is not facts.Call:
        return None
    text = url_text(ev, written, (cls.path, -1))
    first = text.pieces[0] if text is not None and text.pieces else None
    return text if isinstance(first, str) and first.startswith("/") else None


def _built_per_subclass(ev: Evaluator, flow: Flow, call: facts.Call, scope: Scope) -> list[Str]:
    """``route(this.baseRoute, {page})`` in a base class's method: a query helper's URL for
    each subclass's ``this.baseRoute`` (or ``this.itemRoute(id)``)."""
    func = ev.reference(call.ref or [], scope)
    if type(func) is not Def or func.kind == "class":
        return []
    built = ev.interface(func.path).paths.get(func.qual)
    if type(built) is not facts.Get:
        return []
    found: dict[tuple[str | None, ...], Str] = {}
    for at, arg in enumerate(call.args):
        for each in subclass_urls(ev, flow, arg, scope) if _on_this(arg) else ():
            text = built_text(ev, func, built, call.args, scope, 0, {at: each})
            if text is not None:
                found.setdefault(text.pieces, text)
    return list(found.values())


def _on_this(expr: facts.Expr) -> bool:
    """``this.x`` or ``this.x(...)``: a member a subclass may give."""
    ref = expr.parts if type(expr) is facts.Ref else expr.ref if type(expr) is facts.Call else None
    return bool(ref) and len(ref or ()) == 2 and (ref or [""])[0] == "this"


def _template_per_subclass(
    ev: Evaluator, flow: Flow, template: facts.Template, scope: Scope
) -> list[Str]:
    """`` `${this.itemRoute(id)}/duplicate` `` in a base class's method: the template around
    each subclass's URL (one such member in it, the rest read as ``url_text`` reads them)."""
    members = [
        (i, p) for i, p in enumerate(template.parts) if not isinstance(p, str) and _on_this(p)
    ]
    if len(members) != 1:
        return []
    at, member = members[0]
    found: dict[tuple[str | None, ...], Str] = {}
    for each in subclass_urls(ev, flow, member, scope):
        pieces: list[str | None] = []
        for i, part in enumerate(template.parts):
            inner = (
                each
                if i == at
                else Str((part,))
                if isinstance(part, str)
                else url_text(ev, part, scope)
            )
            pieces.extend(inner.pieces if inner is not None else (None,))
        found.setdefault(tuple(pieces), Str(tuple(pieces)))
    return list(found.values())


def _route_call(returned: facts.Expr | None) -> facts.Call | None:
    """What a member function returns when it is one call of a named function (a route
    function, read by ``url_text``; its arguments are holes)."""
    return returned if type(returned) is facts.Call and returned.ref else None
