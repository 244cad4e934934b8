"""The fixture site the UI tests serve: two collections, a code map and an eval run, made once.

``notes`` is embedded (so hybrid search shows each arm's rank) and opted in to AI with the local
profile ``box``, whose endpoint is a loopback fake chat server; ``plain`` has AI off. ``shop`` is
the code map of a two-package repository with a route, opted in with the local profile ``coder``
(a fake chat server of its own, so that its scripted replies are its own). Everything lives under
one folder, which is also the folder the server starts in (so ``evals/results`` and ``grk.toml``
are found there).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from groundkit import open_codemap, open_collection
from groundkit.answer.optin import AISettings
from groundkit.config import parse_settings

WOMBAT = (
    "# Wombats\n\nThe wombat digs long burrows with its strong claws.\n\n"
    "## Diet\n\nA wombat eats grasses, roots and bark at night.\n"
)
ECHIDNA = "A guide to echidnas: the echidna lays an egg, like the platypus.\n"
QUOKKA = "# Quokkas\n\nThe quokka smiles on Rottnest Island every morning.\n"
REPO = {
    "shop/__init__.py": "",
    "shop/api.py": "from fastapi import FastAPI\nfrom shop.db import save\n"
    "from billing.invoice import bill\n\napp = FastAPI()\n\n\n"
    "@app.post('/orders/{order_id}')\ndef order(order_id):\n    save()\n    bill(order_id)\n",
    "shop/db.py": "def save():\n    pass\n",
    "billing/__init__.py": "",
    "billing/invoice.py": "from billing.tax import rate\n\n\ndef bill(order_id):\n"
    "    return rate() * 2\n",
    "billing/tax.py": "def rate():\n    return 0.2\n",
}
AREAS = ["(routes)", "billing", "shop"]
MODULES = ["billing", "billing.invoice", "billing.tax", "shop", "shop.api", "shop.db"]
SECRET = "correct horse battery staple"
SECRET_ENV = "GROUNDKIT_SERVE_SECRET"
QUESTION = "what does the wombat dig"
# What the fake model answers, in order: an answer whose two quotes are in the wombat passage
# (source 1 for this question), then one that quotes words the passage does not hold.
QUOTES = ["digs long burrows", "with its strong claws"]  # each at least 16 characters
GOOD_REPLY = json.dumps(
    {
        "items": [
            {"text": "Wombats dig burrows.", "citations": [{"source": 1, "quote": QUOTES[0]}]},
            {"text": "They dig with claws.", "citations": [{"source": 1, "quote": QUOTES[1]}]},
        ]
    }
)
# The code map's: `bill`'s trace (depth 2, defines left out) is one edge, source 1; the answer
# quotes its claim, and the refused one words the edge does not hold.
SYMBOL = "billing.invoice.bill"
MAP_QUESTION = "what does bill depend on"
EDGE = "billing.invoice.bill calls billing.tax.rate at billing/invoice.py:5: return rate() * 2"
EDGE_QUOTE = "billing.invoice.bill calls billing.tax.rate"
MAP_GOOD_REPLY = json.dumps(
    {
        "items": [
            {
                "text": "bill asks for the tax rate.",
                "citations": [{"source": 1, "quote": EDGE_QUOTE}],
            }
        ]
    }
)
MAP_BAD_REPLY = json.dumps(
    {
        "items": [
            {
                "text": "bill sends an email.",
                "citations": [{"source": 1, "quote": "send_email(order_id)"}],
            }
        ]
    }
)
BAD_REPLY = json.dumps(
    {
        "items": [
            {
                "text": "Wombats fly.",
                "citations": [{"source": 1, "quote": "flies south for the winter"}],
            }
        ]
    }
)


@dataclass(frozen=True)
class Site:
    root: Path  # the server's working folder
    index_dir: Path
    docs: Path
    repo: Path
    config: Path  # grk.toml
    xdg: Path  # XDG_CONFIG_HOME: holds groundkit/ai.json
    eval_dir: Path


def profile_toml(chat_url: str, map_chat_url: str) -> str:
    return "".join(
        f"[profiles.{name}]\n"
        'provider = "openai_compatible"\n'
        f'base_url = "{url}/v1"\n'
        'model = "fake"\n'
        "local = true\n"
        for name, url in (("box", chat_url), ("coder", map_chat_url))
    )


def make_site(root: Path, chat_url: str, map_chat_url: str = "http://127.0.0.1:9") -> Site:
    docs = root / "docs"
    (docs / "guides").mkdir(parents=True)
    (docs / "wombat.md").write_text(WOMBAT, encoding="utf-8")
    (docs / "guides" / "echidnas.txt").write_text(ECHIDNA, encoding="utf-8")
    (docs / "quokka.md").write_text(QUOKKA, encoding="utf-8")
    repo = root / "shop-repo"
    for rel, text in REPO.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text, encoding="utf-8")
    index_dir = root / "index"
    settings = parse_settings({"index_dir": str(index_dir)})
    with open_collection("notes", index_dir=index_dir, settings=settings) as notes:
        notes.ingest([docs], dense=True)
        notes_path = notes.path
    with open_collection("plain", index_dir=index_dir, settings=settings) as plain:
        plain.ingest([docs / "wombat.md"])
    with open_codemap("shop", settings=settings, create=True) as codemap:
        codemap.update(repo)
        shop_path = codemap.folder
    xdg = root / "xdg"
    opt_ins = AISettings(xdg / "groundkit" / "ai.json")
    opt_ins.enable(notes_path, "box")
    opt_ins.enable(shop_path, "coder")  # what `grk ai enable map:shop --profile coder` writes
    config = root / "grk.toml"
    config.write_text(profile_toml(chat_url, map_chat_url), encoding="utf-8")
    eval_dir = root / "evals" / "results"
    write_eval_run(root / "golden", root / "eval-work", eval_dir)
    return Site(root, index_dir, docs, repo, config, xdg, eval_dir)


def write_eval_run(golden: Path, work: Path, out: Path) -> str:
    """One real `grk eval` run of the small golden corpus, as the CLI writes it."""
    from groundkit import Settings
    from groundkit.eval.datasets import load_golden
    from groundkit.eval.html import render_html
    from groundkit.eval.results import build_report, write_report
    from groundkit.eval.runner import run_eval
    from groundkit.testing import FakeEmbedder
    from small_golden import make_small_golden

    run = run_eval(
        load_golden(make_small_golden(golden)), Settings(), work, embedder=FakeEmbedder()
    )
    report = build_report(run, Settings())
    path = write_report(report, out)
    path.with_suffix(".html").write_text(render_html(report), encoding="utf-8")
    return report.run_id
