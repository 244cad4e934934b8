"""TypeScript module import edges from TypeScript itself, dependency-cruiser and madge.

Usage (from the repository root; needs node 20+ and npm):
    python3.11 benchmarks/codemap/ts_imports/collect.py

It installs typescript, dependency-cruiser and madge (pinned) into /tmp/codemap-bench/ts-tools,
fetches each project's npm tarball with `npm pack`, unpacks it under /tmp/codemap-bench/ts-src
and, with the project's own tsconfig:

- resolves every import with the TypeScript compiler (`resolve.js`: ts.preProcessFile +
  ts.resolveModuleName under the tsconfig's options): this is the reference `edges`, since
  TypeScript's own rules decide what `baseUrl`, `paths` and index files mean;
- runs `depcruise` twice, with `--ts-pre-compilation-deps` (every import as written) and without
  (what survives compilation to JavaScript), for the edge kinds (`export_from`, `type_only`,
  `erased_by_compilation`) and as a cross-check;
- runs `madge --json` as a second cross-check.

Writes `benchmarks/codemap/ts_imports/<project>.json`:

    {"project", "version", "root", "source", "tools", "files", "edges": [[from, to], ...],
     "alias_edges": [...], "export_from": [...], "type_only": [...],
     "erased_by_compilation": [...], "unresolved": [[from, specifier], ...],
     "cross_check": {"dependency_cruiser": {...}, "madge": {...}}}

Paths are relative to `root` (a folder inside the unpacked tarball); edges are between files
under root (packages in node_modules are external and not listed; none are installed).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
WORK = Path("/tmp/codemap-bench")
TOOLS = WORK / "ts-tools"
TOOL_VERSIONS = {"dependency-cruiser": "17.4.3", "typescript": "5.9.3", "madge": "8.0.0"}

# project -> npm package, version, root inside the tarball, [(tsconfig, folder to cruise)]
PROJECTS: dict[str, dict[str, Any]] = {
    "rxjs": {
        "package": "rxjs",
        "version": "7.8.2",
        "root": "package",
        "runs": [("src/tsconfig.base.json", "src")],
        # src/tsconfig.base.json extends ../tsconfig.json, which the tarball does not ship:
        # an empty one stands in, so the base file's baseUrl and paths are what applies.
        "stub_files": {"tsconfig.json": "{}\n"},
    },
    "create-redwood-app-ts-template": {
        "package": "create-redwood-app",
        "version": "8.9.0",
        "root": "package/templates/ts",
        "runs": [("api/tsconfig.json", "api"), ("web/tsconfig.json", "web")],
        "stub_files": {},
    },
}


def ensure_tools() -> Path:
    marker = TOOLS / ".versions"
    wanted = json.dumps(TOOL_VERSIONS, sort_keys=True)
    if not marker.exists() or marker.read_text() != wanted:
        TOOLS.mkdir(parents=True, exist_ok=True)
        if not (TOOLS / "package.json").exists():
            (TOOLS / "package.json").write_text('{"name": "codemap-ts-tools", "private": true}\n')
        specs = [f"{name}@{version}" for name, version in TOOL_VERSIONS.items()]
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", *specs],
            cwd=TOOLS,
            check=True,
            capture_output=True,
        )
        marker.write_text(wanted)
    return TOOLS / "node_modules" / ".bin"


def fetch(package: str, version: str) -> Path:
    dest = WORK / "ts-src" / f"{package}-{version}"
    if dest.is_dir():
        return dest
    dest.mkdir(parents=True)
    out = subprocess.run(
        ["npm", "pack", f"{package}@{version}", "--json"],
        cwd=dest,
        check=True,
        capture_output=True,
        text=True,
    )
    archive = dest / json.loads(out.stdout)[0]["filename"]
    with tarfile.open(archive) as tar:
        tar.extractall(dest, filter="data")
    return dest


def cruise(depcruise: Path, root: Path, tsconfig: str, folder: str, pre: bool) -> dict[str, Any]:
    cmd = [
        str(depcruise),
        "--no-config",
        "--ts-config",
        str(root / tsconfig),
        "--output-type",
        "json",
        folder,
    ]
    if pre:
        cmd.insert(2, "--ts-pre-compilation-deps")
    out = subprocess.run(cmd, cwd=root, check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def typescript_edges(root: Path, tsconfig: str, folder: str) -> dict[str, Any]:
    env = {**os.environ, "NODE_PATH": str(TOOLS / "node_modules")}
    out = subprocess.run(
        ["node", str(HERE / "resolve.js"), tsconfig, folder],
        cwd=root,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout)


def madge_edges(bin_dir: Path, root: Path, tsconfig: str, folder: str) -> set[tuple[str, str]]:
    cmd = [
        str(bin_dir / "madge"),
        "--json",
        "--extensions",
        "ts,tsx,js,jsx,mjs,cjs",
        "--ts-config",
        str(root / tsconfig),
        folder,
    ]
    out = subprocess.run(cmd, cwd=root, check=True, capture_output=True, text=True)
    graph = json.loads(out.stdout)
    return {(f"{folder}/{a}", f"{folder}/{b}") for a, deps in graph.items() for b in deps}


def collect(name: str, spec: dict[str, Any], bin_dir: Path) -> dict[str, Any]:
    unpacked = fetch(spec["package"], spec["version"])
    root = unpacked / spec["root"]
    for rel, text in spec["stub_files"].items():
        if not (root / rel).exists():
            (root / rel).write_text(text)
    depcruise = bin_dir / "depcruise"
    files: set[str] = set()
    reference: set[tuple[str, str]] = set()
    alias: set[tuple[str, str]] = set()
    unresolved: set[tuple[str, str]] = set()
    kinds: dict[tuple[str, str], set[str]] = {}
    post: set[tuple[str, str]] = set()
    madge: set[tuple[str, str]] = set()
    ts_version = ""
    for tsconfig, folder in spec["runs"]:
        ts = typescript_edges(root, tsconfig, folder)
        ts_version = ts["typescript"]
        for src, dst, specifier, _kind in ts["edges"]:
            reference.add((src, dst))
            files.update((src, dst))
            if not specifier.startswith("."):
                alias.add((src, dst))
        unresolved.update((src, specifier) for src, specifier in ts["unresolved"])
        for module in cruise(depcruise, root, tsconfig, folder, pre=True)["modules"]:
            if (root / module["source"]).is_file():
                files.add(module["source"])
            for dep in module["dependencies"]:
                if not dep["couldNotResolve"] and (root / dep["resolved"]).is_file():
                    key = (module["source"], dep["resolved"])
                    kinds.setdefault(key, set()).update(dep["dependencyTypes"])
        for module in cruise(depcruise, root, tsconfig, folder, pre=False)["modules"]:
            for dep in module["dependencies"]:
                post.add((module["source"], dep["resolved"]))
        madge |= madge_edges(bin_dir, root, tsconfig, folder)

    def listed(edges: Any) -> list[list[str]]:
        return sorted([list(e) for e in edges])

    def of_kind(kind: str) -> list[list[str]]:
        return listed(k for k, v in kinds.items() if kind in v and k in reference)

    cruiser = set(kinds)
    return {
        "project": name,
        "version": spec["version"],
        "root": spec["root"],
        "source": f"npm pack {spec['package']}@{spec['version']}; unpack; the code base is "
        f"{spec['root']}/ of the tarball",
        "tools": {
            "typescript": ts_version,
            **{k: v for k, v in TOOL_VERSIONS.items() if k != "typescript"},
            "runs": [{"tsconfig": t, "folder": f} for t, f in spec["runs"]],
            "stub_files": spec["stub_files"],
        },
        "files": sorted(files),
        "edges": listed(reference),
        "alias_edges": listed(alias),
        "export_from": of_kind("export"),
        "type_only": of_kind("type-only"),
        "erased_by_compilation": listed(k for k in cruiser if k not in post and k in reference),
        "unresolved": listed(unresolved),
        "cross_check": {
            "dependency_cruiser": {
                "agree": len(reference & cruiser),
                "missed": listed(reference - cruiser),
                "extra": listed(cruiser - reference),
            },
            "madge": {
                "agree": len(reference & madge),
                "missed": listed(reference - madge),
                "extra": listed(madge - reference),
            },
        },
    }


def main() -> int:
    if shutil.which("npm") is None:
        print("npm is needed")
        return 2
    bin_dir = ensure_tools()
    print(
        f"{'project':<32}{'files':>7}{'edges':>7}{'alias':>7}{'erased':>8}{'unres':>7}"
        f"{'cruiser miss/extra':>20}{'madge miss/extra':>18}"
    )
    for name, spec in PROJECTS.items():
        data = collect(name, spec, bin_dir)
        (HERE / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n")
        dc, mg = data["cross_check"]["dependency_cruiser"], data["cross_check"]["madge"]
        print(
            f"{name:<32}{len(data['files']):>7}{len(data['edges']):>7}"
            f"{len(data['alias_edges']):>7}{len(data['erased_by_compilation']):>8}"
            f"{len(data['unresolved']):>7}"
            f"{len(dc['missed']):>12}/{len(dc['extra']):<7}{len(mg['missed']):>10}/"
            f"{len(mg['extra']):<7}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
