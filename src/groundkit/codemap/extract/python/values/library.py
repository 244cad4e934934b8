"""Functions outside the repository that call what they are given, and the dunder methods that
built-ins and syntax run: one table each, read by ``calls.py``.

A ``Callback`` says where the function is (a position or a keyword), what it is called with,
and what the outer call returns. The scope that hands the function over is its caller: that is
where the edge starts (``call-callback``), whichever thread or library frame runs it.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "BUILTIN_CALLBACKS",
    "BUILTIN_PROTOCOLS",
    "CHOOSES",
    "DYNAMIC",
    "FIXTURES",
    "KEEPS",
    "LIBRARY",
    "MARKS",
    "METHOD_CALLBACKS",
    "NAMED_PACKAGES",
    "PASS_THROUGH",
    "REQUEST",
    "ROW",
    "WEB_PACKAGES",
    "Callback",
]


@dataclass(frozen=True, slots=True)
class Callback:
    position: int | None  # where the function is passed positionally
    keyword: str | None = None  # or by this keyword
    # What it is called with: "rest" (the arguments after it), "elements" (one element of each
    # iterable after it), "key" (an element of the first argument), "args" (the ``args``
    # keyword's elements), "pair" (an accumulator and an element), "unknown" (one argument
    # nothing is known of), "none"
    call_with: str = "none"
    # What the outer call gives back: "outside" (an outside object), "function" (the function
    # itself), "results" (a container of its results), "elements" (a container of the
    # elements), "element" (one element), "result" (its result)
    returns: str = "outside"


# Outside functions, by dotted name as imported.
LIBRARY: dict[str, Callback] = {
    "functools.reduce": Callback(0, "function", "pair", "result"),
    "threading.Thread": Callback(1, "target", "args"),
    "threading.Timer": Callback(1, "function", "args"),
    "multiprocessing.Process": Callback(1, "target", "args"),
    "asyncio.to_thread": Callback(0, None, "rest", "result"),
    "atexit.register": Callback(0, None, "rest", "function"),
    "signal.signal": Callback(1, "handler", "none"),
    "weakref.finalize": Callback(1, None, "rest"),
    "itertools.starmap": Callback(0, "function", "elements", "results"),
    "itertools.accumulate": Callback(1, "func", "pair", "results"),
    "dataclasses.field": Callback(None, "default_factory", "none"),
    "collections.defaultdict": Callback(0, "default_factory", "none"),
    "functools.cmp_to_key": Callback(0, None, "none", "function"),
    "re.sub": Callback(1, "repl", "unknown", "outside"),
    "re.subn": Callback(1, "repl", "unknown", "outside"),
    "json.dumps": Callback(None, "default", "unknown", "outside"),
    "json.dump": Callback(None, "default", "unknown", "outside"),
    "json.loads": Callback(None, "object_hook", "unknown", "outside"),
    "json.load": Callback(None, "object_hook", "unknown", "outside"),
}

# Outside functions that give back one element of an argument, chosen at run time.
CHOOSES: dict[str, int] = {"random.choice": 0}

# Methods of outside objects, by (the object's top-level package, method).
METHOD_CALLBACKS: dict[tuple[str, str], Callback] = {
    ("concurrent", "submit"): Callback(0, "fn", "rest"),
    ("concurrent", "map"): Callback(0, "fn", "elements", "results"),
    ("asyncio", "run_in_executor"): Callback(1, "func", "rest"),
    ("asyncio", "call_soon"): Callback(0, "callback", "rest"),
    ("asyncio", "call_soon_threadsafe"): Callback(0, "callback", "rest"),
    ("asyncio", "call_later"): Callback(1, "callback", "rest"),
    ("asyncio", "call_at"): Callback(1, "callback", "rest"),
    ("asyncio", "add_done_callback"): Callback(0, "fn", "none"),
    ("multiprocessing", "map"): Callback(0, "func", "elements", "results"),
    ("multiprocessing", "apply_async"): Callback(0, "func", "args"),
    ("contextlib", "callback"): Callback(0, "callback", "rest"),
    ("contextlib", "push"): Callback(0, "exit", "unknown"),
    ("re", "sub"): Callback(0, "repl", "unknown"),
    ("re", "subn"): Callback(0, "repl", "unknown"),
}

# Built-ins that call what they are given.
BUILTIN_CALLBACKS: dict[str, Callback] = {
    "map": Callback(0, None, "elements", "results"),
    "filter": Callback(0, None, "elements", "elements"),
    "sorted": Callback(None, "key", "key", "elements"),
    "min": Callback(None, "key", "key", "element"),
    "max": Callback(None, "key", "key", "element"),
}

# Built-ins that run a dunder of their argument's class.
BUILTIN_PROTOCOLS: dict[str, str] = {
    "len": "__len__",
    "str": "__str__",
    "repr": "__repr__",
    "format": "__format__",
    "hash": "__hash__",
    "bool": "__bool__",
    "abs": "__abs__",
    "int": "__int__",
    "float": "__float__",
    "complex": "__complex__",
    "bytes": "__bytes__",
    "round": "__round__",
    "reversed": "__reversed__",
    "dir": "__dir__",
}

# Decorators from outside that return the function (or a wrapper calling it with what it is
# given) and never call it themselves: the function is still called only where the code calls
# it, so its parameters hold what those calls pass (``self`` in a method wrapped by
# ``functools.wraps``, a ``contextmanager`` method). Any other outside decorator may call the
# function with anything.
KEEPS = frozenset(
    {
        "functools.wraps",
        "functools.lru_cache",
        "functools.cache",
        "functools.total_ordering",
        "contextlib.contextmanager",
        "contextlib.asynccontextmanager",
        "abc.abstractmethod",
        "typing.overload",
        "typing.final",
        "typing.override",
        "typing_extensions.override",
        "typing_extensions.final",
        "dataclasses.dataclass",
        "enum.unique",
    }
)

# Decorators that make a pytest fixture: pytest calls the function with the fixtures its
# parameters name, and ``fixtures.py`` fills those (the rest hold unknowns), not anything.
FIXTURES = frozenset({"pytest.fixture", "pytest_asyncio.fixture"})
# pytest's marks (``@pytest.mark.parametrize(...)``, ``@pytest.mark.slow``) return the test as
# it was; pytest calls it with its fixtures and parametrized values (``parametrize.py``).
MARKS = "pytest.mark."
# The tags of the SYN values that stand for a ``pytest.param(...)`` row and for the
# ``request`` pytest passes a fixture made with ``params=``.
ROW = "pytest.param"
REQUEST = "pytest.request"

# Outside functions whose result is whatever code they load: never an outside value.
DYNAMIC = frozenset(
    {"importlib.import_module", "importlib.__import__", "sys.modules.get", "importlib.reload"}
)

# Outside functions that give back their (first) argument: copies and casts.
PASS_THROUGH: dict[str, int] = {
    "copy.copy": 0,
    "copy.deepcopy": 0,
    "typing.cast": 1,
    "functools.update_wrapper": 0,
}

# Web frameworks and HTTP clients: their objects keep their name as they flow, and routers and
# clients the call site that made them (the web facts read both).
WEB_PACKAGES = frozenset(
    {"fastapi", "starlette", "flask", "django", "requests", "httpx", "aiohttp", "rest_framework"}
    | {"fastapi_users"}  # its router factories serve routes (web/frameworks.py LIBRARY_ROUTERS)
)
# Packages whose objects keep their name one step (a method callback table reads it); any other
# outside object is just "an outside object".
NAMED_PACKAGES = frozenset(
    {name.split(".")[0] for name in LIBRARY}
    | {package for package, _ in METHOD_CALLBACKS}
    | WEB_PACKAGES
    | {name.split(".")[0] for name in FIXTURES}  # ``@pytest.fixture(scope=...)`` keeps its name
)
