"""What one Python file says on its own, as typed records: the parse -> resolve boundary.

A file becomes its scopes (module, classes, functions, lambdas, comprehensions), its import
statements, the places where something may run (``Site``: a call, a decorator applied, an
attribute read that may be a property, an operator on an instance...), and a small program
over numbered variables (``Op``) that says how values move: what each name, attribute,
parameter, return value and container slot may hold. The value-flow solver
(``groundkit.codemap.extract.python.values``) runs the programs of every file together.

Variables are numbered per file. Within a function (or the module, or a class body) a name
bound twice is two variables, so a read sees only the bindings that reach it (``x = old; x =
new; x()`` calls ``new``); bindings that meet after an ``if``/``try``/loop meet in a ``Phi``, a
run-time choice. Code that runs later (a nested function, a lambda) and other modules see a
name's last bindings (``Final``).

Every record is a frozen msgspec struct encoded as an array (``array_like``): facts are stored
in the map and read back for files that did not change, so they must be compact and quick to
decode. None is tracked by the cyclic collector (``gc=False``): a file's facts are a tree of
records, never a cycle, and a map holds a million of them (16 bytes each, and the collector's
passes over them while they are decoded). Sequences in a record are tuples, not lists: decoded,
an empty one is the shared ``()`` and a full one a single block, where lists took django's
decoded facts from 68 to 80 MB. A tuple never equals a list, so code that compares a record's
sequences with ones it builds (``values/alignment.py``) builds tuples too.
"""

from __future__ import annotations

from enum import IntEnum

import msgspec

__all__ = [
    "Annot",
    "Attr",
    "BinOp",
    "Call",
    "ClassBind",
    "Const",
    "ConstKind",
    "ContainerKind",
    "Copy",
    "Def",
    "Facts",
    "Final",
    "Global",
    "GlobalSet",
    "Import",
    "ImportStmt",
    "Iter",
    "Kind",
    "ModBind",
    "NewContainer",
    "Op",
    "Param",
    "ParamIn",
    "ParamKind",
    "Phi",
    "Raise",
    "Ret",
    "Scope",
    "SetAttr",
    "SetSub",
    "Site",
    "SiteKind",
    "StarImport",
    "Sub",
    "Super",
    "Tmpl",
    "Unpack",
    "With",
    "Yield",
    "pack_lines",
    "quoted_lines",
]


class Kind(IntEnum):
    """What a scope is. Lambdas are functions (nodes); comprehensions are not: their code
    belongs to the function around them, their targets still shadow."""

    MODULE = 0
    CLASS = 1
    FUNCTION = 2
    METHOD = 3
    LAMBDA = 4
    COMP = 5


class ParamKind(IntEnum):
    """How a parameter takes its argument (stored as its number)."""

    POSITIONAL_ONLY = 0
    POSITIONAL_OR_KEYWORD = 1
    KEYWORD_ONLY = 2
    VAR_POSITIONAL = 3  # *args
    VAR_KEYWORD = 4  # **kwargs


class SiteKind(IntEnum):
    CALL = 0  # f(...)
    DECORATOR = 1  # @d applied: the scope holding the definition calls d
    READ = 2  # obj.attr read: a property's getter runs
    WRITE = 3  # obj.attr = v: a property's setter runs
    PROTOCOL = 4  # for/with/raise/operators/subscripts: a dunder method may run


class ConstKind(IntEnum):
    """What a ``Const`` holds (stored as its number)."""

    LITERAL = 0  # a literal of a built-in type
    NONE = 1
    UNKNOWN = 2


class ContainerKind(IntEnum):
    """Which display or comprehension a ``NewContainer`` makes (stored as its number)."""

    LIST = 0  # a generator expression too
    TUPLE = 1
    DICT = 2
    SET = 3


# The three variables every file starts with
LIT_VAR, NONE_VAR, UNKNOWN_VAR = 0, 1, 2

# Scope flags
GENERATOR = 1
ASYNC = 2
STATIC = 4  # @staticmethod
CLASSMETHOD = 8  # @classmethod (or __new__, __init_subclass__, __class_getitem__)


class Param(msgspec.Struct, array_like=True, frozen=True, gc=False):
    name: str
    kind: ParamKind
    default: int = -1  # the variable holding the default (evaluated where the def stands)
    annotation: int = -1  # the variable holding the class its annotation names


class Scope(msgspec.Struct, array_like=True, frozen=True, gc=False):
    qual: str  # "" for the module, "Cls.meth", "outer.inner", "run.<lambda>"
    kind: Kind
    parent: int  # -1 for the module
    line: int  # first line, decorators included
    end: int
    at: int  # the def/class line
    params: tuple[Param, ...] = ()
    flags: int = 0
    decorators: tuple[str, ...] = ()  # the last name of each decorator, as written
    bases: tuple[int, ...] = ()  # classes: the variables holding the bases
    # classes: each base as written (("m", "Base"); () if not a name)
    base_refs: tuple[tuple[str, ...], ...] = ()
    # functions: the checks the body opens with that raise at once, ``if n < 1: raise ...``:
    # (the parameter's index, the comparison's ``ast`` name, the number)
    guards: tuple[tuple[int, str, float], ...] = ()
    # ``__init__``: the attributes its opening assignments set on ``self`` before ``self`` can
    # reach other code (no statement before them names it otherwise): every instance it made
    # has them. The module: the attribute names a ``del obj.name`` of the file deletes.
    sets: tuple[str, ...] = ()


class Site(msgspec.Struct, array_like=True, frozen=True, gc=False):
    """A place where code may run, with what the evidence needs."""

    scope: int  # the scope whose code runs it
    line: int
    col: int  # in characters
    end_line: int
    end_col: int
    kind: SiteKind
    name: str = ""  # the called name as written (its last part: "get" of app.get)
    dynamic: int = 0  # 1: a method of a literal ("x".join): never an edge, never unresolved
    target: int = -1  # decorators: the decorated scope
    factory: int = -1  # decorators: the call site of a decorator factory (``@app.get("/")``)
    holder: str = ""  # the name the call's result is assigned to (routers are known by it)
    args: tuple[int, ...] = ()  # positional argument variables (``~v``: ``*v``)
    keywords: tuple[tuple[str, int], ...] = ()  # keyword arguments ("" for **)
    # calls: the arguments written as numbers, by position (before any ``*``) or keyword
    numbers: tuple[tuple[int | str, float], ...] = ()


class ImportStmt(msgspec.Struct, array_like=True, frozen=True, gc=False):
    scope: int
    module: str
    level: int
    name: str | None  # None for ``import m``; "*" for a star import
    line: int
    col: int
    end_line: int
    end_col: int
    flags: tuple[str, ...] = ()  # "type_checking", "optional"


# -- the value-flow program: one record per operation -------------------------------------------


class Def(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=0):
    dst: int
    scope: int  # the function, lambda or class this definition makes


class Const(
    msgspec.Struct,
    array_like=True,
    frozen=True,
    gc=False,
    tag=1,
    omit_defaults=True,
    repr_omit_defaults=True,
):
    dst: int
    what: ConstKind
    text: str | None = None  # a string literal's text
    # a ``bool`` or ``int`` passed as an argument or written as a default, as ``repr`` writes
    # it (``"True"``, ``"0"``): what a parameter's flag test is decided on (``Tested``)
    written: str | None = None


class Tmpl(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=2):
    dst: int
    pieces: tuple[str | int | None, ...]  # literal text, a variable, or None (not known)


class Copy(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=3):
    dst: int
    src: int


class Phi(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=4):
    """Bindings that meet: one of them holds, decided at run time."""

    dst: int
    srcs: tuple[int, ...]


class Final(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=5):
    """What code that runs later sees of a function-local name: its last bindings."""

    dst: int
    srcs: tuple[int, ...]


class Global(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=6):
    """A module-level name (or a builtin) read where no binding of this file reaches."""

    dst: int
    name: str


class Import(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=7):
    dst: int
    module: str
    level: int
    name: str | None  # None: ``import module`` binds the module (its top-level package)
    top: bool = False  # ``import a.b`` binds ``a``


class StarImport(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=8):
    """``from m import *`` at module level rebinds ``name`` when m exports it: dst is m's
    ``name`` then, else what ``name`` was bound to before (``before``)."""

    dst: int
    module: str
    level: int
    name: str
    before: int = -1


class Attr(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=9):
    dst: int
    obj: int
    attr: str | None  # None: a computed name (getattr with a run-time string)
    site: int = -1


class SetAttr(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=10):
    obj: int
    attr: str | None
    src: int
    site: int = -1


class Sub(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=11):
    dst: int
    obj: int
    key: str | int | None  # a literal key or index; None: computed
    site: int = -1
    slice: bool = False
    protocol: str = "__getitem__"  # the dunder that runs on an instance (``__delitem__``)
    bounds: tuple[int | None, int | None] = (None, None)  # a slice's literal start and stop


class SetSub(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=12):
    obj: int
    key: str | int | None
    src: int
    site: int = -1


class NewContainer(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=13):
    dst: int
    kind: ContainerKind


class Call(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=14):
    """``dst = func(*args, **keywords)``; the arguments are on the site."""

    dst: int
    func: int
    site: int


class Ret(
    msgspec.Struct,
    array_like=True,
    frozen=True,
    gc=False,
    tag=15,
    omit_defaults=True,  # (a return with no guard is stored as before)
    repr_omit_defaults=True,
):
    scope: int
    src: int
    # A parameter's ``Tested`` copy in force where this return runs (-1: none): a call
    # returns ``src`` only when what it passes that parameter may pass the test.
    guard: int = -1
    # The copies of other parameters whose flag was tested (``parse/flags.py``), in force too.
    flags: tuple[int, ...] = ()


class Yield(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=16):
    scope: int
    src: int
    each: bool = False  # ``yield from src``: every element of src


class Iter(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=17):
    """``for dst in src`` (and comprehensions): each element in turn."""

    dst: int
    src: int
    site: int = -1


class Unpack(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=18):
    """``a, b = src``: element ``index`` (from the end when negative); ``rest``: a starred
    target, the elements from ``index`` on, as a list."""

    dst: int
    src: int
    index: int
    rest: bool = False
    after: int = 0  # rest: how many targets follow the starred one
    site: int = -1  # where an instance's ``__iter__`` runs (the first target's)


class BinOp(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=19):
    """An operator on ``left`` (and ``right``): the dunder ``method`` of left's class runs
    (``__radd__`` of right's when left has none); ``dst`` is what it returns."""

    dst: int
    left: int
    right: int
    method: str
    site: int = -1


class Raise(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=20):
    src: int
    site: int


class With(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=21):
    dst: int
    src: int
    site: int
    is_async: bool = False


class Super(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=22):
    dst: int
    cls: int  # the class scope whose method calls super()
    receiver: int  # the variable holding self (or cls)


class ParamIn(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=23):
    """A parameter as the function body first sees it."""

    dst: int
    scope: int
    index: int


class ModBind(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=25):
    """A module-level name as other modules and later-running code see it."""

    name: str
    src: int


class ClassBind(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=26):
    scope: int
    name: str
    src: int
    field: bool = False  # ``name: T`` in the body: an attribute of the instances


class GlobalSet(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=27):
    """``global name; name = src`` inside a function."""

    name: str
    src: int


class Annot(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=28):
    """A value with a declared class (``x: Foo = v``, ``except Foo as e``): what ``src`` is
    known to hold, or else an instance of the classes ``ann`` holds."""

    dst: int
    src: int  # -1: only the declaration
    ann: int


class NotNone(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=29):
    """``var`` (a copy of a local) is never ``None``: it is bound where ``x is not None`` held
    (an ``if``'s branch, or the code after ``if x is None: return``)."""

    var: int


class ByClass(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=30):
    """``var`` (a copy of a local) is where a branch tested ``attr`` of it (``if cls.flag:``):
    when the classes it may hold bind ``attr`` in different bodies, the branch taken depends
    on the class, and which of them reach here is a run-time choice."""

    var: int
    attr: str


class Narrow(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=31):
    """``dst`` (a copy of the local ``src``) is where ``isinstance(x, C)`` held (an ``if``'s
    branch): what it holds may be an instance of the class ``ann`` holds."""

    dst: int
    src: int
    ann: int


class Tested(msgspec.Struct, array_like=True, frozen=True, gc=False, tag=36):
    """``dst`` (a copy of the local ``src``) is where a test of the function it holds gave
    ``holds`` (an ``if``'s branch): ``test`` is ``"async"`` (``inspect.iscoroutinefunction(x)``,
    ``is_async_callable(x)``) or ``"param:NAME"`` (``"NAME" in
    inspect.signature(x).parameters``); or a test of a parameter's flag, decided where a call
    passes a literal (``parse/flags.py``): ``"truth"`` (``if x:``), ``"is:LIT"`` (``x is
    None``), ``"eq:LIT"`` (``x == "r"``), the literal as ``repr`` writes it."""

    dst: int
    src: int
    test: str
    holds: bool


Op = (
    Def
    | Const
    | Tmpl
    | Copy
    | Phi
    | Final
    | Global
    | Import
    | StarImport
    | Attr
    | SetAttr
    | Sub
    | SetSub
    | NewContainer
    | Call
    | Ret
    | Yield
    | Iter
    | Unpack
    | BinOp
    | Raise
    | With
    | Super
    | ParamIn
    | ModBind
    | ClassBind
    | GlobalSet
    | Annot
    | NotNone
    | ByClass
    | Narrow
    | Tested
)


class Facts(msgspec.Struct, array_like=True, frozen=True, gc=False):
    """One file, whole."""

    scopes: list[Scope]
    sites: list[Site]
    imports: list[ImportStmt]
    ops: list[Op]
    variables: int  # how many variables ``ops`` numbers
    # the lines evidence quotes (line number -> the line as written), packed: a msgpack map,
    # the same bytes as the map's encoding of it. Only the drawing reads them, a file at a
    # time (``quoted_lines``), and django's 879 files hold 9.2 MB of them as a dict each,
    # alive through the solve that makes the map's peak; packed, 2.7 MB.
    lines: msgspec.Raw
    all: list[str] | None = None  # ``__all__`` when it is a literal list of strings
    # The sites that run only under a test of a parameter's flag (``parse/flags.py``): each
    # with the ``Tested`` copies in force there (``values/contexts.py``). Few sites are, so
    # they are kept apart from ``Site``, which a map holds hundreds of thousands of.
    flagged: tuple[tuple[int, tuple[int, ...]], ...] = ()


_LINES_ENCODER = msgspec.msgpack.Encoder()
_LINES_DECODER = msgspec.msgpack.Decoder(dict[int, str])


def pack_lines(lines: dict[int, str]) -> msgspec.Raw:
    """``lines`` as ``Facts.lines`` holds them."""
    return msgspec.Raw(_LINES_ENCODER.encode(lines))


def quoted_lines(facts: Facts) -> dict[int, str]:
    """The lines ``facts`` quotes, unpacked (line number -> the line as written)."""
    return _LINES_DECODER.decode(facts.lines)
