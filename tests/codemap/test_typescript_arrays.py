"""TypeScript/JavaScript arrays and iterators: values pushed (or stored by index, or written in
the literal) are what the array's elements hold when read back by index, by ``for...of`` or by a
runtime method's callback; iterating an instance runs its ``[Symbol.iterator]`` method, and the
loop variable takes what that method yields."""

from __future__ import annotations

from map_helpers import Repo, build

_STACK = """
    class Layer {
      constructor(fn) { this.fn = fn; }
      handle() { return this.fn(); }
    }
    export class Stack {
      constructor() { this.layers = []; }
      use(fn) { this.layers.push(new Layer(fn)); }
      byIndex() { const layers = this.layers; return layers[0].handle(); }
      byLoop() { for (const layer of this.layers) layer.handle(); }
      byCallback() { this.layers.forEach((layer) => layer.handle()); }
    }
    function hello() { return 1; }
    export function main() { new Stack().use(hello); }
"""


def test_a_value_pushed_into_a_field_array_is_called_when_read_back(repo: Repo) -> None:
    build(repo, {"main.js": _STACK})
    certain = repo.certain("calls")
    assert ("main.Stack.byIndex", "main.Layer.handle") in certain
    assert ("main.Stack.byLoop", "main.Layer.handle") in certain
    assert ("main.Stack.byCallback.<arrow>", "main.Layer.handle") in certain
    assert ("main.Layer.handle", "main.hello") in certain  # its field, from the one caller


def test_an_array_also_given_an_unknown_value_gives_partial_edges(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                function a() {}
                function b() {}
                const jobs = [a];
                jobs.push(b);
                export function add(job) { jobs.push(job); }
                export function run() { for (const job of jobs) job(); }
                export function first() { return jobs[0](); }
            """,
        },
    )
    pairs, certain = repo.pairs("calls"), repo.certain("calls")
    assert {("main.run", "main.a"), ("main.run", "main.b")} <= pairs - certain
    assert {("main.first", "main.a"), ("main.first", "main.b")} <= pairs - certain


def test_a_local_array_literal_read_in_a_loop_reaches_each_function(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                function a() {}
                function b() {}
                export function run() {
                  const steps = [a, b];
                  for (const step of steps) step();
                }
                export function one() {
                  const steps = [a];
                  steps[0]();
                }
            """,
        },
    )
    pairs, certain = repo.pairs("calls"), repo.certain("calls")
    assert {("main.run", "main.a"), ("main.run", "main.b")} <= pairs - certain
    assert ("main.one", "main.a") in certain


def test_an_array_literal_iterated_or_given_a_callback_in_place_hands_on_its_items(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "main.js": """
                function a() {}
                function b() {}
                function call(f) { return f(); }
                export function loop() { for (const step of [a, b]) step(); }
                export function each() { [a, b].forEach(call); }
                export function inline() { [a].forEach((f) => f()); }
            """,
        },
    )
    pairs, certain = repo.pairs("calls"), repo.certain("calls")
    assert {("main.loop", "main.a"), ("main.loop", "main.b")} <= pairs - certain  # one of them
    assert {("main.call", "main.a"), ("main.call", "main.b")} <= pairs - certain
    assert ("main.inline.<arrow>", "main.a") in certain


def test_iterating_an_instance_runs_its_symbol_iterator_method(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                class Task { run() {} }
                class Tasks {
                  *[Symbol.iterator]() { yield new Task(); }
                }
                export function all() {
                  const tasks = new Tasks();
                  for (const task of tasks) task.run();
                  return [...tasks];
                }
            """,
        },
    )
    certain = repo.certain("calls")
    assert ("main.all", "main.Tasks.[Symbol.iterator]") in certain
    assert ("main.all", "main.Task.run") in certain


def test_a_variable_declared_without_a_value_holds_what_its_function_assigns(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                class Layer { handle() {} }
                export class Route {
                  constructor() { this.stack = [new Layer()]; }
                  dispatch() {
                    let idx = 0;
                    let layer;
                    while (idx < this.stack.length) {
                      layer = this.stack[idx++];
                      layer.handle();
                    }
                  }
                  later() {
                    let fn;
                    function set() { fn = this.stack[0]; }
                    set();
                    fn.handle(); // unresolved: assigned in another function
                  }
                }
            """,
        },
    )
    pairs, certain = repo.pairs("calls"), repo.certain("calls")
    assert ("main.Route.dispatch", "main.Layer.handle") in certain
    assert not {pair for pair in pairs if pair[0] == "main.Route.later" and "Layer" in pair[1]}


def test_a_constructor_that_returns_a_function_keeps_the_arrays_stored_on_it(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                function Layer(fn) { this.fn = fn; }
                Layer.prototype.run = function run() { return this.fn(); };
                export function Router() {
                  function router() { router.handle(); }
                  Object.setPrototypeOf(router, this);
                  router.stack = [];
                  return router;
                }
                Router.prototype.use = function use(fn) {
                  this.stack.push(new Layer(fn));
                  return this;
                };
                Router.prototype.handle = function handle() {
                  const stack = this.stack;
                  let i = 0;
                  let layer;
                  while (i < stack.length) {
                    layer = stack[i++];
                    layer.run();
                  }
                };
                function hello() {}
                new Router().use(hello);
            """,
        },
    )
    certain = repo.certain("calls")
    assert ("main.Router.prototype.handle", "main.Layer.prototype.run") in certain
    assert ("main.Layer.prototype.run", "main.hello") in certain


def test_a_module_that_exports_an_array_hands_its_elements_to_a_callback(repo: Repo) -> None:
    build(
        repo,
        {
            "fixtures.js": """
                function alpha() {}
                module.exports = [alpha];
            """,
            "main.js": """
                const rows = require("./fixtures");
                export function each() {
                  rows.forEach((row) => row());
                }
            """,
        },
    )
    certain = repo.certain("calls")
    assert ("main.each", "main.each.<arrow>") in certain
    assert ("main.each.<arrow>", "fixtures.alpha") in certain


def test_a_member_picked_by_a_run_time_key_may_be_any_prototype_function(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                function Route() {}
                Route.prototype.all = function all() {};
                ["get", "post"].forEach(function (method) {
                  Route.prototype[method] = function () {};
                });
                export function add(method) {
                  const route = new Route();
                  route[method].apply(route, []);
                }
            """,
        },
    )
    pairs, certain = repo.pairs("calls"), repo.certain("calls")
    assert ("main.add", "main.Route.prototype.all") in pairs - certain
    assert not {pair for pair in certain if pair[0] == "main.add" and "prototype" in pair[1]}


def test_a_variable_declared_null_holds_what_its_function_assigns_later(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                class Range { test() {} }
                export function check(spec) {
                  let range = null;
                  try { range = new Range(spec); } catch (er) { return false; }
                  return range.test();
                }
            """,
        },
    )
    assert ("main.check", "main.Range.test") in repo.certain("calls")


def test_a_push_edited_in_another_file_changes_what_the_reader_calls(repo: Repo) -> None:
    build(
        repo,
        {
            "jobs.js": "export const jobs = [];\n",
            "add.js": """
                import { jobs } from "./jobs";
                function alpha() {}
                function beta() {}
                jobs.push(alpha);
            """,
            "run.js": """
                import { jobs } from "./jobs";
                export function run() { for (const job of jobs) job(); }
            """,
        },
    )
    assert ("run.run", "add.alpha") in repo.certain("calls")
    repo.write({"add.js": (repo.root / "add.js").read_text().replace("push(alpha)", "push(beta)")})
    repo.build()
    calls = repo.pairs("calls")
    assert ("run.run", "add.beta") in calls
    assert ("run.run", "add.alpha") not in calls


def test_a_variable_assigned_from_itself_in_a_loop_is_unknown_and_maps_at_once(repo: Repo) -> None:
    # Each assignment reads the variable again: followed naively, every read branches into
    # all the assignments (2^40 paths); a binding read while it is evaluated is unknown.
    build(
        repo,
        {
            "main.js": """
                class Root { run() {} }
                export function walk(start) {
                  let node;
                  node = new Root();
                  node = node.parent;
                  node = node.child;
                  while (node) node = node.parent.next;
                  node.run();
                }
            """,
        },
    )
    assert repo.report is not None
    assert not repo.report.skipped
    assert ("main.walk", "main.Root.run") not in repo.certain("calls")


_RANGE = """
    class Comparator {
      test() { return 1; }
    }
    class Always {
      test() { return 2; }
    }
    export class Range {
      constructor(range) {
        this.set = range.split("||").map((r) => this.parseRange(r)).filter((c) => c.ok);
      }
      parseRange(r) { return new Comparator(r); }
      byLoop() { for (const comparator of this.set) comparator.test(); }
      byIndex() { return this.set[0].test(); }
      byChain() { this.set.slice().concat([new Always()]).forEach((c) => c.test()); }
    }
"""


def test_what_map_returns_holds_the_functions_results_through_a_filter(repo: Repo) -> None:
    build(repo, {"main.js": _RANGE})
    pairs, certain = repo.pairs("calls"), repo.certain("calls")
    assert ("main.Range.byLoop", "main.Comparator.test") in certain
    assert ("main.Range.byIndex", "main.Comparator.test") in certain
    # a concatenated instance is one of the elements the chained callback is given
    chained = {("main.Range.byChain.<arrow>", f"main.{c}.test") for c in ("Comparator", "Always")}
    assert chained <= pairs - certain


def test_a_callback_chained_after_map_is_given_what_maps_function_returns(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                class Job { run() {} }
                const names = ["a", "b"];
                export function run() {
                  names.map((n) => new Job(n)).forEach((job) => job.run());
                  return Array.from(names, (n) => new Job(n)).filter((j) => j)[0].run();
                }
            """,
        },
    )
    certain = repo.certain("calls")
    assert ("main.run.<arrow>", "main.Job.run") in certain
    assert ("main.run", "main.Job.run") in certain


def test_what_map_on_an_unknown_value_returns_gives_only_partial_edges(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                class Job { run() {} }
                export function start(list) {
                  for (const job of list.map((x) => new Job(x))) job.run();
                }
                export function again(list) {
                  list.map((x) => new Job(x)).slice().forEach((job) => job.run());
                }
            """,
        },
    )
    pairs, certain = repo.pairs("calls"), repo.certain("calls")
    assert ("main.start", "main.Job.run") in pairs - certain
    assert ("main.again.<arrow>", "main.Job.run") in pairs - certain  # a copy: as vague


def test_a_destructured_loop_variable_holds_a_member_of_each_element(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                function a() {}
                function b() {}
                const routes = [{ handle: a, name: "a" }, { handle: b, name: "b" }];
                const only = [{ handle: a }];
                export function run() {
                  for (const { handle } of routes) handle();
                  for (const { handle: h } of only) h();
                  for (const [first] of [routes]) first.handle();
                }
            """,
        },
    )
    pairs, certain = repo.pairs("calls"), repo.certain("calls")
    assert {("main.run", "main.a"), ("main.run", "main.b")} <= pairs
    assert ("main.run", "main.a") in certain  # only's one element: h is a


def test_an_array_made_by_spreading_holds_the_spread_arrays_elements(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                function a() {}
                function b() {}
                function c() {}
                const xs = [a];
                export function copy() { const ys = [...xs]; ys[0](); }
                export function around() { for (const f of [b, ...xs, c]) f(); }
                export function made() { return Array.of(a, b).forEach((f) => f()); }
                export function vague(zs) { for (const f of [a, ...zs]) f(); }
            """,
        },
    )
    pairs, certain = repo.pairs("calls"), repo.certain("calls")
    assert ("main.copy", "main.a") in certain
    assert {("main.around", "main.a"), ("main.around", "main.b"), ("main.around", "main.c")} <= (
        pairs - certain
    )
    assert {("main.made.<arrow>", "main.a"), ("main.made.<arrow>", "main.b")} <= pairs - certain
    assert ("main.vague", "main.a") in pairs - certain


def test_a_maps_values_spread_into_an_array_are_what_was_set_on_it(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                class Comparator { test() {} }
                function a() {}
                export function parse(texts) {
                  const byText = new Map();
                  for (const t of texts) byText.set(t, new Comparator());
                  return [...byText.values()];
                }
                export function check(texts) { for (const c of parse(texts)) c.test(); }
                export function entries() {
                  const m = new Map();
                  m.set("k", a);
                  for (const e of m) e();
                }
                export function added() {
                  const s = new Set([a]);
                  s.add(a);
                  for (const f of s) f();
                }
            """,
        },
    )
    pairs, certain = repo.pairs("calls"), repo.certain("calls")
    assert ("main.check", "main.Comparator.test") in certain
    assert ("main.entries", "main.a") not in pairs  # a Map's own iteration gives its entries
    assert ("main.added", "main.a") in certain
