"""Objects whose prototype is set at run time, Express's way: ``Object.setPrototypeOf(req,
proto)`` on a parameter, ``this`` in a member's function when the table is copied onto a
function (``mixin(app, proto)``), a lazy getter ``Object.defineProperty(this, "router", {get})``
and the ``null`` variable it assigns, a module-level ``Object.create(runtime prototype)``."""

from __future__ import annotations

from map_helpers import Repo, build


def test_a_parameter_given_a_prototype_reaches_its_members_partially(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                const proto = { send() {} };
                export function handle(res) {
                  Object.setPrototypeOf(res, proto);
                  res.send();
                }
            """,
        },
    )
    assert ("main.handle", "main.proto.send") in repo.pairs("calls")
    assert ("main.handle", "main.proto.send") not in repo.certain("calls")


def test_a_null_variable_a_lazy_getter_assigns_holds_what_it_assigns(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                class Router { go() {} }
                export function make() {
                  let router = null;
                  function get() {
                    if (router === null) { router = new Router(); }
                    return router;
                  }
                  get().go();
                }
            """,
        },
    )
    assert ("main.make", "main.Router.go") in repo.certain("calls")


def test_this_in_a_copied_member_reads_the_function_it_was_copied_onto(repo: Repo) -> None:
    build(
        repo,
        {
            "lib/request.js": """
                var req = Object.create(http.IncomingMessage.prototype);
                module.exports = req;
                req.get = function get(name) { return name; };
            """,
            "lib/application.js": """
                var app = exports = module.exports = {};
                app.init = function init() {
                  var router = null;
                  Object.defineProperty(this, "router", {
                    get: function getrouter() {
                      if (router === null) { router = new Router(); }
                      return router;
                    }
                  });
                };
                function Router() {}
                Router.prototype.handle = function handle(req) { req.get("host"); };
                app.handle = function handle(req) {
                  Object.setPrototypeOf(req, this.request);
                  this.router.handle(req);
                };
            """,
            "lib/express.js": """
                var mixin = require("merge-descriptors");
                var proto = require("./application");
                var req = require("./request");
                exports = module.exports = createApplication;
                function createApplication() {
                  var app = function (req) { app.handle(req); };
                  mixin(app, proto, false);
                  app.request = Object.create(req);
                  app.init();
                  return app;
                }
            """,
        },
    )
    pairs = repo.pairs("calls")
    assert ("lib/application.app.handle", "lib/application.Router.prototype.handle") in pairs
    assert ("lib/application.Router.prototype.handle", "lib/request.req.get") in pairs
