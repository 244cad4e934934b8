"""The runtime's functions and methods that call what they are given: one table each, read by
``parse/calls.py`` (which calls keep their arguments) and ``resolve/calls.py``.

The scope that hands a function over is its caller, as in the Python extractor: that is where
the edge starts (``ts-callback``), whichever timer, promise job or array loop runs it. A global
function (``setTimeout``) is the runtime's when its name is bound nowhere in the file. A method
is known by its name only: on a literal or a global (``[a, b].map``, ``document.addEventListener``,
``Promise.resolve().then``) it is the runtime's and the edge is certain; on a value that is not
known (a parameter, a call's result, a package's object) it probably is, and the edge is
``partial``; on a value of the repository the call is its method, not this table's.
"""

from __future__ import annotations

__all__ = [
    "DELEGATORS",
    "DYNAMIC_CODE",
    "ELEMENT_CALLBACKS",
    "ELEMENT_STORES",
    "GLOBAL_CALLBACKS",
    "MEMBER_COPIERS",
    "METHOD_CALLBACKS",
    "MODELLED_PACKAGES",
    "NODE_BUILTINS",
    "PACKAGE_CALLBACKS",
    "PACKAGE_GIVES_BACK",
    "TEST_BLOCKS",
    "TEST_CONTEXT",
    "callback_positions",
    "may_call_back",
]

# A global function -> the argument positions it calls.
GLOBAL_CALLBACKS: dict[str, tuple[int, ...]] = {
    "setTimeout": (0,),
    "setInterval": (0,),
    "setImmediate": (0,),
    "queueMicrotask": (0,),
    "requestAnimationFrame": (0,),
    "requestIdleCallback": (0,),
    "Promise": (0,),  # new Promise((resolve, reject) => ...)
    "process.nextTick": (0,),
    "Array.from": (1,),
}

# A package's function (its package, its name there) -> the argument positions it calls. Known
# by the import it is bound to (``import { useEffect } from "react"``, ``React.useEffect``),
# never by its name alone: a function of the repository named ``useEffect`` is its own.
# React calls an effect after rendering, a memo's and a state's initialiser while rendering, a
# reducer when an action is dispatched; ``useCallback`` only hands its function back (no call).
PACKAGE_CALLBACKS: dict[tuple[str, str], tuple[int, ...]] = {
    **{
        ("react", hook): (0,)
        for hook in "useEffect useLayoutEffect useInsertionEffect useMemo useState".split()
    },
    ("react", "useReducer"): (0, 2),  # the reducer, and the initialiser of the initial state
    ("react", "useImperativeHandle"): (1,),
    ("react", "useSyncExternalStore"): (0, 1),
}
_PACKAGE_CALLBACK_NAMES = frozenset(name for _, name in PACKAGE_CALLBACKS)

# A package's function (its package, its name there) -> the position of the argument it returns
# as it was given: calling what ``useCallback(f, deps)`` returns calls ``f``.
PACKAGE_GIVES_BACK: dict[tuple[str, str], int] = {("react", "useCallback"): 0}

# Packages whose default export forwards members of an object to one of its members:
# ``delegate(proto, "response").method("redirect").access("body")`` makes ``proto.redirect(...)``
# call ``proto.response.redirect(...)`` and ``proto.body`` read and write
# ``proto.response.body``. Package -> chained method -> how the member is forwarded.
DELEGATORS: dict[str, dict[str, str]] = {
    "delegates": {"method": "method", "getter": "getter", "setter": "setter", "access": "access"}
}

# Packages whose default export copies the members of its later arguments onto the first
# (``mixin(app, proto)``), as ``Object.assign`` does: a function given them finds them.
MEMBER_COPIERS = frozenset({"merge-descriptors", "utils-merge", "object-assign"})

# Globals that run code made from a string at run time: no edge can be drawn, each call is
# counted unresolved (``eval(src)``, ``new Function("a", body)``, ``Function(body)``).
# Packages a model of this extractor stands for (a table here, a router or client in ``web/``
# and ``values/frameworks.py``, an ORM): their values stay the package's, and their code is not
# read for the value flow (``dependencies.py``), so the model is what answers.
MODELLED_PACKAGES = frozenset(
    "react react-dom delegates merge-descriptors utils-merge object-assign events express koa "
    "@koa/router koa-router fastify fastify-plugin hono axios ky node-fetch cross-fetch undici "
    "isomorphic-fetch superagent superagent-promise @prisma/client sequelize sequelize-typescript "
    "mysql mysql2 typeorm drizzle-orm openapi-fetch".split()
)

# node's own modules (``require("module").builtinModules``): never read from node_modules.
NODE_BUILTINS = frozenset(
    "assert async_hooks buffer child_process cluster console constants crypto dgram "
    "diagnostics_channel dns domain events fs http http2 https inspector module net os path "
    "perf_hooks process punycode querystring readline repl stream string_decoder sys timers tls "
    "trace_events tty url util v8 vm wasi worker_threads zlib".split()
)

DYNAMIC_CODE = frozenset({"eval", "Function"})

# Test runners' blocks (mocha, jest, vitest, node:test globals): they run the function they are
# given (the last argument: a name, options, then the function).
TEST_BLOCKS = frozenset(
    "describe it test suite context specify before after beforeEach afterEach beforeAll "
    "afterAll setup teardown suiteSetup suiteTeardown".split()
)

# What `this` is in a function handed to a test block: the context mocha shares between a
# suite's hooks and tests (a class of no file: its members are the fields its functions set).
TEST_CONTEXT = "<test context>"

# A method name -> the argument positions it calls.
METHOD_CALLBACKS: dict[str, tuple[int, ...]] = {
    **dict.fromkeys(
        "map forEach filter some every find findIndex findLast findLastIndex flatMap "
        "sort toSorted".split(),
        (0,),
    ),
    "reduce": (0,),
    "reduceRight": (0,),
    "then": (0, 1),
    "catch": (0,),
    "finally": (0,),
    "addEventListener": (1,),
    "on": (1,),
    "once": (1,),
    "addListener": (1,),
    "prependListener": (1,),
    "prependOnceListener": (1,),
    "nextTick": (0,),
    "replace": (1,),
    "replaceAll": (1,),
}


# An array method -> which parameters of its callback (argument 0) are given an element: the
# element's positions (``reduce``'s first is the accumulator, ``sort`` compares two).
ELEMENT_CALLBACKS: dict[str, tuple[int, ...]] = {
    **dict.fromkeys(
        "map forEach filter some every find findIndex findLast findLastIndex flatMap".split(),
        (0,),
    ),
    "reduce": (1,),
    "reduceRight": (1,),
    "sort": (0, 1),
    "toSorted": (0, 1),
}

# An array method that stores elements -> the first argument that is one.
# (a Map's ``set(k, v)`` and a Set's ``add(v)``: the collection's values, ``values/arrays.py``)
ELEMENT_STORES: dict[str, int] = {"push": 0, "unshift": 0, "splice": 2, "set": 1, "add": 0}


def may_call_back(ref: list[str]) -> bool:
    """Whether a call to ``ref`` may be one of the table's (its arguments are kept)."""
    return (
        ref[-1] in METHOD_CALLBACKS
        or ".".join(ref) in GLOBAL_CALLBACKS
        or ref[0] in TEST_BLOCKS
        or ref[-1] in _PACKAGE_CALLBACK_NAMES
    )


def callback_positions(ref: list[str], argc: int, is_global: bool) -> tuple[int, ...]:
    """Which arguments of a call to ``ref`` the runtime calls: a global's by name, a method's
    by its name; () when none."""
    name = ".".join(ref) if is_global else ""  # (joined only for a global: most are not)
    if is_global and name in GLOBAL_CALLBACKS:
        return GLOBAL_CALLBACKS[name]
    if is_global and len(ref) == 1 and ref[0] in TEST_BLOCKS:
        return tuple(range(argc))
    if is_global and len(ref) == 2 and ref[0] in TEST_BLOCKS and ref[1] == "only":
        return tuple(range(argc))
    if len(ref) > 1 and ref[-1] in METHOD_CALLBACKS:
        return METHOD_CALLBACKS[ref[-1]]
    return ()
