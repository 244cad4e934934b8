"""TypeScript and JavaScript, with tree-sitter: the code is read, never compiled, run or installed.

Claims ``.ts .tsx .mts .cts .js .jsx .mjs .cjs`` (declaration files ``.d.ts`` included: imports
may resolve to them), the script blocks of Vue's single-file components (``.vue``, ``vue.py``),
and the files module resolution reads: ``tsconfig*.json``, ``jsconfig*.json`` and
``package.json``. tree-sitter is imported when the first source file is parsed; without it (the
``codemap`` extra), each TypeScript/JavaScript file is skipped with the install hint, and the
configuration files still parse (they are JSON).

``parse`` turns one file into typed facts (``parse/facts.py``); ``layout.py`` finds which file
a module specifier names (``config.py`` reads the configurations it needs); ``values``
evaluates names and expressions across files and follows values into parameters and tables;
``resolve`` turns each file into nodes and edges, ``web`` finds its routes and HTTP calls.
"""

from __future__ import annotations

import zlib
from typing import ClassVar, Literal

import msgspec

from groundkit.codemap.extract.base import FileFacts, FileGraph, Project, SourceFile
from groundkit.codemap.extract.typescript.config import is_config, parse_config
from groundkit.codemap.extract.typescript.dependencies import Dependencies
from groundkit.codemap.extract.typescript.layout import Layout
from groundkit.codemap.extract.typescript.parse import parse_typescript
from groundkit.codemap.extract.typescript.parse.facts import Body, Interface
from groundkit.codemap.extract.typescript.resolve.graph import FLOW_KEY, TypeScriptFile
from groundkit.codemap.extract.typescript.syntax import INSTALL_HINT
from groundkit.codemap.extract.typescript.values.arrays import Arrays
from groundkit.codemap.extract.typescript.values.evaluate import Evaluator
from groundkit.codemap.extract.typescript.values.events import Events
from groundkit.codemap.extract.typescript.values.flow import Flow
from groundkit.codemap.extract.typescript.values.tables import Tables

__all__ = ["INSTALL_HINT", "SOURCE_SUFFIXES", "TypeScriptExtractor", "TypeScriptResolver"]

# ``.vue``: a single-file component's script blocks (``vue.py``)
SOURCE_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".vue")

_ENCODER = msgspec.msgpack.Encoder()
_INTERFACE = msgspec.msgpack.Decoder(Interface)
_BODY = msgspec.msgpack.Decoder(Body | None)


class TypeScriptExtractor:
    language: ClassVar[str] = "typescript"
    # 34: a module-level call of a private helper that runs Object.defineProperty(obj, name,
    # {get: getter}) with a literal key is that defineProperty written there (``this`` in the
    # getter: the table); a defined getter a write of a key not known may replace is reached
    # partial; ``f.apply``/``f.call`` of a member of a call's result (asked again once the
    # index is read) or of a choice runs ``f`` and hands it the arguments (not through a
    # computed key: every member may be read so);
    # 33: the script blocks of Vue single-file components (``.vue``), read in place;
    # 32: the paths a route function returns and the arguments of calls that hand on a path
    # or a client method (wrappers of wrappers), beside 31's facts (both were numbered 31);
    # 31: parameters `[head]` and `...rest` hold what callers give (`f([one])` hands its
    # items), a destructured parameter's default its members; `p.then(f)` hands f what
    # `await p` gives; Promise.all of a named array; `super.v = 3` runs the base's setter;
    # 30: then/catch/finally on an async function's call whatever it returns (a function of
    # the repository had hidden the promise's callbacks); an array literal iterated or given a
    # callback where it is written hands on its items (`for (const f of [a, b])`); names
    # destructured from a value hold its members (`const {feed} = api`); Promise.all's array;
    # 29: what a generator yields worked out once (a file whose generators iterate each other
    # no longer runs past its work budget); an empty template literal is the empty string.
    # 28: the JavaScript of imported run-time dependencies read for the value flow (never
    # nodes; what reaches the repository through them is partial); Object.setPrototypeOf on a
    # parameter; `this` in a member copied onto a function (mixin); a getter defineProperty
    # puts on `this`; a null var a lazy getter assigns; an array handed on; unknown callees
    # asked again once the index is read;
    # 27: `this` in a method of `module.exports = {...}`, its accessors read through the
    # module or Object.create(module), a literal's getter beside its setter; an object
    # Object.create makes in a function (its maker's writes, then the prototype's members);
    # `p = p || fallback`; choices closed and called; accessors on partly known values;
    # members the `delegates` package forwards;
    # 26: `this` in a member's function (its holder), members copied onto a function
    # (Object.assign, merge-descriptors), members maybe rewritten reached partial, a Map's
    # entries, package.json imports (#specifiers), then after an async call;
    # 25: what useCallback(f) returns is f; 24: package.json exports, React hooks' callbacks;
    # 23: an array literal a function returns (its items); 22: spreads, Map/Set values;
    # 21: arrays made by map, filter, concat... (their elements), chained callbacks;
    # 20: arrays (stores, elements read back), for...of bindings, yields, [Symbol.iterator];
    # 19: env writes (process.env.X = v) merged with 18: accessors, defaults, parameter
    # properties, mixins, events, generators, defineProperty;
    # 13: Drizzle queries, EntityManager calls; 12: `this` in a test's functions; 10: fields,
    # ``arguments``; 9: SQL text
    version: ClassVar[str] = "34"

    def claims(self, path: str) -> bool:
        return path.endswith(SOURCE_SUFFIXES) or is_config(path)

    def parse(self, source: SourceFile) -> FileFacts:
        if is_config(source.path):
            return parse_config(source.path, source.text)
        return parse_typescript(source.path, source.text, source.deadline)

    def encode(self, facts: FileFacts) -> tuple[bytes, bytes]:
        return _ENCODER.encode(facts.interface), zlib.compress(_ENCODER.encode(facts.body), 1)

    def decode(self, interface: bytes, body: bytes) -> FileFacts:
        return FileFacts(_INTERFACE.decode(interface), _BODY.decode(zlib.decompress(body)))

    def resolver(self, project: Project) -> TypeScriptResolver:
        return TypeScriptResolver(project)


class TypeScriptResolver:
    """Resolves one file at a time over one state of the project (built once per run)."""

    reach: Literal["file"] = "file"

    def __init__(self, project: Project) -> None:
        self.layout = Layout(project)
        self.packages = Dependencies(project, self.layout)
        self.evaluator = Evaluator(project, self.layout, self.packages)
        sources = sorted(self.layout.sources)
        self.flow = Flow(self.evaluator, sources, self.packages.read)
        self.arrays = Arrays(self.evaluator, self.flow, sources)
        self.tables = Tables(self.evaluator, self.flow, sources)
        self.events = Events(self.evaluator, self.flow, sources)

    def keys(self, path: str) -> frozenset[str]:
        if path.rpartition("/")[2] == "package.json":
            # Bare specifiers consult every package.json (workspace names): one shared key.
            return frozenset({"ts:" + path, "ts:package.json"})
        if path in self.layout.configs:
            return frozenset({"ts:" + path})
        return frozenset({"ts:" + path, FLOW_KEY})

    def resolve(self, path: str) -> FileGraph:
        if path not in self.layout.sources:
            return FileGraph()  # a configuration file: consulted, not a node
        return TypeScriptFile(self.evaluator, self.flow, self.events, path).run()
