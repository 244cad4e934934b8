"""Bad input and hostile model replies.

Bad input holds when `grk` says what is wrong with a typed error and the exit status the README
gives (2 for a set-up error, 3 for a skipped input), never MemoryError, never a hang, never a
silent cut. A model reply holds when it is refused with a typed code (nothing of it shown) or,
for prose with line separators, when it is printed with them escaped."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from groundkit.testing.chat_server import FakeChatServer
from hostile_kit import Kit, Ran, Try


def _typed(name: str, ran: Ran, code: int, error: str | None = None) -> Try:
    held = ran.code == code and (error is None or ran.error_code == error)
    return Try(name, held and "internal error" not in ran.err, ran.said())


def bad_input(kit: Kit) -> list[Try]:
    work = kit.folder("input")
    index = work / "index"
    docs = work / "html"
    docs.mkdir()
    tries = []
    for depth in (300, 100_000):
        (docs / "deep.html").write_text(
            "<html><body>"
            + "<div>" * depth
            + "deep"
            + "</div>" * depth
            + "<p>after the deep part</p></body></html>"
        )
        ran = kit.grk(index, "ingest", str(docs), "--json", "-c", f"deep{depth}")
        skipped = json.dumps(ran.json.get("skipped", []))
        held = ran.code == 3 and "deep" in skipped and "empty" not in skipped
        tries.append(Try(f"HTML nested {depth:,} deep: skipped with a reason", held, ran.said()))
    fifo = work / "fifo.toml"
    os.mkfifo(fifo)
    for what, path in (("/dev/zero", "/dev/zero"), ("a FIFO", str(fifo))):
        ran = kit.grk(index, "--config", path, "status", "--json")
        tries.append(_typed(f"--config {what}", ran, 2))
    (work / "notes").mkdir()
    (work / "notes" / "a.md").write_text("# A\n\nalpha\n")
    kit.grk(index, "ingest", "-q", str(work / "notes"))
    ran = kit.grk(index, "search", "--queries", "/dev/zero", "--json")
    tries.append(_typed("search --queries /dev/zero", ran, 2))
    ran = kit.grk(Path("/dev/null"), "ingest", str(work / "notes"), "--json")
    tries.append(_typed("--index-dir /dev/null", ran, 2))
    repo = kit.folder("repo")
    (repo / "pkg").mkdir()
    (repo / "pkg" / "__init__.py").write_text("")
    (repo / "pkg" / "nul.py").write_bytes(b"x = 1\x00\n")
    (repo / "pkg" / "mod\x1b[2J.py").write_text(
        "def a():\n    return b()\n\n\ndef b():\n    return 1\n"
    )
    ran = kit.grk(index, "map", str(repo), "--json")
    reasons = {s.get("path"): s.get("reason", "") for s in ran.json.get("skipped", [])}
    nul = reasons.get("pkg/nul.py", "")
    tries.append(Try("a Python file with a NUL byte", "NUL" in nul, nul or ran.said()))
    shown = [
        kit.grk(index, "map", "show"),
        kit.grk(index, "trace", "pkg.mod\x1b[2J.a", "--map", "repo"),
    ]
    raw = any("\x1b" in r.out for r in shown)
    escaped = all("\\x1b[2J" in r.out for r in shown)
    tries.append(
        Try(
            "a control character in a path: map and trace",
            escaped and not raw,
            "escaped" if escaped else "raw or missing",
        )
    )
    return tries + _locked(kit, work)


# Holds a Qdrant path collection open, as a long ingest or a server would.
_HOLDER = """
import sys, time, groundkit
from groundkit.config import parse_settings
settings = parse_settings({"index_dir": sys.argv[1], "collections": {"notes": {
    "backend": "qdrant", "path": sys.argv[2]}}})
with groundkit.open_collection("notes", settings=settings) as held:
    held.ingest([sys.argv[3]])
    print("open", flush=True)
    time.sleep(120)
"""


def _locked(kit: Kit, base: Path) -> list[Try]:
    """A second `grk` on a Qdrant folder another process holds open."""
    (base / "grk.toml").write_text(
        f'[collections.notes]\nbackend = "qdrant"\npath = "{base / "qpath"}"\n'
    )
    index = base / "qindex"
    config = ("--config", str(base / "grk.toml"))
    made = kit.grk(index, *config, "-c", "notes", "ingest", "-q", str(base / "notes"), timeout=120)
    if made.code != 0:
        return [Try("a Qdrant folder held by another process", False, "setup: " + made.said())]
    holder = subprocess.Popen(
        [kit.python, "-c", _HOLDER, str(index), str(base / "qpath"), str(base / "notes")],
        env=kit.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert holder.stdout is not None
        holder.stdout.readline()  # it holds the engine's folder from here on
        ran = kit.grk(index, *config, "-c", "notes", "ingest", "-q", str(base / "notes"), "--json")
    finally:
        holder.kill()
        holder.wait()
    return [_typed("a Qdrant folder held by another process", ran, ran.code or -1, "index.locked")]


_QUOTE = "Wombats dig long burrows"
_PASSAGE = "# Wombats\n\nWombats dig long burrows with their claws and strong legs.\n"


def _reply(*items: dict[str, object]) -> str:
    return json.dumps({"items": list(items)})


def _item(text: str, times: int = 1) -> dict[str, object]:
    return {"text": text, "citations": [{"source": 1, "quote": _QUOTE}] * times}


def model_replies(kit: Kit) -> list[Try]:
    work = kit.folder("replies")
    index = work / "index"
    (work / "docs").mkdir()
    (work / "docs" / "w.md").write_text(_PASSAGE)
    assert kit.grk(index, "ingest", "-q", str(work / "docs")).code == 0
    refused = {
        "10,000 identical items": _reply(*[_item("Wombats dig burrows.")] * 10_000),
        "two items, same text": _reply(
            _item("Wombats dig burrows."), _item("wombats  dig burrows.")
        ),
        "one quote cited 5,000 times": _reply(_item("Wombats dig burrows.", 5_000)),
        "one quote cited twice": _reply(_item("Wombats dig burrows.", 2)),
        "a quote not in the source": json.dumps(
            {
                "items": [
                    {"text": "x", "citations": [{"source": 1, "quote": "wombats fly over the sea"}]}
                ]
            }
        ),
        "a source that does not exist": json.dumps(
            {"items": [{"text": "x", "citations": [{"source": 9, "quote": _QUOTE}]}]}
        ),
        "an item with no citation": json.dumps(
            {"items": [{"text": "Wombats fly.", "citations": []}]}
        ),
        "not JSON": "Wombats dig burrows, trust me.",
        "JSON nested 100,000 deep": "[" * 100_000 + "]" * 100_000,
        "an item of 1 MB": _reply(_item("Wombats " * 130_000)),
    }
    tries = []
    for name, content in refused.items():
        ran = _answer(kit, work, index, content)
        ai = ran.json.get("ai") or {}
        reason = ai.get("reason") or {}
        held = (
            ai.get("state") == "refused"
            and str(reason.get("code", "")).startswith("ai.")
            and ran.json.get("answer") is None
        )
        detail = f"{reason.get('code')}: {reason.get('message', '')}" if ai else ran.said()
        tries.append(Try(f"refused: {name}", held, detail[:110]))
    for separator in ("\u2028", "\u2029"):
        content = _reply(_item(f"Wombats dig{separator}burrows."))
        ran = _answer(kit, work, index, content, as_json=False)
        held = ran.code == 0 and separator not in ran.out and "\\u20" in ran.out
        tries.append(Try(f"U+{ord(separator):04X} in prose printed escaped", held, ran.said()))
    return tries


def _answer(kit: Kit, work: Path, index: Path, content: str, *, as_json: bool = True) -> Ran:
    with FakeChatServer([content] * 4) as server:
        config = work / "grk.toml"
        config.write_text(
            '[profiles.box]\nprovider = "openai_compatible"\n'
            f'base_url = "{server.url}/v1"\nmodel = "fake"\nlocal = true\nquotes = "free"\n'
        )
        kit.grk(index, "--config", str(config), "ai", "enable", "default", "--profile", "box")
        args = ["--config", str(config), "answer", "what do wombats dig?"]
        # A reply of 1 MB takes a loaded machine half a minute to check.
        return kit.grk(index, *args, *(["--json"] if as_json else []), timeout=120)
