"""TypeScript/JavaScript module resolution as TypeScript does it: relative specifiers with
extension substitution and index files, tsconfig paths and baseUrl (through extends), workspace
packages, packages outside the repository, and every import form as its own provenance."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from map_helpers import Repo, build

from groundkit.codemap.api import diff_revisions
from groundkit.codemap.model import EdgeFlag, Provenance


def imports(repo: Repo) -> set[tuple[str, str]]:
    return repo.pairs("imports")


def test_relative_imports_find_files_by_extension_index_and_js_substitution(repo: Repo) -> None:
    build(
        repo,
        {
            "src/a.ts": "export const a = 1;\n",
            "src/b.tsx": "export const b = 1;\n",
            "src/lib/index.ts": "export const c = 1;\n",
            "src/esm.ts": "export const d = 1;\n",
            "src/types.d.ts": "export interface T {}\n",
            "src/main.ts": """
                import { a } from "./a";
                import { b } from "./b";
                import { c } from "./lib";
                import { d } from "./esm.js";
                import type { T } from "./types";
                import "./missing";
                import styles from "./main.css";
            """,
        },
    )
    assert imports(repo) == {
        ("src/main", "src/a"),
        ("src/main", "src/b"),
        ("src/main", "src/lib/index"),
        ("src/main", "src/esm"),
        ("src/main", "src/types"),
    }
    typed = repo.edge("imports", "src/main", "src/types")
    assert EdgeFlag.TYPE_CHECKING in typed.flags  # type: ignore[attr-defined]


def test_tsconfig_paths_and_baseurl_come_through_extends(repo: Repo) -> None:
    build(
        repo,
        {
            "configs/base.json": """
                { "compilerOptions": { "baseUrl": "../src", "paths": { "@app/*": ["app/*"] } } }
            """,
            "tsconfig.json": """
                {
                  // JSON with comments and trailing commas, as TypeScript reads it
                  "extends": "./configs/base.json",
                  "compilerOptions": { "strict": true, },
                }
            """,
            "src/app/store.ts": "export function save() {}\n",
            "src/util/log.ts": "export function log() {}\n",
            "src/main.ts": """
                import { save } from "@app/store";
                import { log } from "util/log";
                import { nothing } from "@app/absent";
                import React from "react";
                import { join } from "node:path";
                import { z } from "@scope/pkg/deep";
            """,
        },
    )
    assert imports(repo) == {
        ("src/main", "src/app/store"),
        ("src/main", "src/util/log"),
        ("src/main", "react"),
        ("src/main", "path"),
        ("src/main", "@scope/pkg"),
    }


def test_paths_without_baseurl_are_relative_to_their_own_tsconfig(repo: Repo) -> None:
    build(
        repo,
        {
            "web/tsconfig.json": '{"compilerOptions": {"paths": {"src/*": ["./src/*"]}}}',
            "web/src/lib/auth.ts": "export const auth = 1;\n",
            "web/src/App.tsx": 'import { auth } from "src/lib/auth";\n',
            "api/src/lib/auth.ts": "export const auth = 2;\n",
        },
    )
    assert imports(repo) == {("web/src/App", "web/src/lib/auth")}


def test_each_import_form_has_its_provenance_and_flags(repo: Repo) -> None:
    build(
        repo,
        {
            "x.ts": "export const x = 1;\n",
            "y.js": "module.exports = {};\n",
            "z.ts": "export const z = 1;\n",
            "r.ts": "export const r = 1;\n",
            "main.ts": """
                /// <reference path="./r.ts" />
                export { x } from "./x";
                const y = require("./y");
                export async function later() {
                  return import("./z");
                }
            """,
        },
    )
    provenance = {e.target.qualname: (e.provenance, e.flags) for e in repo.map.edges(["imports"])}
    assert provenance == {
        "x": (Provenance.TS_IMPORT, frozenset()),
        "y": (Provenance.TS_REQUIRE, frozenset()),
        "z": (Provenance.TS_DYNAMIC_IMPORT, frozenset({EdgeFlag.LAZY})),
        "r": (Provenance.TS_REFERENCE, frozenset()),
    }
    edge = repo.edge("imports", "main", "y")
    assert edge.evidence == 'main imports y at main.ts:3: const y = require("./y");'  # type: ignore[attr-defined]
    assert edge.location.col == 10  # type: ignore[attr-defined]


def test_workspace_packages_resolve_to_their_folder(repo: Repo) -> None:
    build(
        repo,
        {
            "packages/core/package.json": '{"name": "@acme/core", "main": "src/index.ts"}',
            "packages/core/src/index.ts": "export function boot() {}\n",
            "packages/core/src/extra.ts": "export function more() {}\n",
            "apps/web/main.ts": """
                import { boot } from "@acme/core";
                import { more } from "@acme/core/src/extra";
                boot();
                more();
            """,
        },
    )
    assert imports(repo) == {
        ("apps/web/main", "packages/core/src/index"),
        ("apps/web/main", "packages/core/src/extra"),
    }
    assert repo.pairs("calls") == {
        ("apps/web/main", "packages/core/src/index.boot"),
        ("apps/web/main", "packages/core/src/extra.more"),
    }


def test_a_tsconfig_change_re_resolves_the_files_that_consulted_it(repo: Repo) -> None:
    files = {
        "tsconfig.json": '{"compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["one/*"]}}}',
        "one/m.ts": "export const m = 1;\n",
        "two/m.ts": "export const m = 2;\n",
        "main.ts": 'import { m } from "@/m";\n',
    }
    build(repo, files)
    assert imports(repo) == {("main", "one/m")}
    repo.write({"tsconfig.json": files["tsconfig.json"].replace("one/*", "two/*")})
    report = repo.build()
    assert report.parsed == 1
    assert imports(repo) == {("main", "two/m")}
    repo.write({"one/index.ts": "export const i = 1;\n", "uses.ts": 'import "./one";\n'})
    repo.build()
    assert ("uses", "one/index") in imports(repo)


def test_a_new_file_that_a_failed_import_tried_is_picked_up(repo: Repo) -> None:
    build(repo, {"main.ts": 'import { later } from "./later";\n'})
    assert imports(repo) == set()
    repo.write({"later.ts": "export const later = 1;\n"})
    repo.build()
    assert imports(repo) == {("main", "later")}


def test_without_tree_sitter_typescript_files_are_skipped_with_the_install_hint(
    repo: Repo,
) -> None:
    repo.write({"main.ts": "export const a = 1;\n", "tool.py": "import os\n"})
    script = f"""
import sys
sys.modules["tree_sitter"] = None  # as if the codemap extra were not installed
from groundkit.codemap.api import open_codemap
codemap = open_codemap("x", index_dir={str(repo.index_dir)!r}, create=True)
report = codemap.update({str(repo.root)!r}, workers=1)
print([(s.source, s.reason) for s in report.skipped], report.nodes.get("module"))
"""
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == (
        "[('main.ts', \"needs tree-sitter: pip install 'groundkit[codemap]'\")] 1"
    )


def test_a_file_that_is_not_typescript_is_skipped_with_its_line(repo: Repo) -> None:
    build(
        repo,
        {
            "bad.ts": "}}}} ((( ]]]\n<<<>>>\n",
            "tsconfig.json": "{ not json",
            "good.ts": "export const ok = 1;\n",
        },
    )
    assert repo.report is not None
    reasons = {s.source: s.reason for s in repo.report.skipped}
    assert reasons == {
        "bad.ts": "syntax error at line 1",
        "tsconfig.json": "not valid JSON (line 1)",
    }


def test_a_syntax_error_that_swallows_half_the_file_skips_it_with_its_line(repo: Repo) -> None:
    # tree-sitter recovers, but every declaration after the error is read as an anonymous
    # function: mapped, the file would lose those names without a word
    lines = [f"function f{i}() {{ return f{i + 1}(); }}" for i in range(40)]
    lines.insert(20, "function broken( {")
    one_odd = [f"function g{i}() {{ return {i}; }}" for i in range(40)]
    one_odd.insert(20, "let = ;")
    build(repo, {"half.js": "\n".join(lines) + "\n", "odd.js": "\n".join(one_odd) + "\n"})
    assert repo.report is not None
    assert {s.source: s.reason for s in repo.report.skipped} == {
        "half.js": "syntax error at line 21"
    }
    assert ("odd", "odd.g39") in repo.pairs("defines")  # one odd statement: still mapped


def test_a_git_revision_reads_the_configs_a_tsconfig_extends(repo: Repo) -> None:
    repo.write(
        {
            "tsconfig.json": '{"extends": "./configs/base.json"}',
            "configs/base.json": '{"compilerOptions": {"baseUrl": "../src"}}',
            "src/util.ts": "export const u = 1;\n",
            "src/main.ts": 'import { u } from "util";\n',
        }
    )

    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(repo.root), *args], check=True, capture_output=True)

    git("init", "-q")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "0")
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "1")
    changes = diff_revisions(repo.root, "HEAD~1", "HEAD")
    added = {(e.source.qualname, e.target.qualname) for e in changes.edges_added}
    assert ("src/main", "src/util") in added


def test_absurdly_nested_code_is_skipped_with_a_reason_not_a_crash(repo: Repo) -> None:
    deep = "const f = " + "() =>\n" * 3000 + "1;\n"  # (one line per arrow: not minified)
    build(repo, {"deep.ts": deep, "ok.ts": "export {};\n"})
    assert repo.report is not None
    assert [(s.source, s.reason) for s in repo.report.skipped] == [
        ("deep.ts", "nested too deeply to analyse")
    ]


def _snapshot(repo: Repo) -> set[tuple[str, str, str, str, int]]:
    return {
        (str(e.kind), e.source.qualname, e.target.qualname, str(e.provenance), e.location.line)
        for e in repo.map.edges()
    }


def test_re_mapping_after_each_edit_equals_a_fresh_map(repo: Repo, tmp_path: Path) -> None:
    build(
        repo,
        {
            "lib/a.ts": "export function a() {}\n",
            "lib/index.ts": 'export * from "./a";\n',
            "main.ts": 'import { a } from "./lib";\nexport function run() { a(); }\n',
        },
    )
    edits: list[dict[str, str]] = [
        {"lib/a.ts": "export function b() {}\nexport function a() { b(); }\n"},
        {"lib/index.ts": 'export { b as a } from "./a";\n'},
        {"lib/c.ts": "export function a() {}\n", "lib/index.ts": 'export * from "./c";\n'},
    ]
    for number, edit in enumerate(edits):
        repo.write(edit)
        repo.build()
        fresh = Repo(repo.root, tmp_path / f"fresh{number}")
        fresh.build()
        try:
            assert _snapshot(repo) == _snapshot(fresh)
        finally:
            fresh.close()
    assert ("main.run", "lib/c.a") in repo.pairs("calls")


def test_a_workspace_package_resolves_through_its_exports_before_its_main(repo: Repo) -> None:
    build(
        repo,
        {
            "packages/core/package.json": """
                {"name": "@acme/core", "main": "nowhere.js", "exports": {
                  ".": {"types": "./dist/index.d.ts", "import": "./src/index.js"},
                  "./extra": {"node": {"require": "./src/extra.cjs", "default": "./src/extra.js"}},
                  "./features/*": "./src/features/*.js"}}
            """,
            "packages/core/src/index.js": "export function boot() {}\n",
            "packages/core/src/extra.js": "export function more() {}\n",
            "packages/core/src/features/alpha.js": "export function alpha() {}\n",
            "packages/sugar/package.json": '{"name": "sugar", "exports": "./lib/entry.js"}',
            "packages/sugar/lib/entry.js": "export function sweet() {}\n",
            "apps/web/main.js": """
                import { boot } from "@acme/core";
                import { more } from "@acme/core/extra";
                import { alpha } from "@acme/core/features/alpha";
                import { sweet } from "sugar";
            """,
        },
    )
    assert imports(repo) == {
        ("apps/web/main", "packages/core/src/index"),
        ("apps/web/main", "packages/core/src/extra"),
        ("apps/web/main", "packages/core/src/features/alpha"),
        ("apps/web/main", "packages/sugar/lib/entry"),
    }


def test_a_package_imports_itself_by_its_name_through_its_exports(repo: Repo) -> None:
    build(
        repo,
        {
            "package.json": '{"name": "me", "exports": {"./sub": ["./lib/sub.js"]}}',
            "lib/sub.js": "export function sub() {}\n",
            "main.js": 'import { sub } from "me/sub";\nexport function run() { sub(); }\n',
        },
    )
    assert repo.pairs("calls") == {("main.run", "lib/sub.sub")}


def test_hash_specifiers_resolve_through_the_nearest_package_jsons_imports(repo: Repo) -> None:
    build(
        repo,
        {
            "app/package.json": """
                {"name": "app", "imports": {
                  "#db": {"types": "./dist/db.d.ts", "default": "./src/db.js"},
                  "#lib/*": "./lib/*.js",
                  "#dep": "lodash"}}
            """,
            "app/src/db.js": "export function connect() {}\n",
            "app/lib/util.js": "export function helper() {}\n",
            "app/main.js": """
                import { connect } from "#db";
                import { helper } from "#lib/util";
                import dep from "#dep";
                import other from "#missing";
            """,
        },
    )
    found = imports(repo)
    assert ("app/main", "app/src/db") in found
    assert ("app/main", "app/lib/util") in found
    assert not any(target.startswith("#") for _, target in found)
