"""A small golden corpus, written per test so eval tests never depend on the shipped corpus."""

from __future__ import annotations

import json
from pathlib import Path

DOCS = {
    "pumps.md": "# Pumps\n\nThe alpha pump moves 40 litres a minute.\n\n"
    "## Servicing\n\nService the alpha pump every spring; replace its seals every third year.\n",
    "valves.txt": "Valve notes.\nThe beta valve opens at 3 bar and closes at 1 bar.\n"
    "A stuck valve is freed with a rubber mallet, never a steel hammer.\n",
    "safety.md": "# Safety\n\nWear gloves near the pumps."
    " Ear protection is required above 85 dB.\n",
}
JUDGMENTS = [
    ("q1", "how many litres does the alpha pump move", "factual", "pumps.md", "40 litres a minute"),
    (
        "q2",
        "when should seals be replaced",
        "factual",
        "pumps.md",
        "replace its seals every third year",
    ),
    ("q3", "beta valve opening pressure", "factual", "valves.txt", "opens at 3 bar"),
    ("q4", "what frees a jammed valve", "paraphrase", "valves.txt", "freed with a rubber mallet"),
    ("q5", "hearing protection loudness", "paraphrase", "safety.md", "Ear protection is required"),
    ("q6", "how loud may the pump room be", "factual", "safety.md", "above 85 dB"),
]


def make_small_golden(root: Path) -> Path:
    (root / "docs").mkdir(parents=True)
    for name, text in DOCS.items():
        (root / "docs" / name).write_text(text)
    rows = [
        {"id": i, "query": q, "category": c, "gold": [{"source": s, "quote": t, "grade": 2}]}
        for i, q, c, s, t in JUDGMENTS
    ]
    rows.append(
        {"id": "q7", "query": "what is the warranty period", "category": "no_answer", "gold": []}
    )
    (root / "judgments.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return root
