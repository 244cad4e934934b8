"""JavaScript's classes before ``class``: a function whose ``prototype`` gets methods, and the
values calls give back (a method returning ``this`` chains, a factory's product is called
on)."""

from __future__ import annotations

from map_helpers import Repo, build

from groundkit.codemap.model import EdgeFlag


def _flags(repo: Repo, source: str) -> dict[str, frozenset[EdgeFlag]]:
    return {
        e.target.qualname: e.flags for e in repo.map.edges(["calls"]) if e.source.qualname == source
    }


def test_methods_assigned_to_a_functions_prototype_are_found_on_its_instances(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "route.js": """
                module.exports = Route;
                function Route(path) { this.path = path; }
                Route.prototype.dispatch = function dispatch(req) { return this.handle(req); };
                Route.prototype.handle = function handle(req) { return req; };
            """,
            "main.js": """
                const Route = require('./route');
                function run() {
                  const route = new Route('/a');
                  route.dispatch({});
                }
            """,
        },
    )
    calls = repo.pairs("calls")
    assert ("main.run", "route.Route") in calls
    assert ("main.run", "route.Route.prototype.dispatch") in calls
    assert ("route.Route.prototype.dispatch", "route.Route.prototype.handle") in calls
    assert _flags(repo, "main.run")["route.Route.prototype.dispatch"] == frozenset()


def test_what_a_function_returns_is_what_its_call_gives(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                function Route() {}
                Route.prototype.all = function all() { return this; };
                Route.prototype.get = function get() {};
                function make() { return new Route(); }
                function same(x) { return x; }
                function hit() {}
                function miss() {}
                function run() {
                  make().all().get();
                  const h = same(hit);
                  h();
                  same(miss);
                }
            """,
        },
    )
    calls = {p for p in repo.pairs("calls") if p[0] == "main.run"}
    assert calls == {
        ("main.run", "main.make"),
        ("main.run", "main.Route.prototype.all"),
        ("main.run", "main.Route.prototype.get"),
        ("main.run", "main.same"),
        ("main.run", "main.hit"),  # what this call handed over, not what any call did
    }


def test_a_prototype_member_under_a_computed_key_is_partial(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                function Router() {}
                Router.prototype.use = function use() {};
                ['get', 'post'].forEach(function (method) {
                  Router.prototype[method] = function () {};
                });
                function run() {
                  const router = new Router();
                  router.use();
                  router.get('/');
                }
            """,
        },
    )
    flags = _flags(repo, "main.run")
    assert flags["main.Router.prototype.use"] == frozenset()
    assert flags["main.<function>.<function>"] == frozenset({EdgeFlag.PARTIAL})
    assert repo.report is not None
    assert repo.report.unresolved_calls == 1


def test_calling_what_a_constructor_returns_runs_that_function(repo: Repo) -> None:
    build(
        repo,
        {
            "router.js": """
                module.exports = Router;
                function Router() {
                  if (!(this instanceof Router)) return new Router();
                  function router(req) { router.handle(req); }
                  Object.setPrototypeOf(router, this);
                  return router;
                }
                Router.prototype.handle = function handle(req) {};
            """,
            "main.js": """
                const Router = require('./router');
                function serve(app) { app({}); }
                function run() {
                  const a = new Router();
                  a({});
                  serve(Router());
                  serve(new Router());
                }
            """,
        },
    )
    calls = repo.pairs("calls")
    assert ("main.run", "router.Router.router") in calls
    assert ("main.serve", "router.Router.router") in calls
    assert _flags(repo, "main.serve") == {"router.Router.router": frozenset()}


def test_a_function_that_returns_new_itself_when_called_gives_an_instance(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                function Router() {
                  if (!(this instanceof Router)) return new Router();
                  function router(req) {}
                  Object.setPrototypeOf(router, this);
                  return router;
                }
                Router.prototype.use = function use() {};
                function run() {
                  const r = Router();
                  r.use();
                  r({});
                }
            """,
        },
    )
    assert _flags(repo, "main.run") == {
        "main.Router": frozenset(),
        "main.Router.prototype.use": frozenset(),
        "main.Router.router": frozenset(),
    }


def test_an_object_made_by_object_create_has_the_members_its_maker_writes_then_the_prototypes(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "proto.js": """
                module.exports = {
                  get host() { return "h"; },
                  describe() { return "d"; },
                };
            """,
            "main.js": """
                const proto = require("./proto");
                function greet() { return "hi"; }
                function make(req, fallback) {
                  const made = Object.create(proto);
                  made.greet = greet;
                  made.req = req;
                  return made;
                }
                function run() {
                  const made = make({});
                  return made.greet() + made.describe() + made.host;
                }
            """,
        },
    )
    flags = _flags(repo, "main.run")
    assert flags == {
        "main.make": frozenset(),
        "main.greet": frozenset(),  # written by its maker
        "proto.exports.describe": frozenset(),  # found on the prototype
        "proto.exports.host": frozenset(),  # the prototype's getter, read
    }


def test_a_parameter_defaulted_by_or_is_that_value_or_what_callers_give(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                class App { context() { return this; } run() { return 1; } }
                function make(app) {
                  app = app || new App();
                  return app.context();
                }
                function use(given) { return make(given).run(); }
            """,
        },
    )
    assert _flags(repo, "main.make")["main.App.context"] == frozenset({EdgeFlag.PARTIAL})
    assert _flags(repo, "main.use")["main.App.run"] == frozenset({EdgeFlag.PARTIAL})


def test_a_call_on_a_defaulted_parameter_is_certain_when_every_value_is_known(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                class App { context() { return this; } }
                function make(app) {
                  app = app || new App();
                  return app.context();
                }
                function omitted() { return make(); }
                function given() { return make(new App()); }
            """,
        },
    )
    assert _flags(repo, "main.make")["main.App.context"] == frozenset()


def test_members_the_delegates_package_forwards_reach_the_target_objects_members(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "response.js": """
                module.exports = {
                  get body() { return this._body; },
                  set body(value) { this._body = value; },
                  redirect(url) { return url; },
                };
            """,
            "context.js": """
                const delegate = require("delegates");
                const proto = module.exports = { inspect() { return "ctx"; } };
                delegate(proto, "response").method("redirect").access("body").fluent("other");
            """,
            "app.js": """
                const context = require("./context");
                const response = require("./response");
                function run() {
                  const ctx = Object.create(context);
                  ctx.response = Object.create(response);
                  ctx.redirect("/");
                  ctx.body = ctx.body + ctx.other();
                }
            """,
        },
    )
    assert _flags(repo, "app.run") == {
        "response.exports.redirect": frozenset(),  # .method("redirect")
        "response.exports.body": frozenset(),  # .access("body"): the getter, read
        "response.exports.body#2": frozenset(),  # and the setter, written
    }  # .fluent("other"): not modelled, nothing drawn
