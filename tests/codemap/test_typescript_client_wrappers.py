"""A frontend's HTTP calls through wrappers of wrappers reach the backend's routes: a URL
handed down through several functions' parameters, the client's method handed on as a value
(``safe(axios.put, url, data)``), Nuxt's ``$axios``, and URLs made by the frontend's own route
functions (``routes.listLabels(id)``)."""

from __future__ import annotations

from map_helpers import Repo, build

BACKEND = {
    "backend/app.ts": """
import express from 'express';
const app = express();
app.get('/api/tags', function listTags(req, res) {});
app.put('/api/lists/:id/labels', function updateLabels(req, res) {});
app.delete('/api/lists/:id', function deleteList(req, res) {});
app.post('/api/lists', function createList(req, res) {});
""",
}

# Written after mealie's frontend (composables/api/api-client.ts, lib/api/base/base-clients.ts).
NUXT_CLIENT = """
import { useContext } from '@nuxtjs/composition-api';
import type { NuxtAxiosInstance } from '@nuxtjs/axios';

const request = {
  async safe(funcCall, url, data) {
    const response = await funcCall(url, data);
    return { response };
  },
};

function getRequests(axiosInstance: NuxtAxiosInstance) {
  return {
    async get(url) {
      return await axiosInstance.get(url);
    },
    async post(url, data) {
      return await request.safe(axiosInstance.post, url, data);
    },
    async put(url, data) {
      return await request.safe(axiosInstance.put, url, data);
    },
    async delete(url) {
      return await request.safe(axiosInstance.delete, url, undefined);
    },
  };
}

export const useRequests = function () {
  const { $axios } = useContext();
  return getRequests($axios);
};
"""

LISTS = """
import { useRequests } from './api-client';

const prefix = '/api';
const routes = {
  lists: `${prefix}/lists`,
  listId: (id: string) => `${prefix}/lists/${id}`,
  listLabels: (id: string) => `${prefix}/lists/${id}/labels`,
};

export class ListsApi {
  requests;
  constructor(requests) {
    this.requests = requests;
  }
  async create(payload) {
    return await this.requests.post(routes.lists, payload);
  }
  async updateLabels(itemId: string, labels) {
    return await this.requests.put(routes.listLabels(itemId), labels);
  }
  async remove(itemId: string) {
    return await this.requests.delete(routes.listId(itemId));
  }
}

export const useListsApi = () => new ListsApi(useRequests());
"""


def test_a_url_handed_down_through_a_wrapper_of_a_wrapper_reaches_the_route(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            **BACKEND,
            "web/agent.js": """
import superagent from 'superagent';
const API_ROOT = '/api';
const requests = { get: (url) => superagent.get(`${API_ROOT}${url}`) };
function cached(path) {
  return requests.get(path);
}
function logged(path) {
  return cached(path);
}
export const Tags = { getAll: () => logged('/tags') };
""",
        },
    )
    assert ("web/agent.Tags.getAll", "GET /api/tags") in repo.pairs("http_call")


def test_wrappers_calling_each_other_in_a_circle_end(repo: Repo) -> None:
    build(
        repo,
        {
            **BACKEND,
            "web/agent.js": """
import superagent from 'superagent';
function get(url, again) {
  return again ? ping(url) : superagent.get(url);
}
function ping(url) {
  return get(url, false);
}
export const Tags = { getAll: () => ping('/api/tags') };
""",
        },
    )
    assert ("web/agent.Tags.getAll", "GET /api/tags") in repo.pairs("http_call")


def test_a_client_method_handed_on_as_a_value_keeps_its_verb(repo: Repo) -> None:
    build(
        repo,
        {
            **BACKEND,
            "web/agent.ts": """
import axios from 'axios';
const request = {
  async safe(funcCall, url, data) {
    return await funcCall(url, data);
  },
};
export const Lists = {
  make: (body) => request.safe(axios.post, '/api/lists', body),
  drop: (id) => request.safe(axios.delete, `/api/lists/${id}`, undefined),
};
""",
        },
    )
    pairs = repo.pairs("http_call")
    assert ("web/agent.Lists.make", "POST /api/lists") in pairs
    assert ("web/agent.Lists.drop", "DELETE /api/lists/:id") in pairs
    assert not [p for p in pairs if p[0].endswith("safe")]  # no method of its own: no route


def test_nuxts_axios_from_the_context_is_an_axios_instance(repo: Repo) -> None:
    build(
        repo,
        {
            **BACKEND,
            "web/tags.ts": """
import { useContext } from '@nuxtjs/composition-api';
import type { NuxtAxiosInstance } from '@nuxtjs/axios';

export function useTags() {
  const { $axios } = useContext();
  return $axios.get('/api/tags');
}
export function useTagsAgain() {
  const context = useContext();
  return context.$axios.get('/api/tags');
}
export function fetchTags(client: NuxtAxiosInstance) {
  return client.get('/api/tags');
}
""",
        },
    )
    pairs = repo.pairs("http_call")
    assert ("web/tags.useTags", "GET /api/tags") in pairs
    assert ("web/tags.useTagsAgain", "GET /api/tags") in pairs
    assert ("web/tags.fetchTags", "GET /api/tags") in pairs


def test_a_url_made_by_a_route_function_has_its_argument_as_a_hole(repo: Repo) -> None:
    build(
        repo,
        {
            **BACKEND,
            "web/lists.ts": """
import axios from 'axios';
const prefix = '/api';
const routes = {
  listLabels: (id: string) => `${prefix}/lists/${id}/labels`,
  listId(id: string) {
    return prefix + '/lists/' + id;
  },
};
export function updateLabels(id: string, labels) {
  return axios.put(routes.listLabels(id), labels);
}
export function removeList(id: string) {
  return axios.delete(routes.listId(id));
}
""",
        },
    )
    pairs = repo.pairs("http_call")
    assert ("web/lists.updateLabels", "PUT /api/lists/:id/labels") in pairs
    assert ("web/lists.removeList", "DELETE /api/lists/:id") in pairs


def test_an_api_class_over_nuxts_request_wrappers_reaches_the_routes(repo: Repo) -> None:
    build(
        repo,
        {**BACKEND, "web/api-client.ts": NUXT_CLIENT, "web/lists.ts": LISTS},
    )
    pairs = repo.pairs("http_call")
    assert ("web/lists.ListsApi.updateLabels", "PUT /api/lists/:id/labels") in pairs
    assert ("web/lists.ListsApi.remove", "DELETE /api/lists/:id") in pairs
    assert ("web/lists.ListsApi.create", "POST /api/lists") in pairs


def test_a_url_that_matches_no_route_through_wrappers_stays_unresolved(repo: Repo) -> None:
    lists = LISTS.replace("/labels`", "/colours`")
    build(repo, {**BACKEND, "web/api-client.ts": NUXT_CLIENT, "web/lists.ts": lists})
    pairs = repo.pairs("http_call")
    assert not [p for p in pairs if p[0] == "web/lists.ListsApi.updateLabels"]


def test_a_base_class_method_reaches_each_subclass_route_as_a_partial_edge(repo: Repo) -> None:
    build(
        repo,
        {
            **BACKEND,
            "backend/tags.ts": """
import express from 'express';
const app = express();
app.delete('/api/tags/:id', function deleteTag(req, res) {});
app.delete('/api/archive/:id', function deleteArchived(req, res) {});
""",
            "web/api-client.ts": NUXT_CLIENT,
            "web/crud.ts": """
import { useRequests } from './api-client';
const routes = {
  lists: '/api/lists',
  listId: (id: string) => `/api/lists/${id}`,
  tagId: (id: string) => `/api/tags/${id}`,
  archiveId: (id: string) => `/api/archive/${id}`,
};
abstract class BaseCRUDAPI {
  requests;
  abstract itemRoute(id: string): string;
  constructor(requests) {
    this.requests = requests;
  }
  async deleteOne(itemId: string) {
    return await this.requests.delete(this.itemRoute(itemId));
  }
}
export class ListsApi extends BaseCRUDAPI {
  itemRoute = routes.listId;
}
export class TagsApi extends BaseCRUDAPI {
  itemRoute = routes.tagId;
}
export class ArchiveApi extends BaseCRUDAPI {
  itemRoute = routes.archiveId;
  async deleteOne(itemId: string) {
    return await this.requests.post(routes.lists, { itemId });
  }
}
export const useListsApi = () => new ListsApi(useRequests());
export const useTagsApi = () => new TagsApi(useRequests());
""",
        },
    )
    assert repo.pairs("http_call") >= {
        ("web/crud.BaseCRUDAPI.deleteOne", "DELETE /api/lists/:id"),
        ("web/crud.BaseCRUDAPI.deleteOne", "DELETE /api/tags/:id"),
    }
    # a subclass overriding the method never runs the base's call
    assert ("web/crud.BaseCRUDAPI.deleteOne", "DELETE /api/archive/:id") not in repo.pairs(
        "http_call"
    )
    assert not repo.certain("http_call") - {("web/crud.ArchiveApi.deleteOne", "POST /api/lists")}


# A helper adding a query string to a path (written after mealie's lib/api/base/route.ts).
QUERY_HELPER = """
const origin = "http://placeholder.local";

export function withQuery(path: string, query: Record<string, string> | null = null): string {
  const url = new URL(path, origin);
  for (const [key, value] of Object.entries(query ?? {})) {
    url.searchParams.append(key, value);
  }
  return url.toString().replace("http://placeholder.local", "");
}

export function withQueryHref(path: string, page: number): string {
  const url = new URL(path, origin);
  url.searchParams.set("page", String(page));
  return url.href;
}

export function renamed(path: string): string {
  const url = new URL(path, origin);
  return url.toString().replace("/api", "/v2");
}
"""


def test_a_url_built_by_a_query_helper_is_its_paths_route(repo: Repo) -> None:
    build(
        repo,
        {
            **BACKEND,
            "web/query.ts": QUERY_HELPER,
            "web/tags.ts": """
import axios from 'axios';
import { withQuery, withQueryHref } from './query';
export function searchTags(term: string) {
  return axios.get(withQuery('/api/tags', { term }));
}
export function tagPage(page: number) {
  return axios.get(withQueryHref('/api/tags', page));
}
""",
        },
    )
    certain = repo.certain("http_call")
    assert ("web/tags.searchTags", "GET /api/tags") in certain
    assert ("web/tags.tagPage", "GET /api/tags") in certain


def test_a_helper_that_rewrites_the_path_is_not_read_as_a_query_helper(repo: Repo) -> None:
    build(
        repo,
        {
            **BACKEND,
            "web/query.ts": QUERY_HELPER,
            "web/tags.ts": """
import axios from 'axios';
import { renamed } from './query';
export function oldTags() {
  return axios.get(renamed('/api/tags'));
}
""",
        },
    )
    assert not [p for p in repo.pairs("http_call") if p[0] == "web/tags.oldTags"]


def test_a_base_class_query_over_its_base_route_reaches_each_subclass_route(repo: Repo) -> None:
    build(
        repo,
        {
            **BACKEND,
            "backend/more.ts": """
import express from 'express';
const app = express();
app.get('/api/lists', function listLists(req, res) {});
""",
            "web/query.ts": QUERY_HELPER,
            "web/api-client.ts": NUXT_CLIENT,
            "web/crud.ts": """
import { useRequests } from './api-client';
import { withQuery } from './query';
const routes = { tags: '/api/tags', lists: '/api/lists' };
abstract class BaseReadAPI {
  requests;
  abstract baseRoute: string;
  constructor(requests) {
    this.requests = requests;
  }
  async getAll(page = 1, params = {}) {
    return await this.requests.get(withQuery(this.baseRoute, { page, ...params }));
  }
}
export class TagsApi extends BaseReadAPI {
  baseRoute = routes.tags;
}
export class ListsApi extends BaseReadAPI {
  baseRoute: string = routes.lists;
}
export const useTagsApi = () => new TagsApi(useRequests());
export const useListsApi = () => new ListsApi(useRequests());
""",
        },
    )
    assert repo.pairs("http_call") >= {
        ("web/crud.BaseReadAPI.getAll", "GET /api/tags"),
        ("web/crud.BaseReadAPI.getAll", "GET /api/lists"),
    }
    assert not repo.certain("http_call")  # one of several subclasses' routes each


def test_a_query_helpers_prefix_that_the_code_may_rewrite_gives_a_partial_edge(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            **BACKEND,
            "web/query.ts": """
const base = { origin: "http://placeholder.local", prefix: "" };

export function setBase(origin: string, prefix: string) {
  base.origin = origin;
  base.prefix = prefix;
}

export function withQuery(path: string, page: number): string {
  const url = new URL(base.prefix + path, base.origin);
  url.searchParams.set("page", String(page));
  return url.toString().replace("http://placeholder.local", "");
}
""",
            "web/tags.ts": """
import axios from 'axios';
import { withQuery } from './query';
export function tagPage(page: number) {
  return axios.get(withQuery('/api/tags', page));
}
""",
        },
    )
    assert ("web/tags.tagPage", "GET /api/tags") in repo.pairs("http_call")
    assert ("web/tags.tagPage", "GET /api/tags") not in repo.certain("http_call")


def test_a_template_around_a_subclass_item_route_reaches_each_subclass_route(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            **BACKEND,
            "backend/copy.ts": """
import express from 'express';
const app = express();
app.post('/api/lists/:id/duplicate', function duplicateList(req, res) {});
""",
            "web/api-client.ts": NUXT_CLIENT,
            "web/crud.ts": """
import { useRequests } from './api-client';
const routes = {
  listId: (id: string) => `/api/lists/${id}`,
  tagId: (id: string) => `/api/tags/${id}`,
};
abstract class BaseCRUDAPI {
  requests;
  abstract itemRoute(id: string): string;
  constructor(requests) {
    this.requests = requests;
  }
  async duplicateOne(itemId: string, name: string) {
    return await this.requests.post(`${this.itemRoute(itemId)}/duplicate`, { name });
  }
}
export class ListsApi extends BaseCRUDAPI {
  itemRoute = routes.listId;
}
export class TagsApi extends BaseCRUDAPI {
  itemRoute = routes.tagId;
}
export const useListsApi = () => new ListsApi(useRequests());
export const useTagsApi = () => new TagsApi(useRequests());
""",
        },
    )
    found = {p for p in repo.pairs("http_call") if p[0] == "web/crud.BaseCRUDAPI.duplicateOne"}
    assert found == {("web/crud.BaseCRUDAPI.duplicateOne", "POST /api/lists/:id/duplicate")}
    assert not repo.certain("http_call")


def test_nuxts_axios_called_with_a_config_object_is_a_client_call(repo: Repo) -> None:
    build(
        repo,
        {
            **BACKEND,
            "web/tags.ts": """
import { useContext } from '@nuxtjs/composition-api';

export function useTagMaker() {
  const { $axios } = useContext();
  function make(name: string) {
    return $axios({ url: '/api/lists', method: 'POST', data: { name } });
  }
  return make;
}
""",
        },
    )
    assert ("web/tags.useTagMaker.make", "POST /api/lists") in repo.certain("http_call")


def test_a_query_helper_over_route_functions_calling_route_functions_reaches_the_route(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "backend/app.ts": """
import express from 'express';
const app = express();
app.get('/api/groups/:slug/tags', function groupTags(req, res) {});
""",
            "web/query.ts": QUERY_HELPER,
            "web/tags.ts": """
import axios from 'axios';
import { withQuery } from './query';
const prefix = '/api';
const groupBase = (slug: string) => `${prefix}/groups/${slug}`;
const routes = {
  groupTags: (slug: string) => `${groupBase(slug)}/tags`,
};
export function searchGroupTags(slug: string, term: string) {
  return axios.get(withQuery(routes.groupTags(slug), { term }));
}
""",
        },
    )
    assert ("web/tags.searchGroupTags", "GET /api/groups/:slug/tags") in repo.certain("http_call")


def test_a_subclass_base_route_made_by_a_route_function_reaches_its_route(repo: Repo) -> None:
    build(
        repo,
        {
            "backend/app.ts": """
import express from 'express';
const app = express();
app.get('/api/groups/:slug/tags', function groupTags(req, res) {});
""",
            "web/query.ts": QUERY_HELPER,
            "web/api-client.ts": NUXT_CLIENT,
            "web/crud.ts": """
import { useRequests } from './api-client';
import { withQuery } from './query';
const routes = {
  groupTags: (slug: string) => `/api/groups/${slug}/tags`,
};
abstract class BaseReadAPI {
  requests;
  abstract baseRoute: string;
  constructor(requests) {
    this.requests = requests;
  }
  async getAll(page = 1) {
    return await this.requests.get(withQuery(this.baseRoute, { page }));
  }
}
export class GroupTagsApi extends BaseReadAPI {
  slug = 'home';
  baseRoute = routes.groupTags(this.slug);
}
export const useGroupTagsApi = () => new GroupTagsApi(useRequests());
""",
        },
    )
    assert ("web/crud.BaseReadAPI.getAll", "GET /api/groups/:slug/tags") in repo.pairs("http_call")


def test_a_subclass_item_route_returning_a_route_functions_call_reaches_its_route(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "backend/app.ts": """
import express from 'express';
const app = express();
app.get('/api/groups/:slug/tags/:id', function groupTag(req, res) {});
""",
            "web/api-client.ts": NUXT_CLIENT,
            "web/crud.ts": """
import { useRequests } from './api-client';
const routes = {
  groupTag: (slug: string, id: string) => `/api/groups/${slug}/tags/${id}`,
};
abstract class BaseReadAPI {
  requests;
  abstract itemRoute(id: string): string;
  constructor(requests) {
    this.requests = requests;
  }
  async getOne(id: string) {
    return await this.requests.get(this.itemRoute(id));
  }
}
export class GroupTagsApi extends BaseReadAPI {
  slug = 'home';
  itemRoute = (id: string) => routes.groupTag(this.slug, id);
}
export const useGroupTagsApi = () => new GroupTagsApi(useRequests());
""",
        },
    )
    assert ("web/crud.BaseReadAPI.getOne", "GET /api/groups/:slug/tags/:id") in repo.pairs(
        "http_call"
    )
