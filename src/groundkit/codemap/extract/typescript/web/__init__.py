"""Routes, HTTP client calls and data access in TypeScript/JavaScript, as language-neutral facts
(``codemap.routes``, ``codemap.data``): Express, Koa (``@koa/router``), Fastify and Hono routes
and mounts here; client calls in ``clients.py``.

A framework object is recognised by the package it comes from (``values/frameworks.py``); a route
whose path is not a literal (or a string constant) is not a route.
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
    Mod,
    Model,
    Scope,
    Value,
    Web,
    node_key,
)
from groundkit.codemap.extract.typescript.web.clients import ClientCalls, whole_text
from groundkit.codemap.extract.typescript.web.tables import Row, forwarded, rows_of
from groundkit.codemap.model import Location, NodeKey, Provenance
from groundkit.codemap.routes import (
    ANY_METHOD,
    Mount,
    RouteDecl,
    RouterDef,
)

__all__ = ["WebFacts"]

# Kinds are tested as ``type(v) is C``: no value or fact class is subclassed
# (``tests/codemap/test_typescript_value_kinds.py``), and the identity test is the cheaper.

_VERBS = frozenset("get post put patch delete head options".split())
_ROUTE_VERBS = _VERBS | {"all", "del"}
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
        self.clients = ClientCalls(ev, text, flow)
        # a repository function called: a client call if it is a wrapper handed a URL
        self.argument = self.clients.argument
        self.data = Data()

    def finish(self, graph: FileGraph) -> None:
        graph.routers = sorted(self.routers.values(), key=lambda r: r.router)
        graph.mounts = self.mounts
        graph.routes = self.routes
        graph.http_calls = self.clients.http
        graph.url_arguments = self.clients.arguments
        graph.data = self.data

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
        self.clients.call(ref, receiver, value, args, scope, caller, where)

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

    def _literal(self, summary: facts.Expr | None, scope: Scope) -> str | None:
        return whole_text(self.ev, summary, scope)


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
