"""The JavaScript of a package in ``node_modules`` read for the value flow: what a handler
registered with it is called back with is followed (``partial``: the package may change), its
functions are never nodes, and a package that is not read (minified, not parsable, a cycle of
requires) leaves the call unresolved, never a hang."""

from __future__ import annotations

import json

from map_helpers import Repo, build

_APP = """
    const hub = require("hub");
    class Reply { send() {} }
    function handler(res) { res.send(); }
    export function serve() { hub.run(handler, new Reply()); }
"""
_HUB = """
    var stack = [];
    exports.run = function run(fn, obj) { stack.push(fn); dispatch(obj); };
    function dispatch(obj) {
      for (var i = 0; i < stack.length; i++) { var f = stack[i]; call(f, obj); }
    }
    function call(f, obj) { f(obj); }
"""


_MANIFEST = '{"name": "app", "dependencies": {"hub": "1", "bad": "1", "a": "1"}}'


def test_an_object_a_package_hands_back_to_a_registered_handler_is_followed(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "main.js": _APP,
            "package.json": _MANIFEST,
            "node_modules/hub/package.json": '{"name": "hub", "main": "lib/hub.js"}',
            "node_modules/hub/lib/hub.js": _HUB,
        },
    )
    pairs = repo.pairs("calls")
    assert ("main.handler", "main.Reply.send") in pairs
    assert ("main.handler", "main.Reply.send") not in repo.certain("calls")  # partial
    assert not any("node_modules" in a or "node_modules" in b for a, b in pairs)
    assert not any(n.path and "node_modules" in n.path for n in repo.map.nodes())


def test_a_package_that_is_minified_or_does_not_parse_is_not_followed(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": _APP,
            "package.json": _MANIFEST,
            "node_modules/hub/package.json": '{"name": "hub"}',
            "node_modules/hub/index.js": "exports.run=function(f,o){f(o)};" + " " * 5000,
            "other.js": 'const bad = require("bad"); export function go(x) { bad.take(x); }',
            "node_modules/bad/package.json": '{"name": "bad"}',
            "node_modules/bad/index.js": ")))))))))))",
            "node_modules/a/package.json": '{"name": "a"}',
            "node_modules/a/index.js": 'require("./b"); exports.a = 1;',
            "node_modules/a/b.js": 'require("./index"); exports.b = 2;',
            "cycle.js": 'const a = require("a"); export const x = a.a;',
        },
    )
    assert ("main.handler", "main.Reply.send") not in repo.pairs("calls")
    counted = json.loads(repo.map.store.manifest()["data_unresolved"])
    assert counted["package code not read: minified"] == 1
    assert counted["package code not read: does not parse"] == 1


def test_a_package_only_the_tests_use_is_not_read(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": _APP,
            "package.json": '{"name": "app", "devDependencies": {"hub": "1"}}',
            "node_modules/hub/package.json": '{"name": "hub", "main": "lib/hub.js"}',
            "node_modules/hub/lib/hub.js": _HUB,
        },
    )
    assert ("main.handler", "main.Reply.send") not in repo.pairs("calls")
