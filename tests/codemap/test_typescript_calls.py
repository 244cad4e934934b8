"""TypeScript/JavaScript nodes and call edges: functions, arrows bound to names, classes and
methods; calls through local bindings, imports, re-exports, ``this``, ``super``, ``new`` and
instances; a call with no static target is counted, never guessed."""

from __future__ import annotations

from map_helpers import Repo, build

from groundkit.codemap.model import EdgeFlag, NodeKind, Provenance


def test_functions_arrows_classes_and_methods_are_nodes_named_by_module_path(repo: Repo) -> None:
    build(
        repo,
        {
            "src/shapes.ts": """
                export function area() {}
                export const perimeter = () => 0;
                export class Square {
                  side = 1;
                  get size() { return this.side; }
                  set size(v: number) { this.side = v; }
                  grow = () => this.side;
                  static of() { return new Square(); }
                }
                const registry = { add() {}, remove: function () {} };
                export default function () {}
            """
        },
    )
    kinds = {n.qualname: n.kind for n in repo.map.nodes() if n.path}
    assert kinds == {
        "src/shapes": NodeKind.MODULE,
        "src/shapes.area": NodeKind.FUNCTION,
        "src/shapes.perimeter": NodeKind.FUNCTION,
        "src/shapes.Square": NodeKind.CLASS,
        "src/shapes.Square.size": NodeKind.METHOD,
        "src/shapes.Square.grow": NodeKind.METHOD,
        "src/shapes.Square.of": NodeKind.METHOD,
        "src/shapes.registry.add": NodeKind.FUNCTION,
        "src/shapes.registry.remove": NodeKind.FUNCTION,
        "src/shapes.default": NodeKind.FUNCTION,
    }
    assert ("src/shapes.Square", "src/shapes.Square.size") in repo.pairs("defines")


def test_calls_resolve_through_imports_reexports_and_commonjs(repo: Repo) -> None:
    build(
        repo,
        {
            "lib/core.ts": "export function boot() {}\nexport default function main() {}\n",
            "lib/index.ts": 'export * from "./core";\nexport { default as start } from "./core";\n',
            "old.js": "function legacy() {}\nmodule.exports = { legacy };\n",
            "app.ts": """
                import { boot, start } from "./lib";
                import * as lib from "./lib";
                const old = require("./old");
                export function run() {
                  boot();
                  start();
                  lib.boot();
                  old.legacy();
                }
            """,
        },
    )
    assert repo.pairs("calls") == {
        ("app.run", "lib/core.boot"),
        ("app.run", "lib/core.main"),
        ("app.run", "old.legacy"),
    }
    edge = repo.edge("calls", "app.run", "lib/core.boot")
    assert edge.provenance == Provenance.TS_CALL  # type: ignore[attr-defined]
    assert edge.sites == 2  # type: ignore[attr-defined]
    assert edge.evidence == "app.run calls lib/core.boot at app.ts:5: boot();"  # type: ignore[attr-defined]


def test_this_super_new_and_instances_follow_the_class_and_its_bases(repo: Repo) -> None:
    build(
        repo,
        {
            "base.ts": """
                export class Base {
                  constructor() {}
                  hello() { return 1; }
                }
            """,
            "main.ts": """
                import { Base } from "./base";
                import React from "react";
                class Child extends Base {
                  constructor() { super(); }
                  hello() { return super.hello() + this.other(); }
                  other() { return 2; }
                }
                class View extends React.Component {
                  render() { return super.render(); }
                }
                export function use() {
                  const c = new Child();
                  c.hello();
                }
            """,
        },
    )
    calls = {
        (e.source.qualname, e.target.qualname): e.provenance for e in repo.map.edges(["calls"])
    }
    assert calls == {
        ("main.Child.constructor", "base.Base.constructor"): Provenance.TS_SUPER,
        ("main.Child.hello", "base.Base.hello"): Provenance.TS_SUPER,
        ("main.Child.hello", "main.Child.other"): Provenance.TS_THIS,
        ("main.use", "main.Child.constructor"): Provenance.TS_NEW,
        ("main.use", "main.Child.hello"): Provenance.TS_INSTANCE,
    }
    assert repo.pairs("inherits") == {("main.Child", "base.Base")}
    assert repo.report is not None
    assert repo.report.unresolved_calls == 0  # super.render() is React's, not unknown


def test_calls_with_no_static_target_are_counted_not_guessed(repo: Repo) -> None:
    build(
        repo,
        {
            "main.ts": """
                function save() {}
                const table = { save };
                export function run(save: () => void, key: string, obj: { save(): void }) {
                  save();
                  table[key]();
                  obj.save();
                  let pick = run;
                  pick = () => {};
                  pick();
                  console.log(JSON.stringify(key));
                  [1, 2].map(String);
                }
            """
        },
    )
    assert repo.pairs("calls") == set()
    assert repo.report is not None
    assert repo.report.unresolved_calls == 4


def test_an_anonymous_function_is_a_node_its_owner_hands_to_the_runtime(repo: Repo) -> None:
    build(
        repo,
        {
            "main.ts": """
                function tick() {}
                export function start() {
                  setTimeout(() => {
                    [1].forEach(function () { tick(); });
                  });
                  setTimeout(tick, 10);
                }
                describe("suite", () => tick());
                (() => tick())();
            """
        },
    )
    assert repo.pairs("calls") == {
        ("main.start", "main.start.<arrow>"),
        ("main.start", "main.tick"),
        ("main.start.<arrow>", "main.start.<arrow>.<function>"),
        ("main.start.<arrow>.<function>", "main.tick"),
        ("main", "main.<arrow>"),
        ("main.<arrow>", "main.tick"),
        ("main", "main.<arrow>#2"),
        ("main.<arrow>#2", "main.tick"),
    }
    assert ("main.start", "main.start.<arrow>") in repo.pairs("defines")
    callback = repo.edge("calls", "main.start", "main.start.<arrow>")
    assert callback.provenance == Provenance.TS_CALLBACK  # type: ignore[attr-defined]


def test_a_callback_to_a_method_of_an_unknown_value_is_partial(repo: Repo) -> None:
    build(
        repo,
        {
            "main.ts": """
                function show() {}
                function each() {}
                function own() {}
                function part(s: string) {}
                const table = { map(f: unknown) {} };
                export function start(load: () => Promise<number>, m: string[]) {
                  load().then(show);
                  m[4].split(".").map(part);
                  [1, 2].map(each);
                  table.map(own);
                }
            """
        },
    )
    then = repo.edge("calls", "main.start", "main.show")
    assert then.flags == frozenset({EdgeFlag.PARTIAL})  # type: ignore[attr-defined]
    assert not repo.edge("calls", "main.start", "main.each").flags  # type: ignore[attr-defined]
    assert ("main.start", "main.own") not in repo.pairs("calls")  # the table's own map
    unnamed = repo.edge("calls", "main.start", "main.part")  # a receiver with no name
    assert unnamed.flags == frozenset({EdgeFlag.PARTIAL})  # type: ignore[attr-defined]


def test_this_method_reaches_each_subclass_override_as_partial(repo: Repo) -> None:
    build(
        repo,
        {
            "base.ts": """
                export class Page {
                  render() { this.tabs(); this.body(); this.footer(); }
                  tabs() {}
                  footer() {}
                }
            """,
            "home.ts": """
                import { Page } from "./base";
                class Home extends Page { tabs() {} body() {} }
                class Feed extends Home { body() {} }
            """,
        },
    )
    calls = {
        (e.target.qualname, EdgeFlag.PARTIAL in e.flags)
        for e in repo.map.edges(["calls"])
        if e.source.qualname == "base.Page.render"
    }
    assert calls == {
        ("base.Page.tabs", True),
        ("home.Home.tabs", True),
        ("home.Home.body", True),
        ("home.Feed.body", True),
        ("base.Page.footer", False),
    }


def test_a_component_used_in_jsx_is_called_with_its_props(repo: Repo) -> None:
    build(
        repo,
        {
            "List.tsx": """
                export function ArticleList({ onPick }: { onPick: () => void }) {
                  onPick();
                  return <ul><li>one</li></ul>;
                }
            """,
            "Home.tsx": """
                import { Component } from "react";
                import { ArticleList } from "./List";
                import * as ui from "./ui";
                function choose() {}
                class Tabs extends Component { render() { return <div />; } }
                export function Home() {
                  return (
                    <main>
                      <ArticleList onPick={choose} />
                      <Tabs />
                      <ui.Banner>hi</ui.Banner>
                    </main>
                  );
                }
            """,
            "ui.tsx": "export const Banner = () => <b />;\n",
        },
    )
    assert repo.pairs("calls") == {
        ("Home.Home", "List.ArticleList"),
        ("Home.Home", "Home.Tabs"),
        ("Home.Home", "Home.Tabs.render"),
        ("Home.Home", "ui.Banner"),
        ("List.ArticleList", "Home.choose"),
    }
    jsx = repo.edge("calls", "Home.Home", "List.ArticleList")
    assert jsx.provenance == Provenance.TS_JSX  # type: ignore[attr-defined]


def test_a_local_alias_chosen_at_run_time_reaches_each_option_as_partial(repo: Repo) -> None:
    build(
        repo,
        {
            "main.ts": """
                const api = { feed() {}, all() {} };
                export function load(token: string) {
                  const pick = token ? api.feed : api.all;
                  pick();
                }
            """
        },
    )
    flags = {
        e.target.qualname: e.flags
        for e in repo.map.edges(["calls"])
        if e.source.qualname == "main.load"
    }
    assert flags == {
        "main.api.feed": frozenset({EdgeFlag.PARTIAL}),
        "main.api.all": frozenset({EdgeFlag.PARTIAL}),
    }
    assert repo.report is not None
    assert repo.report.unresolved_calls == 1


def test_a_class_without_a_constructor_calls_its_base_constructor(repo: Repo) -> None:
    build(
        repo,
        {
            "main.ts": """
                class A { constructor() {} }
                class B extends A {}
                class C extends B { constructor() { super(); } }
            """
        },
    )
    assert ("main.B", "main.A.constructor") in repo.pairs("calls")
    assert ("main.C.constructor", "main.A.constructor") in repo.pairs("calls")  # super()
    assert not {p for p in repo.pairs("calls") if p[0] == "main.C"}


def test_call_apply_and_bind_run_the_function_they_are_on(repo: Repo) -> None:
    build(
        repo,
        {
            "main.ts": """
                function greet() {}
                function log() {}
                function later() {}
                export function run(o: object) {
                  greet.call(o, 1);
                  log.apply(o, [1]);
                  const bound = later.bind(o);
                  bound();
                }
            """
        },
    )
    assert repo.pairs("calls") == {
        ("main.run", "main.greet"),
        ("main.run", "main.log"),
        ("main.run", "main.later"),
    }


def test_a_module_whose_exports_are_another_modules_passes_its_calls_on(repo: Repo) -> None:
    build(
        repo,
        {
            "index.js": 'module.exports = require("./lib/express");\n',
            "lib/express.js": """
                exports = module.exports = createApplication;
                function createApplication() { return 1; }
                exports.helper = function helper() { return 2; };
            """,
            "test/app.js": """
                const express = require("../");
                function run() { express(); express.helper(); }
                run();
            """,
        },
    )
    certain = repo.certain("calls")
    assert ("test/app.run", "lib/express.createApplication") in certain
    assert ("test/app.run", "lib/express.exports.helper") in certain


def test_eval_and_new_function_are_counted_unresolved(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                function greet() {}
                export function run() {
                  eval("greet()");
                  new Function("return greet()");
                  globalThis.eval("greet()");
                  greet();
                }
            """
        },
    )
    assert repo.pairs("calls") == {("main.run", "main.greet")}
    assert repo.report is not None
    assert repo.report.unresolved_calls == 3


def test_a_bound_function_called_at_once_runs_the_function(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                function later() {}
                export function run(o) {
                  later.bind(o)(1);
                }
            """
        },
    )
    assert repo.pairs("calls") == {("main.run", "main.later")}
    assert repo.report is not None
    assert repo.report.unresolved_calls == 0


def test_then_on_what_an_async_function_gives_runs_its_callbacks_certainly(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                async function load() { return 1; }
                function plain() { return 1; }
                function done(v) { return v; }
                function fail(e) { return e; }
                function other(v) { return v; }
                const api = { async fetch() { return 2; } };
                export function run() {
                  load().then(done).catch(fail);
                  api.fetch().then(done);
                  plain().then(other);
                }
            """,
        },
    )
    certain = repo.certain("calls")
    assert ("main.run", "main.done") in certain
    assert ("main.run", "main.fail") in certain
    assert ("main.run", "main.other") in repo.pairs("calls")  # plain() may give anything
    assert ("main.run", "main.other") not in certain


def test_then_on_an_async_function_that_returns_a_function_runs_its_callbacks(
    repo: Repo,
) -> None:
    # the call gives the runtime's promise, whatever the function returns: `then` is never
    # a member of the function returned (which has none)
    build(
        repo,
        {
            "main.js": """
                function one() { return 1; }
                function done(v) { return v; }
                function fail(e) { return e; }
                async function pick() { return one; }
                export function run() {
                  pick().then(done).catch(fail);
                  return pick().then((f) => f);
                }
            """,
        },
    )
    certain = repo.certain("calls")
    assert ("main.run", "main.done") in certain
    assert ("main.run", "main.fail") in certain
    assert ("main.run", "main.run.<arrow>") in certain


def test_what_promise_all_of_a_literal_gives_is_each_items_value_awaited(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                function one() { return 1; }
                async function pick() { return one; }
                export async function run() {
                  const [first] = await Promise.all([pick()]);
                  first();
                }
                export async function byIndex() {
                  const found = await Promise.all([pick()]);
                  found[0]();
                }
                export async function pair() {
                  const [a, b] = await Promise.all([pick(), Promise.resolve(3)]);
                  a();
                }
            """,
        },
    )
    pairs, certain = repo.pairs("calls"), repo.certain("calls")
    assert ("main.run", "main.one") in certain
    assert ("main.byIndex", "main.one") in certain
    # an element at a position not known: one, or what the runtime's promise gives
    assert ("main.pair", "main.one") in pairs - certain


def test_names_destructured_from_a_value_hold_its_members_and_elements(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                function one() { return 1; }
                const api = { feed() { return 1; }, all() { return 2; } };
                export function run() {
                  const { feed, all: load } = api;
                  const [first] = [one];
                  feed();
                  load();
                  first();
                }
                export function rest() { const { nothing = one, ...others } = api; nothing(); }
            """,
        },
    )
    certain = repo.certain("calls")
    assert {("main.run", "main.api.feed"), ("main.run", "main.api.all")} <= certain
    assert ("main.run", "main.one") in certain
    assert ("main.rest", "main.one") not in repo.pairs("calls")  # a default: not followed
