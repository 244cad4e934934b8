"""Hostile sources: a cited file that became something else (a FIFO, a link to a device, a
sparse file of gigabytes, a socket, a folder, a loop of links), read again by `grk show`,
`grk answer`, `grk serve` and a re-ingest; and a code map whose manifests or files are FIFOs.

A try holds when the command ends within the timeout, without an internal error, and says what
it could not check (``not_checked`` or ``missing``, with a reason)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from hostile_kit import Kit, Try

# Each kind: how the cited file is replaced.
KINDS = ("fifo", "dev-zero", "dev-urandom", "sparse-3gb", "socket", "folder", "loop", "dev-null")
WORDS = {kind: f"word{i}x" for i, kind in enumerate(KINDS)}


def _replace(path: Path, kind: str, sockets: list[socket.socket]) -> None:
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind.startswith("dev-"):
        os.symlink("/dev/" + kind.removeprefix("dev-").replace("-", ""), path)
    elif kind == "sparse-3gb":
        with open(path, "wb") as fh:
            fh.truncate(3 << 30)
    elif kind == "socket":
        held = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        held.bind(str(path))
        held.listen(1)
        sockets.append(held)  # listening, so that a connect would not fail at once
    elif kind == "folder":
        path.mkdir()
    elif kind == "loop":
        os.symlink(path.name, path)


def _shown(ran_json: dict[str, object]) -> bool:
    """Said what it could not check: gone (as a deleted file), or why it was not read."""
    verdict = ran_json.get("verification")
    return verdict == "missing" or (
        verdict in ("not_checked", "unreadable") and bool(ran_json.get("reason"))
    )


def hostile_sources(kit: Kit) -> list[Try]:
    work = kit.folder("sources")
    docs, index = work / "docs", work / "index"
    docs.mkdir()
    for kind, word in WORDS.items():
        (docs / f"{kind}.md").write_text(f"# {kind}\n\nThe {word} passage is here.\n")
    (docs / "keep.md").write_text("# Keep\n\nA plain passage stays.\n")
    assert kit.grk(index, "ingest", "-q", str(docs)).code == 0
    ids = {}
    for kind, word in WORDS.items():
        hits = kit.grk(index, "search", word, "--json").json["hits"]
        ids[kind] = hits[0]["chunk_id"]
    sockets: list[socket.socket] = []
    for kind in KINDS:
        _replace(docs / f"{kind}.md", kind, sockets)
    tries = []
    for kind in KINDS:
        ran = kit.grk(index, "show", ids[kind], "--json")
        held = ran.code == 0 and _shown(ran.json)
        detail = ran.said() if ran.code != 0 else f"{ran.json.get('verification')}"
        tries.append(Try(f"show: {kind}", held, f"{detail} ({ran.seconds:.1f} s)"))
    for kind in ("fifo", "dev-zero", "dev-urandom", "sparse-3gb"):
        ran = kit.grk(index, "answer", f"the {WORDS[kind]} passage")
        held = ran.code == 0 and "internal error" not in ran.err
        tries.append(Try(f"answer: {kind}", held, f"{ran.said()} ({ran.seconds:.1f} s)"))
    tries += _serve(kit, index, ids)
    # Re-ingest: a cited file that is no longer a regular file goes as a deleted one does.
    kit.grk(index, "ingest", "-q", str(docs))
    for kind in ("fifo", "dev-zero", "dev-urandom", "socket"):
        hits = kit.grk(index, "search", WORDS[kind], "--json").json.get("hits", [])
        tries.append(Try(f"re-ingest drops: {kind}", not hits, f"{len(hits)} hits left"))
    for held_socket in sockets:
        held_socket.close()
    return tries + _map(kit, work)


def _get(url: str, timeout: float) -> int | None:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return exc.code
    except OSError:
        return None


def _serve(kit: Kit, index: Path, ids: dict[str, str]) -> list[Try]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    command = kit.grk_command(index, "serve", "--port", str(port))
    proc = subprocess.Popen(
        command, env=kit.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 60
        while _get(base + "/healthz", 2) != 200 and time.monotonic() < deadline:
            time.sleep(0.5)
        # 70 requests for a chunk whose file is a FIFO, at once (the wedge).
        url = f"{base}/v1/chunks/{ids['fifo']}"
        with ThreadPoolExecutor(70) as pool:
            statuses = list(pool.map(lambda _: _get(url, 30), range(70)))
        answered = sum(1 for s in statuses if s == 200)
        busy = sum(1 for s in statuses if s == 503)  # turned away at once, saying so
        tries = [
            Try(
                "serve: 70 reads of a FIFO at once",
                answered + busy == 70 and answered > 0,
                f"{answered} answered, {busy} busy (503), {70 - answered - busy} other",
            )
        ]
        started = time.monotonic()
        health = _get(base + "/healthz", 5)
        tries.append(
            Try(
                "serve: /healthz after",
                health == 200,
                f"{health} in {time.monotonic() - started:.1f} s",
            )
        )
        zero = _get(f"{base}/v1/chunks/{ids['dev-zero']}", 30)
        tries.append(Try("serve: a chunk of /dev/zero", zero == 200, f"{zero}"))
        status = _get(base + "/v1/status", 30)
        tries.append(Try("serve: other routes answer", status == 200, f"{status}"))
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(20)
            ended = True
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            ended = False
    return [*tries, Try("serve: SIGTERM ends it", ended, "within 20 s" if ended else "ignored")]


def _map(kit: Kit, work: Path) -> list[Try]:
    tries = []
    for name in ("pyproject.toml", "package.json", "tsconfig.json"):
        repo = kit.folder(f"map-{name}")
        (repo / "pkg").mkdir()
        (repo / "pkg" / "__init__.py").write_text("")
        (repo / "pkg" / "a.py").write_text("def f():\n    return g()\n\n\ndef g():\n    return 1\n")
        (repo / "web.ts").write_text("export const x = 1;\n")
        os.mkfifo(repo / name)
        ran = kit.grk(work / f"index-{name}", "map", "-q", str(repo), "--json")
        tries.append(Try(f"map: {name} a FIFO", ran.code in (0, 3), ran.said()))
    repo = kit.root / "map-pyproject.toml"
    os.unlink(repo / "pyproject.toml")
    index = work / "index-edge"
    kit.grk(index, "map", "-q", str(repo))
    (repo / "pkg" / "a.py").unlink()
    os.mkfifo(repo / "pkg" / "a.py")
    ran = kit.grk(index, "trace", "pkg.a.f", "--map", repo.name, "--evidence", "--json")
    steps = ran.json.get("steps") or [{}]
    verdict = steps[0].get("edge", {}).get("verification")
    tries.append(Try("map: an edge's file became a FIFO", ran.code == 0, f"{ran.said()} {verdict}"))
    return tries
