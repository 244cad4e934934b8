"""TypeScript/JavaScript ``this`` in a function that is a member of an object (a literal's
method, ``app.set = function``): the object it is called on; functions given another object's
members (``Object.assign(f, src)``, ``merge-descriptors``) find them; a member also written
under a run-time key, or through a parameter that may hold anything, is reached ``partial``."""

from __future__ import annotations

from map_helpers import Repo, build


def test_this_in_a_method_of_an_object_literal_calls_the_objects_own_member(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                const counter = {
                  n: 0,
                  inc() { this.n += 1; },
                  twice() { this.inc(); this.inc(); },
                };
                counter.twice();
            """,
        },
    )
    assert ("main.counter.twice", "main.counter.inc") in repo.certain("calls")


def test_this_in_a_function_assigned_to_an_exported_tables_member_is_that_table(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "app.js": """
                var app = exports = module.exports = {};
                app.set = function set(key, value) { return this; };
                app.enable = function enable(key) { return this.set(key, true); };
            """,
            "main.js": """
                var app = require("./app");
                app.enable("x");
            """,
        },
    )
    certain = repo.certain("calls")
    assert ("app.app.enable", "app.app.set") in certain
    assert ("main", "app.app.enable") in certain


def test_a_function_of_no_holder_inside_a_method_does_not_see_the_methods_this(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "main.js": """
                const api = {
                  ping() {},
                  run() { [1].forEach(function () { this.ping(); }); },
                };
                api.run();
            """,
        },
    )
    assert not any(target == "main.api.ping" for _, target in repo.pairs("calls"))


def test_a_function_given_a_modules_members_by_merge_descriptors_reaches_them(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "proto.js": """
                var app = exports = module.exports = {};
                app.init = function init() {};
                app.use = function use(fn) {};
            """,
            "express.js": """
                var mixin = require("merge-descriptors");
                var proto = require("./proto");
                module.exports = function createApplication() {
                  var app = function (req, res) {};
                  mixin(app, proto, false);
                  app.init();
                  return app;
                };
            """,
            "main.js": """
                var express = require("./express");
                var app = express();
                app.use(function () {});
            """,
        },
    )
    certain = repo.certain("calls")
    assert ("express.createApplication", "proto.app.init") in certain
    assert ("main", "proto.app.use") in certain


def test_a_member_also_written_under_a_run_time_key_is_reached_partially(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                var app = {};
                app.use = function use() {};
                ["get", "post"].forEach(function (method) {
                  app[method] = function () {};
                });
                export function run() { app.use(); }
            """,
        },
    )
    assert ("main.run", "main.app.use") in repo.pairs("calls")
    assert ("main.run", "main.app.use") not in repo.certain("calls")


def test_a_variable_bound_to_an_assignment_holds_what_is_assigned(repo: Repo) -> None:
    build(
        repo,
        {
            "lib.js": "module.exports = function make() { return { go: function go() {} }; };\n",
            "main.js": """
                var make = require("./lib");
                var app = module.exports = make();
                app.go();
            """,
        },
    )
    assert ("main", "lib.make.go") in repo.certain("calls")


def test_a_member_made_from_a_list_of_names_is_reached_partially(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                var app = {};
                ["get", "post"].forEach(function (method) {
                  app[method] = function () {};
                });
                export function run() { app.get(); }
            """,
        },
    )
    assert ("main.run", "main.<function>.<function>") in repo.pairs("calls")
    assert ("main.run", "main.<function>.<function>") not in repo.certain("calls")


def test_a_member_replaced_under_a_key_made_at_run_time_stays_unresolved(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                function real() {}
                function other() {}
                const api = {};
                api.load = real;
                const name = ["lo", "ad"].join("");
                api[name] = other;
                export function go() { return api.load(); }
            """,
        },
    )
    assert ("main.go", "main.real") not in repo.pairs("calls")
