"""Tries and held for the secrets a hostile run plants: in documents bound for a hosted provider,
and in the provider's echo of the profile's own key; and what redaction takes from documents that
hold no secret.

    PYTHONPATH=src .venv/bin/python benchmarks/hostile_secrets.py [--docs DIR ...] [--show N]

Families:
- planted secrets: each shape of ``tests/answer/planted_secrets.py`` in a source of its own, sent
  through ``RedactingChat`` to a scripted hosted model (``groundkit.testing.ScriptedChat``, not
  local); held when the system and user text the model received hold no trace of the secret
  (both reduced to ASCII letters and digits after NFKC, so a key that got through with a
  zero-width space still counts as leaked).
- echo disguises: each disguise and split of ``tests/answer/echo_disguises.py`` in a reply's
  items, through ``Scrubber`` with the key; held when no 8-character piece of the key can be read
  from what would be shown.
- must not redact: the ordinary prose and code of the planted set that only mention secrets;
  held when it reaches the model as written.
Then, for each ``--docs`` folder (``docs/samples`` by default), the passages (about 1,200
characters) in which redaction replaced anything, by label: documents with no secret in them,
so each replaced value is a false positive unless ``--show`` finds a real one.

The planted data is read from this checkout's tests; the code measured is whatever ``groundkit``
PYTHONPATH gives, so the same command measures another checkout's redaction.
"""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from collections import Counter
from pathlib import Path

from groundkit.answer.redact import DEFAULT_PATTERNS, RedactingChat, Redactor
from groundkit.answer.scrub import Scrubber
from groundkit.secret import Secret
from groundkit.testing.chat import ScriptedChat

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "answer"))

from echo_disguises import DISGUISES, KEY, SPLITS, leaks
from planted_secrets import NOT_SECRETS, cases

SYSTEM = "Answer only from the sources. Reply with JSON only."
PASSAGE_CHARS = 1_200
_TOKEN = re.compile(r"\[([A-Z]+)_\d+\]")


def core(text: str) -> str:
    """``text`` reduced to its ASCII letters and digits (after NFKC)."""
    return "".join(c for c in unicodedata.normalize("NFKC", text) if c.isascii() and c.isalnum())


def _sent(*sources: str) -> str:
    """What a hosted model receives for a prompt over ``sources``: system and user text."""
    model = ScriptedChat(['{"items": []}'], local=False)
    user = "Question:\nwombat record\n\nSources:\n" + "".join(
        f'<source id="{i}">\n{text}\n</source>\n' for i, text in enumerate(sources, 1)
    )
    RedactingChat(model, DEFAULT_PATTERNS).complete(SYSTEM, user)
    return model.calls[0].system + "\n" + model.calls[0].user


def planted() -> tuple[int, list[str]]:
    out = cases()
    leaked = [
        kind for kind, text, secret in out if core(secret) in core(_sent(f"Wombat record: {text}"))
    ]
    return len(out), leaked


def echoes() -> tuple[int, list[str]]:
    scrub = Scrubber([Secret(KEY)])
    shown = {
        name: scrub.many([f"Wombats dig. The key is {text} today."])
        for name, text in DISGUISES.items()
    }
    shown |= {name: scrub.many(pieces) for name, pieces in SPLITS.items()}
    return len(shown), [name for name, texts in shown.items() if leaks("\n".join(texts))]


def ordinary() -> tuple[int, list[str]]:
    changed = [text for text in NOT_SECRETS if text not in _sent(text)]
    return len(NOT_SECRETS), changed


def _passages(docs: Path) -> list[tuple[str, str]]:
    out = []
    for path in sorted(docs.rglob("*")):
        if path.suffix in (".md", ".txt", ".html", ".rst") and path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
            for i in range(0, len(text), PASSAGE_CHARS):
                out.append((f"{path.relative_to(docs)}@{i}", text[i : i + PASSAGE_CHARS]))
    return out


def false_positives(docs: Path, show: int) -> None:
    passages = _passages(docs)
    by_label: Counter[str] = Counter()
    touched: Counter[str] = Counter()
    secret = 0
    examples: list[str] = []
    for where, text in passages:
        labels = [m.group(1) for m in _TOKEN.finditer(_sent(text)) if m.group(0) not in text]
        by_label.update(labels)
        touched.update(set(labels))
        secret += bool({"SECRET", "URL"} & set(labels))
        if labels and len(examples) < show:
            # The values themselves, from a redactor of the same patterns.
            redactor = Redactor(DEFAULT_PATTERNS, reserved=text)
            tokens = _TOKEN.finditer(redactor.redact_parts(text))
            values = {t.group(0): redactor.restore(t.group(0), json_strings=False) for t in tokens}
            examples += [f"  {where}: {token} {value!r}" for token, value in values.items()]
    total = max(len(passages), 1)
    print(f"\n{docs}: {len(passages)} passages, {sum(len(t) for _, t in passages):,} characters")
    print(f"  passages with a SECRET or URL replaced: {secret} ({secret / total:.1%})")
    for label, n in sorted(by_label.items()):
        print(f"  {label:<7} {n:>5} values in {touched[label]:>4} passages")
    print("\n".join(examples))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--docs", type=Path, action="append")
    parser.add_argument("--show", type=int, default=0, help="name the first N passages touched")
    parser.add_argument("--leaks", action="store_true", help="name what got through")
    args = parser.parse_args()
    print(f"{'family':<22}{'tries':>7}{'held':>7}")
    for family, run in (
        ("planted secrets", planted),
        ("echo disguises", echoes),
        ("must not redact", ordinary),
    ):
        tries, failed = run()
        print(f"{family:<22}{tries:>7}{tries - len(failed):>7}")
        if args.leaks:
            for name in failed:
                print(f"    not held: {name}")
    for docs in args.docs or [Path("docs/samples")]:
        false_positives(docs, args.show)


if __name__ == "__main__":
    main()
