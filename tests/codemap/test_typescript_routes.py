"""Express, Koa, Fastify and Hono routes with their prefixes composed; fetch, axios (instances
included, imported from another module) and ky calls matched to them or to an outside host."""

from __future__ import annotations

from map_helpers import Repo, build

from groundkit.codemap.model import Provenance

SERVER = {
    "server/items.ts": """
        import express from "express";
        export const items = express.Router();
        function list(req: unknown, res: unknown) {}
        items.get("/", list);
        items.delete("/:id", (req, res) => res);
    """,
    "server/app.ts": """
        import express from "express";
        import { items } from "./items";
        const PREFIX = "/api";
        const app = express();
        app.use(`${PREFIX}/items`, items);
        app.all("/ping", function ping() {});
    """,
}


def test_express_routes_compose_the_use_prefix_with_the_router(repo: Repo) -> None:
    build(repo, SERVER)
    assert dict(repo.pairs("handles")) == {
        "GET /api/items/": "server/items.list",
        "DELETE /api/items/:id": "server/items.<delete /:id>",
        "ANY /ping": "server/app.ping",
    }
    edge = repo.edge("handles", "GET /api/items/", "server/items.list")
    assert edge.provenance == Provenance.ROUTE_EXPRESS  # type: ignore[attr-defined]
    assert edge.location.path == "server/items.ts"  # type: ignore[attr-defined]


def test_koa_fastify_and_hono_routes(repo: Repo) -> None:
    build(
        repo,
        {
            "koa.js": """
                const Koa = require("koa");
                const Router = require("koa-router");
                const app = new Koa();
                const users = new Router({ prefix: "/users" });
                users.get("/:id", function show(ctx) {});
                app.use(users.routes());
            """,
            "fast.ts": """
                import fastify, { FastifyInstance } from "fastify";
                const server = fastify();
                async function v1(app: FastifyInstance) {
                  app.post("/orders", async () => ({}));
                }
                server.register(v1, { prefix: "/v1" });
                server.route({ method: "PUT", url: "/orders/:id", handler: function put() {} });
            """,
            "hono.ts": """
                import { Hono } from "hono";
                const api = new Hono();
                const root = new Hono();
                api.get("/books/:id", function book() {});
                root.route("/shelf", api);
            """,
        },
    )
    assert dict(repo.pairs("handles")) == {
        "GET /users/:id": "koa.show",
        "POST /v1/orders": "fast.v1.<post /orders>",
        "PUT /orders/:id": "fast.put",
        "GET /shelf/books/:id": "hono.book",
    }


def test_client_calls_reach_routes_through_instances_constants_and_templates(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            **SERVER,
            "web/http.ts": """
                import axios from "axios";
                export const API = "/api";
                export const client = axios.create({ baseURL: API });
            """,
            "web/calls.ts": """
                import ky from "ky";
                import { client, API } from "./http";
                export function load() {
                  return client.get("/items/");
                }
                export function drop(id: number) {
                  client.delete(`/items/${id}`);
                  return fetch(API + "/items/" + id, { method: "DELETE" });
                }
                export function ping(url: string) {
                  ky.post("http://localhost:8080/ping");
                  fetch(url);
                  return fetch("https://status.example.com/v1");
                }
            """,
        },
    )
    assert repo.pairs("http_call") == {
        ("web/calls.load", "GET /api/items/"),
        ("web/calls.drop", "DELETE /api/items/:id"),
        ("web/calls.ping", "ANY /ping"),
        ("web/calls.ping", "status.example.com"),
    }
    literal = repo.edge("http_call", "web/calls.ping", "status.example.com")
    assert literal.provenance == Provenance.HTTP_LITERAL  # type: ignore[attr-defined]
    drop = repo.edge("http_call", "web/calls.drop", "DELETE /api/items/:id")
    assert drop.sites == 2  # type: ignore[attr-defined]
