"""Express routers held in class fields: ``class R { router = Router(); controller = new C();
... this.router.post("/", this.controller.create) }`` exported as ``new R().router`` and mounted
by another class's constructor (``app.use("/api/items", itemRoutes)``)."""

from __future__ import annotations

from map_helpers import Repo, build

_CONTROLLER = """
export default class ItemController {
  async create(req, res) { res.send({}); }
  async findAll(req, res) { res.send([]); }
}
"""
_ROUTES = """
import { Router } from "express";
import ItemController from "../controllers/item.controller";

class ItemRoutes {
  router = Router();
  controller = new ItemController();

  constructor() {
    this.intializeRoutes();
  }

  intializeRoutes() {
    this.router.post("/", this.controller.create);
    this.router.get("/", this.controller.findAll);
  }
}

export default new ItemRoutes().router;
"""
_MOUNT = """
import { Application } from "express";
import itemRoutes from "./item.routes";

export default class Routes {
  constructor(app: Application) {
    app.use("/api/items", itemRoutes);
  }
}
"""


def _build(repo: Repo, routes: str) -> None:
    files = {"src/controllers/item.controller.ts": _CONTROLLER, "src/routes/index.ts": _MOUNT}
    build(repo, {**files, "src/routes/item.routes.ts": routes})


def test_a_router_in_a_class_field_serves_its_routes_under_the_mount_prefix(repo: Repo) -> None:
    _build(repo, _ROUTES)
    assert repo.pairs("handles") == {
        ("POST /api/items/", "src/controllers/item.controller.ItemController.create"),
        ("GET /api/items/", "src/controllers/item.controller.ItemController.findAll"),
    }


def test_a_field_written_again_in_a_method_leaves_the_handler_unknown(repo: Repo) -> None:
    # the field holds one of two controllers by the time a request comes: no handles edge
    routes = _ROUTES.replace(
        "    this.intializeRoutes();",
        "    this.intializeRoutes();\n    this.controller = pick();",
    )
    _build(repo, routes)
    assert repo.pairs("handles") == set()


def test_a_static_field_is_not_an_instance_field(repo: Repo) -> None:
    routes = _ROUTES.replace("  router = Router();", "  static router = Router();")
    _build(repo, routes)
    assert repo.pairs("handles") == set()


def test_two_class_field_routers_of_one_module_stay_two_routers(repo: Repo) -> None:
    build(
        repo,
        {
            "src/controllers/item.controller.ts": _CONTROLLER,
            "src/routes/all.routes.ts": """
import { Router } from "express";
import ItemController from "../controllers/item.controller";

class ReadRoutes {
  router = Router();
  controller = new ItemController();
  constructor() { this.router.get("/", this.controller.findAll); }
}

class WriteRoutes {
  router = Router();
  controller = new ItemController();
  constructor() { this.router.post("/", this.controller.create); }
}

export const reads = new ReadRoutes().router;
export const writes = new WriteRoutes().router;
""",
            "src/routes/index.ts": """
import { Application } from "express";
import { reads, writes } from "./all.routes";

export default class Routes {
  constructor(app: Application) {
    app.use("/api/reads", reads);
    app.use("/api/writes", writes);
  }
}
""",
        },
    )
    assert repo.pairs("handles") == {
        ("GET /api/reads/", "src/controllers/item.controller.ItemController.findAll"),
        ("POST /api/writes/", "src/controllers/item.controller.ItemController.create"),
    }
