"""Routers built in a chain of calls keep their mount prefixes; superagent, ofetch and
``fetch(new Request(...))`` calls, calls through the frontend's own wrapper, and calls to an
absolute API host reach the backend's routes."""

from __future__ import annotations

from map_helpers import Repo, build

from groundkit.codemap.model import EdgeFlag

BACKEND = {
    "backend/app.ts": """
import express from 'express';
import routes from './routes';
const app = express();
app.use(routes);
""",
    "backend/routes.ts": """
import { Router } from 'express';
import tags from './tags';
import users from './users';

const api = Router()
  .use(tags)
  .use(users);

export default Router().use('/api', api);
""",
    "backend/tags.ts": """
import { Router } from 'express';
const router = Router();
router.get('/tags', async function listTags(req, res) {});
export default router;
""",
    "backend/users.ts": """
import { Router } from 'express';
const router = Router();
router.post('/users', async function createUser(req, res) {});
router.get('/user', async function currentUser(req, res) {});
export default router;
""",
}


def test_routers_made_in_a_chain_of_calls_carry_every_mount_prefix(repo: Repo) -> None:
    build(repo, BACKEND)
    assert dict(repo.pairs("handles")) == {
        "GET /api/tags": "backend/tags.listTags",
        "POST /api/users": "backend/users.createUser",
        "GET /api/user": "backend/users.currentUser",
    }


def test_superagent_ofetch_and_fetch_of_a_request_reach_their_routes(repo: Repo) -> None:
    build(
        repo,
        {
            **BACKEND,
            "web/calls.ts": """
import superagent from 'superagent';
import { ofetch } from 'ofetch';
export function a() { return superagent.get('/api/tags'); }
export function b() { return ofetch('/api/user', { method: 'GET' }); }
export function c() { return fetch(new Request('/api/users', { method: 'POST' })); }
""",
        },
    )
    assert repo.pairs("http_call") == {
        ("web/calls.a", "GET /api/tags"),
        ("web/calls.b", "GET /api/user"),
        ("web/calls.c", "POST /api/users"),
    }


AGENT = """
import superagentPromise from 'superagent-promise';
import _superagent from 'superagent';
import { API_ROOT } from './config';

const superagent = superagentPromise(_superagent, global.Promise);

const requests = {
  get: url => superagent.get(`${API_ROOT}${url}`),
  post: (url, body) => superagent.post(`${API_ROOT}${url}`, body),
};

export const Tags = { getAll: () => requests.get('/tags') };
export const Auth = { register: (email) => requests.post('/users', { email }) };
"""


def test_a_call_through_the_frontends_wrapper_reaches_the_route(repo: Repo) -> None:
    build(
        repo,
        {**BACKEND, "web/config.js": "export const API_ROOT = '/api';\n", "web/agent.js": AGENT},
    )
    pairs = repo.pairs("http_call")
    assert ("web/agent.Tags.getAll", "GET /api/tags") in pairs
    assert ("web/agent.Auth.register", "POST /api/users") in pairs
    edge = repo.edge("http_call", "web/agent.Tags.getAll", "GET /api/tags")
    assert "requests.get('/tags')" in edge.quote  # type: ignore[attr-defined]


def test_an_absolute_api_host_reaches_the_route_as_a_partial_edge_beside_the_host(
    repo: Repo,
) -> None:
    config = "export const API_ROOT = 'https://api.example-demo.io/api';\n"
    build(repo, {**BACKEND, "web/config.js": config, "web/agent.js": AGENT})
    pairs = repo.pairs("http_call")
    assert ("web/agent.Tags.getAll", "api.example-demo.io") in pairs
    edge = repo.edge("http_call", "web/agent.Tags.getAll", "GET /api/tags")
    assert EdgeFlag.PARTIAL in edge.flags  # type: ignore[attr-defined]
    # A path that is no route of the repository stays with the host alone.
    assert not [p for p in pairs if p[1].startswith("GET /api/user")]


def test_a_router_made_from_a_required_module_keeps_its_mount_prefix(repo: Repo) -> None:
    build(
        repo,
        {
            "backend/app.js": """
const express = require('express');
const app = express();
app.use('/api', require('./routes/api.route'));
""",
            "backend/routes/api.route.js": """
const router = require('express').Router();
router.get('/todos', async (req, res) => res.json([]));
module.exports = router;
""",
        },
    )
    assert dict(repo.pairs("handles")) == {
        "GET /api/todos": "backend/routes/api.route.<get /todos>"
    }


def test_fetch_of_a_request_built_in_a_variable_reaches_the_route(repo: Repo) -> None:
    build(
        repo,
        {
            **BACKEND,
            "web/auth.ts": """
export const login = async (email: string) => {
  const request = new Request('/api/users', { method: 'POST', body: email });
  const response = await fetch(request);
  return response.json();
};
export function reused(flag: boolean) {
  let request = new Request('/api/users', { method: 'POST' });
  if (flag) { request = new Request('/api/tags'); }
  return fetch(request);
}
""",
        },
    )
    assert repo.pairs("http_call") == {("web/auth.login", "POST /api/users")}


def test_an_axios_base_url_falling_back_to_a_literal_reaches_the_route_as_partial(
    repo: Repo,
) -> None:
    http = """
import axios from 'axios';
export const fallback = axios.create({
  baseURL: process.env.REACT_APP_API_BASE_URL || 'http://localhost:8080/api',
});
export const computed = axios.create({ baseURL: process.env.A || process.env.B });
"""
    service = """
import { fallback, computed } from './http';
export function listTags() { return fallback.get('/tags'); }
export function listAgain() { return computed.get('/tags'); }
"""
    build(repo, {**BACKEND, "web/http.js": http, "web/service.js": service})
    edge = repo.edge("http_call", "web/service.listTags", "GET /api/tags")
    assert EdgeFlag.PARTIAL in edge.flags  # type: ignore[attr-defined]
    assert not [p for p in repo.pairs("http_call") if p[0] == "web/service.listAgain"]
