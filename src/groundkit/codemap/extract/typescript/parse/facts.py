"""What one TypeScript/JavaScript file says on its own, as typed records: the parse -> resolve
boundary.

An expression is kept as an ``Expr``, a small record of what resolution needs of it without
the tree: a string, a template, a reference ``a.b.c``, a call, an object literal... A file's
facts are:

``Interface`` (what other files may consult; its digest decides who is resolved again)
    ``names``    module-level bindings: name -> ``Expr`` (``Import``, ``Namespace`` for imports)
    ``exports``  exported name -> ``Local``, ``From``, ``Namespace`` or an ``Expr`` (``export
                 default {...}``, ``module.exports = ...``; ``"="`` is the CommonJS
                 ``module.exports`` / TypeScript ``export =`` value)
    ``stars``    specifiers of ``export * from``
    ``classes``  qualname -> its bases as written and its method names
    ``passes``   call sites that hand values to a callee (``apply(double)``), each closed over
                 the file's local bindings (``Closed`` forms) so that other files can read them
                 without this file's body: the value flow of parameters (``values/flow.py``)
    ``writes``   object members assigned or deleted (``table.key = f``), closed the same way
    ``protos``   functions assigned to ``F.prototype.m`` (``F`` as written at module level):
                 ``F`` -> member -> the function's qualname; a computed member (``F.prototype[k]
                 = ...``) is ``[]``, ``[]#2``...
    ``returns``  a function's qualname -> what it returns, closed the same way (a ``Choice``
                 when it returns several things)
    ``fields``   ``this.key = value`` in a class's methods or in a function (that ``new`` may
                 construct): the class's or function's qualname -> key -> what is stored,
                 closed the same way (a ``Choice`` when several things are); ``F`` + ``OWN``:
                 members set on function ``F`` itself in the function that declares it
                 (``router.stack = []``: what a constructor returning ``router`` gives)
    ``stores``   elements stored into arrays (``xs.push(a)``, ``xs[i] = a``), closed the same way
    ``yields``   a generator's qualname -> what it yields, closed the same way
``Body`` (what only this file's resolution needs)
    ``scopes``   0 is the module; anonymous functions are scopes but not nodes (their calls
                 belong to the scope around them)
    ``binds``    scope index -> that function's bindings, as ``names``
    ``imports``, ``calls``, ``lines`` (line number -> the line as written, for evidence)
    ``members``  member reads and writes that are not calls (an accessor may run)

``tsconfig.json``/``jsconfig.json`` and ``package.json`` are facts too (``TsConfig``,
``Package``): only the fields module resolution reads.

Every record is a frozen msgspec struct encoded as an array (``array_like``), tagged where
records of several kinds share a place.
"""

from __future__ import annotations

from enum import IntEnum

import msgspec

__all__ = [
    "ELEMENT",
    "GIVEN_KEY",
    "ITEM",
    "ITERATED",
    "MODULE_EXPORTS",
    "OWN",
    "REST",
    "THIS_OF",
    "AnonFn",
    "Arity",
    "ArrayCall",
    "ArrayLit",
    "Body",
    "Call",
    "CallSite",
    "Choice",
    "ClassInfo",
    "Created",
    "Defined",
    "DynImport",
    "EnvRead",
    "Expr",
    "Fn",
    "From",
    "Get",
    "How",
    "Import",
    "ImportKind",
    "ImportSite",
    "Interface",
    "IterSite",
    "Lit",
    "Local",
    "MemberSite",
    "Module",
    "Namespace",
    "New",
    "ObjectLit",
    "Package",
    "Param",
    "ParamOf",
    "Pass",
    "Ref",
    "Require",
    "Scope",
    "ScopeKind",
    "Spread",
    "Store",
    "Str",
    "Template",
    "This",
    "TsConfig",
    "Unknown",
    "Write",
]


class ScopeKind(IntEnum):
    MODULE = 0
    CLASS = 1
    FUNCTION = 2
    METHOD = 3
    ANON = 4  # an anonymous function: not a node


class How(IntEnum):
    CALL = 0
    NEW = 1
    DECORATOR = 2  # a bare ``@decorator``
    JSX = 3  # ``<Comp ... />``: the component runs with its props


class ImportKind(IntEnum):
    IMPORT = 0  # import ... from, import "m", import x = require("m")
    EXPORT = 1  # export ... from
    REQUIRE = 2
    DYNAMIC = 3  # import("m")
    REFERENCE = 4  # /// <reference path="...">


# -- expressions ----------------------------------------------------------------------------------
class Str(msgspec.Struct, array_like=True, frozen=True, tag="s"):
    """A string literal, escapes decoded."""

    text: str


class Template(msgspec.Struct, array_like=True, frozen=True, tag="t"):
    """A template literal or a ``+`` concatenation: literal pieces and expressions."""

    parts: list[str | Expr]


class Ref(msgspec.Struct, array_like=True, frozen=True, tag="r"):
    """``a.b.c`` (``this`` and ``super`` may head it; ``"()"`` marks a call in the chain,
    ``"new"`` a construction; a subscript with a literal key is a part)."""

    parts: list[str]


class Call(msgspec.Struct, array_like=True, frozen=True, tag="c"):
    ref: list[str] | None  # the callee as a reference, None when it has no static name
    args: list[Expr]


class New(msgspec.Struct, array_like=True, frozen=True, tag="n"):
    ref: list[str] | None
    args: list[Expr]


class ObjectLit(msgspec.Struct, array_like=True, frozen=True, tag="o"):
    """An object literal; ``name`` is the qualified name it is bound to (``api``,
    ``api.nested``; "" when it is bound to none): its functions are named after it."""

    fields: dict[str, Expr]
    name: str = ""


class ArrayLit(msgspec.Struct, array_like=True, frozen=True, tag="a"):
    """An array literal; ``name`` is the qualified name it is bound to (``run.steps``, a
    field's ``Owner:key``; "" for none): the array's identity, which stores are matched to."""

    items: list[Expr]
    name: str = ""
    kind: str = ""  # "Map" or "Set" for ``new Map()``, ``new Set(xs)``: the values set or added


class Choice(msgspec.Struct, array_like=True, frozen=True, tag="?:"):
    """One of these, chosen at run time: ``c ? a : b``, ``a || b``, ``a ?? b``."""

    options: list[Expr]


class Fn(msgspec.Struct, array_like=True, frozen=True, tag="def"):
    """A named function or class of this file, by its qualified name."""

    qual: str


class AnonFn(msgspec.Struct, array_like=True, frozen=True, tag="fn"):
    """An anonymous function: part of the scope around it, not a node."""


class Require(msgspec.Struct, array_like=True, frozen=True, tag="req"):
    spec: str


class DynImport(msgspec.Struct, array_like=True, frozen=True, tag="dyn"):
    spec: str


class Lit(msgspec.Struct, array_like=True, frozen=True, tag="lit"):
    """A number, boolean, ``null``, regex or array: the runtime's, never a function of ours."""


class Unknown(msgspec.Struct, array_like=True, frozen=True, tag="?"):
    """Known only at run time."""


class Spread(msgspec.Struct, array_like=True, frozen=True, tag="..."):
    """``...xs`` among arguments: the positions after it are unknown; in an array literal,
    ``of`` is what is spread (``xs``), whose elements it gives (``values/made.py``)."""

    of: Expr | None = None


# -- bindings -------------------------------------------------------------------------------------
class Import(msgspec.Struct, array_like=True, frozen=True, tag="import"):
    spec: str
    name: str  # "default" for a default import


class Namespace(msgspec.Struct, array_like=True, frozen=True, tag="ns"):
    """``import * as m``, ``import m = require()``, ``const m = require()``: the module."""

    spec: str


class Param(msgspec.Struct, array_like=True, frozen=True, tag="param"):
    """A parameter: its position, the member it is destructured from (``{onDone}``: that
    key; ``[]`` for the whole argument) and the type its annotation names. ``arguments`` is
    ``Param(0, ["*"])``: every argument from position 0 on (``REST``)."""

    position: int
    path: list[str] = []
    annotation: list[str] | None = None


# -- closed forms (``passes`` and ``writes``: readable without the body) --------------------------
REST = "*"  # a path's head: the arguments from ``position`` on, as an array
ITEM = "**"  # a path's head: any one of them, or any item of an array literal given there
THIS_OF = "this@"  # a closed ``this`` of a member's function: ``this@app`` (its holder ``app``)
ELEMENT = "[]"  # a member read with a key known only at run time: ``xs[i]``
ITERATED = "[of]"  # what iterating a value gives: ``for (const x of value)``
OWN = "#own"  # a ``fields`` owner's suffix: members set on the function object itself
GIVEN_KEY = "[param]"  # a write's key: one the writing function is given (``t[name] = ...``)
MODULE_EXPORTS = ["module", "exports"]  # ``this`` in a method of ``module.exports = {...}``


class ParamOf(msgspec.Struct, array_like=True, frozen=True, tag="p"):
    """A parameter of the named function ``qual`` of this file."""

    qual: str
    position: int
    path: list[str] = []


class Get(msgspec.Struct, array_like=True, frozen=True, tag="g"):
    """Members of a value that has no reference form: ``base.attrs[0].attrs[1]...``."""

    base: Expr
    attrs: list[str]


class Defined(msgspec.Struct, array_like=True, frozen=True, tag="defined"):
    """``on.define("tutorial", {...})``: the model a Sequelize instance defines by name, if
    ``on`` turns out to be one (``values/evaluate.py``)."""

    on: Expr
    name: str


class ArrayCall(msgspec.Struct, array_like=True, frozen=True, tag="a()"):
    """``base.method(args)`` for a method whose result is a new array when ``base`` is one
    (``map flatMap filter slice concat sort reverse...``), or ``Array.from(base, f)``
    (``method`` "from"); ``call``: the call as written, what it is when ``base`` is no array
    (``values/arrays.py``)."""

    base: Expr
    method: str
    args: list[Expr]
    call: Expr


class Created(msgspec.Struct, array_like=True, frozen=True, tag="oc"):
    """``const x = Object.create(proto)`` in a function: an object whose members are the ones
    that function writes on ``x`` (``fields[owner]``), else ``proto``'s."""

    proto: Expr
    owner: str


class This(msgspec.Struct, array_like=True, frozen=True, tag="this"):
    """``this`` inside class ``cls`` (an instance of it)."""

    cls: str


Expr = (
    Str
    | Template
    | Ref
    | Call
    | New
    | ObjectLit
    | ArrayLit
    | Choice
    | Fn
    | AnonFn
    | Require
    | DynImport
    | Lit
    | Unknown
    | Spread
    | Import
    | Namespace
    | Param
    | ParamOf
    | Get
    | This
    | Created
    | Defined
    | ArrayCall
)


# -- exports --------------------------------------------------------------------------------------
class Local(msgspec.Struct, array_like=True, frozen=True, tag="local"):
    """``export {name}``: the module-level binding ``name``."""

    name: str


class From(msgspec.Struct, array_like=True, frozen=True, tag="from"):
    """``export {name} from "spec"``."""

    spec: str
    name: str


# -- the file -------------------------------------------------------------------------------------
class ClassInfo(msgspec.Struct, array_like=True, frozen=True):
    bases: list[Expr]
    methods: list[str]


class Pass(msgspec.Struct, array_like=True, frozen=True):
    """A call that hands values to its callee, closed over the file's local bindings."""

    callee: Expr
    how: int  # How
    args: list[Expr]


class Write(msgspec.Struct, array_like=True, frozen=True):
    """``target.key = ...`` or ``delete target.key`` (``key`` None: a computed key, or
    ``Object.assign(target, ...)``)."""

    target: Expr
    key: str | None


class Store(msgspec.Struct, array_like=True, frozen=True):
    """Elements stored into an array: ``target.push(a, b)``, ``unshift``, ``splice``'s items,
    ``target[i] = a``; closed like the pass sites."""

    target: Expr
    items: list[Expr]


class Arity(msgspec.Struct, array_like=True, frozen=True):
    """A call that hands its callee nothing that may be code, and how many arguments it gives:
    a parameter with a default that it leaves out holds the default."""

    callee: Expr
    count: int


class Module(msgspec.Struct, array_like=True, frozen=True, tag="m"):
    names: dict[str, Expr]
    exports: dict[str, Expr | Local | From]
    stars: list[str]
    classes: dict[str, ClassInfo]
    passes: list[Pass] = []
    writes: list[Write] = []
    protos: dict[str, dict[str, str]] = {}
    returns: dict[str, Expr] = {}
    fields: dict[str, dict[str, Expr]] = {}
    # ``X.key = value`` at module level on a module-level name: X -> key -> value (a Choice
    # when assigned more than once; ``values/tables.py`` decides whether it is what X.key holds)
    statics: dict[str, dict[str, Expr]] = {}
    # Accessors, by the qualname of their function: ``get x()`` / ``set x(v)`` of a class or an
    # object literal (a getter and its setter share one qualname); ``static`` ones of a class.
    getters: list[str] = []
    setters: list[str] = []
    static_accessors: list[str] = []
    # A function's qualname -> parameter position -> its default value, closed the same way
    defaults: dict[str, dict[int, Expr]] = {}
    # Calls that hand no code (not ``passes``): the callee, closed, and how many arguments
    arities: list[Arity] = []
    # ``F`` (a module-level name) -> objects its instances find members on, in the order
    # written: ``Object.assign(F.prototype, a, b)``, ``F.prototype = {...}`` or
    # ``Object.create(B.prototype)``; closed the same way
    mixins: dict[str, list[Expr]] = {}
    # ``Object.defineProperty(X, "key", {get: f})`` at module level, ``X`` a module-level name:
    # X -> key -> the getter, closed the same way (its ``value`` is one of ``statics``)
    defined_getters: dict[str, dict[str, Expr]] = {}
    generators: list[str] = []  # qualnames of ``function*``: calling one runs nothing yet
    stores: list[Store] = []  # elements stored into arrays (``values/arrays.py``)
    # A generator's qualname -> what it yields, closed the same way (a ``Choice`` when several)
    yields: dict[str, Expr] = {}
    asyncs: list[str] = []  # qualnames of ``async`` functions: a call of one gives a promise
    # ``delegate(X, "response").method("redirect")`` (a package ``library.DELEGATORS`` models)
    # at module level, ``X`` a module-level name: X -> member -> [the member of X it forwards
    # to, how: "method", "getter", "setter" or "access"]
    delegated: dict[str, dict[str, list[str]]] = {}
    # A function's qualname -> the path text it returns (a template or a concatenation with a
    # ``/`` in its literal text, the one thing it returns), closed the same way: a frontend's
    # route function (``(id) => `${prefix}/lists/${id}` ``, ``web/wrappers.py``)
    paths: dict[str, Expr] = {}


class TsConfig(msgspec.Struct, array_like=True, frozen=True, tag="tsconfig"):
    """``tsconfig*.json`` / ``jsconfig*.json``: ``extends`` (always a list), ``baseUrl`` and
    ``paths`` (None when absent: an empty ``paths`` still overrides the one extended)."""

    extends: list[str] = []
    base_url: str | None = None
    paths: dict[str, list[str]] | None = None


class Package(msgspec.Struct, array_like=True, frozen=True, tag="package"):
    """``package.json``: its name and entry points."""

    name: str | None = None
    entries: dict[str, str] = {}  # types, typings, module, main
    # ``exports``: a subpath (".", "./sub", "./*") -> its targets, every condition's in the
    # order written (``config.py``); empty when the package has none
    exports: dict[str, list[str]] = {}
    # ``imports``: a specifier of the package's own ("#db", "#lib/*") -> its targets, read as
    # ``exports`` is; empty when the package has none
    imports: dict[str, list[str]] = {}


Interface = Module | TsConfig | Package


class Scope(msgspec.Struct, array_like=True, frozen=True):
    qual: str  # "" for the module and anonymous functions
    kind: int  # ScopeKind
    parent: int  # -1 for the module
    line: int
    end: int
    at: int  # the line of the definition
    this: str | None = None  # the class ``this`` is an instance of in this scope


class ImportSite(msgspec.Struct, array_like=True, frozen=True):
    kind: int  # ImportKind
    spec: str
    scope: int
    line: int
    col: int
    end_line: int
    end_col: int
    type_only: bool


class CallSite(msgspec.Struct, array_like=True, frozen=True):
    scope: int
    callee: Expr  # a Ref, or what a callee with no name is (Fn, AnonFn, Lit, Unknown)
    how: int  # How
    line: int
    col: int
    end_line: int
    end_col: int
    args: list[Expr] | None  # kept for calls that may be routes, mounts or HTTP clients
    # A call inside a chain (``Router().use(a).use(b)``): the variable the chain is bound to
    # ("" for none), which names the router the chain makes, as it is named where it is read.
    chain: str = ""
    # ``app[route.method](...)``: the computed key of a callee on a named holder, as written
    # (the callee is then ``Get(holder, [ELEMENT])``), which a route table's row may give.
    key: Expr | None = None


class EnvRead(msgspec.Struct, array_like=True, frozen=True):
    """An environment variable read by name ("" when the name is known only at run time), or
    set (``process.env.X = v``, ``delete process.env.X``: ``written``)."""

    scope: int
    name: str
    line: int
    col: int
    end_line: int
    end_col: int
    written: bool = False


class MemberSite(msgspec.Struct, array_like=True, frozen=True):
    """A member read or written that is not called (``user.name``, ``this.size = 2``): it runs
    an accessor when the member is one (``resolve/accessors.py``)."""

    scope: int
    ref: list[str]
    write: bool
    line: int
    col: int
    end_line: int
    end_col: int


class IterSite(msgspec.Struct, array_like=True, frozen=True):
    """A value iterated (``for (const x of value)``, ``[...value]``): a generator object's
    function runs then."""

    scope: int
    value: Expr
    line: int
    col: int
    end_line: int
    end_col: int


class Body(msgspec.Struct, array_like=True, frozen=True):
    scopes: list[Scope]
    binds: dict[int, dict[str, Expr]]
    imports: list[ImportSite]
    calls: list[CallSite]
    lines: dict[int, str]
    envs: list[EnvRead] = []
    members: list[MemberSite] = []
    iterations: list[IterSite] = []
