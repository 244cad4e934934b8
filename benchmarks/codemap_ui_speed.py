"""How long the code map page takes to draw a large map, in a real headless browser.

A map of N modules (default 900, in 12 areas of packages of 6 to 12 modules, 5 functions each,
calls and imports between them drawn from a seeded generator) is written straight into a map
file (no parsing), served by `grk serve` on a loopback port, and the page is opened in Debian's
chromium (Playwright) until the drawing says it is ready (``#graph[data-ready=true]``), at the
module level and at the area level. Each is timed from navigation, several runs, median and
spread. The page's own layout is asked for twice to check it is the same on every load.

    python benchmarks/codemap_ui_speed.py                  # 900 modules, 5 runs
    python benchmarks/codemap_ui_speed.py --modules 300 --runs 3

``--against PATH/src`` also serves the same map with another checkout's code (the code before
a change: its page, script and server) and loads the two in turn, so that the ratio of their
medians is measured under the same load (this machine is shared: absolute seconds are not).

    python benchmarks/codemap_ui_speed.py --against ../main-before/src

``--index-dir DIR --map NAME`` draws a map already made there instead (a real repository's,
made by `grk map`), in the same way.

    python benchmarks/codemap_ui_speed.py --index-dir .groundkit --map django --runs 3
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from groundkit.codemap.api import open_codemap
from groundkit.config import Settings
from groundkit.testing import GraphBuilder

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]


def build_map(index_dir: Path, modules: int, seed: int = 7) -> dict[str, int]:
    """A map of ``modules`` modules written through ``GraphBuilder``: counts of what it holds."""
    rng = random.Random(seed)
    g = GraphBuilder()
    names: list[str] = []
    functions: list[str] = []
    package = 0
    while len(names) < modules:
        top = f"a{package % 12:02}"
        pkg = f"{top}.p{package:02}"
        if package < 12:
            g.package(top, f"{top}/__init__.py")
        g.package(pkg, f"{top}/p{package:02}/__init__.py")
        for i in range(min(rng.randint(6, 12), modules - len(names))):
            name = f"{pkg}.m{i:02}"
            path = f"{top}/p{package:02}/m{i:02}.py"
            g.module(name, path)
            names.append(name)
            for f in range(5):
                g.function(f"{name}.f{f}", path)
                functions.append(f"{name}.f{f}")
        package += 1
    edges = 0
    pairs: set[tuple[str, str]] = set()
    for name in names:  # imports: mostly near, some far
        for _ in range(rng.randint(1, 5)):
            other = names[min(len(names) - 1, max(0, names.index(name) + rng.randint(-30, 30)))]
            if rng.random() < 0.2:
                other = rng.choice(names)
            if other != name and (name, other) not in pairs:
                pairs.add((name, other))
                g.imports(name, other)
                edges += 1
    for source in functions:
        for _ in range(rng.randint(0, 3)):
            target = rng.choice(functions)
            if target != source and (source, target) not in pairs:
                pairs.add((source, target))
                g.calls(source, target)
                edges += 1
    settings = Settings(index_dir=str(index_dir))
    with open_codemap("big", settings=settings, create=True) as codemap:
        g.write(codemap.store)
    return {"modules": len(names), "functions": len(functions), "edges": edges}


def made_map(index_dir: Path, name: str) -> dict[str, int]:
    """What a map made by `grk map` holds: its modules, functions and edges."""
    with open_codemap(name, settings=Settings(index_dir=str(index_dir))) as codemap:
        kinds = [str(n.kind) for n in codemap.nodes()]
        edges = sum(1 for e in codemap.edges() if e.kind != "defines")
    functions = kinds.count("function") + kinds.count("method")
    return {"modules": kinds.count("module"), "functions": functions, "edges": edges}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve(index_dir: Path, src: str | None = None) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRK_")}
    if src is not None:
        env["PYTHONPATH"] = src
    command = [sys.executable, "-m", "groundkit.cli.main", "--index-dir", str(index_dir)]
    process = subprocess.Popen(
        [*command, "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                return process, base
        except httpx.TransportError:
            pass
        time.sleep(0.1)  # waiting for a server to listen, not a measurement
    process.kill()
    raise SystemExit("grk serve did not start")


def timed(browser: object, url: str) -> tuple[float, object]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    page = context.new_page()
    started = time.perf_counter()
    page.goto(url, timeout=600_000)  # a large map on a loaded machine: minutes, not 30 s
    page.wait_for_selector('#graph[data-ready="true"]', timeout=600_000)
    seconds = time.perf_counter() - started
    layout = page.evaluate(
        "groundkitMap.nodes().map((n) => [n.id(), Math.round(n.position().x),"
        " Math.round(n.position().y)]).sort()"
    )
    context.close()
    return seconds, layout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--modules", type=int, default=900)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--against", help="another checkout's src folder, served beside")
    parser.add_argument("--index-dir", help="draw a map already made in this index dir")
    parser.add_argument("--map", default="big", help="the map to draw (with --index-dir)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="grk-ui-speed-") as tmp:
        index_dir = Path(args.index_dir or tmp)
        counts = (
            made_map(index_dir, args.map) if args.index_dir else build_map(index_dir, args.modules)
        )
        servers = {"this": serve(index_dir)}
        if args.against:
            servers["against"] = serve(index_dir, os.path.abspath(args.against))
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                print(f"map: {counts}; load before: {os.getloadavg()[0]:.1f}")
                print("| code | view | runs | median s | min s | max s | same layout each load |")
                print("| --- | --- | ---: | ---: | ---: | ---: | --- |")
                for level in ("module", "area"):
                    times: dict[str, list[float]] = {name: [] for name in servers}
                    layouts: dict[str, list[object]] = {name: [] for name in servers}
                    for _ in range(args.runs):
                        for name, (_, base) in servers.items():  # in turn: the same load
                            seconds, layout = timed(
                                browser, f"{base}/ui/maps/{args.map}?level={level}"
                            )
                            times[name].append(seconds)
                            layouts[name].append(layout)
                    for name in servers:
                        same = all(layout == layouts[name][0] for layout in layouts[name])
                        found = times[name]
                        print(
                            f"| {name} | {level} | {args.runs} | {statistics.median(found):.2f} |"
                            f" {min(found):.2f} | {max(found):.2f} | {'yes' if same else 'no'} |"
                        )
                browser.close()
                print(f"load after: {os.getloadavg()[0]:.1f}")
        finally:
            for process, _ in servers.values():
                process.terminate()
                process.wait(timeout=30)


if __name__ == "__main__":
    main()
