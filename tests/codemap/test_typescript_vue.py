"""Vue single-file components: the ``<script>`` and ``<script setup>`` blocks of a ``.vue`` file
are read as TypeScript (or JavaScript) in place, so a component's calls to the frontend's API
client reach the backend's routes, with evidence at the component's own lines and columns."""

from __future__ import annotations

from map_helpers import Repo, build

from groundkit.codemap.evidence import check_edge

BACKEND = {
    "backend/app.ts": """
import express from 'express';
const app = express();
app.get('/api/tags', function listTags(req, res) {});
app.post('/api/tags', function createTag(req, res) {});
""",
    "web/api/tags.ts": """
import axios from 'axios';
export class TagsApi {
  async getAll() {
    return await axios.get('/api/tags');
  }
  async create(name: string) {
    return await axios.post('/api/tags', { name });
  }
}
export const useTagsApi = () => new TagsApi();
""",
}

# Written after mealie's pages (a Nuxt 2 component: defineComponent({setup() {...}})).
OPTIONS_COMPONENT = """
<template>
  <div>
    <button @click="save">Save</button>
  </div>
</template>

<script lang="ts">
import { defineComponent } from "@nuxtjs/composition-api";
import { useTagsApi } from "~/api/tags";

export default defineComponent({
  setup() {
    const api = useTagsApi();
    async function save() {
      await api.create("new");
    }
    return { save };
  },
});
</script>

<style scoped>
button { color: red; }
</style>
"""

TSCONFIG = {"web/tsconfig.json": '{"compilerOptions": {"baseUrl": ".", "paths": {"~/*": ["./*"]}}}'}


def test_a_components_script_block_calls_the_api_client(repo: Repo) -> None:
    build(repo, {**BACKEND, **TSCONFIG, "web/pages/tags.vue": OPTIONS_COMPONENT})
    assert ("web/pages/tags.<function>.save", "web/api/tags.TagsApi.create") in repo.pairs("calls")
    assert ("web/api/tags.TagsApi.create", "POST /api/tags") in repo.pairs("http_call")


def test_a_components_edges_stand_at_its_own_lines_and_columns(repo: Repo) -> None:
    build(repo, {**BACKEND, **TSCONFIG, "web/pages/tags.vue": OPTIONS_COMPONENT})
    edge = repo.edge("calls", "web/pages/tags.<function>.save", "web/api/tags.TagsApi.create")
    location = edge.location  # type: ignore[attr-defined]
    lines = (repo.root / "web/pages/tags.vue").read_text(encoding="utf-8").splitlines()
    assert location.path == "web/pages/tags.vue"
    assert lines[location.line - 1].strip() == 'await api.create("new");'
    assert lines[location.line - 1][location.col :].startswith("api.create")
    assert check_edge(repo.root, edge) == "verified"  # type: ignore[arg-type]


def test_a_script_setup_blocks_functions_call_the_client_directly(repo: Repo) -> None:
    build(
        repo,
        {
            **BACKEND,
            "web/components/TagList.vue": """
<script setup lang="ts">
import axios from "axios";
async function load() {
  return await axios.get("/api/tags");
}
</script>

<template><ul><li v-for="t in tags">{{ t }}</li></ul></template>
""",
        },
    )
    assert ("web/components/TagList.load", "GET /api/tags") in repo.pairs("http_call")


def test_a_component_without_lang_is_read_as_javascript(repo: Repo) -> None:
    build(
        repo,
        {
            **BACKEND,
            "web/components/Tags.vue": """
<template><div /></template>
<script>
import axios from "axios";
export default {
  methods: {
    refresh() {
      return axios.get("/api/tags");
    },
  },
};
</script>
""",
        },
    )
    pairs = repo.pairs("http_call")
    assert [p for p in pairs if p[0].startswith("web/components/Tags.")]
    assert {p[1] for p in pairs if p[0].startswith("web/components/Tags.")} == {"GET /api/tags"}


def test_a_component_imported_by_its_file_name_is_a_module_of_the_map(repo: Repo) -> None:
    build(
        repo,
        {
            **BACKEND,
            "web/components/Card.vue": """
<template><div /></template>
<script lang="ts">
export function cardTitle(name: string) {
  return name.toUpperCase();
}
</script>
""",
            "web/pages/home.ts": """
import { cardTitle } from "../components/Card.vue";
export function title() {
  return cardTitle("home");
}
""",
        },
    )
    assert ("web/pages/home", "web/components/Card") in repo.pairs("imports")
    assert ("web/pages/home.title", "web/components/Card.cardTitle") in repo.pairs("calls")


def test_a_component_with_no_script_is_mapped_without_nodes_of_code(repo: Repo) -> None:
    build(repo, {**BACKEND, "web/components/Logo.vue": "<template><img src='x'></template>\n"})
    names = {n.qualname for n in repo.map.nodes()}
    assert not [n for n in names if n.startswith("web/components/Logo.")]
    assert repo.report is not None


def test_a_script_tag_inside_the_template_is_not_read(repo: Repo) -> None:
    build(
        repo,
        {
            **BACKEND,
            "web/components/Docs.vue": """
<template>
  <pre>
    <script>axios.get("/api/tags")</script>
  </pre>
</template>
""",
        },
    )
    assert not [p for p in repo.pairs("http_call") if p[0].startswith("web/components/Docs")]


def test_a_components_drizzle_query_reads_its_table_at_the_components_line(repo: Repo) -> None:
    build(
        repo,
        {
            "src/db/schema.ts": """
import { pgTable, serial, text } from "drizzle-orm/pg-core";
export const posts = pgTable("posts", { id: serial("id").primaryKey(), body: text("body") });
""",
            "src/db/index.ts": """
import { drizzle } from "drizzle-orm/node-postgres";
export const db = drizzle(process.env.DATABASE_URL!);
""",
            "src/components/Posts.vue": """
<template>
  <p>Don't wait: posts from drizzle-orm, {{ count }} of them (quote with `)</p>
</template>

<script setup lang="ts">
import { db } from "../db";
import { posts } from "../db/schema";

async function listPosts() {
  return db.select().from(posts);
}
</script>
""",
        },
    )
    assert repo.pairs("reads") >= {("src/components/Posts.listPosts", "table:posts")}
    edge = repo.edge("reads", "src/components/Posts.listPosts", "table:posts")
    assert edge.location.line == 10  # type: ignore[attr-defined]


def test_a_components_template_text_is_not_read_for_data_access(repo: Repo) -> None:
    build(
        repo,
        {
            "src/entity/User.ts": """
import { Entity, PrimaryGeneratedColumn } from "typeorm";

@Entity("users")
export class User {
  @PrimaryGeneratedColumn()
  id!: number;
}
""",
            "src/components/Help.vue": """
<template>
  <pre>
import { getRepository } from "typeorm";
import { User } from "../entity/User";
export function count() { return getRepository(User).count(); }
  </pre>
</template>

<script lang="ts">
import { getRepository } from "typeorm";
import { User } from "../entity/User";
export function countUsers() {
  return getRepository(User).count();
}
</script>
""",
        },
    )
    assert repo.pairs("reads") == {("src/components/Help.countUsers", "src/entity/User.User")}


def test_a_component_edited_alone_is_mapped_again(repo: Repo) -> None:
    build(repo, {**BACKEND, **TSCONFIG, "web/pages/tags.vue": OPTIONS_COMPONENT})
    edited = OPTIONS_COMPONENT.replace('await api.create("new");', "await api.getAll();")
    repo.write({"web/pages/tags.vue": edited}).build()
    calls = repo.pairs("calls")
    assert ("web/pages/tags.<function>.save", "web/api/tags.TagsApi.getAll") in calls
    assert ("web/pages/tags.<function>.save", "web/api/tags.TagsApi.create") not in calls
