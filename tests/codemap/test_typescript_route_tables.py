"""Express routes registered in a loop over the project's own literal table:
``AppRoutes.forEach(route => app[route.method](route.path, ...))``, each row a route."""

from __future__ import annotations

from map_helpers import Repo, build

_ACTIONS = """
export async function listPosts(req, res) { res.send([]); }
export async function onePost(req, res) { res.send({}); }
export async function savePost(req, res) { res.send({}); }
export function audit(req) { return req; }
"""
_TABLE = """
import { listPosts, onePost, savePost } from "./actions";

export const AppRoutes = [
  { path: "/posts", method: "get", action: listPosts },
  { path: "/posts/:id", method: "get", action: onePost },
  { path: "/posts", method: "post", action: savePost },
];
"""


def _server(loop: str) -> dict[str, str]:
    return {
        "src/actions.ts": _ACTIONS,
        "src/routes.ts": _TABLE,
        "src/index.ts": f"""
import * as express from "express";
import {{ AppRoutes }} from "./routes";
import {{ audit }} from "./actions";

const app = express();
{loop}
app.listen(3000);
""",
    }


def test_each_row_of_a_route_table_is_a_route_handled_by_the_rows_function(repo: Repo) -> None:
    build(
        repo,
        _server(
            """
AppRoutes.forEach(route => {
  app[route.method](route.path, (req, res, next) => {
    route.action(req, res).then(() => next).catch(err => next(err));
  });
});
"""
        ),
    )
    assert repo.pairs("handles") == {
        ("GET /posts", "src/actions.listPosts"),
        ("GET /posts/:id", "src/actions.onePost"),
        ("POST /posts", "src/actions.savePost"),
    }


def test_a_named_method_and_the_rows_member_as_the_handler_are_read_too(repo: Repo) -> None:
    build(repo, _server("AppRoutes.forEach(r => app.post(r.path, r.action));"))
    assert repo.pairs("handles") == {
        ("POST /posts", "src/actions.listPosts"),
        ("POST /posts/:id", "src/actions.onePost"),
        ("POST /posts", "src/actions.savePost"),
    }


def test_an_inline_handler_doing_more_than_forwarding_is_its_own_handler(repo: Repo) -> None:
    # it calls two members of the row: which one answers is not one function of the row
    build(
        repo,
        _server(
            """
AppRoutes.forEach(route => {
  app[route.method](route.path, (req, res) => route.check(req) && route.action(req, res));
});
"""
        ),
    )
    assert {target for _, target in repo.pairs("handles")} == {"src/index.<arrow>.<arrow>"}


def test_a_method_or_path_not_written_in_the_row_is_no_route(repo: Repo) -> None:
    files = _server("AppRoutes.forEach(route => app[route.verb](route.path, route.action));")
    files["src/other.ts"] = """
import * as express from "express";
import { listPosts } from "./actions";

const app = express();
const prefix = process.env.PREFIX;
const Table = [{ path: prefix + "/x", method: "get", action: listPosts }];
Table.forEach(route => app[route.method](route.path, route.action));
"""
    build(repo, files)
    assert repo.pairs("handles") == set()


def test_a_table_bound_twice_is_not_read(repo: Repo) -> None:
    files = _server("AppRoutes.forEach(route => app[route.method](route.path, route.action));")
    files["src/routes.ts"] = _TABLE.replace("export const AppRoutes", "export let AppRoutes")
    files["src/routes.ts"] += "\nif (process.env.LEGACY) { AppRoutes = []; }\n"
    build(repo, files)
    assert repo.pairs("handles") == set()
