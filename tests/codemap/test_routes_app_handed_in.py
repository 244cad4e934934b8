"""Express routes registered by a function the app is handed to: ``module.exports = (app) =>
{ app.use("/api/items", router) }``, called as ``require("./routes")(app)``."""

from __future__ import annotations

from map_helpers import Repo, build


def test_a_router_mounted_on_an_app_handed_to_the_module_carries_the_prefix(repo: Repo) -> None:
    build(
        repo,
        {
            "server.js": """
const express = require("express");
const app = express();
require("./routes/items.routes")(app);
app.listen(8080);
""",
            "routes/items.routes.js": """
module.exports = app => {
  const items = require("../controllers/items.controller.js");
  var router = require("express").Router();
  router.get("/", items.findAll);
  router.get("/:id", items.findOne);
  app.use("/api/items", router);
};
""",
            "routes/unknown.routes.js": """
module.exports = (app, prefix) => {
  app.use(prefix, require("express").Router());
  app.use("/static", serveStatic("public"));
};
""",
            "controllers/items.controller.js": """
exports.findAll = (req, res) => res.send([]);
exports.findOne = (req, res) => res.send({});
""",
        },
    )
    assert {route for route, _ in repo.pairs("handles")} == {
        "GET /api/items/",
        "GET /api/items/:id",
    }
