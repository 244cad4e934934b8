"""TypeScript/JavaScript value flow through ``arguments``, fields of instances, ``apply`` and
prototypes set to an instance; and partial edges along a parameter's known paths."""

from __future__ import annotations

from map_helpers import Repo, build


def test_handlers_copied_from_arguments_into_a_field_are_called_through_it(repo: Repo) -> None:
    build(
        repo,
        {
            "stack.js": """
                const slice = Array.prototype.slice;
                function Layer(fn) { this.handle = fn; }
                Layer.prototype.run = function run(x) { const fn = this.handle; return fn(x); };
                function use() {
                  const given = slice.call(arguments);
                  const callbacks = given.flat(Infinity);
                  for (let i = 0; i < callbacks.length; i++) new Layer(callbacks[i]).run(i);
                }
                function first(x) { return x; }
                function second(x) { return x; }
                use(first, [second]);
                module.exports = { use };
            """,
        },
    )
    certain = repo.certain("calls")
    assert ("stack.Layer.prototype.run", "stack.first") in certain
    assert ("stack.Layer.prototype.run", "stack.second") in certain


def test_a_field_of_a_class_instance_is_what_its_constructor_stored(repo: Repo) -> None:
    build(
        repo,
        {
            "main.ts": """
                function job() {}
                class Worker {
                  task: () => void;
                  constructor(task: () => void) { this.task = task; }
                  start() { this.task(); }
                }
                export function run() { new Worker(job).start(); }
            """,
        },
    )
    assert ("main.Worker.start", "main.job") in repo.certain("calls")


def test_apply_with_arguments_hands_each_argument_at_its_own_position(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                function target(fn, other) { return fn(); }
                function forward() { return target.apply(null, arguments); }
                function ping() {}
                function pong() {}
                export function run() { forward(ping, pong); }
            """,
        },
    )
    calls = repo.pairs("calls")
    assert ("main.target", "main.ping") in repo.certain("calls")
    assert ("main.target", "main.pong") not in calls  # the second argument is not called


def test_a_parameter_given_unknown_values_too_gets_partial_edges_to_the_known_ones(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "main.js": """
                function ping() {}
                function pong() {}
                const registry = new Map([["pong", pong]]);
                function call() { const fn = arguments[0]; return fn(); }
                export function run(key) { call(ping); call(registry.get(key)); }
            """,
        },
    )
    assert ("main.call", "main.ping") in repo.pairs("calls") - repo.certain("calls")
    assert ("main.call", "main.pong") not in repo.pairs("calls")
    assert repo.report is not None
    assert repo.report.unresolved_calls == 1


def test_a_function_whose_prototype_is_the_instance_finds_the_instance_methods(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "router.js": """
                function Router() {
                  function router(x) { return router.handle(x); }
                  Object.setPrototypeOf(router, this);
                  return router;
                }
                Router.prototype.handle = function handle(x) { return x; };
                module.exports = Router;
            """,
            "main.js": """
                const Router = require("./router");
                function saw() {}
                export function run() { const r = new Router(); r.handle(saw); }
            """,
        },
    )
    certain = repo.certain("calls")
    assert ("router.Router.router", "router.Router.prototype.handle") in certain
    assert ("main.run", "router.Router.prototype.handle") in certain


def test_a_call_result_bound_in_a_function_hands_its_arguments_on(repo: Repo) -> None:
    build(
        repo,
        {
            "main.ts": """
                class Box { put(fn: () => void) { fn(); } }
                class Factory { make() { return new Box(); } }
                function job() {}
                export function run() {
                  const factory = new Factory();
                  const box = factory.make();
                  box.put(job);
                }
            """,
        },
    )
    assert ("main.Box.put", "main.job") in repo.certain("calls")


def test_what_callers_of_a_constructed_function_pass_reaches_its_parameters(repo: Repo) -> None:
    build(
        repo,
        {
            "app.js": """
                function App() {
                  function app(done) { return done(); }
                  return app;
                }
                function finished() {}
                function run(given) { const app = new App(); app(finished); app(given); }
                module.exports = { run };
            """,
        },
    )
    assert ("app.App.app", "app.finished") in repo.pairs("calls") - repo.certain("calls")


def test_this_in_a_test_runners_functions_is_the_context_its_hooks_fill(repo: Repo) -> None:
    build(
        repo,
        {
            "lib.js": """
                function Parser() {}
                Parser.prototype.parse = function parse() {};
                module.exports = Parser;
            """,
            "test.js": """
                const Parser = require("./lib");
                describe("parse", function () {
                  this.parser = null;  // the suite's own member, not the tests' context
                  before(function () { this.parser = new Parser(); });
                  it("parses", function () { this.parser.parse(); });
                  it("reads", function () { this.other.parse(); });
                });
            """,
        },
    )
    targets = {t for s, t in repo.certain("calls") if s.startswith("test.")}
    assert "lib.Parser.prototype.parse" in targets
    assert repo.report is not None
    assert repo.report.unresolved_calls == 1  # this.other: no hook sets it


def test_apply_of_a_member_of_a_calls_result_hands_on_the_arguments(repo: Repo) -> None:
    # express's app.get: route.get.apply(route, slice.call(arguments, 1)), route made by
    # this.route(path), a value the index learns only once it is read
    build(
        repo,
        {
            "main.js": """
                var methods = ["get", "post"];
                var slice = Array.prototype.slice;
                function Route() {}
                methods.forEach(function (m) {
                  Route.prototype[m] = function (handler) { handler(); };
                });
                Route.prototype.dispatch = function dispatch(req, res, done) { done(); };
                var app = {};
                app.route = function route(path) { return new Route(); };
                app.add = function add(m, path) {
                  var route = this.route(path);
                  route.get.apply(route, slice.call(arguments, 2));
                  route[m].apply(route, slice.call(arguments, 2));
                };
                function show() {}
                app.add("get", "/", show);
            """,
        },
    )
    calls = repo.pairs("calls")
    assert ("main.app.add", "main.<function>.<function>") in calls
    assert ("main.<function>.<function>", "main.show") in calls
    # Route's members are made from a list of names: which one runs is known at run time
    assert ("main.<function>.<function>", "main.show") not in repo.certain("calls")
    # route[m] may be any member: none is handed the arguments (dispatch's done is not show)
    assert ("main.Route.prototype.dispatch", "main.show") not in calls
