"""Routes and HTTP client calls in TypeScript/JavaScript, as language-neutral facts
(``codemap.routes``): Express, Koa (``@koa/router``), Fastify and Hono routes and mounts;
``fetch`` (``fetch(new Request(url, {method}))`` too), ``axios`` (and ``axios.create({baseURL})``
instances), ``ky``, ``ofetch`` (and Nuxt's ``$fetch``) and ``superagent`` calls; a generated API
client's calls with the URL in an options object (``_generated_client``).

A framework object is recognised by the package it comes from (``values/frameworks.py``); a route
whose path is not a literal (or a string constant) is not a route, and a client call whose URL
has no literal part is not an HTTP call.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from groundkit.codemap.data import READ, WRITE, Access, Data, ModelDecl
from groundkit.codemap.data.sql import MARKER, cited_line, looks_like_sql, read_sql
from groundkit.codemap.extract.base import FileGraph
from groundkit.codemap.extract.typescript.layout import module_name
from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.values.evaluate import Evaluator
from groundkit.codemap.extract.typescript.values.flow import Flow
from groundkit.codemap.extract.typescript.values.objects import (
    Def,
    Ext,
    Feed,
    Global,
    Mod,
    Model,
    Scope,
    Str,
    Value,
    Web,
    node_key,
)
from groundkit.codemap.extract.typescript.web.tables import Row, forwarded, rows_of
from groundkit.codemap.extract.typescript.web.wrappers import (
    NUXT_AXIOS,
    called_through,
    handed_verb,
    subclass_urls,
    url_text,
)
from groundkit.codemap.model import Location, NodeKey, Provenance
from groundkit.codemap.routes import (
    ANY_METHOD,
    HttpCallSite,
    Mount,
    RouteDecl,
    RouterDef,
    UrlArgument,
)

__all__ = ["WebFacts"]

# Kinds are tested as ``type(v) is C``: no value or fact class is subclassed
# (``tests/codemap/test_typescript_value_kinds.py``), and the identity test is the cheaper.

_VERBS = frozenset("get post put patch delete head options".split())
_ROUTE_VERBS = _VERBS | {"all", "del"}
_FETCH = frozenset({"fetch", "window.fetch", "globalThis.fetch", "self.fetch", "$fetch"})
_FETCH_PACKAGES = frozenset({"node-fetch", "cross-fetch", "undici", "isomorphic-fetch"})
# Static methods of a Sequelize model and of a TypeORM ``BaseEntity``: read or write.
_STATIC_READS = (
    "findAll findOne findByPk findAndCountAll count max min sum find findBy findOneBy"
    " findAndCount findAndCountBy findOneOrFail findOneByOrFail exists existsBy"
)
_STATIC_WRITES = (
    "create bulkCreate update destroy upsert findOrCreate increment decrement truncate"
    " restore insert delete save remove softRemove softDelete clear"
)
_STATIC_MODEL = {
    **dict.fromkeys(_STATIC_READS.split(), READ),
    **dict.fromkeys(_STATIC_WRITES.split(), WRITE),
}
# Calls and tags that take SQL text first: mysql/mysql2/pg ``query``/``execute``, sqlite3's
# ``run``/``all``/``get``/``prepare``/``exec``, knex ``raw``, postgres.js ``unsafe``, tagged
# ``sql`...```, Prisma's raw queries (the text must read as SQL too: ``codemap.data.sql``).
_SQL_METHODS = frozenset(
    {"query", "execute", "run", "all", "get", "prepare", "exec", "raw", "unsafe", "sql"}
    | {"$queryRaw", "$executeRaw", "$queryRawUnsafe", "$executeRawUnsafe"}
)


class WebFacts:
    """The web facts of one file, found while it is resolved: ``call`` for each call site,
    then ``finish`` hands them to the file's graph. ``text`` gives a line as written."""

    def __init__(self, ev: Evaluator, text: Callable[[int], str], flow: Flow) -> None:
        self.ev = ev
        self.flow = flow
        self.text = text
        self.routers: dict[str, RouterDef] = {}
        self.mounts: list[Mount] = []
        self.routes: list[RouteDecl] = []
        self.http: list[HttpCallSite] = []
        self.arguments: list[UrlArgument] = []
        self.data = Data()

    def finish(self, graph: FileGraph) -> None:
        graph.routers = sorted(self.routers.values(), key=lambda r: r.router)
        graph.mounts = self.mounts
        graph.routes = self.routes
        graph.http_calls = self.http
        graph.url_arguments = self.arguments
        graph.data = self.data

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
            url = url_text(self.ev, arg, scope)
            hole = self._parameter(arg, scope, caller)
            text = self.text(where.line)
            if url is None and hole is None:
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
            found.append(UrlArgument(caller, caller, position, url.pieces, where, text, param, at))
        return [replace(url, verbs=tuple(verbs)) for url in found]

    def call(
        self,
        ref: list[str],
        receiver: Value | None,
        value: Value,
        args: list[facts.Expr] | None,
        scope: Scope,
        caller: NodeKey,
        where: Location,
    ) -> None:
        if type(value) is Ext and value.package == "@prisma/client":
            self._prisma(value, caller, where)
        if type(receiver) is Def and receiver.kind == "class" and type(value) is not Def:
            name = f"{module_name(receiver.path)}.{receiver.qual}"
            self._static("static", name, ref[-1], caller, where)
        if type(receiver) is Model:  # Tutorial.findAll() on what sequelize.define made
            self._static("model", f"{receiver.family}:{receiver.name}", ref[-1], caller, where)
        if args is None:
            return
        attr = ref[-1]
        if attr == "define" and len(ref) > 1:
            self._define(ref, args, scope, where)
        if attr in _SQL_METHODS and args:
            held = self.ev.export(receiver.path, "=") if type(receiver) is Mod else receiver
            self._sql(args[0], scope, caller, where, _mysql(held))  # sql = require("./db")
        if type(receiver) is Feed and not receiver.path and attr == "use" and len(args) > 1:
            self._app_parameter(receiver, args, scope, where)
            return
        if type(receiver) is Web and receiver.router is not None:
            self._router(receiver, where)
            if attr in _ROUTE_VERBS:
                self._route(receiver, attr, args, scope, where)
            elif attr == "route" and receiver.role == "fastify":
                self._route_object(receiver, args, scope, where)
            elif attr in ("use", "register", "route"):
                self._mount(receiver, attr, args, scope, where)
            return
        if type(value) is Feed:
            self._through(value, args, scope, caller, where)
            return
        client = self._client(receiver, value, attr)
        if client is not None:
            self._http(client, attr if receiver is not None else "", args, scope, caller, where)
        elif _generated_client(ref, receiver, value, args):
            self._options(attr, args, scope, caller, where)

    # -- servers ----------------------------------------------------------------------------------
    def _app_parameter(
        self, param: Feed, args: list[facts.Expr], scope: Scope, where: Location
    ) -> None:
        """``module.exports = (app) => { app.use("/api/items", router) }``: a parameter that
        mounts a known router at a literal prefix is an app handed in, a router of its own (as a
        parameter typed ``Application`` is), so the routes below it carry the prefix."""
        name = f"ts:{module_name(param.func.path)}:{param.func.qual}.#{param.position}"
        web = Web("express", name)
        before = len(self.mounts)
        self._mount(web, "use", args, scope, where)
        if len(self.mounts) > before:
            self._router(web, where)

    def _router(self, web: Web, where: Location) -> None:
        assert web.router is not None
        if web.router not in self.routers:
            # Not an app: only routers nobody mounts are roots (see frameworks.construct).
            self.routers[web.router] = RouterDef(web.router, web.prefix, False, where)

    def computed(
        self,
        holder: facts.Expr,
        key: facts.Expr,
        args: list[facts.Expr],
        scope: Scope,
        where: Location,
    ) -> None:
        """``app[route.method](route.path, handler)``: a route per row of a route table."""
        web = self.ev.value(holder, scope)
        if type(web) is Web and web.router is not None and len(args) > 1:
            self._table_routes(web, self.ev.value(key, scope), args, scope, where)

    def _table_routes(
        self, web: Web, verb: Value | str, args: list[facts.Expr], scope: Scope, where: Location
    ) -> bool:
        """Routes declared in a loop over a route table (``web/tables.py``): True when the
        path is a member of the loop's row."""
        given = self.ev.value(args[0], scope)
        found = rows_of(self.ev, given)
        if found is None:
            return False
        loop, rows = found
        handler = self.ev.value(args[-1], scope)
        for row in rows:
            attr = verb if isinstance(verb, str) else self._row_verb(verb, loop, row)
            path = row.text(self.ev, given)
            target = self._row_handler(handler, loop, row)
            if path is not None and attr in _ROUTE_VERBS and target is not None:
                self._router(web, where)
                self._declare(web, _methods(attr), path, target, Provenance.ROUTE_EXPRESS, where)
        return True

    def _row_verb(self, verb: Value, loop: Feed, row: Row) -> str:
        """The method a row gives (``route.method``), lower case; "" when it gives none."""
        return (row.text(self.ev, verb) or "").lower() if _same_loop(verb, loop) else ""

    def _row_handler(self, handler: Value, loop: Feed, row: Row) -> NodeKey | None:
        """The row's function (``route.action``, or an inline handler forwarding to it), or the
        inline handler itself."""
        member = row.member(handler) if _same_loop(handler, loop) else None
        if type(handler) is Def and handler.kind != "class":
            member = forwarded(self.ev, handler, loop, row)
            if member is None:
                return node_key(handler)
        value = self.ev.value(member, row.scope) if member is not None else None
        return node_key(value) if type(value) is Def and value.kind != "class" else None

    def _route(
        self, web: Web, attr: str, args: list[facts.Expr], scope: Scope, where: Location
    ) -> None:
        if len(args) > 1 and self._table_routes(web, attr, args, scope, where):
            return
        path = self._literal(args[0] if args else None, scope)
        handler = self._handler(args[-1], scope) if len(args) > 1 else None
        if path is None or handler is None:
            return
        self._declare(web, _methods(attr), path, handler, Provenance.ROUTE_EXPRESS, where)

    def _route_object(
        self, web: Web, args: list[facts.Expr], scope: Scope, where: Location
    ) -> None:
        options = _fields(args, 0)
        path = self._literal(options.get("url") or options.get("path"), scope)
        handler = self._handler(options.get("handler"), scope)
        given = options.get("method")
        items = given.items if type(given) is facts.ArrayLit else [given] if given else []
        methods = tuple(sorted({m.upper() for m in (self._literal(i, scope) for i in items) if m}))
        if path is not None and handler is not None and methods:
            self._declare(web, methods, path, handler, Provenance.ROUTE_FASTIFY, where)

    def _declare(
        self,
        web: Web,
        methods: tuple[str, ...],
        path: str,
        handler: NodeKey,
        provenance: Provenance,
        where: Location,
    ) -> None:
        assert web.router is not None
        text = self.text(where.line)
        self.routes.append(RouteDecl(web.router, methods, path, handler, provenance, where, text))

    def _mount(
        self, web: Web, attr: str, args: list[facts.Expr], scope: Scope, where: Location
    ) -> None:
        assert web.router is not None
        prefix = ""
        rest = args
        if attr in ("use", "route") and args and isinstance(args[0], facts.Str | facts.Template):
            found = self._literal(args[0], scope)
            if found is None:
                return  # a prefix known only at run time
            prefix, rest = found, args[1:]
        if attr == "register":
            prefix = self._literal(_fields(args, 1).get("prefix"), scope) or ""
            rest = args[:1]
        for item in rest:
            child = self._child(item, scope, attr == "register")
            if child is not None:
                self.mounts.append(Mount(web.router, child, prefix, False, where))

    def _child(self, summary: facts.Expr, scope: Scope, plugin: bool) -> str | None:
        if type(summary) is facts.Call and summary.ref and summary.ref[-1] == "routes":
            summary = facts.Ref(summary.ref[:-1])  # koa: router.routes()
        value = self.ev.value(summary, scope)
        if type(value) is Mod:
            value = self.ev.export(value.path, "default")
        if type(value) is Web and value.router is not None:
            return value.router
        if plugin and type(value) is Def and value.kind != "class":
            return f"ts:{module_name(value.path)}:{value.qual}.#0"  # the plugin's instance
        return None

    def _handler(self, summary: facts.Expr | None, scope: Scope) -> NodeKey | None:
        if summary is None:
            return None
        value = self.ev.value(summary, scope)
        if type(value) is Def and value.kind != "class":
            return node_key(value)
        return None

    # -- clients ----------------------------------------------------------------------------------
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
            method = (self._literal(options["method"], scope) or "").upper()
        elif options is None or "method" not in options:
            method = "GET"
        url = url_text(self.ev, url_arg, scope) if url_arg is not None else None
        hole = self._parameter(url_arg, scope, caller)
        if url is None and hole is not None:
            url = Str((None,))  # (url) => axios.get(url): the whole URL is the callers'
        if verb_param >= 0:
            method = ""
            if hole is None:
                return  # a function handed in, called with a URL of its own: not followed
        elif not method:
            return
        if url is None and hole is None and url_arg is not None:
            # this.itemRoute(id) in a base class: each subclass's URL, one of the call's
            for each in subclass_urls(self.ev, self.flow, url_arg, scope):
                self._site(client, method, each.pieces, None, caller, where, -1, True)
            return
        if url is None or (hole is None and not any(url.pieces)):
            return
        self._site(client, method, url.pieces, hole, caller, where, verb_param, False)

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

    def _sql(
        self, arg: facts.Expr, scope: Scope, caller: NodeKey, where: Location, mysql: bool
    ) -> None:
        """SQL text handed to the call: an access to each table it names (``mysql``: the
        receiver is a Node.js MySQL client's, which expands ``SET ?``)."""
        text = self.ev.text(arg, scope)
        if text is None:
            return
        sql = "".join(MARKER if piece is None else piece for piece in text.pieces)
        if not looks_like_sql(sql):
            return
        found = read_sql(sql, objects=mysql)
        if found.problem:
            self.data.unresolved[found.problem] += 1
        for table, mode in found.tables:
            line = cited_line(self.text, where.line, where.end_line, table)
            at = Location(where.path, line, where.col, where.end_line, where.end_col)
            self.data.accesses.append(
                Access(caller, "table", table, mode, Provenance.SQL_TEXT, at, self.text(line))
            )

    def _static(self, what: str, name: str, attr: str, caller: NodeKey, where: Location) -> None:
        """``User.findAll()`` on a class of the repository (``what``: static), by a method the
        class does not define, or on a model (``what``: model): Sequelize's and TypeORM's
        (``BaseEntity``) static model methods; an access to the model if the class is one
        (``codemap.data.assemble`` decides)."""
        mode = _STATIC_MODEL.get(attr)
        if mode is not None:
            text = self.text(where.line)
            self.data.accesses.append(
                Access(caller, what, name, mode, Provenance.ORM_MANAGER, where, text)
            )

    def _define(
        self, ref: list[str], args: list[facts.Expr], scope: Scope, where: Location
    ) -> None:
        """``sequelize.define("tutorial", {...}, options)`` on a Sequelize instance: the model
        ``sequelize:tutorial``, its table the options' ``tableName`` (Sequelize's default, the
        name pluralised by its inflection library, is counted, not derived)."""
        first = args[0] if args else None
        if type(first) is not facts.Str or len(args) < 2:
            return
        made = self.ev.value(facts.Defined(facts.Ref(ref[:-1]), first.text), scope)
        if type(made) is not Model:
            return
        options = _fields(args, 2)
        table = self._literal(options.get("tableName"), scope) or ""
        reason = "" if table else _DEFINE_NO_TABLE
        if "freezeTableName" in options and not table:
            reason = "Sequelize's freezeTableName (its value is not read)"
        name = f"sequelize:{made.name}"
        decl = ModelDecl(name, None, table, Provenance.TABLE_DECLARED, where, self.text(where.line))
        self.data.models.append(replace(decl, reason=reason))

    def _prisma(self, value: Ext, caller: NodeKey, where: Location) -> None:
        """``prisma.user.findMany()`` on a ``new PrismaClient()``: the model whose accessor is
        ``user``, read or written by the method's name."""
        attrs = value.attrs
        if len(attrs) != 3 or attrs[0] != "PrismaClient" or attrs[1].startswith("$"):
            return
        mode = _PRISMA_WRITES.get(attrs[2])
        if mode is None and attrs[2] not in _PRISMA_READS:
            return
        text = self.text(where.line)
        self.data.accesses.append(
            Access(caller, "prisma", attrs[1], mode or READ, Provenance.ORM_MANAGER, where, text)
        )

    def _options(
        self, attr: str, args: list[facts.Expr], scope: Scope, caller: NodeKey, where: Location
    ) -> None:
        """A generated client's call: the URL (and the method, when the function's name does
        not say it) in an options object."""
        objects = (a for a in args if type(a) is facts.ObjectLit)
        options = next(o.fields for o in objects if "url" in o.fields)
        method = attr if attr in _VERBS else (self._literal(options.get("method"), scope) or "")
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

    def _literal(self, summary: facts.Expr | None, scope: Scope) -> str | None:
        found = self.ev.text(summary, scope) if summary is not None else None
        if found is None or None in found.pieces:
            return None
        return "".join(p for p in found.pieces if p is not None)


# the reason ``data/typescript.py`` gives a Sequelize model class naming no table (that module
# imports this package's layout: importing it from here would be a circle)
_DEFINE_NO_TABLE = "Sequelize's default table name (the model name pluralised) is not derived"
_PRISMA_READS = frozenset(
    {"findMany", "findUnique", "findUniqueOrThrow", "findFirst", "findFirstOrThrow"}
    | {"count", "aggregate", "groupBy"}
)
_PRISMA_WRITES = dict.fromkeys(
    "create createMany createManyAndReturn update updateMany upsert delete deleteMany".split(),
    WRITE,
)
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


def _mysql(receiver: Value | None) -> bool:
    """Whether ``receiver`` comes from the Node.js mysql or mysql2 package (a connection, a
    pool, or the package's promise API)."""
    return type(receiver) is Ext and receiver.package.split("/")[0] in ("mysql", "mysql2")


def _methods(attr: str) -> tuple[str, ...]:
    """The methods a router's method registers: ``all`` any, ``del`` DELETE."""
    if attr == "all":
        return (ANY_METHOD,)
    return ("DELETE" if attr == "del" else attr.upper(),)


def _same_loop(given: Value | str, loop: Feed) -> bool:
    """Whether ``given`` is a member of the row ``loop`` hands its function."""
    return type(given) is Feed and given.func == loop.func and given.position == 0


def _fields(args: list[facts.Expr], position: int) -> dict[str, facts.Expr]:
    """The members of an object literal argument ({} for anything else)."""
    item = args[position] if position < len(args) else None
    return item.fields if type(item) is facts.ObjectLit else {}


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
